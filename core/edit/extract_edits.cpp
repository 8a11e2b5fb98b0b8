// The model replaced by a part of it: the subgraph between some values (extract), or everything before or after
// one value (cut). eval/verify/extract_subgraph does the cutting; undo keeps the graph it replaced.
#include <memory>
#include <unordered_set>

#include "edit/edit_support.h"
#include "edit/edit_verb.h"
#include "eval/verify/extract_subgraph.h"
#include "passes/value_types.h"

namespace fb::edit {

namespace {

// The graph outputs computed from `v`, and the graph inputs they need besides it.
void sidesAfter(const ir::Graph& g, const ir::Value* v, std::vector<std::string>& outputs,
                std::vector<std::string>& inputs) {
  std::unordered_set<const ir::Value*> reached{v};
  for (const auto& n : g.nodes()) {  // graph order is topological
    bool hit = false;
    for (const ir::Value* in : n->inputs()) hit = hit || (in && reached.count(in));
    if (hit)
      for (const ir::Value* o : n->outputs())
        if (o) reached.insert(o);
  }
  for (const ir::Value* o : g.outputs())
    if (reached.count(o)) outputs.push_back(o->name());
  inputs.push_back(v->name());
  std::unordered_set<const ir::Value*> seen{v};
  std::vector<const ir::Value*> work;
  for (const auto& name : outputs) work.push_back(g.findValue(name));
  while (!work.empty()) {
    const ir::Value* x = work.back();
    work.pop_back();
    if (!x || !seen.insert(x).second) continue;
    if (x->isGraphInput() && !x->initializer()) inputs.push_back(x->name());
    if (const ir::Node* p = x->producer()) {
      for (const ir::Value* in : p->inputs()) work.push_back(in);
      for (ir::Graph* body : p->subgraphs())
        for (const auto& name : body->capturedNames()) work.push_back(g.findValue(name));
    }
  }
}

class Extract : public EditVerb {
 public:
  explicit Extract(bool cut) : cut_(cut) {}
  std::vector<EditArg> args() const override {
    if (cut_) return {{"value", true, "the value to cut at"}, {"side", true, "before or after"}};
    return {{"outputs", true, "values the new model computes, comma-separated"},
            {"inputs", false, "values it starts from, comma-separated (default: the graph inputs needed)"}};
  }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    std::string why;
    return cutModel(m, e, why) ? std::nullopt : std::optional(why);
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    std::string why;
    auto cut = cutModel(m, e, why);
    if (!cut) throw EditError(e, why);
    struct Record {
      std::shared_ptr<ir::Graph> graph;
      std::vector<ir::OpsetImport> opsets;
      std::vector<std::pair<std::string, std::string>> metadata;
    };
    auto rec = std::make_shared<Record>(Record{m.graphPtr(), m.opsets, m.metadata});
    Applied out;
    out.notes.push_back("kept " + std::to_string(cut->graph().nodeCount()) + " of " +
                        std::to_string(m.graph().nodeCount()) + " nodes, " +
                        std::to_string(cut->graph().inputs().size()) + " inputs, " +
                        std::to_string(cut->graph().outputs().size()) + " outputs");
    m.setGraph(cut->graphPtr());
    m.opsets = cut->opsets;
    m.metadata = cut->metadata;
    // The old graph is what this edit changed: all of it, in the worst case (its weights' bytes are shared).
    out.undo = {[rec](ir::Model& model) {
                  model.setGraph(rec->graph);
                  model.opsets = rec->opsets;
                  model.metadata = rec->metadata;
                },
                sizeof(Record) + rec->graph->nodeCount() * (sizeof(ir::Node) + 64) +
                    rec->graph->valueCount() * (sizeof(ir::Value) + 32)};
    return out;
  }

 private:
  bool cut_;
  std::unique_ptr<ir::Model> cutModel(const ir::Model& m, const Edit& e, std::string& why) const {
    std::vector<std::string> outputs, inputs;
    if (cut_) {
      const ir::Value* v = findLiveValue(m.graph(), e.get("value"));
      if (!v) {
        why = noValue(m, e.get("value"));
        return nullptr;
      }
      const std::string side = e.get("side");
      if (side == "before") {
        outputs.push_back(v->name());
      } else if (side == "after") {
        sidesAfter(m.graph(), v, outputs, inputs);
        if (outputs.empty()) {
          why = "no graph output is computed from " + q(v->name());
          return nullptr;
        }
      } else {
        why = "side must be before or after, not " + q(side);
        return nullptr;
      }
    } else {
      outputs = splitList(e.get("outputs"));
      inputs = splitList(e.get("inputs"));
    }
    try {
      // The cut's inputs and outputs need types: inference gives them on a copy, the model is not touched.
      auto typed = m.clone();
      passes::refreshValueTypes(*typed);
      return eval::extractSubgraph(*typed, outputs, inputs);
    } catch (const std::exception& ex) {
      why = ex.what();
      return nullptr;
    }
  }
};

}  // namespace

void registerExtractEdits(EditRegistry& r) {
  r.add({"extract", "Replace the model by the subgraph computing outputs= from inputs= (they become graph inputs)",
         std::make_shared<Extract>(false)});
  r.add({"cut", "Replace the model by everything before (side=before) or after (side=after) a value",
         std::make_shared<Extract>(true)});
}

}  // namespace fb::edit
