#pragma once
// load_original_state_dict in model.py: what a name-based copy of the source PyTorch module's state_dict cannot do.
#include <string>
#include <vector>

#include "codegen/flavour.h"
#include "codegen/module_builder.h"

namespace fb::codegen {

// The Python text of `load_original_state_dict(module, state_dict, bn_eps=1e-05)` and the table it reads
// (FOLDED_BATCH_NORMS: the Conv weight/bias keys the export folded a BatchNorm into), or an empty string when no
// weight lives in the exporter's module tree (there is no source state_dict to speak of).
std::string loadOriginalStateDictCode(const std::vector<Weight>& weights, Flavour flavour);

}  // namespace fb::codegen
