#include "formats/oneflow/blob_desc.h"

#include <map>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "formats/oneflow/oneflow_job.pb.h"

namespace fb::oneflow {
namespace {
using google::protobuf::io::CodedInputStream;
using WFL = google::protobuf::internal::WireFormatLite;

// One level of a message: field number -> (wire type, varint value or bytes), last occurrence wins, except
// repeated varints which are collected (packed or not) for ShapeProto.dim.
struct Field {
  int wireType = -1;
  uint64_t varint = 0;
  std::string bytes;
  std::vector<int64_t> varints;  // every varint seen for this field number, packed ones unpacked
};

bool scan(const std::string& data, std::map<int, Field>& out) {
  CodedInputStream in(reinterpret_cast<const uint8_t*>(data.data()), static_cast<int>(data.size()));
  while (uint32_t tag = in.ReadTag()) {
    int number = static_cast<int>(WFL::GetTagFieldNumber(tag));
    int wt = WFL::GetTagWireType(tag);
    Field& f = out[number];
    f.wireType = wt;
    switch (wt) {
      case WFL::WIRETYPE_VARINT:
        if (!in.ReadVarint64(&f.varint)) return false;
        f.varints.push_back(static_cast<int64_t>(f.varint));
        break;
      case WFL::WIRETYPE_LENGTH_DELIMITED: {
        uint32_t len;
        if (!in.ReadVarint32(&len) || !in.ReadString(&f.bytes, static_cast<int>(len))) return false;
        break;
      }
      case WFL::WIRETYPE_FIXED32: {
        uint32_t v;
        if (!in.ReadLittleEndian32(&v)) return false;
        break;
      }
      case WFL::WIRETYPE_FIXED64: {
        uint64_t v;
        if (!in.ReadLittleEndian64(&v)) return false;
        break;
      }
      default:
        return false;  // groups never occur in OneFlow's protos
    }
  }
  return in.ConsumedEntireMessage() || in.CurrentPosition() == static_cast<int>(data.size());
}

std::optional<std::vector<int64_t>> decodeShape(const std::string& bytes) {
  ::oneflow::ShapeProto s;
  if (!s.ParseFromString(bytes)) return std::nullopt;
  return std::vector<int64_t>(s.dim().begin(), s.dim().end());
}

}  // namespace

std::optional<BlobDesc> decodeBlobDesc(const std::string& bytes) {
  std::map<int, Field> f;
  if (!scan(bytes, f)) return std::nullopt;
  BlobDesc d;
  auto f2 = f.find(2);
  if (f2 != f.end() && f2->second.wireType == WFL::WIRETYPE_VARINT) {
    // v0.5-0.7: shape = 1, data_type = 2
    d.layout = BlobDesc::Layout::V05;
    d.dataType = static_cast<int>(f2->second.varint);
  } else if (f2 != f.end() && f2->second.wireType == WFL::WIRETYPE_LENGTH_DELIMITED) {
    // Either v0.3 body (TensorPodProto: shape = 1, data_type = 2 varint) or v0.8+ stride (Int64ListProto).
    std::map<int, Field> inner;
    if (scan(f2->second.bytes, inner) && inner.count(2) && inner[2].wireType == WFL::WIRETYPE_VARINT &&
        inner.count(1) && inner[1].wireType == WFL::WIRETYPE_LENGTH_DELIMITED) {
      d.layout = BlobDesc::Layout::V03;
      auto shape = decodeShape(inner[1].bytes);
      if (!shape) return std::nullopt;
      d.dims = *shape;
      d.dataType = static_cast<int>(inner[2].varint);
      return d;
    }
    d.layout = BlobDesc::Layout::V08;
    auto f3 = f.find(3);
    if (f3 == f.end() || f3->second.wireType != WFL::WIRETYPE_VARINT) return std::nullopt;
    d.dataType = static_cast<int>(f3->second.varint);
  } else {
    // v0.8+ with an empty stride omitted: data_type is field 3.
    auto f3 = f.find(3);
    if (f3 == f.end() || f3->second.wireType != WFL::WIRETYPE_VARINT) return std::nullopt;
    d.layout = BlobDesc::Layout::V08;
    d.dataType = static_cast<int>(f3->second.varint);
  }
  auto f1 = f.find(1);
  if (f1 == f.end() || f1->second.wireType != WFL::WIRETYPE_LENGTH_DELIMITED) {
    d.dims = {};  // a scalar has an empty ShapeProto, which may be omitted
  } else {
    auto shape = decodeShape(f1->second.bytes);
    if (!shape) return std::nullopt;
    d.dims = *shape;
  }
  return d;
}

std::optional<BlobDesc> blobDescFromText(const ::oneflow::BlobDescAnyLayout& t) {
  BlobDesc d;
  if (t.has_body()) {
    d.layout = BlobDesc::Layout::V03;
    d.dims.assign(t.body().shape().dim().begin(), t.body().shape().dim().end());
    d.dataType = t.body().data_type();
    return d;
  }
  if (!t.has_data_type()) return std::nullopt;
  d.layout = t.has_stride() ? BlobDesc::Layout::V08 : BlobDesc::Layout::V05;
  d.dims.assign(t.shape().dim().begin(), t.shape().dim().end());
  d.dataType = t.data_type();
  return d;
}

}  // namespace fb::oneflow
