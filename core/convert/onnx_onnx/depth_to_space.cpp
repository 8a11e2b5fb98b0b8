// DepthToSpace gained `mode` at opset 11; PyTorch's pixel_shuffle exports mode=CRD, which older opsets
// express as Reshape -> Transpose -> Reshape (the definition of CRD in the operator's documentation).
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void crdToReshapes(ir::Node& n, HandlerContext& ctx) {
  if (n.attrString("mode", "DCR") == "DCR") return compatibleVersionStep(n, ctx);
  if (!n.input(0)) throw std::runtime_error("DepthToSpace: the input is missing");
  int64_t b = n.attrInt("blocksize", 0);
  // Channel and spatial dims must be known; the batch may be symbolic (Reshape's 0 copies it).
  std::optional<std::vector<int64_t>> chw;
  const ir::Value* x = n.input(0);
  const ir::TypeInfo* ti = nullptr;
  if (x->type.isTensor() && x->type.shape)
    ti = &x->type;
  else if (const ir::TypeInfo* t = ctx.inferredType(x); t && t->shape)
    ti = t;
  if (ti && ti->shape->size() == 4 && (*ti->shape)[1].isValue() && (*ti->shape)[2].isValue() &&
      (*ti->shape)[3].isValue())
    chw = std::vector<int64_t>{(*ti->shape)[1].value, (*ti->shape)[2].value, (*ti->shape)[3].value};
  if (!chw) {
    throw Unsupported("DepthToSpace: mode=CRD needs known channel and spatial dims before opset 11");
  }
  // b * b must not overflow: a blocksize beyond the channel count cannot divide it anyway.
  if (b <= 0 || b > (*chw)[0] || (*chw)[0] % (b * b) != 0)
    throw std::runtime_error("DepthToSpace: " + std::to_string((*chw)[0]) +
                             " channels are not divisible by blocksize^2 (blocksize " + std::to_string(b) + ")");
  ctx.note = "CRD mode -> Reshape/Transpose/Reshape";
  if (!ctx.commit()) return;
  int64_t c = (*chw)[0] / (b * b), h = (*chw)[1], w = (*chw)[2];
  std::string base = n.name.empty() ? "depth_to_space" : n.name;
  ir::Value* out = n.output(0);
  ir::Value* s6 = ctx.constantInt64(base + "_shape6", {0, c, b, b, h, w});
  ir::Value* s4 = ctx.constantInt64(base + "_shape4", {0, c, h * b, w * b});
  ir::Value* r6 = ctx.newValue(base + "_blocks");
  ir::Value* tr = ctx.newValue(base + "_interleaved");
  ctx.insertNode(n, "Reshape", {n.input(0), s6}, {r6});
  ctx.insertNode(n, "Transpose", {r6}, {tr})->setAttr(ir::Attribute::makeInts("perm", {0, 1, 4, 2, 5, 3}));
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  ctx.insertNode(n, "Reshape", {tr, s4}, {out});
  ctx.removeReplaced(n);
}

}  // namespace

void registerDepthToSpaceAdapters(HandlerRegistry& r) {
  add(r, "DepthToSpace", 1, "opsets 1-10: mode=DCR kept, mode=CRD -> Reshape/Transpose/Reshape", crdToReshapes);
}

}  // namespace fb::convert::onnx_onnx
