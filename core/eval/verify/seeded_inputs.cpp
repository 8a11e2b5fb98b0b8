#include "eval/verify/seeded_inputs.h"

#include <random>

#include "eval/runtime/run_error.h"
#include "eval/runtime/value_conversion.h"
#include "ir/value.h"
#include "util/printable.h"

namespace fb::eval {

namespace {

// Uniform in [0, 1) from the top 53 bits: std::mt19937_64's sequence is fixed by the standard, the distributions'
// arithmetic is not, so it is done here.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

Tensor randomTensor(ir::DataType type, std::vector<int64_t> dims, std::mt19937_64& rng, const std::string& name) {
  if (type == ir::DataType::Int64 || type == ir::DataType::Int32 || type == ir::DataType::Int16 ||
      type == ir::DataType::Int8 || type == ir::DataType::UInt8 || type == ir::DataType::UInt16 ||
      type == ir::DataType::UInt32 || type == ir::DataType::UInt64) {
    Tensor t = Tensor::empty(ir::DataType::Int64, std::move(dims));
    auto* p = t.mutableData<int64_t>();
    for (int64_t k = 0; k < t.size(); ++k) p[k] = 1 + static_cast<int64_t>(unit(rng) * 3);
    return castTensor(t, type);
  }
  if (type == ir::DataType::Bool) {
    Tensor t = Tensor::empty(type, std::move(dims));
    auto* p = t.mutableData<uint8_t>();
    for (int64_t k = 0; k < t.size(); ++k) p[k] = unit(rng) < 0.5 ? 1 : 0;
    return t;
  }
  if (type == ir::DataType::Float || type == ir::DataType::Double || type == ir::DataType::Float16 ||
      type == ir::DataType::BFloat16) {
    Tensor t = Tensor::empty(ir::DataType::Float, std::move(dims));
    auto* p = t.mutableData<float>();
    for (int64_t k = 0; k < t.size(); ++k) p[k] = static_cast<float>(unit(rng) * 2 - 1);
    return castTensor(t, type);
  }
  badInput("input '" + name + "' is " + std::string(ir::dataTypeName(type)) +
           ": random values are made only for numbers and bools, give it with --input");
}

}  // namespace

std::vector<std::string> requiredInputs(const ir::Model& m) {
  std::vector<std::string> names;
  for (const ir::Value* v : m.graph().inputs())
    if (!v->initializer()) names.push_back(v->name());
  return names;
}

SeededInputs makeInputs(const ir::Model& m, const std::map<std::string, Value>& given,
                        const std::map<std::string, int64_t>& dims, uint64_t seed) {
  SeededInputs r;
  for (const auto& [name, value] : given) {
    const ir::Value* v = m.graph().findValue(name);
    if (!v || !v->isGraphInput()) badInput("the model has no input '" + printable(name) + "'");
    checkInputFits(*v, value);
    r.values.emplace(name, value);
  }
  // One generator per input, seeded from the seed and the input's position: an input given on the command line
  // does not change the values the others get.
  size_t position = 0;
  for (const ir::Value* v : m.graph().inputs()) {
    ++position;
    if (v->initializer() || r.values.count(v->name())) continue;
    const std::string name = printable(v->name());
    if (!v->type.isTensor()) badInput("input '" + name + "' is " + v->type.toString() + ": give it with --input");
    if (!v->type.shape) badInput("input '" + name + "' has no declared rank: give it with --input");
    std::vector<int64_t> shape;
    for (size_t k = 0; k < v->type.shape->size(); ++k) {
      const ir::Dim& d = (*v->type.shape)[k];
      if (d.isValue()) {
        shape.push_back(d.value);
      } else if (d.kind == ir::Dim::Kind::Param && dims.count(d.param.str())) {
        shape.push_back(dims.at(d.param.str()));
      } else {
        shape.push_back(1);
        r.notes.push_back("input '" + name + "': " +
                          (d.kind == ir::Dim::Kind::Param ? "dim '" + printable(d.param.str()) + "'"
                                                          : "unknown dim " + std::to_string(k)) +
                          " = 1 (not given with --dims)");
      }
    }
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + position);
    r.values.emplace(v->name(), Value(randomTensor(v->type.elemType, std::move(shape), rng, name)));
  }
  return r;
}

}  // namespace fb::eval
