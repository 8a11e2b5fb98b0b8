// Retargeting inside scopes: If/Loop bodies judged with the shape facts of the outer values they read (and not
// with facts a Loop iteration can change), and
// model-local functions (ModelProto.functions) expanded into their bodies. The models come from PyTorch's
// exporter (torch.jit.script control flow, export_modules_as_functions) and from onnx.helper
// (tests/convert_scopes/make_models.py); every result runs in ONNX Runtime beside its source, on inputs that
// take each branch.
#include <QtTest>

#include <cmath>
#include <functional>
#include <map>

#include "check/onnx_check.h"
#include "convert/converter.h"
#include "schema/shape_facts.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "oracle/oracle_server.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "support/helpers.h"

using namespace fb;

namespace {

QString& modelDir() {
  static QString dir;
  return dir;
}

ir::Tensor floats(const std::string& name, std::vector<int64_t> dims, float scale) {
  int64_t n = 1;
  for (auto d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = scale * std::sin(0.7f * static_cast<float>(i) + 0.3f);
  return ir::Tensor::fromValues(name, ir::DataType::Float, dims, v);
}

// Values a body defines, found by name in any subgraph of `g`.
const ir::Value* findInBodies(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    for (const ir::Graph* sub : n->subgraphs()) {
      if (const ir::Value* v = sub->findValue(name); v && !v->isOuterScope()) return v;
      if (const ir::Value* v = findInBodies(*sub, name)) return v;
    }
  return nullptr;
}

QString problems(const convert::ConvertResult& r) {
  QString s;
  for (const auto& n : r.nodes)
    if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed)
      s += QString("\n  %1 (%2): %3")
               .arg(QString::fromStdString(n.nodeName), QString::fromStdString(n.opType),
                    QString::fromStdString(n.message));
  for (const auto& m : r.check.messages) s += "\n  check: " + QString::fromStdString(m.message);
  return s + QString::fromStdString(r.error);
}

// Empty when every output of `a` matches the same output of `b` (1e-4 + 1e-3 * |a|).
QString differences(const test::OracleAnswer& a, const test::OracleAnswer& b) {
  if (!a.ok || !b.ok) return "ORT failed: " + a.error + " / " + b.error;
  for (const auto& [name, ta] : a.outputs) {
    auto it = b.outputs.find(name);
    if (it == b.outputs.end()) return QString::fromStdString("output " + name + " missing");
    if (ta.dims != it->second.dims || ta.dtype != it->second.dtype)
      return QString::fromStdString(name + ": shape or type differs");
    auto x = ta.asDouble(), y = it->second.asDouble();
    for (size_t i = 0; i < x.size(); ++i)
      if (!(std::abs(x[i] - y[i]) <= 1e-4 + 1e-3 * std::abs(x[i])))
        return QString::fromStdString(name + ": element " + std::to_string(i) + " is " + std::to_string(y[i]) +
                                      " instead of " + std::to_string(x[i]));
  }
  return {};
}

}  // namespace

class TestConvertScopes : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY2(test::oracleInstalled(), "run tests/oracle/install.sh first");
    modelDir() = test::scratchDir("convert_scopes");
    QProcess p;
    p.start("/usr/bin/python3", {FB_SOURCE_DIR "/tests/convert_scopes/make_models.py", modelDir()});
    QVERIFY(p.waitForFinished(300000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
  }

  // The facts themselves: a branch's Shape -> Gather -> Div chain on an outer value computed in the main
  // graph (no declared shape) is known, and so is the static shape of the Slice it bounds.
  void bodiesSeeOuterShapeFacts_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("prefix");
    QTest::newRow("If then_branch") << "if_shape_chain_op13.onnx"
                                    << "a_";
    QTest::newRow("If else_branch") << "if_shape_chain_op13.onnx"
                                    << "b_";
    QTest::newRow("Loop body") << "loop_shape_chain_op13.onnx"
                               << "l_";
  }

  void bodiesSeeOuterShapeFacts() {
    QFETCH(QString, file);
    QFETCH(QString, prefix);
    auto m = loadModel((modelDir() + "/" + file).toStdString());
    const auto facts = schema::inferShapeFacts(*m);
    const std::string p = prefix.toStdString();
    const ir::Value* half = findInBodies(m->graph(), p + "half1");
    const ir::Value* axis = findInBodies(m->graph(), p + "axis_last");
    const ir::Value* sliced = findInBodies(m->graph(), p + "s");
    QVERIFY(half && axis && sliced);
    const auto* halfValue = facts.valuesOf(half, m->graph());
    QVERIFY2(halfValue, "the half of the outer value's dim 1 is not known inside the body");
    QCOMPARE(*halfValue, std::vector<int64_t>{3});
    const auto* axisValue = facts.valuesOf(axis, m->graph());
    QVERIFY(axisValue);
    QCOMPARE(*axisValue, std::vector<int64_t>{2});
    const ir::TypeInfo* t = facts.typeOf(sliced, m->graph());
    QVERIFY2(t && t->staticDims(), "the Slice in the body has no static shape");
    QCOMPARE(*t->staticDims(), (std::vector<int64_t>{2, 3, 4}));
    // The outer value a body reads resolves to the main graph's facts.
    const ir::Value* outerT = half->graph()->findValue("t");
    QVERIFY(outerT && outerT->isOuterScope());
    QVERIFY(facts.typeOf(outerT, m->graph()) && facts.typeOf(outerT, m->graph())->staticDims());
  }

  // Bodies whose Slice/Unsqueeze/ReduceSum bounds and axes come from outer values convert down to opset 7
  // (each needs them as attributes there) and compute what the source computes, on both branches.
  void bodiesConvertDown_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("torch.jit.script if/else") << "if_script_op13.onnx";
    QTest::newRow("If with shape chains") << "if_shape_chain_op13.onnx";
    QTest::newRow("Loop with a shape chain") << "loop_shape_chain_op13.onnx";
  }

  void bodiesConvertDown() {
    QFETCH(QString, file);
    const QString src = modelDir() + "/" + file;
    auto source = loadModel(src.toStdString());
    const std::vector<int64_t> xDims =
        file.startsWith("if_script") ? std::vector<int64_t>{2, 6, 4} : std::vector<int64_t>{6, 2, 4};
    test::OracleServer oracle;
    QVERIFY(oracle.started());
    for (int64_t target : {7, 9, 11}) {
      convert::ConvertOptions opts;
      opts.targetOpset = target;
      auto r = convert::convertModel(*source, opts);
      const QString where = QString("%1 -> %2").arg(file).arg(target);
      QVERIFY2(r.complete(), qPrintable(where + problems(r)));
      // The body nodes that needed facts were converted, not passed through.
      size_t bodyConverted = 0;
      for (const auto& n : r.nodes)
        if ((n.opType == "Unsqueeze" || n.opType == "ReduceSum" || n.opType == "Slice") &&
            n.status == convert::NodeStatus::Converted)
          ++bodyConverted;
      QVERIFY2(bodyConverted >= 2, qPrintable(where));
      const QString out = modelDir() + "/" + QFileInfo(file).baseName() + QString("_to%1.onnx").arg(target);
      onnxfmt::writeOnnxFile(*r.model, out.toStdString());
      for (float flag : {1.f, -1.f}) {
        std::vector<ir::Tensor> inputs{floats("x", xDims, 1.f), ir::Tensor::fromValues("flag", ir::DataType::Float, {1},
                                                                                       std::vector<float>{flag})};
        auto a = oracle.run(src, inputs);
        auto b = oracle.run(out, inputs);
        QString why = differences(a, b);
        QVERIFY2(why.isEmpty(), qPrintable(where + QString(" (flag %1): ").arg(flag) + why));
      }
    }
  }

  // The optimizer passes fold a body's shape arithmetic on an outer value (its type is the outer value's, the same
  // in every iteration and branch) and on a value an If branch makes (a branch runs once), and leave the shape of a
  // Loop-carried value alone (it changes per iteration). The results compute what the sources compute, in ONNX
  // Runtime, on both branches.
  void passesFoldShapeChainsInBodies_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("folds");
    QTest::addColumn<QStringList>("kept");  // ops the bodies must still hold
    QTest::newRow("If with shape chains") << "if_shape_chain_op13.onnx" << true << QStringList{"Slice", "Unsqueeze"};
    QTest::newRow("Loop with a shape chain")
        << "loop_shape_chain_op13.onnx" << true << QStringList{"Slice", "Unsqueeze"};
    QTest::newRow("If branches reshaping their own values")
        << "if_branch_values_op13.onnx" << true << QStringList{"Reshape"};
    QTest::newRow("Loop whose carried value grows") << "loop_grows_op13.onnx" << false << QStringList{"Shape"};
  }

  void passesFoldShapeChainsInBodies() {
    QFETCH(QString, file);
    QFETCH(bool, folds);
    QFETCH(QStringList, kept);
    const QString src = modelDir() + "/" + file;
    auto m = loadModel(src.toStdString());
    passes::PassManager pm(passes::PassRegistry::instance().defaultPipeline());
    QVERIFY(pm.run(*m).reachedFixpoint);
    std::map<std::string, size_t> bodyOps;
    std::function<void(const ir::Graph&)> count = [&](const ir::Graph& g) {
      for (const auto& n : g.nodes())
        for (const ir::Graph* body : n->subgraphs()) {
          for (const auto& b : body->nodes()) ++bodyOps[b->opType];
          count(*body);
        }
    };
    count(m->graph());
    if (folds)
      for (const char* op : {"Shape", "Gather", "Div", "Sub", "Concat"})
        QVERIFY2(!bodyOps.count(op), qPrintable(file + ": a body still computes " + op));
    for (const auto& op : kept) QVERIFY2(bodyOps.count(op.toStdString()), qPrintable(file + ": no " + op + " left"));
    const QString out = modelDir() + "/" + QFileInfo(file).baseName() + "_passes.onnx";
    onnxfmt::writeOnnxFile(*m, out.toStdString());
    test::OracleServer oracle;
    QVERIFY(oracle.started());
    for (float flag : {1.f, -1.f}) {
      std::vector<ir::Tensor> inputs{
          floats("x", {6, 2, 4}, 1.f),
          ir::Tensor::fromValues("flag", ir::DataType::Float, {1}, std::vector<float>{flag})};
      QString why = differences(oracle.run(src, inputs), oracle.run(out, inputs));
      QVERIFY2(why.isEmpty(), qPrintable(file + QString(" (flag %1): ").arg(flag) + why));
    }
  }

  // A Loop-carried value that grows each iteration has no static shape inside the body, whatever its
  // initial value's shape: the Slice bounded by its row count stays refused below opset 10 (a constant bound
  // would change the result from the second iteration on), and converts at 11 to what the source computes.
  void carriedShapesAreNoFacts() {
    const QString src = modelDir() + "/loop_grows_op13.onnx";
    auto source = loadModel(src.toStdString());
    const auto facts = schema::inferShapeFacts(*source);
    const ir::Value* rows = findInBodies(source->graph(), "g_rows");
    QVERIFY(rows);
    QVERIFY2(!facts.valuesOf(rows, source->graph()), "a loop-carried value's row count became a fact");
    const ir::Value* carried = findInBodies(source->graph(), "acc_in");
    QVERIFY(carried);
    const ir::TypeInfo* t = facts.typeOf(carried, source->graph());
    QVERIFY2(!t || !t->staticDims(), "a loop-carried value got a static shape inside the body");

    convert::ConvertOptions to9;
    to9.targetOpset = 9;
    auto refused = convert::convertModel(*source, to9);
    QVERIFY(!refused.complete());
    bool sliceRefused = false;
    for (const auto& n : refused.nodes)
      sliceRefused |= n.opType == "Slice" && n.status == convert::NodeStatus::Unsupported && n.lowestOpset == 10;
    QVERIFY2(sliceRefused, qPrintable(problems(refused)));

    convert::ConvertOptions to11;
    to11.targetOpset = 11;
    auto r = convert::convertModel(*source, to11);
    QVERIFY2(r.complete(), qPrintable(problems(r)));
    const QString out = modelDir() + "/loop_grows_to11.onnx";
    onnxfmt::writeOnnxFile(*r.model, out.toStdString());
    test::OracleServer oracle;
    QVERIFY(oracle.started());
    std::vector<ir::Tensor> inputs{floats("x", {6, 2, 4}, 1.f),
                                   ir::Tensor::fromValues("flag", ir::DataType::Float, {1}, std::vector<float>{2.f})};
    QString why = differences(oracle.run(src, inputs), oracle.run(out, inputs));
    QVERIFY2(why.isEmpty(), qPrintable(why));
  }

  // PyTorch's export_modules_as_functions: two calls of a local function written at opset 15. Retargeted,
  // each call becomes its body's nodes (named after the call, origins tracing back to it), converted to
  // the target; no function, and no import of its domain, is left in the result.
  void localFunctionsExpand() {
    const QString src = modelDir() + "/local_functions_op15.onnx";
    auto source = loadModel(src.toStdString());
    QCOMPARE(source->functions.size(), size_t{1});
    std::vector<uint64_t> callIds;
    std::vector<std::string> callNames;
    for (const auto& n : source->graph().nodes())
      if (n->opType == "Block") {
        callIds.push_back(n->id());
        callNames.push_back(n->name);
      }
    QCOMPARE(callIds.size(), size_t{2});
    test::OracleServer oracle;
    QVERIFY(oracle.started());
    const std::vector<ir::Tensor> inputs{floats("x", {2, 8}, 2.f)};
    auto reference = oracle.run(src, inputs);
    QVERIFY2(reference.ok, qPrintable(reference.error));
    for (int64_t target : {7, 9, 13, 17}) {
      const QString where = QString("local functions -> %1").arg(target);
      // Without passes, so that every node is still one the expansion made.
      convert::ConvertOptions raw;
      raw.targetOpset = target;
      raw.passes = std::vector<std::string>{};
      auto dry = convert::dryRun(*source, raw);
      auto r = convert::convertModel(*source, raw);
      QVERIFY2(r.complete(), qPrintable(where + problems(r)));
      for (const auto* result : {&dry, &r})
        for (const auto& n : result->nodes)
          if (n.opType == "Block") {
            QCOMPARE(n.status, convert::NodeStatus::Converted);
            QVERIFY2(n.message.rfind("expanded function body", 0) == 0, n.message.c_str());
          }
      QVERIFY(r.model->functions.empty());
      QCOMPARE(r.model->opsetVersion("__main__"), int64_t{0});
      QCOMPARE(r.model->irVersion, schema::irVersionForOpset(target));
      size_t fromCalls = 0;
      for (const auto& n : r.model->graph().nodes()) {
        QVERIFY2(n->isDefaultDomain(), n->qualifiedOp().c_str());
        for (size_t k = 0; k < callIds.size(); ++k)
          if (std::find(n->origins.begin(), n->origins.end(), callIds[k]) != n->origins.end()) {
            ++fromCalls;
            QVERIFY2(n->name.rfind(callNames[k], 0) == 0, n->name.c_str());
          }
      }
      QVERIFY2(fromCalls >= 2 * 10,
               qPrintable(where + ": " + QString::number(fromCalls) + " nodes trace back to the calls"));
      auto check = checkModel(*r.model);
      QVERIFY2(check.ok, qPrintable(where + ": " +
                                    QString::fromStdString(check.messages.empty() ? "" : check.messages[0].message)));

      // The way the CLI converts (default passes), run beside the source.
      convert::ConvertOptions opts;
      opts.targetOpset = target;
      auto full = convert::convertModel(*source, opts);
      QVERIFY2(full.complete(), qPrintable(where + problems(full)));
      const QString out = modelDir() + QString("/local_functions_to%1.onnx").arg(target);
      onnxfmt::writeOnnxFile(*full.model, out.toStdString());
      QString why = differences(reference, oracle.run(out, inputs));
      QVERIFY2(why.isEmpty(), qPrintable(where + ": " + why));
    }
  }
};

QTEST_GUILESS_MAIN(TestConvertScopes)
#include "test_convert_scopes.moc"
