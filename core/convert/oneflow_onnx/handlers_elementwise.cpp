// Element-wise math: unary functions, broadcasting binaries, the scalar_* family, add_n and bias_add,
// comparisons and logic (results are bool tensors, as OneFlow's are since v0.8).
#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::Attribute;
using ir::DataType;

ir::Value* a0(OneflowOp& op) { return op.allInputs().at(0); }
ir::Value* a1(OneflowOp& op) { return op.allInputs().at(1); }

void unary(const char* name, const char* onnx, int64_t since) {
  add(name, since, std::string("-> ") + onnx, [onnx](OneflowOp& op) { op.finish(op.emit(onnx, {a0(op)})); });
}

void binary(const char* name, const char* onnx, int64_t since) {
  add(name, since, std::string("-> ") + onnx, [onnx](OneflowOp& op) { op.finish(op.emit(onnx, {a0(op), a1(op)})); });
}

// The scalar operand of scalar_* ops: int_operand or float_operand, in the input's element type.
ir::Value* scalarOperand(OneflowOp& op) {
  const bool isInt = op.flag("has_int_operand");
  const bool isFloat = op.flag("has_float_operand");
  if (!isInt && !isFloat) throw std::runtime_error("neither has_int_operand nor has_float_operand is set");
  const double v = isInt ? static_cast<double>(op.i("int_operand")) : op.f("float_operand");
  op.ignore({"int_operand", "float_operand"});  // the one has_*_operand does not select holds a default
  DataType dt = op.dtype(a0(op));
  if (dt == DataType::Undefined) dt = DataType::Float;
  return op.scalarOf(dt, v);
}

void scalarOp(const char* name, const char* onnx) {
  add(name, 7, std::string("-> ") + onnx + " with a scalar initializer", [onnx](OneflowOp& op) {
    op.finish(op.emit(onnx, {a0(op), scalarOperand(op)}));
  });
}

void addN(OneflowOp& op) {
  const auto& ins = op.allInputs();
  if (ins.size() == 1) return op.finish(op.emit("Identity", {ins[0]}));
  if (ins.size() == 2) return op.finish(op.emit("Add", {ins[0], ins[1]}));
  op.finish(op.emit("Sum", ins));
}

void biasAdd(OneflowOp& op) {
  ir::Value* a = op.requireIn("a");
  ir::Value* b = op.requireIn("b");
  auto r = op.rank(a);
  if (!r) throw std::runtime_error("bias_add needs the input rank");
  int64_t axis = op.i("axis", 1);
  if (axis < 0) axis += *r;
  // b has the size of dim `axis`: give it trailing 1s so it broadcasts from the right.
  std::vector<int64_t> axes;
  for (int64_t k = 1; k < *r - axis; ++k) axes.push_back(k);
  if (!axes.empty()) b = op.unsqueeze(b, axes);
  op.finish(op.emit("Add", {a, b}));
}

ir::Value* asBool(OneflowOp& op, ir::Value* v) {
  return op.dtype(v) == DataType::Bool ? v : op.cast(v, DataType::Bool);
}

bool isInt(DataType t) {
  return t == DataType::Int32 || t == DataType::Int64 || t == DataType::Int8 || t == DataType::UInt8 ||
         t == DataType::Int16;
}

void compare(const char* name, const char* onnx, bool negate, int64_t since) {
  add(name, since, std::string("-> ") + onnx + (negate ? " + Not" : ""), [onnx, negate](OneflowOp& op) {
    ir::Value* x = a0(op);
    ir::Value* y = a1(op);
    ir::Value* r = op.emit(onnx, {x, y});
    if (negate) r = op.emit("Not", {r});
    op.finish(r);
  });
}

void floorMod(OneflowOp& op) {
  ir::Value* x = a0(op);
  ir::Value* y = a1(op);
  if (isInt(op.dtype(x))) {
    if (op.opset() < 10) throw Unsupported("integer floor_mod needs opset 10 (Mod)");
    return op.finish(op.emit("Mod", {x, y}, {Attribute::makeInt("fmod", 0)}));
  }
  // x - floor(x / y) * y: the sign of the result follows y, like Python's %.
  op.finish(op.emit("Sub", {x, op.emit("Mul", {op.emit("Floor", {op.emit("Div", {x, y})}), y})}));
}

void scalarCompare(const char* name, const char* onnx) {
  add(name, 7, std::string("-> ") + onnx + " with a scalar initializer", [onnx](OneflowOp& op) {
    op.finish(op.emit(onnx, {a0(op), scalarOperand(op)}));
  });
}

}  // namespace

void registerElementwiseOps() {
  for (auto [n, o] : {std::pair{"abs", "Abs"},
                      {"ceil", "Ceil"},
                      {"exp", "Exp"},
                      {"floor", "Floor"},
                      {"log", "Log"},
                      {"neg", "Neg"},
                      {"sqrt", "Sqrt"},
                      {"reciprocal", "Reciprocal"}})
    unary(n, o, 7);
  for (auto [n, o] :
       {std::pair{"acos", "Acos"}, {"asin", "Asin"}, {"atan", "Atan"}, {"cos", "Cos"}, {"sin", "Sin"}, {"tan", "Tan"}})
    unary(n, o, 7);
  for (auto [n, o] :
       {std::pair{"acosh", "Acosh"}, {"asinh", "Asinh"}, {"atanh", "Atanh"}, {"cosh", "Cosh"}, {"sinh", "Sinh"}})
    unary(n, o, 9);
  unary("erf", "Erf", 9);
  unary("sign", "Sign", 9);
  unary("round", "Round", 11);
  add("square", 7, "-> Mul(x, x)", [](OneflowOp& op) { op.finish(op.emit("Mul", {a0(op), a0(op)})); });
  add("rsqrt", 7, "-> Sqrt + Reciprocal",
      [](OneflowOp& op) { op.finish(op.emit("Reciprocal", {op.emit("Sqrt", {a0(op)})})); });
  add("squared_difference", 7, "-> Sub + Mul", [](OneflowOp& op) {
    ir::Value* d = op.emit("Sub", {a0(op), a1(op)});
    op.finish(op.emit("Mul", {d, d}));
  });

  for (const char* n : {"broadcast_add", "scalar_add_by_tensor"}) binary(n, "Add", 7);
  for (const char* n : {"broadcast_sub", "scalar_sub_by_tensor"}) binary(n, "Sub", 7);
  for (const char* n : {"multiply", "broadcast_mul", "scalar_mul_by_tensor"}) binary(n, "Mul", 7);
  for (const char* n : {"broadcast_div", "scalar_div_by_tensor"}) binary(n, "Div", 7);
  for (const char* n : {"broadcast_minimum", "elementwise_minimum"}) binary(n, "Min", 8);
  for (const char* n : {"broadcast_maximum", "elementwise_maximum"}) binary(n, "Max", 8);
  add("broadcast_floor_mod", 7, "-> Sub/Mul/Floor/Div (floats), Mod(fmod=0) (integers, opset 10)", floorMod);

  scalarOp("scalar_add", "Add");
  scalarOp("scalar_mul", "Mul");
  scalarOp("scalar_div", "Div");
  scalarOp("scalar_pow", "Pow");
  scalarCompare("scalar_logical_less", "Less");
  scalarCompare("scalar_logical_greater", "Greater");
  add("add_n", 8, "-> Add (2 inputs) or Sum", addN);
  add("bias_add", 7, "-> Unsqueeze(b) + Add", biasAdd);

  compare("broadcast_equal", "Equal", false, 11);
  compare("broadcast_not_equal", "Equal", true, 11);
  compare("broadcast_greater", "Greater", false, 9);
  compare("broadcast_less", "Less", false, 9);
  compare("broadcast_greater_equal", "Less", true, 9);
  compare("broadcast_less_equal", "Greater", true, 9);
  add("logical_not", 7, "-> Not (Cast to bool first)",
      [](OneflowOp& op) { op.finish(op.emit("Not", {asBool(op, a0(op))})); });
  add("broadcast_logical_and", 7, "-> And", [](OneflowOp& op) {
    op.finish(op.emit("And", {asBool(op, a0(op)), asBool(op, a1(op))}));
  });
  add("broadcast_logical_or", 7, "-> Or", [](OneflowOp& op) {
    op.finish(op.emit("Or", {asBool(op, a0(op)), asBool(op, a1(op))}));
  });
}

}  // namespace fb::convert::oneflow
