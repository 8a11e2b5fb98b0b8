#pragma once
// Memory a conversion holds but no longer uses, given back between its phases so that the peak is what one
// phase needs, not the sum of all of them: pages of mapped model files that a pass has read (they come back
// from the page cache when read again), and heap pages the allocator keeps after frees.

#include <cstddef>

namespace fb {

// Drops the resident pages of every mapped model file (MappedFile). Safe while other threads read them.
void releaseMappedFilePages();

// Asks the allocator to return freed pages: jemalloc's purge when the process runs on jemalloc (looked up at
// run time, so the library does not depend on it), glibc's malloc_trim otherwise.
void releaseFreedHeap();

// Both.
void releaseIdleMemory();

// For a loop that reads many mapped weights once (a pass comparing or fusing them): drops the mapped pages
// every few megabytes read, so the whole file does not come back into memory.
class MappedReadBudget {
 public:
  void read(size_t bytes) {
    if ((read_ += bytes) < kBytes) return;
    releaseMappedFilePages();
    read_ = 0;
  }

 private:
  static constexpr size_t kBytes = size_t{4} << 20;
  size_t read_ = 0;
};

}  // namespace fb
