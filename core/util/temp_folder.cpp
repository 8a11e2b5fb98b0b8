#include "util/temp_folder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include "util/error.h"
#include "util/interrupt_cleanup.h"

namespace fb {
namespace fs = std::filesystem;
namespace {

// mkdir applies the umask itself (mkdtemp would make the folder private, and reading the umask means setting it,
// which races with other threads creating files).
fs::path makeUniqueFolder(const fs::path& target, const char* kind, int& slot) {
  static thread_local std::mt19937_64 generator{std::random_device{}()};
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const std::string prefix = (target.parent_path() / ("." + target.filename().string() + kind)).string();
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = prefix;
    for (int i = 0; i < 8; ++i) name += letters[generator() % (sizeof letters - 1)];
    SignalsHeld held;
    if (::mkdir(name.c_str(), 0777) == 0) {
      slot = registerTempPath(name, TempKind::Tree);
      return name;
    }
    if (errno != EEXIST) return {};
  }
  errno = EEXIST;
  return {};
}

}  // namespace

fs::path outputFolderPath(const std::string& dir) {
  fs::path p = fs::absolute(fs::path(dir)).lexically_normal();
  if (p.filename().empty() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

CreatedParents::CreatedParents(const fs::path& target, const std::string& shownName) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = target.parent_path(); !p.empty() && p != p.parent_path() && !fs::exists(fs::symlink_status(p, ec));
       p = p.parent_path())
    missing.push_back(p);
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    SignalsHeld held;
    if (::mkdir(it->c_str(), 0777) != 0) {
      if (errno == EEXIST) continue;  // made meanwhile by someone else: not ours to remove
      throw OutputError(shownName + ": cannot create the folder " + it->string() + ": " + std::strerror(errno));
    }
    created_.push_back({*it, registerTempPath(it->string(), TempKind::EmptyFolder)});
  }
}

CreatedParents::~CreatedParents() {
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    ::rmdir(it->path.c_str());  // fails, as it should, when something else was put there meanwhile
    unregisterTempPath(it->slot);
  }
}

void CreatedParents::keep() {
  for (const auto& c : created_) unregisterTempPath(c.slot);
  created_.clear();
}

TempFolder::TempFolder(const fs::path& target, const std::string& shownName) : shownName_(shownName) {
  path_ = makeUniqueFolder(target, ".tmp-", slot_);
  if (path_.empty())
    throw OutputError(shownName + ": cannot create a temporary folder beside it: " + std::strerror(errno));
}

TempFolder::~TempFolder() {
  if (!placed_) {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  unregisterTempPath(slot_);
}

void TempFolder::placeAt(const fs::path& target) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(target, ec))) {
    if (std::rename(path_.c_str(), target.c_str()) != 0)
      throw OutputError(shownName_ + ": cannot move the written folder into place: " + std::strerror(errno));
    placed_ = true;
    return;
  }
  if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    // The previous folder is where the new one was, still registered for removal.
    placed_ = true;
    fs::remove_all(path_, ec);
    return;
  }
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
    throw OutputError(shownName_ + ": cannot replace the folder: " + std::strerror(errno));

  int oldSlot = -1;
  fs::path old;
  {
    SignalsHeld held;
    old = makeUniqueFolder(target, ".old-", oldSlot);
    if (old.empty()) throw OutputError(shownName_ + ": cannot replace the folder: " + std::strerror(errno));
    if (std::rename(target.c_str(), old.c_str()) != 0) {
      const int e = errno;
      ::rmdir(old.c_str());
      unregisterTempPath(oldSlot);
      throw OutputError(shownName_ + ": cannot move the previous folder aside: " + std::strerror(e));
    }
    if (std::rename(path_.c_str(), target.c_str()) != 0) {
      const int e = errno;
      std::rename(old.c_str(), target.c_str());
      unregisterTempPath(oldSlot);
      throw OutputError(shownName_ + ": cannot move the written folder into place: " + std::strerror(e));
    }
    placed_ = true;
  }
  fs::remove_all(old, ec);
  unregisterTempPath(oldSlot);
}

}  // namespace fb
