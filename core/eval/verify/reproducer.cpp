#include "eval/verify/reproducer.h"

#include <filesystem>
#include <optional>

#include "check/onnx_check.h"
#include "convert/convert_report.h"
#include "eval/io/proto_value_file.h"
#include "eval/verify/extract_subgraph.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "ir/value.h"
#include "util/error.h"
#include "util/temp_folder.h"

namespace fb::eval {

namespace {

namespace fs = std::filesystem;

// A value's type as a run computed it.
ir::TypeInfo typeOfRunValue(const Value& v) {
  if (!v.isTensor()) return {};
  std::vector<ir::Dim> dims;
  for (int64_t d : v.tensor().dims()) dims.push_back(ir::Dim::of(d));
  return ir::TypeInfo::tensor(v.tensor().dtype(), dims);
}

bool untyped(const ir::TypeInfo& t) { return t.kind == ir::TypeInfo::Kind::None || (t.isTensor() && !t.shape); }

}  // namespace

std::map<std::string, Value> runKeeping(const ir::Model& m, std::map<std::string, Value> inputs,
                                        const std::vector<std::string>& keep, RunOptions options) {
  options.keep = RunOptions::Keep::Listed;
  options.keepValues.insert(keep.begin(), keep.end());
  RunResult result = runModel(m, inputs, options);
  for (auto& [n, v] : result.kept) inputs[n] = std::move(v);
  for (auto& [n, v] : result.outputs) inputs[n] = std::move(v);
  return inputs;
}

void typeFromRun(ir::Model& m, const std::vector<std::string>& names, const std::map<std::string, Value>& values) {
  for (const auto& name : names) {
    ir::Value* v = m.graph().findValue(name);
    auto it = values.find(name);
    if (v && untyped(v->type) && it != values.end()) v->type = typeOfRunValue(it->second);
  }
}

std::unique_ptr<ir::Model> cutReproducer(const ir::Model& m, const std::vector<std::string>& outputs,
                                         const std::vector<std::string>& inputs, const std::string& shownFile) {
  auto cut = extractSubgraph(m, outputs, inputs);
  // The reproducer must stand on its own: the same check a conversion's result passes.
  const CheckResult check = checkModelAtItsOpset(*cut);
  if (!check.ok) throw ReproducerCheckFailed(convert::checkLines(check, shownFile, "subgraph check"));
  return cut;
}

ReproducerFiles writeReproducer(const ir::Model& source, ir::Model& cut, const std::map<std::string, Value>& values,
                                const std::string& modelPath, const std::string& dataFolder) {
  ReproducerFiles files;
  files.model = modelPath;
  std::optional<CreatedParents> parents;
  std::optional<TempFolder> data;
  fs::path set;
  if (!dataFolder.empty()) {
    std::error_code ec;
    if (fs::exists(dataFolder, ec) && !fs::is_directory(dataFolder, ec))
      throw OutputError(dataFolder + ": the data folder is a file");
    set = outputFolderPath((fs::path(dataFolder) / "test_data_set_0").string());
    std::vector<std::string> mustStay = source.sourceFiles;
    mustStay.push_back(modelPath);
    for (const auto& f : mustStay) {
      const fs::path p = fs::weakly_canonical(fs::absolute(f), ec);
      const auto rel = p.lexically_relative(fs::weakly_canonical(set, ec));
      if (!rel.empty() && *rel.begin() != "..")
        throw OutputError(set.string() + ": writing the data set would replace a folder holding " + f);
    }
    parents.emplace(set, dataFolder);
    data.emplace(set, dataFolder);
    auto write = [&](const char* kind, size_t k, const ir::Value* v) {
      auto it = values.find(v->name());
      if (it == values.end()) throw InputError(source.sourcePath, "the run computed no value '" + v->name() + "'");
      const fs::path path = data->path() / (std::string(kind) + "_" + std::to_string(k) + ".pb");
      writeProtoValueFile(path.string(), it->second, v->name());
      ++files.pbFiles;
    };
    for (size_t k = 0; k < cut.graph().inputs().size(); ++k) write("input", k, cut.graph().inputs()[k]);
    for (size_t k = 0; k < cut.graph().outputs().size(); ++k) write("output", k, cut.graph().outputs()[k]);
  }
  // The writer refuses to replace the source's files: it reads them from the cut.
  cut.sourcePath = source.sourcePath;
  cut.sourceFiles = source.sourceFiles;
  onnxfmt::writeOnnxFile(cut, modelPath);
  if (data) {
    data->placeAt(set);
    parents->keep();
    files.dataSet = set.string();
  }
  return files;
}

}  // namespace fb::eval
