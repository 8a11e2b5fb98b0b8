#pragma once
// What the shape family's files share: axis and index checks, moving elements of any type (bytes by element size,
// strings as strings), and one strided copy that Transpose, Slice, Expand, Tile and the depth/space ops reduce to.
// Internal to kernels/shape*.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/run_error.h"
#include "eval/runtime/tensor.h"

namespace fb::eval::shape {

// The parts of registerShapeKernels, one per file.
void registerViewKernels(KernelRegistry& r);      // shape_views.cpp: Identity, Reshape, Flatten, Squeeze, ...
void registerConstantKernels(KernelRegistry& r);  // shape_constants.cpp: Constant, ConstantOfShape, Range, ...
void registerCopyKernels(KernelRegistry& r);      // shape_copy.cpp: Transpose, Concat, Split, Slice, Expand, ...
void registerPadKernels(KernelRegistry& r);       // shape_pad.cpp: Pad, CenterCropPad
void registerGatherKernels(KernelRegistry& r);    // shape_gather.cpp: Gather*, Compress, NonZero, Trilu, ...
void registerScatterKernels(KernelRegistry& r);   // shape_scatter.cpp: Scatter*, Col2Im
void registerDropoutKernels(KernelRegistry& r);   // shape_dropout.cpp: Dropout

// `axis` in [-rank, rank) as [0, rank); BadInput naming `what` otherwise.
int64_t normalizeAxis(int64_t axis, int64_t rank, const std::string& what);
// Sorted, normalised, distinct axes; BadInput on a repeat or an axis out of range.
std::vector<int64_t> normalizeAxes(const std::vector<int64_t>& axes, int64_t rank, const std::string& what);

// The values of an integer tensor (int32 or int64, as every shape, axes and index input is); BadInput naming
// `what` for another element type.
std::vector<int64_t> indexValues(const Tensor& t, const std::string& what);
// A scalar or one-element tensor's integer value.
int64_t scalarIndex(const Tensor& t, const std::string& what);

// The integer list attribute `name`, or input `k` from opset `inputSince` on (the pattern of axes, split, starts,
// pads ... that moved from attributes to inputs); `present` says whether either was given.
std::vector<int64_t> intsFromAttrOrInput(const KernelContext& c, const char* name, size_t k, int64_t inputSince,
                                         bool* present = nullptr);

// a + b and a * b in int64, BadInput on overflow (sizes computed from data before Tensor::empty sees them).
int64_t checkedAdd(int64_t a, int64_t b);
int64_t checkedMul(int64_t a, int64_t b);

// Row-major strides (in elements) of `dims`.
std::vector<int64_t> stridesOf(const std::vector<int64_t>& dims);

// Copies and fills elements between tensors of one element type: memcpy by element size for every fixed-size type
// (float16, bfloat16 and float8 included, as bytes), std::string copies for strings. Sub-byte types (int4, uint4,
// float4, int2, uint2: several elements a byte) cannot be moved one element at a time and are refused.
class ElementMover {
 public:
  ElementMover(const Tensor& src, Tensor& dst, const char* op);
  void copy(int64_t dstIndex, int64_t srcIndex, int64_t count) const;
  // dst[dstIndex + k] = src[srcIndex + k * srcStride] for k < count.
  void copyStrided(int64_t dstIndex, int64_t srcIndex, int64_t count, int64_t srcStride) const;
  // dst[dstIndex .. +count) = value's element `at` (value is of the same type).
  void fill(int64_t dstIndex, int64_t count, const Tensor& value, int64_t at = 0) const;
  size_t elementSize() const { return es_; }  // 0 for strings

 private:
  size_t es_;
  const std::byte* src_;
  std::byte* dst_;
  const std::string* srcStrings_ = nullptr;
  std::string* dstStrings_ = nullptr;
};

// A fixed-size element as one object, so that typed loops move it in a register rather than through memcpy calls.
template <size_t N>
struct Bytes {
  unsigned char b[N];
};

// Calls f.template operator()<Bytes<es>>() for es of 1, 2, 4, 8 or 16 (every fixed-size element type, and short
// runs of them moved as one); Unsupported for other sizes.
template <typename F>
void withElementBytes(size_t es, F&& f) {
  switch (es) {
    case 1:
      return f.template operator()<Bytes<1>>();
    case 2:
      return f.template operator()<Bytes<2>>();
    case 4:
      return f.template operator()<Bytes<4>>();
    case 8:
      return f.template operator()<Bytes<8>>();
    case 16:
      return f.template operator()<Bytes<16>>();
    default:
      unsupported("moving elements of " + std::to_string(es) + " bytes");
  }
}

// Sub-byte types (int4, uint4, float4e2m1: two a byte; int2, uint2: four a byte) as one uint8 code per element (the
// element's bits, low first), and codes back into the packed type: the few ops ONNX allows these types in and that
// move elements (Transpose, Pad, ConstantOfShape) move the codes and pack them again.
bool isPacked(ir::DataType t);
Tensor unpackCodes(const Tensor& t);
Tensor packCodes(const Tensor& codes, ir::DataType t);

// Bytes a fixed-size element takes; Unsupported for strings' absence of one and for sub-byte types.
size_t movableElementSize(ir::DataType t, const char* op);

// out[i] = src[base + sum_k idx_k * srcStrides[k]] for every index idx of `viewDims` (out seen with those dims,
// row-major; their product is out's size), with contiguous runs copied by memcpy and broadcast runs (stride 0)
// filled. Strides may be negative (Slice steps). The caller has checked that every index read lies inside `src`.
void stridedCopy(const Tensor& src, int64_t base, const std::vector<int64_t>& viewDims,
                 const std::vector<int64_t>& srcStrides, Tensor& out, int threads, const char* op);

}  // namespace fb::eval::shape
