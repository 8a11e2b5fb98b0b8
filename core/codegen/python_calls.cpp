#include "codegen/python_calls.h"

#include <set>

namespace fb::codegen {

namespace {

bool isIdentifierStart(char c) { return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool isWordChar(char c) { return isIdentifierStart(c) || (c >= '0' && c <= '9'); }

// The code with comments removed and string contents blanked (quotes and newlines kept, so brackets and commas
// inside strings do not count and line numbers stay right).
std::string blankStringsAndComments(std::string_view code) {
  std::string out;
  out.reserve(code.size());
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '#') {
      while (i < code.size() && code[i] != '\n') ++i;
      if (i < code.size()) out += '\n';
      continue;
    }
    if (c != '\'' && c != '"') {
      out += c;
      continue;
    }
    const bool triple = i + 2 < code.size() && code[i + 1] == c && code[i + 2] == c;
    const size_t quoteLength = triple ? 3 : 1;
    out.append(quoteLength, c);
    i += quoteLength;
    for (; i < code.size(); ++i) {
      if (code[i] == '\\' && i + 1 < code.size()) {
        if (code[++i] == '\n') out += '\n';
        continue;
      }
      if (code[i] == c && (!triple || (i + 2 < code.size() && code[i + 1] == c && code[i + 2] == c))) break;
      if (code[i] == '\n') out += '\n';
    }
    out.append(quoteLength, c);
    i += quoteLength - 1;
  }
  return out;
}

// Modules other than the tensor library that generated code (run.py, helpers) may call into.
bool isOtherModule(const std::string& head) {
  static const std::set<std::string> names{"np", "os",        "sys",       "math",   "argparse", "json", "time",
                                           "re", "itertools", "functools", "pickle", "zipfile",  "io"};
  return names.count(head) > 0;
}

size_t matchingOpen(const std::string& s, size_t close) {
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (s[i] == ')' || s[i] == ']' || s[i] == '}') ++depth;
    if (s[i] == '(' || s[i] == '[' || s[i] == '{') --depth;
    if (depth == 0) return i;
  }
  return std::string::npos;
}

size_t matchingClose(const std::string& s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '[' || s[i] == '{') ++depth;
    if (s[i] == ')' || s[i] == ']' || s[i] == '}') --depth;
    if (depth == 0) return i;
  }
  return std::string::npos;
}

std::string trimmed(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\n' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\n' || s[e - 1] == '\t')) --e;
  return std::string(s.substr(b, e - b));
}

void readArguments(const std::string& text, size_t open, size_t close, PythonCall& call) {
  std::vector<std::string> args;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open + 1; i <= close; ++i) {
    const char c = text[i];
    if (i == close || (c == ',' && depth == 0)) {
      args.push_back(trimmed(std::string_view(text).substr(start, i - start)));
      start = i + 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
  }
  for (const std::string& a : args) {
    if (a.empty()) continue;  // `f()` or a trailing comma
    if (a.rfind("**", 0) == 0) {
      call.starKwargs = true;
      continue;
    }
    if (a[0] == '*') {
      call.starArgs = true;
      continue;
    }
    size_t e = 0;
    while (e < a.size() && isWordChar(a[e])) ++e;
    size_t eq = e;
    while (eq < a.size() && a[eq] == ' ') ++eq;
    if (e > 0 && isIdentifierStart(a[0]) && eq < a.size() && a[eq] == '=' && (eq + 1 >= a.size() || a[eq + 1] != '='))
      call.keywords.push_back(a.substr(0, e));
    else
      ++call.positional;
  }
}

}  // namespace

bool isPythonMethod(const std::string& m) {
  static const std::set<std::string> names{"__init__",
                                           "append",
                                           "extend",
                                           "items",
                                           "keys",
                                           "values",
                                           "insert",
                                           "pop",
                                           "format",
                                           "join",
                                           "get",
                                           "update",
                                           "setdefault",
                                           "startswith",
                                           "endswith",
                                           "replace",
                                           "register_buffer",
                                           "add_module",
                                           "register_parameter",
                                           "state_dict",
                                           "load_state_dict"};
  return names.count(m) > 0;
}

std::vector<PythonCall> pythonCallsIn(std::string_view code, std::string_view top) {
  const std::string text = blankStringsAndComments(code);
  const std::string alias = top == "oneflow" ? "flow" : std::string(top);
  const std::string topName(top);
  std::vector<PythonCall> calls;
  int line = 1;
  size_t lineCountedTo = 0;
  for (size_t open = 1; open < text.size(); ++open) {
    if (text[open] != '(' || !isWordChar(text[open - 1])) continue;
    size_t nameStart = open;
    while (nameStart > 0 && isWordChar(text[nameStart - 1])) --nameStart;
    if (!isIdentifierStart(text[nameStart]) || nameStart == 0 || text[nameStart - 1] != '.') continue;
    const std::string name = text.substr(nameStart, open - nameStart);
    // The receiver: names, dots and bracketed parts before the dot (`self.w`, `flow.nn`, `x[0]`, `f(x)`).
    const size_t dot = nameStart - 1;
    size_t start = dot;
    while (start > 0) {
      const char c = text[start - 1];
      if (isWordChar(c) || c == '.') {
        --start;
      } else if (c == ')' || c == ']') {
        const size_t o = matchingOpen(text, start - 1);
        if (o == std::string::npos) break;
        start = o;
      } else {
        break;
      }
    }
    const std::string receiver = text.substr(start, dot - start);
    // A name, a call result or a parenthesised expression; not a literal (`"".join`, `[1, 2].index`, `1.5e3`).
    if (receiver.empty() || !(isIdentifierStart(receiver[0]) || receiver[0] == '(') || receiver == "self") continue;
    const std::string head = receiver.substr(0, receiver.find('.'));
    // Only a plain dotted name can be a namespace (`flow.nn`); `flow.where(...).long` is a method of a result.
    const bool dottedName = receiver.find_first_of("([") == std::string::npos;
    std::string api;
    if (dottedName && (receiver == alias || receiver.rfind(alias + ".", 0) == 0))
      api = topName + receiver.substr(alias.size()) + "." + name;
    else if (dottedName && receiver == "F")
      api = topName + ".nn.functional." + name;
    else if (dottedName && (receiver == "nn" || receiver.rfind("nn.", 0) == 0))
      api = topName + "." + receiver + "." + name;
    else if ((dottedName && isOtherModule(head)) || receiver.rfind("super()", 0) == 0 || isPythonMethod(name))
      continue;
    else
      api = topName + ".Tensor." + name;
    const size_t close = matchingClose(text, open);
    if (close == std::string::npos) continue;
    PythonCall call;
    call.api = api;
    readArguments(text, open, close, call);
    for (; lineCountedTo < open; ++lineCountedTo) line += text[lineCountedTo] == '\n';
    call.line = line;
    std::string shown = text.substr(start, std::min<size_t>(close + 1 - start, 120));
    for (char& c : shown)
      if (c == '\n') c = ' ';
    call.text = shown;
    calls.push_back(std::move(call));
  }
  return calls;
}

}  // namespace fb::codegen
