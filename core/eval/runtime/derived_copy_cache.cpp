#include "eval/runtime/derived_copy_cache.h"

#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>

namespace fb::eval {

namespace {

struct Entry {
  std::weak_ptr<const void> holder;
  std::shared_ptr<const void> copy;
  size_t bytes = 0;
};

struct Cache {
  std::mutex lock;
  std::unordered_map<std::string, Entry> entries;
  size_t bytes = 0;
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: copies may still be released by values at exit
  return *c;
}

bool sameHolder(const std::weak_ptr<const void>& a, const std::shared_ptr<const void>& b) {
  return !a.expired() && !a.owner_before(b) && !b.owner_before(a);
}

std::shared_ptr<const void> makeCopy(size_t bytes, const std::function<void(void*)>& fill) {
  void* p = std::aligned_alloc(64, (std::max<size_t>(bytes, 1) + 63) / 64 * 64);
  if (!p) throw std::bad_alloc();
  std::shared_ptr<const void> copy(p, [](const void* q) { std::free(const_cast<void*>(q)); });
  fill(p);
  return copy;
}

// Drops the entries whose source bytes are gone. A copy can be the holder of another (an aligned copy, then its
// blocked layout), so this repeats until nothing more goes. Called with the lock held.
size_t dropOrphans(Cache& c) {
  size_t freed = 0;
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (auto it = c.entries.begin(); it != c.entries.end();) {
      if (it->second.holder.expired()) {
        freed += it->second.bytes;
        c.bytes -= it->second.bytes;
        it = c.entries.erase(it);
        dropped = true;
      } else {
        ++it;
      }
    }
  }
  return freed;
}

}  // namespace

size_t releaseOrphanedDerivedCopies() {
  Cache& c = cache();
  std::lock_guard<std::mutex> guard(c.lock);
  return dropOrphans(c);
}

std::shared_ptr<const void> derivedCopy(const std::shared_ptr<const void>& holder, const void* data,
                                        const std::string& kind, size_t bytes, const std::function<void(void*)>& fill) {
  Cache& c = cache();
  const std::string key = std::to_string(reinterpret_cast<uintptr_t>(data)) + ":" + kind;
  std::lock_guard<std::mutex> guard(c.lock);
  if (auto it = c.entries.find(key); it != c.entries.end()) {
    if (sameHolder(it->second.holder, holder) && it->second.bytes == bytes) return it->second.copy;
    c.bytes -= it->second.bytes;
    c.entries.erase(it);
  }
  dropOrphans(c);
  std::shared_ptr<const void> copy = makeCopy(bytes, fill);
  if (holder && c.bytes + bytes <= kMaxDerivedBytes) {
    c.entries[key] = Entry{holder, copy, bytes};
    c.bytes += bytes;
  }
  return copy;
}

}  // namespace fb::eval
