#pragma once
// Storage for weights a pass computes (fused Conv weights): uninitialized, so the bytes are written once
// rather than zeroed first, and backed by huge pages where the kernel offers them, which cuts the page
// faults of filling a ResNet-50's 100 MB of new weights by a factor of 512.
#include <cstddef>
#include <memory>

#include "ir/tensor.h"

namespace fb::passes {

class WeightBuffer final : public ir::Buffer {
 public:
  explicit WeightBuffer(size_t bytes);
  ~WeightBuffer() override;
  WeightBuffer(const WeightBuffer&) = delete;
  WeightBuffer& operator=(const WeightBuffer&) = delete;
  const std::byte* data() const override { return data_; }
  size_t size() const override { return size_; }
  std::byte* writable() { return data_; }

 private:
  std::byte* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace fb::passes
