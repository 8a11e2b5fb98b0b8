#pragma once
// Which default-domain opsets FlowBridge knows and where its sources of schema knowledge meet: libonnx 1.12's
// schemas stop at kLibonnxMaxOpset; FlowBridge's own facts (opsets_18_26/) carry on to kNewestOpset.
#include <cstdint>

namespace fb::schema {

inline constexpr int64_t kLibonnxMaxOpset = 17;
inline constexpr int64_t kNewestOpset = 26;

// IR version that goes with a default-domain opset (26 <-> IR 13, 23 <-> 11, 21 <-> 10, 19 <-> 9, 17 <-> 8,
// 13 <-> 7, 11 <-> 6, 9 <-> 4, ...).
int64_t irVersionForOpset(int64_t opset);

}  // namespace fb::schema
