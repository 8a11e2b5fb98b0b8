// GridSample exists from 16. Below, for 4-D float X and grid with static shapes, bilinear or nearest
// sampling with zeros or border padding is written out: grid coordinates are unnormalized as GridSample-16
// states (align_corners either way), each corner pixel is one Gather from X laid out as [N*H*W, C] (its flat
// position is exact in float for fewer than 2^24 pixels), weighted by the bilinear weights and by a 0/1 mask
// for corners outside X (zeros padding; border padding clamps the coordinates first). Nearest rounds half to
// even, which needs Round (11). Bicubic and reflection padding are refused.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void writtenOut(ir::Node& n, HandlerContext& ctx) {
  if (ctx.targetOpset >= 16) return compatibleVersionStep(n, ctx);
  const std::string mode = n.attrString("mode", "bilinear");
  const std::string padding = n.attrString("padding_mode", "zeros");
  const bool align = n.attrInt("align_corners", 0) != 0;
  if (mode != "bilinear" && mode != "nearest")
    throw Unsupported("GridSample: mode=\"" + mode + "\" is not written out below opset 16");
  if (padding != "zeros" && padding != "border")
    throw Unsupported("GridSample: padding_mode=\"" + padding + "\" is not written out below opset 16");
  if (mode == "nearest" && ctx.targetOpset < 11)
    throw Unsupported("GridSample: mode=\"nearest\" rounds half to even, which needs Round (opset 11)");
  if (ctx.elemType(n.input(0)) != ir::DataType::Float || ctx.elemType(n.input(1)) != ir::DataType::Float)
    throw Unsupported("GridSample below opset 16 is written out for float X and grid only");
  auto xs = ctx.staticShape(n.input(0));
  auto gs = ctx.staticShape(n.input(1));
  if (!xs || !gs) throw Unsupported("GridSample below opset 16 needs static shapes of X and grid");
  if (xs->size() != 4 || gs->size() != 4 || (*gs)[3] != 2 || (*gs)[0] != (*xs)[0])
    throw Unsupported("GridSample below opset 16 is written out for 4-D X only");
  const int64_t N = (*xs)[0], C = (*xs)[1], H = (*xs)[2], W = (*xs)[3], Ho = (*gs)[1], Wo = (*gs)[2];
  if (N * H * W >= (int64_t{1} << 24))
    throw Unsupported("GridSample: X has too many pixels for exact float positions below opset 16");
  ctx.note = "mode=" + mode + ", padding_mode=" + padding + " written out with Gather (static shapes)";
  if (!ctx.commit()) return;

  const std::string base = n.name.empty() ? "gridsample" : n.name;
  auto op = [&](const char* type, std::vector<ir::Value*> ins, ir::Value* out = nullptr) {
    if (!out) out = ctx.newValue(base + "_" + type);
    ctx.insertNode(n, type, ins, {out});
    return out;
  };
  auto attrOp = [&](const char* type, std::vector<ir::Value*> ins, ir::Attribute a) {
    ir::Value* out = ctx.newValue(base + "_" + type);
    ctx.insertNode(n, type, ins, {out})->setAttr(std::move(a));
    return out;
  };
  auto f = [&](float v) { return ctx.constantFloat(base + "_c", {v}, true); };
  auto clamp = [&](ir::Value* v, float lo, float hi) {
    ir::Value* out = ctx.newValue(base + "_clamped");
    if (ctx.targetOpset >= 11) {
      ctx.insertNode(n, "Clip", {v, f(lo), f(hi)}, {out});
    } else {
      ir::Node* c = ctx.insertNode(n, "Clip", {v}, {out});
      c->setAttr(ir::Attribute::makeFloat("min", lo));
      c->setAttr(ir::Attribute::makeFloat("max", hi));
    }
    return out;
  };
  ir::Value* xflat = op("Reshape", {attrOp("Transpose", {n.input(0)}, ir::Attribute::makeInts("perm", {0, 2, 3, 1})),
                                    ctx.constantInt64(base + "_pixels", {N * H * W, C})});
  auto unnormalize = [&](int64_t component, int64_t size) {
    ir::Value* g = attrOp("Gather", {n.input(1), ctx.constantInt64(base + "_component", {component}, true)},
                          ir::Attribute::makeInt("axis", 3));
    ir::Value* shifted = op("Add", {g, f(1.0f)});
    ir::Value* c = align
                       ? op("Mul", {op("Div", {shifted, f(2.0f)}), f(static_cast<float>(size - 1))})
                       : op("Div", {op("Sub", {op("Mul", {shifted, f(static_cast<float>(size))}), f(1.0f)}), f(2.0f)});
    return padding == "border" ? clamp(c, 0.0f, static_cast<float>(size - 1)) : c;
  };
  ir::Value* x = unnormalize(0, W);
  ir::Value* y = unnormalize(1, H);
  std::vector<float> offsets(static_cast<size_t>(N));
  for (int64_t i = 0; i < N; ++i) offsets[static_cast<size_t>(i)] = static_cast<float>(i * H * W);
  ir::Value* batch =
      op("Reshape", {ctx.constantFloat(base + "_batch", offsets), ctx.constantInt64(base + "_batch_shape", {N, 1, 1})});
  auto inside = [&](ir::Value* c, int64_t size) {
    return op("And", {op("Greater", {c, f(-0.5f)}), op("Less", {c, f(static_cast<float>(size) - 0.5f)})});
  };
  // One corner: X at integer-valued (cx, cy), times `weight` and 0 outside X; [N, Ho, Wo, C].
  auto corner = [&](ir::Value* cx, ir::Value* cy, ir::Value* weight) {
    ir::Value* mask = attrOp("Cast", {op("And", {inside(cx, W), inside(cy, H)})},
                             ir::Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::Float)));
    ir::Value* w = weight ? op("Mul", {weight, mask}) : mask;
    ir::Value* pos =
        op("Add", {op("Add", {op("Mul", {clamp(cy, 0.0f, static_cast<float>(H - 1)), f(static_cast<float>(W))}),
                              clamp(cx, 0.0f, static_cast<float>(W - 1))}),
                   batch});
    ir::Value* idx = attrOp("Cast", {pos}, ir::Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::Int64)));
    ir::Value* v = attrOp("Gather", {xflat, idx}, ir::Attribute::makeInt("axis", 0));
    return op("Mul", {v, op("Reshape", {w, ctx.constantInt64(base + "_weight_shape", {N, Ho, Wo, 1})})});
  };
  ir::Value* sum = nullptr;
  if (mode == "nearest") {
    sum = corner(op("Round", {x}), op("Round", {y}), nullptr);
  } else {
    ir::Value* x0 = op("Floor", {x});
    ir::Value* y0 = op("Floor", {y});
    ir::Value* x1 = op("Add", {x0, f(1.0f)});
    ir::Value* y1 = op("Add", {y0, f(1.0f)});
    ir::Value* wx1 = op("Sub", {x, x0});
    ir::Value* wy1 = op("Sub", {y, y0});
    ir::Value* wx0 = op("Sub", {f(1.0f), wx1});
    ir::Value* wy0 = op("Sub", {f(1.0f), wy1});
    for (auto [cx, cy, w] : {std::tuple{x0, y0, op("Mul", {wx0, wy0})}, std::tuple{x1, y0, op("Mul", {wx1, wy0})},
                             std::tuple{x0, y1, op("Mul", {wx0, wy1})}, std::tuple{x1, y1, op("Mul", {wx1, wy1})}}) {
      ir::Value* c = corner(cx, cy, w);
      sum = sum ? op("Add", {sum, c}) : c;
    }
  }
  ir::Value* out = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  ctx.insertNode(n, "Transpose", {sum}, {out})->setAttr(ir::Attribute::makeInts("perm", {0, 3, 1, 2}));
  ctx.removeReplaced(n);
}

}  // namespace

void registerGridSampleAdapters(HandlerRegistry& r) {
  add(r, "GridSample", 7,
      "opsets 7-15: bilinear/nearest, zeros/border padding, 4-D static shapes written out with Gather", writtenOut);
  add(r, "GridSample", 16, "opset 16+: compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
