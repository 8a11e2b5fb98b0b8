#include "passes/value_types.h"

#include "check/onnx_check.h"

namespace fb::passes {

size_t refreshValueTypes(ir::Model& m) {
  size_t n = 0;
  try {
    auto types = inferShapes(m);
    ir::Graph& g = m.graph();
    for (auto& [name, type] : types) {
      ir::Value* v = g.findValue(name);
      if (!v || v->isGraphInput() || v->isGraphOutput() || v->initializer() || type.kind == ir::TypeInfo::Kind::None)
        continue;
      v->type = type;
      ++n;
    }
  } catch (const std::exception&) {
  }
  return n;
}

}  // namespace fb::passes
