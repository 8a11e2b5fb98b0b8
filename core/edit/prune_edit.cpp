// Deleting everything the graph's outputs do not need: nodes no output depends on, and the weights only they read.
#include <memory>
#include <unordered_set>

#include "edit/edit_support.h"
#include "edit/edit_verb.h"

namespace fb::edit {

namespace {

std::vector<ir::Node*> deadNodes(const ir::Graph& g) {
  std::unordered_set<const ir::Node*> live;
  std::vector<const ir::Value*> work(g.outputs().begin(), g.outputs().end());
  while (!work.empty()) {
    const ir::Value* v = work.back();
    work.pop_back();
    if (!v || !v->producer() || !live.insert(v->producer()).second) continue;
    const ir::Node* n = v->producer();
    for (const ir::Value* in : n->inputs()) work.push_back(in);
    for (ir::Graph* body : n->subgraphs())
      for (const auto& name : body->capturedNames()) work.push_back(g.findValue(name));
  }
  std::vector<ir::Node*> dead;
  for (const auto& n : g.nodes())
    if (!live.count(n.get())) dead.push_back(n.get());
  return dead;
}

class Prune : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {}; }
  std::optional<std::string> check(const ir::Model&, const Edit&) const override { return std::nullopt; }
  Applied apply(ir::Model& m, const Edit&) const override {
    ir::Graph& g = m.graph();
    struct Record {
      std::vector<NodeSnapshot> nodes;
      std::vector<ir::Tensor> weights;
    };
    auto rec = std::make_shared<Record>();
    const auto dead = deadNodes(g);
    std::unordered_set<ir::Value*> read;
    for (ir::Node* n : dead)
      for (ir::Value* in : n->inputs())
        if (in && in->initializer()) read.insert(in);
    rec->nodes = takeOutNodes(m, dead);
    std::vector<ir::Value*> unused;
    for (const auto& t : g.initializers()) {
      ir::Value* v = g.findValue(t->name);
      if (v && read.count(v) && v->uses().empty() && !v->isGraphOutput() && !v->isGraphInput()) {
        unused.push_back(v);
        rec->weights.push_back(*t);
      }
    }
    if (!unused.empty() && capturedAnywhere(m, unused)) unused.clear(), rec->weights.clear();
    g.removeInitializers(unused);
    Applied out;
    out.notes.push_back("removed " + std::to_string(rec->nodes.size()) + " nodes and " +
                        std::to_string(rec->weights.size()) + " weights the outputs do not need");
    size_t bytes = sizeof(Record);
    for (const auto& s : rec->nodes) bytes += s.bytes();
    for (const auto& t : rec->weights) bytes += sizeof(t) + t.expectedBytes();
    out.undo = {[rec](ir::Model& model) {
                  ir::Graph& graph = model.graph();
                  for (const auto& t : rec->weights) graph.addInitializer(t);
                  putBackNodes(graph, rec->nodes);
                },
                bytes};
    return out;
  }

 private:
  static bool capturedAnywhere(const ir::Model& m, const std::vector<ir::Value*>& vs) {
    for (const ir::Value* v : vs)
      if (capturedBySubgraph(m, v->name())) return true;
    return false;
  }
};

}  // namespace

void registerPruneEdit(EditRegistry& r) {
  r.add({"prune", "Delete every node (and weight) the graph's outputs do not need", std::make_shared<Prune>()});
}

}  // namespace fb::edit
