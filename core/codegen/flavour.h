#pragma once
// The two Python targets of ONNX -> Python code generation. OneFlow's API mirrors PyTorch's, so one set of
// handlers writes both; where the signatures differ a handler asks which flavour it writes.
#include <string>
#include <string_view>
#include <vector>

namespace fb::codegen {

enum class Flavour { PyTorch, OneFlow };

std::string_view flavourName(Flavour f);  // "pytorch" / "oneflow"
// "pytorch"/"torch" and "oneflow" (case-insensitive); throws std::invalid_argument otherwise.
Flavour flavourFromName(std::string_view name);
// The conversion direction this flavour is reported under ("onnx-pytorch" / "onnx-oneflow").
std::string directionName(Flavour f);
// The module alias generated code uses for the top-level namespace: "torch" / "flow".
std::string_view namespaceAlias(Flavour f);
// The import lines at the top of model.py.
std::string importLines(Flavour f);

// Fully qualified API names ("oneflow.nn.functional.relu") that generated OneFlow code may use. Every one
// exists in OneFlow 0.8, 0.9 and 1.0 (checked by a test against shared/docs/oneflow-api-versions.tsv) and
// the README lists them.
const std::vector<std::string>& oneflowApiNames();

// The API names a piece of generated code uses, qualified for `f` ("oneflow.cat", "oneflow.nn.functional.relu",
// "oneflow.Tensor.reshape", ...): found from the code's `T.`/`F.`/`nn.` references and method calls.
std::vector<std::string> apiNamesIn(std::string_view code, Flavour f);

}  // namespace fb::codegen
