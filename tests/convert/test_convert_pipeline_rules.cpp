// The rules the conversion pipeline keeps in one place, each used by the CLI and the app alike: the default target
// opset (convert::defaultTargetOpset), the pass list (convert::parsePassList), the per-node status rule
// (convert::StatusLoop: a handler that throws -> failed, no handler or Unsupported -> unsupported), the direction
// rules the pipeline asks instead of testing which direction it runs (convert::Direction), and the terminal lines
// for what a conversion left undone (convert::problemLines, unconvertedNodeLines).
#include <QtTest>

#include <new>
#include <stdexcept>

#include "check/onnx_check.h"
#include "convert/builtin_handlers.h"
#include "convert/convert_report.h"
#include "convert/converter.h"
#include "convert/direction.h"
#include "convert/handler_registry.h"
#include "convert/status_loop.h"
#include "formats/model_io.h"
#include "oneflow_fixture.h"
#include "passes/pass_registry.h"
#include "support/helpers.h"

using namespace fb;
using ir::DataType;
namespace of = fb::test::oneflow;

namespace {

// x -> <op>(domain) -> ... -> last value, one float tensor of 2 elements throughout.
struct Chain {
  std::unique_ptr<ir::Model> model = std::make_unique<ir::Model>();
  std::string last = "x";

  explicit Chain(int64_t opset, const std::string& domain = {}, int64_t domainVersion = 1) {
    model->setOpsetVersion("", opset);
    if (!domain.empty()) model->setOpsetVersion(domain, domainVersion);
    model->irVersion = 7;
    model->graph().name = "g";
    ir::Value* x = model->graph().getOrCreateValue("x");
    x->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::of(2)});
    model->graph().addInput(x);
  }
  ir::Node* add(const std::string& op, const std::string& name, const std::string& domain = {}) {
    ir::Graph& g = model->graph();
    const std::string out = name + "_out";
    ir::Node* n = g.addNode(op, {g.getOrCreateValue(last)}, {g.getOrCreateValue(out)}, domain);
    n->name = name;
    last = out;
    return n;
  }
  ir::Model& done() {
    ir::Value* y = model->graph().getOrCreateValue(last);
    y->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::of(2)});
    model->graph().addOutput(y);
    return *model;
  }
};

const convert::NodeReport* reportFor(const convert::ConvertResult& r, const std::string& name) {
  for (const auto& n : r.nodes)
    if (n.nodeName == name) return &n;
  return nullptr;
}

// A handler for the status tests: what it does is in its name.
void registerStatusHandlers(convert::HandlerRegistry& reg) {
  reg.add({"test.rules", "Throws", 1, "always throws",
           [](ir::Node&, convert::HandlerContext&) { throw std::runtime_error("kernel exploded"); }});
  reg.add({"test.rules", "OutOfMemory", 1, "runs out of memory",
           [](ir::Node&, convert::HandlerContext&) { throw std::bad_alloc(); }});
  reg.add({"test.rules", "Refuses", 1, "refuses",
           [](ir::Node&, convert::HandlerContext&) { throw convert::Unsupported("cannot express this"); }});
  reg.add({"test.rules", "Later", 15, "only from opset 15", [](ir::Node&, convert::HandlerContext&) {}});
  reg.add({"test.rules", "BecomesRelu", 1, "becomes Relu", [](ir::Node& n, convert::HandlerContext& ctx) {
             ctx.note = "now a Relu";
             ctx.warnings.push_back("approximated");
             if (!ctx.commit()) return;
             n.opType = "Relu";
             n.domain.clear();
           }});
}

// A direction with rules of its own: nodes named keep_* stay as they are, every node gets a warning first.
class KeepingDirection : public convert::Direction {
 public:
  using Direction::Direction;
  std::optional<std::string> keepAsIs(const ir::Model&, const ir::Node& n) const override {
    if (n.name.rfind("keep_", 0) == 0) return "kept by the test direction";
    return std::nullopt;
  }
  std::vector<std::string> sourceWarnings(const ir::Node& n, int64_t) const override { return {"seen " + n.name}; }
};

}  // namespace

class PipelineRules : public QObject {
  Q_OBJECT
 private slots:
  void defaultTargetOpsetOfCorpusModels_data();
  void defaultTargetOpsetOfCorpusModels();
  void defaultTargetOpsetOutsideTheRange();
  void defaultTargetOpsetOfOneflowGraph();
  void directionsKnowTheirRange();
  void passListWords();
  void passListErrors();
  void statusLoopRule();
  void statusLoopKeepsOrderAndKept();
  void converterStatuses();
  void directionRulesReachThePipeline();
  void problemLinesForTerminals();
};

void PipelineRules::defaultTargetOpsetOfCorpusModels_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<int>("expected");
  QTest::newRow("op11") << "mobilenet_v2_op11.onnx" << 11;
  QTest::newRow("op13") << "mobilenet_v3_small_op13.onnx" << 13;
  QTest::newRow("op17") << "transformer_encoder_op17.onnx" << 17;
}

void PipelineRules::defaultTargetOpsetOfCorpusModels() {
  QFETCH(QString, file);
  QFETCH(int, expected);
  auto model = loadModel(test::corpusModel(file).toStdString());
  QCOMPARE(model->opsetVersion(""), int64_t(expected));
  QCOMPARE(convert::directionFor(*model), std::string("onnx"));
  QCOMPARE(convert::defaultTargetOpset(*model), int64_t(expected));
}

void PipelineRules::defaultTargetOpsetOutsideTheRange() {
  // An ONNX model keeps its own opset as far as FlowBridge writes it: older ones go to the lowest, newer to the newest.
  QCOMPARE(convert::defaultTargetOpset(Chain(5).done()), convert::kMinOpset);
  QCOMPARE(convert::defaultTargetOpset(Chain(7).done()), int64_t{7});
  QCOMPARE(convert::defaultTargetOpset(Chain(21).done()), int64_t{21});
  QCOMPARE(convert::defaultTargetOpset(Chain(26).done()), int64_t{26});
  QCOMPARE(convert::defaultTargetOpset(Chain(30).done()), convert::kMaxOpset);
}

void PipelineRules::defaultTargetOpsetOfOneflowGraph() {
  auto model = loadModel(of::fixture("op_relu").toStdString());
  QCOMPARE(convert::directionFor(*model), std::string("oneflow"));
  QCOMPARE(convert::defaultTargetOpset(*model), convert::kMaxDialectOpset);
  // Whatever default-domain opset the graph states: OneFlow graphs are written at the newest opset libonnx checks.
  model->setOpsetVersion("", 9);
  QCOMPARE(convert::defaultTargetOpset(*model), convert::kMaxDialectOpset);
  // ... which the conversion accepts.
  convert::ConvertOptions opts;
  opts.direction = convert::directionFor(*model);
  opts.targetOpset = convert::defaultTargetOpset(*model);
  QVERIFY(convert::dryRun(*model, opts).count(convert::NodeStatus::Failed) == 0);
}

void PipelineRules::directionsKnowTheirRange() {
  convert::registerBuiltinHandlers();
  QCOMPARE(convert::directionNamed("onnx").maxTargetOpset(), convert::kMaxOpset);
  QCOMPARE(convert::directionNamed("oneflow").maxTargetOpset(), convert::kMaxDialectOpset);
  QCOMPARE(&convert::directionNamed("oneflow").handlers(), &convert::HandlerRegistry::forDirection("oneflow"));
  // A conversion beyond its direction's range is refused before any work, naming the range.
  convert::ConvertOptions opts;
  opts.direction = "oneflow";
  opts.targetOpset = 18;
  try {
    convert::dryRun(Chain(17, "oneflow").done(), opts);
    QFAIL("target 18 accepted for a OneFlow graph");
  } catch (const std::invalid_argument& e) {
    QVERIFY2(std::string(e.what()).find("7..17") != std::string::npos, e.what());
  }
}

void PipelineRules::passListWords() {
  passes::registerBuiltinPasses();
  const auto& pipeline = passes::PassRegistry::instance().defaultPipeline();
  QVERIFY(pipeline.size() >= 2);
  QVERIFY(!convert::parsePassList("default").has_value());
  QCOMPARE(convert::parsePassList("none"), std::optional(std::vector<std::string>{}));
  QCOMPARE(convert::parsePassList(""), std::optional(std::vector<std::string>{}));
  // In the order given, not the registry's; empty names between commas do not count.
  const std::string a = pipeline[1], b = pipeline[0];
  QCOMPARE(convert::parsePassList(a + "," + b), std::optional(std::vector<std::string>{a, b}));
  QCOMPARE(convert::parsePassList("," + a + ",," + b + ","), std::optional(std::vector<std::string>{a, b}));
  QCOMPARE(convert::parsePassList(a), std::optional(std::vector<std::string>{a}));
  // What it returns is what the conversion takes.
  convert::ConvertOptions opts;
  opts.targetOpset = 13;
  opts.passes = convert::parsePassList(a);
  Chain c(13);
  c.add("Relu", "r");
  auto r = convert::convertModel(c.done(), opts);
  QVERIFY(r.passesRan);
  QCOMPARE(r.passStats.perPass.size(), size_t{1});
  QCOMPARE(r.passStats.perPass[0].name, a);
}

void PipelineRules::passListErrors() {
  auto refused = [](const std::string& spec, const std::string& named) {
    try {
      convert::parsePassList(spec);
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      return what.find("unknown pass '" + named + "'") != std::string::npos;
    }
    return false;
  };
  QVERIFY(refused("no_such_pass", "no_such_pass"));
  QVERIFY(refused("eliminate_identity,no_such_pass", "no_such_pass"));
  // The words stand alone: inside a list they are names, and no pass has them.
  QVERIFY(refused("default,eliminate_identity", "default"));
  QVERIFY(refused("eliminate_identity,none", "none"));
  QVERIFY(refused("Eliminate_Identity", "Eliminate_Identity"));  // names are exact
  QVERIFY(refused(" eliminate_identity", " eliminate_identity"));
}

void PipelineRules::statusLoopRule() {
  Chain c(13);
  ir::Node* n = c.add("Relu", "r");
  ir::Model& m = c.done();
  for (bool codegen : {false, true}) {
    std::vector<convert::NodeReport> reports;
    convert::StatusLoop::Rules rules;
    rules.returnMeansConverted = codegen;
    rules.failing = codegen ? "generating this node's code" : "converting this node";
    convert::StatusLoop loop(reports, rules);
    auto decide = [&](const std::function<void(convert::HandlerContext&)>& handler) {
      const size_t slot = loop.open(*n);
      convert::HandlerContext ctx(m, m.graph());
      ctx.dryRun = true;
      loop.decide(slot, ctx, [&] { handler(ctx); });
      return reports[slot];
    };
    // Returning without a change: unchanged in a conversion, converted in code generation (it wrote the code).
    auto r = decide([](convert::HandlerContext& ctx) { ctx.note = "looked"; });
    QCOMPARE(r.status, codegen ? convert::NodeStatus::Converted : convert::NodeStatus::Unchanged);
    QCOMPARE(r.message, std::string("looked"));
    QCOMPARE(r.nodeName, std::string("r"));
    QCOMPARE(r.opType, std::string("Relu"));
    // A change (dry run: the handler asked to commit), with its warnings and the new nodes' ids.
    r = decide([](convert::HandlerContext& ctx) {
      ctx.warnings.push_back("w");
      ctx.newNodes.push_back(42);
      ctx.attributesOnly = true;
      ctx.commit();
    });
    QCOMPARE(r.status, convert::NodeStatus::Converted);
    QCOMPARE(r.warnings, std::vector<std::string>{"w"});
    QCOMPARE(r.newNodes, std::vector<uint64_t>{42});
    QVERIFY(r.attributesOnly);
    // No handler (the caller's lookup throws Unsupported) or a handler that refuses: unsupported, with the reason.
    r = decide([](convert::HandlerContext&) { throw convert::Unsupported("no handler for Relu"); });
    QCOMPARE(r.status, convert::NodeStatus::Unsupported);
    QCOMPARE(r.message, std::string("no handler for Relu"));
    // A handler that throws anything else: failed, with the exception's text; running out of memory in words.
    r = decide([](convert::HandlerContext& ctx) {
      ctx.warnings.push_back("not kept");
      throw std::runtime_error("kernel exploded");
    });
    QCOMPARE(r.status, convert::NodeStatus::Failed);
    QCOMPARE(r.message, std::string("kernel exploded"));
    QVERIFY(r.warnings.empty());
    r = decide([](convert::HandlerContext&) { throw std::bad_alloc(); });
    QCOMPARE(r.status, convert::NodeStatus::Failed);
    QCOMPARE(r.message, "out of memory while " + rules.failing);
  }
}

void PipelineRules::statusLoopKeepsOrderAndKept() {
  Chain c(13);
  ir::Node* a = c.add("Relu", "a");
  ir::Node* b = c.add("Relu", "b");
  ir::Model& m = c.done();
  std::vector<convert::NodeReport> reports;
  convert::StatusLoop loop(reports, {});
  const size_t first = loop.open(*a);
  const size_t second = loop.open(*b);  // e.g. a node of a's subgraph: its report comes after a's
  loop.keep(second, "as it is");
  convert::HandlerContext ctx(m, m.graph());
  loop.decide(first, ctx, [] {});
  QCOMPARE(reports.size(), size_t{2});
  QCOMPARE(reports[0].nodeName, std::string("a"));
  QCOMPARE(reports[0].status, convert::NodeStatus::Unchanged);
  QCOMPARE(reports[1].nodeName, std::string("b"));
  QCOMPARE(reports[1].status, convert::NodeStatus::Kept);
  QCOMPARE(reports[1].message, std::string("as it is"));
}

void PipelineRules::converterStatuses() {
  registerStatusHandlers(convert::HandlerRegistry::forDirection("test_rules"));
  Chain c(13, "test.rules");
  for (const char* op : {"BecomesRelu", "Throws", "OutOfMemory", "Refuses", "Later", "Missing"})
    c.add(op, op, "test.rules");
  ir::Model& m = c.done();
  convert::ConvertOptions opts;
  opts.direction = "test_rules";
  opts.targetOpset = 13;
  for (bool dry : {true, false}) {
    auto r = dry ? convert::dryRun(m, opts) : convert::convertModel(m, opts);
    QCOMPARE(r.nodes.size(), size_t{6});
    QCOMPARE(reportFor(r, "BecomesRelu")->status, convert::NodeStatus::Converted);
    QCOMPARE(reportFor(r, "BecomesRelu")->message, std::string("now a Relu"));
    QCOMPARE(reportFor(r, "BecomesRelu")->warnings, std::vector<std::string>{"approximated"});
    // A handler that throws: failed.
    QCOMPARE(reportFor(r, "Throws")->status, convert::NodeStatus::Failed);
    QCOMPARE(reportFor(r, "Throws")->message, std::string("kernel exploded"));
    QCOMPARE(reportFor(r, "OutOfMemory")->status, convert::NodeStatus::Failed);
    QCOMPARE(reportFor(r, "OutOfMemory")->message, std::string("out of memory while converting this node"));
    // A handler that refuses, one only for later opsets, none at all: unsupported.
    QCOMPARE(reportFor(r, "Refuses")->status, convert::NodeStatus::Unsupported);
    QCOMPARE(reportFor(r, "Refuses")->message, std::string("cannot express this"));
    QVERIFY(!reportFor(r, "Refuses")->lowestOpset);
    QCOMPARE(reportFor(r, "Later")->status, convert::NodeStatus::Unsupported);
    QCOMPARE(reportFor(r, "Later")->message, std::string("needs opset 15"));
    QCOMPARE(reportFor(r, "Later")->lowestOpset, std::optional<int64_t>(15));
    QCOMPARE(reportFor(r, "Missing")->status, convert::NodeStatus::Unsupported);
    QCOMPARE(reportFor(r, "Missing")->message,
             std::string("no handler for test.rules::Missing in direction 'test_rules'"));
    QVERIFY(!r.model);
    QVERIFY(!r.complete());
  }
  QCOMPARE(m.graph().nodes().front()->opType, std::string("BecomesRelu"));  // converted on a copy
}

void PipelineRules::directionRulesReachThePipeline() {
  auto& reg = convert::HandlerRegistry::forDirection("test_keeping");
  registerStatusHandlers(reg);
  convert::registerDirection(std::make_unique<KeepingDirection>("test_keeping", reg));
  Chain c(13, "test.rules");
  c.add("BecomesRelu", "convert_me", "test.rules");
  c.add("Throws", "keep_me", "test.rules");
  convert::ConvertOptions opts;
  opts.direction = "test_keeping";
  opts.targetOpset = 13;
  opts.keepUnconverted = true;
  opts.passes = std::vector<std::string>{};
  opts.check = false;  // libonnx knows no test.rules ops
  auto r = convert::convertModel(c.done(), opts);
  QCOMPARE(reportFor(r, "convert_me")->status, convert::NodeStatus::Converted);
  QCOMPARE(reportFor(r, "convert_me")->warnings, (std::vector<std::string>{"seen convert_me", "approximated"}));
  QCOMPARE(reportFor(r, "keep_me")->status, convert::NodeStatus::Kept);  // its handler never ran
  QCOMPARE(reportFor(r, "keep_me")->message, std::string("kept by the test direction"));
  QVERIFY(r.model);
  // The default finish: the import of the domain a node still uses stays.
  QCOMPARE(r.model->opsetVersion("test.rules"), int64_t{1});
  QCOMPARE(r.model->opsetVersion(""), int64_t{13});
}

void PipelineRules::problemLinesForTerminals() {
  convert::ConvertResult r;
  convert::NodeReport fine;
  fine.nodeName = "fine";
  fine.opType = "Relu";
  fine.status = convert::NodeStatus::Converted;
  convert::NodeReport refused;
  refused.nodeName = "evil\x1b[2J";
  refused.opType = "Mystery";
  refused.status = convert::NodeStatus::Unsupported;
  refused.message = "no \xff handler";
  refused.lowestOpset = 11;
  convert::NodeReport failed;
  failed.nodeName = "f";
  failed.opType = "Gemm";
  failed.status = convert::NodeStatus::Failed;
  failed.message = "kernel exploded";
  r.nodes = {fine, refused, failed};
  r.check.ok = false;
  r.check.messages = {{"n1", "bad input"}, {"", "graph is broken"}};
  r.error = "optimizer pass failed: x";
  const auto problems = convert::problemLines(r, "m.onnx");
  QCOMPARE(problems.size(), size_t{5});
  QCOMPARE(
      problems[0],
      std::string(
          "m.onnx: node evil\\x1b[2J (Mystery): unsupported: no \\xff handler [lowest opset with a conversion: 11]"));
  QCOMPARE(problems[1], std::string("m.onnx: node f (Gemm): failed: kernel exploded"));
  QCOMPARE(problems[2], std::string("m.onnx: check: n1: bad input"));
  QCOMPARE(problems[3], std::string("m.onnx: check: graph is broken"));
  QCOMPARE(problems[4], std::string("m.onnx: optimizer pass failed: x"));
  const auto listing = convert::unconvertedNodeLines(r);
  QCOMPARE(listing.size(), size_t{2});
  QCOMPARE(listing[0],
           std::string("unsupported: evil\\x1b[2J (Mystery): no \\xff handler [lowest opset with a conversion: 11]"));
  QCOMPARE(listing[1], std::string("failed: f (Gemm): kernel exploded"));
  QCOMPARE(convert::checkLines(r.check, "m.onnx", "source check").front(),
           std::string("m.onnx: source check: n1: bad input"));
}

QTEST_GUILESS_MAIN(PipelineRules)
#include "test_convert_pipeline_rules.moc"
