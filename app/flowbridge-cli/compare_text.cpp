#include "compare_text.h"

#include <cmath>

#include "util/printable.h"

namespace fb::cli {

namespace {

nlohmann::json statsJson(const eval::ValueStats& s) {
  return {{"count", s.count}, {"min", s.min},      {"max", s.max},
          {"mean", s.mean},   {"nan", s.nanCount}, {"inf", s.infCount}};
}

// JSON has no infinity: a NaN against a number is reported as null.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

}  // namespace

void printDivergence(const eval::ComparedValue& c, std::ostream& out) {
  if (c.bNode.empty()) {
    out << "first divergent value: the output " << printable(c.bValue) << " (no compared node before it diverges)\n";
  } else {
    out << "first divergent node: '" << printable(c.bNode) << "' (" << printable(c.op);
    if (!c.aNode.empty() && c.aNode != c.bNode)
      out << "; from '" << printable(c.aNode) << "' (" << printable(c.aOp) << ") in the source";
    else if (c.aOp != c.op)
      out << "; " << printable(c.aOp) << " in the source";
    out << "), output " << printable(c.bValue);
    if (c.aValue != c.bValue) out << " (" << printable(c.aValue) << " in the source)";
    out << "\n";
  }
  out << "  source:    " << eval::toText(c.aStats) << "\n";
  out << "  converted: " << eval::toText(c.bStats) << "\n";
  out << "  difference: " << eval::toText(c.diff) << "\n";
}

nlohmann::json comparedJson(const eval::ComparedValue& c) {
  nlohmann::json j = {{"node", c.bNode},
                      {"source_node", c.aNode},
                      {"op", c.op},
                      {"source_op", c.aOp},
                      {"value", c.bValue},
                      {"source_value", c.aValue},
                      {"agree", c.diff.agree},
                      {"max_abs", number(c.diff.maxAbs)},
                      {"max_rel", number(c.diff.maxRel)},
                      {"outside", c.diff.outside},
                      {"source_stats", statsJson(c.aStats)},
                      {"stats", statsJson(c.bStats)}};
  if (!c.diff.mismatch.empty()) j["mismatch"] = c.diff.mismatch;
  return j;
}

nlohmann::json comparisonJson(const eval::ModelComparison& cmp, const std::string& a, const std::string& b,
                              const eval::Tolerance& tol) {
  nlohmann::json j = {{"a", a},
                      {"b", b},
                      {"atol", tol.atol},
                      {"rtol", tol.rtol},
                      {"agree", cmp.disagreeing == 0},
                      {"provenance", cmp.provenance},
                      {"compared", cmp.compared},
                      {"disagreeing", cmp.disagreeing}};
  j["outputs"] = nlohmann::json::array();
  for (const auto& o : cmp.outputs) j["outputs"].push_back(comparedJson(o));
  j["first_divergence"] = cmp.firstDivergence ? comparedJson(*cmp.firstDivergence) : nlohmann::json(nullptr);
  return j;
}

}  // namespace fb::cli
