#include "formats/oneflow/weight_folder.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <google/protobuf/text_format.h>

#include "formats/oneflow/flow_save_reader.h"
#include "formats/oneflow/oneflow_types.h"
#include "formats/oneflow/oneflow_job.pb.h"
#include "util/error.h"

namespace fb::oneflow {
namespace fs = std::filesystem;

namespace {
std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}
}  // namespace

// Candidate keys of a variable, as oneflow-onnx tries them (see load()).
static std::vector<std::string> candidateKeys(const std::string& name, char nestedSeparator) {
  std::vector<std::string> keys{name};
  if (auto dot = name.find('.'); dot != std::string::npos && dot + 1 < name.size()) {
    keys.push_back(name.substr(dot + 1));
    keys.push_back(name.substr(0, dot) + nestedSeparator + name.substr(dot + 1));
  }
  return keys;
}

WeightFolder::WeightFolder(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  if (isFlowSaveFolder(dir_) || isFlowSaveFile(dir_)) {
    pickled_ = std::make_shared<const std::map<std::string, ir::Tensor>>(readFlowSave(dir_));
    return;
  }
  if (!fs::is_directory(dir_, ec)) throw InputError(dir_, "the weight folder does not exist");
  if (!fs::exists(fs::path(dir_) / "snapshot_done", ec))
    throw InputError(dir_, "no snapshot_done in the weight folder: the save is incomplete");
}

std::optional<std::string> WeightFolder::variableFolder(const std::string& name) const {
  if (pickled_) return std::nullopt;
  std::error_code ec;
  for (const auto& key : candidateKeys(name, '/'))
    if (fs::is_regular_file(fs::path(dir_) / key / "out", ec)) return (fs::path(dir_) / key).string();
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
  if (!folder) throw InputError(dir_, "no weights for variable '" + variableName + "' (expected " + variableName + "/out)");
  auto irType = toIrDataType(oneflowDataType);
  if (!irType)
    throw InputError(dir_, "variable '" + variableName + "' has data type " + oneflowDataTypeName(oneflowDataType) +
                               ", which ONNX cannot hold");

  const fs::path meta = fs::path(*folder) / "meta";
  std::error_code ec;
  if (fs::is_regular_file(meta, ec)) {
    std::ifstream in(meta, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    ::oneflow::VariableMetaInfo info;
    google::protobuf::TextFormat::Parser parser;
    parser.AllowUnknownField(true);
    if (!parser.ParseFromString(text.str(), &info))
      throw InputError(meta.string(), "variable '" + variableName + "': meta is not a text VariableMetaInfo");
    std::vector<int64_t> metaDims(info.shape().dim().begin(), info.shape().dim().end());
    if (metaDims != dims || info.data_type() != oneflowDataType)
      throw InputError(meta.string(), "variable '" + variableName + "': meta says " + dimsText(metaDims) + " " +
                                          oneflowDataTypeName(info.data_type()) + " but the graph says " +
                                          dimsText(dims) + " " + oneflowDataTypeName(oneflowDataType));
  }

  ir::Tensor t;
  t.name = tensorName;
  t.dtype = *irType;
  t.dims = dims;
  const fs::path out = fs::path(*folder) / "out";
  const auto size = fs::file_size(out, ec);
  if (ec) throw InputError(out.string(), "variable '" + variableName + "': cannot read out: " + ec.message());
  if (size != t.expectedBytes())
    throw InputError(out.string(), "variable '" + variableName + "': out has " + std::to_string(size) +
                                       " bytes, but " + dimsText(dims) + " " + oneflowDataTypeName(oneflowDataType) +
                                       " needs " + std::to_string(t.expectedBytes()));
  ir::ExternalRef ref;
  ref.location = out.string();
  ref.length = static_cast<int64_t>(size);
  ref.entries = {{"location", ref.location}};
  if (size == 0) t.setBytes({});
  else t.setExternalSource(out.string(), ref);
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
