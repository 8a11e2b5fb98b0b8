#pragma once
// A variable's `meta` file (docs: oneflow-checkpoint-format.md 1.1), as format A folders and format B tensor folders
// hold it beside `out`.
#include <cstdint>
#include <string>
#include <vector>

namespace fb::oneflow {

struct VariableMeta {
  std::vector<int64_t> dims;
  int dataType = 0;  // OneFlow's DataType number
};

// Opens `path` inside `containDir` (checked on the descriptor; no check when empty), refuses it past kMaxMetaBytes
// before reading, and parses it as a text VariableMetaInfo. Throws InputError(path, "<what>: <reason>").
VariableMeta readVariableMeta(const std::string& path, const std::string& containDir, const std::string& what);

}  // namespace fb::oneflow
