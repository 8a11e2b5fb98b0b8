#include "eval/runtime/node_eval.h"

#include "eval/runtime/exec_context.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/run_error.h"
#include "ir/graph.h"

namespace fb::eval {

bool canEvaluate(const ir::Node& n, int64_t opset) {
  return n.isDefaultDomain() && n.subgraphs().empty() && KernelRegistry::instance().find(n.opType, opset);
}

std::vector<Tensor> evaluateNode(const ir::Node& n, const std::vector<const Tensor*>& inputs, int64_t opset) {
  if (!n.subgraphs().empty()) unsupported(n.opType + " runs a body: it is evaluated in a run, not on its own");
  static const ir::Model noFunctions;
  RunOptions options;
  options.threads = 1;
  ExecContext ctx(noFunctions, options);
  std::vector<Value> values;
  values.reserve(inputs.size());
  std::vector<const Value*> ptrs;
  for (const Tensor* t : inputs) {
    if (!t) {
      ptrs.push_back(nullptr);
      continue;
    }
    values.emplace_back(*t);
    ptrs.push_back(&values.back());
  }
  const ir::Graph* g = n.graph();
  static const ir::Graph empty;
  Scope scope(g ? *g : empty, nullptr);
  std::vector<Value> outs = ctx.evaluateOne(n, ptrs, opset, scope);
  std::vector<Tensor> result;
  result.reserve(outs.size());
  for (Value& v : outs) result.push_back(v.tensor());
  return result;
}

}  // namespace fb::eval
