#pragma once
// Safe resolution of ONNX external-data locations (the hole of CVE-2022-25882 stays closed).
#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>

namespace fb::onnxfmt {

// Returns the path of `location` inside `modelDir`, or throws InputError(modelPath, reason) when the
// location is empty, absolute, climbs out with "..", or resolves out of the folder through a symlink.
std::filesystem::path resolveExternalLocation(const std::filesystem::path& modelDir, const std::string& location,
                                              const std::string& modelPath);

// Sizes of side files, looked up once per file while a model is imported.
class SideFileSizes {
 public:
  // Throws InputError(modelPath, ...) when the file is missing.
  uint64_t size(const std::filesystem::path& p, const std::string& modelPath, const std::string& tensorName);

 private:
  std::unordered_map<std::string, uint64_t> sizes_;
};

}  // namespace fb::onnxfmt
