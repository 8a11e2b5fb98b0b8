#pragma once
// ONNX -> Python (PyTorch or OneFlow): the third direction of the conversion engine. Each node goes to the
// handler registered for its op at the model's opset (direction "onnx-python"; the highest since-version
// <= the model's opset wins), which writes the node's statements into one nn.Module. Nodes get the same
// statuses and report as in the other directions: `converted`, `unsupported` with the reason, `failed`.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/flavour.h"
#include "codegen/module_builder.h"
#include "convert/converter.h"

namespace fb::codegen {

struct CodegenOptions {
  Flavour flavour = Flavour::PyTorch;
  // Write the code even with unsupported/failed nodes: each becomes a `raise NotImplementedError(...)`.
  bool keepUnconverted = false;
  std::shared_ptr<const schema::ShapeFacts> facts;  // of the source, when the caller keeps them
};

struct GeneratedCode {
  std::string className;
  std::string modelPy;  // model.py
  std::string runPy;    // run.py
  std::vector<Weight> weights;
  // ONNX node id -> the 1-based lines of model.py written for it (its statements in forward).
  std::map<uint64_t, std::vector<int>> nodeLines;
  // ONNX node id -> the 1-based lines of __init__ that declare the weights its statements use (a weight shared by
  // several nodes is declared once, and listed for each).
  std::map<uint64_t, std::vector<int>> weightLines;
  std::vector<std::string> apiNames;  // qualified API names model.py uses
};

struct CodegenResult {
  convert::ConvertResult conversion;    // statuses, counts and times (its `model` stays null)
  std::unique_ptr<GeneratedCode> code;  // null when nodes were left unconverted (and not kept)
  bool complete() const { return code && conversion.complete(); }
};

// The registry direction the handlers live in.
inline constexpr const char* kPythonDirection = "onnx-python";
void registerCodegenHandlers();

CodegenResult generatePython(const ir::Model& source, const CodegenOptions& opts);
// The statuses only (code is generated and dropped: it is cheap).
CodegenResult dryRunPython(const ir::Model& source, const CodegenOptions& opts);

// The name of the generated nn.Module for a graph name ("main_graph" -> "MainGraph", "" -> "Model").
std::string classNameFor(const std::string& graphName);
// The class name for a model: its graph's name, unless that is an exporter's default ("torch_jit", "main_graph",
// "torch-jit-export", "graph", empty), then the model file's name without its extension
// ("transformer_encoder_op17.onnx" -> "TransformerEncoderOp17"). Both are untrusted and go through classNameFor.
std::string classNameForModel(const std::string& graphName, const std::string& fileName);

// The file every generated folder holds (written last): FlowBridge replaces a non-empty folder only when it has
// this marker, never a folder that merely holds a model.py and a run.py.
inline constexpr const char* kGeneratedFolderMarker = ".flowbridge-generated";
bool isGeneratedFolder(const std::string& dir);

// The absolute folder writeGeneratedFolder writes for `dir`: "out/" and "out" are the same folder.
std::string generatedFolderTarget(const std::string& dir);

// Throws OutputError (naming `dir` and the reason) unless writeGeneratedFolder may write `dir`: a new folder, an
// empty one, or one with the marker. For callers that check before the work that leads to the write.
void ensureGeneratedFolderWritable(const std::string& dir);

// Writes model.py, run.py, the weights (weights.pt for PyTorch, weights/ for OneFlow) and the marker into `dir`,
// which is created with any missing parents; an existing non-empty folder is replaced only when it carries the
// marker. Atomic: everything is written into a temporary folder beside it first, and nothing (neither the
// temporary folder nor a parent created for it) is left behind when writing fails or SIGINT/SIGTERM ends the
// process.
void writeGeneratedFolder(const GeneratedCode& code, Flavour flavour, const std::string& dir);

}  // namespace fb::codegen
