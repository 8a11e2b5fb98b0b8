#include "passes/weight_buffer.h"

#include <cstdlib>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace fb::passes {

namespace {
constexpr size_t kHugePage = size_t{2} << 20;
}

WeightBuffer::WeightBuffer(size_t bytes) : size_(bytes) {
  const size_t align = bytes >= kHugePage ? kHugePage : 64;
  const size_t rounded = (bytes + align - 1) / align * align;
  data_ = static_cast<std::byte*>(std::aligned_alloc(align, rounded ? rounded : align));
  if (!data_) throw std::bad_alloc();
#ifdef __linux__
  if (align == kHugePage) madvise(data_, rounded, MADV_HUGEPAGE);
#endif
}

WeightBuffer::~WeightBuffer() { std::free(data_); }

}  // namespace fb::passes
