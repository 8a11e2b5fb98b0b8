// libFuzzer harness: bytes -> a .onnx file -> both ONNX read paths: the mapped one (readOnnxFile: the main graph
// decoded from the wire bytes straight into the IR, raw_data left in the map as zero-copy buffers) and the inline
// one (the whole protobuf parsed, tensors copied out), then every tensor's bytes, the summary and libonnx shape
// inference behind its gate. Errors (InputError) are expected; crashes, hangs, leaks and sanitizer reports are
// findings, and so is a model the two paths read differently (written back, they must give the same bytes).
#include <cstdint>
#include <filesystem>

#include "check/onnx_check.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = fb::fuzz::scratchDir("onnx") + "/model.onnx";
  fb::fuzz::writeFile(path, data, size);
  std::string mappedBytes, inlineBytes;
  try {
    auto model = fb::onnxfmt::readOnnxFile(path);
    onnx::ModelProto back;
    fb::onnxfmt::exportModel(*model, back);
    mappedBytes = back.SerializeAsString();
    fb::fuzz::touchModel(*model);
    (void)fb::inferShapes(*model);
  } catch (const std::exception&) {
  }
  try {
    onnx::ModelProto proto;
    fb::onnxfmt::parseOnnxProtoFile(path, proto);
    fb::onnxfmt::ImportOptions opts;
    opts.modelPath = path;
    opts.modelDir = std::filesystem::path(path).parent_path().string();
    auto model = fb::onnxfmt::importModel(proto, opts);
    onnx::ModelProto back;
    fb::onnxfmt::exportModel(*model, back);
    inlineBytes = back.SerializeAsString();
    fb::fuzz::touchModel(*model);
  } catch (const std::exception&) {
  }
  if (!mappedBytes.empty() && !inlineBytes.empty() && mappedBytes != inlineBytes) __builtin_trap();
  return 0;
}
