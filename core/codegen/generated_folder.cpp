// The generated folder appears whole or not at all: it is written beside the target and moved into place in one
// step. Only folders that carry FlowBridge's marker are ever replaced: a folder merely holding a model.py and a
// run.py may be the user's own project.
#include <filesystem>
#include <fstream>
#include <system_error>

#include "codegen/code_generator.h"
#include "codegen/weights_writer.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/temp_folder.h"

namespace fb::codegen {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kMarkerFirstLine = "FlowBridge generated code";

void writeText(const fs::path& p, const std::string& text) {
  AtomicFile f(p.string());
  f.write(text);
  f.commit();
}

std::string markerText(Flavour flavour) {
  return std::string(kMarkerFirstLine) + "\nflavour: " + std::string(flavourName(flavour)) +
         "\nFlowBridge replaces this folder as a whole when code is generated into it again. Delete this file to keep "
         "FlowBridge from replacing the folder.\n";
}

}  // namespace

std::string generatedFolderTarget(const std::string& dirName) { return outputFolderPath(dirName).string(); }

bool isGeneratedFolder(const std::string& dir) {
  const fs::path marker = fs::path(dir) / kGeneratedFolderMarker;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(marker, ec))) return false;
  std::ifstream in(marker);
  std::string first;
  return std::getline(in, first) && first == kMarkerFirstLine;
}

void ensureGeneratedFolderWritable(const std::string& dirName) {
  const fs::path dir = generatedFolderTarget(dirName);
  if (dir == dir.root_path()) throw OutputError(dirName + ": cannot replace the root folder");
  std::error_code ec;
  const auto status = fs::symlink_status(dir, ec);
  const bool exists = fs::exists(status);
  if (exists && !fs::is_directory(status))
    throw OutputError(
        dirName + (fs::is_symlink(status) ? ": is a symbolic link; choose a folder" : ": exists and is not a folder"));
  if (exists && !fs::is_empty(dir, ec) && !isGeneratedFolder(dir.string()))
    throw OutputError(dirName + ": the folder is not empty and FlowBridge did not generate it (it has no " +
                      kGeneratedFolderMarker + " file); choose a new folder");
}

void writeGeneratedFolder(const GeneratedCode& code, Flavour flavour, const std::string& dirName) {
  ensureGeneratedFolderWritable(dirName);
  const fs::path dir = generatedFolderTarget(dirName);
  CreatedParents parents(dir, dirName);
  TempFolder tmp(dir, dirName);
  writeText(tmp.path() / "model.py", code.modelPy);
  writeText(tmp.path() / "run.py", code.runPy);
  std::vector<NamedTensor> tensors;
  tensors.reserve(code.weights.size());
  for (const auto& w : code.weights) tensors.push_back(NamedTensor{w.key, &w.tensor});
  if (flavour == Flavour::OneFlow)
    writeOneflowVariableDir(tensors, (tmp.path() / "weights").string());
  else
    writeTorchStateDict(tensors, (tmp.path() / "weights.pt").string());
  // Last: a folder with the marker is a complete one.
  writeText(tmp.path() / kGeneratedFolderMarker, markerText(flavour));
  tmp.placeAt(dir);
  parents.keep();
}

}  // namespace fb::codegen
