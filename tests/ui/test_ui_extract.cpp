// Graph > Extract Subgraph... on a selection of connected nodes of a corpus model: the folder (answered here
// instead of the dialog) gets model.onnx, cut at the selection's ends, and test_data_set_0 with its inputs and
// expected outputs. The model loads and passes the check, its inputs and outputs are the values the selection
// reads from outside and computes for outside, and FlowBridge's evaluator run on the written inputs gives the written
// outputs. Ctrl+click builds the selection; the action is on the graph's context menu and off without a selection;
// after Run the data set holds that run's values; a folder that cannot be written is one line naming it.
#include <QtTest>

#include <algorithm>

#include <set>

#include "check/onnx_check.h"
#include "eval/io/proto_value_file.h"
#include "eval/runtime/run.h"
#include "eval/verify/value_diff.h"
#include "formats/model_io.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/value.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"
#include "ui/main_window.h"
#include "ui/run/model_runner.h"
#include "ui/run/subgraph_extractor.h"

using namespace fb;

namespace {

// A node about half-way through the graph and the next two along its first output: a connected chain of three.
QList<const ir::Node*> chainOfThree(const ir::Graph& g) {
  const size_t half = g.nodeCount() / 2;
  size_t k = 0;
  for (const auto& n : g.nodes()) {
    if (k++ < half) continue;
    QList<const ir::Node*> chain{n.get()};
    const ir::Node* at = n.get();
    while (chain.size() < 3 && at->output(0) && !at->output(0)->uses().empty()) {
      at = at->output(0)->uses().front().node;
      if (chain.contains(at)) break;
      chain.append(at);
    }
    if (chain.size() == 3) return chain;
  }
  return {};
}

// A weight, or what an exporter computes from weights alone with Identity / Constant nodes (the cut carries those).
bool fromWeights(const ir::Value* v) {
  if (v->initializer()) return true;
  const ir::Node* p = v->producer();
  if (!p || (p->opType != "Identity" && p->opType != "Constant")) return false;
  return std::all_of(p->inputs().begin(), p->inputs().end(), [](const ir::Value* in) { return fromWeights(in); });
}

// What the cut must start from and give: read from the graph here, not from the code under test.
std::pair<std::set<std::string>, std::set<std::string>> expectedEnds(const QList<const ir::Node*>& nodes) {
  std::set<std::string> ins, outs;
  for (const ir::Node* n : nodes) {
    for (const ir::Value* v : n->inputs())
      if (v && !v->name().empty() && !fromWeights(v) && !nodes.contains(v->producer())) ins.insert(v->name());
    for (const ir::Value* v : n->outputs()) {
      bool outside = v->isGraphOutput();
      for (const ir::Use& u : v->uses()) outside |= !nodes.contains(u.node);
      if (outside) outs.insert(v->name());
    }
  }
  return {ins, outs};
}

// The Identity / Constant nodes the cut carries along with the selection (those that compute what it reads from
// weights).
std::set<const ir::Node*> carriedNodes(const QList<const ir::Node*>& nodes) {
  std::set<const ir::Node*> carried;
  std::vector<const ir::Value*> work;
  for (const ir::Node* n : nodes) work.insert(work.end(), n->inputs().begin(), n->inputs().end());
  while (!work.empty()) {
    const ir::Value* v = work.back();
    work.pop_back();
    if (!v || v->name().empty() || !fromWeights(v) || !v->producer() || nodes.contains(v->producer())) continue;
    if (carried.insert(v->producer()).second)
      work.insert(work.end(), v->producer()->inputs().begin(), v->producer()->inputs().end());
  }
  return carried;
}

std::set<std::string> namesOf(const std::vector<ir::Value*>& values) {
  std::set<std::string> out;
  for (const ir::Value* v : values) out.insert(v->name());
  return out;
}

}  // namespace

class TestUiExtract : public QObject {
  Q_OBJECT
 private slots:
  void extractsAReproducerOfTheSelection_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("transformer") << "transformer_encoder_op17.onnx";
    QTest::newRow("squeezenet") << "squeezenet1_0_op11.onnx";
  }
  void extractsAReproducerOfTheSelection() {
    QFETCH(QString, file);
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, test::corpusModel(file)));
    ui::SubgraphExtractor* x = w.extractor();
    QVERIFY(!x->action()->isEnabled());                  // nothing selected
    QVERIFY(w.view()->actions().contains(x->action()));  // on the graph's context menu
    const QList<const ir::Node*> chain = chainOfThree(w.document()->model()->graph());
    QCOMPARE(chain.size(), 3);
    w.document()->selectNodes(chain);
    QVERIFY(x->action()->isEnabled());

    const QString dir = test::scratchDir("ui_extract_" + QFileInfo(file).baseName()) + "/cut";
    QString suggested;
    x->setFolderChooser([&](QWidget*, const QString&, const QString& s) {
      suggested = s;
      return dir;
    });
    QSignalSpy done(x, &ui::SubgraphExtractor::finished);
    x->action()->trigger();
    QVERIFY(done.wait(60000));
    QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
    qInfo("%s", qPrintable(done.first().at(1).toString()));
    QVERIFY2(suggested.startsWith(QFileInfo(test::corpusModel(file)).absolutePath()), qPrintable(suggested));
    QVERIFY2(done.first().at(1).toString().contains(dir), qPrintable(done.first().at(1).toString()));

    std::unique_ptr<ir::Model> cut;
    try {
      cut = loadModel((dir + "/model.onnx").toStdString());
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    const CheckResult check = checkModel(*cut);
    QVERIFY2(check.ok, check.messages.empty() ? "" : check.messages.front().message.c_str());
    QCOMPARE(int(cut->graph().nodeCount()), 3 + int(carriedNodes(chain).size()));
    const auto [ins, outs] = expectedEnds(chain);
    QVERIFY(!outs.empty());
    QCOMPARE(namesOf(cut->graph().inputs()), ins);
    QCOMPARE(namesOf(cut->graph().outputs()), outs);

    // The written inputs give the written outputs.
    std::map<std::string, eval::Value> inputs;
    for (size_t k = 0; k < cut->graph().inputs().size(); ++k) {
      const ir::Value* v = cut->graph().inputs()[k];
      inputs[v->name()] =
          eval::readProtoValueFile((dir + QString("/test_data_set_0/input_%1.pb").arg(k)).toStdString(), &v->type);
    }
    const eval::RunResult r = eval::runModel(*cut, inputs);
    QCOMPARE(r.outputs.size(), cut->graph().outputs().size());
    for (size_t k = 0; k < r.outputs.size(); ++k) {
      const eval::Value expected =
          eval::readProtoValueFile((dir + QString("/test_data_set_0/output_%1.pb").arg(k)).toStdString());
      const eval::ValueDiff d = eval::diffValues(expected, r.outputs[k].second, eval::Tolerance{1e-5, 1e-4});
      QVERIFY2(d.agree, qPrintable(QString::fromStdString(r.outputs[k].first + ": " + eval::toText(d))));
    }
    // Nothing but the reproducer in the folder: no temporary folder left behind.
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList({"model.onnx", "test_data_set_0"}));
  }

  void afterARunTheReproducerHoldsItsValues() {
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    QSignalSpy ran(w.runner(), &ui::ModelRunner::finished);
    w.runner()->runSeeded(5);
    QVERIFY(ran.wait(60000));
    QVERIFY(ran.first().at(0).toBool());
    const ir::Graph& g = w.document()->model()->graph();
    const ir::Node* middle = std::next(g.nodes().begin(), long(g.nodeCount() / 2))->get();
    w.document()->selectNode(middle);
    const QString dir = test::scratchDir("ui_extract_after_run");
    QSignalSpy done(w.extractor(), &ui::SubgraphExtractor::finished);
    QVERIFY(w.extractor()->start(dir));
    QVERIFY(done.wait(60000));
    QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
    QVERIFY2(done.first().at(1).toString().contains("last run"), qPrintable(done.first().at(1).toString()));
    // The data set holds what the run computed (seed 5), not values of another run.
    const eval::Value* in = w.document()->runValueOf(middle->input(0));
    const eval::Value* out = w.document()->runValueOf(middle->output(0));
    QVERIFY(in && out);
    const auto written = eval::readProtoValueFile((dir + "/test_data_set_0/input_0.pb").toStdString());
    const auto expected = eval::readProtoValueFile((dir + "/test_data_set_0/output_0.pb").toStdString());
    QCOMPARE(eval::diffValues(*in, written, eval::Tolerance{0, 0}).maxAbs, 0.0);
    QVERIFY(eval::diffValues(*out, expected, eval::Tolerance{1e-5, 1e-4}).agree);
  }

  void ctrlClickBuildsTheSelection() {
    ui::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    QTRY_VERIFY(w.scene()->nodeItemCount() > 0);
    const ir::Graph& g = w.document()->model()->graph();
    const ir::Node* first = g.nodes().front().get();
    const ir::Node* second = std::next(g.nodes().begin())->get();
    auto click = [&](const ir::Node* n, Qt::KeyboardModifiers mods) {
      ui::NodeItem* item = w.scene()->itemForNode(n);
      if (!item) return false;
      w.view()->centerOn(item);
      const QPoint at = w.view()->mapFromScene(item->sceneBoundingRect().center());
      QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, mods, at);
      return true;
    };
    QVERIFY(click(first, Qt::NoModifier));
    QCOMPARE(w.document()->selectedNodes(), QList<const ir::Node*>{first});
    QVERIFY(click(second, Qt::ControlModifier));
    QCOMPARE(w.document()->selectedNodes(), (QList<const ir::Node*>{first, second}));
    QVERIFY(w.extractor()->action()->isEnabled());
    QVERIFY(click(first, Qt::ControlModifier));  // a second Ctrl+click drops it again
    QCOMPARE(w.document()->selectedNodes(), QList<const ir::Node*>{second});
  }

  void aBadFolderIsReportedInOneLine() {
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    w.document()->selectNode(w.document()->model()->graph().nodes().front().get());
    const QString file = test::scratchDir("ui_extract_bad") + "/a_file";
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    QSignalSpy done(w.extractor(), &ui::SubgraphExtractor::finished);
    QVERIFY(w.extractor()->start(file));
    QVERIFY(done.wait(30000));
    QVERIFY(!done.first().at(0).toBool());
    const QString message = done.first().at(1).toString();
    QVERIFY2(message.contains(file) && !message.contains('\n'), qPrintable(message));
    qInfo("%s", qPrintable(message));
  }
};

QTEST_MAIN(TestUiExtract)
#include "test_ui_extract.moc"
