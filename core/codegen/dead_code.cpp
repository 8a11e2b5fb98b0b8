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

void noStatement(PyNode& p, const std::string& expression, const std::string& why) {
  p.alias(0, expression);
  p.note("no statement: " + why);
}

}  // namespace fb::codegen
