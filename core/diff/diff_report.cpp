#include "diff/diff_report.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "ir/graph.h"
#include "ir/node_label.h"
#include "ir/tensor.h"
#include "util/printable.h"

namespace fb::diff {
namespace {

nlohmann::json nameOrNull(const ir::Node* n) { return n ? nlohmann::json(ir::nodeLabel(*n)) : nlohmann::json(); }
nlohmann::json nameOrNull(const ir::Tensor* t) { return t ? nlohmann::json(t->name) : nlohmann::json(); }

std::string figure(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string percent(size_t part, size_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", whole ? 100.0 * double(part) / double(whole) : 100.0);
  return buf;
}

// "ReduceMean ×2, Sub, Pow, +3 ops".
std::string opList(const std::vector<const ir::Node*>& nodes) {
  std::map<std::string, size_t> counts;
  std::vector<std::string> order;
  for (const ir::Node* n : nodes)
    if (counts[n->qualifiedOp()]++ == 0) order.push_back(n->qualifiedOp());
  std::string s;
  for (size_t i = 0; i < order.size() && i < 4; ++i) {
    if (i) s += ", ";
    s += order[i];
    if (counts[order[i]] > 1) s += " \u00d7" + std::to_string(counts[order[i]]);
  }
  if (order.size() > 4) s += ", +" + std::to_string(order.size() - 4) + " ops";
  return s;
}

// The name scope a node sits in ("/encoder/layers.0/self_attn" of "/encoder/layers.0/self_attn/MatMul").
std::string blockOf(const std::string& scope, const ir::Node* n) {
  std::string block;
  if (n) {
    const std::string& name = n->name;
    const size_t slash = name.rfind('/');
    if (slash != std::string::npos && slash > 0) block = name.substr(0, slash);
  }
  if (block.empty()) block = "(no name scope)";
  return scope.empty() ? block : scope + " " + block;
}

std::string label(const ir::Node& n) { return printable(ir::nodeLabel(n)); }
std::string op(const ir::Node& n) { return printable(n.qualifiedOp()); }

// The text with every string from a model or the command line escaped where it is put in.
std::string diffLines(const ModelDiff& d, const std::string& pathA, const std::string& pathB, const TextOptions& o);

}  // namespace

std::string nodeSummary(const DiffCounts& c) {
  std::string s = std::to_string(c.same) + " same, " + std::to_string(c.changed) + " changed" +
                  (c.versionOnly ? " (" + std::to_string(c.versionOnly) + " in op version only)" : std::string()) +
                  ", " + std::to_string(c.onlyA) + " only in A, " + std::to_string(c.onlyB) + " only in B";
  if (c.regions)
    s += ", " + std::to_string(c.regions) + (c.regions == 1 ? " region" : " regions") + " rewritten (" +
         std::to_string(c.regionNodesA) + " -> " + std::to_string(c.regionNodesB) + " nodes)";
  return s;
}

nlohmann::json diffJson(const ModelDiff& d, const std::string& pathA, const std::string& pathB) {
  using nlohmann::json;
  const DiffCounts c = d.counts();
  json j;
  j["a"] = pathA;
  j["b"] = pathB;
  j["same"] = d.same();
  j["summary"] = {{"nodes_a", c.nodesA},
                  {"nodes_b", c.nodesB},
                  {"paired", c.paired},
                  {"same", c.same},
                  {"changed", c.changed},
                  {"changed_op_version_only", c.versionOnly},
                  {"only_a", c.onlyA},
                  {"only_b", c.onlyB},
                  {"regions", c.regions},
                  {"region_nodes_a", c.regionNodesA},
                  {"region_nodes_b", c.regionNodesB},
                  {"weights_same", c.weightsSame},
                  {"weights_changed", c.weightsChanged},
                  {"weights_only_a", c.weightsOnlyA},
                  {"weights_only_b", c.weightsOnlyB},
                  {"signature_changes", d.signature.size()},
                  {"match_ms", d.matchMs}};
  j["signature"] = json::array();
  for (const auto& s : d.signature)
    j["signature"].push_back(
        {{"what", s.what}, {"a", s.a.empty() ? json() : json(s.a)}, {"b", s.b.empty() ? json() : json(s.b)}});
  j["nodes"] = json::array();
  j["weights"] = json::array();
  for (const auto& g : d.graphs) {
    for (const auto& n : g.nodes) {
      if (n.region >= 0) continue;
      json row = {{"a", nameOrNull(n.a)}, {"b", nameOrNull(n.b)}, {"status", statusName(n.status)}};
      row["op"] = (n.a ? n.a : n.b)->qualifiedOp();
      if (n.a && n.b && n.a->qualifiedOp() != n.b->qualifiedOp()) row["op_b"] = n.b->qualifiedOp();
      if (!g.scope.empty()) row["graph"] = g.scope;
      if (n.a && n.b) row["matched_by"] = matchedByName(n.matchedBy);
      if (!n.changes.empty()) row["changes"] = n.changes;
      if (!n.attributes.empty()) row["attributes"] = n.attributes;
      j["nodes"].push_back(std::move(row));
    }
    // A rewritten region is one pair: its first nodes name it, every node is listed.
    for (const auto& r : g.regions) {
      json row = {{"a", nameOrNull(r.a.front())}, {"b", nameOrNull(r.b.front())}, {"status", "changed"}};
      row["region_a"] = json::array();
      row["region_b"] = json::array();
      for (const ir::Node* n : r.a) row["region_a"].push_back({{"name", ir::nodeLabel(*n)}, {"op", n->qualifiedOp()}});
      for (const ir::Node* n : r.b) row["region_b"].push_back({{"name", ir::nodeLabel(*n)}, {"op", n->qualifiedOp()}});
      row["changes"] = json::array(
          {"region of " + std::to_string(r.a.size()) + " nodes rewritten as " + std::to_string(r.b.size())});
      if (!g.scope.empty()) row["graph"] = g.scope;
      j["nodes"].push_back(std::move(row));
    }
    for (const auto& w : g.weights) {
      json row = {{"a", nameOrNull(w.a)}, {"b", nameOrNull(w.b)}, {"status", statusName(w.status)}};
      if (!g.scope.empty()) row["graph"] = g.scope;
      if (!w.change.empty()) row["change"] = w.change;
      if (w.status == Status::Same) {
        row["max_abs_diff"] = 0.0;
        row["max_rel_diff"] = 0.0;
      } else {
        row["max_abs_diff"] = w.maxAbs ? json(*w.maxAbs) : json();
        row["max_rel_diff"] = w.maxRel ? json(*w.maxRel) : json();
        if (w.maxAbs) row["differing_elements"] = w.differing;
      }
      j["weights"].push_back(std::move(row));
    }
  }
  return j;
}

std::string diffText(const ModelDiff& d, const std::string& pathA, const std::string& pathB, const TextOptions& o) {
  return diffLines(d, pathA, pathB, o);
}

namespace {

std::string diffLines(const ModelDiff& d, const std::string& pathA, const std::string& pathB, const TextOptions& o) {
  const DiffCounts c = d.counts();
  std::string out =
      printable(pathA) + " vs " + printable(pathB) + ": " + (d.same() ? "the same" : "they differ") + "\n";
  out += "  nodes: " + nodeSummary(c) + "; " + std::to_string(c.paired) + " of " + std::to_string(c.nodesA) +
         " nodes of A paired (" + percent(c.paired, c.nodesA) + ")\n";
  out += "  weights: " + std::to_string(c.weightsSame) + " same, " + std::to_string(c.weightsChanged) + " changed, " +
         std::to_string(c.weightsOnlyA) + " only in A, " + std::to_string(c.weightsOnlyB) + " only in B\n";
  out += "  signature: " +
         (d.signature.empty() ? std::string("the same") : std::to_string(d.signature.size()) + " differences") + "\n";
  for (const auto& s : d.signature)
    out += "    " + printable(s.what) + ": " + (s.a.empty() ? "(none)" : printable(s.a)) + " -> " +
           (s.b.empty() ? "(none)" : printable(s.b)) + "\n";

  struct Row {
    int weight;  // regions first, then nodes only on one side, then changed ones, then op versions alone
    std::string text;
  };
  struct Block {
    size_t first;
    int top = 0;  // the weight of its most significant row, then the sum of all
    int score = 0;
    std::vector<Row> rows;
  };
  std::map<std::string, Block> blocks;
  size_t order = 0;
  auto add = [&](const std::string& block, int weight, std::string text) {
    auto [it, fresh] = blocks.try_emplace(block, Block{order++, 0, 0, {}});
    it->second.score += weight;
    it->second.top = std::max(it->second.top, weight);
    it->second.rows.push_back({weight, std::move(text)});
  };
  for (const auto& g : d.graphs) {
    for (const auto& n : g.nodes) {
      if (n.region >= 0 || n.status == Status::Same) continue;
      const ir::Node* shown = n.a ? n.a : n.b;
      std::string text;
      if (n.status == Status::OnlyA) {
        text = "- " + label(*n.a) + " (" + op(*n.a) + ") only in A";
        add(printable(blockOf(g.scope, shown)), 4, text);
        continue;
      }
      if (n.status == Status::OnlyB) {
        text = "+ " + label(*n.b) + " (" + op(*n.b) + ") only in B";
        add(printable(blockOf(g.scope, shown)), 4, text);
        continue;
      }
      text = "~ " + label(*n.a) + " (" + op(*n.a) + ")";
      if (n.b->name != n.a->name) text += " = " + label(*n.b) + " in B";
      text += ": ";
      for (size_t i = 0; i < n.changes.size(); ++i) text += (i ? "; " : "") + printable(n.changes[i]);
      add(printable(blockOf(g.scope, shown)), n.changes.size() == 1 && n.changes[0].starts_with("op version ") ? 1 : 2,
          text);
    }
    for (const auto& r : g.regions)
      add(printable(blockOf(g.scope, r.a.front())), 6,
          "<> " + std::to_string(r.a.size()) + " nodes of A (" + printable(opList(r.a)) + ", from " +
              label(*r.a.front()) + ") rewritten as " + std::to_string(r.b.size()) + " of B (" +
              printable(opList(r.b)) + ", from " + label(*r.b.front()) + ")");
  }
  std::vector<std::pair<std::string, Block*>> sorted;
  for (auto& [name, b] : blocks) sorted.push_back({name, &b});
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
    if (x.second->top != y.second->top) return x.second->top > y.second->top;
    return x.second->score != y.second->score ? x.second->score > y.second->score : x.second->first < y.second->first;
  });
  size_t shown = 0, total = 0;
  for (const auto& [name, b] : sorted) {
    total += b->rows.size();
    if (shown >= o.maxRows) continue;
    std::stable_sort(b->rows.begin(), b->rows.end(), [](const Row& x, const Row& y) { return x.weight > y.weight; });
    out += name + " (" + std::to_string(b->rows.size()) + (b->rows.size() == 1 ? " change" : " changes") + ")\n";
    for (const Row& r : b->rows)
      if (shown < o.maxRows) {
        out += "  " + r.text + "\n";
        ++shown;
      }
  }
  if (o.weights)
    for (const auto& g : d.graphs)
      for (const auto& w : g.weights) {
        if (w.status == Status::Same) continue;
        ++total;
        if (shown >= o.maxRows) continue;
        ++shown;
        std::string text = "  weight ";
        if (w.status == Status::OnlyA) text += "- " + printable(w.a->name) + " only in A";
        if (w.status == Status::OnlyB) text += "+ " + printable(w.b->name) + " only in B";
        if (w.status == Status::Changed) {
          text += "~ " + printable(w.a->name) + (w.b->name != w.a->name ? " = " + printable(w.b->name) + " in B" : "") +
                  ": " + printable(w.change);
          if (w.maxAbs)
            text += ", max abs diff " + figure(*w.maxAbs) + ", max rel diff " + figure(*w.maxRel) + " (" +
                    std::to_string(w.differing) + " of " + std::to_string(w.a->numElements()) + " elements)";
        }
        out += text + "\n";
      }
  if (total > shown)
    out += "... and " + std::to_string(total - shown) + " more (--max-rows; --json lists every pair)\n";
  return out;
}

}  // namespace

}  // namespace fb::diff
