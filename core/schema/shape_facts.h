#pragma once
// What libonnx's shape inference with data propagation knows about a model before it is converted: the
// type of every value it could infer, and the contents of small integer values computed from static
// shapes (Shape -> Gather -> Mul ... chains), which older opsets need as attributes. The same for the
// values defined inside If/Loop/Scan bodies, which see the facts of the outer values they read.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/model.h"

namespace fb::schema {

struct ShapeFacts {
  std::unordered_map<std::string, ir::TypeInfo> types;                // main-graph value name -> type
  std::unordered_map<std::string, std::vector<int64_t>> shapeValues;  // value name -> contents (all known)

  // Facts of the values a subgraph defines, per subgraph (key: bodyKey). Kept apart from the main graph's
  // because two bodies (an If's branches) may use the same names.
  struct Body {
    std::unordered_map<std::string, ir::TypeInfo> types;
    std::unordered_map<std::string, std::vector<int64_t>> shapeValues;
  };
  std::unordered_map<std::string, Body> bodies;

  std::vector<std::string> warnings;
  // Set once per model: why libonnx's inference must not run on it (see check/inference_gate.h).
  bool inferenceChecked = false;
  std::optional<std::string> inferenceBlocked;

  // The facts of a value of `main` or of any subgraph under it (a value a body reads from an enclosing
  // graph has the facts of that outer value); null when nothing is known or `v` is in another model.
  const ir::TypeInfo* typeOf(const ir::Value* v, const ir::Graph& main) const;
  const std::vector<int64_t>* valuesOf(const ir::Value* v, const ir::Graph& main) const;
};

// Names a subgraph of `main` by its path of owners: "" for `main`, then per level "/<owner's first output>:
// <attribute>#<index>". Stable across Model::clone and ONNX export (names and attribute order are kept).
// nullopt for a graph that is not under `main`.
std::optional<std::string> bodyKey(const ir::Graph& g, const ir::Graph& main);

// Never throws: what inference could not do becomes a warning.
ShapeFacts inferShapeFacts(const ir::Model& m);

}  // namespace fb::schema
