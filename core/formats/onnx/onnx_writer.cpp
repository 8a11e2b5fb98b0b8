#include "formats/onnx/onnx_writer.h"

#include <unistd.h>

#include <climits>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>

#include <google/protobuf/io/zero_copy_stream_impl.h>

#include "formats/onnx/model_serializer.h"
#include "formats/onnx/onnx_proto_export.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace fb::onnxfmt {
namespace fs = std::filesystem;
using namespace fb::ir;

namespace {

template <typename F>
void forEachTensor(const Graph& g, const F& f) {
  for (const auto& t : g.initializers()) f(*t);
  for (const auto& s : g.sparseInitializers()) {
    f(s.values);
    f(s.indices);
  }
  for (const auto& n : g.nodes())
    for (const auto& a : n->attributes) {
      for (const auto& t : a.tensors) f(t);
      for (const auto& sg : a.graphs)
        if (sg) forEachTensor(*sg, f);
    }
}

template <typename F>
void forEachTensor(const Model& m, const F& f) {
  forEachTensor(m.graph(), f);
  for (const auto& fn : m.functions)
    if (fn.body) forEachTensor(*fn.body, f);
}

}  // namespace

uint64_t totalTensorBytes(const Model& m) {
  uint64_t total = 0;
  forEachTensor(m, [&](const Tensor& t) {
    if (t.dtype == DataType::String) {
      for (const auto& s : t.strings) total += s.size();
    } else {
      total += t.expectedBytes();
    }
  });
  return total;
}

WriteResult writeOnnxFile(const Model& m, const std::string& path, const WriteOptions& opts) {
  // Every file the model was read from, and every side file its tensors still come from: none may be written over.
  std::vector<std::string> inputs = m.sourceFiles;
  if (!m.sourcePath.empty()) inputs.push_back(m.sourcePath);
  {
    std::set<std::string> sources;
    forEachTensor(m, [&](const Tensor& t) {
      if (auto s = t.sourceFile(); !s.empty()) sources.insert(s);
    });
    inputs.insert(inputs.end(), sources.begin(), sources.end());
  }
  ensureWritableOutput(path, inputs);
  WriteResult result;
  result.modelPath = path;

  bool useSideFile = opts.externalData == WriteOptions::ExternalData::SideFile;
  if (opts.externalData == WriteOptions::ExternalData::Auto) useSideFile = totalTensorBytes(m) > opts.autoLimit;
  if (useSideFile) {
    result.sideFilePath = path + ".data";
    ensureWritableOutput(result.sideFilePath, inputs);
  }

  // The model's temporary file first: a target that cannot be written (a folder, a device) fails before any
  // side file exists.
  AtomicFile out(path);
  std::optional<AtomicFile> side;
  uint64_t sideOffset = 0;
  ExternalizeFn externalize;
  if (useSideFile) {
    side.emplace(result.sideFilePath);
    std::string location = fs::path(result.sideFilePath).filename().string();
    externalize = [&, location](const Tensor& t, ExternalRef& ref) {
      if (t.expectedBytes() < opts.sideFileThreshold) return false;
      auto bytes = t.bytes();
      // 64-byte alignment lets readers map tensors straight into SIMD-friendly addresses.
      static const char zeros[64] = {};
      uint64_t pad = (64 - sideOffset % 64) % 64;
      side->write(zeros, pad);
      sideOffset += pad;
      ref.entries = {
          {"location", location}, {"offset", std::to_string(sideOffset)}, {"length", std::to_string(bytes.size())}};
      side->write(bytes.data(), bytes.size());
      sideOffset += bytes.size();
      return true;
    };
  }

  const ModelSerializer proto(m, externalize);
  const uint64_t size = proto.size();
  if (size > static_cast<uint64_t>(INT_MAX))
    throw OutputError(path + ": the model is " + std::to_string(size >> 20) +
                      " MB inline, over protobuf's 2 GB limit; write it with external data");
  {
    google::protobuf::io::FileOutputStream stream(out.fd(), 1 << 20);
    const bool ok = proto.writeTo(stream) && stream.Flush();
    if (!ok)
      throw OutputError(path + ": write failed" +
                        (stream.GetErrno() ? std::string(": ") + std::strerror(stream.GetErrno()) : std::string()));
  }
  // Weights read from a map that was truncated meanwhile are zeros, not the model's: do not write them. Only
  // this model's maps count: in the app, another file truncated earlier must not fail every later save.
  forEachTensor(m, [](const Tensor& t) {
    if (const MappedFile* f = t.mappedFile(); f && f->damaged())
      throw InputError(f->path(), "the file was truncated or changed while it was being read");
  });
  if (side) {
    side->commit();
    result.sideFileBytes = sideOffset;
  }
  try {
    out.commit();
  } catch (...) {
    if (side) ::unlink(result.sideFilePath.c_str());  // without its model, the side file is litter
    throw;
  }
  result.modelBytes = size;
  return result;
}

}  // namespace fb::onnxfmt
