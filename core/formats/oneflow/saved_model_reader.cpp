#include "formats/oneflow/saved_model_reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "formats/oneflow/file_limits.h"
#include "formats/oneflow/job_import.h"
#include "formats/oneflow/shape_inference.h"
#include "formats/oneflow/weight_folder.h"
#include "ir/graph.h"
#include "formats/oneflow/oneflow_job.pb.h"
#include "util/error.h"
#include "util/input_file.h"
#include "util/protobuf_log.h"

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

std::unique_ptr<ir::Model> readSavedModel(const std::string& path, const std::optional<std::string>& weightDir,
                                          const std::string& containDir) {
  const std::string data =
      InputFile::open(path, containDir).requireAtMost(kMaxGraphBytes, "OneFlow graph file").readAll();
  if (data.empty()) throw InputError(path, "the file is empty");

  ::oneflow::SavedModel sm;
  if (fs::path(path).extension() == ".pb") {
    if (!sm.ParsePartialFromString(data)) {
      takeProtobufLogMessage();
      throw InputError(path, "not a binary OneFlow SavedModel (truncated or corrupt)");
    }
  } else {
    CollectErrors errors;
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&errors);
    parser.AllowUnknownField(true);
    if (!parser.ParseFromString(data, &sm))
      throw InputError(path, "not a text OneFlow SavedModel (" + errors.first + ")");
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

  const fs::path base = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  std::string dir;
  std::error_code ec;
  if (weightDir) {
    dir = *weightDir;
  } else if (!sm.checkpoint_dir().empty()) {
    // The checkpoint is part of the model: it must be inside the model's folder, like every file the model names.
    const fs::path cp(sm.checkpoint_dir());
    bool climbs = cp.is_absolute() || cp.has_root_name();
    for (const auto& part : cp) climbs = climbs || part == "..";
    if (climbs || (fs::exists(base / cp, ec) && !resolvesInside(fs::canonical(base / cp, ec).string(), base.string())))
      throw InputError(path, "checkpoint_dir '" + sm.checkpoint_dir() + "' points outside the model's folder");
    dir = fs::is_directory(base / cp, ec) ? (base / cp).string() : (base / "variables").string();
  } else {
    dir = (base / "variables").string();
  }
  std::optional<WeightFolder> weights;
  if (fs::is_directory(dir, ec)) weightDir ? weights.emplace(dir) : weights.emplace(dir, base.string());
  auto model = importJob(src, weights ? &*weights : nullptr);

  // Input shapes from the signature (the input ops carry them too in most saves; the signature is authoritative).
  if (!graph.signatures().empty()) {
    std::string sigName = graph.default_signature_name();
    if (!graph.signatures().count(sigName)) sigName = graph.signatures().begin()->first;
    const auto& sig = graph.signatures().at(sigName);
    for (const auto& [name, def] : sig.inputs()) {
      auto* v = model->graph().findValue(def.lbi().op_name() + "/" + def.lbi().blob_name());
      if (!v)
        throw InputError(
            path, "signature input '" + name + "' names '" + def.lbi().op_name() + "', which is not in the graph");
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
