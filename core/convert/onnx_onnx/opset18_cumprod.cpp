// CumProd-26 along a constant axis of static length: the running products unrolled (Split into slices, one
// Mul per step, Concat), in the order the op multiplies; exclusive starts from 1, reverse runs from the end.
#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"

namespace fb::convert::onnx_onnx {

void cumProdTo17(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Float && t != ir::DataType::Double && t != ir::DataType::Int32 && t != ir::DataType::Int64)
    throw Unsupported("CumProd on " + std::string(ir::dataTypeName(t)) +
                      ": only float, double, int32 and int64 are unrolled");
  auto axisV = ctx.constantInts(n.input(1));
  if (!axisV || axisV->size() != 1)
    throw Unsupported("CumProd: axis is computed at run time; the unrolled form needs it");
  auto shape = ctx.staticShape(n.input(0));
  if (!shape) throw Unsupported("CumProd: the input's shape is not static; the unrolled form needs the axis length");
  const int64_t rank = static_cast<int64_t>(shape->size());
  int64_t axis = (*axisV)[0] < 0 ? (*axisV)[0] + rank : (*axisV)[0];
  if (axis < 0 || axis >= rank) throw Unsupported("CumProd: axis out of range");
  const int64_t len = (*shape)[axis];
  if (len < 1 || len > 256)
    throw Unsupported("CumProd: axis length " + std::to_string(len) + " is outside 1..256 for unrolling");
  const bool exclusive = n.attrInt("exclusive", 0) != 0, reverse = n.attrInt("reverse", 0) != 0;
  onnx::TensorProto one;
  switch (t) {
    case ir::DataType::Float:
      one.set_data_type(onnx::TensorProto::FLOAT);
      one.add_float_data(1.0f);
      break;
    case ir::DataType::Double:
      one.set_data_type(onnx::TensorProto::DOUBLE);
      one.add_double_data(1.0);
      break;
    case ir::DataType::Int32:
      one.set_data_type(onnx::TensorProto::INT32);
      one.add_int32_data(1);
      break;
    default:
      one.set_data_type(onnx::TensorProto::INT64);
      one.add_int64_data(1);
      break;
  }
  const std::string ax = std::to_string(axis);
  replaceByBody17(
      n, ctx, {"x", "axis"}, {"y"},
      [&](onnx::FunctionBuilder& b) {
        std::string parts;
        for (int64_t i = 0; i < len; ++i) parts += (i ? ", " : "") + ("s" + std::to_string(i));
        if (len == 1)
          b.Add("s0 = Identity(x)");
        else
          b.Add((parts + " = Split <axis = " + ax + "> (x)").c_str());
        // Running order: from the end when reverse. inc<i>: product of the slices up to and including i.
        std::vector<int64_t> order;
        for (int64_t step = 0; step < len; ++step) order.push_back(reverse ? len - 1 - step : step);
        std::vector<std::string> out(static_cast<size_t>(len));
        std::string prev;
        for (int64_t step = 0; step < len; ++step) {
          const std::string si = "s" + std::to_string(order[step]);
          if (exclusive) {
            if (step == 0) {
              b.Const("one", one);
              b.Add(("first_shape = Shape(" + si + ")").c_str());
              b.Add("ones = Expand(one, first_shape)");
              out[order[step]] = "ones";
            } else {
              out[order[step]] = prev;
            }
            if (step == len - 1) break;  // the last inclusive product is not an output
          }
          const std::string inc = "inc" + std::to_string(order[step]);
          if (step == 0)
            b.Add((inc + " = Identity(" + si + ")").c_str());
          else
            b.Add((inc + " = Mul(" + prev + ", " + si + ")").c_str());
          prev = inc;
          if (!exclusive) out[order[step]] = inc;
        }
        std::string joined;
        for (const auto& o : out) joined += (joined.empty() ? "" : ", ") + o;
        if (len == 1)
          b.Add(("y = Identity(" + out[0] + ")").c_str());
        else
          b.Add(("y = Concat <axis = " + ax + "> (" + joined + ")").c_str());
      },
      "CumProd unrolled along axis " + ax + " (" + std::to_string(len) + " steps)");
}

}  // namespace fb::convert::onnx_onnx
