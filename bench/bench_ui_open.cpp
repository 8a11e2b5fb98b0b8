// Desktop inspector benchmark: time from open to the first painted frame, and frame times when panning
// zoomed out (whole graph in view) and at 100 %. Models: the corpus, generated transformer-like graphs of
// 10,000 and 30,000 nodes, and any model paths given as arguments (e.g. swin_t from make_corpus.py).
// Anchor: dot on the whole graph (`dot -Tplain` with FlowBridge's bounded settings), capped.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <cstdio>

#include "formats/onnx/onnx_writer.h"
#include "formats/model_io.h"
#include "ir/graph.h"
#include "resources/synthetic_graph.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"

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

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName("FlowBridgeBench");
  const QString scratch = QDir::current().absoluteFilePath("bench-ui");
  QDir().mkpath(scratch);
  const int dotCap = qEnvironmentVariableIntValue("FB_BENCH_DOT_CAP") > 0 ? qEnvironmentVariableIntValue("FB_BENCH_DOT_CAP") : 60;

  QStringList models;
  QDir corpus(QStringLiteral(FB_CORPUS_DIR) + "/models");
  for (const auto& f : corpus.entryList({"*.onnx"}, QDir::Files, QDir::Name)) models << corpus.filePath(f);
  for (size_t n : {size_t(10000), size_t(30000)}) {
    const QString path = QStringLiteral("%1/synthetic_%2.onnx").arg(scratch).arg(n);
    if (!QFile::exists(path)) onnxfmt::writeOnnxFile(*synthetic::makeTransformerLike(n, true), path.toStdString());
    models << path;
  }
  for (int i = 1; i < argc; ++i) models << QString::fromLocal8Bit(argv[i]);

  std::printf("| model | nodes | open to first frame (ms) | first frame after fit (ms) | panning zoomed out (ms/frame) | panning at 100%% (ms/frame) | expand a block (ms) | scene items | whole-graph dot |\n");
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
                nodes, f.openMs, f.zoomFrameMs, f.fitFrameMs, f.detailFrameMs, qPrintable(expand), f.items, qPrintable(dot));
    std::fflush(stdout);
  }
  return 0;
}
