#include "formats/model_io.h"

#include <filesystem>

#include "formats/oneflow/oneflow_reader.h"
#include "formats/onnx/onnx_reader.h"
#include "util/error.h"
#include "util/input_file.h"
#include "util/protobuf_log.h"

namespace fb {
namespace fs = std::filesystem;

ModelFormat detectFormat(const std::string& path) {
  auto ext = fs::path(path).extension().string();
  if (ext == ".onnx") return ModelFormat::Onnx;
  // Before the ONNX sniff, which accepts any file whose first byte is a ModelProto tag.
  if (oneflow::looksLikeOneflow(path)) return ModelFormat::OneFlow;
  if (onnxfmt::looksLikeOnnx(path)) return ModelFormat::Onnx;
  return ModelFormat::Unknown;
}

std::unique_ptr<ir::Model> loadModel(const std::string& path) {
  std::error_code ec;
  installProtobufLogHandler();
  // Before any reader opens it: a FIFO or a device would block or never end.
  requireFileOrFolder(path);
  switch (detectFormat(path)) {
    case ModelFormat::Onnx:
      return onnxfmt::readOnnxFile(path);
    case ModelFormat::OneFlow:
      return oneflow::readOneflow(path);
    case ModelFormat::Unknown:
      break;
  }
  if (fs::is_directory(path, ec)) throw InputError(path, "is a folder, not a model FlowBridge recognizes");
  if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) == 0) throw InputError(path, "the file is empty");
  throw InputError(path, "not a model in a format FlowBridge reads (ONNX, OneFlow Job/JobSet/SavedModel)");
}

}  // namespace fb
