#include "formats/oneflow/weight_folder.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "formats/oneflow/oneflow_types.h"
#include "formats/oneflow/oneflow_job.pb.h"
#include "formats/tensor_size.h"
#include "util/error.h"
#include "util/input_file.h"

namespace fb::oneflow {
namespace fs = std::filesystem;

namespace {
// The meta file's parse errors become one InputError, not libprotobuf's lines on stderr.
class SilentParseErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int, int, const std::string&) override {}
};
}  // namespace

WeightFolder::WeightFolder(std::string dir, std::string root) : dir_(std::move(dir)), root_(std::move(root)) {
  if (root_.empty()) root_ = dir_;
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) throw InputError(dir_, "the weight folder does not exist");
  if (!fs::exists(fs::path(dir_) / "snapshot_done", ec))
    throw InputError(dir_, "no snapshot_done in the weight folder: the save is incomplete");
  filesRead_.push_back((fs::path(dir_) / "snapshot_done").string());
}

std::optional<std::string> WeightFolder::variableFolder(const std::string& name) const {
  const fs::path asPath(name);
  bool climbs = asPath.is_absolute() || asPath.has_root_name();
  for (const auto& part : asPath) climbs = climbs || part == "..";
  if (name.empty() || climbs)
    throw InputError(dir_, "variable '" + name + "': its name is a path that points outside the model's folder");
  std::vector<fs::path> candidates{fs::path(dir_) / name};
  if (auto dot = name.find('.'); dot != std::string::npos && dot + 1 < name.size()) {
    candidates.push_back(fs::path(dir_) / name.substr(dot + 1));
    candidates.push_back(fs::path(dir_) / name.substr(0, dot) / name.substr(dot + 1));
  }
  std::error_code ec;
  for (const auto& c : candidates)
    if (fs::exists(c / "out", ec) || fs::is_symlink(c / "out", ec)) return c.string();
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
  if (fs::exists(meta, ec) || fs::is_symlink(meta, ec)) {
    const std::string text = InputFile::open(meta.string(), root_, "variable '" + variableName + "': meta").readAll();
    filesRead_.push_back(meta.string());
    ::oneflow::VariableMetaInfo info;
    google::protobuf::TextFormat::Parser parser;
    SilentParseErrors quiet;
    parser.RecordErrorsTo(&quiet);
    parser.AllowUnknownField(true);
    if (!parser.ParseFromString(text, &info))
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
  const auto size = InputFile::open(out.string(), root_, "variable '" + variableName + "': out").size();
  filesRead_.push_back(out.string());
  const auto needed = checkedByteSize(dims, *irType);
  if (!needed)
    throw InputError(out.string(), "variable '" + variableName + "': shape " + dimsText(dims) + " is negative or overflows");
  if (size != *needed)
    throw InputError(out.string(), "variable '" + variableName + "': out has " + std::to_string(size) +
                                       " bytes, but " + dimsText(dims) + " " + oneflowDataTypeName(oneflowDataType) +
                                       " needs " + std::to_string(*needed));
  ir::ExternalRef ref;
  ref.location = out.string();
  ref.length = static_cast<int64_t>(size);
  ref.entries = {{"location", ref.location}};
  if (size == 0) t.setBytes({});
  else t.setExternalSource(out.string(), ref, root_);
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
