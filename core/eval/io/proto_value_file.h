#pragma once
// Values in ONNX's own files: a TensorProto, SequenceProto or OptionalProto per `.pb` file, as ONNX's backend
// tests store their inputs and expected outputs (test_data_set_0/input_0.pb) and as `extract --with-data`
// writes reproducers.
#include <string>

#include "eval/runtime/value.h"
#include "ir/type_info.h"

namespace fb::eval {

// Reads `path` as the kind `expected` names (a TensorProto when it names none). Throws InputError naming the file
// when it cannot be read or parsed. Tensors read this way own their bytes.
Value readProtoValueFile(const std::string& path, const ir::TypeInfo* expected = nullptr);

// Writes `v` (a tensor, sequence of tensors, or empty optional) as the matching proto, named `name`, atomically.
void writeProtoValueFile(const std::string& path, const Value& v, const std::string& name);

}  // namespace fb::eval
