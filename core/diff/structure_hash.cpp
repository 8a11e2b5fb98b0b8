#include "diff/structure_hash.h"

#include <bit>
#include <cstring>

#include <absl/hash/hash.h>

#include "ir/attribute.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/tensor.h"

namespace fb::diff {

uint64_t hashString(std::string_view s) { return absl::HashOf(s); }

uint64_t hashBytes(const void* data, size_t size) {
  return absl::HashOf(std::string_view(static_cast<const char*>(data), size));
}

uint64_t hashTensorType(const ir::Tensor& t) {
  uint64_t h = combine(0x7e45, uint64_t(t.dtype));
  for (int64_t d : t.dims) h = combine(h, uint64_t(d));
  return combine(h, t.dims.size());
}

uint64_t hashTensorContent(const ir::Tensor& t) {
  uint64_t h = hashTensorType(t);
  if (t.dtype == ir::DataType::String) {
    for (const auto& s : t.strings) h = combine(h, hashString(s));
    return h;
  }
  if (!t.hasData()) return combine(h, 0x0e);
  const auto bytes = t.bytes();
  return combine(h, hashBytes(bytes.data(), bytes.size()));
}

uint64_t hashAttribute(const ir::Attribute& a) {
  uint64_t h = combine(hashString(a.name), uint64_t(a.type));
  h = combine(h, uint64_t(a.i));
  h = combine(h, std::bit_cast<uint32_t>(a.f));
  for (int64_t v : a.ints) h = combine(h, uint64_t(v));
  h = combine(h, hashString(std::string_view(a.s)));
  for (float f : a.floats) h = combine(h, std::bit_cast<uint32_t>(f));
  for (const auto& s : a.strings) h = combine(h, hashString(s));
  for (const auto& t : a.tensors) h = combine(h, hashTensorContent(t));
  for (const auto& g : a.graphs) {
    if (!g) continue;
    // The body's op multiset: bodies are matched node by node on their own.
    uint64_t ops = 0;
    for (const auto& n : g->nodes()) ops += mix(hashOp(*n));
    h = combine(h, ops);
  }
  for (const auto& tp : a.typeProtos) h = combine(h, hashString(tp.toString()));
  if (!a.refAttrName.empty()) h = combine(h, hashString(std::string_view(a.refAttrName)));
  return h;
}

uint64_t hashOp(const ir::Node& n) {
  return combine(hashString(n.opType), n.isDefaultDomain() ? 0 : hashString(std::string_view(n.domain)));
}

uint64_t hashNodeContent(const ir::Node& n) {
  uint64_t attrs = 0;
  for (const auto& a : n.attributes) attrs += mix(hashAttribute(a));  // a sum: the order of attributes is no content
  uint64_t h = combine(hashOp(n), attrs);
  h = combine(h, n.inputs().size());
  return combine(h, n.outputs().size());
}

}  // namespace fb::diff
