#pragma once
// A node attribute of any ONNX kind, graph-valued ones included (If/Loop/Scan bodies).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/rare.h"
#include "ir/tensor.h"
#include "ir/type_info.h"

namespace fb::ir {

class Graph;

struct SparseTensor {
  Tensor values;
  Tensor indices;
  std::vector<int64_t> dims;
};

enum class AttrType : int32_t {
  Undefined = 0,
  Float = 1,
  Int = 2,
  String = 3,
  Tensor = 4,
  Graph = 5,
  Floats = 6,
  Ints = 7,
  Strings = 8,
  Tensors = 9,
  Graphs = 10,
  SparseTensor = 11,
  SparseTensors = 12,
  TypeProto = 13,
  TypeProtos = 14,
};

std::string_view attrTypeName(AttrType t);

// The common kinds (int, float, ints) are held inline; every other field is a Rare* holder that costs one
// pointer while empty, so that a node's attribute list stays small.
struct Attribute {
  std::string name;
  AttrType type = AttrType::Undefined;
  // Scalar kinds use the first field; Tensor/Graph/SparseTensor/TypeProto use element 0 of their list.
  float f = 0.f;
  int64_t i = 0;
  std::vector<int64_t> ints;
  RareString s;
  RareVector<float> floats;
  RareVector<std::string> strings;
  RareVector<Tensor> tensors;
  RareVector<std::shared_ptr<Graph>> graphs;
  RareVector<SparseTensor> sparseTensors;
  RareVector<TypeInfo> typeProtos;

  RareString refAttrName;  // set inside function bodies: the value comes from the caller
  RareString docString;
  // Fields onnx 1.12's onnx.proto does not know (newer ONNX: metadata_props, overload, device configuration, ...),
  // as the wire bytes they were read as; written back unchanged.
  RareString unknownFields;

  static Attribute makeInt(std::string n, int64_t v) {
    Attribute a;
    a.name = std::move(n);
    a.type = AttrType::Int;
    a.i = v;
    return a;
  }
  static Attribute makeFloat(std::string n, float v) {
    Attribute a;
    a.name = std::move(n);
    a.type = AttrType::Float;
    a.f = v;
    return a;
  }
  static Attribute makeString(std::string n, std::string v) {
    Attribute a;
    a.name = std::move(n);
    a.type = AttrType::String;
    a.s = std::move(v);
    return a;
  }
  static Attribute makeInts(std::string n, std::vector<int64_t> v) {
    Attribute a;
    a.name = std::move(n);
    a.type = AttrType::Ints;
    a.ints = std::move(v);
    return a;
  }
  static Attribute makeFloats(std::string n, std::vector<float> v) {
    Attribute a;
    a.name = std::move(n);
    a.type = AttrType::Floats;
    a.floats = std::move(v);
    return a;
  }
  static Attribute makeTensor(std::string n, Tensor t) {
    Attribute a;
    a.name = std::move(n);
    a.type = AttrType::Tensor;
    a.tensors.push_back(std::move(t));
    return a;
  }
  static Attribute makeGraph(std::string n, std::shared_ptr<Graph> g) {
    Attribute a;
    a.name = std::move(n);
    a.type = AttrType::Graph;
    a.graphs.push_back(std::move(g));
    return a;
  }

  // Short human-readable value ("[1, 1]", "0.5", "tensor float[64]", "graph body (12 nodes)").
  std::string valueToString(size_t maxItems = 16) const;
};

}  // namespace fb::ir
