#pragma once
// Reads an .onnx file from a memory map straight into the IR, without building protobuf's message tree for the
// main graph: nodes, their attributes and the initializers are decoded from the wire format, and raw_data stays in
// the map as zero-copy tensor buffers. Opening a 1 GB model then costs what its small fields cost, and a graph of
// 100k nodes costs about one pass over its bytes plus the IR itself.
//
// Messages of a kind or shape this decoder does not take apart (subgraph attributes, typed or external tensor
// data, fields newer than onnx 1.12, value infos, model metadata, functions) are parsed by protobuf one message
// at a time and imported by the same code as the ordinary reader, so both readers give the same model.
#include <memory>
#include <string>

#include "formats/onnx/onnx_proto_import.h"
#include "ir/model.h"

namespace fb::onnxfmt {

// Returns null when the file has a layout this path does not handle or bytes protobuf would reject: the caller
// then reads it the ordinary way, which names the damage. Throws InputError for files that cannot be opened and
// for models that are not valid (the same reasons as importModel).
std::unique_ptr<ir::Model> readMappedModel(const std::string& path, const ImportOptions& opts);

}  // namespace fb::onnxfmt
