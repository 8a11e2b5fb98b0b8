// Problems are visible where they are (issue 12, points 7 and 8): collapsed blocks and If/Loop nodes carry a badge
// with the counts by status of the nodes they hide, a row of the status table opens the subgraph that holds its
// node and expands the blocks on the way, the Node panel shows the verdict, and the status table filters, sorts,
// groups trivial conversions apart from rewrites, shows the whole reason and saves the CLI's JSON report.
#include <QtTest>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTableView>
#include <QThreadPool>

#include "support/wait_for_ui.h"
#include "convert/convert_report.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "layout/hierarchical_layout.h"
#include "support/helpers.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/status_badges.h"
#include "ui/conversion/status_table.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"
#include "ui/main_window.h"
#include "ui/conversion/conversion_report_model.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/conversion/status_filter_model.h"
#include "ui/conversion/convert_panel.h"
#include "ui/widgets/log_panel.h"
#include "ui/inspector/node_panel.h"

using namespace fb;
using namespace fb::ui;
using S = convert::NodeStatus;

namespace {

using fb::test::openAndWait;

// Sets the target and waits for the dry run it starts.
bool retarget(MainWindow& w, int opset) {
  QSignalSpy dry(w.conversion()->controller(), &ConversionController::dryRunFinished);
  w.conversion()->panel()->opsetBox()->setValue(opset);
  return dry.wait(60000) && w.conversion()->controller()->dryRun() &&
         w.conversion()->controller()->dryRun()->targetOpset == opset;
}

using fb::test::previewAndWait;

// A corpus model with one node turned into an op that has no form at older opsets. `inside` picks the node:
// the first MatMul of the transformer (deep in its name scopes), or the Neg of the control-flow model's else
// branch (Bernoulli: one input, one output, new in opset 15).
QString modelWith(const QString& corpusFile, const std::string& from, const std::string& to, const QString& dir) {
  auto m = loadModel(test::corpusModel(corpusFile).toStdString());
  std::function<bool(ir::Graph&)> change = [&](ir::Graph& g) {
    for (const auto& n : g.nodes()) {
      if (n->opType == from) {
        n->opType = to;
        return true;
      }
      for (ir::Graph* sub : n->subgraphs())
        if (change(*sub)) return true;
    }
    return false;
  };
  if (!change(m->graph())) qFatal("no %s in %s", from.c_str(), qPrintable(corpusFile));
  const QString path = dir + "/" + QString::fromStdString(to) + "_" + corpusFile;
  onnxfmt::writeOnnxFile(*m, path.toStdString());
  return path;
}

const ir::Node* findOp(const ir::Graph& g, const std::string& op) {
  for (const auto& n : g.nodes()) {
    if (n->opType == op) return n.get();
    for (const ir::Graph* sub : n->subgraphs())
      if (const ir::Node* found = findOp(*sub, op)) return found;
  }
  return nullptr;
}

// Selects the table row of a node the way a click does (through the filter's current order).
bool clickRowOf(ConvertPanel* panel, uint64_t nodeId) {
  QTableView* view = panel->table();
  for (int row = 0; row < view->model()->rowCount(); ++row)
    if (view->model()->index(row, 0).data(ConversionReportModel::NodeIdRole).toULongLong() == nodeId) {
      view->setCurrentIndex(view->model()->index(row, 0));
      return true;
    }
  return false;
}

QJsonObject readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace

class UiConversionStatus : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_conversion_status");
    forgetLastFolders();  // dialogs of earlier runs would move the suggestions checked below
  }

  // Point 7: an unsupported node deep in the transformer's name scopes marks the collapsed block that hides it;
  // its row expands the blocks on the way and selects it; the Node panel says why.
  void collapsedBlocksShowWhatTheyHide() {
    const QString dir = test::scratchDir("ui_status_blocks");
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, modelWith("transformer_encoder_op17.onnx", "MatMul", "GridSample", dir)));
    QVERIFY(retarget(w, 13));
    auto* controller = w.conversion()->controller();
    const ir::Node* bad = findOp(w.document()->model()->graph(), "GridSample");
    QVERIFY(bad);
    QCOMPARE(controller->statusOf(bad->id()), std::optional<S>(S::Unsupported));

    w.document()->collapseAll();
    QCOMPARE(w.scene()->itemForNode(bad), nullptr);  // hidden in a block
    // Exactly the block that holds it counts it as unsupported; every collapsed block that hides converted
    // nodes counts those (the dry run's totals are what the badges add up to).
    const int hiding = w.document()->currentLevel().layout->hidingBlock(bad);
    QVERIFY(hiding > 0);
    int unsupported = 0, converted = 0, badgedBlocks = 0;
    BlockItem* holder = nullptr;
    for (QGraphicsItem* item : w.scene()->items()) {
      auto* b = qgraphicsitem_cast<BlockItem*>(item);
      if (!b || b->isExpanded()) continue;
      const auto counts = StatusBadges::countsOn(b);
      badgedBlocks += !counts.isEmpty();
      unsupported += counts.value(S::Unsupported);
      converted += counts.value(S::Converted);
      if (b->block() == hiding) holder = b;
    }
    QVERIFY(holder);
    QCOMPARE(StatusBadges::countsOn(holder).value(S::Unsupported), 1);
    QCOMPARE(unsupported, 1);
    size_t convertedOutside = 0;  // converted nodes on screen (not in any collapsed block) carry their own halo
    for (const auto& r : controller->dryRun()->nodes)
      if (r.status == S::Converted)
        if (const ir::Node* n = w.document()->findNode(r.nodeId); n && w.scene()->itemForNode(n)) ++convertedOutside;
    QCOMPARE(size_t(converted) + convertedOutside, controller->dryRun()->count(S::Converted));
    QCOMPARE(w.conversion()->sourceBadges()->badgeCount(), badgedBlocks);

    // The row of the unsupported node: the blocks open, the node is selected and on screen.
    auto* panel = w.conversion()->panel();
    QVERIFY(clickRowOf(panel, bad->id()));
    QCOMPARE(w.document()->focusNode(), bad);
    QVERIFY(w.scene()->itemForNode(bad));
    QCOMPARE(w.document()->currentLevel().layout->hidingBlock(bad), -1);
    // The Node panel shows the verdict and the reason.
    const auto* props = w.nodePanel()->model();
    QVERIFY2(props->valueOf("status").startsWith("unsupported at opset 13"), qPrintable(props->valueOf("status")));
    QVERIFY2(props->valueOf("reason").contains("GridSample"), qPrintable(props->valueOf("reason")));
    QVERIFY2(props->valueOf("converts from").contains("16"), qPrintable(props->valueOf("converts from")));
  }

  // Point 7: If and Loop nodes carry the counts of their bodies; a row of a node inside a branch opens that branch.
  void controlFlowNodesShowTheirBodies() {
    const QString dir = test::scratchDir("ui_status_control_flow");
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, modelWith("control_flow_op13.onnx", "Neg", "Bernoulli", dir)));
    QVERIFY(retarget(w, 11));
    auto* controller = w.conversion()->controller();
    const ir::Graph& main = w.document()->model()->graph();
    const ir::Node* bad = findOp(main, "Bernoulli");
    const ir::Node* ifNode = findOp(main, "If");
    const ir::Node* loop = findOp(main, "Loop");
    QVERIFY(bad && ifNode && loop);
    QVERIFY(bad->graph() != &main);
    QCOMPARE(controller->statusOf(bad->id()), std::optional<S>(S::Unsupported));
    NodeItem* ifItem = w.scene()->itemForNode(ifNode);
    QVERIFY(ifItem);
    // The If's branches hold the Bernoulli (unsupported); what else they hold is counted by status as well.
    StatusBadges::Counts expected;
    std::function<void(const ir::Graph&)> count = [&](const ir::Graph& g) {
      for (const auto& n : g.nodes()) {
        if (auto s = controller->statusOf(n->id()); s && *s != S::Unchanged) ++expected[*s];
        for (const ir::Graph* sub : n->subgraphs()) count(*sub);
      }
    };
    for (const ir::Graph* sub : ifNode->subgraphs()) count(*sub);
    QCOMPARE(expected.value(S::Unsupported), 1);
    QCOMPARE(StatusBadges::countsOn(ifItem), expected);
    // The Loop's body has nothing unsupported: no unsupported count on it.
    QCOMPARE(StatusBadges::countsOn(w.scene()->itemForNode(loop)).value(S::Unsupported), 0);

    // The row opens the else branch and selects the node there.
    QVERIFY(clickRowOf(w.conversion()->panel(), bad->id()));
    QCOMPARE(w.document()->levelCount(), 2);
    QCOMPARE(w.document()->currentLevel().graph, bad->graph());
    QCOMPARE(w.document()->focusNode(), bad);
    QVERIFY(w.scene()->itemForNode(bad));
    QVERIFY(w.nodePanel()->model()->valueOf("reason").contains("first in opset 15"));
  }

  // Point 8: group, filter, sort, details, and the report the CLI writes.
  void statusTableFiltersGroupsAndSavesTheReport() {
    const QString dir = test::scratchDir("ui_status_table");
    MainWindow w;
    w.show();
    const QString model = test::corpusModel("transformer_encoder_op17.onnx");
    QVERIFY(openAndWait(w, model));
    QVERIFY(retarget(w, 9));
    auto* controller = w.conversion()->controller();
    auto* table = w.conversion()->panel()->statusTable();
    auto* proxy = table->filter();
    const auto& nodes = controller->dryRun()->nodes;

    // Reshape-14 -> Reshape-5 only drops allowzero=0: trivial. LayerNormalization is decomposed: a rewrite.
    size_t trivial = 0, rewrites = 0, attention = 0;
    for (const auto& r : nodes) {
      if (r.opType == "Reshape" && r.status == S::Converted) QVERIFY2(r.attributesOnly, r.message.c_str());
      if (r.opType == "LayerNormalization") QVERIFY(!r.attributesOnly);
      trivial += r.status == S::Converted && r.attributesOnly;
      rewrites += r.status == S::Converted && !r.attributesOnly;
      attention += r.status == S::Unsupported || r.status == S::Failed;
    }
    QVERIFY(trivial > 0 && rewrites > 0);
    QVERIFY(w.conversion()->panel()->summaryLabel()->text().contains(
        QString("%1 rewrites, %2 attributes only").arg(rewrites).arg(trivial)));
    // Rewrites come before the trivial conversions in the table's own order.
    int lastRewrite = -1, firstTrivial = -1;
    for (int row = 0; row < proxy->rowCount(); ++row) {
      const QModelIndex i = proxy->index(row, 0);
      if (i.data(ConversionReportModel::StatusRole).toInt() != int(S::Converted)) continue;
      if (i.data(ConversionReportModel::AttributesOnlyRole).toBool()) {
        if (firstTrivial < 0) firstTrivial = row;
      } else {
        lastRewrite = row;
      }
    }
    QVERIFY(lastRewrite >= 0 && firstTrivial > lastRewrite);

    auto chooseGroup = [&](StatusFilterModel::Group g) {
      table->groupBox()->setCurrentIndex(table->groupBox()->findData(int(g)));
      QCOMPARE(proxy->group(), g);
    };
    chooseGroup(StatusFilterModel::Group::AttributesOnly);
    QCOMPARE(size_t(proxy->rowCount()), trivial);
    for (int row = 0; row < proxy->rowCount(); ++row)
      QCOMPARE(proxy->index(row, ConversionReportModel::KindColumn).data().toString(), QString("attributes only"));
    chooseGroup(StatusFilterModel::Group::Rewrites);
    QCOMPARE(size_t(proxy->rowCount()), rewrites);
    chooseGroup(StatusFilterModel::Group::NeedsAttention);
    QCOMPARE(size_t(proxy->rowCount()), attention);

    // By operator, within a group.
    chooseGroup(StatusFilterModel::Group::All);
    table->opFilterEdit()->setText("slice");
    size_t slices = 0;
    for (const auto& r : nodes) slices += r.opType == "Slice" && r.status != S::Unchanged;
    QVERIFY(slices > 0);
    QCOMPARE(size_t(proxy->rowCount()), slices);
    for (int row = 0; row < proxy->rowCount(); ++row)
      QCOMPARE(proxy->index(row, ConversionReportModel::OpColumn).data().toString(), QString("Slice"));
    table->opFilterEdit()->clear();

    // Sorted by operator, then by status (urgency first).
    table->view()->sortByColumn(ConversionReportModel::OpColumn, Qt::AscendingOrder);
    for (int row = 1; row < proxy->rowCount(); ++row)
      QVERIFY(proxy->index(row - 1, ConversionReportModel::OpColumn).data().toString().toLower() <=
              proxy->index(row, ConversionReportModel::OpColumn).data().toString().toLower());
    // By status: nothing needs attention here, so rewrites lead and trivial conversions end the list (and the
    // other way round when descending).
    table->view()->sortByColumn(ConversionReportModel::StatusColumn, Qt::AscendingOrder);
    QCOMPARE(proxy->index(0, 0).data(ConversionReportModel::StatusRole).toInt(), int(S::Converted));
    QCOMPARE(proxy->index(0, 0).data(ConversionReportModel::AttributesOnlyRole).toBool(), false);
    QCOMPARE(proxy->index(proxy->rowCount() - 1, 0).data(ConversionReportModel::AttributesOnlyRole).toBool(), true);
    table->view()->sortByColumn(ConversionReportModel::StatusColumn, Qt::DescendingOrder);
    QCOMPARE(proxy->index(0, 0).data(ConversionReportModel::AttributesOnlyRole).toBool(), true);

    // The details pane holds the whole reason of the current row, and the row still selects its node.
    table->opFilterEdit()->setText("LayerNormalization");
    QVERIFY(proxy->rowCount() > 0);
    table->view()->setCurrentIndex(proxy->index(0, 0));
    const QString details = table->detailsPane()->toPlainText();
    QVERIFY2(details.contains("decomposed into ReduceMean/Sub/Mul/ReduceMean/Add/Sqrt/Div/Mul/Add"),
             qPrintable(details));
    QVERIFY(details.contains("rewrite"));
    QVERIFY(w.document()->focusNode());
    QCOMPARE(w.document()->focusNode()->opType, std::string("LayerNormalization"));

    // Save report... before a Preview: the dry run's report, as `flowbridge-cli check --json` prints it.
    const QString dryReport = dir + "/dry.json";
    QVERIFY(table->saveReport(dryReport));
    QJsonObject dry = readJson(dryReport);
    QCOMPARE(dry["target_opset"].toInt(), 9);
    QCOMPARE(size_t(dry["nodes"].toArray().size()), nodes.size());
    QCOMPARE(size_t(dry["status_counts"].toObject()["converted"].toInt()), trivial + rewrites);
    size_t flagged = 0;
    for (const auto& n : dry["nodes"].toArray()) flagged += n.toObject()["attributes_only"].toBool();
    QCOMPARE(flagged, trivial);
    auto cliCheck = test::runCli({"check", model, "--opset", "9", "--json"});
    QCOMPARE(cliCheck.exitCode, 0);
    const QJsonObject cliDry = QJsonDocument::fromJson(cliCheck.out).object();
    QCOMPARE(dry["nodes"], cliDry["nodes"]);
    QCOMPARE(dry["status_counts"], cliDry["status_counts"]);

    // After a Preview: the conversion's report, the same as `convert --report` for the same settings.
    QVERIFY(previewAndWait(w));
    {
      const QString report = dir + "/converted";  // the extension is added
      forgetLastFolders();                        // the first-time suggestion
      QString suggestedPath;
      table->setSavePathChooser([&](QWidget*, const QString&, const QString& suggested, const QString&, QString*) {
        suggestedPath = suggested;
        return report;
      });
      table->saveReportAction()->trigger();
      QVERIFY(QFile::exists(report + ".json"));
      // The dialog starts beside the model, with the target in the name.
      QCOMPARE(QFileInfo(suggestedPath).absolutePath(), QFileInfo(model).absolutePath());
      QVERIFY2(suggestedPath.endsWith("_opset9.report.json"), qPrintable(suggestedPath));
    }
    const QJsonObject saved = readJson(dir + "/converted.json");
    auto cli = test::runCli({"convert", model, "-o", dir + "/cli.onnx", "--opset", "9", "--report", dir + "/cli.json"});
    QCOMPARE(cli.exitCode, 0);
    const QJsonObject cliReport = readJson(dir + "/cli.json");
    for (const char* key : {"nodes", "status_counts", "counts_by_op", "ops_before", "ops_after", "complete", "check"})
      QVERIFY2(saved[key] == cliReport[key], key);
    QCOMPARE(saved["passes"].toObject()["per_pass"].toArray().size(),
             cliReport["passes"].toObject()["per_pass"].toArray().size());
    QCOMPARE(saved["passes"].toObject()["nodes_after"], cliReport["passes"].toObject()["nodes_after"]);
    // Written whole: no temporary file beside it; never over the model; the Log says what was written.
    QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden).filter(".tmp").size(), 0);
    QVERIFY(!table->saveReport(model));
    QVERIFY(QFileInfo(model).size() > 1000000);
    const QString log = w.logPanel()->toPlainText();
    QVERIFY2(log.contains("Saved the conversion report of transformer_encoder_op17.onnx to " + dir + "/converted.json"),
             qPrintable(log));
    QVERIFY(log.contains("Error: cannot save the report " + model));
  }
};

QTEST_MAIN(UiConversionStatus)
#include "test_ui_conversion_status.moc"
