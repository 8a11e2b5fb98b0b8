#include "util/idle_memory.h"

#include <dlfcn.h>
#include <malloc.h>

namespace fb {

void releaseFreedHeap() {
  using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);
  // jemalloc keeps freed pages for ten seconds by default (dirty_decay_ms): in a conversion that is the pages a
  // pass freed still resident while the checker builds its proto. 4096 is MALLCTL_ARENAS_ALL.
  static const auto mallctl = reinterpret_cast<Mallctl>(::dlsym(RTLD_DEFAULT, "mallctl"));
  if (mallctl) {
    mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
    return;
  }
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

void releaseIdleMemory() {
  releaseMappedFilePages();
  releaseFreedHeap();
}

}  // namespace fb
