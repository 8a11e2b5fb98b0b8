#include "codegen/flavour.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "codegen/python_calls.h"

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
  if (f == Flavour::OneFlow)
    return "import oneflow as flow\nimport oneflow.nn as nn\nimport oneflow.nn.functional as F\n";
  return "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n";
}

namespace {

bool isIdentifierStart(char c) { return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool isWordChar(char c) { return isIdentifierStart(c) || (c >= '0' && c <= '9'); }
size_t wordEnd(const std::string& s, size_t i) {
  while (i < s.size() && isWordChar(s[i])) ++i;
  return i;
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
  // `torch.x`, `flow.x`, `F.x`, `nn.x` where the namespace is a whole word not after a dot; linear scans: no
  // regex reads generated text (a regex recursed per character and overflowed the stack on long names).
  for (size_t i = 0; i < text.size();) {
    if (!isWordChar(text[i]) || (i > 0 && (isWordChar(text[i - 1]) || text[i - 1] == '.'))) {
      ++i;
      continue;
    }
    const size_t headEnd = wordEnd(text, i);
    const std::string_view head = std::string_view(text).substr(i, headEnd - i);
    i = headEnd;
    if ((head != "torch" && head != "flow" && head != "F" && head != "nn") || headEnd + 1 >= text.size() ||
        text[headEnd] != '.' || !isIdentifierStart(text[headEnd + 1]))
      continue;
    const size_t nameEnd = wordEnd(text, headEnd + 1);
    const std::string name = text.substr(headEnd + 1, nameEnd - headEnd - 1);
    if (head == "F")
      names.insert(top + ".nn.functional." + name);
    else if (head == "nn")
      names.insert(top + ".nn." + name);
    else
      names.insert(top + "." + name);
    i = nameEnd;
  }
  // Method calls (`<x>.name(`) on anything but a namespace or `self` are tensor methods.
  static const std::set<std::string> modules{"torch", "flow", "F", "nn", "self", "np", "os", "sys", "argparse", "math"};
  for (size_t dot = 1; dot + 1 < text.size(); ++dot) {
    const char before = text[dot - 1];
    if (text[dot] != '.' || !(isWordChar(before) || before == ')' || before == ']') ||
        !isIdentifierStart(text[dot + 1]))
      continue;
    const size_t nameEnd = wordEnd(text, dot + 1);
    if (nameEnd >= text.size() || text[nameEnd] != '(') continue;
    size_t start = dot;
    while (start > 0 && (isWordChar(text[start - 1]) || text[start - 1] == '.')) --start;
    const std::string receiver = text.substr(start, dot - start);
    if (modules.count(receiver) ||
        (modules.count(receiver.substr(0, receiver.find('.'))) && receiver.rfind("self.", 0) != 0))
      continue;  // a module function (or a method of the module itself); `self.w.view(...)` is a tensor method
    if (!receiver.empty() && receiver[0] >= '0' && receiver[0] <= '9') continue;  // 1.5e3 etc.
    const std::string name = text.substr(dot + 1, nameEnd - dot - 1);
    if (!isPythonMethod(name)) names.insert(top + ".Tensor." + name);
  }
  return {names.begin(), names.end()};
}

}  // namespace fb::codegen
