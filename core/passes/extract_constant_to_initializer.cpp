// Constant nodes become initializers of the same name: fewer nodes, and every later pass sees one kind of
// constant. A Constant that is itself a graph output stays a node (an output must be computed).
#include "eval/array.h"
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

std::optional<ir::Tensor> valueOf(const ir::Node& n) {
  if (auto* a = n.attr("value"); a && a->type == ir::AttrType::Tensor && !a->tensors.empty()) return a->tensors[0];
  if (auto* a = n.attr("value_float")) return eval::Array::floats({}, {a->f}).toTensor("");
  if (auto* a = n.attr("value_floats"))
    return eval::Array::floats({static_cast<int64_t>(a->floats.size())}, {a->floats.begin(), a->floats.end()}).toTensor("");
  if (auto* a = n.attr("value_int")) return eval::Array::ints({}, {a->i}).toTensor("");
  if (auto* a = n.attr("value_ints")) return eval::Array::ints({static_cast<int64_t>(a->ints.size())}, a->ints).toTensor("");
  return std::nullopt;  // sparse and string constants stay nodes
}

class ExtractConstantToInitializer final : public Pass {
 public:
  std::string_view name() const override { return "extract_constant_to_initializer"; }
  std::string_view description() const override { return "Turn Constant nodes into initializers of the same name"; }
  PassChange run(ir::Model& m) override {
    ir::Graph& g = m.graph();
    Rewriter rw(m, g);
    for (ir::Node* n : nodeList(g)) {
      if (n->opType != "Constant" || !n->isDefaultDomain() || n->outputs().size() != 1) continue;
      ir::Value* out = n->output(0);
      if (!out || out->isGraphOutput()) continue;
      auto t = valueOf(*n);
      if (!t) continue;
      t->name = out->name();
      rw.erase(n);
      g.addInitializer(std::move(*t));
      out->type = ir::TypeInfo::tensor(out->initializer()->dtype, [&] {
        ir::Shape s;
        for (auto d : out->initializer()->dims) s.push_back(ir::Dim::of(d));
        return s;
      }());
      ++rw.change.initializersAdded;
    }
    return rw.change;
  }
};

}  // namespace
void registerExtractConstantToInitializer(bool inDefault) { registerPass<ExtractConstantToInitializer>(inDefault); }
}  // namespace fb::passes
