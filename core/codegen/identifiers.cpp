#include "codegen/identifiers.h"

#include <cctype>
#include <regex>
#include <vector>

namespace fb::codegen {

bool isPythonKeyword(std::string_view s) {
  static const std::unordered_set<std::string_view> kw{
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
      "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
      "pass", "raise", "return", "try", "while", "with", "yield", "match", "case", "_"};
  return kw.count(s) > 0;
}

std::string sanitizeIdentifier(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  bool lastUnderscore = false;
  for (char c : raw) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0;
    if (ok) {
      out += c;
      lastUnderscore = false;
    } else if (!lastUnderscore && !out.empty()) {
      out += '_';
      lastUnderscore = true;
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty()) out = "v";
  if (std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
  return out;
}

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
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
}  // namespace

std::string identifierForValue(std::string_view onnxName) {
  std::string name(onnxName);
  // "onnx::Conv_193" -> "conv_193"
  if (auto p = name.rfind("::"); p != std::string::npos) return sanitizeIdentifier(lower(name.substr(p + 2)));
  if (name.find('/') != std::string::npos) {
    std::vector<std::string> parts = split(name, '/');
    static const std::regex opOutput(R"(([A-Za-z]+)(_\d+)?_output_(\d+))");
    std::smatch m;
    std::string suffix;
    if (!parts.empty() && std::regex_match(parts.back(), m, opOutput)) {
      std::string op = lower(m[1].str());
      if (m[3].str() != "0") suffix = "_" + m[3].str();
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
    return sanitizeIdentifier(lower(joined + suffix));
  }
  return sanitizeIdentifier(name);
}

std::string identifierForWeight(std::string_view onnxName) {
  std::string name(onnxName);
  if (auto p = name.rfind("::"); p != std::string::npos) name = name.substr(p + 2);
  return sanitizeIdentifier(name);
}

NameTable::NameTable() {
  for (const char* n : {"self", "torch", "flow", "F", "nn", "np", "math", "T", "super", "range", "len", "int", "float",
                        "bool", "list", "tuple", "min", "max", "abs", "sum", "print", "zip", "isinstance", "str"})
    used_.insert(n);
}

std::string NameTable::claim(std::string base) {
  if (base.empty()) base = "v";
  if (isPythonKeyword(base)) base += "_";
  std::string name = base;
  for (int k = 1; used_.count(name); ++k) name = base + "_" + std::to_string(k);
  used_.insert(name);
  return name;
}

}  // namespace fb::codegen
