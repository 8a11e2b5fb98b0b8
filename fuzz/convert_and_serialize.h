#pragma once
// The part both conversion harnesses share: the dry run, the conversion with the default passes and its check,
// and the result serialized as the writer would, so that a converted model the writer cannot take shows up.
#include <cstdint>

#include "convert/converter.h"
#include "formats/onnx/onnx_proto_export.h"
#include "ir/model.h"

namespace fb::fuzz {

inline void convertAndSerialize(const ir::Model& model, int64_t targetOpset) {
  convert::ConvertOptions opts;
  opts.direction = convert::directionFor(model);
  opts.targetOpset = targetOpset;
  (void)convert::dryRun(model, opts);
  auto result = convert::convertModel(model, opts);
  if (!result.model) return;
  onnx::ModelProto out;
  onnxfmt::exportModel(*result.model, out);
  volatile size_t n = out.SerializeAsString().size();
  (void)n;
}

}  // namespace fb::fuzz
