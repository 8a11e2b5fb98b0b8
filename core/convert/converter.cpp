#include "convert/converter.h"

#include <onnx/defs/schema.h>

#include <chrono>
#include <stdexcept>

#include "convert/builtin_handlers.h"
#include "convert/handler_registry.h"
#include "convert/onnx_onnx/version_step.h"
#include "convert/onnx_schema.h"
#include "convert/shape_facts.h"
#include "ir/topo_sort.h"
#include "passes/pass_registry.h"

namespace fb::convert {
namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

void countOps(const ir::Graph& g, std::map<std::string, size_t>& out) {
  for (const auto& n : g.nodes()) {
    ++out[n->qualifiedOp()];
    for (const ir::Graph* sub : n->subgraphs()) countOps(*sub, out);
  }
}

std::string nodeLabel(const ir::Node& n) { return n.name.empty() ? n.opType + "#" + std::to_string(n.id()) : n.name; }

// Walks the graphs in order and gives each node its status; shared by the dry run and the conversion.
class NodeConverter {
 public:
  NodeConverter(ir::Model& m, const ConvertOptions& o, bool dry, const ShapeFacts* facts, std::vector<NodeReport>& reports)
      : model_(m), opts_(o), dry_(dry), facts_(facts), reports_(reports),
        registry_(HandlerRegistry::forDirection(o.direction)), retargetOnnx_(o.direction == "onnx") {}

  void convertGraph(ir::Graph& g) {
    seedTypes(g);
    std::vector<ir::Node*> order;
    order.reserve(g.nodeCount());
    for (const auto& n : g.nodes()) order.push_back(n.get());
    for (ir::Node* n : order) convertNode(*n, g);
  }

 private:
  void seedTypes(ir::Graph& g) {
    for (ir::Value* v : g.values()) {
      if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined) types_[v] = v->type.elemType;
      else if (v->isOuterScope() && g.parent())
        if (ir::Value* outer = g.parent()->findValueInScope(v->name()))
          if (auto it = types_.find(outer); it != types_.end()) types_[v] = it->second;
    }
  }

  void convertNode(ir::Node& n, ir::Graph& g) {
    NodeReport r;
    r.nodeId = n.id();
    r.nodeName = nodeLabel(n);
    r.opType = n.opType;
    r.domain = n.domain;
    size_t slot = reports_.size();
    reports_.push_back(r);  // subgraph nodes follow their owner

    const bool defaultDomain = n.isDefaultDomain();
    if (retargetOnnx_ && !defaultDomain && !registry_.lowestVersion(n.domain, n.opType)) {
      r.status = NodeStatus::Kept;
      r.message = "custom domain '" + n.domain + "': passed through as it is";
      finish(n, slot, std::move(r));
      return;
    }
    for (ir::Graph* sub : n.subgraphs()) convertGraph(*sub);

    const int64_t source = model_.opsetVersion(n.domain);
    const int64_t target = opts_.targetOpset;
    const HandlerInfo* h = nullptr;
    bool needsWork = true;
    if (retargetOnnx_ && defaultDomain) {
      int64_t sv = schemaVersionAt("", n.opType, source);
      int64_t tv = schemaVersionAt("", n.opType, target);
      needsWork = !(sv != 0 && sv == tv);
    }
    if (needsWork) h = registry_.find(n.domain, n.opType, target);

    HandlerContext ctx{model_, g};
    ctx.sourceOpset = source;
    ctx.targetOpset = target;
    ctx.dryRun = dry_;
    ctx.elemTypes = &types_;
    ctx.inferred = facts_ ? &facts_->types : nullptr;
    ctx.shapeValues = facts_ ? &facts_->shapeValues : nullptr;
    try {
      if (!needsWork) {
        // The same schema version on both sides: nothing to do.
      } else if (h) {
        h->fn(n, ctx);
      } else if (retargetOnnx_ && defaultDomain) {
        onnx_onnx::compatibleVersionStep(n, ctx);
      } else if (auto low = registry_.lowestVersion(n.domain, n.opType); low && *low > target) {
        throw Unsupported("needs opset " + std::to_string(*low));
      } else {
        throw Unsupported("no handler for " + n.qualifiedOp() + " in direction '" + opts_.direction + "'");
      }
      if (!dry_ && (ctx.changed || ctx.replaced)) validate(n, ctx);
      r.status = (ctx.changed || ctx.replaced) ? NodeStatus::Converted : NodeStatus::Unchanged;
      r.message = ctx.note;
      r.newNodes = ctx.newNodes;
      r.warnings = ctx.warnings;
    } catch (const Unsupported& e) {
      r.status = NodeStatus::Unsupported;
      r.message = e.what();
      r.lowestOpset = lowestOpset(n);
    } catch (const std::exception& e) {
      r.status = NodeStatus::Failed;
      r.message = e.what();
    }
    if (!ctx.replaced) propagateElemTypes(n, schemaAt(n.domain, n.opType, target), types_);
    for (uint64_t id : ctx.newNodes)
      for (const auto& m : g.nodes())
        if (m->id() == id) propagateElemTypes(*m, schemaAt(m->domain, m->opType, target), types_);
    finish(n, slot, std::move(r));
  }

  // A handler's output must itself be valid at the target.
  void validate(ir::Node& n, HandlerContext& ctx) {
    auto check = [&](const ir::Node& m) {
      if (!m.isDefaultDomain()) return;
      const auto* s = schemaAt(m.domain, m.opType, ctx.targetOpset);
      if (!s) throw std::runtime_error("handler produced " + m.opType + ", which opset " + std::to_string(ctx.targetOpset) + " lacks");
      if (auto why = schemaMismatch(m, *s, types_)) throw std::runtime_error("handler produced an invalid node: " + *why);
    };
    if (!ctx.replaced) check(n);
    for (uint64_t id : ctx.newNodes)
      for (const auto& m : ctx.graph.nodes())
        if (m->id() == id) check(*m);
  }

  std::optional<int64_t> lowestOpset(const ir::Node& n) const {
    std::optional<int64_t> low = registry_.lowestVersion(n.domain, n.opType);
    if (retargetOnnx_ && n.isDefaultDomain()) {
      // Where the op as the node uses it exists; for an upgrade-only gap, the source opset itself works.
      int64_t first = firstOpsetOf("", n.opType);
      int64_t cand = std::max<int64_t>(first, kMinOpset);
      if (opts_.targetOpset < model_.opsetVersion(n.domain)) cand = std::max(cand, model_.opsetVersion(n.domain));
      if (!low || cand < *low) low = cand;
      if (first == 0) low = registry_.lowestVersion(n.domain, n.opType);
    }
    return low;
  }

  void finish(const ir::Node&, size_t slot, NodeReport r) { reports_[slot] = std::move(r); }

  ir::Model& model_;
  const ConvertOptions& opts_;
  bool dry_;
  const ShapeFacts* facts_;
  std::vector<NodeReport>& reports_;
  const HandlerRegistry& registry_;
  bool retargetOnnx_;
  ElemTypes types_;
};

void validateOptions(const ConvertOptions& o) {
  if (o.targetOpset < kMinOpset || o.targetOpset > kMaxOpset)
    throw std::invalid_argument("target opset " + std::to_string(o.targetOpset) + " is outside " +
                                std::to_string(kMinOpset) + ".." + std::to_string(kMaxOpset));
}

std::vector<std::string> passNames(const ConvertOptions& o) {
  passes::registerBuiltinPasses();
  return o.passes ? *o.passes : passes::PassRegistry::instance().defaultPipeline();
}

ConvertResult run(const ir::Model& source, const ConvertOptions& opts, bool dry) {
  auto t0 = Clock::now();
  validateOptions(opts);
  registerBuiltinHandlers();
  auto names = passNames(opts);
  std::optional<passes::PassManager> manager;
  if (!dry && !names.empty()) manager.emplace(names);  // throws on an unknown pass name before any work

  ConvertResult res;
  res.direction = opts.direction;
  res.sourceOpset = source.opsetVersion("");
  res.targetOpset = opts.targetOpset;
  countOps(source.graph(), res.opsBefore);

  // A dry run never edits, so it can work on the source itself.
  std::unique_ptr<ir::Model> copy;
  ir::Model* work = const_cast<ir::Model*>(&source);
  if (!dry) {
    copy = source.clone();
    work = copy.get();
    auto topo = ir::topologicalSort(work->graph());
    if (!topo.ok) {
      res.error = "the graph has a cycle through " + (topo.cycleNodes.empty() ? std::string("?") : topo.cycleNodes.front());
      res.totalMs = msSince(t0);
      return res;
    }
  }
  // Handlers that need ranks (negative axes, Softmax axis semantics) read them from libonnx's inference.
  ShapeFacts facts;
  if (!dry && work->opsetVersion("") != opts.targetOpset) facts = inferShapeFacts(*work);

  auto th = Clock::now();
  NodeConverter nc(*work, opts, dry, dry ? nullptr : &facts, res.nodes);
  nc.convertGraph(work->graph());
  res.handlersMs = msSince(th);

  bool unconverted = res.count(NodeStatus::Unsupported) + res.count(NodeStatus::Failed) > 0;
  if (dry || (unconverted && !opts.keepUnconverted)) {
    res.totalMs = msSince(t0);
    return res;
  }

  // Other directions: every node of the source dialect (its domain is the direction's name) is ONNX now.
  if (opts.direction != "onnx")
    std::erase_if(work->opsets, [&](const ir::OpsetImport& o) { return o.domain == opts.direction; });
  work->setOpsetVersion("", opts.targetOpset);
  work->irVersion = irVersionForOpset(opts.targetOpset);
  if (work->irVersion < 4) {
    // Before IR 4 every initializer had to be a graph input as well.
    for (const auto& t : work->graph().initializers())
      if (ir::Value* v = work->graph().findValue(t->name); v && !v->isGraphInput()) work->graph().addInput(v);
  }

  if (manager) {
    auto tp = Clock::now();
    try {
      res.passStats = manager->run(*work);
      res.passesRan = true;
    } catch (const std::exception& e) {
      res.error = std::string("optimizer pass failed: ") + e.what();
    }
    res.passesMs = msSince(tp);
  }
  ir::topologicalSort(work->graph());
  countOps(work->graph(), res.opsAfter);
  if (opts.check && res.error.empty()) {
    auto tc = Clock::now();
    res.check = checkModel(*work);
    res.checkMs = msSince(tc);
  }
  res.model = std::move(copy);
  res.totalMs = msSince(t0);
  return res;
}

}  // namespace

size_t ConvertResult::count(NodeStatus s) const {
  size_t n = 0;
  for (const auto& r : nodes) n += r.status == s;
  return n;
}

std::map<std::string, std::map<std::string, size_t>> ConvertResult::countsByOp() const {
  std::map<std::string, std::map<std::string, size_t>> out;
  for (const auto& r : nodes) ++out[r.domain.empty() ? r.opType : r.domain + "::" + r.opType][std::string(statusName(r.status))];
  return out;
}

bool ConvertResult::complete() const {
  return error.empty() && check.ok && count(NodeStatus::Unsupported) == 0 && count(NodeStatus::Failed) == 0;
}

ConvertResult convertModel(const ir::Model& source, const ConvertOptions& opts) { return run(source, opts, false); }
ConvertResult dryRun(const ir::Model& source, const ConvertOptions& opts) { return run(source, opts, true); }

int64_t irVersionForOpset(int64_t opset) {
  // onnx/helper.py's VERSION_TABLE: the IR version each release paired with its opset.
  if (opset <= 8) return 3;
  if (opset == 9) return 4;
  if (opset == 10) return 5;
  if (opset == 11) return 6;
  if (opset <= 14) return 7;
  return 8;
}

}  // namespace fb::convert
