#pragma once
// The weights file that goes with a generated model.py: a PyTorch checkpoint that torch.load reads, or OneFlow's
// per-variable folder that oneflow.load reads in every release from 0.5 to 1.0.
#include <optional>
#include <string>
#include <vector>

#include "codegen/flavour.h"
#include "ir/tensor.h"

namespace fb::codegen {

// The element type a weight of type `t` is declared in model.py and written as for `flavour`: `t` itself when the
// library has it, else the type that holds every value of `t` exactly (int4/int2 -> int8, uint4/uint2 -> uint8,
// float8/float4 -> float32), else nullopt (PyTorch: uint16/32/64; OneFlow: bfloat16, uint16/32/64; strings). Code
// generation (so `check` too) refuses a weight of a nullopt type and the writers widen by this one rule, so a
// model `check` calls convertible is one whose weights `convert` can write.
std::optional<ir::DataType> storedWeightType(ir::DataType t, Flavour flavour);
// `t`'s values in `to`, which must hold every one of them exactly (ir::exactWideningOf).
ir::Tensor widenedExactly(const ir::Tensor& t, ir::DataType to);

struct NamedTensor {
  std::string key;  // the state-dict key, e.g. "layer1.0.conv1.weight"
  const ir::Tensor* tensor;
};

struct TorchWriteOptions {
  bool forceZip64 = false;  // zip64 records even below 4 GiB (they are written anyway past it)
};

// One file in PyTorch's zip layout: archive/data.pkl (a protocol 2 pickle of an OrderedDict of tensors whose
// storages are persistent ids ('storage', torch.<Type>Storage, key, 'cpu', numel)), archive/data/<key> (raw
// little-endian, 64-byte aligned), archive/version, archive/byteorder. Module.load_state_dict(strict=True) accepts
// it. Tensors that are the same ir::Tensor share one storage. Written atomically. Throws OutputError naming the
// file and the key for a duplicate key, a key that is not UTF-8, a dtype PyTorch has no storage for (uint16/32/64,
// string), or a tensor whose bytes do not match its shape. Sub-byte and float8 tensors are written widened by
// storedWeightType.
void writeTorchStateDict(const std::vector<NamedTensor>& tensors, const std::string& path,
                         const TorchWriteOptions& options = {});

// OneFlow's format A: <dir>/<key>/out (raw little-endian bytes) + <dir>/<key>/meta (text VariableMetaInfo), then
// <dir>/snapshot_done. Written into a temporary folder beside `dir` and renamed; an existing `dir` is replaced
// only when it is empty or a previous weight folder (it has snapshot_done). Throws OutputError for keys that
// are empty, contain '/', or are "." / ".." / "snapshot_done", duplicate keys, and dtypes OneFlow cannot save
// (bfloat16, unsigned 16/32/64, string). Sub-byte and float8 tensors are written widened by storedWeightType.
void writeOneflowVariableDir(const std::vector<NamedTensor>& tensors, const std::string& dir);

}  // namespace fb::codegen
