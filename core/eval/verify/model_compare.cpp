#include "eval/verify/model_compare.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "eval/verify/provenance.h"
#include "ir/node.h"
#include "ir/value.h"

namespace fb::eval {

namespace {

RunResult runNamed(const ir::Model& m, const std::map<std::string, Value>& inputs, const RunOptions& o,
                   const std::string& label) {
  std::map<std::string, Value> own;
  for (const ir::Value* v : m.graph().inputs()) {
    auto it = inputs.find(v->name());
    if (it != inputs.end()) own.emplace(it->first, it->second);
  }
  try {
    return runModel(m, own, o);
  } catch (RunError& e) {
    e.setNode(e.node().empty() ? label : label + ": " + e.node());
    throw;
  }
}

std::unordered_map<std::string, Value> valuesOf(const RunResult& r, const std::map<std::string, Value>& inputs) {
  std::unordered_map<std::string, Value> all(inputs.begin(), inputs.end());
  for (const auto& [n, v] : r.kept) all[n] = v;
  for (const auto& [n, v] : r.outputs) all[n] = v;
  return all;
}

ValueStats statsOfValue(const Value& v) {
  if (v.isTensor()) return statsOf(v.tensor());
  if (v.isSequence() && !v.items().empty()) return statsOf(v.items().front());
  return ValueStats{};
}

ComparedValue compared(const Value& a, const Value& b, const Tolerance& tol) {
  ComparedValue c;
  c.diff = diffValues(a, b, tol);
  c.aStats = statsOfValue(a);
  c.bStats = statsOfValue(b);
  return c;
}

}  // namespace

namespace {

// The pairing both ways of naming sources share: `sourcesOf(n)` gives the A nodes a B node comes from (none: pair
// its values by name alone).
ValuePairing pairThrough(const ir::Model& a, const ir::Model& b, bool provenance,
                         const std::function<std::vector<const ir::Node*>(const ir::Node&)>& sourcesOf) {
  ValuePairing p;
  p.provenance = provenance;
  // The last B node that comes from each A node: where a decomposed node's computation is complete, so that its
  // outputs can be paired by position when their names changed.
  std::unordered_map<const ir::Node*, const ir::Node*> lastFrom;
  if (provenance)
    for (const auto& n : b.graph().nodes())
      for (const ir::Node* s : sourcesOf(*n)) lastFrom[s] = n.get();
  std::set<std::string> pairedA;
  for (const auto& n : b.graph().nodes()) {
    const auto sources = sourcesOf(*n);
    for (size_t k = 0; k < n->outputs().size(); ++k) {
      const ir::Value* out = n->output(k);
      if (!out || out->name().empty()) continue;
      const ir::Value* av = nullptr;
      const ir::Value* same = a.graph().findValue(out->name());
      if (same && same->producer() &&
          (!provenance || sources.empty() ||
           std::find(sources.begin(), sources.end(), same->producer()) != sources.end()))
        av = same;
      if (!av && provenance && sources.size() == 1) {
        const ir::Node* src = sources[0];
        auto last = lastFrom.find(src);
        if (last != lastFrom.end() && last->second == n.get() && src->outputs().size() == n->outputs().size())
          av = src->output(k);
      }
      if (!av || av->name().empty() || !pairedA.insert(av->name()).second) continue;
      const ir::Node* ap = av->producer();
      p.pairs.push_back({av->name(), out->name(), ap ? ap->name : "", n->name, n->opType, ap ? ap->opType : ""});
    }
  }
  return p;
}

}  // namespace

ValuePairing pairValues(const ir::Model& a, const ir::Model& b) {
  const auto recorded = readProvenance(b);
  std::unordered_map<std::string, const ir::Node*> aNodes;
  for (const auto& n : a.graph().nodes())
    if (!n->name.empty()) aNodes.emplace(n->name, n.get());
  return pairThrough(a, b, recorded.has_value(), [&](const ir::Node& n) {
    std::vector<const ir::Node*> out;
    // An unnamed node has no entry of its own (names are the keys): its values pair by name alone.
    if (n.name.empty()) return out;
    std::vector<std::string> names{n.name};
    if (recorded)
      if (auto it = recorded->find(n.name); it != recorded->end()) names = it->second;
    for (const auto& name : names)
      if (auto it = aNodes.find(name); it != aNodes.end()) out.push_back(it->second);
    return out;
  });
}

ValuePairing pairValuesByOrigins(const ir::Model& a, const ir::Model& b) {
  std::unordered_map<uint64_t, const ir::Node*> aNodes;
  for (const auto& n : a.graph().nodes()) aNodes.emplace(n->id(), n.get());
  return pairThrough(a, b, true, [&](const ir::Node& n) {
    std::vector<const ir::Node*> out;
    const std::vector<uint64_t> ids = n.origins.empty() ? std::vector<uint64_t>{n.id()} : n.origins;
    for (uint64_t id : ids)
      if (auto it = aNodes.find(id); it != aNodes.end()) out.push_back(it->second);
    return out;
  });
}

ModelComparison compareModels(const ir::Model& a, const ir::Model& b, const std::map<std::string, Value>& inputs,
                              const Tolerance& tol, const RunOptions& options, const std::string& aLabel,
                              const std::string& bLabel) {
  RunOptions o = options;
  o.keep = RunOptions::Keep::All;
  const RunResult ra = runNamed(a, inputs, o, aLabel);
  const RunResult rb = runNamed(b, inputs, o, bLabel);
  return compareRuns(ra, rb, inputs, pairValues(a, b), tol);
}

ModelComparison compareRuns(const RunResult& ra, const RunResult& rb, const std::map<std::string, Value>& inputs,
                            const ValuePairing& pairing, const Tolerance& tol) {
  const auto va = valuesOf(ra, inputs);
  const auto vb = valuesOf(rb, inputs);
  ModelComparison r;
  r.provenance = pairing.provenance;
  for (const auto& p : pairing.pairs) {
    auto ia = va.find(p.aValue);
    auto ib = vb.find(p.bValue);
    if (ia == va.end() || ib == vb.end()) continue;
    ComparedValue c = compared(ia->second, ib->second, tol);
    c.aValue = p.aValue;
    c.bValue = p.bValue;
    c.aNode = p.aNode;
    c.bNode = p.bNode;
    c.op = p.op;
    c.aOp = p.aOp;
    ++r.compared;
    if (!c.diff.agree) {
      ++r.disagreeing;
      if (!r.firstDivergence) r.firstDivergence = c;
    }
    r.values.push_back(std::move(c));
  }
  const size_t n = std::min(ra.outputs.size(), rb.outputs.size());
  for (size_t k = 0; k < n; ++k) {
    ComparedValue c = compared(ra.outputs[k].second, rb.outputs[k].second, tol);
    c.aValue = ra.outputs[k].first;
    c.bValue = rb.outputs[k].first;
    r.outputs.push_back(c);
    if (!c.diff.agree && !r.firstDivergence) {
      // No paired value disagreed, yet an output does: the divergence lies in values that have no counterpart.
      ++r.disagreeing;
      r.firstDivergence = c;
    }
  }
  return r;
}

std::vector<ComparedValue> compareOutputs(const ir::Model& a, const ir::Model& b,
                                          const std::map<std::string, Value>& inputs, const Tolerance& tol,
                                          const RunOptions& options, const std::string& aLabel,
                                          const std::string& bLabel) {
  RunOptions o = options;
  o.keep = RunOptions::Keep::None;
  const RunResult ra = runNamed(a, inputs, o, aLabel);
  const RunResult rb = runNamed(b, inputs, o, bLabel);
  std::vector<ComparedValue> out;
  for (size_t k = 0; k < std::min(ra.outputs.size(), rb.outputs.size()); ++k) {
    ComparedValue c = compared(ra.outputs[k].second, rb.outputs[k].second, tol);
    c.aValue = ra.outputs[k].first;
    c.bValue = rb.outputs[k].first;
    out.push_back(c);
  }
  return out;
}

}  // namespace fb::eval
