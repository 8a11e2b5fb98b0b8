#pragma once
// What the Pad-into-Conv and Pad-into-AveragePool fusions share: reading a zero-filling constant-mode Pad, and
// adding its spatial pads to the consumer's own `pads`.
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/node.h"

namespace fb::passes {

// The pads (2*rank, ONNX order: all begins, then all ends) of a constant-mode Pad that fills with zeros, from the
// attribute or the constant inputs as `opset` spells them; nullopt for any other Pad (and for Pad-18's axes input).
std::optional<std::vector<int64_t>> zeroFillPads(const ir::Node& pad, int64_t opset);

// Adds a Pad's spatial pads to a node's own `pads` (2*(rank-2), empty for none yet). False, with `nodePads` as it
// was, when the Pad touches the batch or channel axis, pads negatively, or the sizes disagree.
bool addSpatialPads(std::vector<int64_t>& nodePads, const std::vector<int64_t>& pads, size_t rank);

}  // namespace fb::passes
