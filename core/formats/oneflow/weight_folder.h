#pragma once
// OneFlow weights saved as one folder per variable: <dir>/<key>/out (raw bytes, C order, little-endian),
// <dir>/<key>/meta (text VariableMetaInfo) and <dir>/snapshot_done (lazy check_point_v2, flow.save before
// v0.6, nn.Graph serving saves). Bytes are mapped when first needed, not read at load time. The pickle-based
// oneflow.save layouts (a folder with pickled_data, or one pickle file: flow_save_reader.h) are accepted in its
// place and looked up with the same keys.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/tensor.h"

namespace fb::oneflow {

class WeightFolder {
 public:
  // Throws InputError(dir, ...) when `dir` is not a folder or has no snapshot_done (an incomplete save); a
  // pickle-based save (folder or file) is read here, and its errors are thrown here too.
  // Every weight file must resolve inside `root` (the model's folder; `dir` itself when empty), checked on the
  // opened descriptor: variable names with "..", absolute names and symlinks out of it are refused. The same holds
  // for a pickle-based save and the files it names (readFlowSave with `root`), and each file kind has a size limit
  // (file_limits.h).
  explicit WeightFolder(std::string dir, std::string root = {});
  const std::string& dir() const { return dir_; }
  const std::string& root() const { return root_; }
  // Every file load() opened or bound (out and meta files, snapshot_done), for Model::sourceFiles.
  const std::vector<std::string>& filesRead() const { return filesRead_; }

  // The tensor of variable op `variableName`, named `tensorName`, with the shape and OneFlow data type the
  // job declares. Keys are tried as oneflow-onnx tries them: the op name ("m.conv1.weight", lazy and serving
  // layouts), the op name without its first dotted component ("conv1.weight", a module state_dict), and a
  // nested "m/conv1.weight" (graph.state_dict()). Throws InputError naming the variable when it is missing,
  // when its meta disagrees with the job, or when the size of `out` is not shape x element size.
  ir::Tensor load(const std::string& variableName, const std::string& tensorName, const std::vector<int64_t>& dims,
                  int oneflowDataType) const;

  // The folder a variable's files are in, if any candidate key exists (format A only). Throws InputError for a
  // name that would leave the weight folder.
  std::optional<std::string> variableFolder(const std::string& variableName) const;

 private:
  std::string dir_;
  std::string root_;
  mutable std::vector<std::string> filesRead_;
  std::shared_ptr<const std::map<std::string, ir::Tensor>> pickled_;  // set for a pickle-based save
};

// Where the weights of a job file are, by convention: "<job dir>/weights" (a folder, or a oneflow.save file),
// "<job dir>/weights.of", "<job dir>/variables", or the job's own folder when it holds snapshot_done or
// pickled_data. nullopt when none exists.
std::optional<std::string> findWeightFolder(const std::string& jobPath);

}  // namespace fb::oneflow
