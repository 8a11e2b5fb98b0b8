#include "diff/graph_matcher.h"

#include <algorithm>
#include <numeric>
#include <string_view>

#include <absl/container/flat_hash_map.h>

#include "diff/structure_hash.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"

namespace fb::diff {

std::string_view matchedByName(MatchedBy m) {
  switch (m) {
    case MatchedBy::Name:
      return "name";
    case MatchedBy::Structure:
      return "structure";
    case MatchedBy::Neighbours:
      return "neighbours";
    case MatchedBy::None:
      break;
  }
  return "none";
}

size_t GraphMatch::pairCount() const {
  return size_t(std::count_if(aToB.begin(), aToB.end(), [](int32_t b) { return b >= 0; }));
}

namespace {

// Radius of the Weisfeiler-Lehman colours: 4 hops tell apart the places of a network that differ within a block
// without letting one change far away spoil the colours of every node.
constexpr int kRounds = 4;

// Codes of inputs that no node of the graph produces.
constexpr uint64_t kOmitted = 0x0417;
constexpr uint64_t kOuter = 0x0a7e;
constexpr uint64_t kUndefined = 0x0def;
constexpr uint64_t kSparse = 0x05ba;
constexpr uint64_t kFreeInput = 0x01a9;
constexpr uint64_t kNodeEdge = 0x0ed9;

struct InEdge {
  int32_t producer;  // node index, or -1 for a leaf
  uint32_t output;   // producer's output index
  uint64_t strong;   // leaf codes: with the weights' identity / with their type only
  uint64_t weak;
};

struct OutEdge {
  int32_t consumer;
  uint32_t slot;
  uint32_t output;
};

struct Leaf {
  uint64_t strong, weak;
};

// One graph as flat arrays: nodes by index, input edges and output edges in CSR form, colours per node.
struct Side {
  const ir::Graph* graph = nullptr;
  std::vector<const ir::Node*> nodes;
  absl::flat_hash_map<const ir::Node*, int32_t> index;
  std::vector<uint32_t> inStart, outStart;
  std::vector<InEdge> in;
  std::vector<OutEdge> out;
  std::vector<uint64_t> marksStrong, marksWeak;  // graph outputs a node produces
  std::vector<uint64_t> op, content;
  std::vector<int32_t> topo;
  std::vector<uint64_t> fwdS, bwdS, fwdW, bwdW;
  std::vector<std::vector<uint64_t>> wlS, wlW;            // [round][node]
  absl::flat_hash_map<std::string_view, int32_t> byName;  // -1 for a name that several nodes carry
  absl::flat_hash_map<const ir::Value*, Leaf> leaves;

  int32_t size() const { return int32_t(nodes.size()); }

  void collectNodes(const ir::Graph& g) {
    graph = &g;
    nodes.reserve(g.nodeCount());
    index.reserve(g.nodeCount());
    for (const auto& n : g.nodes()) {
      index.emplace(n.get(), int32_t(nodes.size()));
      nodes.push_back(n.get());
    }
    for (int32_t i = 0; i < size(); ++i) {
      const std::string& name = nodes[size_t(i)]->name;
      if (name.empty()) continue;
      auto [it, fresh] = byName.emplace(std::string_view(name), i);
      if (!fresh) it->second = -1;
    }
  }

  Leaf leafOf(const ir::Value* v) const {
    if (!v) return {kOmitted, kOmitted};
    if (auto it = leaves.find(v); it != leaves.end()) return it->second;
    if (v->isSparseInitializer()) return {kSparse, kSparse};
    if (v->isOuterScope()) return {kOuter, kOuter};
    if (v->isGraphInput()) return {kFreeInput, kFreeInput};
    return {kUndefined, kUndefined};
  }

  void buildEdges() {
    const size_t n = nodes.size();
    inStart.assign(n + 1, 0);
    outStart.assign(n + 1, 0);
    marksStrong.assign(n, 0);
    marksWeak.assign(n, 0);
    op.resize(n);
    content.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const ir::Node& node = *nodes[i];
      op[i] = hashOp(node);
      content[i] = hashNodeContent(node);
      inStart[i] = uint32_t(in.size());
      for (const ir::Value* v : node.inputs()) {
        int32_t p = -1;
        if (v && v->producer())
          if (auto it = index.find(v->producer()); it != index.end()) p = it->second;
        if (p >= 0) {
          in.push_back({p, uint32_t(v->producerOutput()), 0, 0});
        } else {
          const Leaf l = leafOf(v);
          in.push_back({-1, 0, l.strong, l.weak});
        }
      }
      outStart[i] = uint32_t(out.size());
      for (uint32_t o = 0; o < node.outputs().size(); ++o) {
        const ir::Value* v = node.outputs()[o];
        if (!v) continue;
        for (const ir::Use& u : v->uses())
          if (auto it = index.find(u.node); it != index.end()) out.push_back({it->second, uint32_t(u.index), o});
      }
    }
    inStart[n] = uint32_t(in.size());
    outStart[n] = uint32_t(out.size());
    const auto& outs = graph->outputs();
    for (size_t k = 0; k < outs.size(); ++k) {
      const ir::Value* v = outs[k];
      if (!v || !v->producer()) continue;
      auto it = index.find(v->producer());
      if (it == index.end()) continue;
      marksStrong[size_t(it->second)] += mix(combine(combine(0x07u, k), uint64_t(v->producerOutput())));
      marksWeak[size_t(it->second)] += mix(combine(0x07u, uint64_t(v->producerOutput())));
    }
  }

  // Kahn's order over the node edges; nodes on a cycle (an invalid graph) come last in their stored order.
  void sortTopologically() {
    const size_t n = nodes.size();
    std::vector<uint32_t> pending(n, 0);
    for (size_t i = 0; i < n; ++i)
      for (uint32_t e = inStart[i]; e < inStart[i + 1]; ++e)
        if (in[e].producer >= 0) ++pending[i];
    topo.clear();
    topo.reserve(n);
    for (size_t i = 0; i < n; ++i)
      if (pending[i] == 0) topo.push_back(int32_t(i));
    for (size_t head = 0; head < topo.size(); ++head) {
      const size_t i = size_t(topo[head]);
      for (uint32_t e = outStart[i]; e < outStart[i + 1]; ++e)
        if (--pending[size_t(out[e].consumer)] == 0) topo.push_back(out[e].consumer);
    }
    if (topo.size() < n) {
      std::vector<bool> placed(n, false);
      for (int32_t i : topo) placed[size_t(i)] = true;
      for (size_t i = 0; i < n; ++i)
        if (!placed[i]) topo.push_back(int32_t(i));
    }
  }

  // The whole cone above each node (forward) and below it (backward), with the weights' identity or type only.
  void coneColours() {
    const size_t n = nodes.size();
    fwdS.assign(n, 0);
    fwdW.assign(n, 0);
    bwdS.assign(n, 0);
    bwdW.assign(n, 0);
    for (int32_t i : topo) {
      uint64_t s = content[size_t(i)], w = content[size_t(i)];
      for (uint32_t e = inStart[size_t(i)]; e < inStart[size_t(i) + 1]; ++e) {
        const InEdge& x = in[e];
        s = combine(s, x.producer >= 0 ? combine(fwdS[size_t(x.producer)], x.output) : x.strong);
        w = combine(w, x.producer >= 0 ? combine(fwdW[size_t(x.producer)], x.output) : x.weak);
      }
      fwdS[size_t(i)] = s;
      fwdW[size_t(i)] = w;
    }
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
      const size_t i = size_t(*it);
      uint64_t s = marksStrong[i], w = marksWeak[i];
      for (uint32_t e = outStart[i]; e < outStart[i + 1]; ++e) {
        const OutEdge& x = out[e];
        s += mix(combine(combine(bwdS[size_t(x.consumer)], x.slot), x.output));
        w += mix(combine(combine(bwdW[size_t(x.consumer)], x.slot), x.output));
      }
      bwdS[i] = combine(content[i], s);
      bwdW[i] = combine(content[i], w);
    }
  }

  static void wlRound(const Side& g, const std::vector<uint64_t>& prev, std::vector<uint64_t>& next, bool strong) {
    const size_t n = g.nodes.size();
    next.resize(n);
    for (size_t i = 0; i < n; ++i) {
      uint64_t h = prev[i];
      for (uint32_t e = g.inStart[i]; e < g.inStart[i + 1]; ++e) {
        const InEdge& x = g.in[e];
        h = combine(h, x.producer >= 0 ? combine(prev[size_t(x.producer)], x.output) : (strong ? x.strong : x.weak));
      }
      uint64_t down = strong ? g.marksStrong[i] : g.marksWeak[i];
      for (uint32_t e = g.outStart[i]; e < g.outStart[i + 1]; ++e) {
        const OutEdge& x = g.out[e];
        down += mix(combine(combine(prev[size_t(x.consumer)], x.slot), x.output));
      }
      next[i] = combine(h, down);
    }
  }

  void neighbourhoodColours() {
    const size_t n = nodes.size();
    wlS.assign(kRounds + 1, {});
    wlW.assign(kRounds + 1, {});
    // Round 0: the node's content and what it reads that no node produces.
    wlS[0].resize(n);
    wlW[0].resize(n);
    for (size_t i = 0; i < n; ++i) {
      uint64_t s = content[i], w = content[i];
      for (uint32_t e = inStart[i]; e < inStart[i + 1]; ++e) {
        s = combine(s, in[e].producer >= 0 ? kNodeEdge : in[e].strong);
        w = combine(w, in[e].producer >= 0 ? kNodeEdge : in[e].weak);
      }
      wlS[0][i] = s;
      wlW[0][i] = w;
    }
    for (int r = 0; r < kRounds; ++r) {
      wlRound(*this, wlS[size_t(r)], wlS[size_t(r) + 1], true);
      wlRound(*this, wlW[size_t(r)], wlW[size_t(r) + 1], false);
    }
  }
};

class Matcher {
 public:
  Matcher(const ir::Graph& a, const ir::Graph& b, const MatchOptions& opts) : opts_(opts) {
    A_.collectNodes(a);
    B_.collectNodes(b);
  }

  GraphMatch run() {
    GraphMatch r;
    pairValues(r);
    for (Side* s : {&A_, &B_}) {
      s->buildEdges();
      s->sortTopologically();
      s->coneColours();
      s->neighbourhoodColours();
    }
    aToB_.assign(size_t(A_.size()), -1);
    bToA_.assign(size_t(B_.size()), -1);
    how_.assign(size_t(A_.size()), MatchedBy::None);
    if (!matchAll()) {
      r.cancelled = true;
      return r;
    }
    findRegions(r);
    pairWeightsByWiring(r);
    r.nodesA = A_.nodes;
    r.nodesB = B_.nodes;
    r.aToB = std::move(aToB_);
    r.bToA = std::move(bToA_);
    r.how = std::move(how_);
    return r;
  }

 private:
  const MatchOptions& opts_;
  Side A_, B_;
  std::vector<int32_t> aToB_, bToA_;
  std::vector<MatchedBy> how_;
  std::vector<int32_t> work_;
  absl::flat_hash_map<const ir::Value*, const ir::Value*> valueAToB_, valueBToA_;
  std::vector<std::pair<const ir::Value*, const ir::Value*>> seeds_;  // initializers and graph inputs paired

  bool cancelled() const { return opts_.cancel && opts_.cancel->load(std::memory_order_relaxed); }
  void progress(double share) const {
    if (opts_.progress) opts_.progress(share);
  }
  bool freeA(int32_t a) const { return aToB_[size_t(a)] < 0; }
  bool freeB(int32_t b) const { return bToA_[size_t(b)] < 0; }

  void match(int32_t a, int32_t b, MatchedBy how) {
    aToB_[size_t(a)] = b;
    bToA_[size_t(b)] = a;
    how_[size_t(a)] = how;
    work_.push_back(a);
  }

  void pairValue(GraphMatch& r, const ir::Value* a, const ir::Value* b, uint64_t code, uint64_t weak) {
    seeds_.push_back({a, b});
    valueAToB_[a] = b;
    valueBToA_[b] = a;
    r.valuePairs.push_back({a, b});
    A_.leaves[a] = {code, weak};
    B_.leaves[b] = {code, weak};
  }

  // Initializers by name, then by type and content; graph inputs by name, then in order.
  void pairValues(GraphMatch& r) {
    const ir::Graph& a = *A_.graph;
    const ir::Graph& b = *B_.graph;
    uint64_t next = 1;
    absl::flat_hash_map<std::string_view, const ir::Tensor*> initB;
    for (const auto& t : b.initializers()) initB.emplace(std::string_view(t->name), t.get());
    std::vector<const ir::Tensor*> restA, restB;
    absl::flat_hash_map<const ir::Tensor*, bool> pairedB;
    for (const auto& t : a.initializers()) {
      auto it = opts_.useNames ? initB.find(std::string_view(t->name)) : initB.end();
      if (it == initB.end()) {
        restA.push_back(t.get());
        continue;
      }
      pairedB[it->second] = true;
      pairValue(r, a.findValue(t->name), b.findValue(it->second->name), combine(0x1417, next++), hashTensorType(*t));
    }
    for (const auto& t : b.initializers())
      if (!pairedB.contains(t.get())) restB.push_back(t.get());
    struct Twin {
      int na = 0, nb = 0;
      const ir::Tensor *a = nullptr, *b = nullptr;
    };
    absl::flat_hash_map<uint64_t, Twin> byContent;
    for (const ir::Tensor* t : restA) {
      auto& tw = byContent[hashTensorContent(*t)];
      ++tw.na;
      tw.a = t;
    }
    for (const ir::Tensor* t : restB)
      if (auto it = byContent.find(hashTensorContent(*t)); it != byContent.end()) {
        ++it->second.nb;
        it->second.b = t;
      }
    std::vector<std::pair<const ir::Tensor*, const ir::Tensor*>> twins;
    for (const auto& [h, tw] : byContent)
      if (tw.na == 1 && tw.nb == 1) twins.push_back({tw.a, tw.b});
    std::sort(twins.begin(), twins.end(), [](const auto& x, const auto& y) { return x.first->name < y.first->name; });
    for (const auto& [ta, tb] : twins)
      pairValue(r, a.findValue(ta->name), b.findValue(tb->name), combine(0x1417, next++), hashTensorType(*ta));
    // Every other initializer stands for its type.
    for (Side* s : {&A_, &B_})
      for (const auto& t : s->graph->initializers()) {
        const ir::Value* v = s->graph->findValue(t->name);
        if (v && !s->leaves.contains(v)) s->leaves[v] = {combine(0x1418, hashTensorType(*t)), hashTensorType(*t)};
      }
    std::vector<const ir::Value*> inA, inB;
    for (const ir::Value* v : a.inputs())
      if (!v->initializer()) inA.push_back(v);
    for (const ir::Value* v : b.inputs())
      if (!v->initializer()) inB.push_back(v);
    std::vector<bool> usedB(inB.size(), false);
    std::vector<const ir::Value*> leftA;
    for (const ir::Value* va : inA) {
      bool found = false;
      for (size_t k = 0; opts_.useNames && k < inB.size() && !found; ++k)
        if (!usedB[k] && inB[k]->name() == va->name()) {
          usedB[k] = found = true;
          pairValue(r, va, inB[k], combine(0x19b7, next++), kFreeInput);
        }
      if (!found) leftA.push_back(va);
    }
    size_t k = 0;
    for (const ir::Value* va : leftA) {
      while (k < inB.size() && usedB[k]) ++k;
      if (k == inB.size()) break;
      usedB[k] = true;
      pairValue(r, va, inB[k++], combine(0x19b7, next++), kFreeInput);
    }
  }

  // Pairs nodes whose key is held by exactly one free node on each side.
  template <typename Key>
  void pairUnique(Key key, MatchedBy how) {
    struct Slot {
      uint32_t na = 0, nb = 0;
      int32_t a = -1, b = -1;
    };
    absl::flat_hash_map<uint64_t, Slot> slots;
    slots.reserve(size_t(A_.size()));
    for (int32_t a = 0; a < A_.size(); ++a)
      if (freeA(a)) {
        Slot& s = slots[key(A_, a)];
        ++s.na;
        s.a = a;
      }
    for (int32_t b = 0; b < B_.size(); ++b)
      if (freeB(b))
        if (auto it = slots.find(key(B_, b)); it != slots.end()) {
          ++it->second.nb;
          it->second.b = b;
        }
    std::vector<std::pair<int32_t, int32_t>> found;
    for (const auto& [k, s] : slots)
      if (s.na == 1 && s.nb == 1) found.push_back({s.a, s.b});
    std::sort(found.begin(), found.end());  // hash-map order varies between runs; the result must not
    for (auto [a, b] : found) match(a, b, how);
  }

  // A name carried by one free node of the other side with the same op keeps its node for that one.
  bool nameAllows(int32_t a, int32_t b) const {
    if (!opts_.useNames) return true;
    const std::string& na = A_.nodes[size_t(a)]->name;
    if (!na.empty())
      if (auto it = B_.byName.find(std::string_view(na)); it != B_.byName.end() && it->second >= 0 && it->second != b &&
                                                          freeB(it->second) &&
                                                          B_.op[size_t(it->second)] == A_.op[size_t(a)])
        return false;
    const std::string& nb = B_.nodes[size_t(b)]->name;
    if (!nb.empty())
      if (auto it = A_.byName.find(std::string_view(nb)); it != A_.byName.end() && it->second >= 0 && it->second != a &&
                                                          freeA(it->second) &&
                                                          A_.op[size_t(it->second)] == B_.op[size_t(b)])
        return false;
    return true;
  }

  bool compatible(int32_t a, int32_t b, bool loose) const {
    if (A_.op[size_t(a)] != B_.op[size_t(b)]) return false;
    if (!loose && A_.wlW[0][size_t(a)] != B_.wlW[0][size_t(b)]) return false;
    return nameAllows(a, b);
  }

  struct Candidate {
    uint64_t key;
    int32_t node;
    bool operator<(const Candidate& o) const { return key != o.key ? key < o.key : node < o.node; }
  };

  // Pairs the candidates whose key occurs once on each side.
  void pairSingles(std::vector<Candidate>& ca, std::vector<Candidate>& cb, bool loose,
                   std::vector<Candidate>* leftA = nullptr, std::vector<Candidate>* leftB = nullptr) {
    std::sort(ca.begin(), ca.end());
    std::sort(cb.begin(), cb.end());
    size_t i = 0, j = 0;
    while (i < ca.size() && j < cb.size()) {
      if (ca[i].key < cb[j].key) {
        ++i;
        continue;
      }
      if (cb[j].key < ca[i].key) {
        ++j;
        continue;
      }
      size_t ie = i, je = j;
      while (ie < ca.size() && ca[ie].key == ca[i].key) ++ie;
      while (je < cb.size() && cb[je].key == cb[j].key) ++je;
      if (ie - i == 1 && je - j == 1) {
        if (freeA(ca[i].node) && freeB(cb[j].node) && compatible(ca[i].node, cb[j].node, loose))
          match(ca[i].node, cb[j].node, MatchedBy::Neighbours);
      } else if (leftA && leftB) {
        leftA->insert(leftA->end(), ca.begin() + long(i), ca.begin() + long(ie));
        leftB->insert(leftB->end(), cb.begin() + long(j), cb.begin() + long(je));
      }
      i = ie;
      j = je;
    }
  }

  void spreadToConsumers(int32_t a, int32_t b, bool loose) {
    std::vector<Candidate> ca, cb;
    auto gather = [&](const Side& s, int32_t n, bool sideA, std::vector<Candidate>& c) {
      for (uint32_t e = s.outStart[size_t(n)]; e < s.outStart[size_t(n) + 1]; ++e) {
        const OutEdge& x = s.out[e];
        if (sideA ? !freeA(x.consumer) : !freeB(x.consumer)) continue;
        const uint64_t own = loose ? s.op[size_t(x.consumer)] : s.wlW[0][size_t(x.consumer)];
        c.push_back({combine(combine(own, x.slot), x.output), x.consumer});
      }
    };
    gather(A_, a, true, ca);
    gather(B_, b, false, cb);
    pairConsumers(ca, cb, loose);
  }

  void pairConsumers(std::vector<Candidate>& ca, std::vector<Candidate>& cb, bool loose) {
    if (ca.empty() || cb.empty()) return;
    std::vector<Candidate> leftA, leftB;
    pairSingles(ca, cb, loose, &leftA, &leftB);
    // Several alike: their neighbourhoods may tell them apart.
    for (int r = 1; r <= 2 && !leftA.empty(); ++r) {
      for (auto& c : leftA) c.key = combine(c.key, A_.wlW[size_t(r)][size_t(c.node)]);
      for (auto& c : leftB) c.key = combine(c.key, B_.wlW[size_t(r)][size_t(c.node)]);
      std::vector<Candidate> nextA, nextB;
      pairSingles(leftA, leftB, loose, &nextA, &nextB);
      leftA.swap(nextA);
      leftB.swap(nextB);
    }
    if (!loose) return;
    std::erase_if(ca, [&](const Candidate& c) { return !freeA(c.node); });
    std::erase_if(cb, [&](const Candidate& c) { return !freeB(c.node); });
    if (!ca.empty() && !cb.empty()) lookThrough(ca, cb);
  }

  // Free consumers of a pair whose ops differ on the two sides: one node inserted or removed between (a
  // BatchNormalization fused into the Conv before it). A node one step further on the side that has the extra one
  // pairs when its op is the other side's and nothing else competes.
  void lookThrough(const std::vector<Candidate>& ca, const std::vector<Candidate>& cb) {
    auto opsOf = [](const Side& s, const std::vector<Candidate>& c) {
      std::vector<uint64_t> ops;
      for (const auto& x : c) ops.push_back(s.op[size_t(x.node)]);
      std::sort(ops.begin(), ops.end());
      return ops;
    };
    const auto opsA = opsOf(A_, ca), opsB = opsOf(B_, cb);
    auto beyond = [&](const Side& s, const std::vector<Candidate>& c, const std::vector<uint64_t>& otherOps,
                      bool sideA) {
      std::vector<Candidate> out;
      for (const auto& x : c) {
        if (std::binary_search(otherOps.begin(), otherOps.end(), s.op[size_t(x.node)])) continue;
        for (uint32_t e = s.outStart[size_t(x.node)]; e < s.outStart[size_t(x.node) + 1]; ++e) {
          const int32_t y = s.out[e].consumer;
          if (sideA ? freeA(y) : freeB(y)) out.push_back({s.op[size_t(y)], y});
        }
      }
      return out;
    };
    auto direct = [](const Side& s, const std::vector<Candidate>& c) {
      std::vector<Candidate> out;
      for (const auto& x : c) out.push_back({s.op[size_t(x.node)], x.node});
      return out;
    };
    auto farA = beyond(A_, ca, opsB, true);
    auto nearB = direct(B_, cb);
    if (!farA.empty()) pairSingles(farA, nearB, true);
    auto nearA = direct(A_, ca);
    auto farB = beyond(B_, cb, opsA, false);
    if (!farB.empty()) pairSingles(nearA, farB, true);
  }

  // Consumers of paired initializers and graph inputs, producers of graph outputs at the same place.
  void seedFromValues(bool loose) {
    for (const auto& [va, vb] : seeds_) {
      std::vector<Candidate> ca, cb;
      auto gather = [&](const Side& s, const ir::Value* v, bool sideA, std::vector<Candidate>& c) {
        for (const ir::Use& u : v->uses()) {
          auto it = s.index.find(u.node);
          if (it == s.index.end() || (sideA ? !freeA(it->second) : !freeB(it->second))) continue;
          const uint64_t own = loose ? s.op[size_t(it->second)] : s.wlW[0][size_t(it->second)];
          c.push_back({combine(own, uint64_t(u.index)), it->second});
        }
      };
      gather(A_, va, true, ca);
      gather(B_, vb, false, cb);
      pairConsumers(ca, cb, loose);
    }
    const auto& outsA = A_.graph->outputs();
    const auto& outsB = B_.graph->outputs();
    for (size_t k = 0; k < std::min(outsA.size(), outsB.size()); ++k) {
      const ir::Node* pa = outsA[k] ? outsA[k]->producer() : nullptr;
      const ir::Node* pb = outsB[k] ? outsB[k]->producer() : nullptr;
      if (!pa || !pb) continue;
      auto ia = A_.index.find(pa);
      auto ib = B_.index.find(pb);
      if (ia == A_.index.end() || ib == B_.index.end()) continue;
      if (freeA(ia->second) && freeB(ib->second) && compatible(ia->second, ib->second, loose))
        match(ia->second, ib->second, MatchedBy::Neighbours);
    }
  }

  void propagate(bool loose) {
    while (!work_.empty()) {
      const int32_t a = work_.back();
      work_.pop_back();
      const int32_t b = aToB_[size_t(a)];
      const uint32_t na = A_.inStart[size_t(a) + 1] - A_.inStart[size_t(a)];
      const uint32_t nb = B_.inStart[size_t(b) + 1] - B_.inStart[size_t(b)];
      for (uint32_t s = 0; s < std::min(na, nb); ++s) {
        const InEdge& ea = A_.in[A_.inStart[size_t(a)] + s];
        const InEdge& eb = B_.in[B_.inStart[size_t(b)] + s];
        if (ea.producer < 0 || eb.producer < 0 || ea.output != eb.output) continue;
        if (!freeA(ea.producer) || !freeB(eb.producer)) continue;
        if (compatible(ea.producer, eb.producer, loose)) {
          match(ea.producer, eb.producer, MatchedBy::Neighbours);
        } else if (loose && A_.op[size_t(ea.producer)] != B_.op[size_t(eb.producer)]) {
          // One node between on either side: look one producer further up its first input.
          const int32_t pa = firstProducer(A_, ea.producer), pb = firstProducer(B_, eb.producer);
          if (pa >= 0 && freeA(pa) && compatible(pa, eb.producer, true))
            match(pa, eb.producer, MatchedBy::Neighbours);
          else if (pb >= 0 && freeB(pb) && compatible(ea.producer, pb, true))
            match(ea.producer, pb, MatchedBy::Neighbours);
        }
      }
      spreadToConsumers(a, b, loose);
    }
  }

  static int32_t firstProducer(const Side& s, int32_t n) {
    return s.inStart[size_t(n)] < s.inStart[size_t(n) + 1] ? s.in[s.inStart[size_t(n)]].producer : -1;
  }

  // Whether a producer or consumer of `a` is paired with the same neighbour of `b`.
  bool neighboursAgree(int32_t a, int32_t b) const {
    const uint32_t na = A_.inStart[size_t(a) + 1] - A_.inStart[size_t(a)];
    const uint32_t nb = B_.inStart[size_t(b) + 1] - B_.inStart[size_t(b)];
    for (uint32_t s = 0; s < std::min(na, nb); ++s) {
      const int32_t pa = A_.in[A_.inStart[size_t(a)] + s].producer;
      const int32_t pb = B_.in[B_.inStart[size_t(b)] + s].producer;
      if (pa >= 0 && pb >= 0 && aToB_[size_t(pa)] == pb) return true;
      const ir::Value* va = A_.nodes[size_t(a)]->input(s);
      const ir::Value* vb = B_.nodes[size_t(b)]->input(s);
      if (va && vb)
        if (auto it = valueAToB_.find(va); it != valueAToB_.end() && it->second == vb) return true;
    }
    // B's consumers as a sorted list: a node read by thousands must not cost thousands squared.
    std::vector<int32_t> consumersB;
    for (uint32_t f = B_.outStart[size_t(b)]; f < B_.outStart[size_t(b) + 1]; ++f)
      consumersB.push_back(B_.out[f].consumer);
    std::sort(consumersB.begin(), consumersB.end());
    for (uint32_t e = A_.outStart[size_t(a)]; e < A_.outStart[size_t(a) + 1]; ++e) {
      const int32_t partner = aToB_[size_t(A_.out[e].consumer)];
      if (partner >= 0 && std::binary_search(consumersB.begin(), consumersB.end(), partner)) return true;
    }
    return false;
  }

  void requeueAll() {
    work_.clear();
    for (int32_t a = 0; a < A_.size(); ++a)
      if (!freeA(a)) work_.push_back(a);
  }

  void pairNames(bool confirmed) {
    std::vector<std::pair<int32_t, int32_t>> found;
    for (int32_t a = 0; a < A_.size(); ++a) {
      const std::string& name = A_.nodes[size_t(a)]->name;
      if (!freeA(a) || name.empty() || A_.byName.at(std::string_view(name)) < 0) continue;
      auto it = B_.byName.find(std::string_view(name));
      if (it == B_.byName.end() || it->second < 0 || !freeB(it->second)) continue;
      const int32_t b = it->second;
      if (A_.op[size_t(a)] != B_.op[size_t(b)]) continue;
      // A name alone does not tell (exports number their nodes in order): its neighbourhood, or a neighbour
      // already paired, must agree.
      if (confirmed && A_.wlW[1][size_t(a)] != B_.wlW[1][size_t(b)]) continue;
      if (!confirmed && !neighboursAgree(a, b)) continue;
      found.push_back({a, b});
    }
    for (auto [a, b] : found) match(a, b, MatchedBy::Name);
  }

  bool matchAll() {
    using K = uint64_t (*)(const Side&, int32_t);
    std::vector<K> levels = {
        [](const Side& s, int32_t i) { return combine(s.fwdS[size_t(i)], s.bwdS[size_t(i)]); },
        [](const Side& s, int32_t i) { return s.fwdS[size_t(i)]; },
        [](const Side& s, int32_t i) { return s.bwdS[size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlS[4][size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlS[3][size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlS[2][size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlS[1][size_t(i)]; },
        [](const Side& s, int32_t i) { return combine(s.fwdW[size_t(i)], s.bwdW[size_t(i)]); },
        [](const Side& s, int32_t i) { return s.fwdW[size_t(i)]; },
        [](const Side& s, int32_t i) { return s.bwdW[size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlW[4][size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlW[3][size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlW[2][size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlW[1][size_t(i)]; },
    };
    static_assert(kRounds == 4);
    std::vector<K> last = {
        [](const Side& s, int32_t i) { return s.wlS[0][size_t(i)]; },
        [](const Side& s, int32_t i) { return s.wlW[0][size_t(i)]; },
        [](const Side& s, int32_t i) { return s.content[size_t(i)]; },
    };
    const double steps = double(levels.size() + last.size() + 3);
    double done = 0;
    if (opts_.useNames) pairNames(true);
    propagate(false);
    seedFromValues(false);
    propagate(false);
    for (K key : levels) {
      if (cancelled()) return false;
      progress(++done / steps);
      pairUnique(key, MatchedBy::Structure);
      propagate(false);
    }
    if (opts_.useNames) pairNames(false);
    propagate(false);
    progress(++done / steps);
    requeueAll();
    propagate(true);
    seedFromValues(true);
    propagate(true);
    if (opts_.useNames) pairNames(false);
    propagate(true);
    for (K key : last) {
      if (cancelled()) return false;
      progress(++done / steps);
      pairUnique(key, MatchedBy::Structure);
      propagate(true);
    }
    return !cancelled();
  }

  // Free nodes connected to each other form components; a component of A and one of B that border on the same
  // pairs are one region rewritten (fused, decomposed or replaced).
  std::vector<int32_t> components(const Side& s, const std::vector<int32_t>& partner, int32_t& count) const {
    const size_t n = s.nodes.size();
    std::vector<int32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int32_t x) {
      while (parent[size_t(x)] != x) x = parent[size_t(x)] = parent[size_t(parent[size_t(x)])];
      return x;
    };
    for (size_t i = 0; i < n; ++i) {
      if (partner[i] >= 0) continue;
      for (uint32_t e = s.inStart[i]; e < s.inStart[i + 1]; ++e) {
        const int32_t p = s.in[e].producer;
        if (p >= 0 && partner[size_t(p)] < 0) parent[size_t(find(p))] = find(int32_t(i));
      }
    }
    std::vector<int32_t> comp(n, -1);
    std::vector<int32_t> idOfRoot(n, -1);
    count = 0;
    for (size_t i = 0; i < n; ++i) {
      if (partner[i] >= 0) continue;
      const int32_t root = find(int32_t(i));
      if (idOfRoot[size_t(root)] < 0) idOfRoot[size_t(root)] = count++;
      comp[i] = idOfRoot[size_t(root)];
    }
    return comp;
  }

  // Matched nodes bordering each component, as node indexes of B.
  std::vector<std::vector<int32_t>> borders(const Side& s, const std::vector<int32_t>& comp, int32_t count,
                                            const std::vector<int32_t>& toB) const {
    std::vector<std::vector<int32_t>> out{size_t(count)};
    for (size_t i = 0; i < s.nodes.size(); ++i) {
      if (comp[i] < 0) continue;
      auto& list = out[size_t(comp[i])];
      for (uint32_t e = s.inStart[i]; e < s.inStart[i + 1]; ++e)
        if (const int32_t p = s.in[e].producer; p >= 0 && comp[size_t(p)] < 0) list.push_back(toB[size_t(p)]);
      for (uint32_t e = s.outStart[i]; e < s.outStart[i + 1]; ++e)
        if (const int32_t c = s.out[e].consumer; comp[size_t(c)] < 0) list.push_back(toB[size_t(c)]);
    }
    for (auto& list : out) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return out;
  }

  void findRegions(GraphMatch& r) {
    int32_t countA = 0, countB = 0;
    const auto compA = components(A_, aToB_, countA);
    const auto compB = components(B_, bToA_, countB);
    std::vector<int32_t> identity(size_t(B_.size()));
    std::iota(identity.begin(), identity.end(), 0);
    const auto borderA = borders(A_, compA, countA, aToB_);
    const auto borderB = borders(B_, compB, countB, identity);
    // Which components of B border on each matched node of B; hubs (a mask read by every layer) are left out.
    constexpr size_t kHub = 64;
    absl::flat_hash_map<int32_t, std::vector<int32_t>> touching;
    for (int32_t c = 0; c < countB; ++c)
      for (int32_t n : borderB[size_t(c)]) {
        auto& list = touching[n];
        if (list.size() <= kHub) list.push_back(c);
      }
    std::vector<int32_t> regionOfCompB(size_t(countB), -1);
    r.regionOfA.assign(size_t(A_.size()), -1);
    r.regionOfB.assign(size_t(B_.size()), -1);
    std::vector<int32_t> regionOfCompA(size_t(countA), -1);
    for (int32_t c = 0; c < countA; ++c) {
      absl::flat_hash_map<int32_t, int> shared;
      for (int32_t n : borderA[size_t(c)])
        if (auto it = touching.find(n); it != touching.end() && it->second.size() <= kHub)
          for (int32_t cb : it->second)
            if (regionOfCompB[size_t(cb)] < 0) ++shared[cb];
      int32_t best = -1;
      int bestCount = 0;
      for (const auto& [cb, count] : shared)
        if (count > bestCount || (count == bestCount && cb < best)) {
          best = cb;
          bestCount = count;
        }
      if (best < 0) continue;
      regionOfCompB[size_t(best)] = regionOfCompA[size_t(c)] = int32_t(r.regions.size());
      r.regions.emplace_back();
    }
    // A region of one node on each side with one op is a node pair that changed (a Constant's value).
    std::vector<int32_t> sizeA(r.regions.size(), 0), sizeB(r.regions.size(), 0), soleA(r.regions.size(), -1),
        soleB(r.regions.size(), -1);
    for (int32_t i = 0; i < A_.size(); ++i)
      if (compA[size_t(i)] >= 0 && regionOfCompA[size_t(compA[size_t(i)])] >= 0) {
        const auto k = size_t(regionOfCompA[size_t(compA[size_t(i)])]);
        ++sizeA[k];
        soleA[k] = i;
      }
    for (int32_t i = 0; i < B_.size(); ++i)
      if (compB[size_t(i)] >= 0 && regionOfCompB[size_t(compB[size_t(i)])] >= 0) {
        const auto k = size_t(regionOfCompB[size_t(compB[size_t(i)])]);
        ++sizeB[k];
        soleB[k] = i;
      }
    std::vector<int32_t> renumber(r.regions.size(), -1);
    int32_t kept = 0;
    for (size_t k = 0; k < r.regions.size(); ++k) {
      if (sizeA[k] == 1 && sizeB[k] == 1 && A_.op[size_t(soleA[k])] == B_.op[size_t(soleB[k])]) {
        match(soleA[k], soleB[k], MatchedBy::Neighbours);
        continue;
      }
      renumber[k] = kept++;
    }
    work_.clear();
    r.regions.resize(size_t(kept));
    for (auto& x : regionOfCompA)
      if (x >= 0) x = renumber[size_t(x)];
    for (auto& x : regionOfCompB)
      if (x >= 0) x = renumber[size_t(x)];
    for (int32_t i = 0; i < A_.size(); ++i)
      if (compA[size_t(i)] >= 0 && regionOfCompA[size_t(compA[size_t(i)])] >= 0 && freeA(i)) {
        r.regionOfA[size_t(i)] = regionOfCompA[size_t(compA[size_t(i)])];
        r.regions[size_t(r.regionOfA[size_t(i)])].a.push_back(i);
      }
    for (int32_t i = 0; i < B_.size(); ++i)
      if (compB[size_t(i)] >= 0 && regionOfCompB[size_t(compB[size_t(i)])] >= 0 && freeB(i)) {
        r.regionOfB[size_t(i)] = regionOfCompB[size_t(compB[size_t(i)])];
        r.regions[size_t(r.regionOfB[size_t(i)])].b.push_back(i);
      }
  }

  // Weights no name or content paired: the same slot of a node pair reads them.
  void pairWeightsByWiring(GraphMatch& r) {
    for (int32_t a = 0; a < A_.size(); ++a) {
      const int32_t b = aToB_[size_t(a)];
      if (b < 0) continue;
      const auto& ia = A_.nodes[size_t(a)]->inputs();
      const auto& ib = B_.nodes[size_t(b)]->inputs();
      for (size_t s = 0; s < std::min(ia.size(), ib.size()); ++s) {
        const ir::Value* va = ia[s];
        const ir::Value* vb = ib[s];
        if (!va || !vb || !va->initializer() || !vb->initializer()) continue;
        if (va->graph() != A_.graph || vb->graph() != B_.graph) continue;
        if (valueAToB_.contains(va) || valueBToA_.contains(vb)) continue;
        valueAToB_[va] = vb;
        valueBToA_[vb] = va;
        r.valuePairs.push_back({va, vb});
      }
    }
  }
};

}  // namespace

GraphMatch matchGraphs(const ir::Graph& a, const ir::Graph& b, const MatchOptions& opts) {
  return Matcher(a, b, opts).run();
}

}  // namespace fb::diff
