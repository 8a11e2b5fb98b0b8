#include "codegen/folded_constants.h"

#include <set>
#include <string>

#include "codegen/py_node.h"
#include "eval/eval_budget.h"
#include "eval/runtime/node_eval.h"
#include "eval/runtime/run_error.h"

namespace fb::codegen {
namespace {

// No folded value is larger than this (elements): past it, the code that computes it is shorter than the buffer.
constexpr int64_t kMaxFoldedElements = 1024;

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
    if (!t || t->dtype == ir::DataType::String || t->numElements() > kMaxFoldedElements) return false;
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
  std::vector<uint64_t> nodes = p.mb.takeCredits();
  nodes.push_back(n.id());
  for (size_t i = 0; i < n.outputs().size(); ++i)
    if (p.outUsed(i)) p.mb.foldConstant(n.output(i), outs[i].toModel(n.output(i)->name()), nodes);
  p.note("folded: computed from constants at generation time");
  return true;
}

}  // namespace fb::codegen
