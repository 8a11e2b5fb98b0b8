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

}  // namespace

PassManagerResult PassManager::run(ir::Model& m) {
  using Clock = std::chrono::steady_clock;
  PassManagerResult r;
  auto start = Clock::now();
  r.nodesBefore = m.graph().nodeCount();
  for (const auto& p : passes_) r.perPass.push_back({std::string(p->name()), 0, 0, {}});
  r.reachedFixpoint = false;
  // Passes walk nodes in order and rely on producers coming first.
  if (!ir::topologicalSort(m.graph()).ok) {
    r.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    r.nodesAfter = r.nodesBefore;
    return r;  // a cyclic graph is not rewritten
  }
  if (recordSteps_) r.initial = m.clone();
  // One budget for everything constant folding does in this run: every round, every body.
  ModelFoldBudget foldBudget(m, foldLimits_);
  ModelFoldBudget::Scope foldBudgetScope(foldBudget);
  r.foldedLimit = foldBudget.foldedLimit();
  r.foldAddedLimit = foldBudget.addedLimit();
  bool changedLastRound = true;
  // A pass is a function of the model: once a call of it found nothing to do, calling it again before anything
  // else changed the model would find nothing again. `version` counts the changes; cleanAt[i] is the version
  // pass i last left as it was. The round that only confirms the fixpoint then calls just the passes that ran
  // before the last change (on 100k nodes the others are whole-graph walks that cost 70-180 ms).
  size_t version = 0;
  constexpr size_t kNever = SIZE_MAX;
  std::vector<size_t> cleanAt(passes_.size(), kNever);
  std::optional<Scope> scope;  // taken again after a change
  // Worklists: since[i] is where the main graph's journal stood when pass i was last called. Its next call (when its
  // worklistRadius allows) visits only the nodes near what changed from there on. nullopt: the whole graph, as on
  // a first call, after new types from whole-graph inference (any node may read them) and after a change in an
  // If/Loop/Scan body (what it means for main-graph nodes is not journaled).
  JournalOn journalOn(m.graph());
  const ir::ChangeJournal& journal = journalOn.journal;
  std::vector<std::optional<size_t>> since(passes_.size());
  size_t typesAt = 0;  // the journal's position when types were last refreshed
  auto forgetWorklists = [&] {
    for (auto& s : since) s.reset();
  };
  // After the first round, only the nodes the passes created or rewired since can have stale types; inferring them
  // (and downstream while something is learned) costs what changed, where the whole graph costs its size. Returns
  // whether it typed anything (the nodes it typed are in the journal, so the passes reading them see them).
  auto refreshTypesLocally = [&] {
    if (typesAt == journal.position()) return false;  // nothing changed since
    std::vector<ir::Node*> touched;
    for (size_t k = typesAt; k < journal.position(); ++k)
      if (const auto& e = journal.entries()[k]; journal.alive(e) && e.node->graph() == &m.graph())
        touched.push_back(e.node);
    // In graph order, not by address: what libonnx names the dims it makes up (unk__N) follows the order it sees
    // the nodes in, and a copy of the model must come out the same.
    std::sort(touched.begin(), touched.end(), [](const ir::Node* a, const ir::Node* b) { return a->orderKey() < b->orderKey(); });
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    const bool learned = refreshValueTypesOf(m, touched) > 0;
    typesAt = journal.position();
    ++r.localTypeInferenceRuns;
    return learned;
  };
  while (r.iterations < maxIterations_) {
    ++r.iterations;
    // Whole-graph inference costs more than all the passes of a round: it runs before the first round only, and only
    // when some node is one a pass reads types for (a graph of Conv/BatchNormalization/Relu/Add never is). Later
    // types come from the changed nodes alone, after each pass that changed something (below), and here for what is
    // left. Calling every pass (the tests' reference) keeps the old way: the whole graph again after a round that
    // changed something while some type is still incomplete.
    if (!scope) scope.emplace(m.graph());
    if (needsTypes(scope->ops) && (r.iterations == 1 || changedLastRound)) {
      auto t0 = Clock::now();
      if (r.iterations == 1 || (callEveryPass_ && typesIncomplete(m.graph()))) {
        refreshValueTypes(m);
        ++version;  // new types are new facts for every pass
        forgetWorklists();
        ++r.typeInferenceRuns;
        typesAt = journal.position();
      } else if (!callEveryPass_) {
        refreshTypesLocally();
      }
      r.typeInferenceMilliseconds += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    }
    bool any = false;
    const bool readsTypes = needsTypes(scope->ops);
    constexpr size_t kMaxRepeats = 64;  // a safety net: each repeat needs new types, which only grow
    size_t repeats = 0;
    for (size_t i = 0; i < passes_.size(); ++i) {
      auto& s = r.perPass[i];
      if (!callEveryPass_ && cleanAt[i] == version) {
        ++s.runs;  // it took part in the round: it has seen this very model already
        ++s.notCalled;
        ++s.notCalledUnchanged;
        continue;
      }
      if (const auto anchors = passes_[i]->anchorOps(); !anchors.empty() && !callEveryPass_) {
        if (!scope) scope.emplace(m.graph());
        if (!anyPresent(anchors, scope->ops)) {
          ++s.runs;  // it took part in the round: there was nothing it could start from
          ++s.notCalled;
          cleanAt[i] = version;
          continue;
        }
      }
      auto t1 = Clock::now();
      PassChange c;
      const size_t journalAt = journal.position();
      if (auto* gp = dynamic_cast<GraphPass*>(passes_[i].get())) {
        if (!scope) scope.emplace(m.graph());
        const int radius = gp->worklistRadius();
        std::optional<std::vector<ir::Node*>> near;
        if (since[i] && radius >= 0 && !callEveryPass_) near = nodesNearChanges(journal, *since[i], m.graph(), radius);
        s.nodesOffered += near ? near->size() : m.graph().nodeCount();
        if (near) {
          ++s.worklistCalls;
          gp->limitTo(&m.graph(), std::move(*near));
        }
        bool bodiesChanged = false;
        c = gp->runOnGraphs(m, scope->graphs, &bodiesChanged);
        gp->unlimit();
        since[i] = journalAt;  // its own rewrites from here on may give it more work next time
        if (bodiesChanged) forgetWorklists();
      } else {
        s.nodesOffered += m.graph().nodeCount();
        c = passes_[i]->run(m);
        if (c.changed()) forgetWorklists();  // a pass that is not a GraphPass may change bodies too
      }
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
      s.milliseconds += ms;
      ++s.runs;
      s.total.nodesRemoved += c.nodesRemoved;
      s.total.nodesAdded += c.nodesAdded;
      s.total.initializersRemoved += c.initializersRemoved;
      s.total.initializersAdded += c.initializersAdded;
      s.total.other |= c.other;
      // Each round repeats the same warnings: keep one of each.
      for (const auto& w : c.warnings)
        if (std::find(s.total.warnings.begin(), s.total.warnings.end(), w) == s.total.warnings.end())
          s.total.warnings.push_back(w);
      if (recordSteps_ && c.changed()) r.steps.push_back({s.name, r.iterations, ms, c, m.clone()});
      if (c.changed()) {
        any = true;
        ++version;
        scope.reset();
        releaseIdleMemory();  // what this pass freed (nodes, replaced weights) need not stay under the next
        // Types right away, not at the next round: a fold makes the next value's shape known, which the pass can
        // fold in turn (a Shape of it, a Reshape to it). Called again at once, with the nodes near what it did,
        // it goes down a chain of shape arithmetic in one round where rounds would take one link each.
        if (readsTypes && !callEveryPass_ && repeats < kMaxRepeats) {
          auto t0 = Clock::now();
          const bool learned = refreshTypesLocally();
          r.typeInferenceMilliseconds += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
          if (learned) {
            ++version;
            ++repeats;
            --i;  // the same pass again
            continue;
          }
        }
        repeats = 0;
      } else {
        repeats = 0;
        cleanAt[i] = version;
      }
    }
    changedLastRound = any;
    if (!any) {
      r.reachedFixpoint = true;
      break;
    }
  }
  ir::topologicalSort(m.graph());
  cleanUp(m.graph());
  r.foldedBytes = foldBudget.folded();
  r.foldAddedBytes = foldBudget.added();
  r.nodesAfter = m.graph().nodeCount();
  r.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return r;
}

}  // namespace fb::passes
