// Every OneFlow handler on its single-op fixture(s), at opsets 9, 10, 11, 13 and 17: below the fixture's lowest
// opset the node is `unsupported` with "needs opset N"; at and above it the result passes the checker and strict
// shape inference and ONNX Runtime matches PyTorch/numpy (1e-4 + 1e-3 |ref|). Error fixtures fail with their
// reason, a node stripped of its inputs fails cleanly, and the registry covers oneflow-onnx's whole op table.
#include <QtTest>

#include "convert/converter.h"
#include "convert/handler_registry.h"
#include "convert/builtin_handlers.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "oneflow_fixture.h"
#include "support/helpers.h"

using namespace fb;
namespace of = fb::test::oneflow;

namespace {
convert::ConvertResult convertAt(const ir::Model& m, int opset) {
  convert::ConvertOptions opts;
  opts.direction = "oneflow";
  opts.targetOpset = opset;
  return convert::convertModel(m, opts);
}

// The report of the fixture's one user op (output markers are converted too).
const convert::NodeReport* opReport(const convert::ConvertResult& r, const QString& opType) {
  for (const auto& n : r.nodes)
    if (QString::fromStdString(n.opType) == opType) return &n;
  return nullptr;
}
}  // namespace

class OneflowOps : public QObject {
  Q_OBJECT
 private slots:
  void registryCoversOneflowOnnx();
  void everyHandlerHasAFixture();
  void convertAndRun();
  void errorFixtures();
  void missingInputsFail();
  void unusedAttributeIsAWarning();
};

void OneflowOps::registryCoversOneflowOnnx() {
  convert::registerBuiltinHandlers();
  const auto& reg = convert::HandlerRegistry::forDirection("oneflow");
  QFile csv(QStringLiteral(FB_CORPUS_DIR) + "/../docs/oneflow2onnx-handlers.csv");
  QVERIFY2(csv.open(QIODevice::ReadOnly), "oneflow2onnx-handlers.csv");
  int names = 0;
  csv.readLine();  // header
  while (!csv.atEnd()) {
    const QString first = QString::fromUtf8(csv.readLine()).split(',').first();
    for (const QString& name : first.split('|')) {
      // input and variable ops are not nodes: the reader makes them graph inputs and initializers.
      if (name.isEmpty() || name == "input" || name == "variable") continue;
      ++names;
      QVERIFY2(reg.lowestVersion("oneflow", name.toStdString()).has_value(), qPrintable(name));
    }
  }
  QCOMPARE(names, 128);  // 130 names in the table, less input and variable
  for (const char* extra : {"cat", "tf_max_pool_2d", "tf_avg_pool_2d", "fused_matmul_bias"})
    QVERIFY2(reg.lowestVersion("oneflow", extra).has_value(), extra);
}

void OneflowOps::everyHandlerHasAFixture() {
  QSet<QString> covered;
  for (const auto& name : of::fixturesOfKind("op")) {
    const auto info = of::fixtureInfo(name);
    covered.insert(info.value("op_type").toString());
    for (const auto& t : info.value("op_types").toArray()) covered.insert(t.toString());
  }
  for (const auto* h : convert::HandlerRegistry::forDirection("oneflow").all()) {
    const QString op = QString::fromStdString(h->opType);
    // output ends every fixture; return ends the lazy-era ones (small_net_blob_v03, test_convert_oneflow_models).
    if (op == "output" || op == "return") continue;
    QVERIFY2(covered.contains(op), qPrintable("no single-op fixture for " + op));
  }
}

void OneflowOps::convertAndRun() {
  const QString dir = test::scratchDir("oneflow_ops");
  QList<QPair<QString, QString>> pairs;
  QStringList failures;
  int converted = 0, belowMin = 0;
  for (const auto& name : of::fixturesOfKind("op")) {
    const auto info = of::fixtureInfo(name);
    if (info.contains("error")) continue;
    const QString opType = info.value("op_type").toString();
    const int minOpset = info.value("min_opset").toInt();
    std::unique_ptr<ir::Model> model;
    try {
      model = loadModel(of::fixture(name).toStdString());
    } catch (const std::exception& e) {
      failures << name + ": " + e.what();
      continue;
    }
    for (int opset : {9, 10, 11, 13, 17}) {
      const QString row = QString("%1@%2").arg(name).arg(opset);
      auto r = convertAt(*model, opset);
      const auto* rep = opReport(r, opType);
      if (!rep) {
        failures << row + ": no report for the op";
        continue;
      }
      if (opset < minOpset) {
        ++belowMin;
        if (rep->status != convert::NodeStatus::Unsupported || rep->message.find("needs opset") == std::string::npos)
          failures << row + ": expected unsupported (needs opset), got " +
                          QString::fromStdString(std::string(statusName(rep->status)) + " " + rep->message);
        continue;
      }
      if (!r.complete() || !r.model) {
        QString why = QString::fromStdString(rep->message + " " + r.error);
        for (const auto& m : r.check.messages) why += QString::fromStdString(" | " + m.node + ": " + m.message);
        failures << row + ": " + QString::fromStdString(std::string(statusName(rep->status))) + " " + why;
        continue;
      }
      if (!rep->warnings.empty())
        failures << row + ": unexpected warning " + QString::fromStdString(rep->warnings.front());
      const QString out = dir + "/" + name + "_" + QString::number(opset) + ".onnx";
      try {
        r.model->sourcePath = model->sourcePath;
        onnxfmt::writeOnnxFile(*r.model, out.toStdString());
      } catch (const std::exception& e) {
        failures << row + ": write: " + e.what();
        continue;
      }
      pairs.append({out, of::fixture(name)});
      ++converted;
    }
  }
  auto verdicts = of::runOrtBatch(pairs, dir + "/batch.txt");
  for (const auto& [model, fixture] : pairs) {
    const auto v = verdicts.value(model);
    if (!v.ran)
      failures << model + ": ONNX Runtime gave no verdict";
    else if (!v.ok)
      failures << v.detail;
  }
  qInfo("%d conversions compared with ONNX Runtime, %d below the lowest opset", converted, belowMin);
  QVERIFY(converted > 400);
  QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
}

void OneflowOps::errorFixtures() {
  int seen = 0;
  for (const auto& name : of::fixturesOfKind("op")) {
    const auto info = of::fixtureInfo(name);
    if (!info.contains("error")) continue;
    ++seen;
    try {
      auto model = loadModel(of::fixture(name).toStdString());
      auto r = convertAt(*model, 17);
      const auto* rep = opReport(r, info.value("op_type").toString());
      QVERIFY2(rep, qPrintable(name));
      QCOMPARE(std::string(statusName(rep->status)), std::string("failed"));
      QVERIFY2(QString::fromStdString(rep->message).contains(info.value("error").toString()), rep->message.c_str());
      QVERIFY(!r.complete());
      QVERIFY(!r.model);  // nothing to write
    } catch (const std::exception& e) {
      QFAIL(qPrintable(name + ": " + e.what()));
    }
  }
  QVERIFY(seen >= 2);
}

// A node whose inputs are gone (a damaged graph) must fail with a message, for every handler, never crash.
void OneflowOps::missingInputsFail() {
  int tried = 0;
  for (const auto& name : of::fixturesOfKind("op")) {
    const auto info = of::fixtureInfo(name);
    const QString opType = info.value("op_type").toString();
    auto model = loadModel(of::fixture(name).toStdString());
    ir::Node* node = nullptr;
    for (const auto& n : model->graph().nodes())
      if (QString::fromStdString(n->opType) == opType) node = n.get();
    if (!node || node->inputs().empty()) continue;
    node->clearInputs();
    // Keep the arg-name list consistent with the (now empty) inputs, as a reader of a damaged job would.
    node->removeAttr("_input_args");
    ++tried;
    auto r = convertAt(*model, 17);
    const auto* rep = opReport(r, opType);
    QVERIFY2(rep, qPrintable(name));
    QVERIFY2(rep->status == convert::NodeStatus::Failed,
             qPrintable(name + ": " + QString::fromStdString(std::string(statusName(rep->status)))));
    QVERIFY2(!rep->message.empty(), qPrintable(name));
  }
  QVERIFY(tried > 100);
}

// An attribute a handler does not read is reported on the node, not dropped silently.
void OneflowOps::unusedAttributeIsAWarning() {
  auto model = loadModel(of::fixture("op_leaky_relu").toStdString());
  for (const auto& n : model->graph().nodes())
    if (n->opType == "leaky_relu") n->setAttr(ir::Attribute::makeString("data_format", "channels_first"));
  auto r = convertAt(*model, 13);
  QVERIFY(r.complete());
  const auto* rep = opReport(r, "leaky_relu");
  QVERIFY(rep);
  QCOMPARE(rep->warnings.size(), size_t(1));
  QVERIFY2(rep->warnings[0].find("'data_format'") != std::string::npos, rep->warnings[0].c_str());
}

QTEST_GUILESS_MAIN(OneflowOps)
#include "test_convert_oneflow_ops.moc"
