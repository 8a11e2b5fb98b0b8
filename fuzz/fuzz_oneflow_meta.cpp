// libFuzzer harness: the text `meta` of a OneFlow weight folder (VariableMetaInfo) and the checks of `out`
// against it. The input is the meta file; the variable is declared as 4x4 float, and `out` holds 64 bytes
// unless the input's first line says another size ("#size N"), so size mismatches are reached too.
#include <cstdint>
#include <string>

#include "formats/oneflow/weight_folder.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string dir = fb::fuzz::scratchDir("oneflow-meta") + "/weights";
  static const bool once = [&] {
    std::filesystem::create_directories(dir + "/m.w");
    std::ofstream(dir + "/snapshot_done").put('\n');
    return true;
  }();
  (void)once;
  const std::string text(reinterpret_cast<const char*>(data), size);
  size_t outBytes = 64;
  if (text.rfind("#size ", 0) == 0) outBytes = std::strtoul(text.c_str() + 6, nullptr, 10) % 4096;
  fb::fuzz::writeFile(dir + "/m.w/meta", data, size);
  std::ofstream(dir + "/m.w/out", std::ios::binary | std::ios::trunc) << std::string(outBytes, '\1');
  try {
    fb::oneflow::WeightFolder folder(dir);
    const int kFloat = 2;
    fb::ir::Tensor t = folder.load("m.w", "w", {4, 4}, kFloat);
    volatile size_t n = t.bytes().size();
    (void)n;
  } catch (const std::exception&) {
  }
  (void)fb::takeProtobufLogMessage();
  return 0;
}
