// flowbridge-cli compare: a source against its conversion (pairs through the provenance `convert` writes), the
// first divergent node of a conversion broken on purpose, --json, --inputs, and models without provenance.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>

#include "support/eval_oracle.h"
#include "support/helpers.h"

using namespace fb;

class CliCompareTest : public QObject {
  Q_OBJECT
 private slots:
  void aGoodConversionAgrees_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("opset");
    QTest::newRow("super_resolution 11 -> 9") << "super_resolution_op11.onnx" << 9;
    QTest::newRow("transformer 17 -> 11") << "transformer_encoder_op17.onnx" << 11;
    QTest::newRow("mobilenet_v2 13 -> 21") << "mobilenet_v2_op13_raw.onnx" << 21;  // IR 10: node metadata
    QTest::newRow("control_flow 13 -> 11") << "control_flow_op13.onnx" << 11;
  }
  void aGoodConversionAgrees() {
    QFETCH(QString, file);
    QFETCH(int, opset);
    const QString dir = test::scratchDir("cli_compare_good");
    const QString model = test::corpusModel(file);
    auto r = test::runCli({"convert", model, "-o", dir + "/b.onnx", "--opset", QString::number(opset)});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = test::runCli({"compare", model, dir + "/b.onnx", "--json"});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    const auto j = QJsonDocument::fromJson(r.out).object();
    QVERIFY(j.value("agree").toBool());
    QVERIFY(j.value("provenance").toBool());
    // Far more than the outputs: the intermediate values are paired too.
    QVERIFY2(j.value("compared").toInt() > 3, r.out.constData());
    QVERIFY(j.value("first_divergence").isNull());
  }

  void theBrokenNodeIsNamed() {
    const QString dir = test::scratchDir("cli_compare_broken");
    const QString model = test::corpusModel("super_resolution_op11.onnx");
    auto r = test::runCliWithBrokenHandler(
        "Relu", {"convert", model, "-o", dir + "/b.onnx", "--opset", "13", "--continue-on-error"});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    r = test::runCli({"compare", model, dir + "/b.onnx"});
    QCOMPARE(r.exitCode, 4);
    QVERIFY2(r.out.contains("paired through the provenance B records"), r.out.constData());
    QVERIFY2(r.out.contains("first divergent node: '/relu/Relu' (Add"), r.out.constData());
    r = test::runCli({"compare", model, dir + "/b.onnx", "--json"});
    QCOMPARE(r.exitCode, 4);
    const auto j = QJsonDocument::fromJson(r.out).object();
    QVERIFY(!j.value("agree").toBool());
    const auto first = j.value("first_divergence").toObject();
    QCOMPARE(first.value("node").toString(), QStringLiteral("/relu/Relu"));
    QCOMPARE(first.value("op").toString(), QStringLiteral("Add"));
    QCOMPARE(first.value("source_op").toString(), QStringLiteral("Relu"));
    // Relu's output is never negative; Add(x, x) of the conv output is.
    QVERIFY(first.value("source_stats").toObject().value("min").toDouble() >= 0);
    QVERIFY(first.value("stats").toObject().value("min").toDouble() < 0);
    QVERIFY(first.value("max_abs").toDouble() > 1e-3);
  }

  void inputsFromAFolder() {
    const QString dir = test::scratchDir("cli_compare_inputs");
    const QString model = test::corpusModel("super_resolution_op11.onnx");
    QDir().mkpath(dir + "/in");
    auto m = loadModel(model.toStdString());
    const std::string name = m->graph().inputs().front()->name();
    // Zeros in, and a source compared with itself: no provenance, pairs by value name, all equal.
    eval::writeNpyFile(dir.toStdString() + "/in/" + name + ".npy",
                       eval::Tensor::zeros(ir::DataType::Float, {1, 1, 224, 224}));
    auto r = test::runCli({"compare", model, model, "--inputs", dir + "/in", "--atol", "0", "--rtol", "0"});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    QVERIFY2(r.out.contains("paired by value name"), r.out.constData());
    // A wrong shape in the folder is a one-line error, exit 2.
    eval::writeNpyFile(dir.toStdString() + "/in/" + name + ".npy",
                       eval::Tensor::zeros(ir::DataType::Float, {1, 1, 8, 8}));
    r = test::runCli({"compare", model, model, "--inputs", dir + "/in"});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY2(r.err.contains("where the model declares"), r.err.constData());
  }
};

QTEST_GUILESS_MAIN(CliCompareTest)
#include "test_cli_compare.moc"
