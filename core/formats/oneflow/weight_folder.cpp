#include "formats/oneflow/weight_folder.h"

#include <filesystem>

#include "formats/oneflow/flow_save_reader.h"
#include "formats/oneflow/oneflow_types.h"
#include "formats/oneflow/variable_meta.h"
#include "formats/tensor_size.h"
#include "util/error.h"
#include "util/input_file.h"

namespace fb::oneflow {
namespace fs = std::filesystem;

// Candidate keys of a variable, as oneflow-onnx tries them (see load()).
static std::vector<std::string> candidateKeys(const std::string& name, char nestedSeparator) {
  std::vector<std::string> keys{name};
  if (auto dot = name.find('.'); dot != std::string::npos && dot + 1 < name.size()) {
    keys.push_back(name.substr(dot + 1));
    keys.push_back(name.substr(0, dot) + nestedSeparator + name.substr(dot + 1));
  }
  return keys;
}

WeightFolder::WeightFolder(std::string dir, std::string root) : dir_(std::move(dir)), root_(root) {
  if (root_.empty()) root_ = dir_;
  std::error_code ec;
  if (isFlowSaveFolder(dir_) || isFlowSaveFile(dir_)) {
    // A save found beside the graph stays in the model's folder; one given on its own, in its own.
    pickled_ = std::make_shared<const std::map<std::string, ir::Tensor>>(readFlowSave(dir_, root));
    return;
  }
  if (!fs::is_directory(dir_, ec)) throw InputError(dir_, "the weight folder does not exist");
  if (!fs::exists(fs::path(dir_) / "snapshot_done", ec))
    throw InputError(dir_, "no snapshot_done in the weight folder: the save is incomplete");
  filesRead_.push_back((fs::path(dir_) / "snapshot_done").string());
}

std::optional<std::string> WeightFolder::variableFolder(const std::string& name) const {
  if (pickled_) return std::nullopt;
  const fs::path asPath(name);
  bool climbs = asPath.is_absolute() || asPath.has_root_name();
  for (const auto& part : asPath) climbs = climbs || part == "..";
  if (name.empty() || climbs)
    throw InputError(dir_, "variable '" + name + "': its name is a path that points outside the model's folder");
  std::error_code ec;
  // Existence only: whether `out` is a regular file inside the model's folder is checked when it is opened.
  for (const auto& key : candidateKeys(name, '/'))
    if (fs::exists(fs::path(dir_) / key / "out", ec) || fs::is_symlink(fs::path(dir_) / key / "out", ec))
      return (fs::path(dir_) / key).string();
  return std::nullopt;
}

ir::Tensor WeightFolder::load(const std::string& variableName, const std::string& tensorName,
                              const std::vector<int64_t>& dims, int oneflowDataType) const {
  if (pickled_) {
    // Nested dicts (graph.state_dict()) were flattened with '.', so "m.conv1.weight" covers the nested key too.
    for (const auto& key : candidateKeys(variableName, '.')) {
      auto it = pickled_->find(key);
      if (it == pickled_->end()) continue;
      auto irType = toIrDataType(oneflowDataType);
      if (it->second.dims != dims || !irType || it->second.dtype != *irType)
        throw InputError(dir_, "variable '" + variableName + "': the save holds " + dimsText(it->second.dims) + " " +
                                   std::string(ir::dataTypeName(it->second.dtype)) + " but the graph says " +
                                   dimsText(dims) + " " + oneflowDataTypeName(oneflowDataType));
      ir::Tensor t = it->second;
      t.name = tensorName;
      return t;
    }
    throw InputError(dir_, "no weights for variable '" + variableName + "' in the saved object");
  }
  auto folder = variableFolder(variableName);
  if (!folder)
    throw InputError(dir_, "no weights for variable '" + variableName + "' (expected " + variableName + "/out)");
  auto irType = toIrDataType(oneflowDataType);
  if (!irType)
    throw InputError(dir_, "variable '" + variableName + "' has data type " + oneflowDataTypeName(oneflowDataType) +
                               ", which ONNX cannot hold");

  const fs::path meta = fs::path(*folder) / "meta";
  std::error_code ec;
  if (fs::exists(meta, ec) || fs::is_symlink(meta, ec)) {
    const auto info = readVariableMeta(meta.string(), root_, "variable '" + variableName + "': meta");
    filesRead_.push_back(meta.string());
    if (info.dims != dims || info.dataType != oneflowDataType)
      throw InputError(meta.string(), "variable '" + variableName + "': meta says " + dimsText(info.dims) + " " +
                                          oneflowDataTypeName(info.dataType) + " but the graph says " + dimsText(dims) +
                                          " " + oneflowDataTypeName(oneflowDataType));
  }

  ir::Tensor t;
  t.name = tensorName;
  t.dtype = *irType;
  t.dims = dims;
  const fs::path out = fs::path(*folder) / "out";
  const auto size = InputFile::open(out.string(), root_, "variable '" + variableName + "': out").size();
  filesRead_.push_back(out.string());
  const auto needed = checkedByteSize(dims, *irType);
  if (!needed)
    throw InputError(out.string(),
                     "variable '" + variableName + "': shape " + dimsText(dims) + " is negative or overflows");
  if (size != *needed)
    throw InputError(out.string(), "variable '" + variableName + "': out has " + std::to_string(size) + " bytes, but " +
                                       dimsText(dims) + " " + oneflowDataTypeName(oneflowDataType) + " needs " +
                                       std::to_string(*needed));
  ir::ExternalRef ref;
  ref.location = out.string();
  ref.length = static_cast<int64_t>(size);
  ref.entries = {{"location", ref.location}};
  if (size == 0)
    t.setBytes({});
  else
    t.setExternalSource(out.string(), ref, root_);
  return t;
}

std::optional<std::string> findWeightFolder(const std::string& jobPath) {
  std::error_code ec;
  const fs::path base = fs::is_directory(jobPath, ec) ? fs::path(jobPath) : fs::path(jobPath).parent_path();
  for (const char* sub : {"weights", "variables"})
    if (fs::is_directory(base / sub, ec)) return (base / sub).string();
  for (const char* file : {"weights", "weights.of"})
    if (isFlowSaveFile((base / file).string())) return (base / file).string();
  if (fs::exists(base / "snapshot_done", ec) || isFlowSaveFolder(base.string())) return base.string();
  return std::nullopt;
}

}  // namespace fb::oneflow
