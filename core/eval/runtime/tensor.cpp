#include "eval/runtime/tensor.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "eval/eval_budget.h"
#include "eval/runtime/derived_copy_cache.h"
#include "eval/runtime/half.h"
#include "eval/runtime/memory_budget.h"
#include "eval/runtime/run_error.h"
#include "ir/packed_types.h"

namespace fb::eval {

namespace {

constexpr size_t kAlignment = 64;

size_t bytesFor(ir::DataType t, int64_t count) {
  if (t == ir::DataType::String) return 0;
  if (ir::elementBits(t) % 8 != 0) return ir::storageBytes(t, count);
  const size_t es = ir::elementSize(t);
  if (es == 0) unsupported("element type " + std::string(ir::dataTypeName(t)) + " has no fixed size");
  const uint64_t b = saturatingProduct(static_cast<uint64_t>(count), es);
  if (b == UINT64_MAX) badInput("a tensor of " + std::to_string(count) + " elements is too large");
  return b;
}

// Charges `bytes` to the run's budget; throws RunError(BadInput) when they would exceed it.
void charge(const std::shared_ptr<MemoryBudget>& budget, size_t bytes) {
  if (budget) {
    const uint64_t now = budget->live.fetch_add(bytes) + bytes;
    if (now > budget->maxLiveBytes) {
      budget->live.fetch_sub(bytes);
      badInput("a tensor of " + std::to_string(bytes >> 20) + " MiB would exceed the run's memory budget of " +
               std::to_string(budget->maxLiveBytes >> 20) + " MiB (FLOWBRIDGE_RUN_MEMORY_MB)");
    }
    uint64_t peak = budget->peak.load();
    while (now > peak && !budget->peak.compare_exchange_weak(peak, now)) {
    }
  }
}

// A string tensor's slots (the strings' own characters are not counted), charged like bytes before the vector
// is made, so a ConstantOfShape or Tile of strings is bounded as other types are; the holder gives them back.
std::shared_ptr<const void> chargeStringSlots(int64_t count) {
  auto budget = currentMemoryBudget();
  const uint64_t bytes = saturatingProduct(static_cast<uint64_t>(count), sizeof(std::string));
  if (bytes == UINT64_MAX) badInput("a string tensor of " + std::to_string(count) + " elements is too large");
  charge(budget, bytes);
  return std::shared_ptr<const void>(nullptr, [budget, bytes](const void*) {
    if (budget) budget->live.fetch_sub(bytes);
  });
}

// Aligned bytes whose release gives their size back to the budget they were charged to.
std::shared_ptr<const void> allocate(size_t bytes) {
  auto budget = currentMemoryBudget();
  charge(budget, bytes);
  void* p = std::aligned_alloc(kAlignment, (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment);
  if (!p) {
    if (budget) budget->live.fetch_sub(bytes);
    badInput("out of memory allocating " + std::to_string(bytes) + " bytes");
  }
  return std::shared_ptr<const void>(p, [budget, bytes](const void* q) {
    std::free(const_cast<void*>(q));
    if (budget) budget->live.fetch_sub(bytes);
  });
}

}  // namespace

int64_t checkedElementCount(const std::vector<int64_t>& dims) {
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) badInput("a negative dimension (" + std::to_string(d) + ")");
    n = saturatingProduct(n, static_cast<uint64_t>(d));
    if (n > static_cast<uint64_t>(INT64_MAX)) badInput("a tensor with more elements than int64 can count");
  }
  return static_cast<int64_t>(n);
}

Tensor Tensor::empty(ir::DataType t, std::vector<int64_t> dims) {
  Tensor r;
  r.dtype_ = t;
  r.count_ = checkedElementCount(dims);
  r.dims_ = std::move(dims);
  chargeArray(static_cast<uint64_t>(r.count_));  // constant folding's own limit, when a fold is running
  if (t == ir::DataType::String) {
    r.owner_ = chargeStringSlots(r.count_);
    r.strings_ = std::make_shared<std::vector<std::string>>(r.count_);
    return r;
  }
  r.bytes_ = bytesFor(t, r.count_);
  r.owner_ = allocate(r.bytes_);
  r.data_ = static_cast<const std::byte*>(r.owner_.get());
  return r;
}

Tensor Tensor::zeros(ir::DataType t, std::vector<int64_t> dims) {
  Tensor r = empty(t, std::move(dims));
  if (r.bytes_) std::memset(r.mutableData<std::byte>(), 0, r.bytes_);
  return r;
}

Tensor Tensor::strings(std::vector<int64_t> dims, std::vector<std::string> values) {
  Tensor r = empty(ir::DataType::String, std::move(dims));
  if (static_cast<int64_t>(values.size()) != r.count_) badInput("string tensor values do not match its shape");
  *r.strings_ = std::move(values);
  return r;
}

Tensor Tensor::scalar(ir::DataType t, double v) {
  Tensor r = empty(t, {});
  switch (t) {
    case ir::DataType::Float16:
      *r.mutableData<uint16_t>() = floatToHalfBits(static_cast<float>(v));
      break;
    case ir::DataType::BFloat16:
      *r.mutableData<uint16_t>() = floatToBfloat16Bits(static_cast<float>(v));
      break;
    case ir::DataType::Float:
      *r.mutableData<float>() = static_cast<float>(v);
      break;
    case ir::DataType::Double:
      *r.mutableData<double>() = v;
      break;
    case ir::DataType::Bool:
      *r.mutableData<bool>() = v != 0;
      break;
    case ir::DataType::Int8:
      *r.mutableData<int8_t>() = static_cast<int8_t>(v);
      break;
    case ir::DataType::Int16:
      *r.mutableData<int16_t>() = static_cast<int16_t>(v);
      break;
    case ir::DataType::Int32:
      *r.mutableData<int32_t>() = static_cast<int32_t>(v);
      break;
    case ir::DataType::Int64:
      *r.mutableData<int64_t>() = static_cast<int64_t>(v);
      break;
    case ir::DataType::UInt8:
      *r.mutableData<uint8_t>() = static_cast<uint8_t>(v);
      break;
    case ir::DataType::UInt16:
      *r.mutableData<uint16_t>() = static_cast<uint16_t>(v);
      break;
    case ir::DataType::UInt32:
      *r.mutableData<uint32_t>() = static_cast<uint32_t>(v);
      break;
    case ir::DataType::UInt64:
      *r.mutableData<uint64_t>() = static_cast<uint64_t>(v);
      break;
    default:
      unsupported("a scalar of type " + std::string(ir::dataTypeName(t)));
  }
  return r;
}

Tensor Tensor::int64s(std::vector<int64_t> dims, const std::vector<int64_t>& v) {
  Tensor r = empty(ir::DataType::Int64, std::move(dims));
  if (static_cast<int64_t>(v.size()) != r.count_) badInput("int64 values do not match the shape");
  if (!v.empty()) std::memcpy(r.mutableData<int64_t>(), v.data(), v.size() * 8);
  return r;
}

Tensor Tensor::floats(std::vector<int64_t> dims, const std::vector<float>& v) {
  Tensor r = empty(ir::DataType::Float, std::move(dims));
  if (static_cast<int64_t>(v.size()) != r.count_) badInput("float values do not match the shape");
  if (!v.empty()) std::memcpy(r.mutableData<float>(), v.data(), v.size() * 4);
  return r;
}

Tensor Tensor::fromModel(const ir::Tensor& t) {
  if (t.dtype == ir::DataType::String) {
    std::vector<std::string> s(t.strings.begin(), t.strings.end());
    return strings(t.dims, std::move(s));
  }
  Tensor r;
  r.dtype_ = t.dtype;
  r.count_ = checkedElementCount(t.dims);
  r.dims_ = t.dims;
  r.bytes_ = bytesFor(t.dtype, r.count_);
  auto b = t.bytes();
  if (b.size() < r.bytes_)
    badInput("tensor '" + t.name + "' holds " + std::to_string(b.size()) + " bytes where its shape needs " +
             std::to_string(r.bytes_));
  const size_t align = std::max<size_t>(1, ir::elementSize(t.dtype));
  // A bool byte other than 0 or 1 read as C++ bool is undefined behaviour: such tensors are copied as 0/1.
  bool normalizeBools = false;
  if (t.dtype == ir::DataType::Bool)
    for (size_t k = 0; k < r.bytes_ && !normalizeBools; ++k) normalizeBools = static_cast<uint8_t>(b[k]) > 1;
  if (normalizeBools) {
    r.owner_ = allocate(r.bytes_);
    r.data_ = static_cast<const std::byte*>(r.owner_.get());
    auto* out = const_cast<std::byte*>(r.data_);
    for (size_t k = 0; k < r.bytes_; ++k) out[k] = std::byte{b[k] != std::byte{0}};
    return r;
  }
  if (reinterpret_cast<uintptr_t>(b.data()) % align == 0) {
    // The model's bytes, not a copy; held, so that a value outliving the model (a run's output that is an
    // initializer, a function body's constant) stays valid.
    r.owner_ = t.sharedBytes();
    r.data_ = b.data();
    r.modelConstant_ = r.owner_ != nullptr;
    return r;
  }
  if (std::shared_ptr<const void> source = t.sharedBytes(); source && r.bytes_ > 0) {
    // An aligned copy made once per loaded model, not per run.
    const size_t n = r.bytes_;
    r.owner_ = derivedCopy(source, b.data(), "aligned", n, [&](void* p) { std::memcpy(p, b.data(), n); });
    r.data_ = static_cast<const std::byte*>(r.owner_.get());
    r.modelConstant_ = true;
    return r;
  }
  r.owner_ = allocate(r.bytes_);
  r.data_ = static_cast<const std::byte*>(r.owner_.get());
  std::memcpy(const_cast<std::byte*>(r.data_), b.data(), r.bytes_);
  return r;
}

ir::Tensor Tensor::toModel(std::string name) const {
  ir::Tensor t;
  t.name = std::move(name);
  t.dtype = dtype_;
  t.dims = dims_;
  if (isString()) {
    for (const auto& s : stringValues()) t.strings.push_back(s);
    t.storage = ir::Tensor::Storage::Typed;
  } else {
    t.setBytes(std::string(reinterpret_cast<const char*>(data_), bytes_));
  }
  return t;
}

const std::vector<std::string>& Tensor::stringValues() const {
  static const std::vector<std::string> none;
  return strings_ ? *strings_ : none;
}

std::vector<std::string>& Tensor::mutableStrings() {
  if (!strings_) strings_ = std::make_shared<std::vector<std::string>>();
  return *strings_;
}

Tensor Tensor::reshaped(std::vector<int64_t> dims) const {
  if (checkedElementCount(dims) != count_) badInput("cannot reshape " + describe(*this) + " to other element count");
  Tensor r = *this;
  r.dims_ = std::move(dims);
  return r;
}

Tensor Tensor::copy() const {
  if (isString()) return strings(dims_, stringValues());
  Tensor r = empty(dtype_, dims_);
  if (bytes_) std::memcpy(r.mutableData<std::byte>(), data_, bytes_);
  return r;
}

double Tensor::doubleAt(int64_t k) const {
  switch (dtype_) {
    case ir::DataType::Float:
      return data<float>()[k];
    case ir::DataType::Double:
      return data<double>()[k];
    case ir::DataType::Float16:
      return halfBitsToFloat(data<uint16_t>()[k]);
    case ir::DataType::BFloat16:
      return bfloat16BitsToFloat(data<uint16_t>()[k]);
    case ir::DataType::Bool:
      return data<bool>()[k] ? 1 : 0;
    case ir::DataType::Int8:
      return data<int8_t>()[k];
    case ir::DataType::Int16:
      return data<int16_t>()[k];
    case ir::DataType::Int32:
      return data<int32_t>()[k];
    case ir::DataType::Int64:
      return static_cast<double>(data<int64_t>()[k]);
    case ir::DataType::UInt8:
      return data<uint8_t>()[k];
    case ir::DataType::UInt16:
      return data<uint16_t>()[k];
    case ir::DataType::UInt32:
      return data<uint32_t>()[k];
    case ir::DataType::UInt64:
      return static_cast<double>(data<uint64_t>()[k]);
    default:
      if (ir::isNarrowType(dtype_)) {
        const size_t bits = ir::elementBits(dtype_);
        const size_t bit = static_cast<size_t>(k) * bits;
        const uint32_t code = (static_cast<uint32_t>(data_[bit / 8]) >> (bit % 8)) & ((1u << bits) - 1);
        return ir::decodeNarrowCode(dtype_, code);
      }
      unsupported("reading elements of type " + std::string(ir::dataTypeName(dtype_)));
  }
}

int64_t Tensor::int64At(int64_t k) const {
  switch (dtype_) {
    case ir::DataType::Int64:
      return data<int64_t>()[k];
    case ir::DataType::Int32:
      return data<int32_t>()[k];
    case ir::DataType::UInt64:
      return static_cast<int64_t>(data<uint64_t>()[k]);
    default: {
      const double d = doubleAt(k);
      if (!(d >= -9.2e18 && d <= 9.2e18)) badInput("a value out of int64's range where an integer is needed");
      return static_cast<int64_t>(d);
    }
  }
}

std::vector<int64_t> Tensor::toInt64s() const {
  std::vector<int64_t> v(static_cast<size_t>(count_));
  for (int64_t k = 0; k < count_; ++k) v[k] = int64At(k);
  return v;
}

std::vector<double> Tensor::toDoubles() const {
  std::vector<double> v(static_cast<size_t>(count_));
  for (int64_t k = 0; k < count_; ++k) v[k] = doubleAt(k);
  return v;
}

std::string describe(const Tensor& t) {
  std::string s(ir::dataTypeName(t.dtype()));
  s += '[';
  for (size_t k = 0; k < t.rank(); ++k) s += (k ? "," : "") + std::to_string(t.dim(k));
  return s + ']';
}

}  // namespace fb::eval
