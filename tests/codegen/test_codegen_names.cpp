// The names generated code is made of: OneFlow API names that exist in every OneFlow release the code
// targets, identifiers derived from ONNX names, and Python literals that read back exactly.
#include <QtTest>

#include <map>
#include <set>

#include "codegen/flavour.h"
#include "codegen/identifiers.h"
#include "codegen/py_node.h"

using namespace fb;

class TestCodegenNames : public QObject {
  Q_OBJECT
 private slots:
  void oneflowNamesExistInEveryTargetedRelease() {
    QFile f(FB_SHARED_DOCS "/oneflow-api-versions.tsv");
    QVERIFY2(f.open(QIODevice::ReadOnly), "shared/docs/oneflow-api-versions.tsv missing");
    std::map<QString, QStringList> versions;
    while (!f.atEnd()) {
      QStringList cols = QString::fromUtf8(f.readLine()).trimmed().split('\t');
      if (cols.size() >= 4) versions[cols[0]] = cols.mid(1, 3);
    }
    QVERIFY(versions.size() > 900);
    QVERIFY(codegen::oneflowApiNames().size() > 100);
    for (const auto& name : codegen::oneflowApiNames()) {
      auto it = versions.find(QString::fromStdString(name));
      QVERIFY2(it != versions.end(), qPrintable(QString::fromStdString(name) + " is not a OneFlow name"));
      QVERIFY2(it->second == (QStringList{"Y", "Y", "Y"}),
               qPrintable(QString::fromStdString(name) + " is missing from OneFlow " + it->second.join('/')));
    }
  }

  // The README lists the OneFlow names generated code may use; it must say exactly what the code allows.
  void readmeListsTheOneflowNames() {
    QFile f(FB_SOURCE_DIR "/README.md");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    const QString begin = "<!-- oneflow-api-names -->", end = "<!-- /oneflow-api-names -->";
    const auto b = text.indexOf(begin), e = text.indexOf(end);
    QVERIFY2(b >= 0 && e > b, "README.md has no oneflow-api-names block");
    std::set<std::string> listed;
    for (const QString& line : text.mid(b + begin.size(), e - b - begin.size()).split('\n')) {
      // "- `oneflow.nn.functional`: relu, leaky_relu, ..."
      QRegularExpressionMatch m = QRegularExpression("^- `([a-zA-Z_.]+)`[^:]*: (.*)$").match(line.trimmed());
      if (!m.hasMatch()) continue;
      for (const QString& n : m.captured(2).split(',', Qt::SkipEmptyParts))
        listed.insert((m.captured(1) + "." + n.trimmed()).toStdString());
    }
    const std::set<std::string> allowed(codegen::oneflowApiNames().begin(), codegen::oneflowApiNames().end());
    QCOMPARE(listed, allowed);
  }

  void apiNamesAreFoundInCode() {
    const std::string code =
        "import oneflow as flow\n"
        "y = F.relu(flow.cat([a, self.w.reshape(1, -1)], dim=1))  # F.fake(x) in a comment\n"
        "z = y.permute(0, 2, 1).sum(dim=1) + len('T.str(x)')\n"
        "super().__init__()\n";
    auto names = codegen::apiNamesIn(code, codegen::Flavour::OneFlow);
    const std::vector<std::string> expected{"oneflow.Tensor.permute", "oneflow.Tensor.reshape", "oneflow.Tensor.sum",
                                            "oneflow.cat", "oneflow.nn.functional.relu"};
    QCOMPARE(names, expected);
  }

  void identifiersReadLikeTheSourceNames() {
    QCOMPARE(codegen::identifierForValue("/layer1/layer1.0/conv1/Conv_output_0"), std::string("layer1_0_conv1"));
    QCOMPARE(codegen::identifierForValue("/layer1/layer1.0/relu/Relu_output_0"), std::string("layer1_0_relu"));
    QCOMPARE(codegen::identifierForValue("/encoder/Add_output_0"), std::string("encoder_add"));
    QCOMPARE(codegen::identifierForValue("/Split_output_1"), std::string("split_1"));
    QCOMPARE(codegen::identifierForValue("onnx::Conv_193"), std::string("conv_193"));
    QCOMPARE(codegen::identifierForValue("input.4"), std::string("input_4"));
    QCOMPARE(codegen::identifierForValue("0"), std::string("v0"));
    QCOMPARE(codegen::identifierForWeight("encoder.layer.3.attn.q_proj.weight"),
             std::string("encoder_layer_3_attn_q_proj_weight"));
    codegen::NameTable names;
    QCOMPARE(names.claim("x"), std::string("x"));
    QCOMPARE(names.claim("x"), std::string("x_1"));
    QCOMPARE(names.claim("lambda"), std::string("lambda_"));
    QCOMPARE(names.claim("torch"), std::string("torch_1"));  // module aliases stay usable
  }

  void literalsReadBackExactly() {
    QCOMPARE(codegen::pyFloat(0.1f, ir::DataType::Float), std::string("0.1"));
    QCOMPARE(codegen::pyFloat(1.0f, ir::DataType::Float), std::string("1.0"));
    QCOMPARE(codegen::pyFloat(1e-5f, ir::DataType::Float), std::string("1e-05"));
    QCOMPARE(codegen::pyFloat(0.1, ir::DataType::Double), std::string("0.1"));
    QCOMPARE(codegen::pyFloat(1.0 / 3.0, ir::DataType::Double), std::string("0.3333333333333333"));
    const float third = 1.0f / 3.0f;
    QCOMPARE(static_cast<float>(std::stod(codegen::pyFloat(third, ir::DataType::Float))), third);
    QCOMPARE(codegen::pyStringLiteral("it's\n"), std::string("'it\\'s\\n'"));
    QCOMPARE(codegen::pyIntTuple({3}), std::string("(3,)"));
  }
};

QTEST_GUILESS_MAIN(TestCodegenNames)
#include "test_codegen_names.moc"
