// Softmax, LogSoftmax and Hardmax changed meaning at opset 13: before, the input was coerced to 2-D at
// `axis` (default 1) and normalized over everything from `axis` on; from 13, over the one axis (default -1).
// The two agree when the axis is the last one, which is what exporters almost always emit.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

// An axis outside the input's rank makes the node invalid in every version; rewriting it would index past
// the permutation.
void requireAxisInRange(const ir::Node& n, int64_t axis, std::optional<int64_t> rank, bool coerced) {
  if (!rank) return;
  // The coerced-2-D versions also accept axis == rank (an empty second dimension).
  int64_t hi = coerced ? *rank : *rank - 1;
  if (axis < -*rank || axis > hi)
    throw std::runtime_error(n.opType + ": axis " + std::to_string(axis) + " is outside the range of a rank-" +
                             std::to_string(*rank) + " input");
}

// Opset-13 node -> opsets 1-12: the last axis maps directly; another axis is swapped to the end and back.
void toCoercedSemantics(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 13) {  // same semantics on both sides; only the axis spelling may differ
    requireAxisInRange(n, n.attrInt("axis", 1), ctx.rank(n.input(0)), true);
    int64_t axis = nonNegativeAxis(n.attrInt("axis", 1), n.input(0), ctx, n.opType.c_str());
    if (axis != n.attrInt("axis", 1)) {
      ctx.note = "axis made non-negative for opset " + std::to_string(ctx.targetOpset);
      if (!ctx.commit()) return;
      n.setAttr(ir::Attribute::makeInt("axis", axis));
    }
    compatibleVersionStep(n, ctx);
    return;
  }
  int64_t axis = n.attrInt("axis", -1);
  std::optional<int64_t> rank;
  if (axis != -1 || ctx.targetOpset < 11) rank = ctx.rank(n.input(0));
  requireAxisInRange(n, axis, rank, false);
  bool last = axis == -1 || (rank && axis == *rank - 1);
  if (last) {
    int64_t spelled = -1;
    if (ctx.targetOpset < 11) {
      if (!rank) {
        throw Unsupported(n.opType + ": the rank is unknown and opset " + std::to_string(ctx.targetOpset) +
                          " needs a non-negative axis");
      }
      spelled = *rank - 1;
    }
    ctx.note = "last axis: same meaning in opset-12 semantics; axis spelled explicitly";
    if (!ctx.commit()) return;
    n.setAttr(ir::Attribute::makeInt("axis", spelled));
    return;
  }
  if (!rank) {
    throw Unsupported(n.opType + ": axis " + std::to_string(axis) + " is not the last one and the rank is unknown");
  }
  int64_t a = axis < 0 ? axis + *rank : axis;
  std::vector<int64_t> perm(static_cast<size_t>(*rank));
  for (int64_t i = 0; i < *rank; ++i) perm[static_cast<size_t>(i)] = i;
  std::swap(perm[static_cast<size_t>(a)], perm[static_cast<size_t>(*rank - 1)]);
  ctx.note = "axis " + std::to_string(axis) + " swapped to the end with Transpose, normalized there, swapped back";
  if (!ctx.commit()) return;
  ir::Value* in = n.input(0);
  ir::Value* out = n.output(0);
  ir::Value* t1 = ctx.newValue(in->name() + "_axis_last");
  ir::Value* t2 = ctx.newValue(out->name() + "_axis_last");
  ir::Node* tr1 = ctx.insertNode(n, "Transpose", {in}, {t1});
  tr1->setAttr(ir::Attribute::makeInts("perm", perm));
  ir::Node* core = ctx.insertNode(n, n.opType, {t1}, {t2});
  core->setAttr(ir::Attribute::makeInt("axis", *rank - 1));
  ctx.graph.setOutput(&n, 0, ctx.newValue(out->name() + "_replaced"));
  ir::Node* tr2 = ctx.insertNode(n, "Transpose", {t2}, {out});
  tr2->setAttr(ir::Attribute::makeInts("perm", perm));
  ctx.removeReplaced(n);
}

// Opsets 1-12 node -> opset 13: the last axis maps directly; otherwise Flatten at the axis, normalize the
// second dimension, and Reshape back to the input's shape.
void toPerAxisSemantics(ir::Node& n, HandlerContext& ctx) {
  int64_t axis = n.attrInt("axis", 1);
  auto rank = axis == -1 ? std::nullopt : ctx.rank(n.input(0));
  requireAxisInRange(n, axis, rank, true);
  if (axis == -1 || (rank && axis == *rank - 1)) {
    ctx.note = "last axis: same meaning in opset-13 semantics";
    if (!ctx.commit()) return;
    n.setAttr(ir::Attribute::makeInt("axis", -1));
    return;
  }
  ctx.note = "coerced-2-D semantics kept with Flatten -> " + n.opType + " -> Reshape";
  if (!ctx.commit()) return;
  ir::Value* in = n.input(0);
  ir::Value* out = n.output(0);
  ir::Value* flat = ctx.newValue(in->name() + "_2d");
  ir::Value* norm = ctx.newValue(out->name() + "_2d");
  ir::Value* shape = ctx.newValue(in->name() + "_shape");
  ctx.insertNode(n, "Flatten", {in}, {flat})->setAttr(ir::Attribute::makeInt("axis", axis));
  ctx.insertNode(n, n.opType, {flat}, {norm})->setAttr(ir::Attribute::makeInt("axis", -1));
  ctx.insertNode(n, "Shape", {in}, {shape});
  ctx.graph.setOutput(&n, 0, ctx.newValue(out->name() + "_replaced"));
  ctx.insertNode(n, "Reshape", {norm, shape}, {out});
  ctx.removeReplaced(n);
}

}  // namespace

void registerSoftmaxAdapters(HandlerRegistry& r) {
  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"}) {
    add(r, op, 1, "opsets 1-12: per-axis semantics of 13 mapped to coerced-2-D (last axis, or Transpose pair)",
        toCoercedSemantics);
    add(r, op, 13, "opset 13+: coerced-2-D semantics of 1-12 kept (last axis, or Flatten/Reshape)", toPerAxisSemantics);
  }
}

}  // namespace fb::convert::onnx_onnx
