#include "codegen/flavour.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <stdexcept>

namespace fb::codegen {

std::string_view flavourName(Flavour f) { return f == Flavour::OneFlow ? "oneflow" : "pytorch"; }

Flavour flavourFromName(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  if (n == "pytorch" || n == "torch") return Flavour::PyTorch;
  if (n == "oneflow") return Flavour::OneFlow;
  throw std::invalid_argument("unknown code target '" + std::string(name) + "' (pytorch or oneflow)");
}

std::string directionName(Flavour f) { return "onnx-" + std::string(flavourName(f)); }

std::string_view namespaceAlias(Flavour f) { return f == Flavour::OneFlow ? "flow" : "torch"; }

std::string importLines(Flavour f) {
  if (f == Flavour::OneFlow) return "import oneflow as flow\nimport oneflow.nn as nn\nimport oneflow.nn.functional as F\n";
  return "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n";
}

namespace {
// Python and list/dict methods that generated code calls on things that are not tensors.
bool isPythonMethod(const std::string& m) {
  static const std::set<std::string> names{"__init__", "append", "extend", "items", "keys", "values", "insert", "pop",
                                           "format", "join", "get", "update", "register_buffer", "add_module"};
  return names.count(m) > 0;
}

std::string stripStringsAndComments(std::string_view code) {
  std::string out;
  out.reserve(code.size());
  char quote = 0;
  bool comment = false;
  for (size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (comment) {
      if (c == '\n') {
        comment = false;
        out += c;
      }
      continue;
    }
    if (quote) {
      if (c == '\\' && i + 1 < code.size()) {
        ++i;
        continue;
      }
      if (c == quote) {
        quote = 0;
        out += c;
      }
      continue;
    }
    if (c == '#') {
      comment = true;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    out += c;
  }
  return out;
}
}  // namespace

std::vector<std::string> apiNamesIn(std::string_view code, Flavour f) {
  const std::string top = f == Flavour::OneFlow ? "oneflow" : "torch";
  const std::string text = stripStringsAndComments(code);
  std::set<std::string> names;
  static const std::regex ns(R"((^|[^\w.])(torch|flow|F|nn)\.([A-Za-z_]\w*))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), ns); it != std::sregex_iterator(); ++it) {
    const std::string head = (*it)[2], name = (*it)[3];
    if (head == "F") names.insert(top + ".nn.functional." + name);
    else if (head == "nn") names.insert(top + ".nn." + name);
    else names.insert(top + "." + name);
  }
  // Method calls on anything but a namespace or `self` are tensor methods.
  static const std::regex method(R"(([\w\)\]])\.([A-Za-z_]\w*)\()");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), method); it != std::sregex_iterator(); ++it) {
    size_t pos = static_cast<size_t>(it->position(0));
    size_t start = pos + 1;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '_' || text[start - 1] == '.'))
      --start;
    std::string receiver = text.substr(start, pos + 1 - start);
    static const std::set<std::string> modules{"torch", "flow", "F", "nn", "self", "np", "os", "sys", "argparse", "math"};
    if (modules.count(receiver) || modules.count(receiver.substr(0, receiver.find('.'))) && receiver.rfind("self.", 0) != 0)
      continue;  // a module function (or a method of the module itself); `self.w.view(...)` is a tensor method
    if (!receiver.empty() && std::isdigit(static_cast<unsigned char>(receiver[0]))) continue;  // 1.5e3 etc.
    const std::string name = (*it)[2];
    if (!isPythonMethod(name)) names.insert(top + ".Tensor." + name);
  }
  return {names.begin(), names.end()};
}

}  // namespace fb::codegen
