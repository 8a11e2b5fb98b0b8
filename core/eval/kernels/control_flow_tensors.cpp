#include "eval/kernels/control_flow_tensors.h"

#include <cstring>
#include <string>

#include "eval/runtime/run_error.h"
#include "ir/packed_types.h"

namespace fb::eval {

namespace {

// Bytes per element, or 0 for strings; sub-byte types cannot be cut at arbitrary elements.
size_t bytesPerElement(ir::DataType t) {
  if (t == ir::DataType::String) return 0;
  if (ir::elementBits(t) % 8 != 0)
    unsupported("slicing " + std::string(ir::dataTypeName(t)) + " tensors (elements narrower than a byte)");
  return ir::elementSize(t);
}

int64_t product(const std::vector<int64_t>& dims, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t k = from; k < to; ++k) n *= dims[k];
  return n;
}

// Copies `count` elements from `src` at element `from` into `dst` at element `to`.
void copyElements(const Tensor& src, int64_t from, Tensor& dst, int64_t to, int64_t count) {
  if (count <= 0) return;
  if (src.isString()) {
    const auto& in = src.stringValues();
    auto& out = dst.mutableStrings();
    std::copy(in.begin() + from, in.begin() + from + count, out.begin() + to);
    return;
  }
  const size_t es = bytesPerElement(src.dtype());
  std::memcpy(dst.mutableData<std::byte>() + static_cast<size_t>(to) * es,
              src.bytes().data() + static_cast<size_t>(from) * es, static_cast<size_t>(count) * es);
}

}  // namespace

size_t normalizedAxis(int64_t axis, size_t rank, const char* what) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    badInput(std::string(what) + " " + std::to_string(axis) + " is outside [-" + std::to_string(r) + ", " +
             std::to_string(r) + ")");
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

Tensor sliceAlong(const Tensor& t, size_t axis, int64_t start, int64_t length, bool keepAxis) {
  if (axis >= t.rank()) badInput("axis " + std::to_string(axis) + " of " + describe(t));
  const int64_t extent = t.dim(axis);
  if (start < 0 || length < 0 || start > extent || length > extent - start)
    badInput("entries " + std::to_string(start) + ".." + std::to_string(start + length) + " along axis " +
             std::to_string(axis) + " of " + describe(t));
  std::vector<int64_t> dims = t.dims();
  if (keepAxis)
    dims[axis] = length;
  else
    dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(axis));
  Tensor out = Tensor::empty(t.dtype(), dims);
  const int64_t outer = product(t.dims(), 0, axis);
  const int64_t inner = product(t.dims(), axis + 1, t.rank());
  for (int64_t o = 0; o < outer; ++o)
    copyElements(t, (o * extent + start) * inner, out, o * length * inner, length * inner);
  return out;
}

Tensor joinAlong(const std::vector<const Tensor*>& parts, size_t axis, bool newAxis) {
  if (parts.empty()) badInput("nothing to join");
  const Tensor& first = *parts.front();
  const size_t rank = first.rank();
  if (axis > rank || (!newAxis && axis == rank))
    badInput("axis " + std::to_string(axis) + " to join tensors of rank " + std::to_string(rank));
  std::vector<int64_t> dims = first.dims();
  int64_t joined = 0;
  for (const Tensor* p : parts) {
    if (p->dtype() != first.dtype()) badInput("joining " + describe(*p) + " to " + describe(first));
    bool fits = p->rank() == rank;
    for (size_t k = 0; fits && k < rank; ++k) fits = p->dim(k) == first.dim(k) || (!newAxis && k == axis);
    if (!fits) badInput("joining " + describe(*p) + " to " + describe(first) + " along axis " + std::to_string(axis));
    joined += newAxis ? 1 : p->dim(axis);
  }
  if (newAxis)
    dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(axis), joined);
  else
    dims[axis] = joined;
  Tensor out = Tensor::empty(first.dtype(), dims);
  const int64_t outer = product(first.dims(), 0, axis);
  const int64_t inner = product(first.dims(), newAxis ? axis : axis + 1, rank);
  int64_t at = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor* p : parts) {
      const int64_t block = (newAxis ? 1 : p->dim(axis)) * inner;
      copyElements(*p, o * block, out, at, block);
      at += block;
    }
  return out;
}

void IterationStack::append(const Tensor& item) {
  if (count_ == 0 && capacity_ == 0) {
    itemDims_ = item.dims();
    itemElements_ = item.size();
  } else if (item.dims() != itemDims_ || item.dtype() != buffer_.dtype()) {
    std::string earlier = std::string(ir::dataTypeName(buffer_.dtype())) + "[";
    for (size_t k = 0; k < itemDims_.size(); ++k) earlier += (k ? "," : "") + std::to_string(itemDims_[k]);
    badInput("iteration " + std::to_string(count_) + " gives " + describe(item) + " where the earlier ones gave " +
             earlier + "]");
  }
  if (count_ == capacity_) {
    const int64_t grown = std::max<int64_t>(4, capacity_ * 2);
    std::vector<int64_t> dims{grown * std::max<int64_t>(itemElements_, 1)};
    Tensor bigger = Tensor::empty(item.dtype(), dims);
    copyElements(buffer_, 0, bigger, 0, count_ * itemElements_);
    buffer_ = std::move(bigger);
    capacity_ = grown;
  }
  copyElements(item, 0, buffer_, count_ * itemElements_, itemElements_);
  ++count_;
}

Tensor IterationStack::finish(const ir::TypeInfo& declared) {
  if (count_ == 0) return zeroStack(declared, 0, 0);
  std::vector<int64_t> dims{count_};
  dims.insert(dims.end(), itemDims_.begin(), itemDims_.end());
  Tensor out = sliceAlong(buffer_, 0, 0, count_ * itemElements_, true);
  buffer_ = Tensor();
  capacity_ = count_ = 0;
  return out.reshaped(dims);
}

Tensor zeroStack(const ir::TypeInfo& declared, size_t axis, int64_t entries) {
  std::vector<int64_t> dims;
  if (declared.shape)
    for (const ir::Dim& d : *declared.shape) {
      if (!d.isValue() && entries > 0)
        unsupported("padding a scan output whose shape the body does not declare (" + declared.toString() + ")");
      dims.push_back(d.isValue() ? d.value : 0);
    }
  else if (entries > 0)
    unsupported("padding a scan output whose shape the body does not declare");
  dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(std::min(axis, dims.size())), entries);
  const ir::DataType t =
      declared.isTensor() && declared.elemType != ir::DataType::Undefined ? declared.elemType : ir::DataType::Float;
  return Tensor::zeros(t, dims);
}

}  // namespace fb::eval
