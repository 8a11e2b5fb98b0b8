#pragma once
// Where a set of nodes meets the rest of its graph: what Extract Subgraph... cuts a selection at. Its inputs are
// the values the nodes read that none of them computes (weights, and values computed from weights only, excepted:
// the cut carries them), its outputs the values the nodes compute that something outside them reads, or that are
// graph outputs.
#include <string>
#include <vector>

namespace fb::ir {
class Node;
}

namespace fb::eval {

struct SelectionEnds {
  std::vector<std::string> inputs;   // in the order the nodes (in graph order) first read them
  std::vector<std::string> outputs;  // in graph order
};

// `nodes` belong to one graph (a main graph: bodies' reads of outer values count as reads of their node).
SelectionEnds endsOfSelection(const std::vector<const ir::Node*>& nodes);

}  // namespace fb::eval
