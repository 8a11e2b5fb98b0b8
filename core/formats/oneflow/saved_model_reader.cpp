#include "formats/oneflow/saved_model_reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "formats/oneflow/job_import.h"
#include "formats/oneflow/shape_inference.h"
#include "formats/oneflow/weight_folder.h"
#include "ir/graph.h"
#include "formats/oneflow/oneflow_job.pb.h"
#include "util/error.h"

namespace fb::oneflow {
namespace fs = std::filesystem;

namespace {
class CollectErrors : public google::protobuf::io::ErrorCollector {
 public:
  std::string first;
  void AddError(int line, int, const std::string& m) override {
    if (first.empty()) first = "line " + std::to_string(line + 1) + ": " + m;
  }
};
}  // namespace

std::unique_ptr<ir::Model> readSavedModel(const std::string& path, const std::optional<std::string>& weightDir) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the file");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string data = buf.str();
  if (data.empty()) throw InputError(path, "the file is empty");

  ::oneflow::SavedModel sm;
  if (fs::path(path).extension() == ".pb") {
    if (!sm.ParsePartialFromString(data)) throw InputError(path, "not a binary OneFlow SavedModel");
  } else {
    CollectErrors errors;
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&errors);
    parser.AllowUnknownField(true);
    if (!parser.ParseFromString(data, &sm)) throw InputError(path, "not a text OneFlow SavedModel (" + errors.first + ")");
  }
  if (sm.graphs().empty()) throw InputError(path, "the SavedModel has no graphs");

  std::string graphName = sm.default_graph_name();
  if (graphName.empty() || !sm.graphs().count(graphName)) {
    graphName.clear();
    for (const auto& [k, v] : sm.graphs())
      if (graphName.empty() || k < graphName) graphName = k;
  }
  const auto& graph = sm.graphs().at(graphName);

  JobSource src;
  src.path = path;
  src.format = "oneflow-saved-model";
  src.graphName = graphName;
  src.metadata["oneflow.saved_model_name"] = sm.name();
  src.metadata["oneflow.saved_model_version"] = std::to_string(sm.version());
  for (const auto& op : graph.op_list()) src.ops.push_back(&op);

  const fs::path base = fs::path(path).parent_path();
  std::string dir;
  if (weightDir) dir = *weightDir;
  else if (!sm.checkpoint_dir().empty() && fs::is_directory(base / sm.checkpoint_dir())) dir = (base / sm.checkpoint_dir()).string();
  else dir = (base / "variables").string();
  std::optional<WeightFolder> weights;
  std::error_code ec;
  if (fs::is_directory(dir, ec)) weights.emplace(dir);
  auto model = importJob(src, weights ? &*weights : nullptr);

  // Input shapes from the signature (the input ops carry them too in most saves; the signature is authoritative).
  if (!graph.signatures().empty()) {
    std::string sigName = graph.default_signature_name();
    if (!graph.signatures().count(sigName)) sigName = graph.signatures().begin()->first;
    const auto& sig = graph.signatures().at(sigName);
    for (const auto& [name, def] : sig.inputs()) {
      auto* v = model->graph().findValue(def.lbi().op_name() + "/" + def.lbi().blob_name());
      if (!v) throw InputError(path, "signature input '" + name + "' names '" + def.lbi().op_name() + "', which is not in the graph");
      if (def.blob_conf().has_shape()) {
        ir::Shape s;
        for (auto d : def.blob_conf().shape().dim()) s.push_back(ir::Dim::of(d));
        auto dt = v->type.elemType != ir::DataType::Undefined ? v->type.elemType : ir::DataType::Float;
        v->type = ir::TypeInfo::tensor(dt, std::move(s));
      }
    }
  }
  inferOneflowShapes(model->graph());
  return model;
}

}  // namespace fb::oneflow
