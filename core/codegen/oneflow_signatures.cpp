#include "codegen/oneflow_signatures.h"

#include <algorithm>
#include <map>
#include <set>

namespace fb::codegen {

namespace {

constexpr std::string_view kTable =
#include "codegen/oneflow_signatures.inc"
    ;

std::vector<std::string> splitOn(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

struct Parameter {
  std::string name;
  bool required = false;
  bool positional = true;  // may be passed by position
  bool keyword = true;     // may be passed by keyword
};

struct ParsedSignature {
  bool anything = false;  // `...`: not documented, the arguments are not checked
  std::vector<Parameter> params;
  bool varArgs = false, varKwargs = false;
};

ParsedSignature parse(const std::string& parameters) {
  ParsedSignature sig;
  bool keywordOnly = false;
  for (std::string p : splitOn(parameters, ',')) {
    p = trimmed(p);
    if (p.empty()) continue;
    if (p == "...") {
      sig.anything = true;
    } else if (p == "/") {
      for (Parameter& q : sig.params) q.keyword = false;
    } else if (p == "*") {
      keywordOnly = true;
    } else if (p.rfind("**", 0) == 0) {
      sig.varKwargs = true;
    } else if (p[0] == '*') {
      sig.varArgs = true;
      keywordOnly = true;
    } else {
      Parameter q;
      q.required = p.back() != '=';
      q.name = q.required ? p : p.substr(0, p.size() - 1);
      q.positional = !keywordOnly;
      sig.params.push_back(q);
    }
  }
  return sig;
}

// Empty when `call` fits `sig`, else why not, as Python's TypeError would say it.
std::string mismatch(const PythonCall& call, const ParsedSignature& sig) {
  if (sig.anything) return {};
  size_t positionalSlots = 0;
  for (const Parameter& p : sig.params) positionalSlots += p.positional;
  std::set<std::string> bound;
  if (!call.starArgs) {
    if (call.positional > positionalSlots && !sig.varArgs)
      return "takes " + std::to_string(positionalSlots) + " positional argument" + (positionalSlots == 1 ? "" : "s") +
             ", " + std::to_string(call.positional) + " given";
    size_t given = call.positional;
    for (const Parameter& p : sig.params)
      if (p.positional && given > 0) {
        bound.insert(p.name);
        --given;
      }
  }
  for (const std::string& k : call.keywords) {
    auto it = std::find_if(sig.params.begin(), sig.params.end(), [&](const Parameter& p) { return p.name == k; });
    if (it == sig.params.end() || !it->keyword) {
      if (sig.varKwargs) continue;
      return it == sig.params.end() ? "unexpected keyword '" + k + "'" : "'" + k + "' is positional-only";
    }
    if (!bound.insert(k).second) return "'" + k + "' given twice";
  }
  if (call.starArgs || call.starKwargs) return {};
  for (const Parameter& p : sig.params)
    if (p.required && !bound.count(p.name)) return "missing '" + p.name + "'";
  return {};
}

const std::map<std::string, std::vector<std::pair<const OneflowSignature*, ParsedSignature>>>& parsedByApi() {
  static const auto table = [] {
    std::map<std::string, std::vector<std::pair<const OneflowSignature*, ParsedSignature>>> m;
    for (const OneflowSignature& s : oneflowSignatures()) m[s.api].emplace_back(&s, parse(s.parameters));
    return m;
  }();
  return table;
}

}  // namespace

std::string_view oneflowReleaseName(OneflowRelease r) {
  switch (r) {
    case OneflowRelease::V0_8:
      return "0.8";
    case OneflowRelease::V0_9:
      return "0.9";
    case OneflowRelease::V1_0:
      return "1.0";
  }
  return "?";
}

std::string_view oneflowSignatureTableText() { return kTable; }

const std::vector<OneflowSignature>& oneflowSignatures() {
  static const std::vector<OneflowSignature> rows = [] {
    std::vector<OneflowSignature> out;
    for (const std::string& line : splitOn(kTable, '\n')) {
      if (line.empty() || line[0] == '#') continue;
      const std::vector<std::string> cols = splitOn(line, '\t');
      if (cols.size() != 3) continue;
      OneflowSignature s{cols[0], {}, cols[2]};
      for (const std::string& v : splitOn(cols[1], ','))
        for (OneflowRelease r : kOneflowReleases)
          if (oneflowReleaseName(r) == v) s.releases.push_back(r);
      out.push_back(std::move(s));
    }
    return out;
  }();
  return rows;
}

CallVerdict checkOneflowCall(const PythonCall& call, OneflowRelease release) {
  CallVerdict v;
  const auto& byApi = parsedByApi();
  auto it = byApi.find(call.api);
  if (it == byApi.end()) {
    v.why = "no signature known for " + call.api;
    return v;
  }
  v.known = true;
  std::string firstWhy;
  bool inRelease = false;
  for (const auto& [row, sig] : it->second) {
    if (std::find(row->releases.begin(), row->releases.end(), release) == row->releases.end()) continue;
    inRelease = true;
    const std::string why = mismatch(call, sig);
    if (why.empty()) {
      v.fits = true;
      return v;
    }
    if (firstWhy.empty()) firstWhy = why + " (takes: " + row->parameters + ")";
  }
  v.why = inRelease ? firstWhy : call.api + " is not in OneFlow " + std::string(oneflowReleaseName(release));
  return v;
}

std::vector<OneflowCallProblem> oneflowCallProblems(std::string_view code, OneflowRelease release,
                                                    bool includeUnknown) {
  std::vector<OneflowCallProblem> out;
  for (const PythonCall& call : pythonCallsIn(code, "oneflow")) {
    CallVerdict v = checkOneflowCall(call, release);
    if (v.fits || (!v.known && !includeUnknown)) continue;
    out.push_back({call, release, std::move(v.why)});
  }
  return out;
}

std::string oneflowRefusal(std::string_view statements) {
  for (OneflowRelease r : kOneflowReleases)
    for (const OneflowCallProblem& p : oneflowCallProblems(statements, r, false))
      return "OneFlow " + std::string(oneflowReleaseName(r)) + " rejects " + p.call.text + ": " + p.why;
  return {};
}

}  // namespace fb::codegen
