// One small graph per ONNX->ONNX adapter family, converted across the opset where the op changed; each result
// passes the checker and strict shape inference and computes what the source computes (ONNX Runtime).
// Also: statuses for custom domains, unsupported and failed nodes, attribute warnings, subgraphs, and the
// dry run agreeing with the conversion on every corpus model.
#include <QtTest>

#include <map>

#include "check/onnx_check.h"
#include "convert/converter.h"
#include "convert/handler_registry.h"
#include "schema/onnx_schema.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_writer.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;
using ir::DataType;

namespace {

// Builds small models through the IR.
struct Builder {
  std::unique_ptr<ir::Model> model = std::make_unique<ir::Model>();
  ir::Graph& g = model->graph();

  explicit Builder(int64_t opset) {
    model->setOpsetVersion("", opset);
    model->irVersion = 7;
    model->producerName = "flowbridge-test";
    g.name = "g";
  }
  static ir::Shape shape(const std::vector<int64_t>& dims) {
    ir::Shape s;
    for (auto d : dims) s.push_back(ir::Dim::of(d));
    return s;
  }
  ir::Value* input(const std::string& name, DataType t, const std::vector<int64_t>& dims) {
    ir::Value* v = g.getOrCreateValue(name);
    v->type = ir::TypeInfo::tensor(t, shape(dims));
    g.addInput(v);
    return v;
  }
  ir::Value* ints(const std::string& name, const std::vector<int64_t>& v, bool scalar = false) {
    std::vector<int64_t> dims;
    if (!scalar) dims.push_back(static_cast<int64_t>(v.size()));
    return g.addInitializer(ir::Tensor::fromValues(name, DataType::Int64, dims, v));
  }
  ir::Value* floats(const std::string& name, const std::vector<float>& v, std::vector<int64_t> dims = {}) {
    if (dims.empty() && v.size() != 1) dims.push_back(static_cast<int64_t>(v.size()));
    return g.addInitializer(ir::Tensor::fromValues(name, DataType::Float, dims, v));
  }
  ir::Value* val(const std::string& name) { return name.empty() ? nullptr : g.getOrCreateValue(name); }
  ir::Node* node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
                 std::vector<ir::Attribute> attrs = {}, const std::string& domain = "") {
    std::vector<ir::Value*> ins, outs;
    for (auto& s : in) ins.push_back(val(s));
    for (auto& s : out) outs.push_back(val(s));
    ir::Node* n = g.addNode(op, ins, outs, domain);
    n->name = op + "_" + std::to_string(g.nodeCount());
    n->origins = {n->id()};
    for (auto& a : attrs) n->setAttr(std::move(a));
    return n;
  }
  void output(const std::string& name, DataType t, const std::vector<int64_t>& dims) {
    ir::Value* v = val(name);
    v->type = ir::TypeInfo::tensor(t, shape(dims));
    g.addOutput(v);
  }
};

ir::Attribute I(const char* n, int64_t v) { return ir::Attribute::makeInt(n, v); }
ir::Attribute Is(const char* n, std::vector<int64_t> v) { return ir::Attribute::makeInts(n, std::move(v)); }
ir::Attribute F(const char* n, float v) { return ir::Attribute::makeFloat(n, v); }
ir::Attribute S(const char* n, std::string v) { return ir::Attribute::makeString(n, std::move(v)); }

std::map<std::string, size_t> opCounts(const ir::Graph& g) {
  std::map<std::string, size_t> out;
  for (const auto& n : g.nodes()) {
    ++out[n->opType];
    for (const ir::Graph* sub : n->subgraphs())
      for (auto& [op, c] : opCounts(*sub)) out[op] += c;
  }
  return out;
}

QString describe(const convert::ConvertResult& r) {
  QString s;
  for (const auto& n : r.nodes)
    if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed)
      s += QString("\n  %1: %2").arg(QString::fromStdString(n.nodeName), QString::fromStdString(n.message));
  for (const auto& m : r.check.messages) s += "\n  check: " + QString::fromStdString(m.message);
  return s + QString::fromStdString(r.error);
}

// Converts to each target (no passes, so the adapters' own output is what is checked), verifies the result
// and returns the written files after comparing them with the source in ONNX Runtime.
std::vector<convert::ConvertResult> convertAndCompare(const ir::Model& source, const QString& name,
                                                      const std::vector<int64_t>& targets) {
  std::vector<convert::ConvertResult> results;
  const QString dir = test::scratchDir("convert_adapters/" + name);
  const QString src = dir + "/source.onnx";
  auto sourceCheck = checkModel(source);
  if (!sourceCheck.ok) {
    QTest::qFail(qPrintable("test model invalid: " + QString::fromStdString(sourceCheck.messages[0].message)), __FILE__,
                 __LINE__);
    return results;
  }
  onnxfmt::writeOnnxFile(source, src.toStdString());
  QStringList written;
  for (int64_t t : targets) {
    convert::ConvertOptions opts;
    opts.targetOpset = t;
    opts.passes = std::vector<std::string>{};
    auto r = convert::convertModel(source, opts);
    if (!r.complete()) {
      QTest::qFail(qPrintable(QString("%1 -> %2:%3").arg(name).arg(t).arg(describe(r))), __FILE__, __LINE__);
      return {};
    }
    QString out = dir + QString("/to%1.onnx").arg(t);
    onnxfmt::writeOnnxFile(*r.model, out.toStdString());
    written << out;
    results.push_back(std::move(r));
  }
  auto run = test::runOracle(src, written, 7);
  if (!run.ok()) {
    QTest::qFail(qPrintable(name + ": outputs differ:" + run.failures()), __FILE__, __LINE__);
    return {};
  }
  return results;
}

const convert::NodeReport* reportFor(const convert::ConvertResult& r, const std::string& op) {
  for (const auto& n : r.nodes)
    if (n.opType == op) return &n;
  return nullptr;
}

}  // namespace

class TestConvertAdapters : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  void softmaxAxisSemanticsDown() {
    Builder b(13);
    b.input("x", DataType::Float, {2, 3, 4});
    b.node("Softmax", {"x"}, {"s"}, {I("axis", 1)});
    b.node("LogSoftmax", {"x"}, {"l"}, {I("axis", -1)});
    b.node("Hardmax", {"x"}, {"h"}, {I("axis", 0)});
    for (auto o : {"s", "l", "h"}) b.output(o, DataType::Float, {2, 3, 4});
    auto rs = convertAndCompare(*b.model, "softmax_down", {12, 9});
    QCOMPARE(rs.size(), size_t{2});
    auto ops = opCounts(rs[0].model->graph());
    QCOMPARE(ops["Transpose"], size_t{4});  // Softmax(axis 1) and Hardmax(axis 0) each swapped to the end and back
    QCOMPARE(reportFor(rs[0], "Softmax")->status, convert::NodeStatus::Converted);
    QCOMPARE(rs[1].model->opsetVersion(""), int64_t{9});
  }

  void softmaxAxisSemanticsUp() {
    Builder b(11);
    b.input("x", DataType::Float, {2, 3, 4});
    b.node("Softmax", {"x"}, {"s"}, {I("axis", 1)});  // opset 11: normalizes over dims 1 and 2 together
    b.node("Softmax", {"x"}, {"t"}, {I("axis", 2)});  // last axis: same meaning everywhere
    b.output("s", DataType::Float, {2, 3, 4});
    b.output("t", DataType::Float, {2, 3, 4});
    auto rs = convertAndCompare(*b.model, "softmax_up", {13, 17});
    QCOMPARE(rs.size(), size_t{2});
    auto ops = opCounts(rs[0].model->graph());
    QCOMPARE(ops["Flatten"], size_t{1});
    QCOMPARE(ops["Reshape"], size_t{1});
  }

  void axesInputsToAttributesAndBack() {
    Builder b(13);
    b.input("x", DataType::Float, {2, 3});
    b.ints("axes_last", {-1});
    b.ints("axes_2", {2});
    b.ints("axes_1", {1});
    b.ints("split", {1, 2});
    b.node("Unsqueeze", {"x", "axes_last"}, {"u"});
    b.node("Squeeze", {"u", "axes_2"}, {"q"});
    b.node("ReduceSum", {"x", "axes_1"}, {"r"}, {I("keepdims", 1)});
    b.node("Split", {"x", "split"}, {"p0", "p1"}, {I("axis", -1)});
    b.output("q", DataType::Float, {2, 3});
    b.output("r", DataType::Float, {2, 1});
    b.output("p0", DataType::Float, {2, 1});
    b.output("p1", DataType::Float, {2, 2});
    auto rs = convertAndCompare(*b.model, "axes_down", {12, 9});
    QCOMPARE(rs.size(), size_t{2});
    for (const auto& n : rs[1].model->graph().nodes()) {
      if (n->opType == "Unsqueeze") QCOMPARE(n->attrInts("axes"), std::vector<int64_t>{2});  // -1 spelled out below 11
      if (n->opType == "Split") {
        QCOMPARE(n->attrInts("split"), (std::vector<int64_t>{1, 2}));
        QCOMPARE(n->attrInt("axis", -9), int64_t{1});
      }
      QVERIFY(n->opType == "Split" || n->inputs().size() == 1);
    }
    // And up again from the attribute form.
    auto back = convert::convertModel(*rs[1].model, {.targetOpset = 13});
    QVERIFY2(back.complete(), qPrintable(describe(back)));
    for (const auto& n : back.model->graph().nodes())
      if (n->opType == "Unsqueeze" || n->opType == "ReduceSum") QCOMPARE(n->inputs().size(), size_t{2});
  }

  void clipPadSliceDropoutDown() {
    Builder b(13);
    b.input("x", DataType::Float, {2, 4});
    b.floats("lo", {-0.5f});
    b.floats("hi", {0.5f});
    b.ints("pads", {0, 1, 0, 1});
    b.floats("pad_value", {0.25f});
    b.ints("starts", {1});
    b.ints("ends", {4});
    b.ints("axes", {1});
    b.floats("ratio", {0.3f});
    b.node("Clip", {"x", "lo", "hi"}, {"c"});
    b.node("Pad", {"c", "pads", "pad_value"}, {"p"});
    b.node("Slice", {"p", "starts", "ends", "axes"}, {"s"});
    b.node("Dropout", {"s", "ratio"}, {"d"});
    b.output("d", DataType::Float, {2, 3});
    auto rs = convertAndCompare(*b.model, "clip_pad_slice_down", {10, 9});
    QCOMPARE(rs.size(), size_t{2});
    for (const auto& n : rs[1].model->graph().nodes()) {
      QCOMPARE(n->inputs().size(), size_t{1});  // every constant input became an attribute
      if (n->opType == "Clip") QCOMPARE(n->attrFloat("min", 0), -0.5f);
      if (n->opType == "Pad") QCOMPARE(n->attrInts("pads"), (std::vector<int64_t>{0, 1, 0, 1}));
    }
  }

  void batchNormalizationAndReshapeSteps() {
    Builder b(15);
    b.input("x", DataType::Float, {2, 3, 4, 4});
    b.floats("scale", {1.f, 2.f, 0.5f}, {3});
    b.floats("bias", {0.f, 0.1f, -0.1f}, {3});
    b.floats("mean", {0.1f, 0.2f, 0.3f}, {3});
    b.floats("var", {1.f, 0.5f, 2.f}, {3});
    b.node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"n"},
           {F("epsilon", 1e-5f), I("training_mode", 0)});
    b.ints("shape", {2, 0, -1});
    b.node("Reshape", {"n", "shape"}, {"y"}, {I("allowzero", 0)});
    b.output("y", DataType::Float, {2, 3, 16});
    auto rs = convertAndCompare(*b.model, "batchnorm", {14, 13, 9, 7});
    QCOMPARE(rs.size(), size_t{4});
    for (const auto& r : rs)
      for (const auto& n : r.model->graph().nodes()) {
        if (n->opType == "BatchNormalization" && r.targetOpset < 14) QVERIFY(!n->hasAttr("training_mode"));
        if (n->opType == "Reshape" && r.targetOpset < 14) QVERIFY(!n->hasAttr("allowzero"));
      }
    // training_mode=1 (batch statistics) is written out below 14 and computes what ORT's BatchNormalization-15 does.
    Builder t(15);
    t.input("x", DataType::Float, {2, 3, 4, 4});
    t.floats("scale", {1.f, 2.f, 0.5f}, {3});
    t.floats("bias", {0.f, 0.1f, -0.1f}, {3});
    t.floats("mean", {0.1f, 0.2f, 0.3f}, {3});
    t.floats("var", {1.f, 0.5f, 2.f}, {3});
    t.node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"y", "running_mean", "running_var"},
           {F("epsilon", 1e-3f), F("momentum", 0.8f), I("training_mode", 1)});
    t.output("y", DataType::Float, {2, 3, 4, 4});
    t.output("running_mean", DataType::Float, {3});
    t.output("running_var", DataType::Float, {3});
    auto training = convertAndCompare(*t.model, "batchnorm_training", {13, 7});
    QCOMPARE(training.size(), size_t{2});
    for (const auto& r : training) {
      QCOMPARE(reportFor(r, "BatchNormalization")->status, convert::NodeStatus::Converted);
      for (const auto& n : r.model->graph().nodes()) QVERIFY(n->opType != "BatchNormalization");
    }
  }

  void attributesToInputsUp() {
    Builder b(9);
    b.input("x", DataType::Float, {2, 4});
    b.node("Clip", {"x"}, {"c"}, {F("min", -0.5f), F("max", 0.5f)});
    b.node("Pad", {"c"}, {"p"}, {Is("pads", {0, 1, 0, 1}), F("value", 0.25f)});
    b.node("Slice", {"p"}, {"s"}, {Is("starts", {1}), Is("ends", {4}), Is("axes", {1})});
    b.node("Unsqueeze", {"s"}, {"u"}, {Is("axes", {0})});
    b.node("Dropout", {"u"}, {"d"}, {F("ratio", 0.3f)});
    b.output("d", DataType::Float, {1, 2, 3});
    auto rs = convertAndCompare(*b.model, "attrs_up", {11, 13, 17});
    QCOMPARE(rs.size(), size_t{3});
    for (const auto& n : rs[1].model->graph().nodes()) QVERIFY2(n->attributes.empty(), n->opType.c_str());
  }

  void decompositionsOfNewerOps() {
    Builder b(17);
    b.input("x", DataType::Float, {2, 3, 8});
    b.floats("scale", {1, 2, 3, 4, 5, 6, 7, 8}, {8});
    b.floats("bias", {0.5f, 0, 0, 0, 0, 0, 0, -0.5f}, {8});
    b.node("LayerNormalization", {"x", "scale", "bias"}, {"n"}, {I("axis", -1), F("epsilon", 1e-5f)});
    b.node("LayerNormalization", {"x", "scale"}, {"m"}, {I("axis", 2)});
    b.node("HardSwish", {"n"}, {"h"});
    b.node("Erf", {"m"}, {"e"});
    b.output("h", DataType::Float, {2, 3, 8});
    b.output("e", DataType::Float, {2, 3, 8});
    auto rs = convertAndCompare(*b.model, "decompositions", {16, 13, 9, 8});
    QCOMPARE(rs.size(), size_t{4});
    for (const auto& r : rs) {
      auto ops = opCounts(r.model->graph());
      QCOMPARE(ops.count("LayerNormalization"), size_t{0});
      QCOMPARE(ops["ReduceMean"], size_t{4});
      QCOMPARE(ops.count("HardSwish"), r.targetOpset >= 14 ? size_t{1} : size_t{0});  // HardSwish exists from 14
      QCOMPARE(ops.count("Erf"), r.targetOpset >= 9 ? size_t{1} : size_t{0});         // Erf exists from 9
      QCOMPARE(reportFor(r, "LayerNormalization")->newNodes.size(), size_t{9});
    }
  }

  void resizeToUpsampleAndResize10() {
    Builder b(13);
    b.input("x", DataType::Float, {1, 2, 3, 3});
    b.floats("scales", {1, 1, 2, 2});
    b.node("Resize", {"x", "", "scales"}, {"n"},
           {S("mode", "nearest"), S("coordinate_transformation_mode", "asymmetric"), S("nearest_mode", "floor")});
    b.node("Resize", {"x", "", "scales"}, {"l"},
           {S("mode", "linear"), S("coordinate_transformation_mode", "asymmetric")});
    b.output("n", DataType::Float, {1, 2, 6, 6});
    b.output("l", DataType::Float, {1, 2, 6, 6});
    auto rs = convertAndCompare(*b.model, "resize", {11, 10, 9, 8});
    QCOMPARE(rs.size(), size_t{4});
    QCOMPARE(opCounts(rs[2].model->graph())["Upsample"], size_t{2});
    QCOMPARE(opCounts(rs[1].model->graph())["Resize"], size_t{2});

    // half_pixel has no equivalent before opset 11: unsupported, with the reason and where it works.
    Builder h(13);
    h.input("x", DataType::Float, {1, 2, 3, 3});
    h.floats("scales", {1, 1, 2, 2});
    h.node("Resize", {"x", "", "scales"}, {"y"}, {S("mode", "linear")});
    h.output("y", DataType::Float, {1, 2, 6, 6});
    auto r = convert::convertModel(*h.model, {.targetOpset = 10});
    QVERIFY(!r.complete());
    QVERIFY(!r.model);
    const auto* rep = reportFor(r, "Resize");
    QCOMPARE(rep->status, convert::NodeStatus::Unsupported);
    QVERIFY2(QString::fromStdString(rep->message).contains("half_pixel"), rep->message.c_str());
    QCOMPARE(rep->lowestOpset.value_or(-1), int64_t{11});
  }

  void poolCeilModeAndDepthToSpaceCrd() {
    Builder b(11);
    b.input("x", DataType::Float, {1, 8, 10, 10});
    b.node("MaxPool", {"x"}, {"p"}, {Is("kernel_shape", {3, 3}), Is("strides", {2, 2}), I("ceil_mode", 1)});
    b.node("DepthToSpace", {"x"}, {"d"}, {I("blocksize", 2), S("mode", "CRD")});
    b.output("p", DataType::Float, {1, 8, 5, 5});
    b.output("d", DataType::Float, {1, 2, 20, 20});
    auto rs = convertAndCompare(*b.model, "pool_d2s", {9, 7});
    QCOMPARE(rs.size(), size_t{2});
    for (const auto& n : rs[0].model->graph().nodes())
      if (n->opType == "MaxPool") {
        QVERIFY(!n->hasAttr("ceil_mode"));
        QCOMPARE(n->attrInts("pads"), (std::vector<int64_t>{0, 0, 1, 1}));
      }
    QCOMPARE(opCounts(rs[0].model->graph()).count("DepthToSpace"), size_t{0});
  }

  void gemmConstantRange() {
    Builder b(13);
    b.input("a", DataType::Float, {2, 3});
    b.floats("w", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {3, 4});
    b.node("Gemm", {"a", "w"}, {"g"}, {F("alpha", 0.5f)});
    b.node("Constant", {}, {"shape"}, {Is("value_ints", {4, 2})});
    b.node("Reshape", {"g", "shape"}, {"r"});
    b.floats("start", {0.f});
    b.floats("limit", {2.f});
    b.floats("delta", {1.f});
    b.node("Range", {"start", "limit", "delta"}, {"seq"});
    b.node("Add", {"r", "seq"}, {"y"});
    b.output("y", DataType::Float, {4, 2});
    auto rs = convertAndCompare(*b.model, "gemm_constant_range", {10, 9, 8, 7});
    QCOMPARE(rs.size(), size_t{4});
    for (const auto& r : rs) QCOMPARE(opCounts(r.model->graph()).count("Range"), size_t{0});
    for (const auto& n : rs[0].model->graph().nodes())
      if (n->opType == "Gemm") QCOMPARE(n->inputs().size(), size_t{3});
    // Constant-1 holds floats only: the int64 shape becomes an initializer at 7 and 8 (Range's values are float).
    for (const auto& n : rs[3].model->graph().nodes())
      if (n->opType == "Constant") QCOMPARE(n->attr("value")->tensors[0].dtype, DataType::Float);
    QVERIFY(rs[3].model->graph().findValue("shape")->initializer());
  }

  void topkAndScatterAcrossTheirRenames() {
    Builder b(11);
    b.input("x", DataType::Float, {3, 5});
    b.ints("k", {2});
    b.node("TopK", {"x", "k"}, {"v", "i"}, {I("axis", -1)});
    b.floats("updates", {1, 2, 3, 4, 5, 6}, {3, 2});
    b.node("ScatterElements", {"x", "i", "updates"}, {"s"}, {I("axis", 1)});
    b.output("v", DataType::Float, {3, 2});
    b.output("s", DataType::Float, {3, 5});
    auto rs = convertAndCompare(*b.model, "topk_scatter", {10, 9, 13});
    QCOMPARE(rs.size(), size_t{3});
    auto ops9 = opCounts(rs[1].model->graph());
    QCOMPARE(ops9["Scatter"], size_t{1});
    for (const auto& n : rs[1].model->graph().nodes())
      if (n->opType == "TopK") {
        QCOMPARE(n->attrInt("k", 0), int64_t{2});
        QCOMPARE(n->attrInt("axis", -9), int64_t{1});
      }
    // And back up: Scatter becomes ScatterElements again, k an input.
    auto up = convert::convertModel(*rs[1].model, {.targetOpset = 13});
    QVERIFY2(up.complete(), qPrintable(describe(up)));
    QCOMPARE(opCounts(up.model->graph())["ScatterElements"], size_t{1});
  }

  void subgraphsAreConverted() {
    Builder b(13);
    b.input("cond", DataType::Bool, {});
    b.input("x", DataType::Float, {3});
    auto body = [](const char* name, float k) {
      auto g = std::make_shared<ir::Graph>();
      g->name = name;
      auto* axes = g->addInitializer(
          ir::Tensor::fromValues(std::string(name) + "_axes", DataType::Int64, {1}, std::vector<int64_t>{0}));
      auto* scale = g->addInitializer(
          ir::Tensor::fromValues(std::string(name) + "_k", DataType::Float, {}, std::vector<float>{k}));
      auto* x = g->getOrCreateValue("x");
      g->markOuterScope(x);
      auto* u = g->getOrCreateValue(std::string(name) + "_u");
      auto* y = g->getOrCreateValue(std::string(name) + "_y");
      g->addNode("Unsqueeze", {x, axes}, {u});
      g->addNode("Mul", {u, scale}, {y});
      y->type = ir::TypeInfo::tensor(DataType::Float, Builder::shape({1, 3}));
      g->addOutput(y);
      return g;
    };
    ir::Node* n = b.node("If", {"cond"}, {"y"});
    n->setAttr(ir::Attribute::makeGraph("then_branch", body("then", 2.f)));
    n->setAttr(ir::Attribute::makeGraph("else_branch", body("else", -1.f)));
    for (ir::Graph* sub : n->subgraphs()) sub->setOwner(&b.g, n);
    b.output("y", DataType::Float, {1, 3});
    auto rs = convertAndCompare(*b.model, "subgraphs", {11, 9});
    QCOMPARE(rs.size(), size_t{2});
    size_t convertedUnsqueezes = 0;
    for (const auto& rep : rs[1].nodes)
      if (rep.opType == "Unsqueeze" && rep.status == convert::NodeStatus::Converted) ++convertedUnsqueezes;
    QCOMPARE(convertedUnsqueezes, size_t{2});
    QCOMPARE(rs[1].nodes.size(), size_t{5});  // If + two nodes per branch
  }

  void customDomainKeptAndAttributeWarnings() {
    Builder b(13);
    b.model->setOpsetVersion("com.example", 1);
    b.input("x", DataType::Float, {2, 3});
    b.node("MyOp", {"x"}, {"m"}, {}, "com.example");
    ir::Node* relu = b.node("Relu", {"m"}, {"y"});
    relu->setAttr(I("mystery", 3));
    b.output("y", DataType::Float, {2, 3});
    // Relu-13 is Relu-13 at opset 13 too: the node stays, and the attribute no schema has is reported.
    auto r = convert::convertModel(*b.model, {.targetOpset = 13, .passes = std::vector<std::string>{}, .check = false});
    QVERIFY(r.model);
    QCOMPARE(reportFor(r, "MyOp")->status, convert::NodeStatus::Kept);
    QCOMPARE(r.model->opsetVersion("com.example"), int64_t{1});
    QCOMPARE(r.model->opsetVersion(""), int64_t{13});
    const auto* rep = reportFor(r, "Relu");
    QVERIFY(!rep->warnings.empty());
    QVERIFY(QString::fromStdString(rep->warnings[0]).contains("mystery"));
    bool kept = false;
    for (const auto& n : r.model->graph().nodes()) kept |= n->domain == "com.example" && n->opType == "MyOp";
    QVERIFY(kept);
    // Down to 11 the unknown attribute makes Relu-6 invalid: unsupported with the reason, nothing written.
    auto down = convert::convertModel(*b.model, {.targetOpset = 11});
    QCOMPARE(reportFor(down, "Relu")->status, convert::NodeStatus::Unsupported);
    QVERIFY(QString::fromStdString(reportFor(down, "Relu")->message).contains("mystery"));
    QCOMPARE(reportFor(down, "MyOp")->status, convert::NodeStatus::Kept);
    QVERIFY(!down.model);
  }

  // Issue 11: an axis beyond the rank made the Transpose rewrite index past its permutation.
  void softmaxAxisOutsideTheRankFails() {
    for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"})
      for (int64_t axis : {2, 3, 1000, -3}) {
        for (int64_t source : {13, 11}) {
          Builder b(source);
          b.input("x", DataType::Float, {2, 3});
          b.node(op, {"x"}, {"y"}, {I("axis", axis)});
          b.output("y", DataType::Float, {2, 3});
          if (source == 11 && axis == 2) continue;  // valid in the coerced-2-D versions (empty second dim)
          for (int64_t target : {9, 12, 13}) {
            convert::ConvertOptions o;
            o.targetOpset = target;
            auto r = convert::convertModel(*b.model, o);
            if (target == source) continue;
            QVERIFY2(!r.complete(),
                     qPrintable(QString("%1 axis %2: %3 -> %4").arg(op).arg(axis).arg(source).arg(target)));
            const auto* n = reportFor(r, op);
            QVERIFY(n);
            // Where the two opsets select the same schema nothing is rewritten, and the check rejects it.
            if (schema::schemaVersionAt("", op, source) == schema::schemaVersionAt("", op, target)) {
              QCOMPARE(n->status, convert::NodeStatus::Unchanged);
              QVERIFY(!r.check.ok);
              continue;
            }
            QCOMPARE(n->status, convert::NodeStatus::Failed);
            QVERIFY2(n->message.find("outside the range") != std::string::npos, n->message.c_str());
          }
        }
      }
  }

  // Issue 11: DepthToSpace CRD with no input dereferenced null; blocksize 2^62 made b * b overflow to 0.
  void depthToSpaceBadNodesFail() {
    {
      Builder b(13);
      b.input("x", DataType::Float, {1, 4, 2, 2});
      ir::Node* n = b.node("DepthToSpace", {""}, {"y"}, {I("blocksize", 2), S("mode", "CRD")});
      QVERIFY(n->input(0) == nullptr);
      b.output("y", DataType::Float, {1, 1, 4, 4});
      convert::ConvertOptions o;
      o.targetOpset = 9;
      auto r = convert::convertModel(*b.model, o);
      QCOMPARE(reportFor(r, "DepthToSpace")->status, convert::NodeStatus::Failed);
      QVERIFY(!r.model);
    }
    for (int64_t blocksize : {int64_t{1} << 62, int64_t{1} << 32, int64_t{3}, int64_t{0}}) {
      Builder b(13);
      b.input("x", DataType::Float, {1, 4, 2, 2});
      b.node("DepthToSpace", {"x"}, {"y"}, {I("blocksize", blocksize), S("mode", "CRD")});
      b.output("y", DataType::Float, {1, 1, 4, 4});
      convert::ConvertOptions o;
      o.targetOpset = 9;
      auto r = convert::convertModel(*b.model, o);
      const auto* n = reportFor(r, "DepthToSpace");
      QCOMPARE(n->status, convert::NodeStatus::Failed);
      QVERIFY2(n->message.find("blocksize") != std::string::npos, n->message.c_str());
    }
  }

  // swin_t's Dropout: training_mode=true with a constant ratio 0 is an identity, and its mask is all true.
  void dropoutTrainingWithRatioZeroIsAnIdentity() {
    Builder b(13);
    b.input("x", DataType::Float, {2, 3});
    b.floats("ratio", {0.f});
    b.g.addInitializer(ir::Tensor::fromValues("training", DataType::Bool, {}, std::vector<uint8_t>{1}));
    b.node("Dropout", {"x", "ratio", "training"}, {"y", "mask"});
    b.output("y", DataType::Float, {2, 3});
    b.output("mask", DataType::Bool, {2, 3});
    auto rs = convertAndCompare(*b.model, "dropout_ratio0_training", {11, 10, 9});
    QCOMPARE(rs.size(), size_t{3});
    for (const auto& r : rs) {
      QCOMPARE(reportFor(r, "Dropout")->status, convert::NodeStatus::Converted);
      QCOMPARE(opCounts(r.model->graph())["ConstantOfShape"] + opCounts(r.model->graph())["Constant"] > 0, true);
    }
    // A ratio other than 0 in training mode has no equivalent before 12.
    Builder t(13);
    t.input("x", DataType::Float, {2, 3});
    t.floats("ratio", {0.5f});
    t.g.addInitializer(ir::Tensor::fromValues("training", DataType::Bool, {}, std::vector<uint8_t>{1}));
    t.node("Dropout", {"x", "ratio", "training"}, {"y"});
    t.output("y", DataType::Float, {2, 3});
    convert::ConvertOptions o;
    o.targetOpset = 11;
    auto r = convert::dryRun(*t.model, o);
    QCOMPARE(reportFor(r, "Dropout")->status, convert::NodeStatus::Unsupported);
    QCOMPARE(reportFor(r, "Dropout")->lowestOpset.value_or(0), int64_t{12});
  }

  // An op the target lacks, with a function body in its schema: the body replaces it, converted node by
  // node; the new nodes carry the node's name and provenance.
  void functionBodyExpansion() {
    Builder b(13);
    b.input("x", DataType::Float, {3, 5});
    b.input("t", DataType::Int64, {3});
    ir::Node* nll = b.node("NegativeLogLikelihoodLoss", {"x", "t"}, {"loss"}, {S("reduction", "mean")});
    const uint64_t id = nll->id();
    b.output("loss", DataType::Float, {});
    // Random int64 inputs of the oracle are 1..3: valid class indices for 5 classes.
    auto rs = convertAndCompare(*b.model, "function_body_nll", {11, 9, 7});
    QCOMPARE(rs.size(), size_t{3});
    for (const auto& r : rs) {
      const auto* rep = reportFor(r, "NegativeLogLikelihoodLoss");
      QCOMPARE(rep->status, convert::NodeStatus::Converted);
      QVERIFY2(rep->message.find("expanded function body") != std::string::npos, rep->message.c_str());
      QVERIFY(!rep->newNodes.empty());
      QCOMPARE(opCounts(r.model->graph())["NegativeLogLikelihoodLoss"], size_t{0});
    }
    // Before the passes merge things, every body node traces back to the loss node.
    convert::ConvertOptions o;
    o.targetOpset = 9;
    o.passes = std::vector<std::string>{};
    auto r = convert::convertModel(*b.model, o);
    QVERIFY2(r.complete(), qPrintable(describe(r)));
    for (const auto& n : r.model->graph().nodes()) {
      QVERIFY2(std::find(n->origins.begin(), n->origins.end(), id) != n->origins.end(), n->opType.c_str());
      QVERIFY2(n->name.rfind(nll->name, 0) == 0, n->name.c_str());
    }
  }

  // Issue 10: an LSTM in an If branch, fed by a Loop whose first carried value is an int64 counter, was
  // refused below 14 as "LSTM-7 does not accept int64 for input X": the Loop's heterogeneous outputs all got
  // the first one's type. Each output now has its body output's type.
  void loopOutputsKeepTheirOwnTypes() {
    onnx::ModelProto mp;
    mp.set_ir_version(8);
    auto* op = mp.add_opset_import();
    op->set_version(14);
    auto tensor = [](onnx::ValueInfoProto* vi, const std::string& name, int type, std::vector<int64_t> dims) {
      vi->set_name(name);
      auto* t = vi->mutable_type()->mutable_tensor_type();
      t->set_elem_type(type);
      auto* shape = t->mutable_shape();
      for (auto d : dims) shape->add_dim()->set_dim_value(d);
    };
    auto node = [](onnx::GraphProto& g, const std::string& type, std::vector<std::string> in,
                   std::vector<std::string> out) {
      auto* n = g.add_node();
      n->set_op_type(type);
      for (auto& i : in) n->add_input(i);
      for (auto& o : out) n->add_output(o);
      return n;
    };
    auto& g = *mp.mutable_graph();
    g.set_name("g");
    tensor(g.add_input(), "x", onnx::TensorProto::FLOAT, {4, 1, 3});
    tensor(g.add_input(), "c", onnx::TensorProto::BOOL, {});
    auto addInit = [&](onnx::GraphProto& gr, const std::string& name, int type, std::vector<int64_t> dims,
                       size_t count) {
      auto* t = gr.add_initializer();
      t->set_name(name);
      t->set_data_type(type);
      for (auto d : dims) t->add_dims(d);
      for (size_t i = 0; i < count; ++i) {
        if (type == onnx::TensorProto::FLOAT)
          t->add_float_data(0.1f * float(i % 7));
        else
          t->add_int64_data(static_cast<int64_t>(i + 1));
      }
    };
    addInit(g, "trips", onnx::TensorProto::INT64, {}, 1);
    addInit(g, "cond", onnx::TensorProto::BOOL, {}, 0);
    g.mutable_initializer(1)->add_int32_data(1);
    addInit(g, "zero", onnx::TensorProto::INT64, {}, 0);
    g.mutable_initializer(2)->add_int64_data(0);
    addInit(g, "W", onnx::TensorProto::FLOAT, {1, 8, 3}, 24);
    addInit(g, "R", onnx::TensorProto::FLOAT, {1, 8, 2}, 16);
    // Loop(trips, cond, counter: int64, x: float) -> (counter, x')
    auto* loop = node(g, "Loop", {"trips", "cond", "zero", "x"}, {"count_out", "x_out"});
    auto* body = loop->add_attribute();
    body->set_name("body");
    body->set_type(onnx::AttributeProto::GRAPH);
    auto& b = *body->mutable_g();
    b.set_name("body");
    tensor(b.add_input(), "i", onnx::TensorProto::INT64, {});
    tensor(b.add_input(), "cond_in", onnx::TensorProto::BOOL, {});
    tensor(b.add_input(), "count_in", onnx::TensorProto::INT64, {});
    tensor(b.add_input(), "x_in", onnx::TensorProto::FLOAT, {4, 1, 3});
    node(b, "Identity", {"cond_in"}, {"cond_out"});
    node(b, "Add", {"count_in", "i"}, {"count_next"});
    node(b, "Relu", {"x_in"}, {"x_next"});
    for (const char* o : {"cond_out", "count_next", "x_next"}) b.add_output()->set_name(o);
    // If(c) { LSTM(x_out) } else { LSTM(x_out) }: the branches read the Loop's float output.
    auto* iff = node(g, "If", {"c"}, {"h"});
    for (const char* branch : {"then_branch", "else_branch"}) {
      auto* a = iff->add_attribute();
      a->set_name(branch);
      a->set_type(onnx::AttributeProto::GRAPH);
      auto& br = *a->mutable_g();
      br.set_name(branch);
      auto* lstm = node(br, "LSTM", {"x_out", "W", "R"}, {"", std::string(branch) + "_h"});
      auto* hs = lstm->add_attribute();
      hs->set_name("hidden_size");
      hs->set_type(onnx::AttributeProto::INT);
      hs->set_i(2);
      tensor(br.add_output(), std::string(branch) + "_h", onnx::TensorProto::FLOAT, {1, 1, 2});
    }
    tensor(g.add_output(), "h", onnx::TensorProto::FLOAT, {1, 1, 2});
    tensor(g.add_output(), "count_out", onnx::TensorProto::INT64, {});
    onnxfmt::ImportOptions io;
    io.modelPath = "loop_if_lstm";
    auto model = onnxfmt::importModel(mp, io);
    QVERIFY(checkModel(*model).ok);
    auto rs = convertAndCompare(*model, "loop_if_lstm", {13, 11});
    QCOMPARE(rs.size(), size_t{2});
  }

  void failedHandlersAreReported() {
    // A direction other than "onnx" goes through the same pipeline; a throwing handler marks its node failed.
    auto& reg = convert::HandlerRegistry::forDirection("test_failing");
    reg.add({"test.src", "Boom", 1, "always throws",
             [](ir::Node&, convert::HandlerContext&) { throw std::runtime_error("kernel exploded"); }});
    reg.add({"test.src", "Fine", 1, "becomes Relu", [](ir::Node& n, convert::HandlerContext& ctx) {
               if (!ctx.commit()) return;
               n.opType = "Relu";
               n.domain.clear();
             }});
    Builder b(13);
    b.model->setOpsetVersion("test.src", 1);
    b.input("x", DataType::Float, {2});
    b.node("Fine", {"x"}, {"a"}, {}, "test.src");
    b.node("Boom", {"a"}, {"y"}, {}, "test.src");
    b.node("Nope", {"y"}, {"z"}, {}, "test.src");
    b.output("z", DataType::Float, {2});
    convert::ConvertOptions opts;
    opts.direction = "test_failing";
    opts.targetOpset = 13;
    auto dry = convert::dryRun(*b.model, opts);
    QCOMPARE(reportFor(dry, "Fine")->status, convert::NodeStatus::Converted);
    QCOMPARE(b.model->graph().nodes().front()->opType, std::string("Fine"));  // the dry run changed nothing
    auto r = convert::convertModel(*b.model, opts);
    QCOMPARE(reportFor(r, "Fine")->status, convert::NodeStatus::Converted);
    QCOMPARE(reportFor(r, "Boom")->status, convert::NodeStatus::Failed);
    QCOMPARE(reportFor(r, "Boom")->message, std::string("kernel exploded"));
    QCOMPARE(reportFor(r, "Nope")->status, convert::NodeStatus::Unsupported);
    QVERIFY(!r.model);
    QVERIFY(!r.complete());

    // A model the direction converts whole: ONNX opset set to the target, the source dialect's import gone.
    Builder ok(13);
    ok.model->opsets.clear();
    ok.model->setOpsetVersion("test.src", 1);
    ok.input("x", DataType::Float, {2});
    ok.node("Fine", {"x"}, {"y"}, {}, "test.src");
    ok.output("y", DataType::Float, {2});
    auto done = convert::convertModel(*ok.model, opts);
    QVERIFY2(done.complete(), qPrintable(describe(done)));
    QCOMPARE(done.model->opsetVersion(""), int64_t{13});
    QCOMPARE(done.model->opsetVersion("test.src"), int64_t{0});
    QCOMPARE(done.model->graph().nodes().front()->opType, std::string("Relu"));
  }

  void dryRunAgreesWithConversion_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }

  void dryRunAgreesWithConversion() {
    QFETCH(QString, file);
    auto model = loadModel(test::corpusModel(file).toStdString());
    const auto before = opCounts(model->graph());
    const size_t nodes = model->graph().totalNodeCount();
    for (int64_t t = convert::kMinOpset; t <= convert::kMaxOpset; ++t) {
      convert::ConvertOptions opts;
      opts.targetOpset = t;
      opts.passes = std::vector<std::string>{};
      opts.check = false;
      auto dry = convert::dryRun(*model, opts);
      auto full = convert::convertModel(*model, opts);
      QCOMPARE(dry.nodes.size(), full.nodes.size());
      for (size_t i = 0; i < dry.nodes.size(); ++i) {
        const auto& d = dry.nodes[i];
        const auto& f = full.nodes[i];
        QCOMPARE(d.nodeId, f.nodeId);
        QVERIFY2(d.status == f.status,
                 qPrintable(QString("%1 opset %2 node %3: dry %4, conversion %5 (%6)")
                                .arg(file)
                                .arg(t)
                                .arg(QString::fromStdString(d.nodeName))
                                .arg(QString::fromStdString(std::string(convert::statusName(d.status))))
                                .arg(QString::fromStdString(std::string(convert::statusName(f.status))))
                                .arg(QString::fromStdString(f.message))));
      }
      QVERIFY(!dry.model);
    }
    QVERIFY(opCounts(model->graph()) == before);
    QCOMPARE(model->graph().totalNodeCount(), nodes);
  }
};

QTEST_GUILESS_MAIN(TestConvertAdapters)
#include "test_convert_adapters.moc"
