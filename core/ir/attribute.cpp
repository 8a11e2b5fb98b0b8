#include "ir/attribute.h"

#include <sstream>

#include "ir/graph.h"

namespace fb::ir {

std::string_view attrTypeName(AttrType t) {
  switch (t) {
    case AttrType::Float:
      return "float";
    case AttrType::Int:
      return "int";
    case AttrType::String:
      return "string";
    case AttrType::Tensor:
      return "tensor";
    case AttrType::Graph:
      return "graph";
    case AttrType::Floats:
      return "floats";
    case AttrType::Ints:
      return "ints";
    case AttrType::Strings:
      return "strings";
    case AttrType::Tensors:
      return "tensors";
    case AttrType::Graphs:
      return "graphs";
    case AttrType::SparseTensor:
      return "sparse_tensor";
    case AttrType::SparseTensors:
      return "sparse_tensors";
    case AttrType::TypeProto:
      return "type_proto";
    case AttrType::TypeProtos:
      return "type_protos";
    default:
      return "undefined";
  }
}

namespace {
template <typename T, typename F>
std::string list(const std::vector<T>& v, size_t maxItems, F fmt) {
  std::ostringstream os;
  os << "[";
  for (size_t k = 0; k < v.size() && k < maxItems; ++k) os << (k ? ", " : "") << fmt(v[k]);
  if (v.size() > maxItems) os << ", ... (" << v.size() << ")";
  os << "]";
  return os.str();
}
std::string tensorSummary(const Tensor& t) {
  std::string s = "tensor " + std::string(dataTypeName(t.dtype)) + "[";
  for (size_t k = 0; k < t.dims.size(); ++k) s += (k ? "," : "") + std::to_string(t.dims[k]);
  s += "]";
  if (t.numElements() <= 8 && t.dtype != DataType::String && t.hasData()) {
    try {
      auto vals = t.asDouble();
      s += " = " + list(vals, 8, [](double d) {
             std::ostringstream o;
             o << d;
             return o.str();
           });
    } catch (...) {
    }
  }
  return s;
}
}  // namespace

std::string Attribute::valueToString(size_t maxItems) const {
  if (!refAttrName.empty()) return "@" + refAttrName;
  auto fmtF = [](float x) {
    std::ostringstream o;
    o << x;
    return o.str();
  };
  auto fmtI = [](int64_t x) { return std::to_string(x); };
  auto fmtS = [](const std::string& x) { return "\"" + x + "\""; };
  switch (type) {
    case AttrType::Float:
      return fmtF(f);
    case AttrType::Int:
      return std::to_string(i);
    case AttrType::String:
      return fmtS(s);
    case AttrType::Floats:
      return list(floats.vec(), maxItems, fmtF);
    case AttrType::Ints:
      return list(ints, maxItems, fmtI);
    case AttrType::Strings:
      return list(strings.vec(), maxItems, fmtS);
    case AttrType::Tensor:
      return tensors.empty() ? "tensor" : tensorSummary(tensors[0]);
    case AttrType::Tensors:
      return list(tensors.vec(), maxItems, tensorSummary);
    case AttrType::Graph:
    case AttrType::Graphs:
      return list(graphs.vec(), maxItems, [](const std::shared_ptr<Graph>& g) {
        return "graph " + (g ? g->name : std::string()) + " (" + std::to_string(g ? g->nodeCount() : 0) + " nodes)";
      });
    case AttrType::SparseTensor:
    case AttrType::SparseTensors:
      return "sparse tensor x" + std::to_string(sparseTensors.size());
    case AttrType::TypeProto:
    case AttrType::TypeProtos:
      return list(typeProtos.vec(), maxItems, [](const TypeInfo& t) { return t.toString(); });
    default:
      return "?";
  }
}

}  // namespace fb::ir
