// The evaluator's runner (core/eval/runtime): what a run keeps and frees, progress, cancel, the memory budget,
// execution order, model-local functions, and the one-line errors for inputs and ops it cannot take. The kernels
// themselves are proved by test_eval_node_suite.
#include <QtTest>

#include <atomic>
#include <cstring>

#include "eval/runtime/node_eval.h"
#include "eval/runtime/run.h"
#include "eval/verify/seeded_inputs.h"
#include "eval/verify/value_diff.h"
#include "formats/model_io.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "support/helpers.h"

using namespace fb;

namespace {

ir::Value* floatInput(ir::Graph& g, const std::string& name, std::vector<int64_t> dims) {
  ir::Value* v = g.getOrCreateValue(name);
  ir::Shape s;
  for (int64_t d : dims) s.push_back(ir::Dim::of(d));
  v->type = ir::TypeInfo::tensor(ir::DataType::Float, s);
  g.addInput(v);
  return v;
}

// x -> Relu -> r0 -> Relu -> r1 ... -> r{n-1} = y (graph output)
std::unique_ptr<ir::Model> reluChain(int n, int64_t elements) {
  auto m = std::make_unique<ir::Model>();
  m->setOpsetVersion("", 17);
  ir::Graph& g = m->graph();
  ir::Value* cur = floatInput(g, "x", {elements});
  for (int k = 0; k < n; ++k) {
    ir::Value* next = g.getOrCreateValue("r" + std::to_string(k));
    g.addNode("Relu", {cur}, {next})->name = "relu" + std::to_string(k);
    cur = next;
  }
  g.addOutput(cur);
  return m;
}

eval::Tensor ramp(int64_t n, float start) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) v[k] = start + static_cast<float>(k);
  return eval::Tensor::floats({n}, v);
}

}  // namespace

class TestEvalRunner : public QObject {
  Q_OBJECT
 private slots:
  void computesThroughTheChain() {
    auto m = reluChain(3, 4);
    auto r = eval::runModel(*m, {{"x", eval::Value(ramp(4, -2))}});
    QCOMPARE(r.outputs.size(), size_t{1});
    QCOMPARE(r.outputs[0].first, std::string("r2"));
    const eval::Tensor& y = r.outputs[0].second.tensor();
    QCOMPARE(y.dtype(), ir::DataType::Float);
    QCOMPARE(y.dims(), std::vector<int64_t>{4});
    QCOMPARE(y.toDoubles(), (std::vector<double>{0, 0, 0, 1}));
    QVERIFY(r.kept.empty());
  }

  void keepsWhatIsAsked() {
    auto m = reluChain(4, 4);
    eval::RunOptions all;
    all.keep = eval::RunOptions::Keep::All;
    auto r = eval::runModel(*m, {{"x", eval::Value(ramp(4, -2))}}, all);
    QCOMPARE(r.kept.size(), size_t{3});  // r0..r2; r3 is the output
    QCOMPARE(r.kept[0].first, std::string("r0"));
    eval::RunOptions listed;
    listed.keep = eval::RunOptions::Keep::Listed;
    listed.keepValues = {"r1"};
    r = eval::runModel(*m, {{"x", eval::Value(ramp(4, -2))}}, listed);
    QCOMPARE(r.kept.size(), size_t{1});
    QCOMPARE(r.kept[0].first, std::string("r1"));
  }

  // With values freed after their last reader, a chain of 12 nodes on 4 MB tensors holds two at a time; keeping
  // every value holds all twelve.
  void freesEachValueAfterItsLastReader() {
    const int64_t n = 1 << 20;
    auto m = reluChain(12, n);
    eval::Value x(ramp(n, 0));
    auto freed = eval::runModel(*m, {{"x", x}});
    QVERIFY2(freed.peakBytes <= 2 * 4 * n, qPrintable(QString::number(freed.peakBytes)));
    eval::RunOptions all;
    all.keep = eval::RunOptions::Keep::All;
    auto kept = eval::runModel(*m, {{"x", x}}, all);
    QVERIFY2(kept.peakBytes >= 12 * 4 * n, qPrintable(QString::number(kept.peakBytes)));
  }

  void reportsProgressAndCancels() {
    auto m = reluChain(5, 4);
    std::vector<size_t> seen;
    eval::RunOptions o;
    o.progress = [&](size_t done, size_t total) {
      QCOMPARE(total, size_t{5});
      seen.push_back(done);
    };
    eval::runModel(*m, {{"x", eval::Value(ramp(4, 0))}}, o);
    QCOMPARE(seen, (std::vector<size_t>{1, 2, 3, 4, 5}));

    std::atomic<bool> cancel{false};
    o.cancel = &cancel;
    o.progress = [&](size_t done, size_t) {
      if (done == 2) cancel = true;
    };
    try {
      eval::runModel(*m, {{"x", eval::Value(ramp(4, 0))}}, o);
      QFAIL("a cancelled run returned");
    } catch (const eval::RunError& e) {
      QCOMPARE(e.kind(), eval::RunError::Kind::Cancelled);
    }
  }

  void stopsAtTheMemoryBudget() {
    auto m = reluChain(2, 1 << 16);
    eval::RunOptions o;
    o.maxLiveBytes = 100000;  // one 256 KB tensor does not fit
    try {
      eval::runModel(*m, {{"x", eval::Value(ramp(1 << 16, 0))}}, o);
      QFAIL("ran over its memory budget");
    } catch (const eval::RunError& e) {
      QCOMPARE(e.kind(), eval::RunError::Kind::BadInput);
      QVERIFY2(std::strstr(e.what(), "memory budget"), e.what());
      QCOMPARE(e.node(), std::string("node 'relu0' (Relu)"));
    }
  }

  void refusesInputsThatDoNotFit() {
    auto m = reluChain(1, 4);
    auto kindOf = [&](const std::map<std::string, eval::Value>& in, const char* needle) {
      try {
        eval::runModel(*m, in);
      } catch (const eval::RunError& e) {
        if (!std::strstr(e.what(), needle)) qWarning("%s", e.what());
        return std::strstr(e.what(), needle) ? e.kind() : eval::RunError::Kind::Cancelled;
      }
      return eval::RunError::Kind::Cancelled;
    };
    QCOMPARE(kindOf({{"x", eval::Value(ramp(5, 0))}}, "where the model declares float[4]"),
             eval::RunError::Kind::BadInput);
    QCOMPARE(kindOf({}, "no value given for the model's input 'x'"), eval::RunError::Kind::BadInput);
    QCOMPARE(kindOf({{"x", eval::Value(eval::Tensor::int64s({4}, {1, 2, 3, 4}))}}, "int64[4] where"),
             eval::RunError::Kind::BadInput);
    QCOMPARE(kindOf({{"x", eval::Value(ramp(4, 0))}, {"nope", eval::Value(ramp(4, 0))}}, "no input named 'nope'"),
             eval::RunError::Kind::BadInput);
  }

  void namesTheNodeWithoutAKernel() {
    auto m = reluChain(1, 4);
    ir::Graph& g = m->graph();
    ir::Value* z = g.getOrCreateValue("z");
    g.addNode("NoSuchOp", {g.findValue("r0")}, {z})->name = "mystery";
    g.addOutput(z);
    try {
      eval::runModel(*m, {{"x", eval::Value(ramp(4, 0))}});
      QFAIL("ran an op without a kernel");
    } catch (const eval::RunError& e) {
      QCOMPARE(e.kind(), eval::RunError::Kind::Unsupported);
      QCOMPARE(e.node(), std::string("node 'mystery' (NoSuchOp)"));
      QVERIFY2(std::strstr(e.what(), "at opset 17"), e.what());
    }
  }

  // Nodes stored out of order run in an order where each value exists before it is read; a cycle is refused.
  void ordersNodesAndRefusesCycles() {
    auto m = reluChain(3, 4);
    ir::Graph& g = m->graph();
    g.moveBefore(g.nodes().back().get(), g.nodes().front().get());
    auto r = eval::runModel(*m, {{"x", eval::Value(ramp(4, -1))}});
    QCOMPARE(r.outputs[0].second.tensor().toDoubles(), (std::vector<double>{0, 0, 1, 2}));

    g.nodes().front()->setInput(0, g.findValue("r2"));  // relu2 now reads its own output
    try {
      eval::runModel(*m, {{"x", eval::Value(ramp(4, -1))}});
      QFAIL("ran a cycle");
    } catch (const eval::RunError& e) {
      QVERIFY2(std::strstr(e.what(), "cycle"), e.what());
    }
  }

  // A node of a model-local function runs the function's body with the caller's inputs.
  void runsModelLocalFunctions() {
    auto m = std::make_unique<ir::Model>();
    m->setOpsetVersion("", 17);
    m->setOpsetVersion("custom", 1);
    ir::Function f;
    f.name = "AddRelu";
    f.domain = "custom";
    f.opsets = {{"", 17}};
    f.body = std::make_shared<ir::Graph>();
    ir::Value* a = f.body->getOrCreateValue("a");
    ir::Value* b = f.body->getOrCreateValue("b");
    f.body->addInput(a);
    f.body->addInput(b);
    ir::Value* s = f.body->getOrCreateValue("s");
    ir::Value* o = f.body->getOrCreateValue("o");
    f.body->addNode("Add", {a, b}, {s});
    f.body->addNode("Relu", {s}, {o});
    f.body->addOutput(o);
    m->functions.push_back(std::move(f));
    ir::Graph& g = m->graph();
    ir::Value* x = floatInput(g, "x", {3});
    ir::Value* y = floatInput(g, "y", {3});
    ir::Value* z = g.getOrCreateValue("z");
    g.addNode("AddRelu", {x, y}, {z}, "custom");
    g.addOutput(z);
    auto r = eval::runModel(*m, {{"x", eval::Value(ramp(3, -3))}, {"y", eval::Value(ramp(3, 1))}});
    QCOMPARE(r.outputs[0].second.tensor().toDoubles(), (std::vector<double>{0, 0, 2}));  // relu([-3,-2,-1] + [1,2,3])
  }

  // A Conv whose only reader is a Relu runs with the Relu fused (a oneDNN post-op), and the weights' copies
  // (aligned, reordered) are made on the first run and reused: squeezenet's Conv -> Relu pairs give the same outputs
  // on a second run, and with every value kept (nothing fused, each Relu run on its own).
  void fusedAndCachedRunsAgreeWithPlainOnes() {
    auto m = loadModel(test::corpusModel("squeezenet1_0_op11.onnx").toStdString());
    const auto inputs = eval::makeInputs(*m, {}, {}, 3).values;
    size_t calls = 0, last = 0;
    eval::RunOptions fused;
    fused.progress = [&](size_t done, size_t total) {
      ++calls;
      last = done;
      QCOMPARE(total, m->graph().nodeCount());
    };
    const auto first = eval::runModel(*m, inputs, fused);
    QCOMPARE(last, m->graph().nodeCount());  // the skipped Relus still count as done
    QVERIFY2(calls < m->graph().nodeCount(), "no Relu was fused");
    const auto second = eval::runModel(*m, inputs, fused);
    eval::RunOptions all;
    all.keep = eval::RunOptions::Keep::All;
    const auto plain = eval::runModel(*m, inputs, all);
    // Every Conv's output is kept there: none was fused.
    size_t convsKept = 0;
    for (const auto& n : m->graph().nodes())
      if (n->opType == "Conv")
        for (const auto& [name, value] : plain.kept) convsKept += name == n->output(0)->name();
    QCOMPARE(convsKept, size_t{26});
    for (const auto* other : {&second, &plain}) {
      QCOMPARE(other->outputs.size(), first.outputs.size());
      for (size_t k = 0; k < first.outputs.size(); ++k) {
        const auto d = eval::diffValues(first.outputs[k].second, other->outputs[k].second, eval::Tolerance{1e-6, 1e-5});
        QVERIFY2(d.agree, eval::toText(d).c_str());
      }
    }
  }

  void evaluatesOneNodeForFolding() {
    ir::Graph g;
    ir::Value* a = g.getOrCreateValue("a");
    ir::Value* b = g.getOrCreateValue("b");
    ir::Value* c = g.getOrCreateValue("c");
    ir::Node* n = g.addNode("Add", {a, b}, {c});
    QVERIFY(eval::canEvaluate(*n, 13));
    eval::Tensor x = eval::Tensor::int64s({2}, {int64_t{1} << 60, 3});
    eval::Tensor y = eval::Tensor::int64s({}, {1});
    auto out = eval::evaluateNode(*n, {&x, &y}, 13);
    QCOMPARE(out.size(), size_t{1});
    QCOMPARE(out[0].toInt64s(), (std::vector<int64_t>{(int64_t{1} << 60) + 1, 4}));  // exact beyond 2^53
  }
};

QTEST_GUILESS_MAIN(TestEvalRunner)
#include "test_eval_runner.moc"
