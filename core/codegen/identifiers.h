#pragma once
// Python identifiers for ONNX names: value names become local variables, initializer names attributes.
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fb::codegen {

// A readable identifier for an ONNX value name. PyTorch exports name values after the module path and the
// op ("/layer1/layer1.0/conv1/Conv_output_0"): the path without repeated prefixes gives "layer1_0_conv1";
// "onnx::Conv_193" gives "conv_193", "input.4" gives "input_4".
std::string identifierForValue(std::string_view onnxName);
// An identifier for an initializer ("encoder.layer.3.attn.q_proj.weight" -> "encoder_layer_3_attn_q_proj_weight").
std::string identifierForWeight(std::string_view onnxName);
bool isPythonKeyword(std::string_view s);
// Names no generated local, attribute or class may take: module aliases, builtins the generated code may call,
// the module-level names of model.py and run.py.
const std::vector<std::string_view>& reservedPythonNames();

// Hands out identifiers that are unique within one scope (a generated function or class).
class NameTable {
 public:
  // Names generated code must not shadow (module aliases, `self`, builtins it calls).
  NameTable();
  // `base`, or `base_1`, `base_2`, ... when taken; keywords get a trailing underscore.
  std::string claim(std::string base);
  bool taken(const std::string& name) const { return used_.count(name) > 0; }
  void reserve(const std::string& name) { used_.insert(name); }

 private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int> nextSuffix_;
};

}  // namespace fb::codegen
