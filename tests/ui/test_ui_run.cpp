// Run > Run Model in the app: the evaluator runs the open model off the UI thread, the Tensor panel then shows what
// a selected node computed (statistics, first values, histogram), Cancel keeps the window usable and no values,
// a model that cannot run says which node and why, and a new model drops the old run's values.
#include <QtTest>

#include "eval/io/npy_file.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/document.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/inspector/tensor_panel.h"
#include "ui/main_window.h"
#include "ui/run/model_runner.h"
#include "ui/widgets/histogram_view.h"

using namespace fb;

namespace {

bool runAndWait(ui::MainWindow& w, std::function<void()> start, bool* ok = nullptr, QString* message = nullptr) {
  QSignalSpy done(w.runner(), &ui::ModelRunner::finished);
  start();
  if (!done.wait(120000)) return false;
  if (ok) *ok = done.first().at(0).toBool();
  if (message) *message = done.first().at(1).toString();
  return true;
}

// Every (label, value) row of the panel's tree, flattened.
QStringList rows(const ui::PropertyTreeModel* m, const QModelIndex& parent = {}) {
  QStringList out;
  for (int r = 0; r < m->rowCount(parent); ++r) {
    const QModelIndex i = m->index(r, 0, parent);
    out << i.data().toString() + "=" + m->index(r, 1, parent).data().toString();
    out += rows(m, i);
  }
  return out;
}

const ir::Node* firstNodeOf(const ir::Model& m, const std::string& op) {
  for (const auto& n : m.graph().nodes())
    if (n->opType == op) return n.get();
  return nullptr;
}

}  // namespace

class TestUiRun : public QObject {
  Q_OBJECT
 private slots:
  void showsWhatANodeComputed() {
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    bool ok = false;
    QString message;
    QVERIFY(runAndWait(
        w, [&] { w.runner()->runSeeded(3); }, &ok, &message));
    QVERIFY2(ok, qPrintable(message));
    const ui::RunValues* values = w.document()->runValues();
    QVERIFY(values);
    // Every node's outputs were kept: the conv stack of super_resolution has 4 Conv, 3 Relu, Reshape, Transpose.
    const ir::Model& m = *w.document()->model();
    for (const auto& n : m.graph().nodes())
      for (const ir::Value* o : n->outputs()) QVERIFY2(w.document()->runValueOf(o), o->name().c_str());

    const ir::Node* relu = firstNodeOf(m, "Relu");
    QVERIFY(relu);
    w.document()->selectNode(relu);
    const QStringList r = rows(w.tensorPanel()->model());
    QVERIFY2(r.join('|').contains("Computed: " + QString::fromStdString(relu->output(0)->name())),
             qPrintable(r.join('|')));
    // A Relu's minimum is 0 and its histogram counts every element.
    QVERIFY2(r.contains("min=0"), qPrintable(r.join('|')));
    const eval::Tensor& y = w.document()->runValueOf(relu->output(0))->tensor();
    const auto& h = w.tensorPanel()->histogram()->histogram();
    int64_t counted = 0;
    for (int64_t c : h.counts) counted += c;
    QCOMPARE(counted + h.nonFinite, y.size());
    QVERIFY(w.tensorPanel()->histogram()->isVisibleTo(w.tensorPanel()));
  }

  void runsOnInputsFromAFolder() {
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    const ir::Value* in = w.document()->model()->graph().inputs().front();
    const QString dir = test::scratchDir("ui_run_inputs");
    std::vector<float> ones(224 * 224, 1.0f);
    eval::writeNpyFile((dir + "/" + QString::fromStdString(in->name()) + ".npy").toStdString(),
                       eval::Tensor::floats({1, 1, 224, 224}, ones));
    bool ok = false;
    QString message;
    QVERIFY(runAndWait(
        w, [&] { w.runner()->runWithInputsFrom(dir); }, &ok, &message));
    QVERIFY2(ok, qPrintable(message));
    const eval::Value* x = w.document()->runValueOf(in);
    QVERIFY(x);
    QCOMPARE(x->tensor().doubleAt(0), 1.0);  // the file's values, not seeded ones
    QVERIFY(w.document()->runValues()->inputs.contains(dir));
  }

  void cancelKeepsNoValuesAndANewModelDropsThem() {
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    bool ok = true;
    QVERIFY(runAndWait(
        w,
        [&] {
          w.runner()->runSeeded(0);
          w.runner()->cancel();
        },
        &ok));
    QVERIFY(!ok);
    QVERIFY(!w.document()->runValues());
    QVERIFY(runAndWait(
        w, [&] { w.runner()->runSeeded(0); }, &ok));
    QVERIFY(ok && w.document()->runValues());
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op17.onnx")));
    QVERIFY(!w.document()->runValues());
  }

  void saysWhichNodeCannotRun() {
    // A Relu in a domain nobody implements: the run names that node and says why.
    const QString path = test::scratchDir("ui_run_bad") + "/custom_op.onnx";
    {
      auto m = std::make_unique<ir::Model>();
      m->setOpsetVersion("", 13);
      m->setOpsetVersion("my.domain", 1);
      ir::Graph& g = m->graph();
      ir::Value* x = g.getOrCreateValue("x");
      x->type = ir::TypeInfo::tensor(ir::DataType::Float, ir::Shape{ir::Dim::of(2)});
      g.addInput(x);
      ir::Value* y = g.getOrCreateValue("y");
      y->type = x->type;
      g.addNode("Mystery", {x}, {y}, "my.domain")->name = "the_mystery";
      g.addOutput(y);
      onnxfmt::writeOnnxFile(*m, path.toStdString());
    }
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, path));
    bool ok = true;
    QString message;
    QVERIFY(runAndWait(
        w, [&] { w.runner()->runSeeded(0); }, &ok, &message));
    QVERIFY(!ok);
    QVERIFY2(message.contains("the_mystery") && message.contains("my.domain"), qPrintable(message));
  }
};

QTEST_MAIN(TestUiRun)
#include "test_ui_run.moc"
