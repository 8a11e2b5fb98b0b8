#pragma once
// ir::Model -> the bytes protobuf would write for exportModel's ModelProto, without that message in memory:
// the main graph's nodes are serialized one at a time and its raw weights go from their buffers (often the
// mapped source file) to the output without a copy. For 100k nodes the whole message was about 150 MB on top
// of the model at the end of `convert`; this holds the serialized nodes (about 15 MB) and one tensor header.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream.h>

#include "formats/onnx/onnx_proto_export.h"

namespace fb::onnxfmt {

class ModelSerializer {
 public:
  // Calls `externalize` once per tensor, in exportModel's order (graph first, then functions).
  ModelSerializer(const ir::Model& m, const ExternalizeFn& externalize = {});
  uint64_t size() const { return size_; }
  // False when the stream failed.
  bool writeTo(google::protobuf::io::ZeroCopyOutputStream& out) const;

 private:
  // Serialized bytes interleaved with tensors' data, which stays where it is.
  class Pieces {
   public:
    void append(std::string_view b);
    void appendRaw(std::span<const std::byte> raw);
    uint64_t size() const { return size_; }
    void writeTo(google::protobuf::io::CodedOutputStream& out) const;

   private:
    struct Piece {
      size_t begin, end;               // in bytes_
      std::span<const std::byte> raw;  // written after them
    };
    std::string bytes_;
    std::vector<Piece> pieces_;
    uint64_t size_ = 0;
  };
  std::string head_;  // ModelProto fields before the graph, and the graph's tag and length
  Pieces graph_;
  std::string tail_;  // ModelProto fields after the graph
  uint64_t size_ = 0;
};

}  // namespace fb::onnxfmt
