#include "codegen/identifiers.h"

#include <optional>
#include <vector>

#include "codegen/python_text.h"

namespace fb::codegen {

bool isPythonKeyword(std::string_view s) {
  static const std::unordered_set<std::string_view> kw{
      "False",    "None",   "True",  "and",  "as",     "assert",   "async",   "await", "break", "class",
      "continue", "def",    "del",   "elif", "else",   "except",   "finally", "for",   "from",  "global",
      "if",       "import", "in",    "is",   "lambda", "nonlocal", "not",     "or",    "pass",  "raise",
      "return",   "try",    "while", "with", "yield",  "match",    "case",    "_"};
  return kw.count(s) > 0;
}

namespace {
std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}
std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) parts.push_back(cur);
  return parts;
}

bool isAsciiLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// The op and output index of a PyTorch exporter's value name "<Op>[_<n>]_output_<k>" ("Conv_output_0",
// "Gemm_2_output_1"); a linear scan (a regex here recursed per character and overflowed the stack on long names).
struct OpOutput {
  std::string op, index;
};
std::optional<OpOutput> parseOpOutput(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && isAsciiLetter(s[i])) ++i;
  if (i == 0) return std::nullopt;
  OpOutput r{std::string(s.substr(0, i)), {}};
  if (i + 1 < s.size() && s[i] == '_' && isAsciiDigit(s[i + 1])) {
    size_t j = i + 1;
    while (j < s.size() && isAsciiDigit(s[j])) ++j;
    i = j;
  }
  constexpr std::string_view kOutput = "_output_";
  if (s.substr(i, kOutput.size()) != kOutput) return std::nullopt;
  i += kOutput.size();
  if (i == s.size()) return std::nullopt;
  for (size_t j = i; j < s.size(); ++j)
    if (!isAsciiDigit(s[j])) return std::nullopt;
  r.index = std::string(s.substr(i));
  return r;
}
}  // namespace

std::string identifierForValue(std::string_view onnxName) {
  std::string name(onnxName);
  // "onnx::Conv_193" -> "conv_193"
  if (auto p = name.rfind("::"); p != std::string::npos) return pyIdentifier(lower(name.substr(p + 2)));
  if (name.find('/') != std::string::npos) {
    std::vector<std::string> parts = split(name, '/');
    std::string suffix;
    if (auto m = parts.empty() ? std::nullopt : parseOpOutput(parts.back())) {
      std::string op = lower(m->op);
      if (m->index != "0") suffix = "_" + m->index;
      parts.pop_back();
      // The op name adds nothing when the module is named after it (".../relu/Relu_output_0").
      if (parts.empty() || lower(parts.back()).find(op) == std::string::npos) parts.push_back(op);
    }
    // "layer1", "layer1.0" -> "layer1.0": a scope that repeats its parent as a prefix says it once.
    std::vector<std::string> kept;
    for (size_t i = 0; i < parts.size(); ++i)
      if (i + 1 >= parts.size() || parts[i + 1].rfind(parts[i], 0) != 0) kept.push_back(parts[i]);
    std::string joined;
    for (const auto& p : kept) joined += (joined.empty() ? "" : "_") + p;
    return pyIdentifier(lower(joined + suffix));
  }
  return pyIdentifier(name);
}

std::string identifierForWeight(std::string_view onnxName) {
  std::string name(onnxName);
  if (auto p = name.rfind("::"); p != std::string::npos) name = name.substr(p + 2);
  return pyIdentifier(name);
}

const std::vector<std::string_view>& reservedPythonNames() {
  // Builtins (Python 3.11) a generated function could call, the module aliases and module-level names of
  // model.py (INPUTS, OUTPUTS) and run.py (HERE, main, ...). `input`, `id` and the like are left free: generated
  // code never calls them and they are the most common ONNX input names.
  static const std::vector<std::string_view> names{"self",
                                                   "torch",
                                                   "flow",
                                                   "F",
                                                   "nn",
                                                   "np",
                                                   "math",
                                                   "T",
                                                   "INPUTS",
                                                   "OUTPUTS",
                                                   "HERE",
                                                   "argparse",
                                                   "os",
                                                   "sys",
                                                   "make_input",
                                                   "load_model",
                                                   "main",
                                                   "ArithmeticError",
                                                   "AssertionError",
                                                   "AttributeError",
                                                   "BaseException",
                                                   "Ellipsis",
                                                   "Exception",
                                                   "ImportError",
                                                   "IndexError",
                                                   "KeyError",
                                                   "LookupError",
                                                   "NameError",
                                                   "NotImplemented",
                                                   "NotImplementedError",
                                                   "OverflowError",
                                                   "RecursionError",
                                                   "RuntimeError",
                                                   "StopIteration",
                                                   "SyntaxError",
                                                   "TypeError",
                                                   "ValueError",
                                                   "ZeroDivisionError",
                                                   "abs",
                                                   "all",
                                                   "any",
                                                   "ascii",
                                                   "bin",
                                                   "bool",
                                                   "bytearray",
                                                   "bytes",
                                                   "callable",
                                                   "chr",
                                                   "classmethod",
                                                   "complex",
                                                   "delattr",
                                                   "dict",
                                                   "divmod",
                                                   "enumerate",
                                                   "eval",
                                                   "exec",
                                                   "float",
                                                   "frozenset",
                                                   "getattr",
                                                   "globals",
                                                   "hasattr",
                                                   "hex",
                                                   "int",
                                                   "isinstance",
                                                   "issubclass",
                                                   "iter",
                                                   "len",
                                                   "list",
                                                   "locals",
                                                   "map",
                                                   "max",
                                                   "min",
                                                   "next",
                                                   "object",
                                                   "oct",
                                                   "ord",
                                                   "pow",
                                                   "print",
                                                   "property",
                                                   "range",
                                                   "repr",
                                                   "reversed",
                                                   "round",
                                                   "set",
                                                   "setattr",
                                                   "slice",
                                                   "sorted",
                                                   "staticmethod",
                                                   "str",
                                                   "sum",
                                                   "super",
                                                   "tuple",
                                                   "type",
                                                   "vars",
                                                   "zip",
                                                   "__import__",
                                                   "__builtins__",
                                                   "__name__",
                                                   "__file__"};
  return names;
}

NameTable::NameTable() {
  for (std::string_view n : reservedPythonNames()) used_.insert(std::string(n));
}

std::string NameTable::claim(std::string base) {
  if (base.empty()) base = "v";
  if (isPythonKeyword(base)) base += "_";
  std::string name = base;
  // Counting on from the last suffix handed out for this base keeps many equal names (capped long ones) linear.
  for (int& k = nextSuffix_[base]; used_.count(name);) name = base + "_" + std::to_string(++k);
  used_.insert(name);
  return name;
}

}  // namespace fb::codegen
