#pragma once
// Parses an .onnx file from a memory map without copying the top-level initializers' raw_data: those
// stay in the map and become zero-copy tensor buffers. Opening a 1 GB model then costs what its small
// fields cost, and memory grows only with the pages a caller actually reads.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <google/protobuf/arena.h>
#include <onnx/onnx_pb.h>

#include "util/mapped_file.h"

namespace fb::onnxfmt {

struct MappedModelProto {
  // The parsed messages live in an arena: a node-heavy graph is hundreds of thousands of small messages, which
  // the arena allocates in blocks and frees at once.
  std::unique_ptr<google::protobuf::Arena> arena;
  onnx::ModelProto* proto = nullptr;  // in `arena`; complete except for the raw_data of the initializers in `rawData`
  std::shared_ptr<const MappedFile> file;
  // Per graph initializer (by index): where its raw_data lies in the file; length 0 when it was parsed normally.
  struct Span {
    size_t offset = 0;
    size_t length = 0;
  };
  std::vector<Span> rawData;
};

// Returns false when the file has a layout this fast path does not handle (the caller then parses it the
// ordinary way); throws InputError only for files that cannot be opened.
bool parseMappedModel(const std::string& path, MappedModelProto& out);

}  // namespace fb::onnxfmt
