// Issue 25 point 1: the generated module has the exporter's module tree, so the source PyTorch module's state_dict
// loads into it by name (strict=True) or through the generated load_original_state_dict, and it then computes what
// ONNX Runtime computes on the source model and what the source module computes (tests/codegen/state_dict_check.py,
// both flavours; OneFlow on the test-only stand-in). Models: the corpus transformer, resnet50 (make_corpus.py, same
// seeds) and a square MLP exported here, where a name-based copy into a transposed layout would be silently wrong.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>

#include "codegen/code_generator.h"
#include "codegen/module_tree.h"
#include "formats/model_io.h"
#include "oracle/oracle.h"
#include "support/corpus_export.h"
#include "support/helpers.h"

using namespace fb;

namespace {

QString readText(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The folders of `flavours` for `model` under scratch `name`.
QStringList generate(const QString& model, const QString& name,
                     std::initializer_list<codegen::Flavour> flavours = {codegen::Flavour::PyTorch,
                                                                         codegen::Flavour::OneFlow}) {
  auto source = loadModel(model.toStdString());
  const QString dir = test::scratchDir("codegen_state_dict/" + name);
  QStringList folders;
  for (auto flavour : flavours) {
    codegen::CodegenOptions opts;
    opts.flavour = flavour;
    auto r = codegen::generatePython(*source, opts);
    if (!r.complete()) return {};
    const QString out = dir + "/" + QString::fromLatin1(codegen::flavourName(flavour).data());
    codegen::writeGeneratedFolder(*r.code, flavour, out.toStdString());
    folders << out;
  }
  return folders;
}

// state_dict_check.py check: one JSON object per folder, or an empty list with `why` set.
QList<QJsonObject> check(const QString& sourceCase, const QString& model, const QStringList& folders, QString& why) {
  QProcess p;
  p.setProcessChannelMode(QProcess::SeparateChannels);
  p.start("/usr/bin/python3", QStringList{QStringLiteral(FB_SOURCE_DIR "/tests/codegen/state_dict_check.py"), "check",
                                          "--case", sourceCase, "--onnx", model, "--corpus", test::corpusDir(),
                                          "--work", test::scratchDir("codegen_state_dict/work_" + sourceCase)} +
                                  folders);
  if (!p.waitForFinished(600000)) {
    p.kill();
    p.waitForFinished();
    why = "state_dict_check.py timed out";
    return {};
  }
  const QString out = QString::fromUtf8(p.readAllStandardOutput());
  QList<QJsonObject> records;
  for (const QString& line : out.split('\n', Qt::SkipEmptyParts))
    records << QJsonDocument::fromJson(line.toUtf8()).object();
  if (p.exitCode() != 0 || records.size() != folders.size()) {
    why = out + QString::fromUtf8(p.readAllStandardError()).right(1500);
    return {};
  }
  return records;
}

}  // namespace

class TestCodegenStateDict : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  void treePlacesOnlySafeNames() {
    codegen::ModuleTree tree;
    codegen::NameTable members;
    QCOMPARE(tree.place("layers.0.self_attn.in_proj_weight", members).value_or("-"),
             std::string("layers[0].self_attn.in_proj_weight"));
    QCOMPARE(tree.place("layers.2.norm1.weight", members).value_or("-"), std::string("layers[2].norm1.weight"));
    QVERIFY(!tree.place("layers.0.self_attn.in_proj_weight", members));    // taken
    QVERIFY(!tree.place("layers.x.weight", members));                      // a list holds indices only
    QVERIFY(!tree.place("layers.0.self_attn.in_proj_weight.x", members));  // below a weight
    QVERIFY(!tree.place("0.weight", members));                             // the module itself is no list
    QVERIFY(!tree.place("a.training", members));                           // nn.Module attribute
    QVERIFY(!tree.place("a.__class__", members));
    QVERIFY(!tree.place("a._modules", members));
    QVERIFY(!tree.place("a.b-c", members));
    QVERIFY(!tree.place("a.import", members));
    QVERIFY(!tree.place("a.01.w", members));
    QVERIFY(!tree.place("a.99999.w", members));
    QVERIFY(!tree.place("a.b\n.c", members));
    QVERIFY(!tree.place("weight", members));  // a top-level name keeps today's naming
    QVERIFY(members.taken("layers"));         // a flat weight named `layers` gets another name
    const auto lines = tree.createContainers("layers.2.norm1.weight");
    QCOMPARE(lines.size(), size_t(2));
    QCOMPARE(lines[0], std::string("self.layers = nn.ModuleList([nn.Module() for _ in range(3)])"));
    QCOMPARE(lines[1], std::string("self.layers[2].norm1 = nn.Module()"));
    QVERIFY(tree.createContainers("layers.2.norm1.bias").empty());
    // A list in a list (nn.Sequential in nn.Sequential: mobilenet_v2's features.0.0).
    QVERIFY(tree.place("features.1.0.weight", members));
    const auto nested = tree.createContainers("features.1.0.weight");
    QCOMPARE(nested.size(), size_t(2));
    QCOMPARE(nested[0], std::string("self.features = nn.ModuleList([nn.Module() for _ in range(2)])"));
    QCOMPARE(nested[1], std::string("self.features[1] = nn.ModuleList([nn.Module() for _ in range(1)])"));
    QCOMPARE(codegen::modulePathOfNode("/layer1/layer1.0/conv1/Conv"), std::string("layer1.0.conv1"));
    QCOMPARE(codegen::modulePathOfNode("/layers.0/self_attn/MatMul"), std::string("layers.0.self_attn"));
    QCOMPARE(codegen::modulePathOfNode("/layer1/layer1.0/downsample/downsample.0/Conv"),
             std::string("layer1.0.downsample.0"));
    QCOMPARE(codegen::modulePathOfNode("/features/features.1/conv/conv.0/conv.0.0/Conv"),
             std::string("features.1.conv.0.0"));
    QCOMPARE(codegen::modulePathOfNode("Conv_3"), std::string());
  }

  void classIsNamedAfterTheModel() {
    QCOMPARE(codegen::classNameForModel("torch_jit", "transformer_encoder_op17.onnx"),
             std::string("TransformerEncoderOp17"));
    QCOMPARE(codegen::classNameForModel("main_graph", "x.onnx"), std::string("X"));
    QCOMPARE(codegen::classNameForModel("my_net", "x.onnx"), std::string("MyNet"));
    QCOMPARE(codegen::classNameForModel("torch_jit", "none.onnx"), std::string("NoneModel"));
    QCOMPARE(codegen::classNameForModel("torch_jit", "'); open('PWNED','w') #.onnx"), std::string("OpenPWNEDW"));
    QCOMPARE(codegen::classNameForModel("", ""), std::string("Model"));
  }

  void squareMlpCopiesByName() {
    const QString dir = test::scratchDir("codegen_state_dict/mlp_export");
    const QString model = dir + "/square_mlp.onnx";
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("/usr/bin/python3",
            {QStringLiteral(FB_SOURCE_DIR "/tests/codegen/state_dict_check.py"), "export-mlp", "--out", model});
    QVERIFY(p.waitForFinished(300000));
    QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAll())));
    const QStringList folders = generate(model, "mlp");
    QCOMPARE(folders.size(), 2);
    const QString py = readText(folders[0] + "/model.py");
    // The export holds fc1.weight transposed (MatMul): the module holds it as nn.Linear does and transposes in use.
    QVERIFY2(py.contains("self.fc1.weight = nn.Parameter(torch.empty(64, 64))  # onnx::MatMul_"), qPrintable(py));
    QVERIFY2(py.contains("torch.matmul(input, self.fc1.weight.t())"), qPrintable(py));
    QVERIFY2(py.contains("self.fc3.weight"), qPrintable(py));
    QString why;
    const auto records = check("mlp", model, folders, why);
    QVERIFY2(!records.isEmpty(), qPrintable(why));
    for (const auto& r : records) {
      QCOMPARE(r["load_0"].toString(), QString("strict"));
      QCOMPARE(r["dotted_keys"].toInt(), 5);  // fc1.weight, fc1.bias, fc2.weight, fc2.bias, fc3.weight
      QCOMPARE(r["source_keys_not_in_module"].toInt(), 0);
    }
  }

  void transformerLoadsSourceStateDict() {
    const QString model = test::corpusModel("transformer_encoder_op17.onnx");
    const QStringList folders = generate(model, "transformer");
    QCOMPARE(folders.size(), 2);
    const QString py = readText(folders[0] + "/model.py");
    QVERIFY(py.contains("class TransformerEncoderOp17(nn.Module):"));
    QVERIFY(py.contains("self.layers = nn.ModuleList([nn.Module() for _ in range(6)])"));
    QVERIFY(py.contains("self.layers[3].self_attn.in_proj_weight = nn.Parameter(torch.empty(768, 256))"));
    QVERIFY(py.contains("def load_original_state_dict(module, state_dict, bn_eps=1e-05):"));
    QString why;
    const auto records = check("transformer", model, folders, why);
    QVERIFY2(!records.isEmpty(), qPrintable(why));
    for (const auto& r : records) {
      QCOMPARE(r["dotted_keys"].toInt(), 72);  // 12 tensors in each of the 6 layers
      QCOMPARE(r["source_keys_not_in_module"].toInt(), 0);
      QCOMPARE(r["load_1"].toString(), QString("load_original_state_dict"));
    }
  }

  void resnet50LoadsSourceStateDictWithFoldedBatchNorms() {
    QString why;
    const QString model = test::corpusExport("resnet50", "13", why);
    QVERIFY2(!model.isEmpty(), qPrintable(why));
    // PyTorch only (the OneFlow flavour's load_original_state_dict is the same code): two 100 MB
    // weight files and four resnet50 runs more would double the test's time.
    const QStringList folders = generate(model, "resnet50", {codegen::Flavour::PyTorch});
    QCOMPARE(folders.size(), 1);
    const QString py = readText(folders[0] + "/model.py");
    QVERIFY(py.contains("class Resnet50Op13(nn.Module):"));
    QVERIFY(py.contains("self.layer1 = nn.ModuleList([nn.Module() for _ in range(3)])"));
    QVERIFY(py.contains("(\"layer1.0.downsample.0.weight\", \"layer1.0.downsample.0.bias\")") ||
            py.contains("('layer1.0.downsample.0.weight', 'layer1.0.downsample.0.bias')"));
    const auto records = check("resnet50", model, folders, why);
    QVERIFY2(!records.isEmpty(), qPrintable(why));
    for (const auto& r : records) {
      QCOMPARE(r["dotted_keys"].toInt(), 53 * 2 + 2);  // 53 convs with a folded bias each, fc.weight and fc.bias
      QCOMPARE(r["load_1"].toString(), QString("load_original_state_dict"));
    }
  }
};

QTEST_GUILESS_MAIN(TestCodegenStateDict)
#include "test_codegen_state_dict.moc"
