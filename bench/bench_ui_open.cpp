// Desktop inspector benchmark: time from open to the first painted frame, and frame times when panning
// zoomed out (whole graph in view) and at 100 %. Models: the corpus, generated transformer-like graphs of
// 10,000 and 30,000 nodes, and any model paths given as arguments (e.g. swin_t from make_corpus.py).
// Anchor: dot on the whole graph (`dot -Tplain` with FlowBridge's bounded settings), capped.
// Child modes for bench_scale: `--first-frame MODEL` (one line of figures, see firstFrameChild; FB_BENCH_UI_LOG=1
// prints the document's log, FB_BENCH_UI_SETTLE=ms waits for the background work first, FB_BENCH_UI_TOGGLES=n
// repeats the expansion for a profiler) and `--phases MODEL` (read and layout times and memory, no window).
// `--preview MODEL [OPSET]`: Preview conversion as a user runs it, see previewChild; the default run previews the
// generated 30k and 100k graphs at opset 11. `--write-synthetic NODES PATH [flat]`: writes a generated graph (flat:
// names without scopes).
// `--compare A B`: File > Compare With... as a user runs it, see compareChild; the default run compares the
// 30k-node synthetic graph with a copy whose every node and value is renamed.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include "formats/onnx/onnx_writer.h"
#include "formats/model_io.h"
#include "ir/graph.h"
#include "resources/synthetic_graph.h"
#include "layout/hierarchical_layout.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/compare/compare_controller.h"
#include "ui/compare/compare_docks.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/conversion/convert_panel.h"
#include "ui/preview/preview_link.h"
#include "tests/support/event_loop_gap.h"

using namespace fb;

namespace {

struct Figures {
  double openMs = -1;
  double zoomFrameMs = -1;  // the first frame after fitting: the overview pixmap is drawn then
  double fitFrameMs = -1;
  double detailFrameMs = -1;
  double expandMs = -1;  // double-click on a collapsed block: re-layout, scene rebuild, one frame
  int items = 0;
};

double panFrames(ui::GraphView* view, int frames) {
  QScrollBar* h = view->horizontalScrollBar();
  QScrollBar* v = view->verticalScrollBar();
  QElapsedTimer t;
  t.start();
  for (int i = 0; i < frames; ++i) {
    // Alternate directions so that the view keeps moving inside the scene.
    const int step = (i % 2 ? -1 : 1) * 12;
    if (v->maximum() > 0) v->setValue(v->value() + step);
    if (h->maximum() > 0) h->setValue(h->value() + step);
    view->viewport()->repaint();  // paints synchronously: one frame
  }
  return double(t.nsecsElapsed()) / 1e6 / frames;
}

Figures measure(const QString& path) {
  Figures f;
  ui::MainWindow w;
  w.resize(1400, 900);
  w.show();
  QCoreApplication::processEvents();
  QSignalSpy ok(w.document(), &ui::Document::modelChanged);
  QSignalSpy failed(w.document(), &ui::Document::loadFailed);
  QElapsedTimer t;
  t.start();
  w.openFile(path);
  while (ok.isEmpty() && failed.isEmpty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  if (!failed.isEmpty()) {
    std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(w.lastError()));
    return f;
  }
  w.view()->viewport()->repaint();
  f.openMs = double(t.nsecsElapsed()) / 1e6;
  f.items = int(w.scene()->items().size());
  w.view()->fitAll();
  QElapsedTimer z;
  z.start();
  w.view()->viewport()->repaint();
  f.zoomFrameMs = double(z.nsecsElapsed()) / 1e6;
  f.fitFrameMs = panFrames(w.view(), 40);
  w.view()->resetTransform();
  w.view()->centerOn(w.scene()->sceneRect().center());
  f.detailFrameMs = panFrames(w.view(), 40);
  for (auto* item : w.scene()->items()) {
    auto* block = qgraphicsitem_cast<ui::BlockItem*>(item);
    if (!block || block->isExpanded()) continue;
    QElapsedTimer e;
    e.start();
    w.document()->toggleBlock(block->block());
    w.view()->viewport()->repaint();
    f.expandMs = double(e.nsecsElapsed()) / 1e6;
    break;
  }
  return f;
}

// dot -Tplain on the whole graph, as a picture of what FlowBridge avoids; capped at `capSeconds`.
QString wholeGraphDot(const QString& model, const QString& scratch, int capSeconds) {
  auto m = loadModel(model.toStdString());
  QFile dot(scratch + "/whole.dot");
  if (!dot.open(QIODevice::WriteOnly)) return "-";
  QTextStream out(&dot);
  out << "digraph g { splines=false nslimit=0.2 nslimit1=0.2 mclimit=0.1 remincross=false node [shape=box];\n";
  std::unordered_map<const ir::Node*, int> id;
  for (const auto& n : m->graph().nodes()) id[n.get()] = int(id.size());
  for (const auto& n : m->graph().nodes()) {
    out << "n" << id[n.get()] << " [label=\"" << QString::fromStdString(n->opType) << "\"];\n";
    for (const ir::Value* v : n->inputs())
      if (v && v->producer()) out << "n" << id[v->producer()] << " -> n" << id[n.get()] << ";\n";
  }
  out << "}\n";
  dot.close();
  QProcess p;
  QElapsedTimer t;
  t.start();
  p.start("dot", {"-Tplain", "-o", "/dev/null", dot.fileName()});
  if (!p.waitForFinished(capSeconds * 1000)) {
    p.kill();
    p.waitForFinished();
    return QStringLiteral("> %1 s").arg(capSeconds);
  }
  return QStringLiteral("%1 s").arg(double(t.elapsed()) / 1000, 0, 'f', 2);
}

// bench_scale's child: one model opened as a user would, once. Prints on one line: open to first painted frame
// (ms), peak RSS at that frame (kB), expanding a collapsed block in view (ms, from the request to the block's
// items in the scene and painted), panning at the start zoom (frames/s, viewport repainted each step), scene
// items at the first frame, nodes of the model.
int firstFrameChild(const QString& path) {
  ui::MainWindow w;
  w.resize(1400, 900);
  w.show();
  QCoreApplication::processEvents();
  QSignalSpy ok(w.document(), &ui::Document::modelChanged);
  QSignalSpy failed(w.document(), &ui::Document::loadFailed);
  if (qEnvironmentVariableIsSet("FB_BENCH_UI_LOG"))
    QObject::connect(w.document(), &ui::Document::logMessage,
                     [](const QString& m) { std::fprintf(stderr, "%s\n", qPrintable(m)); });
  QElapsedTimer t;
  t.start();
  w.openFile(path);
  while (ok.isEmpty() && failed.isEmpty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  if (!failed.isEmpty()) {
    std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(w.lastError()));
    return 1;
  }
  w.view()->viewport()->repaint();
  const double openMs = double(t.nsecsElapsed()) / 1e6;
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  const long firstFramePeakKb = ru.ru_maxrss;
  const int items = int(w.scene()->items().size());
  const size_t nodes = w.document()->model()->graph().nodeCount();

  if (qEnvironmentVariableIsSet("FB_BENCH_UI_SETTLE")) {  // wait for the background work (types, dry run)
    QElapsedTimer s;
    s.start();
    while (w.document()->typesPending()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    QTest::qWait(qEnvironmentVariableIntValue("FB_BENCH_UI_SETTLE"));
    std::fprintf(stderr, "settled after %.0f ms\n", double(s.nsecsElapsed()) / 1e6);
  }
  // The collapsed block nearest the middle of the view, as a double-click there would expand it.
  const QPointF mid = w.view()->mapToScene(w.view()->viewport()->rect().center());
  ui::BlockItem* pick = nullptr;
  double best = 1e300;
  for (auto* item : w.scene()->items()) {
    auto* b = qgraphicsitem_cast<ui::BlockItem*>(item);
    if (!b || b->isExpanded()) continue;
    const double d = QLineF(b->box().center(), mid).length();
    if (d < best) best = d, pick = b;
  }
  double expandMs = -1;
  if (pick) {
    const int block = pick->block();
    QElapsedTimer e;
    e.start();
    w.scene()->toggleBlockKeepingPlace(block, w.view());
    w.view()->viewport()->repaint();
    expandMs = double(e.nsecsElapsed()) / 1e6;
    ui::BlockItem* after = w.scene()->itemForBlock(block);
    if (!after || !after->isExpanded()) expandMs = -1;
    // FB_BENCH_UI_TOGGLES=n: collapse and expand again n times (for a profiler).
    const int toggles = 2 * qEnvironmentVariableIntValue("FB_BENCH_UI_TOGGLES");
    e.restart();
    for (int i = 0; i < toggles; ++i) {
      w.scene()->toggleBlockKeepingPlace(block, w.view());
      w.view()->viewport()->repaint();
    }
    if (toggles) std::fprintf(stderr, "toggle: %.1f ms on average\n", double(e.nsecsElapsed()) / 1e6 / toggles);
  }
  const int frames = 120;
  const double panFps = 1000.0 / panFrames(w.view(), frames);
  std::printf("%.1f %ld %.1f %.1f %d %zu\n", openMs, firstFramePeakKb, expandMs, panFps, items, nodes);
  return 0;
}

long peakRssKb() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

// Preview conversion as a user runs it: the model is opened and its dry run shown, then Convert > Preview is
// triggered at OPSET (the model's own when not given). Prints on one line: Preview to the converted graph painted
// beside the source (ms), of which the conversion (ms, to conversionFinished), peak RSS before Preview and at the
// end (kB), nodes of the source and of the preview, and the event loop's largest gap (ms) from the click until the
// preview is paired and typed. FB_BENCH_UI_LOG=1 prints the Log panel's lines.
int previewChild(const QString& path, int opset) {
  ui::MainWindow w;
  w.resize(1400, 900);
  w.show();
  QCoreApplication::processEvents();
  auto* controller = w.conversion()->controller();
  ui::Document* preview = w.conversion()->previewDocument();
  if (qEnvironmentVariableIsSet("FB_BENCH_UI_LOG")) {
    static QElapsedTimer clock;
    clock.start();
    auto print = [](const QString& m) { std::fprintf(stderr, "%6lld %s\n", clock.elapsed(), qPrintable(m)); };
    // Gaps of the event loop over 50 ms, with the time they ended (to place them among the log lines).
    static QTimer gapTicks;
    static QElapsedTimer sinceTick;
    sinceTick.start();
    gapTicks.setInterval(10);
    QObject::connect(&gapTicks, &QTimer::timeout, [] {
      if (sinceTick.elapsed() > 50) std::fprintf(stderr, "%6lld gap %lld ms\n", clock.elapsed(), sinceTick.elapsed());
      sinceTick.restart();
    });
    gapTicks.start();
    QObject::connect(w.document(), &ui::Document::logMessage, print);
    QObject::connect(controller, &ui::ConversionController::logMessage, print);
    QObject::connect(preview, &ui::Document::logMessage, print);
  }
  QSignalSpy opened(w.document(), &ui::Document::modelChanged);
  QSignalSpy failed(w.document(), &ui::Document::loadFailed);
  QSignalSpy dry(controller, &ui::ConversionController::dryRunFinished);
  w.openFile(path);
  while (opened.isEmpty() && failed.isEmpty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  if (!failed.isEmpty()) {
    std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(w.lastError()));
    return 1;
  }
  if (opset > 0 && opset != controller->targetOpset()) {
    while (dry.isEmpty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    dry.clear();
    controller->setTargetOpset(opset);
  }
  while (dry.isEmpty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  QTest::qWait(200);
  const long peakBefore = peakRssKb();

  QSignalSpy converted(controller, &ui::ConversionController::conversionFinished);
  QSignalSpy convertFailed(controller, &ui::ConversionController::conversionFailed);
  QSignalSpy shown(preview, &ui::Document::modelChanged);
  // The event loop's largest gap while the preview is made (as test_ui_preview_responsive measures it).
  test::EventLoopGapMeter gaps;
  QElapsedTimer t;
  t.start();
  gaps.start();
  double convertMs = -1;
  w.conversion()->panel()->previewAction()->trigger();
  while ((shown.isEmpty() || !preview->model()) && convertFailed.isEmpty()) {
    QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    if (convertMs < 0 && !converted.isEmpty()) convertMs = double(t.nsecsElapsed()) / 1e6;
  }
  if (!convertFailed.isEmpty()) {
    std::fprintf(stderr, "%s: preview failed: %s\n", qPrintable(path),
                 qPrintable(convertFailed.first().first().toString()));
    return 1;
  }
  // The pane shows, the scene is built (a chunk per event-loop turn).
  while (w.conversion()->previewScene()->isBuilding())
    QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  QCoreApplication::processEvents();
  w.conversion()->previewView()->viewport()->repaint();
  const double previewMs = double(t.nsecsElapsed()) / 1e6;
  // The gap is measured on until the preview is complete: paired with the source and, beyond 20k nodes, typed.
  while (w.conversion()->link()->pairsPending() || preview->typesPending())
    QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  QTest::qWait(30);  // the paint that follows the types, as the event loop schedules it
  w.conversion()->previewView()->viewport()->repaint();
  QTest::qWait(30);
  const double stallMs = gaps.stop();
  std::printf("%.1f %.1f %ld %ld %zu %zu %.1f\n", previewMs, convertMs, peakBefore, peakRssKb(),
              w.document()->model()->graph().nodeCount(), preview->model()->graph().nodeCount(), stallMs);
  return 0;
}

// A open, then B opened beside it and paired with it: from the command to B's first painted frame with the marks,
// the matching's share, and the nodes paired. One line: total ms, match ms, nodes of A, of B, paired.
int compareChild(const QString& a, const QString& b) {
  ui::MainWindow w;
  w.resize(1400, 900);
  w.show();
  QSignalSpy opened(w.document(), &ui::Document::modelChanged);
  w.openFile(a);
  while (opened.isEmpty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  QTest::qWait(200);
  ui::CompareController* c = w.compare()->controller();
  QSignalSpy done(c, &ui::CompareController::finished);
  QSignalSpy failed(c, &ui::CompareController::failed);
  QElapsedTimer t;
  t.start();
  w.compareWith(b);
  while (done.isEmpty() && failed.isEmpty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  if (!failed.isEmpty()) {
    std::fprintf(stderr, "%s: compare failed: %s\n", qPrintable(b), qPrintable(failed.first().first().toString()));
    return 1;
  }
  QCoreApplication::processEvents();  // the pane shows
  w.compare()->view()->viewport()->repaint();
  const double ms = double(t.nsecsElapsed()) / 1e6;
  const auto counts = c->result()->counts();
  std::printf("%.1f %.1f %zu %zu %zu\n", ms, c->result()->matchMs, counts.nodesA, counts.nodesB, counts.paired);
  return 0;
}

// Where the first frame's time goes, phase by phase, on this thread (FB_BENCH_UI_PHASES=PATH).
int phasesChild(const QString& path) {
  QElapsedTimer t;
  t.start();
  auto lap = [&](const char* what) {
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
      std::fclose(f);
    }
    std::fprintf(stderr, "%-28s %8.1f ms  peak %ld MB, now %ld MB\n", what, double(t.nsecsElapsed()) / 1e6,
                 ru.ru_maxrss / 1024, resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024);
    t.restart();
  };
  auto m = loadModel(path.toStdString());
  lap("read");
  layout::HierarchicalLayout lay(m->graph());
  lap("layout: tree and edges");
  lay.expandWithin(2000);
  lap("layout: expandWithin");
  auto placed = lay.compute();
  lap("layout: compute");
  std::fprintf(stderr, "items %zu edges %zu dot %d layered %d\n", placed.items.size(), placed.edges.size(),
               placed.stats.dotCalls, placed.stats.layeredCalls);
  for (const auto& it : placed.items)
    if (it.kind == layout::PlacedItem::Kind::Block && !it.expanded) {
      lay.setExpanded(it.block, true);
      placed = lay.compute();
      lap("layout: compute after expand");
      break;
    }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc == 3 && QByteArray(argv[1]) == "--phases") return phasesChild(QString::fromLocal8Bit(argv[2]));
  if (argc == 3 && QByteArray(argv[1]) == "--first-frame") return firstFrameChild(QString::fromLocal8Bit(argv[2]));
  if (argc == 4 && QByteArray(argv[1]) == "--compare")
    return compareChild(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
  if ((argc == 4 || argc == 5) && QByteArray(argv[1]) == "--write-synthetic") {
    onnxfmt::writeOnnxFile(*synthetic::makeTransformerLike(QByteArray(argv[2]).toULong(), argc == 4), argv[3]);
    return 0;
  }
  if ((argc == 3 || argc == 4) && QByteArray(argv[1]) == "--preview")
    return previewChild(QString::fromLocal8Bit(argv[2]), argc == 4 ? QByteArray(argv[3]).toInt() : 0);
  QCoreApplication::setOrganizationName("FlowBridgeBench");
  const QString scratch = QDir::current().absoluteFilePath("bench-ui");
  QDir().mkpath(scratch);
  const int dotCap =
      qEnvironmentVariableIntValue("FB_BENCH_DOT_CAP") > 0 ? qEnvironmentVariableIntValue("FB_BENCH_DOT_CAP") : 60;

  QStringList models;
  QDir corpus(QStringLiteral(FB_CORPUS_DIR) + "/models");
  for (const auto& f : corpus.entryList({"*.onnx"}, QDir::Files, QDir::Name)) models << corpus.filePath(f);
  for (size_t n : {size_t(10000), size_t(30000)}) {
    const QString path = QStringLiteral("%1/synthetic_%2.onnx").arg(scratch).arg(n);
    if (!QFile::exists(path)) onnxfmt::writeOnnxFile(*synthetic::makeTransformerLike(n, true), path.toStdString());
    models << path;
  }
  for (int i = 1; i < argc; ++i) models << QString::fromLocal8Bit(argv[i]);

  std::printf(
      "| model | nodes | open to first frame (ms) | first frame after fit (ms) | panning zoomed out (ms/frame) | "
      "panning at 100%% (ms/frame) | expand a block (ms) | scene items | whole-graph dot |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const QString& path : models) {
    size_t nodes = 0;
    try {
      nodes = loadModel(path.toStdString())->graph().nodeCount();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      continue;
    }
    measure(path);  // warm-up: fonts, Graphviz plugins, page cache
    const Figures f = measure(path);
    const QString dot = wholeGraphDot(path, scratch, dotCap);
    const QString expand = f.expandMs < 0 ? QStringLiteral("-") : QString::number(f.expandMs, 'f', 0);
    std::printf("| %s | %zu | %.0f | %.1f | %.1f | %.1f | %s | %d | %s |\n", qPrintable(QFileInfo(path).fileName()),
                nodes, f.openMs, f.zoomFrameMs, f.fitFrameMs, f.detailFrameMs, qPrintable(expand), f.items,
                qPrintable(dot));
    std::fflush(stdout);
  }
  // Compare With... on 30k nodes: the synthetic graph against a copy with every node and value renamed.
  const QString a30 = QStringLiteral("%1/synthetic_30000.onnx").arg(scratch);
  const QString b30 = QStringLiteral("%1/synthetic_30000_renamed.onnx").arg(scratch);
  if (!QFile::exists(b30)) {
    auto m = loadModel(a30.toStdString());
    ir::Graph& g = m->graph();
    for (ir::Value* v : g.values())
      if (!v->name().empty()) g.renameValue(v, "r_" + v->name());
    for (const auto& n : g.nodes()) n->name = n->name.empty() ? std::string() : "r_" + n->name;
    onnxfmt::writeOnnxFile(*m, b30.toStdString());
  }
  QProcess child;
  child.start(QCoreApplication::applicationFilePath(), {"--compare", a30, b30});
  child.waitForFinished(-1);
  // Preview conversion of the generated 30k and 100k graphs to opset 11 (issue 26: the window never freezes).
  std::printf(
      "\nPreview conversion to opset 11 (a fresh process each): | nodes | click to preview on screen (ms) | "
      "of which converting (ms) | largest event-loop gap (ms) |\n");
  for (size_t n : {size_t(30000), size_t(100000)}) {
    const QString path = QStringLiteral("%1/synthetic_%2.onnx").arg(scratch).arg(n);
    if (!QFile::exists(path)) onnxfmt::writeOnnxFile(*synthetic::makeTransformerLike(n, true), path.toStdString());
    QProcess preview;
    preview.start(QCoreApplication::applicationFilePath(), {"--preview", path, "11"});
    preview.waitForFinished(-1);
    const QStringList f = QString::fromLocal8Bit(preview.readAllStandardOutput()).split(' ', Qt::SkipEmptyParts);
    if (f.size() < 7)
      std::printf("| %zu | failed | | |\n", n);
    else
      std::printf("| %s | %.0f | %.0f | %.0f |\n", qPrintable(f[4]), f[0].toDouble(), f[1].toDouble(), f[6].toDouble());
    std::fflush(stdout);
  }
  std::printf(
      "\nCompare With... synthetic_30000 against it renamed (ms to B's first frame with marks, ms matching, "
      "nodes A, B, paired): %s",
      child.readAllStandardOutput().constData());
  return 0;
}
