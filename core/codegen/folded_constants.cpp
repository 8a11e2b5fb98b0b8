#include "codegen/folded_constants.h"

#include <set>
#include <string>

#include "codegen/py_node.h"
#include "codegen/static_values.h"
#include "eval/eval_budget.h"
#include "eval/runtime/node_eval.h"
#include "eval/runtime/run_error.h"

namespace fb::codegen {
namespace {

// No input of a folded node is larger than this (elements); its results are literals (kMaxLiteralElements).
constexpr int64_t kMaxFoldedElements = 1024;

// Types both flavours hold as they are (narrow and unsigned weights keep the handlers' own rules).
bool plainType(ir::DataType t) {
  return t == ir::DataType::Float || t == ir::DataType::Double || t == ir::DataType::Int64 ||
         t == ir::DataType::Int32 || t == ir::DataType::Bool;
}

bool random(const std::string& op) {
  return op.rfind("Random", 0) == 0 || op == "Bernoulli" || op == "Multinomial" || op == "Dropout";
}

}  // namespace

bool foldConstantNode(PyNode& p) {
  const ir::Node& n = p.node;
  if (!n.isDefaultDomain() || !n.subgraphs().empty() || n.inputs().empty() || random(n.opType) ||
      n.opType == "Constant" || n.opType == "Identity" || !eval::canEvaluate(n, p.opset))
    return false;
  std::vector<eval::Tensor> storage;
  storage.reserve(n.inputs().size());
  std::vector<const eval::Tensor*> ins;
  for (size_t i = 0; i < n.inputs().size(); ++i) {
    if (!p.has(i)) continue;
    const ir::Value* v = p.inputValue(i);
    const ir::Tensor* t = p.mb.isBound(v) || p.mb.staticValue(v) ? nullptr : p.mb.constantTensor(v);
    if (!t || !plainType(t->dtype) || t->numElements() > kMaxFoldedElements) return false;
    if (ir::isFloatingPoint(t->dtype) && t->numElements() > 1) return false;  // a trainable weight
    storage.push_back(eval::Tensor::fromModel(*t));
  }
  // Pointers into `storage` once it is complete (reserve keeps them stable anyway).
  ins.resize(n.inputs().size());
  for (size_t i = 0, k = 0; i < n.inputs().size(); ++i) ins[i] = p.has(i) ? &storage[k++] : nullptr;
  std::vector<eval::Tensor> outs;
  try {
    eval::EvalBudget budget = eval::defaultEvalBudget();
    budget.maxArrayElements = kMaxFoldedElements;
    eval::BudgetScope scope(budget);
    outs = eval::evaluateNode(n, ins, p.opset);
  } catch (const std::exception&) {
    return false;  // no kernel for this case, or too large: the handler writes it
  }
  if (outs.size() < n.outputs().size()) return false;
  // Only results of a literal's size: a larger one would become a new weight the source does not have.
  for (size_t i = 0; i < n.outputs().size(); ++i) {
    const eval::Tensor& o = outs[i];
    const bool literal =
        plainType(o.dtype()) && (ir::isFloatingPoint(o.dtype()) ? o.size() == 1 : o.size() <= kMaxLiteralElements);
    if (p.outUsed(i) && !literal) return false;
  }
  std::vector<uint64_t> nodes = p.mb.takeCredits();
  nodes.push_back(n.id());
  for (size_t i = 0; i < n.outputs().size(); ++i)
    if (p.outUsed(i)) p.mb.foldConstant(n.output(i), outs[i].toModel(n.output(i)->name()), nodes);
  p.note("folded: computed from constants at generation time");
  return true;
}

}  // namespace fb::codegen
