#include "ir/op_counts.h"

namespace fb::ir {
namespace {

void addOps(const Graph& g, std::map<std::string, size_t>& out) {
  for (const auto& n : g.nodes()) {
    ++out[n->qualifiedOp()];
    for (const Graph* sub : n->subgraphs()) addOps(*sub, out);
  }
}

}  // namespace

std::map<std::string, size_t> countOps(const Graph& g) {
  std::map<std::string, size_t> out;
  addOps(g, out);
  return out;
}

}  // namespace fb::ir
