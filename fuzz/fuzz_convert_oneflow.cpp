// libFuzzer harness: what `inspect`, `check` and `convert` do with a OneFlow graph. The first byte picks the
// file (bits 0-1: job.pb, job.prototxt, 1/saved_model.pb, 1/saved_model.prototxt) and the target opset
// (bits 2-3: 7, 11, 13, 17); the rest is the file. Variables get weights (oneflow_weights.h); then read, every
// weight read, summary, dry run, conversion with the default passes and the check, result serialized.
#include <google/protobuf/text_format.h>

#include <cstdint>

#include "formats/oneflow/oneflow_reader.h"
#include "convert_and_serialize.h"
#include "fuzz_support.h"
#include "oneflow_weights.h"

namespace {
template <typename Msg>
bool parse(Msg& msg, const std::string& bytes, bool text) {
  if (!text) return msg.ParsePartialFromString(bytes);
  google::protobuf::TextFormat::Parser p;
  p.AllowUnknownField(true);
  return p.ParseFromString(bytes, &msg);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* names[] = {"job.pb", "job.prototxt", "1/saved_model.pb", "1/saved_model.prototxt"};
  static const int64_t opsets[] = {7, 11, 13, 17};
  const int kind = data[0] % 4;
  const bool text = kind % 2 == 1;
  const std::string dir = fb::fuzz::scratchDir("convert-oneflow");
  const std::string path = dir + "/" + names[kind];
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  fb::fuzz::writeFile(path, data + 1, size - 1);
  if (kind < 2) {
    ::oneflow::JobText job;  // same field numbers as Job; text and binary both parse into it
    if (parse(job, bytes, text)) fb::fuzz::provideWeights(dir + "/weights", job.net().op());
  } else {
    ::oneflow::SavedModel sm;
    if (parse(sm, bytes, text) && !sm.graphs().empty())
      fb::fuzz::provideWeights(dir + "/1/variables", sm.graphs().begin()->second.op_list());
  }
  (void)fb::takeProtobufLogMessage();
  try {
    auto model = fb::oneflow::readOneflow(path);
    fb::fuzz::touchModel(*model);
    fb::fuzz::convertAndSerialize(*model, opsets[(data[0] >> 2) % 4]);
  } catch (const std::exception&) {
  }
  std::filesystem::remove(path);
  return 0;
}
