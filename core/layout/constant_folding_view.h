#pragma once
// What the drawn graph leaves out, as Netron does: Constant nodes, and Identity nodes that only alias an
// initializer (or such a constant), are folded into the nodes that consume them. The consumer then lists
// the folded inputs (and its initializer inputs) as short lines: "W 256×256", "axes = [1]". Only the
// picture changes; the model keeps every node.
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fb::ir {
class Graph;
class Node;
class Tensor;
class Value;
}  // namespace fb::ir

namespace fb::layout {

struct FoldedInput {
  int input = 0;                     // index among the consumer's inputs
  const ir::Value* value = nullptr;  // the tensor the consumer reads
  std::string text;                  // "W 256×256", "axes = [1]"
};

struct ConstantFolding {
  std::unordered_set<const ir::Node*> folded;                              // not drawn
  std::unordered_map<const ir::Node*, const ir::Node*> consumerOf;         // folded node -> a drawn consumer
  std::unordered_map<const ir::Node*, std::vector<FoldedInput>> inputsOf;  // drawn node -> folded inputs
  // The drawn node that shows `n`: itself, or the consumer it is folded into.
  const ir::Node* shownAs(const ir::Node* n) const;
};

// Folds what can be folded in `g` (its own nodes; subgraphs are graphs of their own).
ConstantFolding foldConstantsForView(const ir::Graph& g);

// The weight a value stands for: its initializer, or for a value a body reads from the graphs around it,
// the initializer it names there (nullptr for anything computed, or a graph input).
const ir::Tensor* initializerOf(const ir::Value* v);

// What a value holds before the graph runs, through what the view folds away: its weight (initializerOf), or the
// weight or constant that a chain of Identity nodes (and a Constant node) passes on to it; nullptr for anything
// computed. `source`, when given, is set to the value the tensor belongs to (the aliased weight, the Constant's
// output; `v` itself for its own weight).
const ir::Tensor* foldedTensorOf(const ir::Value* v, const ir::Value** source = nullptr);

// "= 0.5", "= [1, -1]" for a small numeric tensor, "256×256" otherwise.
std::string describeTensor(const ir::Tensor& t);

}  // namespace fb::layout
