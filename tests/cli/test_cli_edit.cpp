// flowbridge-cli edit end to end: the flags and a script on corpus models, the result checked and written; an
// edit that does not apply and a result that fails the check exit 2 with one line naming the edit, nothing
// written; the edited model gives ONNX Runtime the source's outputs where the edits keep the computation.
#include <QtTest>

#include <cmath>

#include "formats/model_io.h"
#include "ir/node.h"
#include "support/eval_oracle.h"
#include "support/helpers.h"

using namespace fb;
using test::runCli;
using test::writeText;

namespace {

QString nodeName(const ir::Model& m, const std::string& op) {
  for (const auto& n : m.graph().nodes())
    if (n->opType == op) return QString::fromStdString(n->name);
  return {};
}

}  // namespace

class CliEditTest : public QObject {
  Q_OBJECT
 private slots:
  void listsVerbs() {
    const auto r = runCli({"edit", "--list"});
    QCOMPARE(r.exitCode, 0);
    for (const char* v : {"set-input-shape", "remove-node", "insert-node", "extract", "set-opset"})
      QVERIFY2(r.out.contains(v), v);
    // --print-script: the flags as script lines, a name with a space quoted, nothing else done.
    const auto p = runCli({"edit", test::corpusModel("squeezenet1_0_op11.onnx"), "--rename", "a b=c", "--add-output",
                           "x", "--print-script"});
    QCOMPARE(p.exitCode, 0);
    QCOMPARE(p.out, QByteArray("rename from=\"a b\" to=c\nadd-output value=x\n"));
  }

  // The common flags: shape pinned, value renamed, attribute set, output added; the result reads back so.
  void flagsApply() {
    const QString dir = test::scratchDir("cli_edit_flags");
    const QString src = test::corpusModel("squeezenet1_0_op11.onnx");
    auto m = loadModel(src.toStdString());
    const QString relu = nodeName(*m, "Relu");
    const QString out = dir + "/edited.onnx";
    const QString inputName = QString::fromStdString(m->graph().inputs()[0]->name());
    const QString reluOut = QString::fromStdString(m->graph().nodes().front()->output(0)->name());
    const auto r = runCli({"edit", src, "--rename", inputName + "=image", "--add-output", reluOut, "--set-attr",
                           nodeName(*m, "MaxPool") + ".ceil_mode=0", "-o", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto e = loadModel(out.toStdString());
    QCOMPARE(e->graph().inputs()[0]->name(), std::string("image"));
    QCOMPARE(e->graph().outputs().size(), size_t(2));
    QCOMPARE(e->graph().outputs()[1]->name(), reluOut.toStdString());
    QVERIFY(e->graph().outputs()[1]->type.hasStaticShape());
    (void)relu;
  }

  // A script: remove a Dropout-free ReLU by bypass, pin the dims, rename; ONNX Runtime agrees with the source
  // except where the edit changes the computation (it does not here: the renames and the pin keep it).
  void scriptKeepsOutputsInOnnxRuntime() {
    const QString dir = test::scratchDir("cli_edit_script_ort");
    const QString src = test::corpusModel("transformer_encoder_op13_dyn.onnx");
    const QString script = writeText(dir + "/edits.txt",
                                     "# pin the batch, rename the output\n"
                                     "set-input-shape name=input shape=1,32,256\n"
                                     "rename from=output to=\"encoded output\"\n"
                                     "set-producer name=flowbridge-edit\n");
    const QString out = dir + "/edited.onnx";
    const auto r = runCli({"edit", src, "--script", script, "-o", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QDir().mkpath(dir + "/in");
    const auto inputs = test::writeSeededInputs(out, dir + "/in");
    QCOMPARE(test::runOnnxRuntime(src, dir + "/ort_src", inputs.files), QString());
    QCOMPARE(test::runOnnxRuntime(out, dir + "/ort_edit", inputs.files), QString());
    const auto a = eval::readNpyFile((dir + "/ort_src/0.npy").toStdString());
    const auto b = eval::readNpyFile((dir + "/ort_edit/0.npy").toStdString());
    QCOMPARE(a.dims(), b.dims());
    // ONNX Runtime optimises a graph with static shapes differently: float rounding may differ, nothing more.
    const auto x = a.toDoubles(), y = b.toDoubles();
    double worst = 0;
    for (size_t k = 0; k < x.size(); ++k) worst = std::max(worst, std::abs(x[k] - y[k]));
    QVERIFY2(worst < 1e-4, qPrintable(QString("max abs difference %1").arg(worst)));
  }

  // An edit that does not apply: exit 2, one line naming the edit (its number and line) and the reason, no file.
  void failingEditWritesNothing_data() {
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing node") << "prune\nremove-node node=ghost\n"
                                  << "edit 2: remove-node node=ghost: no node named 'ghost'";
    QTest::newRow("unknown verb") << "frobnicate x=1\n"
                                  << "edit 1: frobnicate x=1: unknown verb 'frobnicate'";
    QTest::newRow("wrong type") << "set-input-shape name=input shape=1,x,\n"
                                << "not a shape";
    QTest::newRow("syntax") << "rename from=\"a\n"
                            << "line 1: unterminated quote";
    QTest::newRow("two producers") << "rename from=input to=output\n"
                                   << "a value is named 'output' already";
    QTest::newRow("two producers by insert-node")
        << "set-producer name=x\ninsert-node value=input op=Identity output=/relu/Relu_output_0\n"
        << "edit 2: insert-node value=input op=Identity output=/relu/Relu_output_0: a value is named "
           "'/relu/Relu_output_0' already";
    QTest::newRow("cycle") << "set-producer name=y\ninsert-node value=input op=Add inputs=/relu/Relu_output_0\n"
                           << "edit 2: insert-node value=input op=Add inputs=/relu/Relu_output_0: the input "
                              "'/relu/Relu_output_0' is computed from a reader of 'input': the graph would be cyclic";
  }
  void failingEditWritesNothing() {
    QFETCH(QString, script);
    QFETCH(QString, expected);
    const QString dir = test::scratchDir("cli_edit_fail");
    const QString path = writeText(dir + "/edits.txt", script.toUtf8());
    const QString out = dir + "/never.onnx";
    const auto r = runCli({"edit", test::corpusModel("super_resolution_op13_dyn.onnx"), "--script", path, "-o", out});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
    QVERIFY(!QFile::exists(out));
    QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 1);  // no temporary file left either
  }

  // An edit that applies but breaks the model (Conv turned into Relu keeps its weight inputs): the check refuses it.
  void resultFailingTheCheckWritesNothing() {
    const QString dir = test::scratchDir("cli_edit_check");
    const QString src = test::corpusModel("super_resolution_op13_dyn.onnx");
    auto m = loadModel(src.toStdString());
    const QString out = dir + "/never.onnx";
    const QString path =
        writeText(dir + "/edits.txt", ("set-op node=\"" + nodeName(*m, "Conv") + "\" op=Relu\n").toUtf8());
    const auto r = runCli({"edit", src, "--script", path, "-o", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("the edited model does not pass the check (") && r.err.endsWith("; nothing written\n"),
             r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(!QFile::exists(out));
  }

  // control_flow_op13: a Loop body's node is edited in place by name; a node of an If branch cannot be removed
  // (remove-node rewires the main graph), refused naming the branch, nothing written.
  void bodiesOfControlFlow() {
    const QString dir = test::scratchDir("cli_edit_bodies");
    const QString src = test::corpusModel("control_flow_op13.onnx");
    const QString out = dir + "/edited.onnx";
    auto r = runCli({"edit", src, "--set-attr", "/step/lin/Gemm.alpha=0.5", "--rename", "/Neg=negate", "-o", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto m = loadModel(out.toStdString());
    size_t found = 0;
    for (const auto& n : m->graph().nodes())
      for (const ir::Graph* body : n->subgraphs())
        for (const auto& b : body->nodes())
          found += (b->name == "/step/lin/Gemm" && b->attrFloat("alpha", 1) == 0.5f) + (b->name == "negate");
    QCOMPARE(found, size_t(2));
    const QString never = dir + "/never.onnx";
    r = runCli({"edit", src, "--remove-node", "/Neg", "-o", never});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains("remove-node node=/Neg: node '/Neg' is in the body 'else_branch' of If '/If'"),
             r.err.constData());
    QVERIFY(!QFile::exists(never));
  }

  void extractFlags() {
    const QString dir = test::scratchDir("cli_edit_extract");
    const QString src = test::corpusModel("squeezenet1_0_op11.onnx");
    auto m = loadModel(src.toStdString());
    std::string middle;
    size_t k = 0;
    for (const auto& n : m->graph().nodes())
      if (k++ == m->graph().nodeCount() / 2) middle = n->output(0)->name();
    const QString out = dir + "/part.onnx";
    const auto r = runCli({"edit", src, "--extract-outputs", QString::fromStdString(middle), "-o", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto part = loadModel(out.toStdString());
    QCOMPARE(part->graph().outputs()[0]->name(), middle);
    QVERIFY(part->graph().nodeCount() < m->graph().nodeCount());
    // Writing over the input is refused before anything is read.
    const auto same = runCli({"edit", src, "--add-output", QString::fromStdString(middle), "-o", src});
    QCOMPARE(same.exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(CliEditTest)
#include "test_cli_edit.moc"
