#pragma once
// Conversions between element types (the Cast kernel's arithmetic, and how float16/bfloat16 inputs are widened
// for kernels that compute in float), and the check that a value given for a graph input fits its declared type.
#include "eval/runtime/tensor.h"
#include "eval/runtime/value.h"
#include "ir/value.h"

namespace fb::eval {

// `t` as `to`: numeric, bool, float16 and bfloat16 both ways (round to nearest even); float8/int4/float4 and
// the other narrow types read through their exact decoding. Float to integer truncates toward zero, as C++ and
// ONNX's Cast do; values out of the target's range are undefined in ONNX and saturate here. A tensor already of
// type `to` is returned as it is (bytes shared). Throws Unsupported for strings and encoding to narrow types.
Tensor castTensor(const Tensor& t, ir::DataType to);

// Throws RunError(BadInput) when `x` does not fit what the model declares for input `v`: another element type,
// rank, or a fixed dim of another size ("input 'x' is float[1,3,32,32] where the model declares float[1,3,224,224]").
void checkInputFits(const ir::Value& v, const Value& x);

}  // namespace fb::eval
