#include "convert/handler.h"

namespace fb::convert {

ir::Node* HandlerContext::insertNode(ir::Node& at, std::string opType, const std::vector<ir::Value*>& inputs,
                                     const std::vector<ir::Value*>& outputs, std::string domain) {
  ir::Node* n = graph.addNode(std::move(opType), inputs, outputs, std::move(domain), &at);
  n->origins = at.origins;
  if (!at.name.empty()) n->name = at.name + "/" + n->opType + "_" + std::to_string(newNodes.size());
  newNodes.push_back(n->id());
  return n;
}

namespace {
template <typename T>
ir::Value* constant(ir::Graph& g, const std::string& base, ir::DataType dt, const std::vector<T>& values, bool scalar) {
  std::string name = g.uniqueName(base);
  std::vector<int64_t> dims;
  if (!scalar) dims.push_back(static_cast<int64_t>(values.size()));
  return g.addInitializer(ir::Tensor::fromValues(name, dt, dims, values));
}
}  // namespace

ir::Value* HandlerContext::constantInt64(const std::string& base, const std::vector<int64_t>& values, bool asScalar) {
  return constant(graph, base, ir::DataType::Int64, values, asScalar);
}

ir::Value* HandlerContext::constantFloat(const std::string& base, const std::vector<float>& values, bool asScalar) {
  return constant(graph, base, ir::DataType::Float, values, asScalar);
}

void HandlerContext::removeReplaced(ir::Node& n) {
  graph.removeNode(&n);
  replaced = true;
}

}  // namespace fb::convert
