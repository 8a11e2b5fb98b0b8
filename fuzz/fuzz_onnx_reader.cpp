// libFuzzer harness: bytes -> a .onnx file -> the ONNX reader, then what `inspect`, `check` and `render` do with
// a model that reads: summary, shape inference behind its gate, the conversion dry run. Errors are expected;
// crashes, hangs, leaks and sanitizer reports are findings.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "check/onnx_check.h"
#include "convert/converter.h"
#include "formats/onnx/onnx_reader.h"
#include "inspect/model_summary.h"
#include "util/protobuf_log.h"

namespace {
std::string scratchFile() {
  static const std::string path = [] {
    char dir[] = "/tmp/fb-fuzz-onnx-XXXXXX";
    return std::string(::mkdtemp(dir)) + "/model.onnx";
  }();
  return path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fb::installProtobufLogHandler();
  const std::string path = scratchFile();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    auto model = fb::onnxfmt::readOnnxFile(path);
    (void)fb::summarize(*model);
    (void)fb::inferShapes(*model);
    fb::convert::ConvertOptions opts;
    opts.targetOpset = 11;
    (void)fb::convert::dryRun(*model, opts);
  } catch (const std::exception&) {
  }
  return 0;
}
