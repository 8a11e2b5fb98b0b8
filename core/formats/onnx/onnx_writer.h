#pragma once
// Writes the IR as an .onnx file, atomically, with tensors inline or in one side file.
#include <cstdint>
#include <string>

#include "ir/model.h"

namespace fb::onnxfmt {

struct WriteOptions {
  enum class ExternalData {
    Auto,      // side file when the tensors would push the file past protobuf's 2 GB limit, else inline
    Inline,    // everything in the .onnx file
    SideFile,  // tensors of at least `sideFileThreshold` bytes go to `<output>.data`
  };
  ExternalData externalData = ExternalData::Auto;
  size_t sideFileThreshold = 1024;
  // Byte budget for the .onnx file under Auto; lowered by tests to exercise the switch cheaply.
  uint64_t autoLimit = (uint64_t{1} << 31) - (uint64_t{64} << 20);
};

struct WriteResult {
  std::string modelPath;
  std::string sideFilePath;  // empty when everything is inline
  uint64_t modelBytes = 0;
  uint64_t sideFileBytes = 0;
};

// Throws OutputError; never leaves a partial file; refuses to write over the model's source files.
WriteResult writeOnnxFile(const ir::Model& m, const std::string& path, const WriteOptions& opts = {});

// Sum of all tensor bytes (initializers and tensor attributes, subgraphs included).
uint64_t totalTensorBytes(const ir::Model& m);

}  // namespace fb::onnxfmt
