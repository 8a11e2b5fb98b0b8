#pragma once
// The default-domain ONNX opsets a conversion can write.
#include <cstdint>

#include "schema/opsets.h"

namespace fb::convert {

// Supported target range for ONNX opsets (18-26 through FlowBridge's own schema table and adapters).
inline constexpr int64_t kMinOpset = 7;
inline constexpr int64_t kMaxOpset = schema::kNewestOpset;
// Dialect conversions (OneFlow -> ONNX) write the ops of opsets up to 17, which libonnx checks.
inline constexpr int64_t kMaxDialectOpset = 17;

}  // namespace fb::convert
