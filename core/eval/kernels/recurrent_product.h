#pragma once
// The matrix products of the recurrent cells: c = a * b^T (+ c), with a [M, K], b [N, K] and c [M, N] row-major,
// the shape ONNX stores RNN weights in ([gates * hidden, input]), so no weight is transposed or copied. One product
// object serves every time step of a direction: the shapes stay, only the data moves. float runs on oneDNN's matmul
// primitive (built once per object); double, which oneDNN's CPU engine lacks, on a row-parallel loop.
#include <cstdint>
#include <memory>

namespace fb::eval {

template <typename T>
class TransposedProduct {
 public:
  // accumulate: c += a * b^T instead of c = a * b^T.
  TransposedProduct(int64_t m, int64_t k, int64_t n, bool accumulate);
  ~TransposedProduct();
  TransposedProduct(const TransposedProduct&) = delete;
  TransposedProduct& operator=(const TransposedProduct&) = delete;

  void run(const T* a, const T* b, T* c) const;

 private:
  int64_t m_, k_, n_;
  bool accumulate_;
  struct Primitive;
  std::unique_ptr<Primitive> primitive_;  // float only
};

extern template class TransposedProduct<float>;
extern template class TransposedProduct<double>;

}  // namespace fb::eval
