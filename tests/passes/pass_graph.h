#pragma once
// Builds small models for the pass tests, and compares a model's outputs before and after a rewrite with
// FlowBridge's own reference kernels (core/eval), so numerics are checked without a runtime.
#include <QtTest>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "eval/runtime/run.h"
#include "eval/runtime/value_conversion.h"
#include "ir/model.h"
#include "passes/pass_manager.h"

namespace fb::test {

struct GraphBuilder {
  std::unique_ptr<ir::Model> model = std::make_unique<ir::Model>();

  explicit GraphBuilder(int64_t opset) {
    model->irVersion = 8;
    model->setOpsetVersion("", opset);
    model->producerName = "test";
    model->graph().name = "test_graph";
  }
  ir::Graph& g() { return model->graph(); }

  static ir::TypeInfo type(ir::DataType dt, const std::vector<int64_t>& dims) {
    ir::Shape s;
    for (auto d : dims) s.push_back(ir::Dim::of(d));
    return ir::TypeInfo::tensor(dt, s);
  }
  ir::Value* input(const std::string& name, std::vector<int64_t> dims, ir::DataType dt = ir::DataType::Float) {
    ir::Value* v = g().getOrCreateValue(name);
    v->type = type(dt, dims);
    g().addInput(v);
    return v;
  }
  ir::Value* init(const std::string& name, std::vector<int64_t> dims, const std::vector<float>& data) {
    return g().addInitializer(ir::Tensor::fromValues<float>(name, ir::DataType::Float, dims, data));
  }
  ir::Value* ints(const std::string& name, const std::vector<int64_t>& data, bool scalar = false) {
    std::vector<int64_t> dims;
    if (!scalar) dims = {static_cast<int64_t>(data.size())};
    return g().addInitializer(ir::Tensor::fromValues<int64_t>(name, ir::DataType::Int64, dims, data));
  }
  // A float initializer with deterministic pseudo-random values in [lo, hi).
  ir::Value* random(const std::string& name, std::vector<int64_t> dims, float lo = -1.f, float hi = 1.f) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    std::mt19937 rng(static_cast<unsigned>(std::hash<std::string>()(name)));
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(static_cast<size_t>(n));
    for (auto& x : v) x = dist(rng);
    return init(name, dims, v);
  }
  ir::Node* node(const std::string& op, const std::vector<ir::Value*>& ins, const std::vector<std::string>& outs,
                 std::vector<ir::Attribute> attrs = {}) {
    std::vector<ir::Value*> o;
    for (const auto& n : outs) o.push_back(g().getOrCreateValue(n));
    ir::Node* n = g().addNode(op, ins, o);
    n->name = op + "_" + outs.at(0);
    n->origins = {n->id()};
    n->attributes = std::move(attrs);
    return n;
  }
  ir::Value* v(const std::string& name) { return g().findValue(name); }
  void output(const std::string& name, std::vector<int64_t> dims, ir::DataType dt = ir::DataType::Float) {
    ir::Value* v = g().getOrCreateValue(name);
    v->type = type(dt, dims);
    g().addOutput(v);
  }
};

inline size_t countOp(const ir::Model& m, const std::string& op) {
  size_t n = 0;
  for (const auto& node : m.graph().nodes()) n += node->opType == op;
  return n;
}

inline passes::PassManagerResult runPasses(ir::Model& m, const std::vector<std::string>& names) {
  passes::PassManager pm(names);
  return pm.run(m);
}

// Seeded inputs for every graph input of a float model.
inline std::map<std::string, eval::Value> randomInputs(const ir::Model& m, unsigned seed = 7) {
  std::map<std::string, eval::Value> in;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  for (ir::Value* v : m.graph().inputs()) {
    if (v->initializer()) continue;
    std::vector<int64_t> dims;
    int64_t n = 1;
    for (const auto& d : v->type.shape.value()) {
      dims.push_back(d.isValue() ? d.value : 2);
      n *= dims.back();
    }
    eval::Tensor d = eval::Tensor::empty(ir::DataType::Double, dims);
    const bool floating = ir::isFloatingPoint(v->type.elemType);
    for (int64_t k = 0; k < n; ++k) {
      const double x = dist(rng);
      d.mutableData<double>()[k] = floating ? static_cast<float>(x) : static_cast<double>(static_cast<int64_t>(x * 2));
    }
    in[v->name()] = eval::Value(eval::castTensor(d, v->type.elemType));
  }
  return in;
}

// Every output element within 1e-4 + 1e-3 * |reference| of the reference model's.
inline void compareOutputs(const ir::Model& reference, const ir::Model& optimized) {
  auto inputs = randomInputs(reference);
  eval::RunResult a, b;
  try {
    a = eval::runModel(reference, inputs);
    b = eval::runModel(optimized, inputs);
  } catch (const std::exception& e) {
    QFAIL(e.what());
  }
  QCOMPARE(b.outputs.size(), a.outputs.size());
  std::map<std::string, const eval::Tensor*> got;
  for (const auto& [name, v] : b.outputs) got[name] = &v.tensor();
  for (const auto& [name, refValue] : a.outputs) {
    QVERIFY2(got.count(name), ("output missing after the rewrite: " + name).c_str());
    const eval::Tensor& ref = refValue.tensor();
    const eval::Tensor& out = *got.at(name);
    QCOMPARE(out.dims(), ref.dims());
    for (int64_t k = 0; k < ref.size(); ++k) {
      const double d = std::abs(out.doubleAt(k) - ref.doubleAt(k));
      if (!(d <= 1e-4 + 1e-3 * std::abs(ref.doubleAt(k))))
        QFAIL(qPrintable(QString("output %1 element %2: %3 vs reference %4")
                             .arg(QString::fromStdString(name))
                             .arg(k)
                             .arg(out.doubleAt(k))
                             .arg(ref.doubleAt(k))));
    }
  }
}

}  // namespace fb::test
