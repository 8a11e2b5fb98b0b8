#include "formats/onnx/external_data.h"

#include "util/error.h"
#include "util/input_file.h"

namespace fb::onnxfmt {
namespace fs = std::filesystem;

fs::path resolveExternalLocation(const fs::path& modelDir, const std::string& location, const std::string& modelPath) {
  if (location.empty()) throw InputError(modelPath, "external data entry has an empty location");
  fs::path loc(location);
  if (loc.is_absolute() || loc.has_root_name() || loc.has_root_directory())
    throw InputError(modelPath, "external data location '" + location +
                                    "' is an absolute path; it must be relative to the model's folder");
  for (const auto& part : loc)
    if (part == "..")
      throw InputError(modelPath, "external data location '" + location + "' points outside the model's folder");
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(modelDir.empty() ? fs::path(".") : modelDir, ec);
  fs::path full = fs::weakly_canonical(dir / loc, ec);
  if (ec) throw InputError(modelPath, "external data location '" + location + "' cannot be resolved: " + ec.message());
  auto rel = full.lexically_relative(dir);
  if (rel.empty() || *rel.begin() == "..")
    throw InputError(modelPath, "external data location '" + location + "' resolves outside the model's folder");
  return full;
}

uint64_t SideFileSizes::size(const fs::path& p, const std::string& modelPath, const std::string& tensorName) {
  auto key = p.string();
  if (auto it = sizes_.find(key); it != sizes_.end()) return it->second;
  // Opened, not just looked up: a FIFO or a link out of the folder is refused here, at open time.
  const fs::path dir = fs::path(modelPath).parent_path();
  try {
    InputFile f = InputFile::open(key, dir.empty() ? "." : dir.string());
    sizes_[key] = f.size();
    return f.size();
  } catch (const InputError& e) {
    throw InputError(modelPath,
                     "tensor '" + tensorName + "': external data file '" + p.filename().string() + "' " + e.what());
  }
}

}  // namespace fb::onnxfmt
