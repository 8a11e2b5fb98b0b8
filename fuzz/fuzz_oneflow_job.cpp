// libFuzzer harness: the OneFlow Job and JobSet readers. The first byte picks the file (job.pb, job.prototxt,
// jobset.pb, jobset.prototxt), the rest is its content; the variables the graph declares get a weight folder
// (oneflow_weights.h), then readOneflow imports it and every weight is read.
#include <google/protobuf/text_format.h>

#include <cstdint>
#include <string>

#include "formats/oneflow/oneflow_reader.h"
#include "fuzz_support.h"
#include "oneflow_weights.h"

namespace {
// The ops of the first job that parses, in any of the four forms, for provideWeights.
template <typename Job, typename JobSet>
bool weightsFor(const std::string& dir, const std::string& bytes, bool text) {
  auto parse = [&](auto& msg) {
    if (!text) return msg.ParseFromString(bytes);
    google::protobuf::TextFormat::Parser p;
    p.AllowUnknownField(true);
    return p.ParseFromString(bytes, &msg);
  };
  Job job;
  if (parse(job) && job.net().op_size() > 0) {
    fb::fuzz::provideWeights(dir, job.net().op());
    return true;
  }
  JobSet set;
  if (parse(set))
    for (const auto& j : set.job())
      if (j.net().op_size() > 0) {
        fb::fuzz::provideWeights(dir, j.net().op());
        return true;
      }
  return false;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* names[] = {"job.pb", "job.prototxt", "jobset.pb", "jobset.prototxt"};
  const int kind = data[0] % 4;
  const std::string dir = fb::fuzz::scratchDir("oneflow-job");
  const std::string path = dir + "/" + names[kind];
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  fb::fuzz::writeFile(path, data + 1, size - 1);
  if (kind % 2 == 1)
    weightsFor<::oneflow::JobText, ::oneflow::JobSetText>(dir + "/weights", bytes, true);
  else
    weightsFor<::oneflow::Job, ::oneflow::JobSet>(dir + "/weights", bytes, false);
  (void)fb::takeProtobufLogMessage();
  try {
    auto model = fb::oneflow::readOneflow(path);
    fb::fuzz::touchModel(*model);
  } catch (const std::exception&) {
  }
  std::filesystem::remove(path);
  return 0;
}
