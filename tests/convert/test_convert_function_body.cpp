// Function-body expansion (convert/onnx_onnx/function_body) as a unit: expandFunctionBody on a single node
// whose op's libonnx schema has a function body (plain or context-dependent), converted to a target opset the
// converter would expand it for (one that lacks the op, where there is one); expandLocalFunction on calls of
// model-local functions. Every expanded graph passes the libonnx checker with strict shape inference and
// computes what the node computes (ONNX Runtime on the same seeded random inputs). Edge cases: attributes the
// body refers to (ref_attr_name, given or the schema's default), optional inputs and outputs left out, bodies
// whose nodes expand again (nested), local functions calling local functions, and names inside the body that
// collide with names already in the graph. Every default-domain schema with a function body is either a case
// here or listed with the reason it cannot be run.
#include <QtTest>

#include <QRegularExpression>

#include <onnx/defs/parser.h>
#include <onnx/defs/schema.h>

#include <map>
#include <set>

#include "check/onnx_check.h"
#include "convert/body_converter.h"
#include "convert/handler.h"
#include "convert/onnx_onnx/function_body.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_writer.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;

namespace {

struct Case {
  const char* name;
  const char* op;        // the node to expand (the only one of its op in the graph)
  int64_t sinceVersion;  // the schema version whose body is expanded
  int64_t target;
  std::string model;  // ONNX text format
};

// Schemas with a function body that cannot be compared numerically, and why.
const std::map<std::string, std::string> kNotRun{
    {"Bernoulli", "random output: nothing to compare value by value"},
    {"SequenceMap", "sequence inputs, which the oracle does not feed"},
};

std::string header(int64_t opset) { return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) + "]>\n"; }

std::vector<Case> cases() {
  std::vector<Case> c;
  // Celu-12 (Elu of x / alpha, times alpha) at 11, which has no Celu; alpha given, and left to its default 1.0.
  c.push_back({"Celu alpha 2", "Celu", 12, 11,
               header(12) + "g (float[2,3] x) => (float[2,3] y) { y = Celu <alpha = 2.0> (x) }"});
  c.push_back(
      {"Celu default alpha", "Celu", 12, 11, header(12) + "g (float[2,3] x) => (float[2,3] y) { y = Celu (x) }"});
  c.push_back({"GreaterOrEqual-16 at 11", "GreaterOrEqual", 16, 11,
               header(16) + "g (float[2,3] a, float[3] b) => (bool[2,3] y) { y = GreaterOrEqual (a, b) }"});
  c.push_back({"GreaterOrEqual-12 at 11", "GreaterOrEqual", 12, 11,
               header(12) + "g (float[2,3] a, float[3] b) => (bool[2,3] y) { y = GreaterOrEqual (a, b) }"});
  c.push_back({"LessOrEqual-16 at 11", "LessOrEqual", 16, 11,
               header(16) + "g (float[4] a, float[2,4] b) => (bool[2,4] y) { y = LessOrEqual (a, b) }"});
  c.push_back({"LessOrEqual-12 at 11", "LessOrEqual", 12, 11,
               header(12) + "g (float[4] a, float[2,4] b) => (bool[2,4] y) { y = LessOrEqual (a, b) }"});
  c.push_back({"HardSwish-14 at 13", "HardSwish", 14, 13,
               header(14) + "g (float[3,4] x) => (float[3,4] y) { y = HardSwish (x) }"});
  c.push_back({"MeanVarianceNormalization-13 default axes", "MeanVarianceNormalization", 13, 13,
               header(13) + "g (float[2,3,4,5] x) => (float[2,3,4,5] y) { y = MeanVarianceNormalization (x) }"});
  c.push_back(
      {"MeanVarianceNormalization-9 axes [1]", "MeanVarianceNormalization", 9, 9,
       header(9) + "g (float[2,3,4] x) => (float[2,3,4] y) { y = MeanVarianceNormalization <axes = [1]> (x) }"});
  c.push_back({"Range-11 at 11", "Range", 11, 11,
               header(11) + "g (int64 s, int64 l, int64 d) => (int64[N] y) { y = Range (s, l, d) }"});
  c.push_back({"Softmax-13 axis 1", "Softmax", 13, 13,
               header(13) + "g (float[2,3,4] x) => (float[2,3,4] y) { y = Softmax <axis = 1> (x) }"});
  c.push_back({"Softmax-13 at 12", "Softmax", 13, 12,
               header(13) + "g (float[2,3,4] x) => (float[2,3,4] y) { y = Softmax <axis = 1> (x) }"});
  c.push_back({"LogSoftmax-13 default axis", "LogSoftmax", 13, 13,
               header(13) + "g (float[2,3,4] x) => (float[2,3,4] y) { y = LogSoftmax (x) }"});
  // LayerNormalization-17 (context-dependent body): at 13; bias and the optional outputs left out, then all given.
  c.push_back({"LayerNormalization-17 at 13, no bias, Y only", "LayerNormalization", 17, 13,
               header(17) + "g (float[2,3,4] x, float[4] s) => (float[2,3,4] y) { y = LayerNormalization (x, s) }"});
  c.push_back({"LayerNormalization-17 axis 1, all outputs", "LayerNormalization", 17, 17,
               header(17) +
                   "g (float[2,3,4] x, float[3,4] s, float[3,4] b) => (float[2,3,4] y, float[2,1,1] m, float[2,1,1] r) "
                   "{ y, m, r = LayerNormalization <axis = 1, epsilon = 0.01> (x, s, b) }"});
  // NegativeLogLikelihoodLoss / SoftmaxCrossEntropyLoss (context-dependent) at 11, which has neither: the body of
  // SoftmaxCrossEntropyLoss holds a NegativeLogLikelihoodLoss, which expands in turn (nested). Labels are 1..3.
  c.push_back({"NegativeLogLikelihoodLoss-13 at 11", "NegativeLogLikelihoodLoss", 13, 11,
               header(13) + "g (float[3,5] x, int64[3] t) => (float y) { y = NegativeLogLikelihoodLoss (x, t) }"});
  c.push_back({"NegativeLogLikelihoodLoss-12 sum, weights", "NegativeLogLikelihoodLoss", 12, 12,
               header(12) + "g (float[3,5] x, int64[3] t, float[5] w) => (float y) { y = NegativeLogLikelihoodLoss "
                            "<reduction = \"sum\"> (x, t, w) }"});
  c.push_back({"SoftmaxCrossEntropyLoss-13 at 11 (nested)", "SoftmaxCrossEntropyLoss", 13, 11,
               header(13) + "g (float[3,5] x, int64[3] t) => (float y) { y = SoftmaxCrossEntropyLoss (x, t) }"});
  c.push_back({"SoftmaxCrossEntropyLoss-12 none, log_prob", "SoftmaxCrossEntropyLoss", 12, 12,
               header(12) + "g (float[3,5] x, int64[3] t) => (float[3] y, float[3,5] lp) "
                            "{ y, lp = SoftmaxCrossEntropyLoss <reduction = \"none\"> (x, t) }"});
  c.push_back(
      {"DynamicQuantizeLinear-11", "DynamicQuantizeLinear", 11, 11,
       header(11) + "g (float[3,4] x) => (uint8[3,4] y, float s, uint8 z) { y, s, z = DynamicQuantizeLinear (x) }"});
  // CastLike-15 (context-dependent: a Cast to the second input's type) at 13, which has no CastLike.
  c.push_back({"CastLike-15 at 13", "CastLike", 15, 13,
               header(15) + "g (float[2,3] x, double[1] t) => (double[2,3] y) { y = CastLike (x, t) }"});
  for (const char* w : {"HannWindow", "HammingWindow", "BlackmanWindow"})
    c.push_back({w, w, 17, 17, header(17) + "g (int64 n) => (float[N] y) { y = " + w + " <periodic = 0> (n) }"});
  return c;
}

std::unique_ptr<ir::Model> parse(const std::string& text, std::vector<onnx::FunctionProto> functions = {}) {
  onnx::ModelProto mp;
  auto status = onnx::OnnxParser::Parse(mp, text.c_str());
  if (!status.IsOK()) throw std::runtime_error("test model does not parse: " + status.ErrorMessage());
  for (auto& f : functions) *mp.add_functions() = std::move(f);
  onnxfmt::ImportOptions io;
  io.modelPath = "test";
  return onnxfmt::importModel(mp, io);
}

onnx::FunctionProto function(const std::string& text) {
  onnx::FunctionProto f;
  auto status = onnx::OnnxParser::Parse(f, text.c_str());
  if (!status.IsOK()) throw std::runtime_error("test function does not parse: " + status.ErrorMessage());
  return f;
}

ir::Node* findNode(ir::Graph& g, const std::string& op) {
  for (const auto& n : g.nodes())
    if (n->opType == op) return n.get();
  return nullptr;
}

size_t countNodes(const ir::Graph& g, const std::string& op, const std::string& domain = "") {
  size_t c = 0;
  for (const auto& n : g.nodes()) {
    c += n->opType == op && n->domain == domain;
    for (const ir::Graph* sub : n->subgraphs()) c += countNodes(*sub, op, domain);
  }
  return c;
}

QString checkMessages(const CheckResult& r) {
  QStringList s;
  for (const auto& m : r.messages) s << QString::fromStdString(m.message);
  return s.join("\n");
}

// Values that more than one node produces, or that a node produces and that are also graph inputs/initializers.
QStringList doublyDefined(const ir::Graph& g) {
  std::map<std::string, int> defs;
  for (const ir::Value* v : g.inputs()) ++defs[v->name()];
  for (const auto& t : g.initializers()) ++defs[t->name];
  for (const auto& n : g.nodes())
    for (const ir::Value* o : n->outputs())
      if (o) ++defs[o->name()];
  QStringList out;
  for (const auto& [name, count] : defs)
    if (count > 1 &&
        !std::any_of(g.inputs().begin(), g.inputs().end(), [&](const ir::Value* v) { return v->name() == name; }))
      out << QString::fromStdString(name);
  return out;
}

}  // namespace

class TestConvertFunctionBody : public QObject {
  Q_OBJECT
  QString dir_;

  // Writes `source`, then the model after `expand` at `target`; both check, and ONNX Runtime agrees.
  bool expandAndCompare(const QString& name, ir::Model& model, int64_t target,
                        const std::function<void(ir::Model&)>& expand) {
    const QString src = dir_ + "/" + QString(name).replace(QRegularExpression("[^A-Za-z0-9]+"), "_") + "_source.onnx";
    const QString out = QString(src).replace("_source", "_expanded");
    const CheckResult before = checkModel(model);
    if (!before.ok) {
      QTest::qFail(qPrintable(name + ": test model invalid: " + checkMessages(before)), __FILE__, __LINE__);
      return false;
    }
    onnxfmt::writeOnnxFile(model, src.toStdString());
    expand(model);
    if (QTest::currentTestFailed()) return false;
    model.setOpsetVersion("", target);
    const QStringList twice = doublyDefined(model.graph());
    if (!twice.isEmpty()) {
      QTest::qFail(qPrintable(name + ": defined twice: " + twice.join(", ")), __FILE__, __LINE__);
      return false;
    }
    const CheckResult after = checkModel(model);
    if (!after.ok) {
      QTest::qFail(qPrintable(name + ": the expanded graph does not check: " + checkMessages(after)), __FILE__,
                   __LINE__);
      return false;
    }
    onnxfmt::writeOnnxFile(model, out.toStdString());
    const auto run = test::runOracle(src, {out}, 3);
    if (!run.ok()) {
      QTest::qFail(qPrintable(name + ": outputs differ:" + run.failures()), __FILE__, __LINE__);
      return false;
    }
    return true;
  }

  static convert::HandlerContext context(ir::Model& m, int64_t target) {
    convert::HandlerContext ctx{m, m.graph()};
    ctx.sourceOpset = m.opsetVersion("");
    ctx.targetOpset = target;
    ctx.convertBody = convert::bodyConverterFor("onnx");  // what the pipeline hands every handler
    return ctx;
  }

 private slots:
  void initTestCase() {
    QVERIFY2(test::oracleInstalled(), "run tests/oracle/install.sh");
    dir_ = test::scratchDir("convert_function_body");
  }

  // Every default-domain schema libonnx gives a function body is a case below (or not run, with its reason).
  void everySchemaWithABodyIsCovered() {
    std::set<std::pair<std::string, int64_t>> covered;
    for (const Case& c : cases()) covered.insert({c.op, c.sinceVersion});
    QStringList missing;
    std::set<std::pair<std::string, int64_t>> bodies;
    for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
      if (!s.domain().empty() || (!s.HasFunction() && !s.HasContextDependentFunction())) continue;
      bodies.insert({s.Name(), s.SinceVersion()});
      if (kNotRun.count(s.Name())) continue;
      if (!covered.count({s.Name(), s.SinceVersion()}))
        missing << QString("%1-%2").arg(QString::fromStdString(s.Name())).arg(s.SinceVersion());
    }
    QVERIFY2(missing.isEmpty(), qPrintable("schemas with a function body and no case: " + missing.join(", ")));
    for (const auto& [op, since] : covered)  // and every case is one
      QVERIFY2(bodies.count({op, since}),
               qPrintable(QString("%1-%2 has no function body").arg(QString::fromStdString(op)).arg(since)));
    qInfo("%zu schemas with a function body, %zu of them run", bodies.size(), covered.size());
  }

  void expandsAndComputesTheSame_data() {
    QTest::addColumn<int>("index");
    const auto all = cases();
    for (size_t i = 0; i < all.size(); ++i) QTest::newRow(all[i].name) << static_cast<int>(i);
  }
  void expandsAndComputesTheSame() {
    QFETCH(int, index);
    const Case c = cases()[static_cast<size_t>(index)];
    auto model = parse(c.model);
    ir::Node* node = findNode(model->graph(), c.op);
    QVERIFY(node);
    const auto* schema = onnx::OpSchemaRegistry::Schema(c.op, static_cast<int>(model->opsetVersion("")), "");
    QVERIFY(schema);
    QCOMPARE(static_cast<int64_t>(schema->SinceVersion()), c.sinceVersion);
    const size_t before = model->graph().nodeCount();
    expandAndCompare(c.name, *model, c.target, [&](ir::Model& m) {
      // A dry run decides without touching the graph.
      auto dry = context(m, c.target);
      dry.dryRun = true;
      QVERIFY(convert::onnx_onnx::expandFunctionBody(*node, dry));
      QCOMPARE(m.graph().nodeCount(), before);
      QVERIFY(findNode(m.graph(), c.op) == node);
      auto ctx = context(m, c.target);
      QVERIFY(convert::onnx_onnx::expandFunctionBody(*node, ctx));
      QVERIFY(ctx.replaced);
      QVERIFY(!ctx.created.empty());
      QCOMPARE(countNodes(m.graph(), c.op), size_t{0});
      QVERIFY2(QString::fromStdString(ctx.note).startsWith("expanded function body"), ctx.note.c_str());
    });
  }

  // On a real model: every LayerNormalization and Softmax of the corpus transformer (opset 17) expanded in place
  // for opset 13, with the element types libonnx infers (as the converter hands them over); the model checks at
  // 13 and computes the same.
  void corpusTransformer() {
    auto model = loadModel(test::corpusModel("transformer_encoder_op17.onnx").toStdString());
    QCOMPARE(model->opsetVersion(""), int64_t{17});
    const auto inferred = inferShapes(*model);
    std::unordered_map<const ir::Value*, ir::DataType> types;
    for (const auto& n : model->graph().nodes())
      for (const ir::Value* v : n->inputs())
        if (v)
          if (auto it = inferred.find(v->name()); it != inferred.end()) types[v] = it->second.elemType;
    const size_t layerNorms = countNodes(model->graph(), "LayerNormalization"),
                 softmaxes = countNodes(model->graph(), "Softmax");
    QCOMPARE(layerNorms, size_t{12});
    QCOMPARE(softmaxes, size_t{6});
    size_t expanded = 0;
    expandAndCompare("corpus transformer", *model, 13, [&](ir::Model& m) {
      std::vector<ir::Node*> nodes;
      for (const auto& n : m.graph().nodes())
        if (n->opType == "LayerNormalization" || n->opType == "Softmax") nodes.push_back(n.get());
      // The rest of the model is valid at 13 once Reshape-14's allowzero = 0 (Reshape-5's meaning) goes.
      for (const auto& n : m.graph().nodes())
        if (n->opType == "Reshape" && n->attrInt("allowzero", 0) == 0) n->removeAttr("allowzero");
      for (ir::Node* n : nodes) {
        auto ctx = context(m, 13);
        ctx.elemTypes = &types;
        QVERIFY(convert::onnx_onnx::expandFunctionBody(*n, ctx));
        ++expanded;
      }
      QCOMPARE(countNodes(m.graph(), "LayerNormalization") + countNodes(m.graph(), "Softmax"), size_t{0});
    });
    QCOMPARE(expanded, layerNorms + softmaxes);
  }

  // The body's reference to the caller's alpha takes the node's value, or the schema's default when the node
  // leaves it out: Celu's body divides by a Constant holding alpha.
  void attributeReferences() {
    for (auto [text, alpha] :
         {std::pair<const char*, float>{"y = Celu <alpha = 2.5> (x)", 2.5f}, {"y = Celu (x)", 1.0f}}) {
      auto model = parse(header(12) + "g (float[2] x) => (float[2] y) { " + text + " }");
      auto ctx = context(*model, 11);
      QVERIFY(convert::onnx_onnx::expandFunctionBody(*findNode(model->graph(), "Celu"), ctx));
      std::vector<float> constants;
      for (const auto& n : model->graph().nodes())
        if (n->opType == "Constant")
          for (const auto& a : n->attributes) {
            if (a.name == "value_float") constants.push_back(a.f);
            if (a.name == "value" && !a.tensors.empty())
              constants.push_back(static_cast<float>(a.tensors[0].asDouble().at(0)));
          }
      QCOMPARE(constants, std::vector<float>{alpha});
      QCOMPARE(countNodes(model->graph(), "Elu"), size_t{1});
    }
  }

  // An op with no body at the source version: false, graph unchanged. A body node the target cannot express:
  // Unsupported, graph unchanged.
  void noBodyAndRefusals() {
    auto model = parse(header(13) + "g (float[2] x) => (float[2] y) { y = Relu (x) }");
    auto ctx = context(*model, 11);
    QVERIFY(!convert::onnx_onnx::expandFunctionBody(*findNode(model->graph(), "Relu"), ctx));
    QCOMPARE(model->graph().nodeCount(), size_t{1});
    // GreaterOrEqual's body on int32 at opset 7, whose Greater takes floating-point types only.
    auto ge = parse(header(16) + "g (int32[2,3] a, int32[2,3] b) => (bool[2,3] y) { y = GreaterOrEqual (a, b) }");
    auto c7 = context(*ge, 7);
    QVERIFY_THROWS_EXCEPTION(convert::Unsupported,
                             convert::onnx_onnx::expandFunctionBody(*findNode(ge->graph(), "GreaterOrEqual"), c7));
    QCOMPARE(ge->graph().nodeCount(), size_t{1});
    QVERIFY(findNode(ge->graph(), "GreaterOrEqual"));
  }

  // Names inside the body that are names of the graph already: the node reads a value named as a body internal
  // and writes one named as a formal input, and the graph has values named as the prefixed internals would be.
  void nameCollisions() {
    auto model = parse(header(12) +
                       "g (float[2,3] alpha, float[2,3] X) => (float[2,3] X_alpha, float[2,3] e) {\n"
                       "  e = Relu (X)\n"
                       "  q = Neg (e)\n"
                       "  X_alpha = Celu <alpha = 3.0> (alpha)\n"
                       "}");
    // Give the Celu node a name whose prefixed internals exist already.
    ir::Node* celu = findNode(model->graph(), "Celu");
    celu->name = "celu";
    findNode(model->graph(), "Relu")->name = "celu/body";
    ir::Node* neg = findNode(model->graph(), "Neg");
    model->graph().setOutput(neg, 0, model->graph().getOrCreateValue("celu/body/X_alpha"));
    model->graph().addOutput(neg->output(0));
    ir::Shape s23{ir::Dim::of(2), ir::Dim::of(3)};
    neg->output(0)->type = ir::TypeInfo::tensor(ir::DataType::Float, s23);
    expandAndCompare("name collisions", *model, 11, [&](ir::Model& m) {
      auto ctx = context(m, 11);
      QVERIFY(convert::onnx_onnx::expandFunctionBody(*celu, ctx));
    });
    // The graph's own values are untouched: the graph outputs are still produced by Relu and Neg.
    QCOMPARE(model->graph().findValue("e")->producer()->opType, std::string("Relu"));
    QCOMPARE(model->graph().findValue("celu/body/X_alpha")->producer()->opType, std::string("Neg"));
  }

  // Model-local functions: a custom-domain function with an attribute reference, calling another local
  // function, called twice (two instantiations side by side) with actual names that are the formal ones
  // swapped; after expanding every call, no custom node is left and the functions can go.
  void localFunctions() {
    auto inner = function(
        "<domain: \"custom\", opset_import: [\"\" : 17]>\n"
        "Inner (x) => (y) {\n"
        "  t = Tanh (x)\n"
        "  y = Mul (t, x)\n"
        "}");
    auto outer = function(
        "<domain: \"custom\", opset_import: [\"\" : 17, \"custom\" : 1]>\n"
        "Outer <scale> (x, b) => (y) {\n"
        "  s = Constant <value_float: float = @scale> ()\n"
        "  t = custom.Inner (x)\n"
        "  u = Mul (t, s)\n"
        "  y = Add (u, b)\n"
        "}");
    auto model = parse(
        "<ir_version: 8, opset_import: [\"\" : 17, \"custom\" : 1]>\n"
        "g (float[2,3] y, float[3] x, float[2,3] t) => (float[2,3] x2, float[2,3] s) {\n"
        "  x2 = custom.Outer <scale = 3.0> (y, x)\n"
        "  s = custom.Outer <scale = -0.5> (x2, t)\n"
        "}",
        {inner, outer});
    QCOMPARE(model->functions.size(), size_t{2});
    QVERIFY(convert::onnx_onnx::localFunction(*model, *findNode(model->graph(), "Outer")));
    expandAndCompare("local functions", *model, 17, [&](ir::Model& m) {
      for (ir::Node* call; (call = findNode(m.graph(), "Outer"));) {
        auto ctx = context(m, 17);
        QVERIFY(convert::onnx_onnx::expandLocalFunction(*call, ctx));
        if (QTest::currentTestFailed()) return;
      }
      QCOMPARE(countNodes(m.graph(), "Inner", "custom"), size_t{0});
      QCOMPARE(countNodes(m.graph(), "Tanh"), size_t{2});
      convert::onnx_onnx::dropUncalledFunctions(m);
      QVERIFY(m.functions.empty());
      QCOMPARE(m.opsetVersion("custom"), int64_t{0});
    });
    // A node of a default-domain op is no local function call.
    auto plain = parse(header(17) + "g (float[2] x) => (float[2] y) { y = Relu (x) }");
    auto ctx = context(*plain, 17);
    QVERIFY(!convert::onnx_onnx::expandLocalFunction(*findNode(plain->graph(), "Relu"), ctx));
  }

  // A local function that calls itself is refused, not expanded forever.
  void recursiveLocalFunctionIsRefused() {
    auto self = function(
        "<domain: \"custom\", opset_import: [\"\" : 17, \"custom\" : 1]>\n"
        "Loopy (x) => (y) {\n"
        "  y = custom.Loopy (x)\n"
        "}");
    auto model = parse(
        "<ir_version: 8, opset_import: [\"\" : 17, \"custom\" : 1]>\n"
        "g (float[2] x) => (float[2] y) { y = custom.Loopy (x) }",
        {self});
    auto ctx = context(*model, 17);
    QVERIFY_THROWS_EXCEPTION(convert::Unsupported,
                             convert::onnx_onnx::expandLocalFunction(*findNode(model->graph(), "Loopy"), ctx));
    QCOMPARE(model->graph().nodeCount(), size_t{1});
  }
};

QTEST_GUILESS_MAIN(TestConvertFunctionBody)
#include "test_convert_function_body.moc"
