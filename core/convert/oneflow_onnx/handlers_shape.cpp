// Shape and data movement. flatten keeps its start/end dims (oneflow-onnx wrote "aixs" and always flattened from
// 1); squeeze passes its axes as an input from opset 13; Slice switches from attributes to inputs at opset 10.
#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::Attribute;
using ir::DataType;

ir::Value* a0(OneflowOp& op) { return op.allInputs().at(0); }

void reshapeTo(OneflowOp& op, ir::Value* x, const std::vector<int64_t>& shape) {
  // ONNX Reshape reads 0 as "copy this dim" unless allowzero (opset 14).
  bool hasZero = false;
  for (auto d : shape) hasZero |= d == 0;
  if (hasZero && op.opset() < 14) throw Unsupported("a reshape to a zero-sized dim needs opset 14 (allowzero)");
  std::vector<Attribute> attrs;
  if (hasZero) attrs.push_back(Attribute::makeInt("allowzero", 1));
  op.finish(op.emit("Reshape", {x, op.i64s(shape)}, std::move(attrs)));
}

void flatten(OneflowOp& op) {
  ir::Value* x = a0(op);
  int64_t start = op.i("start_dim", 0), end = op.i("end_dim", -1);
  auto r = op.rank(x);
  if (!r) throw std::runtime_error("flatten needs the input rank");
  if (start < 0) start += *r;
  if (end < 0) end += *r;
  if (start < 0 || end >= *r || start > end)
    throw std::runtime_error("start_dim " + std::to_string(op.i("start_dim", 0)) + " and end_dim " +
                             std::to_string(op.i("end_dim", -1)) + " do not fit an input of rank " +
                             std::to_string(*r));
  if (start == 1 && end == *r - 1) return op.finish(op.emit("Flatten", {x}, {Attribute::makeInt("axis", 1)}));
  std::vector<int64_t> shape;
  if (end == *r - 1) {  // copy the leading dims (0) and merge the rest (-1): no static shape needed
    shape.assign(static_cast<size_t>(start), 0);
    shape.push_back(-1);
  } else {
    auto d = op.dims(x);
    if (!d) throw std::runtime_error("flatten of inner dims needs the input shape");
    shape.assign(d->begin(), d->begin() + start);
    int64_t p = 1;
    for (int64_t k = start; k <= end; ++k) p *= (*d)[k];
    shape.push_back(p);
    shape.insert(shape.end(), d->begin() + end + 1, d->end());
  }
  op.finish(op.emit("Reshape", {x, op.i64s(shape)}));
}

std::vector<int64_t> normalized(std::vector<int64_t> axes, std::optional<int64_t> rank, bool needPositive) {
  for (auto& a : axes)
    if (a < 0) {
      if (!rank) {
        if (needPositive) throw std::runtime_error("negative axes below opset 11 need the input rank");
        continue;
      }
      a += *rank;
    }
  return axes;
}

void squeeze(OneflowOp& op) {
  ir::Value* x = a0(op);
  auto axes = normalized(op.ints("axes"), op.rank(x), op.opset() < 11);
  op.finish(op.squeeze(x, axes));
}

void expandDims(OneflowOp& op) {
  ir::Value* x = a0(op);
  int64_t axis = op.i("axis", 0);
  if (axis < 0) {
    auto r = op.rank(x);
    if (!r) throw std::runtime_error("a negative axis needs the input rank");
    axis += *r + 1;
  }
  op.finish(op.unsqueeze(x, {axis}));
}

void expand(OneflowOp& op) {
  ir::Value* x = a0(op);
  std::vector<int64_t> shape = op.has("expand_shape") ? op.ints("expand_shape") : op.ints("logical_expand_shape");
  op.ignore({"logical_in_shape"});
  for (auto& d : shape)
    if (d < 0) d = 1;  // -1 keeps the input's size; broadcasting against 1 does the same
  op.finish(op.emit("Expand", {x, op.i64s(shape)}));
}

void concat(OneflowOp& op) {
  auto r = op.rank(a0(op));
  int64_t axis = op.i("axis", 0);
  if (axis < 0) {
    if (!r) throw std::runtime_error("a negative axis needs the input rank");
    axis += *r;
  }
  op.ignore({"max_dim_size"});  // an allocation bound for dynamic shapes
  if (op.allInputs().size() == 1) return op.finish(op.emit("Identity", {a0(op)}));
  op.finish(op.emit("Concat", op.allInputs(), {Attribute::makeInt("axis", axis)}));
}

ir::Value* slice(OneflowOp& op, ir::Value* x, std::vector<int64_t> starts, std::vector<int64_t> ends,
                 std::vector<int64_t> axes, std::vector<int64_t> steps) {
  bool unitSteps = true;
  for (auto s : steps) unitSteps &= s == 1;
  if (op.opset() >= 10) return op.emit("Slice", {x, op.i64s(starts), op.i64s(ends), op.i64s(axes), op.i64s(steps)});
  if (!unitSteps) throw Unsupported("a slice step other than 1 needs opset 10");
  return op.emit(
      "Slice", {x},
      {Attribute::makeInts("starts", starts), Attribute::makeInts("ends", ends), Attribute::makeInts("axes", axes)});
}

void sliceOp(OneflowOp& op) {
  ir::Value* x = a0(op);
  auto starts = op.ints("start"), stops = op.ints("stop"), steps = op.ints("step");
  if (starts.size() != stops.size() || starts.size() != steps.size())
    throw std::runtime_error("start, stop and step have different lengths");
  std::vector<int64_t> axes;
  for (size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  op.finish(slice(op, x, starts, stops, axes, steps));
}

void narrow(OneflowOp& op) {
  ir::Value* x = a0(op);
  int64_t dim = op.i("dim", 0);
  const int64_t start = op.i("start", 0), length = op.i("length", 0);
  if (dim < 0) {
    auto r = op.rank(x);
    if (!r) throw std::runtime_error("a negative dim needs the input rank");
    dim += *r;
  }
  op.finish(slice(op, x, {start}, {start + length}, {dim}, {1}));
}

void pad(OneflowOp& op) {
  ir::Value* x = a0(op);
  auto before = op.ints("padding_before"), after = op.ints("padding_after");
  op.ignore({"padding"});  // the same numbers as before/after in PyTorch's order
  if (before.size() != after.size()) throw std::runtime_error("padding_before and padding_after differ in length");
  std::vector<int64_t> pads(before);
  pads.insert(pads.end(), after.begin(), after.end());
  const DataType dt = op.dtype(x) == DataType::Undefined ? DataType::Float : op.dtype(x);
  const bool isFloat = ir::isFloatingPoint(dt);
  const double value = isFloat ? op.f("floating_constant_value") : static_cast<double>(op.i("integral_constant_value"));
  op.ignore({"floating_constant_value", "integral_constant_value"});
  if (op.opset() < 11)
    return op.finish(op.emit(
        "Pad", {x}, {Attribute::makeInts("pads", pads), Attribute::makeFloat("value", static_cast<float>(value))}));
  op.finish(op.emit("Pad", {x, op.i64s(pads), op.scalarOf(dt, value)}));
}

// PyTorch/OneFlow nearest: src = floor(dst * in / out), i.e. asymmetric coordinates with floor rounding.
void upsampleNearest(OneflowOp& op) {
  ir::Value* x = a0(op);
  op.expectString("data_format", "channels_first");
  auto outSize = op.ints("output_size");
  double hs = op.f("height_scale", 0), ws = op.f("width_scale", 0);
  if (!outSize.empty()) {
    auto d = op.dims(x);
    if (!d) throw std::runtime_error("output_size needs the input shape");
    hs = static_cast<double>(outSize[0]) / static_cast<double>((*d)[2]);
    ws = static_cast<double>(outSize[1]) / static_cast<double>((*d)[3]);
  }
  if (hs <= 0 || ws <= 0) throw std::runtime_error("no scale and no output_size");
  std::vector<float> scales{1.f, 1.f, static_cast<float>(hs), static_cast<float>(ws)};
  if (op.opset() < 9)
    return op.finish(
        op.emit("Upsample", {x}, {Attribute::makeString("mode", "nearest"), Attribute::makeFloats("scales", scales)}));
  if (op.opset() == 9)
    return op.finish(op.emit("Upsample", {x, op.f32s(scales)}, {Attribute::makeString("mode", "nearest")}));
  if (op.opset() == 10)
    return op.finish(op.emit("Resize", {x, op.f32s(scales)}, {Attribute::makeString("mode", "nearest")}));
  std::vector<Attribute> attrs{Attribute::makeString("mode", "nearest"),
                               Attribute::makeString("coordinate_transformation_mode", "asymmetric"),
                               Attribute::makeString("nearest_mode", "floor")};
  ir::Value* roi = op.opset() >= 13 ? nullptr : op.f32s({});
  if (!outSize.empty()) {
    auto d = *op.dims(x);
    op.finish(op.emit("Resize",
                      {x, roi ? roi : op.f32s({}), op.f32s({}), op.i64s({d[0], d[1], outSize[0], outSize[1]})},
                      std::move(attrs)));
    return;
  }
  op.finish(op.emit("Resize", {x, roi, op.f32s(scales)}, std::move(attrs)));
}

void gather(OneflowOp& op) {
  op.finish(
      op.emit("Gather", {op.requireIn("in"), op.requireIn("indices")}, {Attribute::makeInt("axis", op.i("axis", 0))}));
}

void gatherNd(OneflowOp& op) {
  ir::Value* idx = op.requireIn("indices");
  if (op.dtype(idx) != DataType::Int64) idx = op.cast(idx, DataType::Int64);
  op.finish(op.emit("GatherND", {op.requireIn("params"), idx}));
}

void where(OneflowOp& op) {
  ir::Value* c = op.requireIn("condition");
  if (op.dtype(c) != DataType::Bool) c = op.cast(c, DataType::Bool);
  op.finish(op.emit("Where", {c, op.requireIn("x"), op.requireIn("y")}));
}

}  // namespace

void registerShapeOps() {
  add("reshape", 5, "-> Reshape (allowzero at opset 14 when needed)",
      [](OneflowOp& op) { reshapeTo(op, a0(op), op.ints("shape")); });
  add("flatten", 5, "-> Flatten(axis=1) or Reshape keeping start_dim/end_dim", flatten);
  add("squeeze", 7, "-> Squeeze (axes as an input from opset 13)", squeeze);
  add("expand_dims", 7, "-> Unsqueeze (axes as an input from opset 13)", expandDims);
  add("expand", 8, "-> Expand", expand);
  add("transpose", 7, "-> Transpose",
      [](OneflowOp& op) { op.finish(op.emit("Transpose", {a0(op)}, {Attribute::makeInts("perm", op.ints("perm"))})); });
  for (const char* name : {"concat", "cat"}) add(name, 7, "-> Concat", concat);
  add("slice", 7, "-> Slice (steps need opset 10)", sliceOp);
  add("narrow", 7, "-> Slice", narrow);
  add("pad", 7, "-> Pad (constant)", pad);
  add("upsample_nearest_2d", 7, "-> Upsample (7-9) / Resize asymmetric floor (10+)", upsampleNearest);
  add("gather", 7, "-> Gather", gather);
  add("gather_nd", 11, "-> GatherND (+ Cast of the indices)", gatherNd);
  add("where", 9, "-> Where", where);
}

}  // namespace fb::convert::oneflow
