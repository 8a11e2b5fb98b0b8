// libFuzzer harness: the lazy-era SavedModel reader. The first byte picks 1/saved_model.pb or
// 1/saved_model.prototxt, the rest is its content; the variables of its graphs get a checkpoint folder
// (1/variables, oneflow_weights.h). readOneflow imports the graph, takes the signature's input shapes and runs
// OneFlow shape inference on attributes straight from the file; then every weight is read.
#include <google/protobuf/text_format.h>

#include <cstdint>
#include <string>

#include "formats/oneflow/oneflow_reader.h"
#include "fuzz_support.h"
#include "oneflow_weights.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool text = data[0] % 2 == 1;
  const std::string dir = fb::fuzz::scratchDir("oneflow-sm") + "/1";
  const std::string path = dir + (text ? "/saved_model.prototxt" : "/saved_model.pb");
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  fb::fuzz::writeFile(path, data + 1, size - 1);
  ::oneflow::SavedModel sm;
  bool parsed = false;
  if (text) {
    google::protobuf::TextFormat::Parser p;
    p.AllowUnknownField(true);
    parsed = p.ParseFromString(bytes, &sm);
  } else {
    parsed = sm.ParsePartialFromString(bytes);
  }
  (void)fb::takeProtobufLogMessage();
  if (parsed && !sm.graphs().empty())
    fb::fuzz::provideWeights(dir + "/variables", sm.graphs().begin()->second.op_list());
  try {
    auto model = fb::oneflow::readOneflow(path);
    fb::fuzz::touchModel(*model);
  } catch (const std::exception&) {
  }
  std::filesystem::remove(path);
  return 0;
}
