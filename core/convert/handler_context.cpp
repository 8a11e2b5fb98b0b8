#include "convert/handler.h"

#include <algorithm>

#include "schema/shape_facts.h"

namespace fb::convert {

ir::Node* HandlerContext::insertNode(ir::Node& at, std::string opType, const std::vector<ir::Value*>& inputs,
                                     const std::vector<ir::Value*>& outputs, std::string domain) {
  ir::Node* n = graph.addNode(std::move(opType), inputs, outputs, std::move(domain), &at);
  n->origins = at.origins;
  if (!at.name.empty()) n->name = at.name + "/" + n->opType + "_" + std::to_string(newNodes.size());
  newNodes.push_back(n->id());
  created.push_back(n);
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

namespace fb::convert {

ir::DataType HandlerContext::elemType(const ir::Value* v) const {
  if (!v) return ir::DataType::Undefined;
  if (elemTypes)
    if (auto it = elemTypes->find(v); it != elemTypes->end()) return it->second;
  if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined) return v->type.elemType;
  return ir::DataType::Undefined;
}

std::optional<std::vector<int64_t>> HandlerContext::staticShape(const ir::Value* v) const {
  if (!v) return std::nullopt;
  if (auto d = v->type.staticDims()) return d;
  if (const ir::TypeInfo* t = inferredType(v)) return t->staticDims();
  return std::nullopt;
}

namespace {
// Ops whose output has the rank of their widest input (broadcasting and shape-preserving ops).
bool keepsRank(const std::string& op) {
  static const char* ops[] = {"Add",
                              "Sub",
                              "Mul",
                              "Div",
                              "Pow",
                              "Sqrt",
                              "Relu",
                              "Sigmoid",
                              "Tanh",
                              "Exp",
                              "Log",
                              "Neg",
                              "Abs",
                              "Erf",
                              "Softmax",
                              "LogSoftmax",
                              "Dropout",
                              "Identity",
                              "Cast",
                              "Clip",
                              "LeakyRelu",
                              "HardSigmoid",
                              "HardSwish",
                              "Where",
                              "Max",
                              "Min",
                              "Sum",
                              "Mean",
                              "MatMul",
                              "Transpose",
                              "LayerNormalization",
                              "BatchNormalization",
                              "Equal",
                              "Less",
                              "Greater",
                              "Not",
                              "Slice",
                              "Concat",
                              "Reciprocal",
                              "Floor",
                              "Ceil",
                              "Round",
                              "Sign",
                              "Elu",
                              "Selu",
                              "Gelu"};
  for (const char* o : ops)
    if (op == o) return true;
  return false;
}
}  // namespace

const ir::TypeInfo* HandlerContext::inferredType(const ir::Value* v) const {
  if (!v || !facts) return nullptr;
  const schema::ShapeFacts* f = facts();
  return f ? f->typeOf(v, model.graph()) : nullptr;
}

std::optional<int64_t> HandlerContext::rank(const ir::Value* v) const {
  if (!rankCache) return rankOf(v, 0);
  if (auto it = rankCache->find(v); it != rankCache->end()) return it->second;
  auto r = rankOf(v, 0);
  (*rankCache)[v] = r;
  return r;
}

std::optional<int64_t> HandlerContext::rankOf(const ir::Value* v, int depth) const {
  if (!v) return std::nullopt;
  if (v->type.isTensor() && v->type.shape) return static_cast<int64_t>(v->type.shape->size());
  if (const ir::TypeInfo* t = inferredType(v); t && t->shape) return static_cast<int64_t>(t->shape->size());
  // libonnx 1.12 loses the rank behind a Reshape whose target is computed at run time; rebuild it from
  // the producers (a symbolic batch dimension is the usual cause).
  const ir::Node* p = v->producer();
  if (!p || depth > 64 || !p->isDefaultDomain()) return std::nullopt;
  const std::string& op = p->opType;
  if (op == "Reshape") {
    if (auto d = staticShape(p->input(1)); d && d->size() == 1) return (*d)[0];
    return std::nullopt;
  }
  if (op == "Gemm" || op == "Flatten") return 2;
  if (op == "Unsqueeze") {
    auto r = rank(p->input(0));
    auto axes = p->hasAttr("axes") ? std::optional(p->attrInts("axes")) : constantInts(p->input(1));
    if (r && axes) return *r + static_cast<int64_t>(axes->size());
    return std::nullopt;
  }
  if (op.rfind("Reduce", 0) == 0 && p->attrInt("keepdims", 1) == 1) return rank(p->input(0));
  if (!keepsRank(op)) return std::nullopt;
  std::optional<int64_t> best;
  for (const ir::Value* in : p->inputs()) {
    if (!in) continue;
    auto r = rank(in);
    if (!r) return std::nullopt;
    best = std::max(best.value_or(0), *r);
    if (op == "Transpose" || op == "Slice" || op == "Concat" || op == "Clip" || op == "Dropout")
      break;  // data input only
  }
  return best;
}

namespace {
const ir::Tensor* constantTensor(const ir::Value* v) {
  if (!v) return nullptr;
  if (v->initializer()) return v->initializer();
  const ir::Node* p = v->producer();
  if (p && p->opType == "Constant" && p->isDefaultDomain())
    if (const auto* a = p->attr("value"); a && !a->tensors.empty()) return &a->tensors[0];
  return nullptr;
}
}  // namespace

std::optional<std::vector<int64_t>> HandlerContext::constantInts(const ir::Value* v) const {
  if (const auto* t = constantTensor(v)) return t->asInt64();
  if (v && facts)
    if (const schema::ShapeFacts* f = facts())
      if (const auto* known = f->valuesOf(v, model.graph())) return *known;
  if (v && v->producer() && v->producer()->opType == "Constant") {
    const ir::Node* p = v->producer();
    if (const auto* a = p->attr("value_ints")) return a->ints;
    if (const auto* a = p->attr("value_int")) return std::vector<int64_t>{a->i};
  }
  return std::nullopt;
}

std::optional<std::vector<double>> HandlerContext::constantDoubles(const ir::Value* v) const {
  if (const auto* t = constantTensor(v)) return t->asDouble();
  if (v && v->producer() && v->producer()->opType == "Constant") {
    const ir::Node* p = v->producer();
    if (const auto* a = p->attr("value_float")) return std::vector<double>{a->f};
    if (const auto* a = p->attr("value_floats")) return std::vector<double>(a->floats.begin(), a->floats.end());
  }
  return std::nullopt;
}

void HandlerContext::dropInput(ir::Node& n, size_t i) {
  ir::Value* v = n.input(i);
  if (i + 1 == n.inputs().size())
    n.removeInput(i);
  else
    n.setInput(i, nullptr);
  while (!n.inputs().empty() && n.inputs().back() == nullptr) n.removeInput(n.inputs().size() - 1);
  if (!v || !v->uses().empty() || v->isGraphOutput()) return;
  ir::Node* p = v->producer();
  if (!p || p->opType != "Constant" || p->graph() != &graph) return;
  // A subgraph may still read the value by name.
  for (const auto& other : graph.nodes())
    for (ir::Graph* sub : other->subgraphs())
      for (const auto& name : sub->capturedNames())
        if (name == v->name()) return;
  // The Constant may be one this handler created: forget it before it goes.
  if (auto it = std::find(created.begin(), created.end(), p); it != created.end()) {
    newNodes.erase(newNodes.begin() + (it - created.begin()));
    created.erase(it);
  }
  graph.removeNode(p);
}

}  // namespace fb::convert
