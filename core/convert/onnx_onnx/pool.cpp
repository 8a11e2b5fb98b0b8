// MaxPool/AveragePool gained `ceil_mode` and (MaxPool) `dilations` at opset 10. Defaults are dropped by the
// compatible step; MaxPool's ceil_mode=1 becomes extra end padding, which is exact because max pooling
// never reads padded cells.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/small_int_through_float.h"
#include "convert/onnx_onnx/version_step.h"
#include "schema/onnx_schema.h"

namespace fb::convert::onnx_onnx {
namespace {

bool allOnes(const std::vector<int64_t>& v) {
  for (auto x : v)
    if (x != 1) return false;
  return true;
}

void toPre10(ir::Node& n, HandlerContext& ctx) {
  // 8-bit MaxPool exists from 12; below, it runs in float (max picks one of the inputs, which float holds).
  const bool throughFloat = n.opType == "MaxPool" && ctx.targetOpset < 12 && isSmallInteger(ctx.elemType(n.input(0)));
  const bool pre10 = ctx.sourceOpset >= 10 && ctx.targetOpset < 10;
  if (!pre10 && !throughFloat) return compatibleVersionStep(n, ctx);
  if (!pre10) {
    ctx.note = std::string(ir::dataTypeName(ctx.elemType(n.input(0)))) + " MaxPool in float between Casts";
    if (!ctx.commit()) return;
    runInFloat(n, ctx);
    return compatibleVersionStep(n, ctx);
  }
  if (n.hasAttr("dilations") && !allOnes(n.attrInts("dilations")))
    throw Unsupported(n.opType + ": dilations other than 1 need opset 10");
  bool ceil = n.attrInt("ceil_mode", 0) != 0;
  std::vector<int64_t> pads;
  if (ceil) {
    if (n.opType != "MaxPool") throw Unsupported(n.opType + ": ceil_mode=1 needs opset 10");
    std::string autoPad = n.attrString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET") throw Unsupported("MaxPool: ceil_mode=1 with auto_pad=" + autoPad + " needs opset 10");
    auto in = ctx.staticShape(n.input(0));
    if (!in) {
      throw Unsupported("MaxPool: ceil_mode=1 needs static spatial dims to become padding before opset 10");
    }
    auto k = n.attrInts("kernel_shape");
    size_t sp = k.size();
    auto strides = n.attrInts("strides");
    if (strides.empty()) strides.assign(sp, 1);
    pads = n.attrInts("pads");
    if (pads.empty()) pads.assign(2 * sp, 0);
    for (size_t i = 0; i < sp; ++i) {
      int64_t size = (*in)[in->size() - sp + i];
      int64_t span = size + pads[i] + pads[i + sp] - k[i];
      int64_t out = (span + strides[i] - 1) / strides[i] + 1;
      // The last window must start inside the input or the leading padding (PyTorch and ONNX Runtime agree).
      if ((out - 1) * strides[i] >= size + pads[i]) --out;
      int64_t need = (out - 1) * strides[i] + k[i] - (size + pads[i] + pads[i + sp]);
      if (need > 0) pads[i + sp] += need;
    }
  }
  // The element types compatibleVersionStep checks after the edit (uint8/int8 MaxPool exists only from 12),
  // checked before it, so that a dry run (and the search for the lowest working opset) refuses what the
  // conversion refuses. Its other checks have more specific messages there (storage_order...).
  if (const auto* target = schema::schemaAt("", n.opType, ctx.targetOpset); target && ctx.elemTypes && !throughFloat)
    if (auto why = schema::schemaMismatch(n, *target, *ctx.elemTypes, {"dilations", "ceil_mode", "pads"});
        why && why->find(" does not accept ") != std::string::npos)
      throw Unsupported(*why);
  ctx.note = ceil ? "ceil_mode=1 -> extra end padding" : "attributes of opset 10 at their defaults dropped";
  ctx.attributesOnly = !ceil && !throughFloat;
  if (throughFloat)
    ctx.note += "; " + std::string(ir::dataTypeName(ctx.elemType(n.input(0)))) + " in float between Casts";
  if (!ctx.commit()) return;
  if (throughFloat) runInFloat(n, ctx);
  n.removeAttr("dilations");
  n.removeAttr("ceil_mode");
  if (ceil) n.setAttr(ir::Attribute::makeInts("pads", pads));
  compatibleVersionStep(n, ctx);
}

}  // namespace

void registerPoolAdapters(HandlerRegistry& r) {
  add(r, "MaxPool", 1,
      "opsets 1-9: dilations of 1 dropped, ceil_mode=1 -> end padding (static shapes); 8/16-bit in float below 12",
      toPre10);
  add(r, "AveragePool", 1, "opsets 1-9: ceil_mode=0 dropped", toPre10);
}

}  // namespace fb::convert::onnx_onnx
