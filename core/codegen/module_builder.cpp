#include "codegen/module_builder.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "codegen/python_text.h"
#include "codegen/weights_writer.h"
#include "convert/handler.h"

namespace fb::codegen {

ModuleBuilder::ModuleBuilder(const ir::Model& model, Flavour flavour) : model_(model), flavour_(flavour) {
  for (std::string_view n : nnModuleAttributeNames()) members_.reserve(std::string(n));
}

const ir::Value* ModuleBuilder::resolve(const ir::Value* v) const {
  for (int depth = 0; v && v->isOuterScope() && v->graph() && v->graph()->parent() && depth < 64; ++depth) {
    const ir::Value* outer = v->graph()->parent()->findValueInScope(v->name());
    if (!outer || outer == v) break;
    v = outer;
  }
  return v;
}

const ir::Tensor* ModuleBuilder::constantTensor(const ir::Value* v) {
  v = resolve(v);
  if (!v) return nullptr;
  if (v->initializer()) return v->initializer();
  if (auto it = foldedBy_.find(v); it != foldedBy_.end()) credit(it->second);
  if (auto it = constantCache_.find(v); it != constantCache_.end()) return it->second;
  const ir::Tensor* found = nullptr;
  const ir::Node* p = v->producer();
  // PyTorch exports share a weight between layers through Identity nodes.
  if (p && p->opType == "Identity" && p->isDefaultDomain() && p->input(0)) {
    found = constantTensor(p->input(0));
  } else if (p && p->opType == "Constant" && p->isDefaultDomain()) {
    if (const auto* a = p->attr("value"); a && !a->tensors.empty()) {
      found = &a->tensors[0];
    } else {
      ir::Tensor t;
      t.name = v->name();
      if (const auto* f = p->attr("value_float"))
        t = ir::Tensor::fromValues(v->name(), ir::DataType::Float, {}, std::vector<float>{f->f});
      else if (const auto* fs = p->attr("value_floats"))
        t = ir::Tensor::fromValues(v->name(), ir::DataType::Float, {static_cast<int64_t>(fs->floats.size())},
                                   fs->floats.vec());
      else if (const auto* i = p->attr("value_int"))
        t = ir::Tensor::fromValues(v->name(), ir::DataType::Int64, {}, std::vector<int64_t>{i->i});
      else if (const auto* is = p->attr("value_ints"))
        t = ir::Tensor::fromValues(v->name(), ir::DataType::Int64, {static_cast<int64_t>(is->ints.size())}, is->ints);
      if (t.dtype != ir::DataType::Undefined) {
        ownedConstants_.push_back(std::move(t));
        found = &ownedConstants_.back();
      }
    }
  }
  constantCache_[v] = found;
  return found;
}

std::string ModuleBuilder::expr(const ir::Value* v) {
  if (auto it = exprs_.find(v); it != exprs_.end()) return it->second;
  const ir::Value* r = resolve(v);
  if (r != v)
    if (auto it = exprs_.find(r); it != exprs_.end()) return it->second;
  if (auto it = statics_.find(r); it != statics_.end()) return materialise(r, it->second);
  if (constantTensor(v)) return weight(v, false);
  throw convert::Unsupported("value '" + v->name() + "' is used before anything defines it");
}

const StaticValue* ModuleBuilder::staticValue(const ir::Value* v) {
  auto it = statics_.find(resolve(v));
  if (it == statics_.end()) return nullptr;
  credit(it->second.nodes);
  return &it->second;
}

void ModuleBuilder::setStatic(const ir::Value* v, StaticValue s) { statics_[resolve(v)] = std::move(s); }

void ModuleBuilder::foldConstant(const ir::Value* v, ir::Tensor t, std::vector<uint64_t> nodes) {
  v = resolve(v);
  ownedConstants_.push_back(std::move(t));
  constantCache_[v] = &ownedConstants_.back();
  foldedBy_[v] = std::move(nodes);
}

std::string ModuleBuilder::materialise(const ir::Value* v, const StaticValue& s) {
  credit(s.nodes);
  std::string text = materialisedTensor(s);
  // A local made inside a nested block (If branch, Loop body) would not be seen after it: write the tensor there.
  if (s.indent != indent_) return text;
  std::string name = newLocal(v);
  line(name + " = " + text, currentNode_);
  return name;
}

std::string ModuleBuilder::newLocal(const ir::Value* v) {
  std::string name = locals_.claim(identifierForValue(v->name()));
  exprs_[v] = name;
  return name;
}

namespace {
// A readable attribute name for a constant. Exporters name the parameters of a layer after the module
// ("layers.0.linear1.bias"); constants they made themselves are anonymous ("onnx::MatMul_613", a
// transposed weight) or named after a Constant node ("/layers.0/self_attn/Constant_output_0").
std::string weightName(const ir::Value* v, const ir::Node* consumer, int slot) {
  const std::string& name = v->name();
  if (name.rfind("onnx::", 0) == 0 && consumer && !consumer->name.empty()) {
    std::string scope = identifierForValue(consumer->name.substr(0, consumer->name.rfind('/') + 1) + "x");
    if (scope.size() > 2 && scope.compare(scope.size() - 2, 2, "_x") == 0)
      scope.resize(scope.size() - 2);
    else
      scope.clear();
    const char* role = slot == 1 ? "weight" : slot == 2 ? "bias" : "const";
    return scope.empty() ? identifierForWeight(name) : scope + "_" + role;
  }
  if (name.find('/') != std::string::npos) return identifierForValue(name);
  return identifierForWeight(name);
}
}  // namespace

namespace {
// The 2-D tensor with rows and columns swapped, byte for byte (element types of whole bytes only).
std::optional<ir::Tensor> transposedCopy(const ir::Tensor& t) {
  if (t.dims.size() != 2 || !ir::isFloatingPoint(t.dtype) || t.numElements() <= 0) return std::nullopt;
  const auto bytes = t.bytes();
  const size_t n = static_cast<size_t>(t.numElements()), size = bytes.size() / n;
  if (size == 0 || size * n != bytes.size() || size > 8) return std::nullopt;
  const size_t rows = static_cast<size_t>(t.dims[0]), cols = static_cast<size_t>(t.dims[1]);
  std::string out(bytes.size(), '\0');
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c)
      std::memcpy(out.data() + (c * rows + r) * size, bytes.data() + (r * cols + c) * size, size);
  ir::Tensor result;
  result.name = t.name;
  result.dtype = t.dtype;
  result.dims = {t.dims[1], t.dims[0]};
  result.setBytes(std::move(out));
  return result;
}
}  // namespace

std::string ModuleBuilder::weightExpr(const Weight& w) const { return "self." + w.attr + (w.transposed ? ".t()" : ""); }

std::string ModuleBuilder::weight(const ir::Value* v, bool trainable, const ir::Node* consumer, int slot) {
  const ir::Tensor* t = constantTensor(v);
  if (!t) throw convert::Unsupported("input '" + v->name() + "' must be a constant here");
  // One weight per value: PyTorch exports alias a layer's parameter through an Identity named like the
  // layer's own (`features.4.squeeze.bias`), even where two layers' initial values were equal.
  const ir::Value* r = resolve(v);
  if (auto it = weightIndex_.find(r); it != weightIndex_.end()) {
    // A tensor first seen as a buffer becomes a parameter when a consumer trains it.
    Weight& w = weights_[it->second];
    if (trainable && ir::isFloatingPoint(t->dtype)) w.parameter = true;
    if (currentNode_ && std::find(w.users.begin(), w.users.end(), currentNode_) == w.users.end())
      w.users.push_back(currentNode_);
    return weightExpr(w);
  }
  // Decided here, before any code is written, by the rule the weights writer follows: `check` (a dry run) then
  // refuses exactly the weights `convert` could not write.
  const auto stored = storedWeightType(t->dtype, flavour_);
  if (!stored)
    throw convert::Unsupported("weight '" + v->name() + "' is " + std::string(ir::dataTypeName(t->dtype)) + ", which " +
                               (flavour_ == Flavour::OneFlow ? "oneflow.save/load" : "a PyTorch state dict") +
                               " cannot hold");
  Weight w;
  w.onnxName = r->name();
  if (*stored == t->dtype) {
    w.tensor = *t;
  } else {
    w.tensor = widenedExactly(*t, *stored);
    w.sourceType = t->dtype;
  }
  // The exporter's module tree where the name says where the weight belongs, today's flat names elsewhere.
  if (auto original = originalWeight(*r, consumer, slot)) {
    std::optional<ir::Tensor> transposed;
    if (original->transposed) transposed = transposedCopy(w.tensor);
    if (!original->transposed || transposed)
      if (auto attr = tree_.place(original->name, members_)) {
        w.key = original->name;
        w.attr = *attr;
        w.foldedBatchNorm = original->foldedBatchNorm;
        if (transposed) {
          w.tensor = std::move(*transposed);
          w.transposed = true;
        }
      }
  }
  if (w.key.empty()) w.key = w.attr = members_.claim(weightName(r, consumer, slot));
  w.parameter = trainable && ir::isFloatingPoint(t->dtype);
  if (currentNode_) w.users.push_back(currentNode_);
  weights_.push_back(std::move(w));
  weightIndex_[r] = weights_.size() - 1;
  return weightExpr(weights_.back());
}

std::string ModuleBuilder::spell(const std::string& text) const {
  // `T.` not preceded by a word character or a dot, outside string literals and comments (whose text may come
  // from the model) becomes the namespace alias. A linear scan: no regex ever reads text from a model.
  const std::string alias = std::string(namespaceAlias(flavour_)) + ".";
  std::string out;
  out.reserve(text.size());
  char quote = 0;
  bool comment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (comment) {
      comment = c != '\n';
    } else if (quote) {
      if (c == '\\' && i + 1 < text.size()) {
        out += c;
        out += text[++i];
        continue;
      }
      if (c == quote || c == '\n') quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      comment = true;
    } else if (c == 'T' && i + 1 < text.size() && text[i + 1] == '.') {
      const char before = i ? text[i - 1] : ' ';
      const bool word = before == '_' || before == '.' || (before >= '0' && before <= '9') ||
                        (before >= 'A' && before <= 'Z') || (before >= 'a' && before <= 'z');
      if (!word) {
        out += alias;
        ++i;
        continue;
      }
    }
    out += c;
  }
  return out;
}

void ModuleBuilder::line(const std::string& text, uint64_t nodeId, std::string comment) {
  // Handlers build lines from identifiers (NameTable), literals (pyStringLiteral, pyFloat, ...) and fixed text; a
  // line that is not one clean line of printable ASCII means model text got in some other way: fail the node.
  if (!isCleanCodeLine(text))
    throw std::logic_error("a generated line is not one clean line of Python (internal error)");
  std::vector<uint64_t> folded(pendingCredits_.begin(), pendingCredits_.end());
  pendingCredits_.clear();
  lines_.push_back(CodeLine{indent_, spell(text), nodeId, std::move(comment), std::move(folded)});
}

}  // namespace fb::codegen
