#include "diff/model_diff.h"

#include <algorithm>
#include <map>

#include <absl/container/flat_hash_map.h>

#include "diff/structure_hash.h"
#include "diff/weight_diff.h"
#include "ir/model.h"
#include "ir/node_label.h"
#include "schema/onnx_schema.h"
#include "schema/opsets.h"
#include "schema/opsets_18_26/op_facts.h"
#include "util/stopwatch.h"

namespace fb::diff {

std::string_view statusName(Status s) {
  switch (s) {
    case Status::Same:
      return "same";
    case Status::Changed:
      return "changed";
    case Status::OnlyA:
      return "only_a";
    case Status::OnlyB:
      return "only_b";
  }
  return "same";
}

bool GraphDiff::same() const {
  for (const auto& n : nodes)
    if (n.status != Status::Same) return false;
  for (const auto& w : weights)
    if (w.status != Status::Same) return false;
  return true;
}

DiffCounts ModelDiff::counts() const {
  DiffCounts c;
  for (const auto& g : graphs) {
    c.regions += g.regions.size();
    for (const auto& n : g.nodes) {
      if (n.a) ++c.nodesA;
      if (n.b) ++c.nodesB;
      if (n.a && n.b) ++c.paired;
      if (n.region >= 0) {
        ++(n.a ? c.regionNodesA : c.regionNodesB);
        continue;
      }
      switch (n.status) {
        case Status::Same:
          ++c.same;
          break;
        case Status::Changed:
          ++c.changed;
          if (n.changes.size() == 1 && n.changes[0].starts_with("op version ")) ++c.versionOnly;
          break;
        case Status::OnlyA:
          ++c.onlyA;
          break;
        case Status::OnlyB:
          ++c.onlyB;
          break;
      }
    }
    for (const auto& w : g.weights) switch (w.status) {
        case Status::Same:
          ++c.weightsSame;
          break;
        case Status::Changed:
          ++c.weightsChanged;
          break;
        case Status::OnlyA:
          ++c.weightsOnlyA;
          break;
        case Status::OnlyB:
          ++c.weightsOnlyB;
          break;
      }
  }
  return c;
}

bool ModelDiff::same() const {
  if (!signature.empty()) return false;
  for (const auto& g : graphs)
    if (!g.same()) return false;
  return true;
}

namespace {

// since_version of the schema the model's opset selects for the node's op (0 when unknown).
class OpVersions {
 public:
  int64_t of(const ir::Node& n, int64_t opset) {
    const std::string key = std::string(n.domain) + "::" + n.opType + "@" + std::to_string(opset);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    int64_t v = 0;
    if (n.isDefaultDomain()) {
      if (const auto* f = schema::opsets_18_26::schemaFact(n.opType, opset))
        v = f->since;
      else
        v = schema::schemaVersionAt("", n.opType, std::min(opset, schema::kLibonnxMaxOpset));
    } else {
      v = schema::schemaVersionAt(n.domain, n.opType, opset);
    }
    cache_.emplace(key, v);
    return v;
  }

 private:
  absl::flat_hash_map<std::string, int64_t> cache_;
};

std::string typeText(const ir::Value* v) { return v ? v->type.toString() : std::string(); }

// How one graph pair matched, indexed for the classification.
struct Pairing {
  const GraphMatch& match;
  absl::flat_hash_map<const ir::Node*, int32_t> idxA, idxB;
  absl::flat_hash_map<const ir::Value*, const ir::Value*> valueAToB, valueBToA;
};

class Differ {
 public:
  Differ(const ir::Model& a, const ir::Model& b, const DiffOptions& opts) : ma_(a), mb_(b), opts_(opts) {}

  ModelDiff run() {
    ModelDiff d;
    const auto t0 = SteadyClock::now();
    signature(d);
    graph(d, ma_.graph(), mb_.graph(), "", opts_.match);
    if (d.cancelled) return d;
    functions(d);
    d.totalMs = msSince(t0);
    return d;
  }

 private:
  const ir::Model& ma_;
  const ir::Model& mb_;
  const DiffOptions& opts_;
  OpVersions versions_;

  void graph(ModelDiff& d, const ir::Graph& a, const ir::Graph& b, const std::string& scope,
             const MatchOptions& mopts) {
    const auto t0 = SteadyClock::now();
    GraphMatch m = matchGraphs(a, b, mopts);
    if (scope.empty()) d.matchMs = msSince(t0);
    if (m.cancelled) {
      d.cancelled = true;
      return;
    }
    const size_t at = d.graphs.size();
    d.graphs.emplace_back();
    d.graphs[at].scope = scope;
    d.graphs[at].a = &a;
    d.graphs[at].b = &b;
    Pairing p{m, {}, {}, {}, {}};
    for (const auto& [va, vb] : m.valuePairs) {
      p.valueAToB[va] = vb;
      p.valueBToA[vb] = va;
    }
    for (size_t i = 0; i < m.nodesA.size(); ++i) p.idxA[m.nodesA[i]] = int32_t(i);
    for (size_t i = 0; i < m.nodesB.size(); ++i) p.idxB[m.nodesB[i]] = int32_t(i);
    // Bodies are diffed after this graph's rows are written (d.graphs may grow meanwhile).
    struct Body {
      std::string scope;
      const ir::Graph *a, *b;
      size_t row;
    };
    std::vector<Body> bodies;
    std::vector<NodeDiff> rows;
    rows.reserve(m.nodesA.size() + m.nodesB.size());
    for (size_t i = 0; i < m.nodesA.size(); ++i) {
      NodeDiff n;
      n.a = m.nodesA[i];
      const int32_t j = m.aToB[i];
      if (j < 0) {
        n.status = Status::OnlyA;
        n.region = m.regionOfA[i];
        rows.push_back(std::move(n));
        continue;
      }
      n.b = m.nodesB[size_t(j)];
      n.matchedBy = m.how[i];
      classify(n, p);
      for (const auto& attrA : n.a->attributes) {
        if (attrA.type != ir::AttrType::Graph || attrA.graphs.empty() || !attrA.graphs[0]) continue;
        const ir::Attribute* attrB = n.b->attr(attrA.name);
        if (!attrB || attrB->type != ir::AttrType::Graph || attrB->graphs.empty() || !attrB->graphs[0]) continue;
        bodies.push_back({(scope.empty() ? "" : scope + "/") + ir::nodeLabel(*n.a) + ":" + attrA.name,
                          attrA.graphs[0].get(), attrB->graphs[0].get(), rows.size()});
      }
      rows.push_back(std::move(n));
    }
    for (size_t j = 0; j < m.nodesB.size(); ++j) {
      if (m.bToA[j] >= 0) continue;
      NodeDiff n;
      n.b = m.nodesB[j];
      n.status = Status::OnlyB;
      n.region = m.regionOfB[j];
      rows.push_back(std::move(n));
    }
    for (const auto& r : m.regions) {
      RegionDiff rd;
      for (int32_t i : r.a) rd.a.push_back(m.nodesA[size_t(i)]);
      for (int32_t j : r.b) rd.b.push_back(m.nodesB[size_t(j)]);
      d.graphs[at].regions.push_back(std::move(rd));
    }
    d.graphs[at].weights = weights(a, b, m);
    d.graphs[at].nodes = std::move(rows);
    MatchOptions inner;
    inner.useNames = mopts.useNames;
    inner.cancel = mopts.cancel;
    for (const Body& body : bodies) {
      const size_t first = d.graphs.size();
      graph(d, *body.a, *body.b, body.scope, inner);
      if (d.cancelled) return;
      bool same = true;
      for (size_t k = first; k < d.graphs.size(); ++k) same = same && d.graphs[k].same();
      if (!same) {
        NodeDiff& n = d.graphs[at].nodes[body.row];
        n.status = Status::Changed;
        n.changes.push_back("body " + body.scope.substr(body.scope.rfind(':') + 1) + " differs");
      }
    }
  }

  static std::string attrText(const ir::Attribute* a) { return a ? a->valueToString() : std::string("absent"); }

  void classify(NodeDiff& n, const Pairing& p) {
    const ir::Node& a = *n.a;
    const ir::Node& b = *n.b;
    if (a.qualifiedOp() != b.qualifiedOp()) n.changes.push_back("op " + a.qualifiedOp() + " -> " + b.qualifiedOp());
    const int64_t va = versions_.of(a, ma_.opsetVersion(a.domain));
    const int64_t vb = versions_.of(b, mb_.opsetVersion(b.domain));
    if (va != vb && va > 0 && vb > 0)
      n.changes.push_back("op version " + std::to_string(va) + " -> " + std::to_string(vb));
    // Attributes by name, graph-valued ones left to the bodies' own diff.
    std::map<std::string, std::pair<const ir::Attribute*, const ir::Attribute*>> attrs;
    for (const auto& x : a.attributes) attrs[x.name].first = &x;
    for (const auto& x : b.attributes) attrs[x.name].second = &x;
    for (const auto& [name, pair] : attrs) {
      const auto [xa, xb] = pair;
      if (xa && xb && (xa->type == ir::AttrType::Graph || xa->type == ir::AttrType::Graphs) && xa->type == xb->type)
        continue;
      if (xa && xb && hashAttribute(*xa) == hashAttribute(*xb)) continue;
      n.attributes.push_back(name);
      n.changes.push_back("attribute " + name + ": " + attrText(xa) + " -> " + attrText(xb));
    }
    if (a.inputs().size() != b.inputs().size())
      n.changes.push_back("inputs: " + std::to_string(a.inputs().size()) + " -> " + std::to_string(b.inputs().size()));
    for (size_t s = 0; s < std::min(a.inputs().size(), b.inputs().size()); ++s)
      if (!sameSource(a.inputs()[s], b.inputs()[s], p))
        n.changes.push_back("input " + std::to_string(s) + " comes from elsewhere");
    if (a.outputs().size() != b.outputs().size())
      n.changes.push_back("outputs: " + std::to_string(a.outputs().size()) + " -> " +
                          std::to_string(b.outputs().size()));
    n.status = n.changes.empty() ? Status::Same : Status::Changed;
  }

  // Whether slot inputs of a node pair read counterparts. A difference that a node only in A or only in B
  // explains (the node inserted or removed between) is that node's, not this one's.
  static bool sameSource(const ir::Value* va, const ir::Value* vb, const Pairing& p) {
    if (!va || !vb) return !va && !vb;
    const GraphMatch& m = p.match;
    const auto& idxA = p.idxA;
    const auto& idxB = p.idxB;
    const ir::Node* pa = va->producer();
    const ir::Node* pb = vb->producer();
    auto ia = pa ? idxA.find(pa) : idxA.end();
    auto ib = pb ? idxB.find(pb) : idxB.end();
    const bool nodeA = ia != idxA.end(), nodeB = ib != idxB.end();
    if ((nodeA && m.aToB[size_t(ia->second)] < 0) || (nodeB && m.bToA[size_t(ib->second)] < 0)) return true;
    if (nodeA && nodeB) return m.aToB[size_t(ia->second)] == ib->second && va->producerOutput() == vb->producerOutput();
    if (nodeA || nodeB) return false;
    if (auto it = p.valueAToB.find(va); it != p.valueAToB.end()) return it->second == vb;
    // Neither side paired (a weight only in one model, reported as such), or values of the scopes around.
    if (p.valueBToA.contains(vb)) return false;
    if (va->isOuterScope() || vb->isOuterScope()) return va->isOuterScope() == vb->isOuterScope();
    return true;
  }

  std::vector<WeightDiff> weights(const ir::Graph& a, const ir::Graph& b, const GraphMatch& m) const {
    std::vector<WeightDiff> out;
    absl::flat_hash_map<const ir::Tensor*, const ir::Tensor*> aToB;
    absl::flat_hash_map<const ir::Tensor*, bool> pairedB;
    for (const auto& [va, vb] : m.valuePairs)
      if (va->initializer() && vb->initializer()) {
        aToB[va->initializer()] = vb->initializer();
        pairedB[vb->initializer()] = true;
      }
    for (const auto& t : a.initializers()) {
      auto it = aToB.find(t.get());
      out.push_back(compareWeights(t.get(), it == aToB.end() ? nullptr : it->second, opts_.weightValues));
    }
    for (const auto& t : b.initializers())
      if (!pairedB.contains(t.get())) out.push_back(compareWeights(nullptr, t.get(), opts_.weightValues));
    return out;
  }

  void functions(ModelDiff& d) {
    std::map<std::string, std::pair<const ir::Function*, const ir::Function*>> byName;
    for (const auto& f : ma_.functions) byName[f.domain + "::" + f.name].first = &f;
    for (const auto& f : mb_.functions) byName[f.domain + "::" + f.name].second = &f;
    MatchOptions inner;
    inner.useNames = opts_.match.useNames;
    inner.cancel = opts_.match.cancel;
    for (const auto& [name, pair] : byName) {
      const auto [fa, fb] = pair;
      if (!fa || !fb) {
        d.signature.push_back({"function " + name, fa ? "present" : "", fb ? "present" : ""});
        continue;
      }
      if (fa->body && fb->body) graph(d, *fa->body, *fb->body, "function " + name, inner);
      if (d.cancelled) return;
    }
  }

  static void interfaceValues(ModelDiff& d, const std::string& what, const std::vector<ir::Value*>& a,
                              const std::vector<ir::Value*>& b) {
    for (size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
      const ir::Value* va = k < a.size() ? a[k] : nullptr;
      const ir::Value* vb = k < b.size() ? b[k] : nullptr;
      const std::string label = what + " " + std::to_string(k);
      if (!va || !vb) {
        d.signature.push_back(
            {label, va ? va->name() + ": " + typeText(va) : "", vb ? vb->name() + ": " + typeText(vb) : ""});
        continue;
      }
      if (va->name() != vb->name()) d.signature.push_back({label + " name", va->name(), vb->name()});
      if (!(va->type == vb->type)) d.signature.push_back({label + " type", typeText(va), typeText(vb)});
    }
  }

  void signature(ModelDiff& d) {
    const ir::Model& a = ma_;
    const ir::Model& b = mb_;
    if (a.irVersion != b.irVersion)
      d.signature.push_back({"IR version", std::to_string(a.irVersion), std::to_string(b.irVersion)});
    std::map<std::string, std::pair<int64_t, int64_t>> opsets;
    auto domainName = [](const std::string& dom) { return dom.empty() ? std::string("ai.onnx") : dom; };
    for (const auto& o : a.opsets) opsets[domainName(o.domain)].first = o.version;
    for (const auto& o : b.opsets) opsets[domainName(o.domain)].second = o.version;
    for (const auto& [dom, v] : opsets)
      if (v.first != v.second)
        d.signature.push_back({"opset " + dom, v.first ? std::to_string(v.first) : std::string(),
                               v.second ? std::to_string(v.second) : std::string()});
    // Inputs that only name an initializer (old exports list every weight) are weights, compared as such.
    auto realInputs = [](const ir::Graph& g) {
      std::vector<ir::Value*> out;
      for (ir::Value* v : g.inputs())
        if (!v->initializer()) out.push_back(v);
      return out;
    };
    interfaceValues(d, "input", realInputs(a.graph()), realInputs(b.graph()));
    interfaceValues(d, "output", a.graph().outputs(), b.graph().outputs());
    auto field = [&](const std::string& what, const std::string& x, const std::string& y) {
      if (x != y) d.signature.push_back({what, x, y});
    };
    field("producer", a.producerName + " " + a.producerVersion, b.producerName + " " + b.producerVersion);
    field("model domain", a.domain, b.domain);
    field("model version", std::to_string(a.modelVersion), std::to_string(b.modelVersion));
    std::map<std::string, std::pair<std::string, std::string>> meta;
    for (const auto& [k, v] : a.metadata) meta[k].first = v;
    for (const auto& [k, v] : b.metadata) meta[k].second = v;
    for (const auto& [k, v] : meta) field("metadata " + k, v.first, v.second);
  }
};

}  // namespace

ModelDiff diffModels(const ir::Model& a, const ir::Model& b, const DiffOptions& opts) {
  return Differ(a, b, opts).run();
}

}  // namespace fb::diff
