// Resize appeared at opset 10 (replacing Upsample) with asymmetric coordinates only; opset 11 added roi,
// sizes and the coordinate_transformation_mode / nearest_mode attributes, opset 13 made roi and scales
// optional. Going down only works for what the older ops can mean: asymmetric coordinates, and for
// nearest, floor rounding (what PyTorch exports for nn.Upsample(mode="nearest")).
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

ir::Value* emptyFloats(HandlerContext& ctx, const std::string& base) {
  return ctx.graph.addInitializer(
      ir::Tensor::fromValues(ctx.graph.uniqueName(base), ir::DataType::Float, {0}, std::vector<float>{}));
}

ir::Value* floats(HandlerContext& ctx, const std::string& base, const std::vector<float>& v) {
  return ctx.graph.addInitializer(
      ir::Tensor::fromValues(ctx.graph.uniqueName(base), ir::DataType::Float, {static_cast<int64_t>(v.size())}, v));
}

// Resize-11/13 -> Resize-10 or Upsample-7/9.
void toAsymmetricResize(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 11) return compatibleVersionStep(n, ctx);  // Resize-10 -> Resize-10
  std::string mode = n.attrString("mode", "nearest");
  std::string coord = n.attrString("coordinate_transformation_mode", "half_pixel");
  if (mode == "cubic") throw Unsupported("Resize: cubic mode needs opset 11");
  if (coord != "asymmetric")
    throw Unsupported("Resize: coordinate_transformation_mode=" + coord +
                      " needs opset 11 (older opsets are asymmetric)");
  if (mode == "nearest" && n.attrString("nearest_mode", "round_prefer_floor") != "floor")
    throw Unsupported("Resize: nearest_mode=" + n.attrString("nearest_mode", "round_prefer_floor") +
                      " needs opset 11 (older opsets round down)");
  std::vector<float> scales;
  if (auto s = ctx.constantDoubles(n.input(2)); s && !s->empty()) {
    scales.assign(s->begin(), s->end());
  } else if (n.input(3)) {
    auto sizes = requireConstantInts(n, 3, ctx, "sizes");
    auto in = ctx.staticShape(n.input(0));
    if (!in || in->size() != sizes.size()) {
      throw Unsupported("Resize: sizes need a static input shape to become scales before opset 11");
    }
    for (size_t i = 0; i < sizes.size(); ++i)
      scales.push_back(static_cast<float>(sizes[i]) / static_cast<float>((*in)[i]));
  } else {
    throw Unsupported("Resize: scales computed at run time; opset " + std::to_string(ctx.targetOpset) +
                      " needs constants here");
  }
  const bool upsample = ctx.targetOpset < 10;
  ctx.note = upsample ? "Resize -> Upsample (asymmetric, " + mode + ")" : "Resize-11+ -> Resize-10";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "resize" : n.name;
  ir::Value* x = n.input(0);
  ir::Value* out = n.output(0);
  std::vector<ir::Value*> inputs{x};
  if (ctx.targetOpset >= 9) inputs.push_back(floats(ctx, base + "_scales", scales));
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  ir::Node* r = ctx.insertNode(n, upsample ? "Upsample" : "Resize", inputs, {out});
  r->setAttr(ir::Attribute::makeString("mode", mode));
  if (ctx.targetOpset < 9) r->setAttr(ir::Attribute::makeFloats("scales", scales));
  ctx.removeReplaced(n);
}

// Resize at 11/12 requires roi and scales inputs that 13 made optional; Resize-10 sources gain the
// attributes that spell out their asymmetric, round-down meaning.
void toResize11(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset == 10) {
    ctx.note = "Resize-10 -> Resize-11 with asymmetric coordinates and floor rounding spelled out";
    if (!ctx.commit()) return;
    ir::Value* scales = n.input(1);
    n.setInput(1, emptyFloats(ctx, (n.name.empty() ? "resize" : n.name) + "_roi"));
    n.addInput(scales);
    n.setAttr(ir::Attribute::makeString("coordinate_transformation_mode", "asymmetric"));
    if (n.attrString("mode", "nearest") == "nearest") n.setAttr(ir::Attribute::makeString("nearest_mode", "floor"));
    return;
  }
  bool needRoi = ctx.targetOpset < 13 && !n.input(1);
  bool needScales = ctx.targetOpset < 13 && !n.input(2);
  if (!needRoi && !needScales) return compatibleVersionStep(n, ctx);
  ctx.note = "empty roi/scales inputs filled in for Resize-11";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "resize" : n.name;
  while (n.inputs().size() < 3) n.addInput(nullptr);
  if (needRoi) n.setInput(1, emptyFloats(ctx, base + "_roi"));
  if (needScales) n.setInput(2, emptyFloats(ctx, base + "_scales"));
}

// Upsample-7/9 -> Resize-10+ (Upsample is deprecated from 10 and fails the checker there).
void upsampleToResize(ir::Node& n, HandlerContext& ctx) {
  std::vector<float> scales;
  ir::Value* scalesIn = n.input(1);
  if (!scalesIn) {
    auto a = n.attr("scales");
    if (!a) throw Unsupported("Upsample without scales");
    scales = a->floats;
  }
  std::string mode = n.attrString("mode", "nearest");
  ctx.note = "Upsample -> Resize (asymmetric" + std::string(mode == "nearest" ? ", floor)" : ")");
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "upsample" : n.name;
  if (!scalesIn) scalesIn = floats(ctx, base + "_scales", scales);
  ir::Value* out = n.output(0);
  std::vector<ir::Value*> inputs{n.input(0)};
  if (ctx.targetOpset >= 11) inputs.push_back(emptyFloats(ctx, base + "_roi"));
  inputs.push_back(scalesIn);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  ir::Node* r = ctx.insertNode(n, "Resize", inputs, {out});
  r->setAttr(ir::Attribute::makeString("mode", mode == "bilinear" ? "linear" : mode));
  if (ctx.targetOpset >= 11) {
    r->setAttr(ir::Attribute::makeString("coordinate_transformation_mode", "asymmetric"));
    if (mode == "nearest") r->setAttr(ir::Attribute::makeString("nearest_mode", "floor"));
  }
  ctx.removeReplaced(n);
}

}  // namespace

void registerResizeAdapters(HandlerRegistry& r) {
  add(r, "Resize", 7, "opsets 7-10: asymmetric nearest(floor)/linear Resize -> Upsample (7-9) or Resize-10",
      toAsymmetricResize);
  add(r, "Resize", 11, "opset 11+: Resize-10 meaning spelled out; empty roi/scales filled in below 13", toResize11);
  add(r, "Upsample", 10, "opset 10+: Upsample -> Resize with asymmetric coordinates", upsampleToResize);
}

}  // namespace fb::convert::onnx_onnx
