#pragma once
// lbn2logical_blob_desc values. BlobDescProto changed its field numbers twice (v0.3, v0.5-0.7, v0.8+); the
// binary form is decoded by looking at the wire types, the text form by field names.
#include <optional>
#include <string>
#include <vector>

namespace oneflow {
class BlobDescAnyLayout;
}

namespace fb::oneflow {

struct BlobDesc {
  std::vector<int64_t> dims;
  int dataType = 0;  // OneFlow DataType enum value
  enum class Layout { V03, V05, V08 } layout = Layout::V08;
};

// nullopt when the bytes are not a BlobDescProto of any known layout.
std::optional<BlobDesc> decodeBlobDesc(const std::string& bytes);
std::optional<BlobDesc> blobDescFromText(const ::oneflow::BlobDescAnyLayout& d);

}  // namespace fb::oneflow
