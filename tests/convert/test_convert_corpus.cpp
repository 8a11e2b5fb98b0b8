// Every corpus model converted to opsets 9, 11, 13 and 17 with the default passes: each result passes the
// libonnx checker and strict shape inference, declares the target opset and its IR version, and computes
// the same outputs as the source in ONNX Runtime. Conversions that cannot be done are listed below with
// the reason the converter must give for them.
#include <QtTest>

#include <map>
#include <set>

#include "check/onnx_check.h"
#include "convert/converter.h"
#include "schema/onnx_schema.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_writer.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;

namespace {

const int64_t kTargets[] = {9, 11, 13, 17};

// (file, target) -> text the unsupported node's message must contain. Every corpus model converts to every
// target today; an entry here is a promise about what the report says, checked like any other result.
const std::map<std::pair<QString, int64_t>, QString> kNotPossible = {};

// Every default-domain node of the result is defined at the target opset (subgraphs included).
void collectOpsAbsentAt(const ir::Graph& g, int64_t opset, QStringList& out) {
  for (const auto& n : g.nodes()) {
    if (n->isDefaultDomain() && !schema::schemaAt("", n->opType, opset)) out << QString::fromStdString(n->opType);
    for (const ir::Graph* sub : n->subgraphs()) collectOpsAbsentAt(*sub, opset, out);
  }
}

std::string serialized(const ir::Model& m) {
  onnx::ModelProto p;
  onnxfmt::exportModel(m, p);
  std::string bytes;
  p.SerializeToString(&bytes);
  return bytes;
}

}  // namespace

class TestConvertCorpus : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  void convertsToEveryTarget_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }

  void convertsToEveryTarget() {
    QFETCH(QString, file);
    const QString path = test::corpusModel(file);
    auto source = loadModel(path.toStdString());
    const size_t sourceNodes = source->graph().totalNodeCount();
    const QString dir = test::scratchDir("convert_corpus/" + QFileInfo(file).baseName());
    QStringList written;
    for (int64_t target : kTargets) {
      convert::ConvertOptions opts;
      opts.targetOpset = target;
      auto r = convert::convertModel(*source, opts);
      const QString where = QString("%1 -> opset %2").arg(file).arg(target);
      QCOMPARE(r.nodes.size(), sourceNodes);  // one status per source node, nothing dropped silently

      auto expected = kNotPossible.find({file, target});
      if (expected != kNotPossible.end()) {
        QVERIFY2(!r.complete(), qPrintable(where + " was expected to be impossible"));
        bool found = false;
        for (const auto& n : r.nodes)
          found |= n.status == convert::NodeStatus::Unsupported &&
                   QString::fromStdString(n.message).contains(expected->second);
        QVERIFY2(found, qPrintable(where + ": no unsupported node says '" + expected->second + "'"));
        QVERIFY(!r.model);
        continue;
      }

      QString problems;
      for (const auto& n : r.nodes)
        if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed)
          problems += QString("\n  %1 (%2): %3")
                          .arg(QString::fromStdString(n.nodeName), QString::fromStdString(n.opType),
                               QString::fromStdString(n.message));
      for (const auto& m : r.check.messages) problems += "\n  check: " + QString::fromStdString(m.message);
      QVERIFY2(r.complete(), qPrintable(where + problems + " " + QString::fromStdString(r.error)));
      QVERIFY(r.model);
      QCOMPARE(r.model->opsetVersion(""), target);
      QCOMPARE(r.model->irVersion, schema::irVersionForOpset(target));
      // Checked again independently of the pipeline's own check.
      auto check = checkModel(*r.model);
      QVERIFY2(check.ok,
               qPrintable(where + ": " +
                          (check.messages.empty() ? QString() : QString::fromStdString(check.messages[0].message))));
      QStringList absent;
      collectOpsAbsentAt(r.model->graph(), target, absent);
      QVERIFY2(absent.isEmpty(), qPrintable(where + ": ops missing at the target: " + absent.join(",")));
      // A model whose opset changes is really rewritten where its ops changed meaning (e.g. axes inputs).
      const int64_t from = source->opsetVersion("");
      bool mustRewrite = false;
      for (const auto& [op, count] : r.opsBefore) {
        if (from >= 13 && target < 13 && (op == "Unsqueeze" || op == "Squeeze" || op == "ReduceSum" || op == "Split"))
          mustRewrite = true;  // axes input -> attribute
        if (from >= 11 && target < 11 && (op == "Clip" || op == "Slice" || op == "DepthToSpace")) mustRewrite = true;
        if (from >= 17 && target < 17 && op == "LayerNormalization") mustRewrite = true;
      }
      if (mustRewrite) QVERIFY2(r.count(convert::NodeStatus::Converted) > 0, qPrintable(where + ": nothing converted"));

      const QString out = dir + QString("/to%1.onnx").arg(target);
      onnxfmt::writeOnnxFile(*r.model, out.toStdString());
      auto reread = loadModel(out.toStdString());
      QCOMPARE(reread->opsetVersion(""), target);
      written << out;
    }
    if (written.isEmpty()) return;
    auto run = test::runOracle(path, written, /*seed=*/static_cast<int>(qHash(file) % 1000) + 1);
    QVERIFY2(run.ran, qPrintable(run.diagnostics));
    QCOMPARE(run.report.value("results").toArray().size(), written.size());
    QVERIFY2(run.ok(), qPrintable(file + ": outputs differ from the source:" + run.failures()));
  }

  // The CLI converts the model it read in place (no copy of the graph); the handlers' shape facts then come from the
  // file read again, or from a copy taken before the first edit. Either way the result is the copy's, byte for
  // byte, with the same statuses; and some of these conversions do need the facts.
  void convertsInPlaceAsACopy() {
    int rereads = 0;
    for (const QString& file : test::corpusModels()) {
      const std::string path = test::corpusModel(file).toStdString();
      auto source = loadModel(path);
      for (int64_t target : {7, 11, 13, 17}) {
        const QString where = QString("%1 -> opset %2").arg(file).arg(target);
        auto copied = convert::convertModel(*source, {.targetOpset = target});
        convert::ConvertOptions rereading{.targetOpset = target};
        rereading.reloadSource = [&] {
          ++rereads;
          return loadModel(path);
        };
        for (bool reread : {true, false}) {
          auto r = convert::convertModel(loadModel(path),
                                         reread ? rereading : convert::ConvertOptions{.targetOpset = target});
          const QString how = where + (reread ? " (facts from the file)" : " (facts from a copy)");
          QCOMPARE(r.nodes.size(), copied.nodes.size());
          for (size_t i = 0; i < r.nodes.size(); ++i) {
            QVERIFY2(r.nodes[i].status == copied.nodes[i].status && r.nodes[i].message == copied.nodes[i].message,
                     qPrintable(how + ": " + QString::fromStdString(r.nodes[i].nodeName + ": " + r.nodes[i].message)));
          }
          QCOMPARE(r.complete(), copied.complete());
          QCOMPARE(bool(r.model), bool(copied.model));
          if (r.model)
            QVERIFY2(serialized(*r.model) == serialized(*copied.model), qPrintable(how + ": results differ"));
        }
      }
    }
    QVERIFY2(rereads > 0, "no corpus conversion asked for shape facts: the in-place paths went untested");
  }

  // Down to opset 7 (IR 3, attribute forms, Constant-1, the oldest target) and back up to 11 and 17 through
  // the up-adapters: still the source's outputs. Every corpus model converts to 7 today; one that stops
  // converting fails here rather than skipping the round trip.
  void roundTripThroughOpset7_data() { convertsToEveryTarget_data(); }

  void roundTripThroughOpset7() {
    QFETCH(QString, file);
    const QString path = test::corpusModel(file);
    auto source = loadModel(path.toStdString());
    const QString dir = test::scratchDir("convert_corpus_roundtrip/" + QFileInfo(file).baseName());
    auto down = convert::convertModel(*source, {.targetOpset = 7});
    QString downProblems;
    for (const auto& n : down.nodes)
      if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed)
        downProblems += "\n  " + QString::fromStdString(n.nodeName + ": " + n.message);
    QVERIFY2(down.complete(), qPrintable(file + " -> 7 incomplete" + downProblems));
    QCOMPARE(down.model->opsetVersion(""), int64_t{7});
    QVERIFY(down.model->irVersion <= 4);
    QStringList written{dir + "/to7.onnx"};
    onnxfmt::writeOnnxFile(*down.model, written[0].toStdString());
    auto reread = loadModel(written[0].toStdString());
    for (int64_t target : {11, 17}) {
      auto up = convert::convertModel(*reread, {.targetOpset = target});
      QString problems;
      for (const auto& n : up.nodes)
        if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed)
          problems += "\n  " + QString::fromStdString(n.nodeName + ": " + n.message);
      for (const auto& m : up.check.messages) problems += "\n  check: " + QString::fromStdString(m.message);
      QVERIFY2(up.complete(), qPrintable(QString("%1 -> 7 -> %2:%3").arg(file).arg(target).arg(problems)));
      QCOMPARE(up.model->opsetVersion(""), target);
      QCOMPARE(up.model->irVersion, schema::irVersionForOpset(target));
      written << dir + QString("/to7_to%1.onnx").arg(target);
      onnxfmt::writeOnnxFile(*up.model, written.last().toStdString());
    }
    // The source against the way down and both ways back up, on the same seeded inputs.
    auto run = test::runOracle(path, written, 11);
    QVERIFY2(run.ran, qPrintable(run.diagnostics));
    QCOMPARE(run.report.value("results").toArray().size(), written.size());
    QVERIFY2(run.ok(), qPrintable(file + ": outputs differ from the source:" + run.failures()));
  }
};

QTEST_GUILESS_MAIN(TestConvertCorpus)
#include "test_convert_corpus.moc"
