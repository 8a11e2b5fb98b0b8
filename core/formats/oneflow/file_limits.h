#pragma once
// How large each kind of file in a OneFlow model folder may be. Checked on the opened descriptor's size before
// anything is read or allocated, so a huge (or sparse) file is refused at once instead of being read whole.
// Weight files (`out`, format C's single pickle) have no limit here: they are mapped, not read, and must match the
// size their shape declares.
#include <climits>
#include <cstdint>

namespace fb::oneflow {

// A text VariableMetaInfo: a shape and a data type, a few hundred bytes even for a rank-64 shape.
inline constexpr uint64_t kMaxMetaBytes = uint64_t{1} << 20;
// Job, JobSet and SavedModel protobufs, binary or text. They hold the graph, never the weights; protobuf itself
// cannot parse a message past 2 GiB, so nothing larger could be read anyway.
inline constexpr uint64_t kMaxGraphBytes = INT_MAX;
// Format B's pickled_data: the saved object's structure, tensors being folder names (about 100 bytes per tensor).
inline constexpr uint64_t kMaxPickledDataBytes = uint64_t{256} << 20;

}  // namespace fb::oneflow
