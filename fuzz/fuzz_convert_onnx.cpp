// libFuzzer harness: what `inspect`, `check` and `convert` do with an ONNX file. The first byte picks the
// target opset (7, 11, 13 or 17), the rest is the .onnx file: read, every weight read, summary, libonnx shape
// inference behind its gate, the dry run, the conversion with the default passes and the final check, and the
// result serialized as the writer would.
#include <cstdint>

#include "check/onnx_check.h"
#include "formats/onnx/onnx_reader.h"
#include "convert_and_serialize.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const int64_t opsets[] = {7, 11, 13, 17};
  const std::string path = fb::fuzz::scratchDir("convert-onnx") + "/model.onnx";
  fb::fuzz::writeFile(path, data + 1, size - 1);
  try {
    auto model = fb::onnxfmt::readOnnxFile(path);
    fb::fuzz::touchModel(*model);
    (void)fb::inferShapes(*model);
    (void)fb::checkModel(*model);
    fb::fuzz::convertAndSerialize(*model, opsets[data[0] % 4]);
  } catch (const std::exception&) {
  }
  return 0;
}
