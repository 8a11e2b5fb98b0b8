#include "convert/converter.h"

#include <onnx/defs/schema.h>

#include <functional>
#include <set>
#include <stdexcept>

#include "convert/builtin_handlers.h"
#include "convert/handler_registry.h"
#include "convert/onnx_onnx/function_body.h"
#include "convert/onnx_onnx/opset18_down.h"
#include "convert/onnx_onnx/opset18_up.h"
#include "schema/opsets_18_26/structure_check.h"
#include "convert/onnx_onnx/version_step.h"
#include "schema/onnx_schema.h"
#include "schema/opsets_18_26/op_facts.h"
#include "schema/shape_facts.h"
#include "ir/topo_sort.h"
#include "passes/pass_registry.h"
#include "ir/node_label.h"
#include "ir/op_counts.h"
#include "util/idle_memory.h"
#include "util/stopwatch.h"
#include "util/failure_text.h"

namespace fb::convert {
namespace {

using Clock = SteadyClock;
using ir::nodeLabel;

// Walks the graphs in order and gives each node its status; shared by the dry run and the conversion.
class NodeConverter {
 public:
  using FactsSource = std::function<schema::ShapeFacts()>;
  NodeConverter(ir::Model& m, FactsSource factsSource, const ConvertOptions& o, bool dry, std::vector<NodeReport>& reports)
      : model_(m), factsSource_(std::move(factsSource)), opts_(o), dry_(dry), reports_(reports),
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
    if (retargetOnnx_ && !defaultDomain && !registry_.lowestVersion(n.domain, n.opType) &&
        !onnx_onnx::localFunction(model_, n)) {
      r.status = NodeStatus::Kept;
      r.message = "custom domain '" + n.domain + "': passed through as it is";
      finish(n, slot, std::move(r));
      return;
    }
    for (ir::Graph* sub : n.subgraphs()) convertGraph(*sub);

    HandlerContext ctx = makeContext(n, g, opts_.targetOpset, dry_);
    const schema::opsets_18_26::SchemaFact* newer = retargetOnnx_ && defaultDomain ? schema::opsets_18_26::schemaFact(n.opType, ctx.sourceOpset) : nullptr;
    if (newer) {  // a version after opset 17: FlowBridge's own schema table
      for (const auto& a : n.attributes)
        if (!schema::opsets_18_26::attributeDefault(*newer, a.name))
          r.warnings.push_back("attribute '" + a.name + "' is not part of " + n.opType + "-" + std::to_string(newer->since) +
                               "; no handler uses it");
    } else if (retargetOnnx_ && defaultDomain)
      if (const auto* s = schema::schemaAt("", n.opType, ctx.sourceOpset))
        for (const auto& name : schema::unknownAttributes(n, *s))
          r.warnings.push_back("attribute '" + name + "' is not part of " + n.opType + "-" + std::to_string(s->since_version()) +
                               "; no handler uses it");
    try {
      decide(n, ctx);
      if (!dry_ && (ctx.changed || ctx.replaced)) validate(n, ctx);
      r.status = (ctx.changed || ctx.replaced) ? NodeStatus::Converted : NodeStatus::Unchanged;
      r.message = ctx.note;
      r.newNodes = ctx.newNodes;
      r.attributesOnly = r.status == NodeStatus::Converted && ctx.attributesOnly && !ctx.replaced;
      r.warnings.insert(r.warnings.end(), ctx.warnings.begin(), ctx.warnings.end());
    } catch (const Unsupported& e) {
      r.status = NodeStatus::Unsupported;
      r.message = e.what();
      if (opts_.lowestOpsets) r.lowestOpset = lowestWorkingOpset(n, g);
    } catch (const std::exception& e) {
      r.status = NodeStatus::Failed;
      r.message = failureText(e, "converting this node");
    }
    if (!ctx.replaced) {
      schema::propagateElemTypes(n, schema::schemaAt(n.domain, n.opType, opts_.targetOpset), types_);
      typesFromBodies(n);
    }
    for (ir::Node* m : ctx.created) schema::propagateElemTypes(*m, schema::schemaAt(m->domain, m->opType, opts_.targetOpset), types_);
    finish(n, slot, std::move(r));
  }

  // If/Loop/Scan outputs have the types of their bodies' outputs (If: a branch's outputs; Loop: the body's
  // outputs after its condition; Scan: the body's outputs), which the schema alone cannot say.
  void typesFromBodies(const ir::Node& n) {
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
      ir::DataType t = it != types_.end() ? it->second : (b->type.isTensor() ? b->type.elemType : ir::DataType::Undefined);
      if (t != ir::DataType::Undefined) types_[out] = t;
    }
  }

  // A handler's output must itself be valid at the target.
  void validate(ir::Node& n, HandlerContext& ctx) {
    auto check = [&](const ir::Node& m) {
      if (!m.isDefaultDomain()) return;
      if (ctx.targetOpset > schema::kLibonnxMaxOpset) {
        if (auto why = schema::opsets_18_26::structuralMismatch(m, ctx.targetOpset, types_))
          throw std::runtime_error("handler produced an invalid node: " + *why);
        return;
      }
      const auto* s = schema::schemaAt(m.domain, m.opType, ctx.targetOpset);
      if (!s) throw std::runtime_error("handler produced " + m.opType + ", which opset " + std::to_string(ctx.targetOpset) + " lacks");
      if (auto why = schema::schemaMismatch(m, *s, types_)) throw std::runtime_error("handler produced an invalid node: " + *why);
    };
    if (!ctx.replaced) check(n);
    for (const ir::Node* m : ctx.created) check(*m);
  }

  HandlerContext makeContext(ir::Node& n, ir::Graph& g, int64_t target, bool dry) {
    HandlerContext ctx{model_, g};
    ctx.sourceOpset = model_.opsetVersion(n.domain);
    ctx.targetOpset = target;
    ctx.dryRun = dry;
    ctx.elemTypes = &types_;
    ctx.facts = [this] { return &facts(); };
    ctx.rankCache = &ranks_;
    return ctx;
  }

  // The handler for the context's target opset or the compatible version step; when neither can express
  // the node, its op's function body (ONNX nodes only). Throws Unsupported.
  void decide(ir::Node& n, HandlerContext& ctx) {
    try {
      decideDirect(n, ctx);
    } catch (const Unsupported& e) {
      if (!retargetOnnx_ || !n.isDefaultDomain()) throw;
      ctx.note.clear();
      ctx.warnings.clear();
      ctx.changed = false;
      try {
        if (onnx_onnx::expandFunctionBody(n, ctx)) return;
      } catch (const Unsupported& inner) {
        throw Unsupported(std::string(e.what()) + "; " + inner.what());
      }
      throw;
    }
  }

  void decideDirect(ir::Node& n, HandlerContext& ctx) {
    const bool defaultDomain = n.isDefaultDomain();
    // A model-local function's body is written against its own opset imports: expanded, it converts.
    if (retargetOnnx_ && onnx_onnx::expandLocalFunction(n, ctx)) return;
    // Targets 18-26: the node's opset-17 form first (the 7-17 chain, or the step down for a newer source),
    // then the adapters up from 17; between two opsets above 17 going down, only unchanged schemas pass.
    if (retargetOnnx_ && defaultDomain && ctx.targetOpset > schema::kLibonnxMaxOpset) {
      const int64_t target = ctx.targetOpset;
      if (ctx.sourceOpset > target) return onnx_onnx::stepBetweenNewOpsets(n, ctx);
      if (ctx.sourceOpset < schema::kLibonnxMaxOpset) {
        ctx.targetOpset = schema::kLibonnxMaxOpset;
        try {
          decideDirect(n, ctx);
        } catch (...) {
          ctx.targetOpset = target;  // a fallback (function body) must aim at the real target
          throw;
        }
        ctx.targetOpset = target;
        ctx.sourceOpset = schema::kLibonnxMaxOpset;
        if (ctx.replaced) {
          for (ir::Node* m : std::vector<ir::Node*>(ctx.created))
            if (m->isDefaultDomain()) onnx_onnx::stepUpFrom17(*m, ctx);
          return;
        }
      }
      return onnx_onnx::stepUpFrom17(n, ctx);
    }
    // Opsets 18-26 first step down to 17 (own adapters), then the 7-17 chain goes on from there.
    if (retargetOnnx_ && defaultDomain && ctx.sourceOpset > schema::kLibonnxMaxOpset && ctx.targetOpset <= schema::kLibonnxMaxOpset) {
      if (onnx_onnx::stepDownTo17(n, ctx)) return;
      ctx.sourceOpset = schema::kLibonnxMaxOpset;
    }
    if (retargetOnnx_ && defaultDomain) {
      int64_t sv = schema::schemaVersionAt("", n.opType, ctx.sourceOpset);
      if (sv != 0 && sv == schema::schemaVersionAt("", n.opType, ctx.targetOpset)) return;  // same schema: nothing to do
    }
    if (const HandlerInfo* h = registry_.find(n.domain, n.opType, ctx.targetOpset)) {
      ctx.attributesOnly = false;  // an adapter's rewrite after the opset-18 step is a real one unless it says otherwise
      return h->fn(n, ctx);
    }
    // ONNX nodes need no dialect handler in any direction: valid at the target as they are, or retargeted.
    if (defaultDomain) return onnx_onnx::compatibleVersionStep(n, ctx);
    if (auto low = registry_.lowestVersion(n.domain, n.opType); low && *low > ctx.targetOpset)
      throw Unsupported("needs opset " + std::to_string(*low));
    throw Unsupported("no handler for " + n.qualifiedOp() + " in direction '" + opts_.direction + "'");
  }

  // For an unsupported node: the lowest target opset at which this node, as it is, would convert
  // (each candidate decided as a dry run).
  std::optional<int64_t> lowestWorkingOpset(ir::Node& n, ir::Graph& g) {
    for (int64_t t = kMinOpset; t <= kMaxOpset; ++t) {
      if (t == opts_.targetOpset) continue;
      HandlerContext trial = makeContext(n, g, t, true);
      try {
        decide(n, trial);
        return t;
      } catch (const std::exception&) {
      }
    }
    return std::nullopt;
  }

  void finish(const ir::Node&, size_t slot, NodeReport r) { reports_[slot] = std::move(r); }

  ir::Model& model_;
  // Facts come from the untouched source (the work model keeps its value names): by the time a handler asks,
  // earlier handlers have rewritten parts of the work model into the target opset's form.
  FactsSource factsSource_;
  const ConvertOptions& opts_;
  bool dry_;
  const schema::ShapeFacts& facts() {
    if (!facts_) facts_ = opts_.facts ? opts_.facts : std::make_shared<const schema::ShapeFacts>(factsSource_());
    return *facts_;
  }
  std::shared_ptr<const schema::ShapeFacts> facts_;
  std::unordered_map<const ir::Value*, std::optional<int64_t>> ranks_;
  std::vector<NodeReport>& reports_;
  const HandlerRegistry& registry_;
  bool retargetOnnx_;
  schema::ElemTypes types_;
};

void collectDomains(const ir::Graph& g, std::set<std::string>& out) {
  for (const auto& n : g.nodes()) {
    out.insert(n->isDefaultDomain() ? std::string() : n->domain.str());
    for (const ir::Graph* sub : n->subgraphs()) collectDomains(*sub, out);
  }
}

// After a dialect conversion the source dialect's opset import goes once no node uses it.
void dropUnusedDomainImports(ir::Model& m) {
  std::set<std::string> used;
  collectDomains(m.graph(), used);
  for (const auto& f : m.functions) used.insert(f.domain);
  std::vector<ir::OpsetImport> kept;
  for (const auto& o : m.opsets)
    if (o.domain.empty() || o.domain == "ai.onnx" || used.count(o.domain)) kept.push_back(o);
  m.opsets = std::move(kept);
}

// Handlers leave the placeholder values of the nodes they replaced; nothing refers to them.
void pruneAll(ir::Graph& g) {
  for (const auto& n : g.nodes())
    for (ir::Graph* sub : n->subgraphs()) pruneAll(*sub);
  g.pruneValues();
}

bool subgraphsHoldInitializers(const ir::Graph& g) {
  for (const auto& n : g.nodes())
    for (const ir::Graph* sub : n->subgraphs())
      if (!sub->initializers().empty() || subgraphsHoldInitializers(*sub)) return true;
  return false;
}

// After the passes, which may turn constants into initializers.
void setIrVersion(ir::Model& m, int64_t opset) {
  m.irVersion = schema::irVersionForOpset(opset);
  if (m.irVersion >= 4) return;
  // Before IR 4 every initializer also had to be a graph input. A subgraph cannot take extra inputs (its
  // signature is fixed by If/Loop), so a model with initializers in subgraphs gets IR 4, which still
  // reads opsets 7 and 8.
  if (subgraphsHoldInitializers(m.graph())) {
    m.irVersion = 4;
    return;
  }
  for (const auto& t : m.graph().initializers())
    if (ir::Value* v = m.graph().findValue(t->name); v && !v->isGraphInput()) m.graph().addInput(v);
}

void validateOptions(const ConvertOptions& o) {
  if (o.targetOpset < kMinOpset || o.targetOpset > kMaxOpset)
    throw std::invalid_argument("target opset " + std::to_string(o.targetOpset) + " is outside " +
                                std::to_string(kMinOpset) + ".." + std::to_string(kMaxOpset));
  if (!o.direction.empty() && o.direction != "onnx" && o.targetOpset > kMaxDialectOpset)
    throw std::invalid_argument("target opset " + std::to_string(o.targetOpset) + ": conversions from " + o.direction +
                                " write opsets " + std::to_string(kMinOpset) + ".." + std::to_string(kMaxDialectOpset));
}

std::vector<std::string> passNames(const ConvertOptions& o) {
  passes::registerBuiltinPasses();
  return o.passes ? *o.passes : passes::PassRegistry::instance().defaultPipeline();
}

enum class Mode { DryRun, Copy, InPlace };

// `owned` is the source itself in Mode::InPlace (it becomes the result), null otherwise. In place, `source` is the
// model being edited: read it only before the handlers.
ConvertResult run(const ir::Model& source, const ConvertOptions& opts, Mode mode, std::unique_ptr<ir::Model> owned) {
  auto t0 = Clock::now();
  const bool dry = mode == Mode::DryRun;
  validateOptions(opts);
  registerBuiltinHandlers();
  auto names = passNames(opts);
  std::optional<passes::PassManager> manager;
  if (!dry && !names.empty()) manager.emplace(names);  // throws on an unknown pass name before any work
  if (manager) manager->recordSteps(opts.recordPassSteps);

  ConvertResult res;
  res.direction = opts.direction;
  res.sourceOpset = source.opsetVersion("");
  res.nodes.reserve(source.graph().totalNodeCount());  // one report per node: no doubling slack on 100k nodes
  res.targetOpset = opts.targetOpset;
  res.opsBefore = ir::countOps(source.graph());

  // A dry run never edits, so it can work on the source itself; so can a caller that is done with the source.
  std::unique_ptr<ir::Model> copy;
  ir::Model* work = const_cast<ir::Model*>(&source);
  NodeConverter::FactsSource factsSource = [&source] { return schema::inferShapeFacts(source); };
  std::unique_ptr<const ir::Model> pristine;
  if (mode == Mode::InPlace) {
    copy = std::move(owned);
    work = copy.get();
    if (!opts.facts && opts.reloadSource) {
      factsSource = [&opts] {
        auto again = opts.reloadSource();
        if (!again) throw std::runtime_error("shape facts: the source could not be read again");
        return schema::inferShapeFacts(*again);
      };
    } else if (!opts.facts) {
      // Nothing to read the source from again: a copy as it was, kept through the handlers only.
      pristine = source.clone();
      factsSource = [&pristine] { return schema::inferShapeFacts(*pristine); };
    }
  } else if (!dry) {
    copy = source.clone();
    work = copy.get();
  }
  if (!dry) {
    auto topo = ir::topologicalSort(work->graph());
    if (!topo.ok) {
      res.error = "the graph has a cycle through " + (topo.cycleNodes.empty() ? std::string("?") : topo.cycleNodes.front());
      res.totalMs = msSince(t0);
      return res;
    }
  }
  // Handlers that need ranks (negative axes, Softmax axis semantics) read them from libonnx's inference.
  auto th = Clock::now();
  {
    NodeConverter nc(*work, std::move(factsSource), opts, dry, res.nodes);
    nc.convertGraph(work->graph());
  }
  pristine.reset();
  if (!dry) releaseFreedHeap();  // the handlers' type tables: the passes come next, with the next peak
  res.handlersMs = msSince(th);

  bool unconverted = res.count(NodeStatus::Unsupported) + res.count(NodeStatus::Failed) > 0;
  if (dry || (unconverted && !opts.keepUnconverted)) {
    res.totalMs = msSince(t0);
    return res;
  }

  work->setOpsetVersion("", opts.targetOpset);
  if (!opts.direction.empty() && opts.direction != "onnx") dropUnusedDomainImports(*work);
  if (opts.direction == "onnx") onnx_onnx::dropUncalledFunctions(*work);

  // IR 3 made every initializer a graph input; from IR 4 that would make them overridable inputs, which
  // shape inference (and the passes) cannot treat as constants.
  if (work->irVersion < 4 && schema::irVersionForOpset(opts.targetOpset) >= 4) {
    std::vector<ir::Value*> weights;
    for (ir::Value* v : work->graph().inputs())
      if (v->initializer()) weights.push_back(v);
    for (ir::Value* v : weights) work->graph().removeInput(v);
  }
  work->irVersion = std::max<int64_t>(schema::irVersionForOpset(opts.targetOpset), 4);  // final value set after the passes

  if (manager) {
    auto tp = Clock::now();
    try {
      res.passStats = manager->run(*work);
      res.passesRan = true;
    } catch (const std::exception& e) {
      res.error = "optimizer pass failed: " + failureText(e, "running the optimizer passes");
    }
    res.passesMs = msSince(tp);
  }
  // The pass manager leaves the graph sorted and pruned; without it (or when a pass threw, or it found a cycle)
  // that is done here.
  if (!res.passesRan || !res.error.empty() || res.passStats.iterations == 0) {
    ir::topologicalSort(work->graph());
    pruneAll(work->graph());
  }
  setIrVersion(*work, opts.targetOpset);
  res.opsAfter = ir::countOps(work->graph());
  if (opts.check && res.error.empty()) {
    auto tc = Clock::now();
    releaseIdleMemory();  // the checker's proto is the next peak: not on top of what the passes freed
    // libonnx 1.12 knows schemas up to opset 17 only: above that, FlowBridge's own structural check.
    res.check = opts.targetOpset > schema::kLibonnxMaxOpset ? schema::opsets_18_26::checkStructure(*work) : checkModel(*work);
    releaseFreedHeap();
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

ConvertResult convertModel(const ir::Model& source, const ConvertOptions& opts) {
  return run(source, opts, Mode::Copy, nullptr);
}
ConvertResult convertModel(std::unique_ptr<ir::Model> source, const ConvertOptions& opts) {
  if (!source) throw std::invalid_argument("no model to convert");
  const ir::Model& s = *source;
  return run(s, opts, Mode::InPlace, std::move(source));
}
ConvertResult dryRun(const ir::Model& source, const ConvertOptions& opts) { return run(source, opts, Mode::DryRun, nullptr); }

std::string directionFor(const ir::Model& source) {
  return source.opsetVersion("oneflow") != 0 ? "oneflow" : "onnx";  // the OneFlow reader imports that domain
}

}  // namespace fb::convert
