#pragma once
// Builds small models for the pass tests, and compares a model's outputs before and after a rewrite with
// FlowBridge's own reference kernels (core/eval), so numerics are checked without a runtime.
#include <QtTest>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "eval/interpreter.h"
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
inline std::map<std::string, eval::Array> randomInputs(const ir::Model& m, unsigned seed = 7) {
  std::map<std::string, eval::Array> in;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  for (ir::Value* v : m.graph().inputs()) {
    if (v->initializer()) continue;
    std::vector<int64_t> dims;
    for (const auto& d : v->type.shape.value()) dims.push_back(d.isValue() ? d.value : 2);
    eval::Array a = eval::Array::zeros(v->type.elemType, dims);
    for (size_t k = 0; k < a.size(); ++k) {
      if (a.isFloat())
        a.f[k] = static_cast<float>(dist(rng));
      else
        a.i[k] = static_cast<int64_t>(dist(rng) * 2);
    }
    in[v->name()] = a;
  }
  return in;
}

// Every output element within 1e-4 + 1e-3 * |reference| of the reference model's.
inline void compareOutputs(const ir::Model& reference, const ir::Model& optimized) {
  auto inputs = randomInputs(reference);
  std::map<std::string, eval::Array> a, b;
  try {
    a = eval::runGraph(reference, inputs);
    b = eval::runGraph(optimized, inputs);
  } catch (const std::exception& e) {
    QFAIL(e.what());
  }
  QCOMPARE(b.size(), a.size());
  for (const auto& [name, ref] : a) {
    QVERIFY2(b.count(name), ("output missing after the rewrite: " + name).c_str());
    const auto& got = b.at(name);
    QCOMPARE(got.dims, ref.dims);
    QCOMPARE(got.size(), ref.size());
    for (size_t k = 0; k < ref.size(); ++k) {
      double d = std::abs(got.getD(k) - ref.getD(k));
      if (!(d <= 1e-4 + 1e-3 * std::abs(ref.getD(k))))
        QFAIL(qPrintable(QString("output %1 element %2: %3 vs reference %4")
                             .arg(QString::fromStdString(name))
                             .arg(k)
                             .arg(got.getD(k))
                             .arg(ref.getD(k))));
    }
  }
}

}  // namespace fb::test
