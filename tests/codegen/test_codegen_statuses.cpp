// Code generation gives its nodes their statuses by the conversions' rule (convert::StatusLoop): a handler that
// returns wrote the node's code (`converted`, its note or description as the message); no handler, or one that
// refuses, makes the node `unsupported` with the reason; a handler that throws anything else makes it `failed`. The
// same handler gives the same status and message in a conversion. Nodes left unconverted become
// `raise NotImplementedError(...)` lines with --continue-on-error, and later nodes still get their own verdicts.
#include <QtTest>

#include <new>
#include <stdexcept>

#include "codegen/code_generator.h"
#include "convert/converter.h"
#include "convert/handler_registry.h"

using namespace fb;
using ir::DataType;

namespace {

const convert::HandlerInfo kThrows{
    "test.codegen", "Throws", 1, "always throws",
    [](ir::Node&, convert::HandlerContext&) { throw std::runtime_error("kernel exploded"); }};
const convert::HandlerInfo kOutOfMemory{"test.codegen", "OutOfMemory", 1, "runs out of memory",
                                        [](ir::Node&, convert::HandlerContext&) { throw std::bad_alloc(); }};
const convert::HandlerInfo kRefuses{"test.codegen", "Refuses", 1, "refuses", [](ir::Node&, convert::HandlerContext&) {
                                      throw convert::Unsupported("cannot express this");
                                    }};

void registerTestHandlers(convert::HandlerRegistry& reg) {
  for (const auto* h : {&kThrows, &kOutOfMemory, &kRefuses}) reg.add(*h);
}

// x -> Relu -> Acosh -> test.codegen::{Throws, OutOfMemory, Refuses, Missing} -> NotAnOp -> Relu -> y, at opset 7.
std::unique_ptr<ir::Model> chainModel() {
  auto m = std::make_unique<ir::Model>();
  m->setOpsetVersion("", 7);
  m->setOpsetVersion("test.codegen", 1);
  m->irVersion = 7;
  ir::Graph& g = m->graph();
  g.name = "g";
  ir::Value* x = g.getOrCreateValue("x");
  x->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::of(2)});
  g.addInput(x);
  std::string last = "x";
  const std::vector<std::pair<std::string, std::string>> ops = {{"", "Relu"},
                                                                {"", "Acosh"},
                                                                {"test.codegen", "Throws"},
                                                                {"test.codegen", "OutOfMemory"},
                                                                {"test.codegen", "Refuses"},
                                                                {"test.codegen", "Missing"},
                                                                {"", "NotAnOp"},
                                                                {"", "Relu"}};
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string out = "v" + std::to_string(i);
    ir::Node* n = g.addNode(ops[i].second, {g.getOrCreateValue(last)}, {g.getOrCreateValue(out)}, ops[i].first);
    n->name = ops[i].second + "_" + std::to_string(i);
    last = out;
  }
  ir::Value* y = g.getOrCreateValue(last);
  y->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::of(2)});
  g.addOutput(y);
  return m;
}

const convert::NodeReport& reportFor(const convert::ConvertResult& r, const std::string& name) {
  for (const auto& n : r.nodes)
    if (n.nodeName == name) return n;
  throw std::runtime_error("no report for " + name);
}

}  // namespace

class CodegenStatuses : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    codegen::registerCodegenHandlers();
    registerTestHandlers(convert::HandlerRegistry::forDirection(codegen::kPythonDirection));
  }

  void statusesOfEveryKind() {
    auto model = chainModel();
    codegen::CodegenOptions opts;
    auto r = codegen::dryRunPython(*model, opts).conversion;
    QCOMPARE(r.nodes.size(), size_t{8});
    // Subgraph-free graph: one report per node, in graph order.
    size_t i = 0;
    for (const auto& n : model->graph().nodes()) QCOMPARE(r.nodes[i++].nodeId, n->id());
    // A handler that returns: converted, its note or else its description.
    const auto& relu = reportFor(r, "Relu_0");
    QCOMPARE(relu.status, convert::NodeStatus::Converted);
    QVERIFY(!relu.message.empty());
    QCOMPARE(reportFor(r, "Relu_7").status, convert::NodeStatus::Converted);  // after all the others
    // No handler at the model's opset, or none at all: unsupported, saying why.
    QCOMPARE(reportFor(r, "Acosh_1").status, convert::NodeStatus::Unsupported);
    QCOMPARE(reportFor(r, "Acosh_1").message, std::string("Acosh is handled from opset 9; the model imports 7"));
    QCOMPARE(reportFor(r, "Missing_5").status, convert::NodeStatus::Unsupported);
    QCOMPARE(reportFor(r, "Missing_5").message, std::string("custom domain 'test.codegen': no Python equivalent"));
    QCOMPARE(reportFor(r, "NotAnOp_6").status, convert::NodeStatus::Unsupported);
    QCOMPARE(reportFor(r, "NotAnOp_6").message, std::string("no pytorch code for NotAnOp yet"));
    // A handler that refuses: unsupported; one that throws: failed.
    QCOMPARE(reportFor(r, "Refuses_4").status, convert::NodeStatus::Unsupported);
    QCOMPARE(reportFor(r, "Refuses_4").message, std::string("cannot express this"));
    QCOMPARE(reportFor(r, "Throws_2").status, convert::NodeStatus::Failed);
    QCOMPARE(reportFor(r, "Throws_2").message, std::string("kernel exploded"));
    QCOMPARE(reportFor(r, "OutOfMemory_3").status, convert::NodeStatus::Failed);
    QCOMPARE(reportFor(r, "OutOfMemory_3").message, std::string("out of memory while generating this node's code"));
    QCOMPARE(r.count(convert::NodeStatus::Unsupported), size_t{4});
    QCOMPARE(r.count(convert::NodeStatus::Failed), size_t{2});
    QVERIFY(!r.complete());
  }

  void sameRuleAsTheConversions() {
    // The same handlers in a conversion direction: the same statuses and messages (but "converting this node").
    registerTestHandlers(convert::HandlerRegistry::forDirection("test_codegen_mirror"));
    auto model = chainModel();
    convert::ConvertOptions copts;
    copts.direction = "test_codegen_mirror";
    copts.targetOpset = 7;
    copts.lowestOpsets = false;
    auto converted = convert::dryRun(*model, copts);
    auto generated = codegen::dryRunPython(*model, {}).conversion;
    for (const char* name : {"Throws_2", "Refuses_4"}) {
      QCOMPARE(reportFor(converted, name).status, reportFor(generated, name).status);
      QCOMPARE(reportFor(converted, name).message, reportFor(generated, name).message);
    }
    QCOMPARE(reportFor(converted, "OutOfMemory_3").status, convert::NodeStatus::Failed);
    QCOMPARE(reportFor(converted, "OutOfMemory_3").message, std::string("out of memory while converting this node"));
    QCOMPARE(reportFor(converted, "Missing_5").status, convert::NodeStatus::Unsupported);
  }

  void unconvertedNodesRaise() {
    auto model = chainModel();
    codegen::CodegenOptions opts;
    QVERIFY(!codegen::generatePython(*model, opts).code);  // nothing is written with nodes left unconverted
    opts.keepUnconverted = true;
    auto r = codegen::generatePython(*model, opts);
    QVERIFY(r.code);
    const QString py = QString::fromStdString(r.code->modelPy);
    QCOMPARE(py.count("raise NotImplementedError("), 6);
    QVERIFY2(py.contains("test.codegen::Throws (Throws_2): kernel exploded"), qPrintable(py));
    QVERIFY2(py.contains("NotAnOp (NotAnOp_6): no pytorch code for NotAnOp yet"), qPrintable(py));
    // Every node has its lines, the unconverted ones their raise.
    for (const auto& n : model->graph().nodes()) QVERIFY2(r.code->nodeLines.count(n->id()), n->name.c_str());
  }
};

QTEST_GUILESS_MAIN(CodegenStatuses)
#include "test_codegen_statuses.moc"
