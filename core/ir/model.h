#pragma once
// A whole model: metadata, opset imports, the main graph, model-local functions.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"

namespace fb::ir {

struct OpsetImport {
  std::string domain;  // "" is the default ONNX domain
  int64_t version = 0;
  bool operator==(const OpsetImport&) const = default;
};

struct Function {
  std::string name;
  std::string domain;
  std::string docString;
  std::vector<std::string> attributeNames;
  std::vector<OpsetImport> opsets;
  // Body: its inputs and outputs are the function's formal parameters (untyped values).
  std::shared_ptr<Graph> body;
  // Fields onnx 1.12's onnx.proto does not know (newer ONNX: metadata_props, overload, device configuration, ...),
  // as the wire bytes they were read as; written back unchanged.
  std::string unknownFields;
};

class Model {
 public:
  Model();

  int64_t irVersion = 8;
  std::string producerName;
  std::string producerVersion;
  std::string domain;
  int64_t modelVersion = 0;
  std::string docString;
  std::vector<OpsetImport> opsets;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<Function> functions;
  // TrainingInfoProto entries kept as serialized bytes: FlowBridge does not edit them, only carries them.
  std::vector<std::string> trainingInfo;
  // Fields onnx 1.12's onnx.proto does not know (newer ONNX: metadata_props, overload, device configuration, ...),
  // as the wire bytes they were read as; written back unchanged.
  std::string unknownFields;

  std::string sourcePath;  // where it was read from, if anywhere
  std::string sourceFormat = "onnx";
  // Every file reading the model opened or will open (graph file, external-data side files, weight files):
  // no output may be written over any of them.
  std::vector<std::string> sourceFiles;

  Graph& graph() { return *graph_; }
  const Graph& graph() const { return *graph_; }
  std::shared_ptr<Graph> graphPtr() const { return graph_; }
  void setGraph(std::shared_ptr<Graph> g) { graph_ = std::move(g); }

  // Version imported for a domain ("" and "ai.onnx" are the same); 0 when not imported.
  int64_t opsetVersion(const std::string& domain) const;
  void setOpsetVersion(const std::string& domain, int64_t version);

  std::unique_ptr<Model> clone() const;

 private:
  std::shared_ptr<Graph> graph_;
};

}  // namespace fb::ir
