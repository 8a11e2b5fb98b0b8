#include "formats/oneflow/weight_folder.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <google/protobuf/text_format.h>

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

WeightFolder::WeightFolder(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) throw InputError(dir_, "the weight folder does not exist");
  if (!fs::exists(fs::path(dir_) / "snapshot_done", ec))
    throw InputError(dir_, "no snapshot_done in the weight folder: the save is incomplete");
}

std::optional<std::string> WeightFolder::variableFolder(const std::string& name) const {
  std::vector<fs::path> candidates{fs::path(dir_) / name};
  if (auto dot = name.find('.'); dot != std::string::npos && dot + 1 < name.size()) {
    candidates.push_back(fs::path(dir_) / name.substr(dot + 1));
    candidates.push_back(fs::path(dir_) / name.substr(0, dot) / name.substr(dot + 1));
  }
  std::error_code ec;
  for (const auto& c : candidates)
    if (fs::is_regular_file(c / "out", ec)) return c.string();
  return std::nullopt;
}

ir::Tensor WeightFolder::load(const std::string& variableName, const std::string& tensorName,
                              const std::vector<int64_t>& dims, int oneflowDataType) const {
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
  if (fs::exists(base / "snapshot_done", ec)) return base.string();
  return std::nullopt;
}

}  // namespace fb::oneflow
