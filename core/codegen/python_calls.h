#pragma once
// The calls a piece of generated Python makes, as far as a signature check needs them: which API is called and
// with how many positional arguments and which keywords. A linear scan of the text (no regex, no Python): the
// generated code is FlowBridge's own, but names and strings in it come from the model.
#include <string>
#include <string_view>
#include <vector>

namespace fb::codegen {

struct PythonCall {
  std::string api;  // qualified: "oneflow.ones_like", "oneflow.nn.functional.conv2d", "oneflow.Tensor.reshape"
  size_t positional = 0;
  std::vector<std::string> keywords;
  bool starArgs = false;    // `f(*xs)`: the positional count is unknown
  bool starKwargs = false;  // `f(**kw)`: the keywords are unknown
  int line = 0;             // 1-based line of the call's `(` in the code
  std::string text;         // the call as written, strings blanked, for messages (at most 120 characters)
};

// Every call of `top` ("oneflow" or "torch") API in `code`: `flow.x(`/`torch.x(`, `F.x(`, `nn.x(` and method calls on
// anything but a namespace, `self`, `super()` or a literal, which are taken for tensor methods (`top.Tensor.x`).
// Python's own container and string methods (`append`, `items`, ...) are left out.
std::vector<PythonCall> pythonCallsIn(std::string_view code, std::string_view top);

// Methods generated code calls on Python's own objects (lists, dicts, strings) and on the nn.Module (register_buffer,
// state_dict, load_state_dict in load_original_state_dict): never tensor methods.
bool isPythonMethod(const std::string& m);

}  // namespace fb::codegen
