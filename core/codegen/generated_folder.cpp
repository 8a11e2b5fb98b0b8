// The generated folder appears whole or not at all: it is written beside the target and renamed into place.
#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <system_error>

#include "codegen/code_generator.h"
#include "codegen/weights_writer.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace fb::codegen {
namespace fs = std::filesystem;
namespace {

void writeText(const fs::path& p, const std::string& text) {
  AtomicFile f(p.string());
  f.write(text);
  f.commit();
}

// A folder this function wrote before: replacing it loses nothing the user made.
bool isGeneratedFolder(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "model.py", ec) && fs::is_regular_file(dir / "run.py", ec);
}

struct TempDir {
  fs::path path;
  bool keep = false;
  ~TempDir() {
    std::error_code ec;
    if (!keep && !path.empty()) fs::remove_all(path, ec);
  }
};

}  // namespace

void writeGeneratedFolder(const GeneratedCode& code, Flavour flavour, const std::string& dirName) {
  const fs::path dir = fs::absolute(fs::path(dirName)).lexically_normal();
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (exists && !fs::is_directory(dir, ec)) throw OutputError(dirName + ": exists and is not a folder");
  if (exists && !fs::is_empty(dir, ec) && !isGeneratedFolder(dir))
    throw OutputError(dirName + ": the folder is not empty and holds no generated model (model.py, run.py); choose a new folder");
  fs::path parent = dir.parent_path();
  fs::create_directories(parent, ec);
  if (!fs::is_directory(parent, ec)) throw OutputError(dirName + ": cannot create the folder " + parent.string());

  std::string pattern = (parent / ("." + dir.filename().string() + ".tmp-XXXXXX")).string();
  TempDir tmp;
  if (!mkdtemp(pattern.data())) throw OutputError(dirName + ": cannot create a temporary folder beside it: " + std::strerror(errno));
  tmp.path = pattern;
  // mkdtemp makes the folder private; the result gets the permissions a new folder gets here.
  const mode_t mask = umask(0);
  umask(mask);
  fs::permissions(tmp.path, static_cast<fs::perms>(0777 & ~mask), ec);

  writeText(tmp.path / "model.py", code.modelPy);
  writeText(tmp.path / "run.py", code.runPy);
  std::vector<NamedTensor> tensors;
  tensors.reserve(code.weights.size());
  for (const auto& w : code.weights) tensors.push_back(NamedTensor{w.key, &w.tensor});
  if (flavour == Flavour::OneFlow) writeOneflowVariableDir(tensors, (tmp.path / "weights").string());
  else writeTorchStateDict(tensors, (tmp.path / "weights.pt").string());

  if (exists) {
    // Keep the old folder until the new one is in place.
    std::string old = (parent / ("." + dir.filename().string() + ".old-XXXXXX")).string();
    if (!mkdtemp(old.data())) throw OutputError(dirName + ": cannot replace the folder: " + std::strerror(errno));
    fs::remove(old, ec);
    fs::rename(dir, old, ec);
    if (ec) throw OutputError(dirName + ": cannot replace the folder: " + ec.message());
    fs::rename(tmp.path, dir, ec);
    if (ec) {
      std::error_code back;
      fs::rename(old, dir, back);
      throw OutputError(dirName + ": cannot move the generated folder into place: " + ec.message());
    }
    tmp.keep = true;
    fs::remove_all(old, ec);
    return;
  }
  fs::rename(tmp.path, dir, ec);
  if (ec) throw OutputError(dirName + ": cannot move the generated folder into place: " + ec.message());
  tmp.keep = true;
}

}  // namespace fb::codegen
