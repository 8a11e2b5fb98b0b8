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

namespace fb::onnxfmt {
namespace fs = std::filesystem;

namespace {
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};
}  // namespace

void parseOnnxProtoFile(const std::string& path, onnx::ModelProto& out) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "is a folder, not a model file");
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  auto size = fs::file_size(path, ec);
  if (ec) throw InputError(path, "cannot read the file size: " + ec.message());
  if (size == 0) throw InputError(path, "the file is empty");
  if (size > static_cast<uintmax_t>(INT_MAX))
    throw InputError(path, "the file is " + std::to_string(size >> 20) +
                               " MB and not a well-formed ONNX model with its weights inline (protobuf cannot parse "
                               "more than 2 GB in one piece)");
  // A 1 MB read buffer: fast, and the file is never held in memory twice.
  google::protobuf::io::FileInputStream in(f.fd, 1 << 20);
  google::protobuf::io::CodedInputStream coded(&in);
  coded.SetTotalBytesLimit(INT_MAX);
  if (!out.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
    throw InputError(path, in.GetErrno() ? std::string("read error: ") + std::strerror(in.GetErrno())
                                         : "not a valid ONNX protobuf (truncated or corrupt)");
}

std::unique_ptr<ir::Model> readOnnxFile(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "is a folder, not a model file");
  ImportOptions opts;
  opts.modelPath = path;
  opts.modelDir = fs::path(path).parent_path().string();
  onnx::ModelProto proto;
  MappedModelProto mapped;
  if (fs::file_size(path, ec) > 0 && parseMappedModel(path, mapped)) {
    proto.Swap(&mapped.proto);
    for (const auto& span : mapped.rawData)
      opts.initializerData.push_back(span.length ? ir::makeMappedBuffer(mapped.file, span.offset, span.length) : nullptr);
  } else {
    parseOnnxProtoFile(path, proto);
  }
  if (!proto.has_graph()) throw InputError(path, "not an ONNX model: no graph in the file");
  if (proto.opset_import_size() == 0 && proto.ir_version() >= 3)
    throw InputError(path, "not a valid ONNX model: no opset_import");
  return importModel(proto, opts);
}

bool looksLikeOnnx(const std::string& path) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) return false;
  unsigned char b[1];
  if (::read(f.fd, b, 1) != 1) return false;
  // A ModelProto starts with one of its field tags: ir_version (0x08), producer_name (0x12), ..., graph (0x3a).
  switch (b[0]) {
    case 0x08: case 0x12: case 0x1a: case 0x22: case 0x28: case 0x32: case 0x3a: case 0x42: case 0x72:
      return true;
    default:
      return false;
  }
}

}  // namespace fb::onnxfmt
