#pragma once
// NumPy's .npy files (format versions 1.0 and 2.0, little-endian, C order): how `run --save-outputs` writes values
// and how `run --input` and `compare --inputs` read them, so that arrays move between FlowBridge, NumPy and ONNX
// Runtime without a conversion step.
#include <optional>
#include <string>

#include "eval/runtime/tensor.h"

namespace fb::eval {

// The dtype string NumPy writes for `t` ("<f4", "|b1"), or nullopt when NumPy has no such dtype (bfloat16, the
// float8/int4 types, strings, complex).
std::optional<std::string> npyDescr(ir::DataType t);

// Reads `path`. Throws InputError naming the file when it is not a .npy file FlowBridge reads: another magic or
// version, a header that is not NumPy's dict, big-endian or Fortran order, a dtype outside f2 f4 f8 i1 i2 i4 i8 u1
// u2 u4 u8 b1, or data of another length than the shape needs. Bool bytes other than 0 read as true.
Tensor readNpyFile(const std::string& path);

// Writes `t` atomically. A type NumPy lacks is written widened to float32 through its exact decoding (bfloat16,
// float8, int4...): the result says so ("bfloat16 written as float32"), empty when the type was kept. Strings and
// complex numbers are refused (OutputError naming the file).
std::string writeNpyFile(const std::string& path, const Tensor& t);

}  // namespace fb::eval
