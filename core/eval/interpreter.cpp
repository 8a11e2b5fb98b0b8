#include "eval/interpreter.h"

#include <stdexcept>
#include <unordered_map>

#include "eval/kernels.h"

namespace fb::eval {

std::map<std::string, Array> runGraph(const ir::Model& m, const std::map<std::string, Array>& inputs) {
  const ir::Graph& g = m.graph();
  const int64_t opset = m.opsetVersion("");
  std::unordered_map<const ir::Value*, Array> env;
  for (const auto& t : g.initializers()) env[g.findValue(t->name)] = Array::fromTensor(*t);
  for (ir::Value* v : g.inputs()) {
    auto it = inputs.find(v->name());
    if (it != inputs.end())
      env[v] = it->second;
    else if (!v->initializer())
      throw std::invalid_argument("no value for graph input '" + v->name() + "'");
  }
  for (const auto& n : g.nodes()) {
    std::vector<const Array*> ins;
    for (ir::Value* v : n->inputs()) {
      if (!v) {
        ins.push_back(nullptr);
        continue;
      }
      auto it = env.find(v);
      if (it == env.end()) throw std::invalid_argument("value '" + v->name() + "' used before it is computed");
      ins.push_back(&it->second);
    }
    auto outs = evaluate(*n, ins, opset);
    for (size_t k = 0; k < outs.size() && k < n->outputs().size(); ++k)
      if (n->output(k)) env[n->output(k)] = std::move(outs[k]);
  }
  std::map<std::string, Array> out;
  for (ir::Value* v : g.outputs()) {
    auto it = env.find(v);
    if (it == env.end()) throw std::invalid_argument("graph output '" + v->name() + "' is never computed");
    out[v->name()] = it->second;
  }
  return out;
}

}  // namespace fb::eval
