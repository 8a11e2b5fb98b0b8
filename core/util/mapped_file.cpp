#include "util/mapped_file.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "util/error.h"
#include "util/idle_memory.h"
#include "util/input_file.h"

namespace fb {
namespace {

// The SIGBUS handler reads this table, so it is a fixed array of atomics (no allocation, no locks in the
// handler). Slots are claimed under a mutex by open() and released by the destructor.
constexpr int kSlots = 4096;
struct Region {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<bool> faulted{false};
};
std::array<Region, kSlots> regions;
std::atomic<bool> anyFault{false};
std::atomic<uint64_t> faultCount{0};
std::atomic<int> lastFaultSlot{-1};
std::mutex slotsMutex;
std::array<std::string, kSlots> slotPaths;  // for the message; guarded by slotsMutex
struct sigaction previousBus {};

void onSigbus(int sig, siginfo_t* info, void* ctx) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (auto& r : regions) {
    const uintptr_t b = r.begin.load(std::memory_order_acquire), e = r.end.load(std::memory_order_acquire);
    if (b == 0 || addr < b || addr >= e) continue;
    const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    void* at = reinterpret_cast<void*>(addr & ~(page - 1));
    // The page past the file's new end becomes a zero page; the faulting read then completes.
    if (::mmap(at, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) break;
    r.faulted.store(true);
    anyFault.store(true);
    lastFaultSlot.store(static_cast<int>(&r - regions.data()));
    faultCount.fetch_add(1);
    return;
  }
  // Not one of ours: behave as if the handler were not there.
  if (previousBus.sa_flags & SA_SIGINFO && previousBus.sa_sigaction) {
    previousBus.sa_sigaction(sig, info, ctx);
    return;
  }
  if (previousBus.sa_handler != SIG_DFL && previousBus.sa_handler != SIG_IGN && previousBus.sa_handler) {
    previousBus.sa_handler(sig);
    return;
  }
  ::signal(SIGBUS, SIG_DFL);
  ::raise(SIGBUS);
}

void installHandlerOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = onSigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &previousBus);
  });
}

int claimSlot(const std::byte* data, size_t size, const std::string& path) {
  std::lock_guard lock(slotsMutex);
  for (int i = 0; i < kSlots; ++i) {
    if (regions[i].begin.load() != 0) continue;
    regions[i].faulted.store(false);
    regions[i].end.store(reinterpret_cast<uintptr_t>(data) + size);
    regions[i].begin.store(reinterpret_cast<uintptr_t>(data), std::memory_order_release);
    slotPaths[i] = path;
    return i;
  }
  return -1;  // more maps than slots: those few stay unguarded
}

}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path, const std::string& containDir) {
  return map(InputFile::open(path, containDir));
}

std::shared_ptr<const MappedFile> MappedFile::map(const InputFile& in) {
  const std::string& path = in.path();
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->path_ = path;
  f->size_ = in.size();
  if (f->size_ > 0) {
    installHandlerOnce();
    void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, in.fd(), 0);
    if (p == MAP_FAILED) throw InputError(path, std::string("cannot map: ") + std::strerror(errno));
    f->data_ = static_cast<const std::byte*>(p);
    f->slot_ = claimSlot(f->data_, f->size_, path);
  }
  return f;
}

bool MappedFile::damaged() const { return slot_ >= 0 && regions[slot_].faulted.load(); }

MappedFile::~MappedFile() {
  if (slot_ >= 0) {
    std::lock_guard lock(slotsMutex);
    // A fault in a map being released is still a damaged read that someone may have used.
    if (regions[slot_].faulted.load()) slotPaths[slot_] = path_;
    regions[slot_].begin.store(0);
    regions[slot_].end.store(0);
    if (!regions[slot_].faulted.load()) slotPaths[slot_].clear();
  }
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
}

void throwIfMappedFileDamaged() {
  if (!anyFault.load()) return;
  std::lock_guard lock(slotsMutex);
  for (int i = 0; i < kSlots; ++i)
    if (regions[i].faulted.load() && !slotPaths[i].empty())
      throw InputError(slotPaths[i], "the file was truncated or changed while it was being read");
  throw InputError("", "a model file was truncated or changed while it was being read");
}

void releaseMappedFilePages() {
  std::lock_guard lock(slotsMutex);  // a map cannot be unmapped under us
  for (const auto& r : regions) {
    const uintptr_t b = r.begin.load(), e = r.end.load();
    // Read-only private maps: a dropped page is read again from the page cache (or, for a page the SIGBUS
    // handler replaced, is a zero page again).
    if (b != 0 && e > b) ::madvise(reinterpret_cast<void*>(b), e - b, MADV_DONTNEED);
  }
}

uint64_t mappedFaultCount() { return faultCount.load(); }

void throwIfMappedFileDamagedSince(uint64_t count) {
  if (faultCount.load() <= count) return;
  std::lock_guard lock(slotsMutex);
  const int last = lastFaultSlot.load();
  if (last >= 0 && !slotPaths[last].empty())
    throw InputError(slotPaths[last], "the file was truncated or changed while it was being read");
  throw InputError("", "a model file was truncated or changed while it was being read");
}

}  // namespace fb
