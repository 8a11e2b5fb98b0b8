#include "formats/onnx/model_serializer.h"

#include <cstring>
#include <stdexcept>

#include <google/protobuf/io/coded_stream.h>

namespace fb::onnxfmt {
namespace {

using google::protobuf::io::CodedOutputStream;

constexpr uint32_t kLengthDelimited = 2;

// Protobuf writes known fields in field-number order and unknown ones last. Where a message is serialized
// in parts, this finds the offset of its first field numbered above `field`.
size_t offsetAfterField(std::string_view bytes, uint32_t field) {
  size_t p = 0;
  auto varint = [&]() -> uint64_t {
    uint64_t v = 0;
    for (int shift = 0; p < bytes.size() && shift < 64; shift += 7) {
      const auto b = static_cast<uint8_t>(bytes[p++]);
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw std::logic_error("model serializer: malformed varint in our own serialization");
  };
  while (p < bytes.size()) {
    const size_t at = p;
    const uint64_t tag = varint();
    if ((tag >> 3) > field) return at;
    switch (tag & 7) {
      case 0:
        varint();
        break;
      case 1:
        p += 8;
        break;
      case 2:
        p += varint();
        break;
      case 5:
        p += 4;
        break;
      default:
        throw std::logic_error("model serializer: unexpected wire type in our own serialization");
    }
  }
  return bytes.size();
}

std::string tagAndLength(uint32_t field, uint64_t length) {
  std::string s;
  uint8_t buf[20];
  uint8_t* e = CodedOutputStream::WriteVarint32ToArray((field << 3) | kLengthDelimited, buf);
  e = CodedOutputStream::WriteVarint64ToArray(length, e);
  s.assign(reinterpret_cast<const char*>(buf), e - buf);
  return s;
}

}  // namespace

void ModelSerializer::Pieces::append(std::string_view b) {
  if (pieces_.empty() || !pieces_.back().raw.empty()) pieces_.push_back({bytes_.size(), bytes_.size(), {}});
  bytes_.append(b);
  pieces_.back().end = bytes_.size();
  size_ += b.size();
}

void ModelSerializer::Pieces::appendRaw(std::span<const std::byte> raw) {
  if (pieces_.empty() || !pieces_.back().raw.empty()) pieces_.push_back({bytes_.size(), bytes_.size(), {}});
  pieces_.back().raw = raw;
  size_ += raw.size();
}

void ModelSerializer::Pieces::writeTo(CodedOutputStream& out) const {
  for (const auto& p : pieces_) {
    out.WriteRaw(bytes_.data() + p.begin, static_cast<int>(p.end - p.begin));
    // One tensor is never above INT_MAX inline: the model would be over protobuf's 2 GB limit.
    if (!p.raw.empty()) out.WriteRaw(p.raw.data(), static_cast<int>(p.raw.size()));
  }
}

ModelSerializer::ModelSerializer(const ir::Model& m, const ExternalizeFn& externalize) {
  const ir::Graph& g = m.graph();
  // The graph's body in GraphProto's field order (node 1, name 2, initializer 5, the rest above 5), then the
  // model's fields around it (graph is field 7): `externalize` sees the tensors in exportModel's order.
  std::string scratch;
  {
    onnx::NodeProto np;
    for (const auto& n : g.nodes()) {
      np.Clear();
      exportNodeProto(*n, np, externalize);
      scratch.clear();
      np.AppendToString(&scratch);
      graph_.append(tagAndLength(1, scratch.size()));
      graph_.append(scratch);
    }
  }
  if (!g.name.empty()) {
    onnx::GraphProto nameOnly;
    nameOnly.set_name(g.name);
    scratch.clear();
    nameOnly.AppendToString(&scratch);
    graph_.append(scratch);
  }
  {
    onnx::TensorProto tp;
    for (const auto& t : g.initializers()) {
      tp.Clear();
      const bool raw = exportTensorHeader(*t, tp, externalize);
      scratch.clear();
      tp.AppendToString(&scratch);
      if (!raw) {
        graph_.append(tagAndLength(5, scratch.size()));
        graph_.append(scratch);
        continue;
      }
      const auto data = t->bytes();
      const std::string rawTag = tagAndLength(9, data.size());
      const size_t split = offsetAfterField(scratch, 9);  // raw_data is field 9 of TensorProto
      graph_.append(tagAndLength(5, scratch.size() + rawTag.size() + data.size()));
      graph_.append(std::string_view(scratch).substr(0, split));
      graph_.append(rawTag);
      graph_.appendRaw(data);
      graph_.append(std::string_view(scratch).substr(split));
    }
  }
  {
    onnx::GraphProto frame;
    exportGraphFrame(g, frame, externalize);
    frame.clear_name();
    scratch.clear();
    frame.AppendToString(&scratch);
    graph_.append(scratch);
  }

  onnx::ModelProto header;
  exportModelHeader(m, header, externalize);
  scratch.clear();
  header.AppendToString(&scratch);
  const size_t split = offsetAfterField(scratch, 6);  // graph is field 7 of ModelProto
  head_ = scratch.substr(0, split) + tagAndLength(7, graph_.size());
  tail_ = scratch.substr(split);
  size_ = head_.size() + graph_.size() + tail_.size();
}

bool ModelSerializer::writeTo(google::protobuf::io::ZeroCopyOutputStream& out) const {
  CodedOutputStream coded(&out);
  coded.WriteRaw(head_.data(), static_cast<int>(head_.size()));
  graph_.writeTo(coded);
  coded.WriteRaw(tail_.data(), static_cast<int>(tail_.size()));
  coded.Trim();
  return !coded.HadError();
}

}  // namespace fb::onnxfmt
