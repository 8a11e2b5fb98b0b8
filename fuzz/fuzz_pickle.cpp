// libFuzzer harness: the pickle decoder and the walk over what it decodes (flow_save_reader). The input is a pickle,
// read twice: as a format C file (tensors inline), and as the pickled_data of a format B folder whose tensor_1 holds
// a valid 4-float variable, tensor_2 an `out` linked out of the folder and tensor_3 a 3 GB sparse meta, so paths,
// containment and size limits are reached from the pickle. Every tensor's bytes are then read.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/oneflow/flow_save_reader.h"
#include "fuzz_support.h"

namespace {

void readAllTensors(const std::string& path) {
  try {
    uint64_t sum = 0;
    for (const auto& [name, tensor] : fb::oneflow::readFlowSave(path))
      for (std::byte b : tensor.bytes()) sum += static_cast<uint8_t>(b);
    volatile uint64_t sink = sum;
    (void)sink;
  } catch (const std::exception&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  const std::string dir = fb::fuzz::scratchDir("pickle");
  static const bool once = [&] {
    fs::create_directories(dir + "/b/tensor_1");
    fs::create_directories(dir + "/b/tensor_2");
    fs::create_directories(dir + "/b/tensor_3");
    const std::string meta = "shape { dim: 4 }\ndata_type: kFloat\n";
    std::ofstream(dir + "/b/tensor_1/meta") << meta;
    std::ofstream(dir + "/b/tensor_1/out", std::ios::binary) << std::string(16, '\1');
    std::ofstream(dir + "/b/tensor_2/meta") << meta;
    std::ofstream(dir + "/outside.bin", std::ios::binary) << std::string(16, '\2');
    fs::create_symlink(dir + "/outside.bin", dir + "/b/tensor_2/out");
    std::ofstream(dir + "/b/tensor_3/out", std::ios::binary) << std::string(16, '\3');
    std::ofstream(dir + "/b/tensor_3/meta").close();
    fs::resize_file(dir + "/b/tensor_3/meta", uint64_t{3} << 30);
    return true;
  }();
  (void)once;
  fb::fuzz::writeFile(dir + "/c.of", data, size);
  readAllTensors(dir + "/c.of");
  fb::fuzz::writeFile(dir + "/b/pickled_data", data, size);
  readAllTensors(dir + "/b");
  (void)fb::takeProtobufLogMessage();
  return 0;
}
