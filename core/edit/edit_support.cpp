#include "edit/edit_support.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <unordered_set>

namespace fb::edit {

std::string q(const std::string& name) {
  // A model string may be a megabyte long: a message shows its start and says how long it is.
  constexpr size_t kShown = 200;
  if (name.size() <= kShown) return "'" + name + "'";
  return "'" + name.substr(0, kShown) + "...' (" + std::to_string(name.size()) + " bytes)";
}

ir::Node* findNode(const ir::Graph& g, const std::string& name, std::string& why) {
  ir::Node* found = nullptr;
  size_t count = 0;
  for (const auto& n : g.nodes())
    if (n->name == name) {
      found = n.get();
      ++count;
    }
  if (count == 1) return found;
  why = count == 0 ? "no node named " + q(name)
                   : std::to_string(count) + " nodes are named " + q(name) + " (rename them apart first)";
  return nullptr;
}

bool isLive(const ir::Value& v) { return !v.isUndefined() || !v.uses().empty() || v.isGraphOutput(); }

ir::Value* findLiveValue(const ir::Graph& g, const std::string& name) {
  ir::Value* v = g.findValue(name);
  return v && isLive(*v) ? v : nullptr;
}

bool nameIsFree(const ir::Graph& g, const std::string& name) { return !name.empty() && !findLiveValue(g, name); }

bool capturedBySubgraph(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes()) {
    // Nearly no node holds a body: look at the attribute kinds before building the list of bodies.
    bool hasBody = false;
    for (const auto& a : n->attributes)
      hasBody = hasBody || a.type == ir::AttrType::Graph || a.type == ir::AttrType::Graphs;
    if (!hasBody) continue;
    for (ir::Graph* body : n->subgraphs())
      for (const auto& c : body->capturedNames())
        if (c == name) return true;
  }
  return false;
}

size_t NodeSnapshot::bytes() const {
  size_t b = sizeof(NodeSnapshot) + name.size() + opType.size() + domain.size() + docString.size();
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

std::vector<NodeSnapshot> takeOutNodes(ir::Graph& g, const std::vector<ir::Node*>& nodes) {
  const auto positions = positionsOf(g, std::vector<const ir::Node*>(nodes.begin(), nodes.end()));
  std::vector<NodeSnapshot> snaps;
  snaps.reserve(nodes.size());
  for (size_t k = 0; k < nodes.size(); ++k) {
    const ir::Node& n = *nodes[k];
    NodeSnapshot s;
    s.position = positions[k];
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
  for (ir::Node* n : nodes) g.removeNode(n);
  std::sort(snaps.begin(), snaps.end(), [](const auto& a, const auto& b) { return a.position < b.position; });
  return snaps;
}

void putBackNodes(ir::Graph& g, const std::vector<NodeSnapshot>& snaps) {
  auto rebuild = [&](const NodeSnapshot& s, ir::Node* before) {
    std::vector<ir::Value*> ins, outs;
    for (const auto& n : s.inputs) ins.push_back(n.empty() ? nullptr : g.getOrCreateValue(n));
    for (const auto& n : s.outputs) outs.push_back(n.empty() ? nullptr : g.getOrCreateValue(n));
    ir::Node* node = g.addNode(s.opType, ins, outs, s.domain, before);
    node->name = s.name;
    node->docString = s.docString;
    node->attributes = s.attributes;
    node->origins = s.origins;
  };
  size_t next = 0, pos = 0;
  // Collected first: inserting while walking the list would visit the inserted nodes.
  std::vector<ir::Node*> order;
  order.reserve(g.nodeCount());
  for (const auto& n : g.nodes()) order.push_back(n.get());
  for (ir::Node* n : order) {
    while (next < snaps.size() && snaps[next].position == pos) {
      rebuild(snaps[next++], n);
      ++pos;
    }
    ++pos;
  }
  while (next < snaps.size()) rebuild(snaps[next++], nullptr);
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
  std::vector<const ir::Node*> readers;
  for (const auto& u : v.uses()) readers.push_back(u.node);
  const auto positions = positionsOf(g, readers);
  for (size_t k = 0; k < readers.size(); ++k) r.inputs.emplace_back(positions[k], v.uses()[k].index);
  for (size_t k = 0; k < g.outputs().size(); ++k)
    if (g.outputs()[k] == &v) r.graphOutputs.push_back(k);
  return r;
}

void ValueReaders::rewire(ir::Graph& g, ir::Value* v) const {
  std::vector<size_t> positions;
  for (const auto& [p, slot] : inputs) positions.push_back(p);
  const auto nodes = nodesAt(g, positions);
  for (size_t k = 0; k < nodes.size(); ++k)
    if (nodes[k]) nodes[k]->setInput(size_t(inputs[k].second), v);
  for (size_t slot : graphOutputs)
    if (slot < g.outputs().size()) g.setGraphOutput(slot, v);
}

}  // namespace fb::edit
