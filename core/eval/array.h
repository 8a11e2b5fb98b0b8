#pragma once
// A small dense array for constant folding and reference evaluation. Floating types are held as double
// and rounded back on output: for one +, -, *, /, sqrt the result then equals the float32 one exactly.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/tensor.h"

namespace fb::eval {

// The evaluator does not handle this op, attribute combination or element type; the caller keeps the node.
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `v` as an int64 when it is within int64's range; otherwise (NaN, infinities, 1e30) throws Unsupported: the plain
// conversion would be undefined behaviour.
int64_t checkedInt64(double v);

struct Array {
  ir::DataType dtype = ir::DataType::Float;
  std::vector<int64_t> dims;
  std::vector<double> f;   // floating-point types
  std::vector<int64_t> i;  // integer and bool types

  bool isFloat() const { return dtype == ir::DataType::Float || dtype == ir::DataType::Double; }
  size_t size() const { return isFloat() ? f.size() : i.size(); }
  double getD(size_t k) const { return isFloat() ? f[k] : static_cast<double>(i[k]); }
  int64_t getI(size_t k) const { return isFloat() ? checkedInt64(f[k]) : i[k]; }

  static Array ints(std::vector<int64_t> dims, std::vector<int64_t> v, ir::DataType t = ir::DataType::Int64);
  static Array floats(std::vector<int64_t> dims, std::vector<double> v, ir::DataType t = ir::DataType::Float);
  // Throws Unsupported for element types the kernels do not handle (float16, strings, complex).
  static Array fromTensor(const ir::Tensor& t);
  ir::Tensor toTensor(const std::string& name) const;
  // An empty array of this type and shape, zero-filled.
  static Array zeros(ir::DataType t, std::vector<int64_t> dims);
  // A copy, charged to the evaluation budget (eval_budget.h) before it is made.
  Array copy() const;
};

bool isSupportedType(ir::DataType t);
int64_t elementCount(const std::vector<int64_t>& dims);

}  // namespace fb::eval
