// The conversion side of the inspector: dry-run statuses follow the chosen opset, the preview conversion
// marks what changed through provenance, and saving writes a valid model without touching the source.
#include <QtTest>

#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <filesystem>

#include "convert/converter.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "resources/synthetic_graph.h"
#include "support/helpers.h"
#include "passes/pass_graph.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/graph/status_overlay.h"
#include "ui/conversion/conversion_docks.h"
#include <QMainWindow>
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"
#include "ui/document.h"
#include "ui/conversion/conversion_report_model.h"
#include "ui/conversion/convert_panel.h"
#include "ui/theme/colors.h"

using namespace fb;
using namespace fb::ui;

class UiConversion : public QObject {
  Q_OBJECT
  bool openModel(Document& doc, const QString& path) {
    QSignalSpy changed(&doc, &Document::modelChanged);
    doc.open(path);
    return changed.wait(60000);
  }

 private slots:
  void dryRunFollowsTheOpset() {
    Document doc;
    ConversionController controller(&doc);
    QSignalSpy dry(&controller, &ConversionController::dryRunFinished);
    QVERIFY(openModel(doc, test::corpusModel("mobilenet_v2_op13_raw.onnx")));
    QVERIFY(dry.wait(30000));
    QVERIFY(controller.dryRun());
    // At opset 13 nothing needs converting.
    QCOMPARE(controller.dryRun()->count(convert::NodeStatus::Converted), size_t(0));
    controller.setTargetOpset(9);
    QVERIFY(dry.wait(30000));
    const auto* r = controller.dryRun();
    QCOMPARE(r->targetOpset, int64_t(9));
    // The same verdicts as the core's dry run, node by node.
    auto model = loadModel(test::corpusModel("mobilenet_v2_op13_raw.onnx").toStdString());
    convert::ConvertOptions o;
    o.targetOpset = 9;
    o.keepUnconverted = true;
    auto expected = convert::dryRun(*model, o);
    QCOMPARE(r->nodes.size(), expected.nodes.size());
    QVERIFY(expected.count(convert::NodeStatus::Converted) > 0);
    for (const auto& n : r->nodes) QCOMPARE(controller.statusOf(n.nodeId).value(), n.status);
    QCOMPARE(r->count(convert::NodeStatus::Converted), expected.count(convert::NodeStatus::Converted));
  }

  void sceneNodesAreMarkedByStatus() {
    Document doc;
    GraphScene scene(&doc);
    ConversionController controller(&doc);
    StatusOverlay overlay(&scene, [&](uint64_t id) {
      auto s = controller.statusOf(id);
      return s ? statusColor(*s) : QColor();
    });
    QObject::connect(&controller, &ConversionController::dryRunFinished, &overlay, &StatusOverlay::refresh);
    QSignalSpy dry(&controller, &ConversionController::dryRunFinished);
    QVERIFY(openModel(doc, test::corpusModel("mobilenet_v2_op11.onnx")));
    QVERIFY(dry.wait(30000));
    QCOMPARE(overlay.markedCount(), 0);  // opset 11 -> 17: every node is valid as it is
    controller.setTargetOpset(9);
    QVERIFY(dry.wait(30000));
    int expected = 0;
    for (QGraphicsItem* item : scene.items())
      if (auto* n = qgraphicsitem_cast<NodeItem*>(item))
        if (controller.statusOf(n->node()->id()).value_or(convert::NodeStatus::Unchanged) !=
            convert::NodeStatus::Unchanged)
          ++expected;
    QVERIFY(expected > 0);  // Clip with min/max inputs must become attributes below 11
    QCOMPARE(overlay.markedCount(), expected);
    // Back to the model's own opset: every halo goes (and removing them while walking the scene is safe).
    controller.setTargetOpset(11);
    QVERIFY(dry.wait(30000));
    QCOMPARE(overlay.markedCount(), 0);
    int halos = 0;
    for (QGraphicsItem* item : scene.items())
      if (item->parentItem() && qgraphicsitem_cast<NodeItem*>(item->parentItem())) ++halos;
    QCOMPARE(halos, 0);
  }

  void previewDockShowsTheConvertedGraphWithMarks() {
    QMainWindow window;
    Document doc;
    GraphScene scene(&doc);
    ConversionDocks docks(&window, &doc, &scene);
    auto* controller = docks.controller();
    QSignalSpy dry(controller, &ConversionController::dryRunFinished);
    QVERIFY(openModel(doc, test::corpusModel("mobilenet_v2_op11.onnx")));
    QVERIFY(dry.wait(30000));
    controller->setTargetOpset(9);
    QVERIFY(dry.wait(30000));
    QVERIFY(docks.sourceOverlay()->markedCount() > 0);
    QSignalSpy shown(docks.previewDocument(), &Document::modelChanged);
    controller->convert();
    QVERIFY(shown.wait(60000));
    const ir::Model* preview = docks.previewDocument()->model();
    QVERIFY(preview);
    // The preview shows the converted model itself, not a copy read back from a file.
    QCOMPARE(preview, controller->convertedModel().get());
    QVERIFY(docks.previewDocument()->path().isEmpty());
    QCOMPARE(preview->opsetVersion(""), int64_t(9));
    // Every marked item in the preview is a node the diff calls added or modified, and there are some.
    const auto& diff = controller->previewDiffs();
    QVERIFY(!diff.isEmpty());
    int expected = 0;
    for (QGraphicsItem* item : docks.previewScene()->items())
      if (auto* n = qgraphicsitem_cast<NodeItem*>(item))
        if (diff.contains(n->node()->id())) ++expected;
    QVERIFY(expected > 0);
    QCOMPARE(docks.previewOverlay()->markedCount(), expected);
  }

  // Document::show takes a model in memory (what the preview and the pass steps hand it) through the same
  // background work as open(): progress, Cancel keeping the previous model, and then the very object on screen.
  void showRunsInTheBackgroundLikeOpen() {
    Document doc;
    const QString file = test::corpusModel("super_resolution_op11.onnx");
    QVERIFY(openModel(doc, file));
    const ir::Model* before = doc.model();
    std::shared_ptr<const ir::Model> big = synthetic::makeTransformerLike(10000, true);
    QSignalSpy started(&doc, &Document::loadStarted);
    QSignalSpy progress(&doc, &Document::loadProgress);
    QSignalSpy cancelled(&doc, &Document::loadCancelled);
    QSignalSpy changed(&doc, &Document::modelChanged);
    doc.show(big, QStringLiteral("big in memory"));
    QVERIFY(doc.isLoading());
    QCOMPARE(started.size(), 1);
    QCOMPARE(started.first().first().toString(), QStringLiteral("big in memory"));
    doc.cancelLoad();
    QVERIFY(cancelled.wait(60000));
    QCOMPARE(changed.size(), 0);
    QCOMPARE(doc.model(), before);
    QCOMPARE(doc.path(), file);

    QSignalSpy log(&doc, &Document::logMessage);
    progress.clear();
    doc.show(big, QStringLiteral("big in memory"));
    QVERIFY(changed.wait(60000));
    QCOMPARE(doc.model(), big.get());
    QVERIFY(doc.path().isEmpty());
    QCOMPARE(doc.name(), QStringLiteral("big in memory"));
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().first().toInt(), 100);
    QVERIFY(doc.hasGraph() && !doc.currentLevel().placed.items.empty());
    QVERIFY(doc.typeOf(big->graph().outputs().front()));  // shapes were inferred for display
    bool named = false;
    for (const auto& line : log)
      named |= line.first().toString().startsWith(QStringLiteral("Shown big in memory: 9990 nodes"));
    QVERIFY(named);
    // Reload shows the same model again; close drops it.
    changed.clear();
    doc.reload();
    QVERIFY(changed.wait(60000));
    QCOMPARE(doc.model(), big.get());
    doc.close();
    QVERIFY(!doc.model());
  }

  void panelListsWhatNeedsAttentionAndJumpsToIt() {
    Document doc;
    ConversionController controller(&doc);
    ConvertPanel panel(&doc, &controller);
    QSignalSpy dry(&controller, &ConversionController::dryRunFinished);
    QVERIFY(openModel(doc, test::corpusModel("mobilenet_v2_op13_raw.onnx")));
    QVERIFY(dry.wait(30000));
    // The target starts at the model's own opset, so nothing is marked until the user picks another.
    QCOMPARE(panel.opsetBox()->value(), 13);
    QCOMPARE(controller.targetOpset(), 13);
    QCOMPARE(panel.reportModel()->rowCount(), 0);
    panel.opsetBox()->setValue(9);
    QVERIFY(dry.wait(30000));
    auto* m = panel.reportModel();
    QVERIFY(m->rowCount() > 0);
    QCOMPARE(size_t(m->rowCount()),
             controller.dryRun()->nodes.size() - controller.dryRun()->count(convert::NodeStatus::Unchanged));
    QVERIFY(panel.summaryLabel()->text().contains("-> 9"));
    // Choosing a row selects that node in the document.
    panel.table()->selectRow(0);
    QVERIFY(doc.focusNode());
    QCOMPARE(doc.focusNode()->id(), m->report(0).nodeId);
  }

  void previewMarksDifferencesAndSaves() {
    Document doc;
    ConversionController controller(&doc);
    QSignalSpy dry(&controller, &ConversionController::dryRunFinished);
    QVERIFY(openModel(doc, test::corpusModel("mobilenet_v2_op13_raw.onnx")));
    QVERIFY(dry.wait(30000));
    QSignalSpy done(&controller, &ConversionController::conversionFinished);
    controller.convert();
    QVERIFY(done.wait(60000));
    auto converted = controller.convertedModel();
    QVERIFY(converted);
    // The default passes fold BatchNormalization into Conv: 404 nodes become about 100.
    QVERIFY(converted->graph().nodeCount() < doc.model()->graph().nodeCount());
    size_t removed = 0, added = 0;
    for (const auto& n : doc.model()->graph().nodes())
      if (controller.sourceDiff(n->id()) == DiffKind::Removed) ++removed;
    for (const auto& n : converted->graph().nodes())
      if (controller.previewDiff(n->id()) != DiffKind::Same) ++added;
    QVERIFY(removed >= 52);  // at least every BatchNormalization
    QVERIFY(added > 0);      // the Conv nodes that absorbed them changed

    const QString dir = test::scratchDir("ui_conversion");
    QSignalSpy saved(&controller, &ConversionController::saved);
    controller.save(dir + "/out.onnx", false);
    QVERIFY(saved.wait(30000));
    auto back = loadModel((dir + "/out.onnx").toStdString());
    QCOMPARE(back->graph().nodeCount(), converted->graph().nodeCount());
    // Never over the source.
    QSignalSpy failed(&controller, &ConversionController::saveFailed);
    controller.save(test::corpusModel("mobilenet_v2_op13_raw.onnx"), false);
    QVERIFY(failed.wait(30000));
    QVERIFY(failed.first().first().toString().contains("overwrite"));
  }

  void leftUnfoldedNodesReachTheLog() {
    // An Add of a [16000, 1] and a [1, 16000] constant: folding it would take gigabytes, so the conversion leaves
    // it as it is, and the Log says which node and why.
    test::GraphBuilder b(13);
    std::vector<float> column(16000, 1.f);
    b.init("a", {16000, 1}, column);
    b.init("b", {1, 16000}, column);
    b.node("Add", {b.v("a"), b.v("b")}, {"sum"});
    b.node("ReduceSum", {b.v("sum")}, {"y"}, {ir::Attribute::makeInt("keepdims", 0)});
    b.output("y", {});
    const QString path = test::scratchDir("ui_conversion_unfolded") + "/broadcast_add.onnx";
    onnxfmt::writeOnnxFile(*b.model, path.toStdString());
    Document doc;
    ConversionController controller(&doc);
    QSignalSpy dry(&controller, &ConversionController::dryRunFinished);
    QVERIFY(openModel(doc, path));
    QVERIFY(dry.wait(30000));
    QSignalSpy log(&controller, &ConversionController::logMessage);
    QSignalSpy done(&controller, &ConversionController::conversionFinished);
    controller.convert();
    QVERIFY(done.wait(60000));
    QStringList lines;
    for (const auto& args : log) lines << args.first().toString();
    QVERIFY2(lines.size() == 2, qPrintable(lines.join("\n")));
    QVERIFY2(lines[0].startsWith("Converted "), qPrintable(lines[0]));
    QVERIFY2(lines[1].startsWith("Passes: constant_folding: left unfolded: Add_sum (Add): "), qPrintable(lines[1]));
    QVERIFY2(lines[1].contains("budget"), qPrintable(lines[1]));
  }
};

QTEST_MAIN(UiConversion)
#include "test_ui_conversion.moc"
