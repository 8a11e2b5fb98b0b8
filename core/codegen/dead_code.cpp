#include "codegen/dead_code.h"

#include "ir/node.h"

namespace fb::codegen {

bool hasSubgraphReaders(const ir::Graph& g) {
  for (const auto& n : g.nodes())
    if (!n->subgraphs().empty()) return true;
  return false;
}

bool isConsumed(const ir::Value* v) {
  if (!v) return false;
  if (!v->uses().empty() || v->isGraphOutput()) return true;
  return !v->graph() || hasSubgraphReaders(*v->graph());
}

}  // namespace fb::codegen
