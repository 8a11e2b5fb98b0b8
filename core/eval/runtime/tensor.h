#pragma once
// A tensor as the evaluator computes with it: the element type the model names (float stays float, float16 stays
// 16-bit in memory), dims, and bytes that are shared, not copied, between values that alias them (Reshape,
// Identity, an initializer read straight from the model). Bytes are 64-byte aligned when the evaluator allocates
// them, as oneDNN prefers. Strings are kept as a vector beside the (empty) bytes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/data_type.h"
#include "ir/tensor.h"

namespace fb::eval {

class Tensor {
 public:
  Tensor() = default;

  // Uninitialised storage of this type and shape, charged to the run's memory budget first (run_budget.h).
  static Tensor empty(ir::DataType t, std::vector<int64_t> dims);
  static Tensor zeros(ir::DataType t, std::vector<int64_t> dims);
  static Tensor strings(std::vector<int64_t> dims, std::vector<std::string> values);
  // A 0-d tensor holding `v` converted to `t` (any numeric type, bool, float16/bfloat16).
  static Tensor scalar(ir::DataType t, double v);
  static Tensor int64s(std::vector<int64_t> dims, const std::vector<int64_t>& v);
  static Tensor floats(std::vector<int64_t> dims, const std::vector<float>& v);
  // The model's tensor, sharing (and holding) its bytes when they are aligned for the element type, else a copy.
  // Sub-byte and float8 types keep their packed bytes.
  static Tensor fromModel(const ir::Tensor& t);
  // A copy of the bytes in a new ir::Tensor (Raw storage).
  ir::Tensor toModel(std::string name) const;

  ir::DataType dtype() const { return dtype_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  size_t rank() const { return dims_.size(); }
  int64_t dim(size_t k) const { return dims_[k]; }
  int64_t size() const { return count_; }  // elements
  size_t byteSize() const { return bytes_; }
  bool isString() const { return dtype_ == ir::DataType::String; }

  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(data_);
  }
  // Writable bytes: only for a tensor this kernel created (empty/zeros/copy), never for an input.
  template <typename T>
  T* mutableData() {
    return reinterpret_cast<T*>(const_cast<std::byte*>(data_));
  }
  std::span<const std::byte> bytes() const { return {data_, bytes_}; }
  // True for a model's constant (fromModel): its bytes never change while `holder()` lives, so copies derived from
  // them may be kept across runs (derived_copy_cache.h).
  bool isModelConstant() const { return modelConstant_; }
  const std::shared_ptr<const void>& holder() const { return owner_; }
  const std::vector<std::string>& stringValues() const;
  std::vector<std::string>& mutableStrings();

  // The same bytes under other dims (same element count).
  Tensor reshaped(std::vector<int64_t> dims) const;
  // A deep copy (charged to the budget).
  Tensor copy() const;

  // Element k as double / int64 (any numeric type, bool, float16, bfloat16, float8/int4 through exact decoding):
  // for small index and shape tensors, not for bulk math.
  double doubleAt(int64_t k) const;
  int64_t int64At(int64_t k) const;
  std::vector<int64_t> toInt64s() const;  // every element through int64At
  std::vector<double> toDoubles() const;

 private:
  ir::DataType dtype_ = ir::DataType::Float;
  std::vector<int64_t> dims_;
  int64_t count_ = 0;
  size_t bytes_ = 0;
  const std::byte* data_ = nullptr;
  std::shared_ptr<const void> owner_;  // keeps data_ alive
  bool modelConstant_ = false;
  std::shared_ptr<std::vector<std::string>> strings_;
};

// Elements for `dims`; throws RunError(BadInput) when a dim is negative or the count overflows int64.
int64_t checkedElementCount(const std::vector<int64_t>& dims);
// "float32[1,3,224,224]": for messages.
std::string describe(const Tensor& t);

}  // namespace fb::eval
