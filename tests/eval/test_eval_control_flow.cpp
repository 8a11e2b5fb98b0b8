// The evaluator's control-flow family (If, Loop, Scan, sequences, optionals) on small models whose results are
// worked out by hand from the ONNX operator docs, the fallback that runs libonnx's function body of an op no
// kernel implements, and torch exports with data-dependent loops (an If inside, a list carried as a sequence)
// against ONNX Runtime (the npm oracle).
#include <QProcess>
#include <QtTest>

#include "eval/io/npy_file.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <thread>

#include "eval/runtime/run.h"
#include "eval/runtime/schema_function.h"
#include "formats/onnx/onnx_proto_import.h"
#include "ir/graph.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;
using eval::Tensor;
using eval::Value;

namespace {

constexpr int kFloat = onnx::TensorProto::FLOAT;
constexpr int kInt64 = onnx::TensorProto::INT64;
constexpr int kBool = onnx::TensorProto::BOOL;

onnx::ValueInfoProto tensorInfo(const std::string& name, int elemType, const std::vector<int64_t>& dims) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  auto* t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(elemType);
  auto* shape = t->mutable_shape();
  for (int64_t d : dims) {
    if (d < 0)
      shape->add_dim()->set_dim_param("n");  // any size
    else
      shape->add_dim()->set_dim_value(d);
  }
  return v;
}

onnx::ValueInfoProto sequenceInfo(const std::string& name, int elemType) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  v.mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(elemType);
  return v;
}

onnx::ValueInfoProto untyped(const std::string& name) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  return v;
}

onnx::NodeProto node(const std::string& op, const std::vector<std::string>& ins, const std::vector<std::string>& outs) {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_name(op + "_" + outs.front());
  for (const auto& i : ins) n.add_input(i);
  for (const auto& o : outs) n.add_output(o);
  return n;
}

onnx::NodeProto& withInt(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
  return n;
}

onnx::NodeProto& withInts(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
  return n;
}

onnx::NodeProto& withGraph(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = g;
  return n;
}

onnx::GraphProto graph(const std::string& name, const std::vector<onnx::NodeProto>& nodes,
                       const std::vector<onnx::ValueInfoProto>& inputs,
                       const std::vector<onnx::ValueInfoProto>& outputs) {
  onnx::GraphProto g;
  g.set_name(name);
  for (const auto& n : nodes) *g.add_node() = n;
  for (const auto& i : inputs) *g.add_input() = i;
  for (const auto& o : outputs) *g.add_output() = o;
  return g;
}

std::unique_ptr<ir::Model> model(const onnx::GraphProto& g, int64_t opset) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(opset);
  *m.mutable_graph() = g;
  onnxfmt::ImportOptions opts;
  opts.modelPath = g.name();
  return onnxfmt::importModel(m, opts);
}

std::vector<double> valuesOf(const Value& v) { return v.tensor().toDoubles(); }

// The value of output `name` of a run.
const Value& output(const eval::RunResult& r, const std::string& name) {
  for (const auto& [n, v] : r.outputs)
    if (n == name) return v;
  throw std::runtime_error("no output " + name);
}

// A Loop over carried `y` with `x` read from the main graph: y += x each iteration, Relu(y) scanned out. The
// body's condition output is `keep_going`, a main-graph input, so a false one stops the loop after one pass.
std::unique_ptr<ir::Model> accumulatingLoop(bool withTripCount, bool withCondition) {
  onnx::GraphProto body = graph("body", {node("Add", {"y_in", "x"}, {"y_out"}), node("Relu", {"y_out"}, {"scan"})},
                                {tensorInfo("i", kInt64, {}), tensorInfo("cond_in", kBool, {}), untyped("y_in")},
                                {untyped("keep_going"), untyped("y_out"), tensorInfo("scan", kFloat, {2})});
  onnx::NodeProto loop =
      node("Loop", {withTripCount ? "M" : "", withCondition ? "cond" : "", "y0"}, {"y_final", "y_scanned"});
  withGraph(loop, "body", body);
  return model(graph("loop", {loop},
                     {tensorInfo("M", kInt64, {}), tensorInfo("cond", kBool, {}), tensorInfo("y0", kFloat, {2}),
                      tensorInfo("x", kFloat, {2}), tensorInfo("keep_going", kBool, {})},
                     {untyped("y_final"), untyped("y_scanned")}),
               13);
}

std::map<std::string, Value> loopInputs(int64_t m, bool cond, bool keepGoing) {
  return {{"M", Tensor::int64s({}, {m})},
          {"cond", Tensor::scalar(ir::DataType::Bool, cond)},
          {"y0", Tensor::floats({2}, {1, -10})},
          {"x", Tensor::floats({2}, {0.5f, 2})},
          {"keep_going", Tensor::scalar(ir::DataType::Bool, keepGoing)}};
}

std::optional<Tensor> readNpy(const QString& path) {
  try {
    return eval::readNpyFile(path.toStdString());
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Runs `node` through the evaluator's kernel and, as a model-local function, through libonnx's function body for
// its op (what the runner falls back to when no kernel exists), and compares the two.
void checkBodyAgainstKernel(const onnx::NodeProto& node, int64_t opset,
                            const std::vector<std::pair<std::string, Tensor>>& inputsByName) {
  const std::string op = node.op_type();
  std::vector<onnx::ValueInfoProto> inputs;
  std::map<std::string, Value> feeds;
  for (const auto& [name, t] : inputsByName) {
    inputs.push_back(tensorInfo(name, kFloat, t.dims()));
    feeds[name] = t;
  }
  auto byKernel = model(graph(op, {node}, inputs, {untyped("y")}), opset);
  const Value want = eval::runModel(*byKernel, feeds).outputs[0].second;

  // The same node calling libonnx's body of the op, run as a model-local function.
  std::vector<const Value*> args;
  for (const auto& [name, t] : inputsByName) args.push_back(&feeds[name]);
  auto f = eval::buildSchemaFunction(*byKernel->graph().nodes().front(), args, opset);
  QVERIFY2(f, op.c_str());
  onnx::NodeProto call = node;
  call.set_op_type("Body");
  call.set_domain("test.schema_body");
  auto byBody = model(graph(op + "_body", {call}, inputs, {untyped("y")}), opset);
  ir::Function body;
  body.name = "Body";
  body.domain = "test.schema_body";
  body.opsets.push_back({"", f->opset});
  body.body = f->body->clone();
  byBody->functions.push_back(std::move(body));
  const Value got = eval::runModel(*byBody, feeds).outputs[0].second;

  QCOMPARE(got.tensor().dims(), want.tensor().dims());
  QCOMPARE(got.tensor().dtype(), want.tensor().dtype());
  const auto g = got.tensor().toDoubles(), w = want.tensor().toDoubles();
  for (size_t k = 0; k < w.size(); ++k)
    QVERIFY2(std::fabs(g[k] - w[k]) <= 1e-5 + 1e-4 * std::fabs(w[k]),
             qPrintable(QString("%1 element %2: the body gives %3, the kernel %4")
                            .arg(QString::fromStdString(op))
                            .arg(k)
                            .arg(g[k])
                            .arg(w[k])));
}

}  // namespace

class EvalControlFlow : public QObject {
  Q_OBJECT
 private slots:
  void loopCarriesScansAndReadsTheOuterScope();
  void loopWithoutIterationsGivesItsInitialValues();
  void loopStopsOnTheBodysCondition();
  void loopThatNeverEndsIsStoppedAtTheLimit();
  void loopIsCancelledBetweenIterations();
  void ifRunsTheChosenBranch();
  void valuesOnlyABodyReadsAreFreedAfterIt();
  void loopScanOutputsOfChangingShapeAreRefused();
  void scan9ReadsAndWritesAlongAxesAndDirections();
  void scan8ScansEachBatchEntryForItsLength();
  void sequenceOpsEditAndJoin();
  void sequenceMapRunsTheBodyPerItem();
  void optionalsWrapTestAndUnwrap();
  void schemaFunctionBodiesBindAttributes();
  void schemaFunctionBodiesComputeWhatTheKernelsDo();
  void torchLoopsMatchOnnxRuntime();
};

void EvalControlFlow::loopCarriesScansAndReadsTheOuterScope() {
  auto m = accumulatingLoop(true, true);
  auto r = eval::runModel(*m, loopInputs(3, true, true));
  QCOMPARE(valuesOf(output(r, "y_final")), (std::vector<double>{2.5, -4}));
  const Tensor& scanned = output(r, "y_scanned").tensor();
  QCOMPARE(scanned.dims(), (std::vector<int64_t>{3, 2}));
  QCOMPARE(scanned.toDoubles(), (std::vector<double>{1.5, 0, 2, 0, 2.5, 0}));
}

void EvalControlFlow::loopWithoutIterationsGivesItsInitialValues() {
  auto m = accumulatingLoop(true, true);
  auto r = eval::runModel(*m, loopInputs(0, true, true));
  QCOMPARE(valuesOf(output(r, "y_final")), (std::vector<double>{1, -10}));
  QCOMPARE(output(r, "y_scanned").tensor().dims(), (std::vector<int64_t>{0, 2}));  // as the body declares it
  auto notEntered = eval::runModel(*m, loopInputs(5, false, true));
  QCOMPARE(valuesOf(output(notEntered, "y_final")), (std::vector<double>{1, -10}));
}

void EvalControlFlow::loopStopsOnTheBodysCondition() {
  auto m = accumulatingLoop(true, true);
  auto r = eval::runModel(*m, loopInputs(100, true, false));  // do-while: one pass, then the body says stop
  QCOMPARE(valuesOf(output(r, "y_final")), (std::vector<double>{1.5, -8}));
  QCOMPARE(output(r, "y_scanned").tensor().dims(), (std::vector<int64_t>{1, 2}));
}

void EvalControlFlow::loopThatNeverEndsIsStoppedAtTheLimit() {
  auto m = accumulatingLoop(false, false);
  eval::RunOptions o;
  o.maxLoopIterations = 50;
  try {
    eval::runModel(*m, loopInputs(0, true, true), o);
    QFAIL("a Loop with no trip count and a condition that stays true ran to an end");
  } catch (const eval::RunError& e) {
    QCOMPARE(e.kind(), eval::RunError::Kind::BadInput);
    QVERIFY2(std::string(e.what()).find("50 iterations") != std::string::npos, e.what());
    QVERIFY2(e.node().find("(Loop)") != std::string::npos, e.node().c_str());
  }
}

void EvalControlFlow::loopIsCancelledBetweenIterations() {
  auto m = accumulatingLoop(false, false);
  std::atomic<bool> cancel{false};
  eval::RunOptions o;
  o.cancel = &cancel;
  o.maxLiveBytes = uint64_t{1} << 32;  // the scanned outputs of millions of iterations, were it not cancelled
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  std::optional<eval::RunError::Kind> kind;
  try {
    eval::runModel(*m, loopInputs(0, true, true), o);
  } catch (const eval::RunError& e) {
    kind = e.kind();
  }
  canceller.join();
  QVERIFY(kind.has_value());
  QCOMPARE(*kind, eval::RunError::Kind::Cancelled);
}

void EvalControlFlow::ifRunsTheChosenBranch() {
  onnx::GraphProto thenBranch = graph("then", {node("Add", {"a", "b"}, {"sum"})}, {}, {untyped("sum")});
  onnx::GraphProto elseBranch =
      graph("else", {node("SequenceConstruct", {"a", "b"}, {"both"}), node("SequenceAt", {"both", "last"}, {"picked"})},
            {}, {untyped("picked")});
  onnx::NodeProto n = node("If", {"c"}, {"out"});
  withGraph(n, "then_branch", thenBranch);
  withGraph(n, "else_branch", elseBranch);
  auto m = model(graph("if", {n},
                       {tensorInfo("c", kBool, {1}), tensorInfo("a", kFloat, {2}), tensorInfo("b", kFloat, {2}),
                        tensorInfo("last", kInt64, {})},
                       {untyped("out")}),
                 13);
  std::map<std::string, Value> in{
      {"a", Tensor::floats({2}, {1, 2})}, {"b", Tensor::floats({2}, {10, 20})}, {"last", Tensor::int64s({}, {-1})}};
  in["c"] = Value(Tensor::scalar(ir::DataType::Bool, 1).reshaped({1}));
  QCOMPARE(valuesOf(eval::runModel(*m, in).outputs[0].second), (std::vector<double>{11, 22}));
  in["c"] = Value(Tensor::scalar(ir::DataType::Bool, 0).reshaped({1}));
  QCOMPARE(valuesOf(eval::runModel(*m, in).outputs[0].second), (std::vector<double>{10, 20}));

  in["last"] = Tensor::int64s({}, {5});  // a failure inside the branch names the If and the node in it
  try {
    eval::runModel(*m, in);
    QFAIL("SequenceAt of position 5 in a sequence of 2 succeeded");
  } catch (const eval::RunError& e) {
    QVERIFY2(e.node().find("(If) > node 'SequenceAt_picked' (SequenceAt)") != std::string::npos, e.node().c_str());
  }
}

void EvalControlFlow::valuesOnlyABodyReadsAreFreedAfterIt() {
  // a = x + x is read only inside the If's branches: once the If has run it is dead, so at most two of the
  // equally sized a, r, b, c are ever held at once (three if `a` lived to the end of the run).
  onnx::GraphProto thenBranch = graph("then", {node("Relu", {"a"}, {"then_r"})}, {}, {untyped("then_r")});
  onnx::GraphProto elseBranch = graph("else", {node("Add", {"a", "a"}, {"else_r"})}, {}, {untyped("else_r")});
  onnx::NodeProto choose = node("If", {"c"}, {"r"});
  withGraph(choose, "then_branch", thenBranch);
  withGraph(choose, "else_branch", elseBranch);
  constexpr int64_t n = 1 << 18;
  auto m = model(graph("free",
                       {node("Add", {"x", "x"}, {"a"}), choose, node("Add", {"r", "r"}, {"b"}),
                        node("Add", {"b", "b"}, {"d"}), node("Relu", {"d"}, {"y"})},
                       {tensorInfo("x", kFloat, {n}), tensorInfo("c", kBool, {})}, {untyped("y")}),
                 13);
  auto r = eval::runModel(
      *m, {{"x", Tensor::floats({n}, std::vector<float>(n, 1.f))}, {"c", Tensor::scalar(ir::DataType::Bool, 1)}});
  QCOMPARE(r.outputs[0].second.tensor().doubleAt(n - 1), 8.0);
  const uint64_t unit = n * sizeof(float);
  QVERIFY2(r.peakBytes < unit * 5 / 2,
           qPrintable(QString("peak %1 bytes for tensors of %2").arg(r.peakBytes).arg(unit)));
}

void EvalControlFlow::loopScanOutputsOfChangingShapeAreRefused() {
  onnx::NodeProto grow = node("Concat", {"y_in", "x"}, {"y_out"});
  withInt(grow, "axis", 0);
  onnx::GraphProto body =
      graph("body", {grow}, {tensorInfo("i", kInt64, {}), tensorInfo("cond_in", kBool, {}), untyped("y_in")},
            {untyped("cond_in"), untyped("y_out"), untyped("y_out")});
  onnx::NodeProto loop = node("Loop", {"M", "", "y0"}, {"y_final", "y_scanned"});
  withGraph(loop, "body", body);
  auto m = model(
      graph("grow", {loop}, {tensorInfo("M", kInt64, {}), tensorInfo("y0", kFloat, {1}), tensorInfo("x", kFloat, {1})},
            {untyped("y_final"), untyped("y_scanned")}),
      13);
  try {
    eval::runModel(*m,
                   {{"M", Tensor::int64s({}, {3})}, {"y0", Tensor::floats({1}, {0})}, {"x", Tensor::floats({1}, {1})}});
    QFAIL("scan outputs of shapes [2], [3], [4] were stacked");
  } catch (const eval::RunError& e) {
    QCOMPARE(e.kind(), eval::RunError::Kind::BadInput);
    QVERIFY2(std::string(e.what()).find("iteration 1 gives float32[3]") != std::string::npos ||
                 std::string(e.what()).find("iteration 1 gives float[3]") != std::string::npos,
             e.what());
  }
}

void EvalControlFlow::scan9ReadsAndWritesAlongAxesAndDirections() {
  onnx::GraphProto body = graph("body", {node("Add", {"s_in", "x_t"}, {"s_out"}), node("Relu", {"s_out"}, {"z_t"})},
                                {tensorInfo("s_in", kFloat, {2}), tensorInfo("x_t", kFloat, {2})},
                                {untyped("s_out"), tensorInfo("z_t", kFloat, {2})});
  onnx::NodeProto n = node("Scan", {"s0", "x"}, {"s_final", "z"});
  withGraph(n, "body", body);
  withInt(n, "num_scan_inputs", 1);
  withInts(n, "scan_input_axes", {1});
  withInts(n, "scan_input_directions", {1});
  withInts(n, "scan_output_axes", {-1});
  withInts(n, "scan_output_directions", {1});
  auto m = model(graph("scan", {n}, {tensorInfo("s0", kFloat, {2}), tensorInfo("x", kFloat, {2, -1})},
                       {untyped("s_final"), untyped("z")}),
                 11);
  auto r =
      eval::runModel(*m, {{"s0", Tensor::floats({2}, {0, 0})}, {"x", Tensor::floats({2, 3}, {1, 2, 3, 10, 20, 30})}});
  // Columns read last to first: states [3,30], [5,50], [6,60]; written last to first along the last axis.
  QCOMPARE(valuesOf(output(r, "s_final")), (std::vector<double>{6, 60}));
  QCOMPARE(output(r, "z").tensor().dims(), (std::vector<int64_t>{2, 3}));
  QCOMPARE(valuesOf(output(r, "z")), (std::vector<double>{6, 5, 3, 60, 50, 30}));

  // No columns: the states come back as given, the scan output has no entries along its axis.
  auto none = eval::runModel(*m, {{"s0", Tensor::floats({2}, {4, 5})}, {"x", Tensor::floats({2, 0}, {})}});
  QCOMPARE(valuesOf(output(none, "s_final")), (std::vector<double>{4, 5}));
  QCOMPARE(output(none, "z").tensor().dims(), (std::vector<int64_t>{2, 0}));
}

void EvalControlFlow::scan8ScansEachBatchEntryForItsLength() {
  onnx::GraphProto body = graph("body", {node("Add", {"s_in", "x_t"}, {"s_out"}), node("Relu", {"s_out"}, {"z_t"})},
                                {tensorInfo("s_in", kFloat, {1}), tensorInfo("x_t", kFloat, {1})},
                                {untyped("s_out"), tensorInfo("z_t", kFloat, {1})});
  onnx::NodeProto n = node("Scan", {"lens", "s0", "x"}, {"s_final", "z"});
  withGraph(n, "body", body);
  withInt(n, "num_scan_inputs", 1);
  auto m = model(
      graph("scan8", {n},
            {tensorInfo("lens", kInt64, {2}), tensorInfo("s0", kFloat, {2, 1}), tensorInfo("x", kFloat, {2, 3, 1})},
            {untyped("s_final"), untyped("z")}),
      8);
  auto r = eval::runModel(*m, {{"lens", Tensor::int64s({2}, {3, 1})},
                               {"s0", Tensor::floats({2, 1}, {0, 0})},
                               {"x", Tensor::floats({2, 3, 1}, {1, 2, 3, 4, 5, 6})}});
  // What ONNX Runtime gives: the second entry stops after one step and its later outputs are zeros.
  QCOMPARE(valuesOf(output(r, "s_final")), (std::vector<double>{6, 4}));
  QCOMPARE(output(r, "z").tensor().dims(), (std::vector<int64_t>{2, 3, 1}));
  QCOMPARE(valuesOf(output(r, "z")), (std::vector<double>{1, 3, 6, 4, 0, 0}));
}

void EvalControlFlow::sequenceOpsEditAndJoin() {
  onnx::NodeProto split = node("SplitToSequence", {"x", "two"}, {"parts"});
  withInt(split, "axis", 1);
  onnx::NodeProto rows = node("SplitToSequence", {"x"}, {"rows"});
  withInt(rows, "keepdims", 0);
  onnx::NodeProto stack = node("ConcatFromSequence", {"rows"}, {"stacked"});
  withInt(stack, "axis", -1);
  withInt(stack, "new_axis", 1);
  onnx::NodeProto joinBack = node("ConcatFromSequence", {"edited"}, {"joined"});
  withInt(joinBack, "axis", 1);
  auto m =
      model(graph("seq",
                  {split, node("SequenceLength", {"parts"}, {"count"}), node("SequenceAt", {"parts", "last"}, {"tail"}),
                   node("SequenceInsert", {"parts", "tail", "first"}, {"inserted"}),
                   node("SequenceErase", {"inserted", "last"}, {"edited"}), joinBack, rows, stack},
                  {tensorInfo("x", kFloat, {2, 3}), tensorInfo("two", kInt64, {}), tensorInfo("last", kInt64, {}),
                   tensorInfo("first", kInt64, {})},
                  {untyped("count"), untyped("tail"), untyped("joined"), untyped("stacked")}),
            13);
  std::map<std::string, Value> in{{"x", Tensor::floats({2, 3}, {1, 2, 3, 4, 5, 6})},
                                  {"two", Tensor::int64s({}, {2})},
                                  {"last", Tensor::int64s({}, {-1})},
                                  {"first", Tensor::int64s({}, {0})}};
  auto r = eval::runModel(*m, in);
  QCOMPARE(valuesOf(output(r, "count")), (std::vector<double>{2}));  // columns 0-1 and column 2
  QCOMPARE(output(r, "tail").tensor().dims(), (std::vector<int64_t>{2, 1}));
  QCOMPARE(valuesOf(output(r, "tail")), (std::vector<double>{3, 6}));
  // [col2, cols0-1, col2] with the last erased: col2 then cols 0-1.
  QCOMPARE(valuesOf(output(r, "joined")), (std::vector<double>{3, 1, 2, 6, 4, 5}));
  // Rows without their axis, stacked along a new last axis: the transpose.
  QCOMPARE(output(r, "stacked").tensor().dims(), (std::vector<int64_t>{3, 2}));
  QCOMPARE(valuesOf(output(r, "stacked")), (std::vector<double>{1, 4, 2, 5, 3, 6}));

  in["last"] = Tensor::int64s({}, {2});  // SequenceAt of position 2 in a sequence of 2
  try {
    eval::runModel(*m, in);
    QFAIL("a position past the end was accepted");
  } catch (const eval::RunError& e) {
    QCOMPARE(e.kind(), eval::RunError::Kind::BadInput);
    QVERIFY2(std::string(e.what()).find("outside a sequence of 2") != std::string::npos, e.what());
  }
}

void EvalControlFlow::sequenceMapRunsTheBodyPerItem() {
  onnx::GraphProto body = graph("body", {node("Add", {"item", "offset"}, {"shifted"})},
                                {untyped("item"), untyped("offset")}, {untyped("shifted")});
  onnx::NodeProto map = node("SequenceMap", {"items", "bias"}, {"mapped"});
  withGraph(map, "body", body);
  onnx::NodeProto split = node("SplitToSequence", {"x"}, {"items"});
  auto m = model(graph("map", {split, map}, {tensorInfo("x", kFloat, {3}), tensorInfo("bias", kFloat, {1})},
                       {sequenceInfo("mapped", kFloat)}),
                 17);
  auto r = eval::runModel(*m, {{"x", Tensor::floats({3}, {1, 2, 3})}, {"bias", Tensor::floats({1}, {10})}});
  const auto& items = r.outputs[0].second.items();
  QCOMPARE(items.size(), size_t{3});
  QCOMPARE(items[2].toDoubles(), (std::vector<double>{13}));
  QCOMPARE(items[0].toDoubles(), (std::vector<double>{11}));
}

void EvalControlFlow::optionalsWrapTestAndUnwrap() {
  onnx::NodeProto emptyOptional = node("Optional", {}, {"nothing"});
  auto* type = emptyOptional.add_attribute();
  type->set_name("type");
  type->set_type(onnx::AttributeProto::TYPE_PROTO);
  type->mutable_tp()->mutable_tensor_type()->set_elem_type(kFloat);
  auto m =
      model(graph("opt",
                  {emptyOptional, node("Optional", {"x"}, {"held"}), node("OptionalHasElement", {"nothing"}, {"no"}),
                   node("OptionalHasElement", {"held"}, {"yes"}), node("OptionalGetElement", {"held"}, {"back"})},
                  {tensorInfo("x", kFloat, {2})}, {untyped("no"), untyped("yes"), untyped("back")}),
            15);
  auto r = eval::runModel(*m, {{"x", Tensor::floats({2}, {7, 8})}});
  QCOMPARE(valuesOf(output(r, "no")), (std::vector<double>{0}));
  QCOMPARE(valuesOf(output(r, "yes")), (std::vector<double>{1}));
  QCOMPARE(valuesOf(output(r, "back")), (std::vector<double>{7, 8}));

  auto unwrapEmpty = model(
      graph("get", {emptyOptional, node("OptionalGetElement", {"nothing"}, {"what"})}, {}, {untyped("what")}), 15);
  QVERIFY_THROWS_EXCEPTION(eval::RunError, eval::runModel(*unwrapEmpty, {}));
}

void EvalControlFlow::schemaFunctionBodiesBindAttributes() {
  // MeanVarianceNormalization-13's body reduces over its `axes`, whose default [0, 2, 3] the caller omits.
  auto mvn = model(graph("mvn", {node("MeanVarianceNormalization", {"x"}, {"y"})},
                         {tensorInfo("x", kFloat, {1, 2, 2, 2})}, {untyped("y")}),
                   13);
  const ir::Node& caller = *mvn->graph().nodes().front();
  Value x = Tensor::floats({1, 2, 2, 2}, std::vector<float>(8, 1.f));
  auto f = eval::buildSchemaFunction(caller, {&x}, 13);
  QVERIFY(f);
  QCOMPARE(f->body->inputs().size(), size_t{1});
  bool reduces = false;
  for (const auto& n : f->body->nodes())
    if (n->opType == "ReduceMean") {
      reduces = true;
      QCOMPARE(n->attrInts("axes"), (std::vector<int64_t>{0, 2, 3}));
    }
  QVERIFY(reduces);

  // Softmax-13's body is built from the node (context-dependent): its axis reaches the body's ReduceMax.
  onnx::NodeProto softmax = node("Softmax", {"x"}, {"y"});
  withInt(softmax, "axis", 2);
  auto sm = model(graph("softmax", {softmax}, {tensorInfo("x", kFloat, {1, 2, 2, 2})}, {untyped("y")}), 13);
  auto g = eval::buildSchemaFunction(*sm->graph().nodes().front(), {&x}, 13);
  QVERIFY(g);
  bool axisBound = false;
  for (const auto& n : g->body->nodes())
    if (n->opType == "ReduceMax") axisBound = n->attrInts("axes") == std::vector<int64_t>{2};
  QVERIFY(axisBound);

  // HardSwish's meaning changed at opset 22, past libonnx 1.12's schemas: no body for it there.
  auto hs = model(graph("hs", {node("HardSwish", {"x"}, {"y"})}, {tensorInfo("x", kFloat, {2})}, {untyped("y")}), 14);
  QVERIFY(eval::buildSchemaFunction(*hs->graph().nodes().front(), {&x}, 14));
  QVERIFY(!eval::buildSchemaFunction(*hs->graph().nodes().front(), {&x}, 22));
  // An op libonnx defines no function for.
  auto relu = model(graph("relu", {node("Relu", {"x"}, {"y"})}, {tensorInfo("x", kFloat, {2})}, {untyped("y")}), 14);
  QVERIFY(!eval::buildSchemaFunction(*relu->graph().nodes().front(), {&x}, 14));
}

void EvalControlFlow::schemaFunctionBodiesComputeWhatTheKernelsDo() {
  struct Case {
    onnx::NodeProto node;
    int64_t opset;
    std::vector<std::pair<std::string, Tensor>> inputs;
  };
  std::vector<float> ramp(24);
  for (size_t k = 0; k < ramp.size(); ++k) ramp[k] = 0.37f * static_cast<float>(k) - 3.1f;
  const Tensor x = Tensor::floats({2, 3, 4}, ramp);
  std::vector<Case> cases;
  cases.push_back({node("MeanVarianceNormalization", {"x"}, {"y"}), 13, {{"x", x.reshaped({1, 2, 3, 4})}}});
  cases.push_back({node("Softmax", {"x"}, {"y"}), 13, {{"x", x}}});
  withInt(cases.back().node, "axis", 1);
  cases.push_back(
      {node("LayerNormalization", {"x", "scale", "bias"}, {"y"}),
       17,
       {{"x", x}, {"scale", Tensor::floats({4}, {1, 2, 0.5f, -1})}, {"bias", Tensor::floats({4}, {0, 1, 2, 3})}}});
  cases.push_back({node("Celu", {"x"}, {"y"}), 12, {{"x", x}}});
  auto* alpha = cases.back().node.add_attribute();
  alpha->set_name("alpha");
  alpha->set_type(onnx::AttributeProto::FLOAT);
  alpha->set_f(2.f);
  cases.push_back({node("HardSwish", {"x"}, {"y"}), 14, {{"x", x}}});
  cases.push_back(
      {node("GreaterOrEqual", {"x", "t"}, {"y"}), 16, {{"x", x}, {"t", Tensor::floats({4}, {0, -1, 1, 0})}}});
  // Range's body is a Loop: this family's Loop inside a function body.
  cases.push_back({node("Range", {"start", "limit", "delta"}, {"y"}),
                   11,
                   {{"start", Tensor::floats({}, {1.5f})},
                    {"limit", Tensor::floats({}, {-4})},
                    {"delta", Tensor::floats({}, {-1.25f})}}});

  for (Case& c : cases) {
    const std::string op = c.node.op_type();
    try {
      checkBodyAgainstKernel(c.node, c.opset, c.inputs);
    } catch (const eval::RunError& e) {
      QFAIL(qPrintable(QString::fromStdString(op + ": " + e.node() + ": " + e.what())));
    }
    if (QTest::currentTestFailed()) return;
  }
}

void EvalControlFlow::torchLoopsMatchOnnxRuntime() {
  QVERIFY2(test::oracleInstalled(), "tests/oracle/install.sh has not run");
  const QString dir = test::scratchDir("eval_control_flow_torch");
  QProcess make;
  make.start("/usr/bin/python3", {QStringLiteral(FB_SOURCE_DIR "/tests/eval/make_torch_control_flow.py"), dir});
  QVERIFY(make.waitForFinished(300000));
  QVERIFY2(make.exitCode() == 0, make.readAllStandardError().constData());

  auto x = readNpy(dir + "/x.npy");
  auto steps = readNpy(dir + "/steps.npy");
  QVERIFY(x && steps);
  for (const QString name : {"loop", "sequence"}) {
    QProcess ort;
    ort.setWorkingDirectory(test::oracleDir());
    ort.start("node", {test::oracleDir() + "/run_npy.mjs", dir + "/" + name + ".onnx", dir + "/ort_" + name,
                       dir + "/x.npy", dir + "/steps.npy"});
    QVERIFY(ort.waitForFinished(300000));
    QVERIFY2(ort.exitCode() == 0, ort.readAllStandardError().constData());

    onnx::ModelProto proto;
    std::ifstream in((dir + "/" + name + ".onnx").toStdString(), std::ios::binary);
    QVERIFY(proto.ParseFromIstream(&in));
    onnxfmt::ImportOptions opts;
    opts.modelPath = name.toStdString();
    std::unique_ptr<ir::Model> m = onnxfmt::importModel(proto, opts);
    bool hasLoop = false;
    for (const auto& n : m->graph().nodes()) hasLoop = hasLoop || n->opType == "Loop";
    QVERIFY2(hasLoop, qPrintable(name));
    eval::RunResult r;
    try {
      r = eval::runModel(*m, {{"x", *x}, {"steps", *steps}});
    } catch (const eval::RunError& e) {
      QFAIL(qPrintable(name + ": " + QString::fromStdString(e.node() + ": " + e.what())));
    }
    for (size_t o = 0; o < r.outputs.size(); ++o) {
      auto expected = readNpy(QString("%1/ort_%2/%3.npy").arg(dir, name).arg(o));
      QVERIFY(expected);
      const Tensor& got = r.outputs[o].second.tensor();
      QCOMPARE(got.dims(), expected->dims());
      const auto g = got.toDoubles(), w = expected->toDoubles();
      for (size_t k = 0; k < w.size(); ++k)
        QVERIFY2(std::fabs(g[k] - w[k]) <= 1e-4 + 1e-3 * std::fabs(w[k]),
                 qPrintable(QString("%1 output %2 element %3: %4 where ONNX Runtime gives %5")
                                .arg(name)
                                .arg(o)
                                .arg(k)
                                .arg(g[k])
                                .arg(w[k])));
    }
  }
}

QTEST_GUILESS_MAIN(EvalControlFlow)
#include "test_eval_control_flow.moc"
