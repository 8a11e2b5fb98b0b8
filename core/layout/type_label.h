#pragma once
// The short form of a tensor type drawn on an edge: "float[batch…,seq…,256]". Long symbolic dims
// (PyTorch writes names like "sequence_length" or "Reshape_123_dim_0") are cut so labels stay small;
// the full type stays in the tooltip.
#include <string>

namespace fb::ir {
struct TypeInfo;
}

namespace fb::layout {

std::string shortTypeLabel(const ir::TypeInfo& t, size_t maxDimChars = 6);

}  // namespace fb::layout
