#include "inspect/model_summary.h"

#include "inspect/tensor_values.h"

#include <iomanip>
#include <sstream>

namespace fb {
using namespace fb::ir;

namespace {

nlohmann::json shapeJson(const TypeInfo& t) {
  if (!t.shape) return nullptr;
  auto arr = nlohmann::json::array();
  for (const auto& d : *t.shape) {
    if (d.kind == Dim::Kind::Value)
      arr.push_back(d.value);
    else if (d.kind == Dim::Kind::Param && !d.param.empty())
      arr.push_back(d.param);
    else
      arr.push_back(nullptr);
  }
  return arr;
}

ModelSummary::Io io(const Value* v) {
  ModelSummary::Io r;
  r.name = v->name();
  r.dtype = v->type.kind == TypeInfo::Kind::Tensor ? std::string(dataTypeName(v->type.elemType)) : v->type.toString();
  r.shape = shapeJson(v->type);
  return r;
}

void countSubgraphs(const Graph& g, size_t& graphs, size_t& nodes) {
  for (const auto& n : g.nodes())
    for (Graph* sg : n->subgraphs()) {
      ++graphs;
      nodes += sg->nodeCount();
      countSubgraphs(*sg, graphs, nodes);
    }
}

}  // namespace

std::vector<const Value*> feedInputs(const Graph& g) {
  std::vector<const Value*> out;
  for (const Value* v : g.inputs())
    if (!v->initializer()) out.push_back(v);
  return out;
}

ModelSummary summarize(const Model& m) {
  ModelSummary s;
  s.format = m.sourceFormat;
  s.path = m.sourcePath;
  s.irVersion = m.irVersion;
  s.producerName = m.producerName;
  s.producerVersion = m.producerVersion;
  s.opsets = m.opsets;
  const Graph& g = m.graph();
  for (const Value* v : g.inputs()) s.inputs.push_back(io(v));
  for (const Value* v : g.outputs()) s.outputs.push_back(io(v));
  s.nodes = g.nodeCount();
  for (const auto& n : g.nodes()) ++s.ops[n->qualifiedOp()];
  countSubgraphs(g, s.subgraphs, s.subgraphNodes);
  s.functions = m.functions.size();
  s.initializers = g.initializers().size();
  for (const auto& t : g.initializers()) {
    s.parameters += static_cast<uint64_t>(t->numElements());
    s.parameterBytes += t->dtype == DataType::String ? 0 : t->expectedBytes();
    auto& w = s.weightTypes[std::string(dataTypeName(t->dtype))];
    ++w.tensors;
    w.elements += static_cast<uint64_t>(t->numElements());
    w.bytes += t->dtype == DataType::String ? 0 : t->expectedBytes();
    w.storage = storageDescription(t->dtype);
  }
  return s;
}

nlohmann::json toJson(const ModelSummary& s) {
  using nlohmann::json;
  json j;
  j["format"] = s.format;
  j["path"] = s.path;
  j["ir_version"] = s.irVersion;
  j["producer"] = {{"name", s.producerName}, {"version", s.producerVersion}};
  json opsets = json::object();
  for (const auto& o : s.opsets) opsets[o.domain == "ai.onnx" ? "" : o.domain] = o.version;
  j["opsets"] = opsets;
  auto ios = [](const std::vector<ModelSummary::Io>& v) {
    json a = json::array();
    for (const auto& i : v) a.push_back({{"name", i.name}, {"dtype", i.dtype}, {"shape", i.shape}});
    return a;
  };
  j["inputs"] = ios(s.inputs);
  j["outputs"] = ios(s.outputs);
  j["nodes"] = s.nodes;
  j["subgraph_nodes"] = s.subgraphNodes;
  j["ops"] = json(s.ops);
  j["initializers"] = s.initializers;
  j["parameters"] = s.parameters;
  j["parameter_bytes"] = s.parameterBytes;
  j["subgraphs"] = s.subgraphs;
  j["functions"] = s.functions;
  json types = json::object();
  for (const auto& [name, w] : s.weightTypes)
    types[name] = {{"tensors", w.tensors}, {"elements", w.elements}, {"bytes", w.bytes}, {"storage", w.storage}};
  j["weight_types"] = types;
  return j;
}

std::string toText(const ModelSummary& s) {
  std::ostringstream os;
  auto shapeText = [](const nlohmann::json& sh) {
    if (sh.is_null()) return std::string("[?]");
    std::string out = "[";
    for (size_t k = 0; k < sh.size(); ++k) {
      if (k) out += ", ";
      out += sh[k].is_null()     ? "?"
             : sh[k].is_string() ? sh[k].get<std::string>()
                                 : std::to_string(sh[k].get<int64_t>());
    }
    return out + "]";
  };
  os << s.path << "\n";
  os << "  format      " << s.format << ", IR version " << s.irVersion << "\n";
  os << "  producer    " << (s.producerName.empty() ? "(none)" : s.producerName) << " " << s.producerVersion << "\n";
  os << "  opsets     ";
  for (const auto& o : s.opsets) os << " " << (o.domain.empty() ? "ai.onnx" : o.domain) << "=" << o.version;
  os << "\n";
  for (const auto& i : s.inputs) os << "  input       " << i.name << ": " << i.dtype << shapeText(i.shape) << "\n";
  for (const auto& o : s.outputs) os << "  output      " << o.name << ": " << o.dtype << shapeText(o.shape) << "\n";
  os << "  nodes       " << s.nodes;
  if (s.subgraphs) os << " (+" << s.subgraphNodes << " in " << s.subgraphs << " subgraphs)";
  os << "\n";
  os << "  parameters  " << s.parameters << " in " << s.initializers << " initializers, "
     << (s.parameterBytes >= (1 << 20) ? std::to_string(s.parameterBytes >> 20) + " MB"
                                       : std::to_string(s.parameterBytes) + " bytes")
     << "\n";
  for (const auto& [name, w] : s.weightTypes)
    os << "  weights     " << name << ": " << w.tensors << " tensors, " << w.elements << " elements, " << w.bytes
       << " bytes (" << w.storage << ")\n";
  if (s.functions) os << "  functions   " << s.functions << "\n";
  os << "  operators\n";
  std::vector<std::pair<size_t, std::string>> sorted;
  for (const auto& [op, n] : s.ops) sorted.emplace_back(n, op);
  std::sort(sorted.rbegin(), sorted.rend());
  // Spaces, not a tab: the CLI escapes control characters in what a model file holds, a tab included.
  for (const auto& [n, op] : sorted) os << "    " << std::setw(6) << n << "  " << op << "\n";
  return os.str();
}

}  // namespace fb
