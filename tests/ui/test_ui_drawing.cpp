// Issue 26, point 5: drawing. Edge labels lie beside their edges, never struck through by their own line nor
// covered by a status badge; the selection and its neighbours are marked in hues far from every status and diff
// colour; groups of repeated runs are named by the first and last scope they hold, and no block's name is cut;
// zooming out stops at the fitted view; the preview legend says what its node count counts.
#include <QtTest>

#include <QGraphicsItem>
#include <QLabel>
#include <QSpinBox>
#include <QPainterPathStroker>
#include <QThreadPool>
#include <QWheelEvent>
#include <array>
#include <cmath>
#include <functional>
#include <set>

#include "ir/graph.h"
#include "ir/model.h"
#include "ir/node.h"
#include "layout/block_tree.h"
#include "layout/hierarchical_layout.h"
#include "support/helpers.h"
#include "support/scene_items.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/convert_panel.h"
#include "ui/conversion/target_picker.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/edge_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"
#include "ui/main_window.h"
#include "ui/theme/colors.h"

using namespace fb;

namespace {

// Status badges: the child items StatusBadges puts on blocks and nodes (halos are QGraphicsRectItems).
QList<QRectF> badgeRects(QGraphicsScene* s) {
  QList<QRectF> out;
  for (auto* item : s->items())
    if (item->parentItem() && item->type() == QGraphicsItem::UserType) out << item->sceneBoundingRect();
  return out;
}

bool waitForDryRun(ui::MainWindow& w, std::optional<codegen::Flavour> flavour) {
  QSignalSpy dry(w.conversion()->controller(), &ui::ConversionController::dryRunFinished);
  w.conversion()->panel()->targetPicker()->pick(flavour);
  QElapsedTimer t;
  t.start();
  while (dry.isEmpty() && t.elapsed() < 60000) QTest::qWait(10);
  QTest::qWait(20);
  return !dry.isEmpty();
}

// CIE76 distance in L*a*b* (sRGB, D65): above ~40 two colours are of clearly different hue or lightness.
double labDistance(const QColor& a, const QColor& b) {
  auto lab = [](const QColor& c) {
    auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double r = lin(c.redF()), g = lin(c.greenF()), bl = lin(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047, y = 0.2126 * r + 0.7152 * g + 0.0722 * bl,
                 z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
    return std::array<double, 3>{116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
  };
  const auto p = lab(a), q = lab(b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

// What a label collides with on the current scene: its own edge's stroke, or a badge.
struct LabelCheck {
  int labels = 0, struck = 0, underBadge = 0;
  QStringList examples;
};

LabelCheck checkLabels(ui::GraphScene* scene) {
  LabelCheck r;
  const QList<QRectF> badges = badgeRects(scene);
  QPainterPathStroker stroker;
  stroker.setWidth(2);  // the 1-pixel line at the zoom where labels show, and then some
  for (ui::EdgeItem* e : scene->edgeItems()) {
    const QRectF label = e->labelRect();
    if (label.isEmpty()) continue;
    ++r.labels;
    if (stroker.createStroke(e->path()).intersects(label)) {
      ++r.struck;
      if (r.examples.size() < 6) r.examples << QStringLiteral("%1 struck by its edge").arg(e->label());
    }
    for (const QRectF& b : badges)
      if (b.intersects(label)) {
        ++r.underBadge;
        if (r.examples.size() < 6) r.examples << QStringLiteral("%1 under a badge").arg(e->label());
      }
  }
  return r;
}

}  // namespace

class UiDrawing : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_drawing");
  }
  void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

  // Every label of the first view (and of the fully expanded graph) keeps off its own edge's stroke and off every
  // status badge (a code target's dry run marks each collapsed block with its counts).
  void edgeLabelsKeepOffTheirEdgeAndTheBadges_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("transformer op17") << QStringLiteral("transformer_encoder_op17.onnx");
    QTest::newRow("mobilenet_v2 op11") << QStringLiteral("mobilenet_v2_op11.onnx");
  }
  void edgeLabelsKeepOffTheirEdgeAndTheBadges() {
    QFETCH(QString, file);
    ui::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(test::openAndWait(w, test::corpusModel(file)));
    QVERIFY(waitForDryRun(w, codegen::Flavour::PyTorch));
    int badges = badgeRects(w.scene()).size();
    int collapsed = 0;
    for (ui::BlockItem* b : test::itemsOf<ui::BlockItem>(w.scene())) collapsed += !b->isExpanded();
    qInfo("first view: %d collapsed blocks, %d badges, %d statuses", collapsed, badges,
          int(w.conversion()->controller()->dryRun() ? w.conversion()->controller()->dryRun()->nodes.size() : 0));
    LabelCheck first = checkLabels(w.scene());
    QVERIFY2(first.labels > 5, qPrintable(QString::number(first.labels)));
    w.document()->expandAll();
    QTest::qWait(20);
    const LabelCheck open = checkLabels(w.scene());
    // Open blocks with their innermost ones closed: many badged boxes among many labelled edges.
    const auto& tree = w.document()->currentLevel().layout->tree();
    std::vector<int> leaves;
    for (size_t b = 1; b < tree.blocks.size(); ++b)
      if (tree.blocks[b].childBlocks.empty()) leaves.push_back(int(b));
    for (int b : leaves) w.document()->toggleBlock(b);
    QTest::qWait(20);
    badges += badgeRects(w.scene()).size();
    const LabelCheck closed = checkLabels(w.scene());
    qInfo("%s: %d badges; labels %d (first view), %d (expanded), %d (innermost blocks closed, %d badges)",
          qPrintable(file), badges, first.labels, open.labels, closed.labels, int(badgeRects(w.scene()).size()));
    for (const LabelCheck& c : {first, open, closed}) {
      QVERIFY2(c.struck == 0, qPrintable(c.examples.join("; ")));
      QVERIFY2(c.underBadge == 0, qPrintable(c.examples.join("; ")));
    }
    QVERIFY(open.labels > 50);  // still labelled: the rules did not drop them all
    QVERIFY2(badgeRects(w.scene()).size() > 3, "few badges: little to check labels against");
    QVERIFY(closed.labels > 20);
  }

  // The selection's outline, its neighbours' and the selected edges' colour are far from "converted" blue,
  // "modified" orange and every other status or diff colour, and from each other; a selected node shows them.
  void highlightsAreNotStatusColours() {
    const ui::ItemColors& c = ui::itemColors();
    QList<QPair<QString, QColor>> marks = {
        {"added", ui::addedColor()}, {"modified", ui::modifiedColor()}, {"removed", ui::removedColor()}};
    for (auto s : {convert::NodeStatus::Converted, convert::NodeStatus::Unsupported, convert::NodeStatus::Failed,
                   convert::NodeStatus::Kept})
      marks.append({QString::fromUtf8(convert::statusName(s).data()), ui::statusColor(s)});
    const QList<QPair<QString, QColor>> highlights = {
        {"selected", c.selected}, {"neighbour", c.neighbour}, {"selected edge", c.selectedEdge}};
    for (const auto& [h, hc] : highlights)
      for (const auto& [m, mc] : marks)
        QVERIFY2(
            labDistance(hc, mc) > 40,
            qPrintable(QStringLiteral("%1 %2 vs %3 %4: %5").arg(h, hc.name(), m, mc.name()).arg(labDistance(hc, mc))));
    QVERIFY(labDistance(c.selected, c.neighbour) > 40);

    // On the canvas: a selected Conv is drawn with the selection's colour around it.
    ui::MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(test::openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    const ir::Node* conv = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes())
      if (n->opType == "Conv" && !conv) conv = n.get();
    QVERIFY(conv);
    w.document()->showNode(conv);
    QTest::qWait(50);
    ui::NodeItem* item = w.scene()->itemForNode(conv);
    QVERIFY(item);
    const QRect onScreen = w.view()->mapFromScene(item->box()).boundingRect().adjusted(-2, -2, 2, 2);
    const QImage shot = w.view()->viewport()->grab(onScreen).toImage();
    int selectedPixels = 0;
    for (int y = 0; y < shot.height(); ++y)
      for (int x = 0; x < shot.width(); ++x) selectedPixels += labDistance(shot.pixelColor(x, y), c.selected) < 12;
    QVERIFY2(selectedPixels > 20, qPrintable(QString::number(selectedPixels)));
  }

  // Groups that cut a long run of scopes (layers.0 ... layers.5) are named by the first and last scope they hold;
  // every block's name, collapsed or as a frame's title, fits where it is written.
  void groupLabelsNameTheirScopesAndFit() {
    ui::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(test::openAndWait(w, test::corpusModel("transformer_encoder_op13_raw.onnx")));
    const ir::Graph& g = w.document()->model()->graph();
    // The scopes that names give.
    std::set<std::string> scopes;
    for (const auto& n : g.nodes())
      for (const auto& s : layout::nameScopes(n->name)) scopes.insert(s);
    auto isScope = [&](const std::string& label) {
      size_t start = 0;
      while (true) {
        const size_t slash = label.find('/', start);
        if (!scopes.count(label.substr(start, slash - start))) return false;
        if (slash == std::string::npos) return true;
        start = slash + 1;
      }
    };
    // Few children per block, so that the encoder's layers are cut into groups.
    layout::LayoutOptions small;
    small.maxChildrenPerBlock = 4;
    layout::HierarchicalLayout lay(g, small);
    const auto& tree = lay.tree();
    // The first and last scope under a block, looking into groups.
    std::function<std::pair<std::string, std::string>(int)> range = [&](int b) -> std::pair<std::string, std::string> {
      if (isScope(tree.blocks[size_t(b)].label)) return {tree.blocks[size_t(b)].label, tree.blocks[size_t(b)].label};
      std::pair<std::string, std::string> out;
      for (int c : tree.blocks[size_t(b)].childBlocks) {
        const auto r = range(c);
        if (r.first.empty()) continue;
        if (out.first.empty()) out.first = r.first;
        out.second = r.second;
      }
      return out;
    };
    int groupsOfScopes = 0;
    for (size_t b = 1; b < tree.blocks.size(); ++b) {
      const std::string& label = tree.blocks[b].label;
      if (isScope(label)) continue;
      const auto [first, last] = range(int(b));
      if (first.empty()) continue;  // a group of nodes only: named by its ops
      ++groupsOfScopes;
      QVERIFY2(label.rfind(first == last ? first : first + " - " + last, 0) == 0,
               qPrintable(QStringLiteral("%1, holding %2 ... %3")
                              .arg(QString::fromStdString(label), QString::fromStdString(first),
                                   QString::fromStdString(last))));
    }
    QVERIFY2(groupsOfScopes >= 2, qPrintable(QString::number(groupsOfScopes)));

    // On the canvas: collapsed and open, every block's name fits its place at the font it is drawn in.
    auto checkFit = [&](const char* when) {
      int blocks = 0;
      for (ui::BlockItem* b : test::itemsOf<ui::BlockItem>(w.scene())) {
        ++blocks;
        const double width = QFontMetricsF(b->labelFont()).horizontalAdvance(b->label());
        if (width > b->labelRect().width() + 0.5)
          return QStringLiteral("%1: '%2' is %3 wide in %4")
              .arg(when, b->label())
              .arg(width)
              .arg(b->labelRect().width());
        if (b->labelFont().pointSizeF() < ui::kMinTextPointSize) return QStringLiteral("%1: font too small").arg(when);
      }
      return blocks ? QString() : QStringLiteral("%1: no blocks").arg(when);
    };
    QString problem = checkFit("first view");
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    w.document()->expandAll();
    QTest::qWait(20);
    problem = checkFit("expanded");
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // Zooming out (keys, wheel) stops at the view where the whole graph fits; zooming in still works.
  void zoomOutStopsAtTheFit() {
    ui::MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(test::openAndWait(w, test::corpusModel("mobilenet_v2_op11.onnx")));
    ui::GraphView* view = w.view();
    view->fitAll();
    const double fitted = view->zoom();
    QVERIFY(fitted < 1);
    view->zoomBy(0.8);
    QVERIFY2(view->zoom() >= fitted * 0.999, qPrintable(QStringLiteral("%1 < %2").arg(view->zoom()).arg(fitted)));
    QWheelEvent out(QPointF(100, 100), view->viewport()->mapToGlobal(QPointF(100, 100)), {}, {0, -360}, Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view->viewport(), &out);
    QVERIFY2(view->zoom() >= fitted * 0.999, qPrintable(QStringLiteral("%1 < %2").arg(view->zoom()).arg(fitted)));
    view->zoomBy(3);
    QVERIFY(view->zoom() > fitted * 2.9);
    view->zoomBy(0.1);  // out again: down to the fit, not past it
    QVERIFY(view->zoom() >= fitted * 0.999);
    QVERIFY(view->zoom() <= fitted * 1.02);
  }

  // The preview's legend counts the converted model's nodes and says so (not boxes on screen, not the source's).
  void previewLegendSaysWhatItCounts() {
    ui::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(test::openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    w.conversion()->panel()->opsetBox()->setValue(17);
    QVERIFY(test::previewAndWait(w));
    const ir::Model* converted = w.conversion()->previewDocument()->model();
    QVERIFY(converted);
    const size_t total = converted->graph().totalNodeCount(), top = converted->graph().nodeCount();
    QVERIFY(total > top);  // the If/Loop bodies hold nodes too
    QLabel* legend = nullptr;
    for (QLabel* l : w.findChildren<QLabel*>())
      if (l->text().contains(QStringLiteral("modified"))) legend = l;
    QVERIFY(legend);
    QVERIFY2(
        legend->text().contains(
            QStringLiteral("%1 nodes in the converted model (%2 of them in subgraphs)").arg(total).arg(total - top)),
        qPrintable(legend->text()));
  }
};

QTEST_MAIN(UiDrawing)
#include "test_ui_drawing.moc"
