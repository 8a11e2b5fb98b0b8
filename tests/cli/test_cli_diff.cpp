// flowbridge-cli diff: exit 0 for the same model, 5 for models that differ, the JSON with every pair, weights with
// their largest differences, unnamed nodes under FlowBridge's names, escaped model strings, and its errors.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "support/helpers.h"

using namespace fb;

namespace {

QJsonObject parse(const QByteArray& out) {
  QJsonParseError err;
  const QJsonObject o = QJsonDocument::fromJson(out, &err).object();
  if (err.error != QJsonParseError::NoError) qWarning("%s", qPrintable(err.errorString()));
  return o;
}

// The corpus model with the edits `edit` makes, written into the scratch folder.
template <typename Edit>
QString edited(const char* file, const QString& dir, const QString& name, Edit edit) {
  auto m = loadModel(test::corpusModel(file).toStdString());
  edit(*m);
  const QString out = dir + "/" + name;
  onnxfmt::writeOnnxFile(*m, out.toStdString());
  return out;
}

}  // namespace

class CliDiff : public QObject {
  Q_OBJECT
 private slots:
  void sameModelExitsZero() {
    const QString m = test::corpusModel("transformer_encoder_op17.onnx");
    auto r = test::runCli({"diff", m, m});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.contains(": the same\n"));
    QVERIFY(r.out.contains("363 same, 0 changed, 0 only in A, 0 only in B"));
    auto j = test::runCli({"diff", "--json", m, m});
    QCOMPARE(j.exitCode, 0);
    QCOMPARE(parse(j.out).value("same").toBool(), true);
  }

  void opsetExportsDifferWithExitFive() {
    const QString a = test::corpusModel("transformer_encoder_op13_dyn.onnx");
    const QString b = test::corpusModel("transformer_encoder_op17.onnx");
    auto r = test::runCli({"diff", a, b, "--max-rows", "400"});
    QCOMPARE(r.exitCode, 5);
    QVERIFY(r.out.contains("opset ai.onnx: 13 -> 17"));
    QVERIFY(r.out.contains("rewritten as 1 of B (LayerNormalization, from"));
    auto few = test::runCli({"diff", a, b, "--max-rows", "5"});
    QCOMPARE(few.exitCode, 5);
    QVERIFY(few.out.contains("more (--max-rows; --json lists every pair)"));
    auto j = test::runCli({"diff", "--json", a, b});
    QCOMPARE(j.exitCode, 5);
    const QJsonObject o = parse(j.out);
    const QJsonArray nodes = o.value("nodes").toArray();
    QVERIFY(nodes.size() > 300);
    int withBoth = 0;
    for (const auto& v : nodes) {
      const QJsonObject n = v.toObject();
      QVERIFY(n.contains("a") && n.contains("b"));
      const QString s = n.value("status").toString();
      QVERIFY2(s == "same" || s == "changed" || s == "only_a" || s == "only_b", qPrintable(s));
      withBoth += !n.value("a").isNull() && !n.value("b").isNull();
    }
    QVERIFY(withBoth > 200);
    QCOMPARE(o.value("weights").toArray().size(), 9);
    for (const auto& w : o.value("weights").toArray()) QCOMPARE(w.toObject().value("status").toString(), "same");
  }

  void weightChangeWithItsLargestDifference() {
    const QString dir = test::scratchDir("cli_diff_weight");
    std::string changed;
    const QString b = edited("squeezenet1_0_op11.onnx", dir, "b.onnx", [&](ir::Model& m) {
      ir::Tensor& t = *m.graph().initializers()[3];
      changed = t.name;
      auto v = t.values<float>();
      v[0] += 0.5f;
      v[1] -= 0.125f;
      t.setBytes(std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4));
    });
    const QString a = test::corpusModel("squeezenet1_0_op11.onnx");
    auto r = test::runCli({"diff", "--weights", a, b});
    QCOMPARE(r.exitCode, 5);
    QVERIFY2(r.out.contains("weights: 34 same, 1 changed"), r.out.constData());
    QVERIFY2(r.out.contains(QByteArray("weight ~ ") + changed.c_str() + ": values differ, max abs diff 0.5"),
             r.out.constData());
    QVERIFY(r.out.contains("(2 of "));
    auto j = test::runCli({"diff", "--json", a, b});
    int found = 0;
    for (const auto& v : parse(j.out).value("weights").toArray()) {
      const QJsonObject w = v.toObject();
      if (w.value("status").toString() != "changed") continue;
      ++found;
      QCOMPARE(w.value("a").toString(), QString::fromStdString(changed));
      QCOMPARE(w.value("max_abs_diff").toDouble(), 0.5);
      QCOMPARE(w.value("differing_elements").toInt(), 2);
    }
    QCOMPARE(found, 1);
  }

  // --run: both models on the evaluator with the same seeded inputs, outputs compared by position. The same model
  // agrees; an export at another opset of the same network agrees numerically though its structure differs; a
  // changed weight makes the outputs differ.
  void runComparesTheOutputs() {
    const QString m = test::corpusModel("super_resolution_op11.onnx");
    auto same = test::runCli({"diff", "--run", m, m});
    QVERIFY2(same.exitCode == 0, same.err.constData());
    QVERIFY2(same.out.contains("outputs agree"), same.out.constData());
    auto opsets = test::runCli({"diff", "--run", "--json", m, test::corpusModel("super_resolution_op17.onnx")});
    const QJsonArray run = parse(opsets.out).value("run").toArray();
    QCOMPARE(run.size(), 1);
    QVERIFY(run[0].toObject().value("agree").toBool());
    const QString dir = test::scratchDir("cli_diff_run");
    const QString b = edited("super_resolution_op11.onnx", dir, "b.onnx", [&](ir::Model& mm) {
      for (auto& t : mm.graph().initializers()) {
        if (t->dims.size() != 4) continue;
        auto v = t->values<float>();
        for (float& x : v) x *= 2;  // a conv's weights doubled
        t->setBytes(std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4));
        break;
      }
    });
    auto differ = test::runCli({"diff", "--run", m, b});
    QCOMPARE(differ.exitCode, 5);
    QVERIFY2(differ.out.contains("outputs differ") && differ.out.contains("outside the tolerance"),
             differ.out.constData());
  }

  // Nodes without a name are called "Op#id" in the text and the JSON, as everywhere in FlowBridge; names from the
  // file reach the terminal escaped.
  void unnamedNodesAndHostileNames() {
    const QString dir = test::scratchDir("cli_diff_names");
    const QString a = edited("super_resolution_op11.onnx", dir, "a.onnx", [](ir::Model& m) {
      for (const auto& n : m.graph().nodes()) n->name.clear();
    });
    const QString b = edited("super_resolution_op11.onnx", dir, "b.onnx", [](ir::Model& m) {
      for (const auto& n : m.graph().nodes()) n->name.clear();
      ir::Node* conv = m.graph().nodes().front().get();
      conv->name = "evil\x1b[2J\nname";
      conv->setAttr(ir::Attribute::makeInts("dilations", {2, 2}));
    });
    auto j = test::runCli({"diff", "--json", a, b});
    QCOMPARE(j.exitCode, 5);
    const QJsonArray nodes = parse(j.out).value("nodes").toArray();
    QCOMPARE(nodes.size(), 8);
    static const QRegularExpression label("^[A-Za-z]+#[0-9]+$");
    for (const auto& v : nodes) QVERIFY(label.match(v.toObject().value("a").toString()).hasMatch());
    auto t = test::runCli({"diff", a, b});
    QCOMPARE(t.exitCode, 5);
    QVERIFY(!t.out.contains('\x1b'));
    QVERIFY2(t.out.contains("= evil\\x1b[2J\\nname in B: attribute dilations"), t.out.constData());
    auto help = test::runCli({"diff", "--help"});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("<Op>#<id>"));
    QVERIFY(help.out.contains("5 they differ"));
    QVERIFY(test::runCli({"--help"}).out.contains("5  diff: the two models differ"));
  }

  void errors() {
    const QString m = test::corpusModel("super_resolution_op11.onnx");
    auto usage = test::runCli({"diff", m});
    QCOMPARE(usage.exitCode, 1);
    const QString missing = test::scratchDir("cli_diff_errors") + "/missing.onnx";
    auto bad = test::runCli({"diff", m, missing});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.out.isEmpty());
    QCOMPARE(bad.err.count('\n'), 1);
    QVERIFY(bad.err.startsWith("flowbridge-cli: error: " + missing.toUtf8()));
  }
};

QTEST_GUILESS_MAIN(CliDiff)
#include "test_cli_diff.moc"
