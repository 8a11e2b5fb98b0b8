#include "passes/rewrite_utils.h"

#include <algorithm>

namespace fb::passes {

int64_t onnxOpset(const ir::Model& m) { return m.opsetVersion(""); }

const ir::Value* skipIdentities(const ir::Value* v) {
  while (v && v->producer() && v->producer()->opType == "Identity" && v->producer()->isDefaultDomain() &&
         v->producer()->input(0))
    v = v->producer()->input(0);
  return v;
}

const ir::Tensor* constantTensor(const ir::Value* v) {
  v = skipIdentities(v);
  if (!v) return nullptr;
  if (v->initializer()) return v->isGraphInput() ? nullptr : v->initializer();
  // A body reads an enclosing graph's constant by name: the constant is the enclosing graph's.
  if (v->isOuterScope() && v->graph() && v->graph()->parent())
    if (const ir::Value* outer = v->graph()->parent()->findValueInScope(v->name()); outer && outer != v)
      return constantTensor(outer);
  if (const ir::Node* p = v->producer(); p && p->opType == "Constant" && p->isDefaultDomain()) {
    const ir::Attribute* a = p->attr("value");
    if (a && a->type == ir::AttrType::Tensor && !a->tensors.empty()) return &a->tensors[0];
  }
  return nullptr;
}

std::optional<std::vector<int64_t>> constantInts(const ir::Value* v) {
  const ir::Tensor* t = constantTensor(v);
  if (!t) return std::nullopt;
  using D = ir::DataType;
  if (t->dtype != D::Int64 && t->dtype != D::Int32 && t->dtype != D::Int16 && t->dtype != D::Int8) return std::nullopt;
  auto out = t->asInt64();
  if (static_cast<int64_t>(out.size()) != t->numElements()) return std::nullopt;
  return out;
}

bool isConstantAllEqual(const ir::Value* v, double x) {
  const ir::Tensor* t = constantTensor(v);
  if (!t || t->dtype == ir::DataType::String) return false;
  auto d = t->asDouble();
  if (d.empty() || static_cast<int64_t>(d.size()) != t->numElements()) return false;
  return std::all_of(d.begin(), d.end(), [x](double y) { return y == x; });
}

std::optional<std::vector<int64_t>> staticDims(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (v->initializer()) return v->initializer()->dims;
  return v->type.staticDims();
}

std::optional<size_t> knownRank(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (v->initializer()) return v->initializer()->dims.size();
  if (v->type.isTensor() && v->type.shape) return v->type.shape->size();
  return std::nullopt;
}

ir::TypeInfo tensorTypeOf(const ir::Tensor& t) {
  ir::Shape s;
  s.reserve(t.dims.size());
  for (auto d : t.dims) s.push_back(ir::Dim::of(d));
  return ir::TypeInfo::tensor(t.dtype, std::move(s));
}

ir::Node* soleConsumer(const ir::Value* v) {
  if (v->uses().size() != 1 || v->isGraphOutput()) return nullptr;
  return v->uses()[0].node;
}

std::vector<uint64_t> mergeOrigins(std::initializer_list<const ir::Node*> nodes) {
  std::vector<uint64_t> out;
  for (const ir::Node* n : nodes)
    if (n) out.insert(out.end(), n->origins.begin(), n->origins.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<ir::Node*> nodeList(const ir::Graph& g) {
  std::vector<ir::Node*> out;
  out.reserve(g.nodeCount());
  for (const auto& n : g.nodes()) out.push_back(n.get());
  return out;
}

Rewriter::Rewriter(ir::Model& m, ir::Graph& g) : model_(m), graph_(g), opset_(onnxOpset(m)) {}

bool Rewriter::captured(const ir::Value* v) const {
  if (!captured_) {
    captured_.emplace();
    for (const auto& n : graph_.nodes())
      for (ir::Graph* sg : n->subgraphs())
        for (const auto& name : sg->capturedNames()) captured_->insert(name);
  }
  return !captured_->empty() && captured_->count(v->name()) != 0;
}

bool Rewriter::pinned(const ir::Value* v) const { return v->isGraphOutput() || captured(v); }

bool Rewriter::replaceValue(ir::Value* from, ir::Value* to) {
  if (from == to) return true;
  if (captured(from)) return false;
  if (!from->isGraphOutput()) {
    graph_.replaceAllUses(from, to);
    change.other = true;
    return true;
  }
  // A graph output keeps its name: the value that replaces it is renamed, which only an ordinary
  // intermediate may be.
  if (!to->producer() || to->isGraphInput() || to->initializer() || to->isGraphOutput() || captured(to) ||
      to->isOuterScope())
    return false;
  const std::string name = from->name();
  const ir::TypeInfo type = from->type;
  graph_.replaceAllUses(from, to);
  graph_.renameValue(from, graph_.uniqueName(name + "_replaced"));
  graph_.renameValue(to, name);
  if (type.kind != ir::TypeInfo::Kind::None) to->type = type;
  change.other = true;
  return true;
}

void Rewriter::erase(ir::Node* n) {
  graph_.removeNode(n);
  ++change.nodesRemoved;
}

bool Rewriter::bypass(ir::Node* n) {
  ir::Value* out = n->output(0);
  ir::Value* in = n->input(0);
  if (!out || !in) return false;
  for (size_t k = 1; k < n->outputs().size(); ++k)
    if (ir::Value* o = n->output(k); o && (!o->uses().empty() || pinned(o))) return false;
  if (!replaceValue(out, in)) return false;
  erase(n);
  return true;
}

ir::Node* Rewriter::create(std::string op, const std::vector<ir::Value*>& ins, const std::vector<ir::Value*>& outs,
                           ir::Node* before, std::vector<uint64_t> origins) {
  ir::Node* n = graph_.addNode(std::move(op), ins, outs, "", before);
  n->origins = std::move(origins);
  ++change.nodesAdded;
  return n;
}

ir::Value* Rewriter::addConstant(ir::Tensor t, const std::string& base) {
  t.name = graph_.uniqueName(base);
  ++change.initializersAdded;
  return graph_.addInitializer(std::move(t));
}

}  // namespace fb::passes
