#include "passes/pass_manager.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "ir/topo_sort.h"
#include "passes/nodes_near_changes.h"
#include "passes/pass_registry.h"
#include "passes/value_types.h"
#include "util/idle_memory.h"
#include "util/stopwatch.h"

namespace fb::passes {

PassManager::PassManager(const std::vector<std::string>& names, size_t maxIterations) : maxIterations_(maxIterations) {
  registerBuiltinPasses();
  for (const auto& n : names) {
    const PassInfo* info = PassRegistry::instance().find(n);
    if (!info) throw std::invalid_argument("unknown pass '" + n + "' (flowbridge-cli passes lists them)");
    passes_.push_back(info->create());
    TypeNeeds needs = passes_.back()->typeNeeds();
    typesReadAnywhere_ |= needs.anywhere;
    opsReadingTypes_.insert(opsReadingTypes_.end(), needs.ops.begin(), needs.ops.end());
  }
  std::sort(opsReadingTypes_.begin(), opsReadingTypes_.end());
}

bool PassManager::needsTypes(const std::unordered_set<std::string>& ops) const {
  if (typesReadAnywhere_) return true;
  for (const auto& op : opsReadingTypes_)
    if (ops.count(op)) return true;
  return false;
}

namespace {

// value_info entries of values the passes removed would describe tensors that no longer exist.
void dropStaleValueInfo(ir::Graph& g) {
  std::vector<ir::Value*> keep;
  for (ir::Value* v : g.valueInfos())
    if (v->producer() || v->isGraphInput() || v->initializer() || !v->uses().empty()) keep.push_back(v);
  if (keep.size() == g.valueInfos().size()) return;
  g.clearValueInfo();
  for (ir::Value* v : keep) g.addValueInfo(v);
}

// Whether shape inference could still tell the passes something: some node output of the main graph (the
// graph refreshValueTypes types) lacks a type, a rank or a dim. When every type is complete, a round of
// rewrites that preserve meaning leaves every remaining type true, so inference would only repeat itself.
bool typesIncomplete(const ir::Graph& g) {
  for (const auto& n : g.nodes())
    for (const ir::Value* v : n->outputs())
      if (v && typeIncomplete(v->type)) return true;
  return false;
}

// What the passes of a round start from, taken again only after a change: the graphs a GraphPass walks
// (innermost first) and the op types of their nodes.
struct Scope {
  std::vector<ir::Graph*> graphs;
  std::unordered_set<std::string> ops;
  explicit Scope(ir::Graph& main) : graphs(graphsInnermostFirst(main)) {
    for (const ir::Graph* g : graphs)
      for (const auto& n : g->nodes()) ops.insert(n->opType);
  }
};

bool anyPresent(const std::vector<std::string_view>& ops, const std::unordered_set<std::string>& present) {
  for (std::string_view op : ops)
    if (present.count(std::string(op))) return true;
  return false;
}

// Keeps a journal on the main graph while the passes run, and takes it off however the run ends.
class JournalOn {
 public:
  explicit JournalOn(ir::Graph& g) : g_(g) { g_.setJournal(&journal); }
  ~JournalOn() { g_.setJournal(nullptr); }
  ir::ChangeJournal journal;

 private:
  ir::Graph& g_;
};

void cleanUp(ir::Graph& g) {
  for (const auto& n : g.nodes())
    for (ir::Graph* sg : n->subgraphs()) cleanUp(*sg);
  dropStaleValueInfo(g);
  g.pruneValues();
}

// Adds one call's change to a pass's totals.
void addToTotal(PassStats& s, const PassChange& c) {
  s.total.nodesRemoved += c.nodesRemoved;
  s.total.nodesAdded += c.nodesAdded;
  s.total.initializersRemoved += c.initializersRemoved;
  s.total.initializersAdded += c.initializersAdded;
  s.total.other |= c.other;
  // Each round repeats the same warnings: keep one of each.
  for (const auto& w : c.warnings)
    if (std::find(s.total.warnings.begin(), s.total.warnings.end(), w) == s.total.warnings.end())
      s.total.warnings.push_back(w);
}

constexpr size_t kNever = SIZE_MAX;

}  // namespace

// What the rounds of one run() share.
struct PassManager::Run {
  Run(ir::Model& model, PassManagerResult& result, size_t passCount)
      : m(model), r(result), cleanAt(passCount, kNever), journalOn(model.graph()), since(passCount) {}

  ir::Model& m;
  PassManagerResult& r;
  bool changedLastRound = true;
  // A pass is a function of the model: once a call of it found nothing to do, calling it again before anything
  // else changed the model would find nothing again. `version` counts the changes; cleanAt[i] is the version
  // pass i last left as it was. The round that only confirms the fixpoint then calls just the passes that ran
  // before the last change (on 100k nodes the others are whole-graph walks that cost 70-180 ms).
  size_t version = 0;
  std::vector<size_t> cleanAt;
  std::optional<Scope> scope;  // taken again after a change
  // Worklists: since[i] is where the main graph's journal stood when pass i was last called. Its next call (when its
  // worklistRadius allows) visits only the nodes near what changed from there on. nullopt: the whole graph, as on
  // a first call, after new types from whole-graph inference (any node may read them) and after a change in an
  // If/Loop/Scan body (what it means for main-graph nodes is not journaled).
  JournalOn journalOn;
  const ir::ChangeJournal& journal = journalOn.journal;
  std::vector<std::optional<size_t>> since;
  size_t typesAt = 0;  // the journal's position when types were last refreshed

  Scope& currentScope() {
    if (!scope) scope.emplace(m.graph());
    return *scope;
  }

  void forgetWorklists() {
    for (auto& s : since) s.reset();
  }

  // After the first round, only the nodes the passes created or rewired since can have stale types; inferring them
  // (and downstream while something is learned) costs what changed, where the whole graph costs its size. Returns
  // whether it typed anything (the nodes it typed are in the journal, so the passes reading them see them).
  bool refreshTypesLocally() {
    if (typesAt == journal.position()) return false;  // nothing changed since
    std::vector<ir::Node*> touched;
    for (size_t k = typesAt; k < journal.position(); ++k)
      if (const auto& e = journal.entries()[k]; journal.alive(e) && e.node->graph() == &m.graph())
        touched.push_back(e.node);
    // In graph order, not by address: what libonnx names the dims it makes up (unk__N) follows the order it sees
    // the nodes in, and a copy of the model must come out the same.
    std::sort(touched.begin(), touched.end(),
              [](const ir::Node* a, const ir::Node* b) { return a->orderKey() < b->orderKey(); });
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    const bool learned = refreshValueTypesOf(m, touched) > 0;
    typesAt = journal.position();
    ++r.localTypeInferenceRuns;
    return learned;
  }
};

PassManagerResult PassManager::run(ir::Model& m) {
  PassManagerResult r;
  auto start = SteadyClock::now();
  r.nodesBefore = m.graph().nodeCount();
  for (const auto& p : passes_) r.perPass.push_back({.name = std::string(p->name())});
  r.reachedFixpoint = false;
  // Passes walk nodes in order and rely on producers coming first.
  if (!ir::topologicalSort(m.graph()).ok) {
    r.milliseconds = msSince(start);
    r.nodesAfter = r.nodesBefore;
    return r;  // a cyclic graph is not rewritten
  }
  if (recordSteps_) r.initial = m.clone();
  // One budget for everything constant folding does in this run: every round, every body.
  ModelFoldBudget foldBudget(m, foldLimits_);
  ModelFoldBudget::Scope foldBudgetScope(foldBudget);
  r.foldedLimit = foldBudget.foldedLimit();
  r.foldAddedLimit = foldBudget.addedLimit();
  Run run(m, r, passes_.size());
  while (r.iterations < maxIterations_) {
    ++r.iterations;
    run.changedLastRound = runRound(run);
    if (!run.changedLastRound) {
      r.reachedFixpoint = true;
      break;
    }
  }
  ir::topologicalSort(m.graph());
  cleanUp(m.graph());
  r.foldedBytes = foldBudget.folded();
  r.foldAddedBytes = foldBudget.added();
  r.nodesAfter = m.graph().nodeCount();
  r.milliseconds = msSince(start);
  return r;
}

void PassManager::inferTypesBeforeRound(Run& run) {
  // Whole-graph inference costs more than all the passes of a round: it runs before the first round only, and only
  // when some node is one a pass reads types for (a graph of Conv/BatchNormalization/Relu/Add never is). Later
  // types come from the changed nodes alone, after each pass that changed something (runRound), and here for what
  // is left. Calling every pass (the tests' reference) keeps the old way: the whole graph again after a round that
  // changed something while some type is still incomplete.
  PassManagerResult& r = run.r;
  if (!needsTypes(run.currentScope().ops) || (r.iterations != 1 && !run.changedLastRound)) return;
  auto t0 = SteadyClock::now();
  if (r.iterations == 1 || (callEveryPass_ && typesIncomplete(run.m.graph()))) {
    refreshValueTypes(run.m);
    ++run.version;  // new types are new facts for every pass
    run.forgetWorklists();
    ++r.typeInferenceRuns;
    run.typesAt = run.journal.position();
  } else if (!callEveryPass_) {
    run.refreshTypesLocally();
  }
  r.typeInferenceMilliseconds += msSince(t0);
}

bool PassManager::skipsCall(Run& run, size_t i) {
  PassStats& s = run.r.perPass[i];
  if (!callEveryPass_ && run.cleanAt[i] == run.version) {
    ++s.runs;  // it took part in the round: it has seen this very model already
    ++s.notCalled;
    ++s.notCalledUnchanged;
    return true;
  }
  if (const auto anchors = passes_[i]->anchorOps(); !anchors.empty() && !callEveryPass_) {
    if (!anyPresent(anchors, run.currentScope().ops)) {
      ++s.runs;  // it took part in the round: there was nothing it could start from
      ++s.notCalled;
      run.cleanAt[i] = run.version;
      return true;
    }
  }
  return false;
}

PassChange PassManager::callPass(Run& run, size_t i) {
  PassStats& s = run.r.perPass[i];
  ir::Model& m = run.m;
  PassChange c;
  const size_t journalAt = run.journal.position();
  if (auto* gp = dynamic_cast<GraphPass*>(passes_[i].get())) {
    const std::vector<ir::Graph*>& graphs = run.currentScope().graphs;
    const int radius = gp->worklistRadius();
    std::optional<std::vector<ir::Node*>> near;
    if (run.since[i] && radius >= 0 && !callEveryPass_)
      near = nodesNearChanges(run.journal, *run.since[i], m.graph(), radius);
    s.nodesOffered += near ? near->size() : m.graph().nodeCount();
    if (near) {
      ++s.worklistCalls;
      gp->limitTo(&m.graph(), std::move(*near));
    }
    bool bodiesChanged = false;
    c = gp->runOnGraphs(m, graphs, &bodiesChanged);
    gp->unlimit();
    run.since[i] = journalAt;  // its own rewrites from here on may give it more work next time
    if (bodiesChanged) run.forgetWorklists();
  } else {
    s.nodesOffered += m.graph().nodeCount();
    c = passes_[i]->run(m);
    if (c.changed()) run.forgetWorklists();  // a pass that is not a GraphPass may change bodies too
  }
  return c;
}

bool PassManager::runRound(Run& run) {
  PassManagerResult& r = run.r;
  inferTypesBeforeRound(run);
  bool any = false;
  const bool readsTypes = needsTypes(run.currentScope().ops);
  constexpr size_t kMaxRepeats = 64;  // a safety net: each repeat needs new types, which only grow
  size_t repeats = 0;
  for (size_t i = 0; i < passes_.size(); ++i) {
    if (skipsCall(run, i)) continue;
    auto& s = r.perPass[i];
    auto t1 = SteadyClock::now();
    const PassChange c = callPass(run, i);
    const double ms = msSince(t1);
    s.milliseconds += ms;
    ++s.runs;
    addToTotal(s, c);
    if (recordSteps_ && c.changed()) r.steps.push_back({s.name, r.iterations, ms, c, run.m.clone()});
    if (c.changed()) {
      any = true;
      ++run.version;
      run.scope.reset();
      releaseIdleMemory();  // what this pass freed (nodes, replaced weights) need not stay under the next
      // Types right away, not at the next round: a fold makes the next value's shape known, which the pass can
      // fold in turn (a Shape of it, a Reshape to it). Called again at once, with the nodes near what it did,
      // it goes down a chain of shape arithmetic in one round where rounds would take one link each.
      if (readsTypes && !callEveryPass_ && repeats < kMaxRepeats) {
        auto t0 = SteadyClock::now();
        const bool learned = run.refreshTypesLocally();
        r.typeInferenceMilliseconds += msSince(t0);
        if (learned) {
          ++run.version;
          ++repeats;
          --i;  // the same pass again
          continue;
        }
      }
      repeats = 0;
    } else {
      repeats = 0;
      run.cleanAt[i] = run.version;
    }
  }
  return any;
}

}  // namespace fb::passes
