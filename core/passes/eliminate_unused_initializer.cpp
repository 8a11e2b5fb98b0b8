// Initializers nothing reads only weigh the file down. One that is also a graph input (IR < 4 style) is
// dropped from the inputs as well, as onnxoptimizer does: it was only an overridable default.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class EliminateUnusedInitializer final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_unused_initializer"; }
  std::string_view description() const override { return "Remove initializers that no node or output reads"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    std::vector<ir::Value*> unused, inputs;
    for (const auto& t : g.initializers()) {
      ir::Value* v = g.findValue(t->name);
      if (!v || !v->uses().empty() || rw.pinned(v)) continue;
      unused.push_back(v);
      if (v->isGraphInput()) inputs.push_back(v);
    }
    // One sweep each: removing them one by one made the pass quadratic in the number of initializers.
    g.removeInputs(inputs);
    g.removeInitializers(unused);
    rw.change.initializersRemoved += unused.size();
    return rw.change;
  }
};

}  // namespace
void registerEliminateUnusedInitializer(bool inDefault) { registerPass<EliminateUnusedInitializer>(inDefault); }
}  // namespace fb::passes
