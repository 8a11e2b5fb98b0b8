#include "convert/node_walk.h"

#include <onnx/defs/schema.h>

#include <stdexcept>

#include "convert/target_opsets.h"
#include "schema/opsets.h"
#include "schema/opsets_18_26/structure_check.h"

namespace fb::convert {

void ElemTypeTracker::seed(const ir::Graph& g) {
  for (ir::Value* v : g.values()) {
    if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined)
      types_[v] = v->type.elemType;
    else if (v->isOuterScope() && g.parent())
      if (ir::Value* outer = g.parent()->findValueInScope(v->name()))
        if (auto it = types_.find(outer); it != types_.end()) types_[v] = it->second;
  }
}

void ElemTypeTracker::afterNode(const ir::Node& n, const HandlerContext& ctx, int64_t opset) {
  if (!ctx.replaced) {
    schema::propagateElemTypes(n, schema::schemaAt(n.domain, n.opType, opset), types_);
    fromBodies(n);
  }
  for (const ir::Node* m : ctx.created)
    schema::propagateElemTypes(*m, schema::schemaAt(m->domain, m->opType, opset), types_);
}

// If/Loop/Scan outputs have the types of their bodies' outputs (If: a branch's outputs; Loop: the body's outputs
// after its condition; Scan: the body's outputs), which the schema alone cannot say.
void ElemTypeTracker::fromBodies(const ir::Node& n) {
  if (!n.isDefaultDomain()) return;
  const char* attr = n.opType == "If" ? "then_branch" : (n.opType == "Loop" || n.opType == "Scan") ? "body" : nullptr;
  const ir::Attribute* a = attr ? n.attr(attr) : nullptr;
  if (!a || a->graphs.empty() || !a->graphs[0]) return;
  const ir::Graph& body = *a->graphs[0];
  const size_t skip = n.opType == "Loop" ? 1 : 0;
  for (size_t i = 0; i < n.outputs().size() && i + skip < body.outputs().size(); ++i) {
    const ir::Value* out = n.output(i);
    if (!out || types_.count(out)) continue;
    const ir::Value* b = body.outputs()[i + skip];
    auto it = types_.find(b);
    ir::DataType t =
        it != types_.end() ? it->second : (b->type.isTensor() ? b->type.elemType : ir::DataType::Undefined);
    if (t != ir::DataType::Undefined) types_[out] = t;
  }
}

void validateHandlerOutput(const ir::Node& n, const HandlerContext& ctx, const schema::ElemTypes& types) {
  auto check = [&](const ir::Node& m) {
    if (!m.isDefaultDomain()) return;
    if (ctx.targetOpset > schema::kLibonnxMaxOpset) {
      if (auto why = schema::opsets_18_26::structuralMismatch(m, ctx.targetOpset, types))
        throw std::runtime_error("handler produced an invalid node: " + *why);
      return;
    }
    const auto* s = schema::schemaAt(m.domain, m.opType, ctx.targetOpset);
    if (!s)
      throw std::runtime_error("handler produced " + m.opType + ", which opset " + std::to_string(ctx.targetOpset) +
                               " lacks");
    if (auto why = schema::schemaMismatch(m, *s, types))
      throw std::runtime_error("handler produced an invalid node: " + *why);
  };
  if (!ctx.replaced) check(n);
  for (const ir::Node* m : ctx.created) check(*m);
}

NodeWalk::NodeWalk(ir::Model& model, const Direction& direction, WalkSettings settings,
                   std::function<const schema::ShapeFacts&()> facts, BodyConverter bodies,
                   std::vector<NodeReport>& reports)
    : model_(model),
      direction_(direction),
      settings_(settings),
      facts_(std::move(facts)),
      bodies_(std::move(bodies)),
      loop_(reports, {}) {}

void NodeWalk::convertGraph(ir::Graph& g) {
  types_.seed(g);
  std::vector<ir::Node*> order;  // handlers add and remove nodes: walk the nodes the graph had
  order.reserve(g.nodeCount());
  for (const auto& n : g.nodes()) order.push_back(n.get());
  for (ir::Node* n : order) convertNode(*n, g);
}

void NodeWalk::convertNode(ir::Node& n, ir::Graph& g) {
  const size_t slot = loop_.open(n);  // subgraph nodes follow their owner
  if (auto why = direction_.keepAsIs(model_, n)) return loop_.keep(slot, std::move(*why));
  for (ir::Graph* sub : n.subgraphs()) convertGraph(*sub);

  HandlerContext ctx = makeContext(n, g, settings_.targetOpset, settings_.dryRun);
  loop_.report(slot).warnings = direction_.sourceWarnings(n, ctx.sourceOpset);
  const NodeStatus status = loop_.decide(slot, ctx, [&] {
    direction_.convertNode(n, ctx);
    if (!settings_.dryRun && (ctx.changed || ctx.replaced)) validateHandlerOutput(n, ctx, types_.table());
  });
  if (status == NodeStatus::Unsupported && settings_.lowestOpsets)
    loop_.report(slot).lowestOpset = lowestWorkingOpset(n, g);
  types_.afterNode(n, ctx, settings_.targetOpset);
}

HandlerContext NodeWalk::makeContext(ir::Node& n, ir::Graph& g, int64_t target, bool dry) {
  HandlerContext ctx{model_, g};
  ctx.sourceOpset = model_.opsetVersion(n.domain);
  ctx.targetOpset = target;
  ctx.dryRun = dry;
  ctx.elemTypes = &types_.table();
  ctx.facts = [this] { return &facts_(); };
  ctx.rankCache = &ranks_;
  ctx.convertBody = bodies_;
  return ctx;
}

std::optional<int64_t> NodeWalk::lowestWorkingOpset(ir::Node& n, ir::Graph& g) {
  for (int64_t t = kMinOpset; t <= kMaxOpset; ++t) {
    if (t == settings_.targetOpset) continue;
    HandlerContext trial = makeContext(n, g, t, true);
    try {
      direction_.convertNode(n, trial);
      return t;
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

}  // namespace fb::convert
