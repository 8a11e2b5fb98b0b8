// libFuzzer harness: bytes -> a OneFlow job.pb, job.prototxt or saved_model.pb (the first byte picks which,
// the rest is the file) -> the OneFlow readers and their shape inference -> the conversion dry run.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "convert/converter.h"
#include "formats/oneflow/oneflow_reader.h"
#include "util/protobuf_log.h"

namespace {
const std::string& scratchDir() {
  static const std::string dir = [] {
    char d[] = "/tmp/fb-fuzz-oneflow-XXXXXX";
    std::string s = ::mkdtemp(d);
    std::filesystem::create_directories(s + "/1");
    return s;
  }();
  return dir;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  fb::installProtobufLogHandler();
  static const char* names[] = {"job.pb", "job.prototxt", "1/saved_model.pb", "1/saved_model.prototxt"};
  const std::string path = scratchDir() + "/" + names[data[0] % 4];
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    auto model = fb::oneflow::readOneflow(path);
    fb::convert::ConvertOptions opts;
    opts.direction = "oneflow";
    opts.targetOpset = 13;
    (void)fb::convert::dryRun(*model, opts);
  } catch (const std::exception&) {
  }
  std::filesystem::remove(path);
  return 0;
}
