#include "formats/oneflow/variable_meta.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "formats/oneflow/file_limits.h"
#include "formats/oneflow/oneflow_job.pb.h"
#include "util/error.h"
#include "util/input_file.h"

namespace fb::oneflow {
namespace {
// The parse errors become one InputError, not libprotobuf's lines on stderr.
class SilentParseErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int, int, const std::string&) override {}
};
}  // namespace

VariableMeta readVariableMeta(const std::string& path, const std::string& containDir, const std::string& what) {
  const std::string text =
      InputFile::open(path, containDir, what).requireAtMost(kMaxMetaBytes, "OneFlow meta file").readAll();
  ::oneflow::VariableMetaInfo info;
  google::protobuf::TextFormat::Parser parser;
  SilentParseErrors quiet;
  parser.RecordErrorsTo(&quiet);
  parser.AllowUnknownField(true);
  if (!parser.ParseFromString(text, &info)) throw InputError(path, what + " is not a text VariableMetaInfo");
  return {std::vector<int64_t>(info.shape().dim().begin(), info.shape().dim().end()), info.data_type()};
}

}  // namespace fb::oneflow
