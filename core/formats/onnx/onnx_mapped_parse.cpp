#include "formats/onnx/onnx_mapped_parse.h"

#include <cstdint>
#include <optional>

namespace fb::onnxfmt {
namespace {

// Field numbers from onnx.proto.
constexpr uint32_t kModelGraph = 7;
constexpr uint32_t kGraphInitializer = 5;
constexpr uint32_t kTensorRawData = 9;
constexpr size_t kMinZeroCopyBytes = 4096;  // small tensors are cheaper to copy than to keep a map window for

struct Field {
  uint32_t number;
  uint32_t wireType;
  size_t start;         // first byte of the tag
  size_t payloadStart;  // first byte of the value (after the length for length-delimited fields)
  size_t end;           // one past the last byte
};

class Cursor {
 public:
  Cursor(const uint8_t* data, size_t begin, size_t end) : d_(data), pos_(begin), end_(end) {}
  bool done() const { return pos_ >= end_; }

  std::optional<Field> next() {
    Field f{};
    f.start = pos_;
    auto tag = varint();
    if (!tag || *tag == 0) return std::nullopt;
    f.number = static_cast<uint32_t>(*tag >> 3);
    f.wireType = static_cast<uint32_t>(*tag & 7);
    switch (f.wireType) {
      case 0:
        if (!varint()) return std::nullopt;
        f.payloadStart = f.start;
        break;
      case 1:
        if (end_ - pos_ < 8) return std::nullopt;
        pos_ += 8;
        break;
      case 5:
        if (end_ - pos_ < 4) return std::nullopt;
        pos_ += 4;
        break;
      case 2: {
        auto len = varint();
        if (!len || *len > end_ - pos_) return std::nullopt;
        f.payloadStart = pos_;
        pos_ += *len;
        break;
      }
      default:
        return std::nullopt;  // groups: not used by ONNX
    }
    f.end = pos_;
    return f;
  }

 private:
  std::optional<uint64_t> varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && pos_ < end_; shift += 7) {
      uint8_t b = d_[pos_++];
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return std::nullopt;
  }
  const uint8_t* d_;
  size_t pos_, end_;
};

}  // namespace

bool parseMappedModel(const std::string& path, MappedModelProto& out) {
  auto file = MappedFile::open(path);
  // No 2 GB limit here: only what is left after the weights goes through protobuf, which checks its own size.
  if (file->size() == 0) return false;
  const auto* d = reinterpret_cast<const uint8_t*>(file->data());
  std::string modelRest, graphRest;
  std::vector<MappedModelProto::Span> spans;
  std::vector<std::string> initializers;
  bool sawGraph = false;
  Cursor model(d, 0, file->size());
  while (!model.done()) {
    auto f = model.next();
    if (!f) return false;
    if (f->number != kModelGraph || f->wireType != 2) {
      modelRest.append(reinterpret_cast<const char*>(d + f->start), f->end - f->start);
      continue;
    }
    if (sawGraph) return false;  // a repeated graph field would need merging: leave it to protobuf
    sawGraph = true;
    Cursor graph(d, f->payloadStart, f->end);
    while (!graph.done()) {
      auto g = graph.next();
      if (!g) return false;
      if (g->number != kGraphInitializer || g->wireType != 2) {
        graphRest.append(reinterpret_cast<const char*>(d + g->start), g->end - g->start);
        continue;
      }
      // Copy the tensor's fields except a large raw_data, which is remembered by position instead.
      std::string tensor;
      MappedModelProto::Span span;
      Cursor t(d, g->payloadStart, g->end);
      while (!t.done()) {
        auto tf = t.next();
        if (!tf) return false;
        if (tf->number == kTensorRawData && tf->wireType == 2 && tf->end - tf->payloadStart >= kMinZeroCopyBytes &&
            span.length == 0) {
          span = {tf->payloadStart, tf->end - tf->payloadStart};
          continue;
        }
        tensor.append(reinterpret_cast<const char*>(d + tf->start), tf->end - tf->start);
      }
      initializers.push_back(std::move(tensor));
      spans.push_back(span);
    }
  }
  if (!sawGraph) return false;
  google::protobuf::ArenaOptions arenaOptions;
  arenaOptions.start_block_size = 64 << 10;
  arenaOptions.max_block_size = 4 << 20;
  out.arena = std::make_unique<google::protobuf::Arena>(arenaOptions);
  out.proto = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(out.arena.get());
  if (!out.proto->ParseFromString(modelRest)) return false;
  onnx::GraphProto* graph = out.proto->mutable_graph();
  if (!graph->ParseFromString(graphRest)) return false;
  for (const auto& bytes : initializers)
    if (!graph->add_initializer()->ParseFromString(bytes)) return false;
  out.file = std::move(file);
  out.rawData = std::move(spans);
  return true;
}

}  // namespace fb::onnxfmt
