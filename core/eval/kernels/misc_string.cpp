// String ops: StringNormalizer (stopwords out, case changed), and opset 20's StringConcat, StringSplit and
// RegexFullMatch (misc_regex.h). Strings are UTF-8; case changes cover ASCII, Latin-1, Greek and basic Cyrillic
// letters (the scripts whose case pairs are a fixed offset apart) and leave other code points as they are.
#include <string>
#include <unordered_set>
#include <vector>

#include "eval/broadcast_walk.h"
#include "eval/kernels/broadcast.h"
#include "eval/kernels/misc_family.h"
#include "eval/kernels/misc_regex.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/run_error.h"

namespace fb::eval {

namespace {

// The code point's other-case partner (upper when `upper`), or itself.
char32_t changeCase(char32_t cp, bool upper) {
  auto shift = [&](char32_t lowFirst, char32_t lowLast, char32_t offset) -> char32_t {
    if (upper && cp >= lowFirst && cp <= lowLast) return cp - offset;
    if (!upper && cp >= lowFirst - offset && cp <= lowLast - offset) return cp + offset;
    return 0;
  };
  if (cp == 0xF7 || cp == 0xD7 || cp == 0x3C2) return cp;  // division / multiplication signs, final sigma
  for (auto [first, last, off] : {std::tuple<char32_t, char32_t, char32_t>{U'a', U'z', 0x20},
                                  {0xE0, 0xFE, 0x20},
                                  {0x3B1, 0x3C9, 0x20},
                                  {0x430, 0x44F, 0x20},
                                  {0x450, 0x45F, 0x50}})
    if (char32_t r = shift(first, last, off)) return r;
  return cp;
}

std::string withCase(const std::string& s, bool upper) {
  std::string out;
  out.reserve(s.size());
  for (size_t k = 0; k < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[k]);
    const size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
    const bool valid =
        len == 1 ? b < 0x80 : k + len <= s.size() && (static_cast<unsigned char>(s[k + 1]) & 0xC0) == 0x80;
    if (!valid || len > 2) {  // invalid, or beyond the scripts handled: copied as it is
      const size_t n = valid ? len : 1;
      out.append(s, k, n);
      k += n;
      continue;
    }
    char32_t cp = len == 1 ? b : ((b & 0x1Fu) << 6) | (static_cast<unsigned char>(s[k + 1]) & 0x3Fu);
    cp = changeCase(cp, upper);
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    k += len;
  }
  return out;
}

std::vector<Value> stringNormalizer(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (!x.isString()) badInput("StringNormalizer takes strings, got " + describe(x));
  const bool twoD = x.rank() == 2;
  if (!(x.rank() == 1 || (twoD && x.dim(0) == 1)))
    badInput("StringNormalizer input must be [C] or [1, C], got " + describe(x));
  const std::string action = c.node.attrString("case_change_action", "NONE");
  if (action != "NONE" && action != "LOWER" && action != "UPPER")
    badInput("StringNormalizer case_change_action '" + action + "'");
  const bool caseSensitive = c.node.attrInt("is_case_sensitive", 0) != 0;
  std::unordered_set<std::string> stop;
  if (const ir::Attribute* a = c.node.attr("stopwords"))
    for (const std::string& w : a->strings) stop.insert(caseSensitive ? w : withCase(w, false));
  std::vector<std::string> kept;
  for (const std::string& s : x.stringValues()) {
    if (stop.count(caseSensitive ? s : withCase(s, false))) continue;
    kept.push_back(action == "NONE" ? s : withCase(s, action == "UPPER"));
  }
  // With every string removed the output keeps one empty string, as ONNX's reference does.
  if (kept.empty()) kept.emplace_back();
  const int64_t n = static_cast<int64_t>(kept.size());
  return {Tensor::strings(twoD ? std::vector<int64_t>{1, n} : std::vector<int64_t>{n}, std::move(kept))};
}

// String tensors are not charged to the run's memory budget by Tensor::empty; a result whose size comes from the
// data (a broadcast, the widest split) is checked against it first, at the size of an empty std::string each.
void chargeStrings(const std::vector<int64_t>& dims) {
  std::vector<int64_t> probe = dims;
  probe.push_back(static_cast<int64_t>(sizeof(std::string)));
  Tensor::empty(ir::DataType::UInt8, probe);
}

std::vector<Value> stringConcat(const KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(1);
  if (!a.isString() || !b.isString()) badInput("StringConcat of " + describe(a) + " and " + describe(b));
  const std::vector<int64_t> dims = broadcastDims({&a.dims(), &b.dims()});
  chargeStrings(dims);
  const int64_t n = checkedElementCount(dims);
  std::vector<std::string> out(static_cast<size_t>(n));
  BroadcastWalk<2> w(dims, {&a.dims(), &b.dims()});
  for (int64_t k = 0; k < n; ++k, w.next()) out[k] = a.stringValues()[w.at(0)] + b.stringValues()[w.at(1)];
  return {Tensor::strings(dims, std::move(out))};
}

bool isSpace(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'; }

// Python's str.split: by a delimiter (empty parts kept), or without one on runs of whitespace (none kept);
// at most `maxSplit` splits when it is >= 0.
std::vector<std::string> split(const std::string& s, const std::string& delimiter, int64_t maxSplit) {
  std::vector<std::string> parts;
  if (!delimiter.empty()) {
    size_t from = 0;
    for (;;) {
      const size_t at =
          maxSplit >= 0 && static_cast<int64_t>(parts.size()) >= maxSplit ? std::string::npos : s.find(delimiter, from);
      if (at == std::string::npos) break;
      parts.push_back(s.substr(from, at - from));
      from = at + delimiter.size();
    }
    parts.push_back(s.substr(from));
    return parts;
  }
  size_t k = 0;
  while (k < s.size()) {
    while (k < s.size() && isSpace(s[k])) ++k;
    if (k == s.size()) break;
    if (maxSplit >= 0 && static_cast<int64_t>(parts.size()) >= maxSplit) {
      parts.push_back(s.substr(k));  // the rest, trailing whitespace included, as Python keeps it
      break;
    }
    const size_t start = k;
    while (k < s.size() && !isSpace(s[k])) ++k;
    parts.push_back(s.substr(start, k - start));
  }
  return parts;
}

std::vector<Value> stringSplit(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (!x.isString()) badInput("StringSplit takes strings, got " + describe(x));
  const std::string delimiter = c.node.attrString("delimiter", "");
  const int64_t maxSplit = c.node.hasAttr("maxsplit") ? c.node.attrInt("maxsplit", -1) : -1;
  std::vector<std::vector<std::string>> parts;
  size_t widest = 0;
  for (const std::string& s : x.stringValues()) {
    parts.push_back(split(s, delimiter, maxSplit));
    widest = std::max(widest, parts.back().size());
  }
  std::vector<int64_t> dims = x.dims();
  dims.push_back(static_cast<int64_t>(widest));
  chargeStrings(dims);
  Tensor y = Tensor::empty(ir::DataType::String, dims);
  Tensor counts = Tensor::empty(ir::DataType::Int64, x.dims());
  std::vector<std::string>& out = y.mutableStrings();
  for (size_t k = 0; k < parts.size(); ++k) {
    counts.mutableData<int64_t>()[k] = static_cast<int64_t>(parts[k].size());
    for (size_t j = 0; j < parts[k].size(); ++j) out[k * widest + j] = std::move(parts[k][j]);
  }
  return {y, counts};
}

constexpr double kMaxRegexSteps = 2e10;

std::vector<Value> regexFullMatch(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (!x.isString()) badInput("RegexFullMatch takes strings, got " + describe(x));
  const Regex re = Regex::compile(c.node.attrString("pattern", ""));
  double steps = 0;  // each code point of the text moves at most every instruction of the program once
  for (const std::string& s : x.stringValues()) steps += static_cast<double>(s.size() + 1) * re.size();
  if (steps > kMaxRegexSteps)
    unsupported("RegexFullMatch would take " + std::to_string(static_cast<int64_t>(steps)) +
                " automaton steps, more than the evaluator allows");
  Tensor y = Tensor::empty(ir::DataType::Bool, x.dims());
  bool* q = y.mutableData<bool>();
  for (int64_t k = 0; k < x.size(); ++k) q[k] = re.fullMatch(x.stringValues()[k]);
  return {y};
}

}  // namespace

void registerStringKernels(KernelRegistry& r) {
  r.add("StringNormalizer", 10, stringNormalizer);
  r.add("StringConcat", 20, stringConcat);
  r.add("StringSplit", 20, stringSplit);
  r.add("RegexFullMatch", 20, regexFullMatch);
}

}  // namespace fb::eval
