#include "convert/converter.h"

#include "convert/body_converter.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "convert/builtin_handlers.h"
#include "convert/direction.h"
#include "convert/node_walk.h"
#include "convert/output_types.h"
#include "ir/op_counts.h"
#include "ir/topo_sort.h"
#include "passes/pass_registry.h"
#include "schema/shape_facts.h"
#include "util/failure_text.h"
#include "util/idle_memory.h"
#include "util/stopwatch.h"

namespace fb::convert {
namespace {

using Clock = SteadyClock;

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

// The converted nodes stand at the target: the model says so, keeps what the direction still needs, and has the
// IR version's form of weights (its final IR version is set after the passes).
void retargetModel(ir::Model& work, const Direction& direction, int64_t target) {
  work.setOpsetVersion("", target);
  direction.finishModel(work);
  // IR 3 made every initializer a graph input; from IR 4 that would make them overridable inputs, which
  // shape inference (and the passes) cannot treat as constants.
  if (work.irVersion < 4 && schema::irVersionForOpset(target) >= 4) {
    std::vector<ir::Value*> weights;
    for (ir::Value* v : work.graph().inputs())
      if (v->initializer()) weights.push_back(v);
    for (ir::Value* v : weights) work.graph().removeInput(v);
  }
  work.irVersion = std::max<int64_t>(schema::irVersionForOpset(target), 4);
}

void validateOptions(const ConvertOptions& o, const Direction& direction) {
  if (o.targetOpset < kMinOpset || o.targetOpset > kMaxOpset)
    throw std::invalid_argument("target opset " + std::to_string(o.targetOpset) + " is outside " +
                                std::to_string(kMinOpset) + ".." + std::to_string(kMaxOpset));
  if (o.targetOpset > direction.maxTargetOpset())
    throw std::invalid_argument("target opset " + std::to_string(o.targetOpset) + ": conversions from " + o.direction +
                                " write opsets " + std::to_string(kMinOpset) + ".." +
                                std::to_string(direction.maxTargetOpset()));
}

std::vector<std::string> passNames(const ConvertOptions& o) {
  passes::registerBuiltinPasses();
  return o.passes ? *o.passes : passes::PassRegistry::instance().defaultPipeline();
}

enum class Mode { DryRun, Copy, InPlace };

// The model the handlers edit and where the shape facts of the untouched source come from (by the time a handler
// asks, earlier handlers have rewritten parts of the work model into the target opset's form).
struct Workspace {
  ir::Model* work = nullptr;
  std::unique_ptr<ir::Model> owned;           // the work model when it is not the caller's source
  std::unique_ptr<const ir::Model> pristine;  // a copy of the source as it was, kept through the handlers only
  std::function<schema::ShapeFacts()> factsSource;
};

// A dry run never edits, so it can work on the source itself; so can a caller that is done with the source
// (Mode::InPlace, `owned` is then the source). In place, `source` is the model being edited: read it only before the
// handlers.
Workspace workspaceFor(const ir::Model& source, const ConvertOptions& opts, Mode mode,
                       std::unique_ptr<ir::Model> owned) {
  Workspace w;
  w.work = const_cast<ir::Model*>(&source);
  w.factsSource = [&source] { return schema::inferShapeFacts(source); };
  if (mode == Mode::InPlace) {
    w.owned = std::move(owned);
    w.work = w.owned.get();
    if (!opts.facts && opts.reloadSource) {
      w.factsSource = [&opts] {
        auto again = opts.reloadSource();
        if (!again) throw std::runtime_error("shape facts: the source could not be read again");
        return schema::inferShapeFacts(*again);
      };
    } else if (!opts.facts) {
      // Nothing to read the source from again: a copy as it was, kept through the handlers only.
      w.pristine = source.clone();
      w.factsSource = [p = w.pristine.get()] { return schema::inferShapeFacts(*p); };
    }
  } else if (mode == Mode::Copy) {
    w.owned = source.clone();
    w.work = w.owned.get();
  }
  return w;
}

ConvertResult run(const ir::Model& source, const ConvertOptions& opts, Mode mode, std::unique_ptr<ir::Model> owned);

// A function body a handler expands, converted on its own in the same direction: no passes, no check, no search for
// lowest opsets (only its first refusal is used, and a search per nesting level would multiply).
BodyConversion convertBody(const ir::Model& body, int64_t targetOpset, const std::string& direction) {
  ConvertOptions o;
  o.direction = direction;
  o.targetOpset = targetOpset;
  o.passes = std::vector<std::string>{};
  o.check = false;
  o.lowestOpsets = false;
  ConvertResult r = run(body, o, Mode::Copy, nullptr);
  BodyConversion out;
  for (const auto& report : r.nodes)
    if (report.status == NodeStatus::Unsupported || report.status == NodeStatus::Failed) {
      out.refusal = report.opType + ": " + report.message;
      return out;
    }
  if (!r.error.empty() || !r.model) {
    out.refusal = r.error;
    return out;
  }
  out.model = std::move(r.model);
  return out;
}

}  // namespace

BodyConverter bodyConverterFor(const std::string& direction) {
  return [direction](const ir::Model& body, int64_t target) { return convertBody(body, target, direction); };
}

namespace {

// Every node's status, through the direction's handlers (editing the work model unless `dry`).
void convertNodes(ir::Model& work, const Direction& direction, const ConvertOptions& opts, bool dry,
                  std::function<schema::ShapeFacts()> factsSource, std::vector<NodeReport>& reports) {
  std::shared_ptr<const schema::ShapeFacts> facts = opts.facts;
  auto factsOnce = [&]() -> const schema::ShapeFacts& {
    if (!facts) facts = std::make_shared<const schema::ShapeFacts>(factsSource());
    return *facts;
  };
  BodyConverter bodies = bodyConverterFor(direction.name());
  WalkSettings settings;
  settings.targetOpset = opts.targetOpset;
  settings.dryRun = dry;
  settings.lowestOpsets = opts.lowestOpsets;
  NodeWalk walk(work, direction, settings, factsOnce, std::move(bodies), reports);
  walk.convertGraph(work.graph());
}

// The passes, then the graph sorted and pruned, the IR version, the op counts and the check.
void finishResult(ir::Model& work, const ConvertOptions& opts, std::optional<passes::PassManager>& manager,
                  ConvertResult& res) {
  if (manager) {
    auto tp = Clock::now();
    try {
      res.passStats = manager->run(work);
      res.passesRan = true;
    } catch (const std::exception& e) {
      res.error = "optimizer pass failed: " + failureText(e, "running the optimizer passes");
    }
    res.passesMs = msSince(tp);
  }
  // The pass manager leaves the graph sorted and pruned; without it (or when a pass threw, or it found a cycle)
  // that is done here.
  if (!res.passesRan || !res.error.empty() || res.passStats.iterations == 0) {
    ir::topologicalSort(work.graph());
    pruneAll(work.graph());
  }
  setIrVersion(work, opts.targetOpset);
  res.opsAfter = ir::countOps(work.graph());
  // Only for a checked result: a function body converted on its own (no check) is spliced, not written.
  OutputTyping outputs;
  if (opts.check && res.error.empty()) {
    outputs = typeShapelessOutputs(work);
    res.notes = outputs.written;
  }
  if (opts.check && res.error.empty()) {
    auto tc = Clock::now();
    releaseIdleMemory();  // the checker's proto is the next peak: not on top of what the passes freed
    res.check = checkModelAtItsOpset(work);  // at the target opset: the result is written there
    releaseFreedHeap();
    res.checkMs = msSince(tc);
  }
  // Where the checker refused an untyped output, these say which and what to do; elsewhere they are notes.
  if (opts.check && !res.check.ok)
    res.check.messages.insert(res.check.messages.end(), outputs.untyped.begin(), outputs.untyped.end());
  else
    for (const auto& m : outputs.untyped) res.notes.push_back(m.message);
}

ConvertResult run(const ir::Model& source, const ConvertOptions& opts, Mode mode, std::unique_ptr<ir::Model> owned) {
  auto t0 = Clock::now();
  const bool dry = mode == Mode::DryRun;
  registerBuiltinHandlers();
  const Direction& direction = directionNamed(opts.direction);
  validateOptions(opts, direction);
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

  Workspace ws = workspaceFor(source, opts, mode, std::move(owned));
  if (!dry) {
    auto topo = ir::topologicalSort(ws.work->graph());
    if (!topo.ok) {
      res.error =
          "the graph has a cycle through " + (topo.cycleNodes.empty() ? std::string("?") : topo.cycleNodes.front());
      res.totalMs = msSince(t0);
      return res;
    }
  }
  // Handlers that need ranks (negative axes, Softmax axis semantics) read them from libonnx's inference.
  auto th = Clock::now();
  convertNodes(*ws.work, direction, opts, dry, std::move(ws.factsSource), res.nodes);
  ws.pristine.reset();
  if (!dry) releaseFreedHeap();  // the handlers' type tables: the passes come next, with the next peak
  res.handlersMs = msSince(th);

  bool unconverted = res.count(NodeStatus::Unsupported) + res.count(NodeStatus::Failed) > 0;
  if (dry || (unconverted && !opts.keepUnconverted)) {
    res.totalMs = msSince(t0);
    return res;
  }
  retargetModel(*ws.work, direction, opts.targetOpset);
  finishResult(*ws.work, opts, manager, res);
  res.model = std::move(ws.owned);
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
  for (const auto& r : nodes)
    ++out[r.domain.empty() ? r.opType : r.domain + "::" + r.opType][std::string(statusName(r.status))];
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
ConvertResult dryRun(const ir::Model& source, const ConvertOptions& opts) {
  return run(source, opts, Mode::DryRun, nullptr);
}

std::string directionFor(const ir::Model& source) {
  return source.opsetVersion("oneflow") != 0 ? "oneflow" : "onnx";  // the OneFlow reader imports that domain
}

int64_t defaultTargetOpset(const ir::Model& source) {
  registerBuiltinHandlers();
  return directionNamed(directionFor(source)).defaultTargetOpset(source);
}

std::optional<std::vector<std::string>> parsePassList(const std::string& spec) {
  if (spec == "default") return std::nullopt;
  std::vector<std::string> names;
  if (spec == "none") return names;
  passes::registerBuiltinPasses();
  std::stringstream ss(spec);
  for (std::string name; std::getline(ss, name, ',');) {
    if (name.empty()) continue;
    if (!passes::PassRegistry::instance().find(name))
      throw std::invalid_argument("unknown pass '" + name + "' (flowbridge-cli passes lists them)");
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace fb::convert
