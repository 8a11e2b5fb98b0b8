// libFuzzer harness: bytes -> a .onnx file -> both ONNX read paths: the mapped one (readOnnxFile: top-level
// raw_data stays in the map as zero-copy buffers) and the inline one (the whole protobuf parsed, tensors copied
// out), then every tensor's bytes, the summary and libonnx shape inference behind its gate. Errors (InputError)
// are expected; crashes, hangs, leaks and sanitizer reports are findings.
#include <cstdint>
#include <filesystem>

#include "check/onnx_check.h"
#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = fb::fuzz::scratchDir("onnx") + "/model.onnx";
  fb::fuzz::writeFile(path, data, size);
  try {
    auto model = fb::onnxfmt::readOnnxFile(path);
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
    fb::fuzz::touchModel(*model);
  } catch (const std::exception&) {
  }
  return 0;
}
