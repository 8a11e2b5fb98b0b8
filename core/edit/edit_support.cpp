#include "edit/edit_support.h"

#include "edit/node_index.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

namespace fb::edit {

std::string q(const std::string& name) {
  // A model string may be a megabyte long: a message shows its start and says how long it is.
  constexpr size_t kShown = 200;
  if (name.size() <= kShown) return "'" + name + "'";
  return "'" + name.substr(0, kShown) + "...' (" + std::to_string(name.size()) + " bytes)";
}

namespace {

// "the body 'then_branch' of If '/If'" for a body of a node.
std::string describeBody(const ir::Graph& body) {
  const ir::Node* owner = body.ownerNode();
  if (!owner) return "a body";
  std::string attr = "?";
  for (const auto& a : owner->attributes)
    for (const auto& b : a.graphs)
      if (b.get() == &body) attr = a.name;
  return "the body " + q(attr) + " of " + owner->opType + " " + q(owner->name);
}

// The nodes named `name` in `bodies` and the bodies nested in them, with the body each is in. Bodies are small and
// not indexed: they are walked.
void nodesInBodies(const std::vector<ir::Graph*>& bodies, const std::string& name,
                   std::vector<std::pair<ir::Node*, const ir::Graph*>>& out) {
  for (const ir::Graph* body : bodies)
    for (const auto& n : body->nodes()) {
      if (n->name == name) out.emplace_back(n.get(), body);
      nodesInBodies(n->subgraphs(), name, out);
    }
}

std::vector<ir::Graph*> bodiesOf(const ir::Model& m) {
  std::vector<ir::Graph*> out;
  for (const ir::Node* holder : NodeIndex::of(m).holdersOfBodies())
    for (ir::Graph* body : holder->subgraphs()) out.push_back(body);
  return out;
}

// A body (any depth) in which a value named `name` is computed or read as its own (not an outer value).
const ir::Graph* bodyWithValue(const std::vector<ir::Graph*>& bodies, const std::string& name) {
  for (const ir::Graph* body : bodies) {
    if (const ir::Value* v = body->findValue(name); v && !v->isOuterScope() && isLive(*v)) return body;
    for (const auto& n : body->nodes())
      if (const ir::Graph* inner = bodyWithValue(n->subgraphs(), name)) return inner;
  }
  return nullptr;
}

}  // namespace

namespace {

// The main graph's one node named `name`; nullptr when there is none, or more than one (`ambiguous`, `why` says so).
ir::Node* uniqueInMainGraph(const ir::Model& m, const std::string& name, std::string& why, bool& ambiguous) {
  const auto found = NodeIndex::of(m).named(name);
  ambiguous = found.size() > 1;
  if (found.size() == 1) return found.front();
  if (ambiguous) why = std::to_string(found.size()) + " nodes are named " + q(name) + " (rename them apart first)";
  return nullptr;
}

}  // namespace

ir::Node* findNode(const ir::Model& m, const std::string& name, std::string& why) {
  bool ambiguous = false;
  if (ir::Node* n = uniqueInMainGraph(m, name, why, ambiguous)) return n;
  if (ambiguous) return nullptr;
  std::vector<std::pair<ir::Node*, const ir::Graph*>> inBodies;
  nodesInBodies(bodiesOf(m), name, inBodies);
  why = inBodies.empty() ? "no node named " + q(name)
                         : "node " + q(name) + " is in " + describeBody(*inBodies.front().second) +
                               ": this edit changes nodes of the main graph only";
  return nullptr;
}

ir::Node* findNodeInModel(const ir::Model& m, const std::string& name, std::string& why) {
  bool ambiguous = false;
  if (ir::Node* n = uniqueInMainGraph(m, name, why, ambiguous)) return n;
  if (ambiguous) return nullptr;
  std::vector<std::pair<ir::Node*, const ir::Graph*>> inBodies;
  nodesInBodies(bodiesOf(m), name, inBodies);
  if (inBodies.size() == 1) return inBodies.front().first;
  why = inBodies.empty()
            ? "no node named " + q(name)
            : std::to_string(inBodies.size()) + " nodes in bodies are named " + q(name) + " (rename them apart first)";
  return nullptr;
}

std::string noValue(const ir::Model& m, const std::string& name) {
  std::string why = "the graph has no value " + q(name);
  if (const ir::Graph* body = bodyWithValue(bodiesOf(m), name))
    why += " (it is a value of " + describeBody(*body) + ": edits of values change the main graph only)";
  return why;
}

bool isLive(const ir::Value& v) { return !v.isUndefined() || !v.uses().empty() || v.isGraphOutput(); }

ir::Value* findLiveValue(const ir::Graph& g, const std::string& name) {
  ir::Value* v = g.findValue(name);
  return v && isLive(*v) ? v : nullptr;
}

bool nameIsFree(const ir::Graph& g, const std::string& name) { return !name.empty() && !findLiveValue(g, name); }

bool capturedBySubgraph(const ir::Model& m, const std::string& name) {
  // The index knows the few nodes holding bodies: no walk of the graph.
  for (const ir::Graph* body : bodiesOf(m))
    for (const auto& c : body->capturedNames())
      if (c == name) return true;
  return false;
}

NodeRef NodeRef::of(const ir::Graph& g, const ir::Node& n) {
  for (const ir::Value* o : n.outputs())
    if (o && !o->name().empty()) return {o->name(), 0};
  return {{}, positionsOf(g, {&n})[0]};
}

ir::Node* NodeRef::resolve(const ir::Graph& g) const {
  if (output.empty()) return nodesAt(g, {position})[0];
  const ir::Value* v = g.findValue(output);
  return v ? v->producer() : nullptr;
}

size_t NodeSnapshot::bytes() const {
  size_t b = sizeof(NodeSnapshot) + next.output.size() + name.size() + opType.size() + domain.size() + docString.size();
  for (const auto& s : inputs) b += sizeof(std::string) + s.size();
  for (const auto& s : outputs) b += sizeof(std::string) + s.size();
  for (const auto& a : attributes) b += sizeof(ir::Attribute) + a.name.size() + a.ints.size() * 8 + a.floats.size() * 4;
  return b + origins.size() * 8;
}

std::vector<size_t> positionsOf(const ir::Graph& g, const std::vector<const ir::Node*>& nodes) {
  std::unordered_map<const ir::Node*, size_t> index;
  for (size_t k = 0; k < nodes.size(); ++k) index.emplace(nodes[k], k);
  std::vector<size_t> out(nodes.size(), 0);
  size_t pos = 0, found = 0;
  for (const auto& n : g.nodes()) {
    auto it = index.find(n.get());
    if (it != index.end()) {
      out[it->second] = pos;
      if (++found == nodes.size()) break;
    }
    ++pos;
  }
  return out;
}

std::vector<NodeSnapshot> takeOutNodes(ir::Model& m, const std::vector<ir::Node*>& nodes) {
  ir::Graph& g = m.graph();
  NodeIndex& index = NodeIndex::of(m);
  std::vector<ir::Node*> sorted(nodes);
  std::sort(sorted.begin(), sorted.end(),
            [](const ir::Node* a, const ir::Node* b) { return a->orderKey() < b->orderKey(); });
  // The node each one goes back before: the first that follows it and stays (newest first, so a run of taken-out
  // nodes shares its successor's).
  const std::unordered_set<const ir::Node*> out(sorted.begin(), sorted.end());
  std::unordered_map<const ir::Node*, ir::Node*> next;
  for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) {
    ir::Node* after = index.next(*it);
    next[*it] = after && out.count(after) ? next[after] : after;
  }
  std::vector<NodeSnapshot> snaps;
  snaps.reserve(sorted.size());
  for (const ir::Node* np : sorted) {
    const ir::Node& n = *np;
    NodeSnapshot s;
    s.name = n.name;
    s.opType = n.opType;
    s.domain = n.domain;
    s.docString = n.docString;
    s.attributes = n.attributes;
    for (const ir::Value* v : n.inputs()) s.inputs.push_back(v ? v->name() : std::string());
    for (const ir::Value* v : n.outputs()) s.outputs.push_back(v ? v->name() : std::string());
    s.origins = n.origins;
    snaps.push_back(std::move(s));
  }
  std::vector<ir::Node*> anchors;
  for (const ir::Node* n : sorted) anchors.push_back(next[n]);
  for (ir::Node* n : sorted) g.removeNode(n);
  // Named once the taken-out nodes are gone: a position (the rare node without outputs) counts what stays.
  for (size_t k = 0; k < snaps.size(); ++k) {
    snaps[k].last = anchors[k] == nullptr;
    if (anchors[k]) snaps[k].next = NodeRef::of(g, *anchors[k]);
  }
  return snaps;
}

void putBackNodes(ir::Graph& g, const std::vector<NodeSnapshot>& snaps) {
  // Anchors resolved before anything is added: a position counts the graph as takeOutNodes left it.
  std::vector<ir::Node*> before;
  before.reserve(snaps.size());
  for (const auto& s : snaps) before.push_back(s.last ? nullptr : s.next.resolve(g));
  for (size_t k = 0; k < snaps.size(); ++k) {
    const NodeSnapshot& s = snaps[k];
    std::vector<ir::Value*> ins, outs;
    for (const auto& n : s.inputs) ins.push_back(n.empty() ? nullptr : g.getOrCreateValue(n));
    for (const auto& n : s.outputs) outs.push_back(n.empty() ? nullptr : g.getOrCreateValue(n));
    ir::Node* node = g.addNode(s.opType, ins, outs, s.domain, before[k]);
    node->name = s.name;
    node->docString = s.docString;
    node->attributes = s.attributes;
    node->origins = s.origins;
    // The bodies are shared with the node that was taken out: they belong to this one now (a body's owner is what
    // the app's breadcrumb names and walks up through).
    for (ir::Graph* body : node->subgraphs()) body->setOwner(&g, node);
  }
}

bool dependsOnAny(const ir::Value* v, const std::vector<const ir::Node*>& nodes) {
  if (!v || nodes.empty()) return false;
  const std::unordered_set<const ir::Node*> targets(nodes.begin(), nodes.end());
  std::unordered_set<const ir::Node*> seen;
  std::vector<const ir::Node*> work;
  if (v->producer()) work.push_back(v->producer());
  while (!work.empty()) {
    const ir::Node* n = work.back();
    work.pop_back();
    if (!seen.insert(n).second) continue;
    if (targets.count(n)) return true;
    for (const ir::Value* in : n->inputs())
      if (in && in->producer()) work.push_back(in->producer());
    for (ir::Graph* body : n->subgraphs())
      for (const auto& name : body->capturedNames())
        if (const ir::Value* c = n->graph()->findValue(name); c && c->producer()) work.push_back(c->producer());
  }
  return false;
}

std::optional<int64_t> parseInt(const std::string& s) {
  int64_t v = 0;
  const char* end = s.data() + s.size();
  auto r = std::from_chars(s.data(), end, v);
  if (r.ec != std::errc() || r.ptr != end || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> parseDouble(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

namespace {
std::string stripBrackets(std::string s) {
  auto trim = [](std::string& t) {
    while (!t.empty() && (t.front() == ' ')) t.erase(t.begin());
    while (!t.empty() && (t.back() == ' ')) t.pop_back();
  };
  trim(s);
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  trim(s);
  return s;
}
std::vector<std::string> items(const std::string& s) {
  std::vector<std::string> out;
  const std::string body = stripBrackets(s);
  if (body.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t comma = body.find(',', start);
    std::string item = body.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}
}  // namespace

std::optional<std::vector<int64_t>> parseInts(const std::string& s) {
  std::vector<int64_t> out;
  for (const auto& item : items(s)) {
    auto v = parseInt(item);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<std::vector<double>> parseDoubles(const std::string& s) {
  std::vector<double> out;
  for (const auto& item : items(s)) {
    auto v = parseDouble(item);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<ir::Shape> parseShape(const std::string& s) {
  ir::Shape out;
  for (const auto& item : items(s)) {
    if (item.empty()) return std::nullopt;
    if (item == "?") {
      out.push_back(ir::Dim{});
    } else if (auto v = parseInt(item)) {
      if (*v < 0) return std::nullopt;
      out.push_back(ir::Dim::of(*v));
    } else {
      out.push_back(ir::Dim::named(item));
    }
  }
  return out;
}

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace fb::edit

namespace fb::edit {

std::vector<ir::Node*> nodesAt(const ir::Graph& g, const std::vector<size_t>& positions) {
  std::vector<ir::Node*> out(positions.size(), nullptr);
  std::vector<size_t> order(positions.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return positions[a] < positions[b]; });
  size_t pos = 0, next = 0;
  for (const auto& n : g.nodes()) {
    while (next < order.size() && positions[order[next]] == pos) out[order[next++]] = n.get();
    if (next == order.size()) break;
    ++pos;
  }
  return out;
}

ValueReaders ValueReaders::of(const ir::Graph& g, const ir::Value& v) {
  ValueReaders r;
  for (const auto& u : v.uses()) r.inputs.emplace_back(NodeRef::of(g, *u.node), u.index);
  for (size_t k = 0; k < g.outputs().size(); ++k)
    if (g.outputs()[k] == &v) r.graphOutputs.push_back(k);
  return r;
}

void ValueReaders::rewire(ir::Graph& g, ir::Value* v) const {
  for (const auto& [ref, slot] : inputs)
    if (ir::Node* n = ref.resolve(g)) n->setInput(size_t(slot), v);
  for (size_t slot : graphOutputs)
    if (slot < g.outputs().size()) g.setGraphOutput(slot, v);
}

}  // namespace fb::edit
