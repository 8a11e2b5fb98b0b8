#include "passes/value_types.h"

#include <string>
#include <unordered_map>

#include "check/onnx_check.h"

namespace fb::passes {

bool typeIncomplete(const ir::TypeInfo& t) {
  if (t.kind == ir::TypeInfo::Kind::None) return true;
  if (!t.isTensor()) return false;
  if (t.elemType == ir::DataType::Undefined || !t.shape) return true;
  for (const auto& d : *t.shape)
    if (d.kind == ir::Dim::Kind::Unknown || (d.kind == ir::Dim::Kind::Param && d.param.starts_with("unk__")))
      return true;
  return false;
}

namespace {

// A body (If/Loop/Scan) reads values of the graphs around it by name, through values of its own that carry no
// type. Such a value is the same tensor in every iteration and branch, so its type is the outer value's: with it,
// Shape of a captured value folds inside the body as in the main graph. Values the body makes itself (a Loop's
// carried state, whose shape may change from one iteration to the next) get nothing from here.
size_t typeCapturedValues(ir::Graph& g) {
  size_t n = 0;
  for (const auto& node : g.nodes())
    for (ir::Graph* body : node->subgraphs()) {
      for (ir::Value* v : body->values()) {
        if (!v->isOuterScope() || v->type.kind != ir::TypeInfo::Kind::None) continue;
        const ir::Value* outer = g.findValueInScope(v->name());
        if (!outer || typeIncomplete(outer->type)) continue;
        v->type = outer->type;
        ++n;
      }
      n += typeCapturedValues(*body);
    }
  return n;
}

}  // namespace

size_t refreshValueTypes(ir::Model& m) {
  size_t n = 0;
  try {
    BranchTypes branches;
    auto types = inferShapes(m, nullptr, &branches);
    ir::Graph& g = m.graph();
    // A value keeps what the file declares where it is an input, an output or an initializer of its graph.
    auto take = [&](ir::Graph& graph, const std::unordered_map<std::string, ir::TypeInfo>& inferred) {
      for (const auto& [name, type] : inferred) {
        ir::Value* v = graph.findValue(name);
        if (!v || v->isOuterScope() || v->isGraphInput() || v->isGraphOutput() || v->initializer() ||
            type.kind == ir::TypeInfo::Kind::None)
          continue;
        v->type = type;
        ++n;
      }
    };
    take(g, types);
    for (const auto& [branch, inferred] : branches) take(*const_cast<ir::Graph*>(branch), inferred);  // graphs of m
    n += typeCapturedValues(g);  // after the branches: a body inside a branch may read what the branch made
  } catch (const std::exception&) {
  }
  return n;
}

}  // namespace fb::passes
