#include "formats/onnx/onnx_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include "formats/onnx/onnx_mapped_parse.h"
#include "formats/onnx/onnx_proto_import.h"
#include "ir/tensor.h"
#include "util/error.h"
#include "util/input_file.h"
#include "util/protobuf_log.h"

namespace fb::onnxfmt {
namespace fs = std::filesystem;

namespace {

// protobuf's default nesting limit; a model nested deeper fails to parse with no reason given.
constexpr int kProtobufNesting = 100;

bool parseFrom(const InputFile& f, onnx::ModelProto& out, int recursionLimit, int* readErrno) {
  ::lseek(f.fd(), 0, SEEK_SET);
  // A 1 MB read buffer: fast, and the file is never held in memory twice.
  google::protobuf::io::FileInputStream in(f.fd(), 1 << 20);
  google::protobuf::io::CodedInputStream coded(&in);
  coded.SetTotalBytesLimit(INT_MAX);
  coded.SetRecursionLimit(recursionLimit);
  const bool ok = out.ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
  *readErrno = in.GetErrno();
  return ok;
}

}  // namespace

void parseOnnxProtoFile(const std::string& path, onnx::ModelProto& out) {
  installProtobufLogHandler();
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "is a folder, not a model file");
  InputFile f = InputFile::open(path);
  const auto size = f.size();
  if (size == 0) throw InputError(path, "the file is empty");
  if (size > static_cast<uintmax_t>(INT_MAX))
    throw InputError(path, "the file is " + std::to_string(size >> 20) +
                               " MB and not a well-formed ONNX model with its weights inline (protobuf cannot parse "
                               "more than 2 GB in one piece)");
  int err = 0;
  if (parseFrom(f, out, kProtobufNesting, &err)) return;
  if (err) throw InputError(path, std::string("read error: ") + std::strerror(err));
  // Tell "nested too deeply" apart from damage: the same bytes parse with a higher limit. The retry is bounded,
  // and the IR refuses such a model anyway, so the higher limit never reaches the rest of FlowBridge.
  onnx::ModelProto probe;
  if (parseFrom(f, probe, 10 * kProtobufNesting, &err))
    throw InputError(path, "messages are nested more than " + std::to_string(kProtobufNesting) +
                               " levels deep (subgraphs inside subgraphs), more than protobuf reads");
  takeProtobufLogMessage();
  throw InputError(path, "not a valid ONNX protobuf (truncated or corrupt)");
}

std::unique_ptr<ir::Model> readOnnxFile(const std::string& path) {
  std::error_code ec;
  requireFileOrFolder(path);
  if (fs::is_directory(path, ec)) throw InputError(path, "is a folder, not a model file");
  ImportOptions opts;
  opts.modelPath = path;
  opts.modelDir = fs::path(path).parent_path().string();
  if (fs::file_size(path, ec) > 0)
    if (auto m = readMappedModel(path, opts)) return m;
  onnx::ModelProto proto;
  parseOnnxProtoFile(path, proto);
  if (!proto.has_graph()) throw InputError(path, "not an ONNX model: no graph in the file");
  if (proto.opset_import_size() == 0 && proto.ir_version() >= 3)
    throw InputError(path, "not a valid ONNX model: no opset_import");
  return importModel(proto, opts);
}

bool looksLikeOnnx(const std::string& path) {
  unsigned char b[1];
  try {
    InputFile f = InputFile::open(path);
    if (::pread(f.fd(), b, 1, 0) != 1) return false;
  } catch (const InputError&) {
    return false;
  }
  // A ModelProto starts with one of its field tags: ir_version (0x08), producer_name (0x12), ..., graph (0x3a).
  switch (b[0]) {
    case 0x08:
    case 0x12:
    case 0x1a:
    case 0x22:
    case 0x28:
    case 0x32:
    case 0x3a:
    case 0x42:
    case 0x72:
      return true;
    default:
      return false;
  }
}

}  // namespace fb::onnxfmt
