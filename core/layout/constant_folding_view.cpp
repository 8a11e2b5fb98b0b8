#include "layout/constant_folding_view.h"

#include <cmath>
#include <cstdio>

#include "schema/onnx_schema.h"
#include "schema/opsets.h"
#include "ir/graph.h"
#include "ir/tensor.h"

#include <onnx/defs/schema.h>

namespace fb::layout {

namespace {

constexpr int64_t kMaxShownElements = 6;

std::string formatNumber(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(int64_t(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

bool isNumeric(ir::DataType t) { return t != ir::DataType::Undefined && t != ir::DataType::String; }

// The tensor a Constant node holds, nullptr when it holds a list attribute (value_ints, ...).
const ir::Tensor* constantTensor(const ir::Node& n) {
  const ir::Attribute* a = n.attr("value");
  return a && !a->tensors.empty() ? &a->tensors.front() : nullptr;
}

std::string describeConstantNode(const ir::Node& n) {
  if (const ir::Tensor* t = constantTensor(n)) return describeTensor(*t);
  for (const auto& a : n.attributes) return "= " + a.valueToString(kMaxShownElements);
  return {};
}

// The schema's name for input `i` ("W", "B"); "in<i>" when the schema does not say.
std::string inputName(const ir::Node& n, int i) {
  const onnx::OpSchema* s = schema::schemaAt(n.domain, n.opType, schema::kLibonnxMaxOpset);
  if (s && !s->inputs().empty()) {
    const auto& formals = s->inputs();
    const auto& f = formals[std::min<size_t>(size_t(i), formals.size() - 1)];
    if (size_t(i) < formals.size() || f.GetOption() == onnx::OpSchema::Variadic) return f.GetName();
  }
  return "in" + std::to_string(i);
}

bool usedInGraph(const ir::Value* v) { return v && !v->uses().empty() && !v->isGraphOutput(); }

}  // namespace

std::string describeTensor(const ir::Tensor& t) {
  const int64_t count = t.numElements();
  if (isNumeric(t.dtype) && count >= 0 && count <= kMaxShownElements) {
    try {
      const auto values = t.asDouble();
      if (int64_t(values.size()) == count) {
        std::string out = "= ";
        if (!t.dims.empty()) out += "[";
        for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + formatNumber(values[i]);
        if (!t.dims.empty()) out += "]";
        return out;
      }
    } catch (const std::exception&) {
      // Unreadable data (a missing side file): the shape still says something.
    }
  }
  std::string out;
  for (size_t i = 0; i < t.dims.size(); ++i) out += (i ? "\xC3\x97" : "") + std::to_string(t.dims[i]);  // ×
  return out.empty() ? std::string("scalar") : out;
}

const ir::Tensor* initializerOf(const ir::Value* v) {
  if (!v) return nullptr;
  if (v->initializer()) return v->isGraphInput() ? nullptr : v->initializer();
  if (!v->isOuterScope() || !v->graph()) return nullptr;
  for (const ir::Graph* g = v->graph()->parent(); g; g = g->parent())
    if (const ir::Value* outer = g->findValue(v->name())) return initializerOf(outer);
  return nullptr;
}

const ir::Tensor* foldedTensorOf(const ir::Value* v, const ir::Value** source) {
  // Bounded: a malformed file could chain Identity nodes in a cycle.
  for (int hops = 0; v && hops < 256; ++hops) {
    if (const ir::Tensor* weight = initializerOf(v)) {
      if (source) *source = v;
      return weight;
    }
    const ir::Node* p = v->producer();
    if (!p || !p->isDefaultDomain() || p->outputs().size() != 1) return nullptr;
    if (p->opType == "Identity" && p->inputs().size() == 1) {
      v = p->input(0);
    } else if (p->opType == "Constant" && p->inputs().empty()) {
      const ir::Tensor* t = constantTensor(*p);
      if (t && source) *source = v;
      return t;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

const ir::Node* ConstantFolding::shownAs(const ir::Node* n) const {
  auto it = consumerOf.find(n);
  return it == consumerOf.end() ? n : it->second;
}

ConstantFolding foldConstantsForView(const ir::Graph& g) {
  ConstantFolding out;
  // What each folded value shows on its consumers (initializers are described lazily below).
  std::unordered_map<const ir::Value*, std::string> foldedText;
  for (const auto& node : g.nodes()) {
    const ir::Node* n = node.get();
    if (!n->isDefaultDomain() || n->outputs().size() != 1 || !usedInGraph(n->output(0))) continue;
    if (n->opType == "Constant" && n->inputs().empty()) {
      foldedText[n->output(0)] = describeConstantNode(*n);
    } else if (n->opType == "Identity" && n->inputs().size() == 1 && n->input(0)) {
      const ir::Value* in = n->input(0);
      if (const ir::Tensor* weight = initializerOf(in)) {
        foldedText[n->output(0)] = describeTensor(*weight);
      } else if (auto it = foldedText.find(in); it != foldedText.end()) {
        foldedText[n->output(0)] = it->second;
      } else {
        continue;
      }
    } else {
      continue;
    }
    out.folded.insert(n);
  }
  // Consumers: the first drawn node that reads a folded value (an Identity's consumer is found through it).
  for (const auto& node : g.nodes()) {
    const ir::Node* n = node.get();
    if (out.folded.count(n)) continue;
    for (size_t i = 0; i < n->inputs().size(); ++i) {
      const ir::Value* v = n->input(i);
      if (!v) continue;
      std::string text;
      if (auto it = foldedText.find(v); it != foldedText.end()) {
        text = it->second;
        // This node and the folded chain that produced the value.
        for (const ir::Node* p = v->producer(); p && out.folded.count(p);
             p = p->inputs().empty() ? nullptr : p->input(0)->producer())
          out.consumerOf.emplace(p, n);
      } else if (const ir::Tensor* weight = initializerOf(v)) {
        text = describeTensor(*weight);
      } else {
        continue;
      }
      const std::string name = inputName(*n, int(i));
      out.inputsOf[n].push_back({int(i), v, text.rfind("= ", 0) == 0 ? name + " " + text : name + " " + text});
    }
  }
  // A folded node whose value no drawn node reads (only other folded nodes, all unused) stays drawn.
  for (auto it = out.folded.begin(); it != out.folded.end();) {
    if (!out.consumerOf.count(*it))
      it = out.folded.erase(it);
    else
      ++it;
  }
  return out;
}

}  // namespace fb::layout
