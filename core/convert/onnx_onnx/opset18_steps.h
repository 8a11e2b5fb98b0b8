#pragma once
// The step adapters from opsets 18-26 to 17 that live in their own files (opset18_down.cpp dispatches to them).
#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// New ops written as exact opset-17 bodies (opset18_functions.cpp unless noted).
void groupNormalizationTo17(ir::Node& n, HandlerContext& ctx);  // 18 (scale per group) and 21 (per channel)
void rmsNormalizationTo17(ir::Node& n, HandlerContext& ctx);    // 23
void rotaryEmbeddingTo17(ir::Node& n, HandlerContext& ctx);     // 23
void affineGridTo17(ir::Node& n, HandlerContext& ctx);          // 20, constant size
void centerCropPadTo17(ir::Node& n, HandlerContext& ctx);       // 18, constant shape, static input dims
void bitwiseNotTo17(ir::Node& n, HandlerContext& ctx);          // 18: all-ones - x
void bitwiseBinaryTo17(ir::Node& n, HandlerContext& ctx);       // 18 And/Or/Xor up to 32 bits (opset18_bitwise.cpp)
void attentionTo17(ir::Node& n, HandlerContext& ctx);  // 23-25: scaled dot-product attention (opset18_attention.cpp)

// Inputs and attributes that moved or gained values (opset18_inputs.cpp).
void padTo17(ir::Node& n, HandlerContext& ctx);  // 18 axes input, 19 wrap mode
void resizeTo17(ir::Node& n,
                HandlerContext& ctx);            // 18 axes/antialias/keep_aspect_ratio_policy, 19 half_pixel_symmetric
void dftTo17(ir::Node& n, HandlerContext& ctx);  // 20 axis input -> attribute
void gridSampleTo17(ir::Node& n, HandlerContext& ctx);  // 20 mode names
void optionalTo17(ir::Node& n, HandlerContext& ctx);    // 18 Optional* on plain tensors

void scatterMaxMinTo17(ir::Node& n,
                       HandlerContext& ctx);  // 18 max/min, distinct constant indices (opset18_scatter.cpp)
void tensorScatterTo17(ir::Node& n, HandlerContext& ctx);  // 24, constant write_indices (opset18_scatter.cpp)
void cumProdTo17(ir::Node& n, HandlerContext& ctx);  // 26, constant axis, static length: unrolled (opset18_cumprod.cpp)
void col2ImTo17(ir::Node& n, HandlerContext& ctx);   // 18, constant shapes -> ConvTranspose (opset18_col2im.cpp)
// 18/22 dilations -> Pow + Conv of ones with `pads` (opset18_pool.cpp)
void lpPoolDilatedTo17(ir::Node& n, HandlerContext& ctx, const std::vector<int64_t>& pads);
// 18/22 ceil_mode=1 -> the pads whose end pads give opset 17's floor rule the same windows (opset18_pool.cpp)
std::vector<int64_t> lpPoolCeilModePads(const ir::Node& n, const HandlerContext& ctx);
void averagePoolDilatedTo17(ir::Node& n, HandlerContext& ctx);  // 19/22 dilations -> depthwise Conv (opset18_pool.cpp)

// DequantizeLinear of a constant blocked or narrow-typed weight -> a float Constant (opset18_dequantize.cpp).
// False when the node is not of that kind (the other adapters decide then).
bool foldConstantDequantize(ir::Node& n, HandlerContext& ctx);

}  // namespace fb::convert::onnx_onnx
