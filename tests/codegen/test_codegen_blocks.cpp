// Recognised blocks (issue 25, point 4), both flavours (OneFlow against the stand-in): chains an exporter made from
// one PyTorch call are written as that call, named by the ONNX nodes in a comment, and the code still computes what
// ONNX Runtime computes on the source (tests/codegen/verify_generated.py; for the corpus models test_codegen_corpus
// checks that, here only the code is read):
// - the corpus transformer at opset 13 (12 LayerNorms decomposed into 9 nodes each): 12 F.layer_norm, no sqrt left;
// - mobilenet_v3_small at opset 13: HardSigmoid * x as F.hardswish, the squeeze-excitation HardSigmoids (which
//   multiply another tensor) left as they are;
// - a small model exported here (tests/codegen/export_blocks.py): GELU (Div/Erf/Add/Mul/Mul) as F.gelu, its tanh
//   approximation (9 nodes) as F.gelu(x, approximate='tanh') in PyTorch, LayerNorm with epsilon 1e-6 as F.layer_norm
//   with that epsilon, hardswish (HardSigmoid * x, and x * Clip(x + 3, 0, 6) / 6).
// The recognition is exact or nothing: a chain that differs in one constant is left node by node. Dead statements
// (a slice keeping everything, `* 1`, `- 0`, a cast to the same type) are left out and a reversal is a flip.
#include <QtTest>

#include "oracle/oracle.h"
#include "codegen/code_generator.h"
#include "codegen/codegen_test_helpers.h"
#include "formats/model_io.h"

using namespace fb;

namespace {

// Converts with the CLI to both flavours, checks both against ONNX Runtime; returns the two model.py texts.
QStringList convertAndVerify(const QString& model, const QString& name) {
  const QString dir = test::scratchDir("codegen_blocks/" + name);
  QStringList folders, texts;
  for (const char* flavour : {"pytorch", "oneflow"}) {
    const QString out = dir + "/" + flavour;
    auto convert = test::runCli({"convert", model, "--to", flavour, "-o", out});
    if (convert.exitCode != 0) {
      qWarning() << convert.out << convert.err;
      return {};
    }
    folders << out;
    texts << test::readText(out + "/model.py");
  }
  QString report;
  if (!test::runPython(
          QStringList{FB_SOURCE_DIR "/tests/codegen/verify_generated.py", "--model", model, "--work", dir + "/verify"} +
              folders,
          report)) {
    qWarning().noquote() << report;
    return {};
  }
  return texts;
}

// The model.py text of both flavours, generated in-process.
QStringList generatedTexts(const QString& corpusFile) {
  auto source = loadModel(test::corpusModel(corpusFile).toStdString());
  QStringList texts;
  for (auto flavour : {codegen::Flavour::PyTorch, codegen::Flavour::OneFlow}) {
    codegen::CodegenOptions opts;
    opts.flavour = flavour;
    auto r = codegen::generatePython(*source, opts);
    if (r.complete() && r.code) texts << QString::fromStdString(r.code->modelPy);
  }
  return texts;
}

}  // namespace

class TestCodegenBlocks : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  void transformerLayerNorms() {
    const QStringList texts = generatedTexts("transformer_encoder_op13_raw.onnx");
    QCOMPARE(texts.size(), 2);
    for (const QString& code : texts) {
      QCOMPARE(code.count("F.layer_norm("), 12);
      QCOMPARE(code.count("sqrt("), 0);
      QVERIFY(code.contains(", eps=1e-05)  # LayerNorm of /layers.0/norm1/ReduceMean, /layers.0/norm1/Sub,"));
    }
  }

  void mobilenetHardswish() {
    const QStringList texts = generatedTexts("mobilenet_v3_small_op13.onnx");
    QCOMPARE(texts.size(), 2);
    for (const QString& code : texts) {
      // 28 HardSigmoid nodes: 19 times x * HardSigmoid(x), 9 squeeze-excitation gates.
      QCOMPARE(code.count("F.hardswish("), 19);
      QCOMPARE(code.count("_hardsigmoid = "), 9);
    }
  }

  void exportedGeluLayerNormHardswish() {
    const QString dir = test::scratchDir("codegen_blocks/export_source");
    const QString model = dir + "/blocks.onnx";
    QString report;
    QVERIFY2(test::runPython(QStringList{FB_SOURCE_DIR "/tests/codegen/export_blocks.py", model}, report),
             qPrintable(report));
    const QStringList texts = convertAndVerify(model, "export");
    QCOMPARE(texts.size(), 2);
    for (const QString& code : texts) {
      QVERIFY2(code.contains("= F.gelu(fc1_add)  # GELU of /Div, /Erf, /Add, /Mul, /Mul_1"), qPrintable(code));
      QVERIFY2(code.contains(", (32,), self.") && code.contains("eps=1e-06)  # LayerNorm of /norm/ReduceMean, "),
               qPrintable(code));
      // hardswish as HardSigmoid * x and written out as x * clamp(x + 3, 0, 6) / 6.
      QVERIFY2(code.count("F.hardswish(") == 2 && code.contains("# hardswish of /Add_3, /Clip, /Mul_9, /Div_1"),
               qPrintable(code));
      QVERIFY(!code.contains("erf(") && !code.contains("0.16666667") && !code.contains("clamp("));
    }
    // GELU's tanh approximation: F.gelu(x, approximate='tanh') in PyTorch (1.12 on); OneFlow's docs give
    // `approximate` for 1.0 only, so its code keeps the nodes.
    QVERIFY2(texts[0].contains("F.gelu(mul_1, approximate='tanh')  # GELU of /Mul_3, /Mul_4, /Mul_5, /Add_1, /Mul_6, "
                               "/Tanh, /Add_2, /Mul_7, /Mul_8"),
             qPrintable(texts[0]));
    QVERIFY2(!texts[1].contains("approximate") && texts[1].contains("flow.tanh("), qPrintable(texts[1]));
  }

  void deadStatementsAndFlips() {
    // A whole-axis reversal (an export's x.flip(1): Slice -1 .. INT64_MIN step -1) is a flip; a slice keeping every
    // element, `* 1`, `- 0` and a Cast to float of a float write nothing; `+ 0` stays (it turns -0.0 into 0.0).
    const QString dir = test::scratchDir("codegen_blocks/dead_source");
    const QString model = dir + "/dead.onnx";
    QString report;
    QVERIFY2(test::runPython({"-c",
                              "import onnx; from onnx import helper as h, TensorProto as T\n"
                              "i = lambda n, v: h.make_tensor(n, T.INT64, [len(v)], v)\n"
                              "f = lambda n, v: h.make_tensor(n, T.FLOAT, [], [v])\n"
                              "inits = [i('s', [-1]), i('e', [-2**63]), i('ax', [1]), i('st', [-1]), i('z', [0]), "
                              "i('big', [2**63 - 1]),\n"
                              "  f('one', 1.0), f('zero', 0.0)]\n"
                              "nodes = [h.make_node('Slice', ['x', 's', 'e', 'ax', 'st'], ['flipped'], name='flip'),\n"
                              "  h.make_node('Slice', ['flipped', 'z', 'big', 'ax'], ['all'], name='keep_all'),\n"
                              "  h.make_node('Mul', ['all', 'one'], ['m'], name='times_one'),\n"
                              "  h.make_node('Sub', ['m', 'zero'], ['d'], name='minus_zero'),\n"
                              "  h.make_node('Cast', ['d'], ['c'], to=T.FLOAT, name='restate'),\n"
                              "  h.make_node('Add', ['c', 'zero'], ['y'], name='plus_zero')]\n"
                              "g = h.make_graph(nodes, 'dead', [h.make_tensor_value_info('x', T.FLOAT, [2, 5])],\n"
                              "  [h.make_tensor_value_info('y', T.FLOAT, [2, 5])], inits)\n"
                              "onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 13)], ir_version=8), '" +
                                  model + "')"},
                             report),
             qPrintable(report));
    const QStringList texts = convertAndVerify(model, "dead");
    QCOMPARE(texts.size(), 2);
    for (const QString& code : texts) {
      const QString forward = code.mid(code.indexOf("def forward"));
      QVERIFY2(forward.contains("flipped = x.flip(1)  # flip\n") && forward.contains("y = flipped + 0.0  # plus_zero"),
               qPrintable(forward));
      QCOMPARE(forward.count("  # "), 2);  // two statements: the flip and `+ 0`
    }
  }

  void nearMissIsLeftNodeByNode() {
    // GELU's chain with 0.6 for 0.5: not GELU, so written node by node (and still right).
    const QString dir = test::scratchDir("codegen_blocks/near_miss_source");
    const QString model = dir + "/near_miss.onnx";
    QString report;
    QVERIFY2(
        test::runPython({"-c",
                         "import onnx, sys; from onnx import helper as h, TensorProto as T\n"
                         "c = lambda n, v: h.make_node('Constant', [], [n], value=h.make_tensor(n, T.FLOAT, [], [v]))\n"
                         "nodes = [c('s', 1.4142135), c('one', 1.0), c('half', 0.6),\n"
                         "  h.make_node('Div', ['x', 's'], ['d']), h.make_node('Erf', ['d'], ['e']),\n"
                         "  h.make_node('Add', ['e', 'one'], ['a']), h.make_node('Mul', ['x', 'a'], ['m']),\n"
                         "  h.make_node('Mul', ['m', 'half'], ['y'])]\n"
                         "g = h.make_graph(nodes, 'near_miss', [h.make_tensor_value_info('x', T.FLOAT, [2, 3])],\n"
                         "  [h.make_tensor_value_info('y', T.FLOAT, [2, 3])])\n"
                         "onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 13)], ir_version=8), '" +
                             model + "')"},
                        report),
        qPrintable(report));
    const QStringList texts = convertAndVerify(model, "near_miss");
    QCOMPARE(texts.size(), 2);
    for (const QString& code : texts) {
      QVERIFY2(!code.contains("F.gelu("), qPrintable(code));
      QVERIFY2(code.contains("erf("), qPrintable(code));
    }
  }
};

QTEST_GUILESS_MAIN(TestCodegenBlocks)
#include "test_codegen_blocks.moc"
