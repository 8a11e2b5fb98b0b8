// Constant nodes become initializers of the same name: fewer nodes, and every later pass sees one kind of
// constant. A Constant that is itself the main graph's output stays a node (an output must be computed); a
// body's (If/Loop/Scan) output may be one of its initializers.
#include "eval/runtime/node_eval.h"
#include "eval/runtime/run_error.h"
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

std::optional<ir::Tensor> valueOf(const ir::Node& n, int64_t opset) {
  // A `value` tensor is kept as stored (any element type); the scalar and list forms go through the kernel.
  if (auto* a = n.attr("value"); a && a->type == ir::AttrType::Tensor && !a->tensors.empty()) return a->tensors[0];
  try {
    return eval::evaluateNode(n, {}, opset).at(0).toModel("");
  } catch (const eval::RunError&) {
    return std::nullopt;  // sparse and string constants stay nodes
  }
}

class ExtractConstantToInitializer final : public GraphPass {
 public:
  std::string_view name() const override { return "extract_constant_to_initializer"; }
  std::string_view description() const override { return "Turn Constant nodes into initializers of the same name"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"Constant"}; }
  // A rewrite here reads only the node and whether its output is a graph output.
  int worklistRadius() const override { return 0; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* n : nodesToVisit(g)) {
      if (n->opType != "Constant" || !n->isDefaultDomain() || n->outputs().size() != 1) continue;
      ir::Value* out = n->output(0);
      if (!out || (out->isGraphOutput() && !g.parent())) continue;
      auto t = valueOf(*n, rw.opset());
      if (!t) continue;
      t->name = out->name();
      rw.erase(n);
      g.addInitializer(std::move(*t));
      out->type = tensorTypeOf(*out->initializer());
      ++rw.change.initializersAdded;
    }
    return rw.change;
  }
};

}  // namespace
void registerExtractConstantToInitializer(bool inDefault) { registerPass<ExtractConstantToInitializer>(inDefault); }
}  // namespace fb::passes
