#include "convert/direction.h"

#include <map>
#include <mutex>
#include <set>

#include "convert/onnx_onnx/version_step.h"
#include "convert/target_opsets.h"

namespace fb::convert {
namespace {

struct Directions {
  std::mutex mu;
  std::map<std::string, const Direction*> byName;
  std::vector<std::unique_ptr<Direction>> all;  // never shrinks: references handed out stay valid
};

Directions& directions() {
  static Directions d;
  return d;
}

void collectDomains(const ir::Graph& g, std::set<std::string>& out) {
  for (const auto& n : g.nodes()) {
    out.insert(n->isDefaultDomain() ? std::string() : n->domain.str());
    for (const ir::Graph* sub : n->subgraphs()) collectDomains(*sub, out);
  }
}

}  // namespace

Direction::Direction(std::string name, const HandlerRegistry& handlers) : name_(std::move(name)), handlers_(handlers) {}

int64_t Direction::maxTargetOpset() const { return kMaxDialectOpset; }

int64_t Direction::defaultTargetOpset(const ir::Model&) const { return maxTargetOpset(); }

std::optional<std::string> Direction::keepAsIs(const ir::Model&, const ir::Node&) const { return std::nullopt; }

std::vector<std::string> Direction::sourceWarnings(const ir::Node&, int64_t) const { return {}; }

void Direction::convertNode(ir::Node& n, HandlerContext& ctx) const {
  if (const HandlerInfo* h = handlers_.find(n.domain, n.opType, ctx.targetOpset)) return h->fn(n, ctx);
  // ONNX nodes need no dialect handler: valid at the target as they are, or retargeted.
  if (n.isDefaultDomain()) return onnx_onnx::compatibleVersionStep(n, ctx);
  if (auto low = handlers_.lowestVersion(n.domain, n.opType); low && *low > ctx.targetOpset)
    throw Unsupported("needs opset " + std::to_string(*low));
  throw Unsupported("no handler for " + n.qualifiedOp() + " in direction '" + name_ + "'");
}

void Direction::finishModel(ir::Model& m) const {
  std::set<std::string> used;
  collectDomains(m.graph(), used);
  for (const auto& f : m.functions) used.insert(f.domain);
  std::vector<ir::OpsetImport> kept;
  for (const auto& o : m.opsets)
    if (o.domain.empty() || o.domain == "ai.onnx" || used.count(o.domain)) kept.push_back(o);
  m.opsets = std::move(kept);
}

const Direction& directionNamed(const std::string& name) {
  Directions& d = directions();
  std::lock_guard lock(d.mu);
  if (auto it = d.byName.find(name); it != d.byName.end()) return *it->second;
  d.all.push_back(std::make_unique<Direction>(name, HandlerRegistry::forDirection(name)));
  d.byName[name] = d.all.back().get();
  return *d.all.back();
}

void registerDirection(std::unique_ptr<Direction> direction) {
  Directions& d = directions();
  std::lock_guard lock(d.mu);
  d.byName[direction->name()] = direction.get();
  d.all.push_back(std::move(direction));
}

}  // namespace fb::convert
