#pragma once
// The 64-bit hashes the matcher compares: of a node's own content (op, domain, attributes with their values,
// tensors by their bytes), of a tensor's type and bytes, and the mixing that folds neighbours in. Within one
// process the same content always hashes the same, on either side of a diff.
#include <cstdint>
#include <string_view>

namespace fb::ir {
class Node;
class Tensor;
struct Attribute;
}  // namespace fb::ir

namespace fb::diff {

// splitmix64's finalizer: every input bit moves about half of the output bits.
inline uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
// Order matters: combine(combine(h, a), b) != combine(combine(h, b), a).
inline uint64_t combine(uint64_t h, uint64_t v) { return mix(h * 0x100000001b3ull ^ v); }

uint64_t hashString(std::string_view s);
uint64_t hashBytes(const void* data, size_t size);
// Element type and dims only.
uint64_t hashTensorType(const ir::Tensor& t);
// Element type, dims and bytes (a side file is mapped on first use).
uint64_t hashTensorContent(const ir::Tensor& t);
// Name, kind and value; graph-valued attributes by the op types of their bodies (their nodes are matched apart).
uint64_t hashAttribute(const ir::Attribute& a);
// Op, domain, input and output counts and the attributes (in any order).
uint64_t hashNodeContent(const ir::Node& n);
// Op and domain only.
uint64_t hashOp(const ir::Node& n);

}  // namespace fb::diff
