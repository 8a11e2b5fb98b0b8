// Opset 13 moved Squeeze/Unsqueeze/ReduceSum `axes` and Split `split` from attributes to inputs.
// Down: a constant input becomes the attribute again (a computed one cannot). Up: the attribute becomes
// an int64 initializer.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

// Which input carries the list, its attribute name, and the rank negative entries count from.
struct ListSlot {
  size_t input;
  const char* attr;
  bool axes;  // true: axes (made non-negative below 11); false: split sizes
};

ListSlot slotOf(const ir::Node& n) {
  if (n.opType == "Split") return {1, "split", false};
  return {1, "axes", true};
}

std::optional<int64_t> axesRank(const ir::Node& n, const HandlerContext& ctx, size_t count) {
  auto r = ctx.rank(n.input(0));
  if (r && n.opType == "Unsqueeze") *r += static_cast<int64_t>(count);  // axes index the output
  return r;
}

void inputToAttribute(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 13) {  // already attributes; only negative axes may need spelling out
    ListSlot s = slotOf(n);
    if (s.axes && ctx.targetOpset < 11 && n.hasAttr(s.attr)) {
      auto axes = n.attrInts(s.attr);
      auto fixed = normalizedAxes(axes, axesRank(n, ctx, axes.size()), n.opType.c_str());
      if (fixed != axes) {
        ctx.note = "axes made non-negative";
        if (ctx.commit()) n.setAttr(ir::Attribute::makeInts(s.attr, fixed));
      }
    }
    if (n.opType == "Split" && ctx.targetOpset < 11) {
      int64_t axis = nonNegativeAxis(n.attrInt("axis", 0), n.input(0), ctx, "Split");
      if (axis != n.attrInt("axis", 0) && ctx.commit()) n.setAttr(ir::Attribute::makeInt("axis", axis));
    }
    compatibleVersionStep(n, ctx);
    return;
  }
  ListSlot s = slotOf(n);
  ir::Value* listInput = n.input(s.input);
  std::optional<std::vector<int64_t>> list;
  if (listInput) list = requireConstantInts(n, s.input, ctx, s.attr);
  if (n.opType == "ReduceSum" && n.attrInt("noop_with_empty_axes", 0) != 0 && (!list || list->empty()))
    throw Unsupported("ReduceSum: noop_with_empty_axes=1 with no axes has no equivalent before opset 13");
  if (list && s.axes) *list = normalizedAxes(*list, axesRank(n, ctx, list->size()), n.opType.c_str());
  std::optional<int64_t> splitAxis;
  if (n.opType == "Split" && ctx.targetOpset < 11)
    splitAxis = nonNegativeAxis(n.attrInt("axis", 0), n.input(0), ctx, "Split");
  ctx.note = listInput ? std::string(s.attr) + " input -> attribute" : "no " + std::string(s.attr) + ": same meaning";
  if (!ctx.commit()) return;
  if (listInput) ctx.dropInput(n, s.input);
  n.removeAttr("noop_with_empty_axes");
  if (list && !(n.opType == "ReduceSum" && list->empty())) n.setAttr(ir::Attribute::makeInts(s.attr, *list));
  if (splitAxis && *splitAxis != n.attrInt("axis", 0)) n.setAttr(ir::Attribute::makeInt("axis", *splitAxis));
}

void attributeToInput(ir::Node& n, HandlerContext& ctx) {
  ListSlot s = slotOf(n);
  const ir::Attribute* a = n.attr(s.attr);
  ctx.note = a ? std::string(s.attr) + " attribute -> int64 input" : "no " + std::string(s.attr) + ": same meaning";
  if (!ctx.commit()) return;
  if (!a) return;
  auto values = a->ints;
  n.removeAttr(s.attr);
  ir::Value* c = ctx.constantInt64(n.name.empty() ? n.opType + "_" + s.attr : n.name + "_" + s.attr, values);
  while (n.inputs().size() < s.input) n.addInput(nullptr);
  if (n.inputs().size() == s.input)
    n.addInput(c);
  else
    n.setInput(s.input, c);
}

}  // namespace

void registerAxesInputAdapters(HandlerRegistry& r) {
  for (const char* op : {"Squeeze", "Unsqueeze", "ReduceSum"}) {
    add(r, op, 1, "opsets 1-12: constant axes input -> axes attribute (non-negative below 11)", inputToAttribute);
    add(r, op, 13, "opset 13+: axes attribute -> int64 input", attributeToInput);
  }
  add(r, "Split", 1, "opsets 1-12: constant split input -> split attribute", inputToAttribute);
  add(r, "Split", 13, "opset 13+: split attribute -> int64 input", attributeToInput);
}

}  // namespace fb::convert::onnx_onnx
