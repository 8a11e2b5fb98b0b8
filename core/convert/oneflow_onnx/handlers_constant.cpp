// Ops that make tensors: constant and fill_ become initializers (their shapes are static in a compiled graph),
// arange is Range (opset 11; below it the node is unsupported: "needs opset 11"), cast is Cast.
#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::DataType;

template <typename T>
ir::Tensor filled(const std::string& name, DataType dt, const std::vector<int64_t>& dims, double v) {
  int64_t n = 1;
  for (auto d : dims) n *= d;
  return ir::Tensor::fromValues(name, dt, dims, std::vector<T>(static_cast<size_t>(n), static_cast<T>(v)));
}

ir::Tensor filledTensor(const std::string& name, DataType dt, const std::vector<int64_t>& dims, double v) {
  switch (dt) {
    case DataType::Double:
      return filled<double>(name, dt, dims, v);
    case DataType::Int64:
      return filled<int64_t>(name, dt, dims, v);
    case DataType::Int32:
      return filled<int32_t>(name, dt, dims, v);
    case DataType::Int8:
      return filled<int8_t>(name, dt, dims, v);
    case DataType::UInt8:
    case DataType::Bool:
      return filled<uint8_t>(name, dt, dims, v);
    case DataType::Float:
      return filled<float>(name, dt, dims, v);
    default:
      throw std::runtime_error("cannot fill a tensor of type " + std::string(ir::dataTypeName(dt)));
  }
}

// A new initializer; finish() puts an Identity in front of it that keeps the op output's name and uses.
ir::Value* asInitializerSource(OneflowOp& op, ir::Tensor t) {
  t.name = op.ctx().graph.uniqueName(op.node().name + "/value");
  return op.ctx().graph.addInitializer(std::move(t));
}

void constant(OneflowOp& op) {
  auto dims = op.ints("shape");
  const auto dt = static_cast<DataType>(op.i("dtype", static_cast<int64_t>(DataType::Float)));
  if (op.flag("is_complex_value")) throw std::runtime_error("complex constants have no ONNX counterpart here");
  op.ignore({"nd_sbp", "complex_value", "is_complex_value"});
  const bool isFloat = op.flag("is_floating_value");
  const double v = isFloat ? op.f("floating_value") : static_cast<double>(op.i("integer_value"));
  op.ignore({"floating_value", "integer_value"});
  op.finish(asInitializerSource(op, filledTensor("", dt, dims, v)));
}

void fill(OneflowOp& op) {
  ir::Value* x = op.allInputs().at(0);
  auto dims = op.dims(x);
  if (!dims) throw std::runtime_error("fill_ needs the input shape");
  const bool isFloat = op.flag("is_floating_value");
  const double v = isFloat ? op.f("floating_value") : static_cast<double>(op.i("integral_value"));
  op.ignore({"floating_value", "integral_value"});
  op.finish(asInitializerSource(op, filledTensor("", op.dtype(x), *dims, v)));
}

void arange(OneflowOp& op) {
  const auto dt = static_cast<DataType>(op.i("dtype", static_cast<int64_t>(DataType::Int64)));
  const bool isFloat = ir::isFloatingPoint(dt);
  auto get = [&](const char* name) {
    const double f = op.f(std::string("float_") + name);
    const double i = static_cast<double>(op.i(std::string("integer_") + name));
    return isFloat ? f : i;
  };
  const double start = get("start"), delta = get("delta"), limit = get("limit");
  op.ignore({"nd_sbp"});
  if (delta == 0) throw std::runtime_error("delta is 0");
  op.finish(op.emit("Range", {op.scalarOf(dt, start), op.scalarOf(dt, limit), op.scalarOf(dt, delta)}));
}

void cast(OneflowOp& op) {
  op.ignore({"pin_memory"});
  op.finish(op.cast(op.allInputs().at(0), static_cast<DataType>(op.i("dtype", static_cast<int64_t>(DataType::Float)))));
}

}  // namespace

void registerConstantOps() {
  add("constant", 1, "-> initializer", constant);
  add("fill_", 1, "-> initializer of the input's shape", fill);
  add("arange", 11, "-> Range", arange);
  add("cast", 6, "-> Cast", cast);
}

}  // namespace fb::convert::oneflow
