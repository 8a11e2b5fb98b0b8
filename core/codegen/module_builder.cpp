#include "codegen/module_builder.h"

#include <algorithm>
#include <stdexcept>

#include "codegen/python_text.h"
#include "codegen/weights_writer.h"
#include "convert/handler.h"

namespace fb::codegen {

ModuleBuilder::ModuleBuilder(const ir::Model& model, Flavour flavour) : model_(model), flavour_(flavour) {
  // Attributes of nn.Module a weight must not shadow: every one torch 1.13 has, the ones later versions added,
  // OneFlow's own, and the instance attributes nn.Module sets in __init__.
  for (const char* n : {"T_destination",
                        "add_module",
                        "apply",
                        "bfloat16",
                        "buffers",
                        "call_super_init",
                        "children",
                        "compile",
                        "cpu",
                        "cuda",
                        "double",
                        "dump_patches",
                        "eval",
                        "extra_repr",
                        "float",
                        "forward",
                        "get_buffer",
                        "get_extra_state",
                        "get_parameter",
                        "get_submodule",
                        "half",
                        "ipu",
                        "load_state_dict",
                        "modules",
                        "mtia",
                        "named_buffers",
                        "named_children",
                        "named_modules",
                        "named_parameters",
                        "parameters",
                        "register_backward_hook",
                        "register_buffer",
                        "register_forward_hook",
                        "register_forward_pre_hook",
                        "register_full_backward_hook",
                        "register_full_backward_pre_hook",
                        "register_load_state_dict_post_hook",
                        "register_load_state_dict_pre_hook",
                        "register_module",
                        "register_parameter",
                        "register_state_dict_hook",
                        "register_state_dict_post_hook",
                        "register_state_dict_pre_hook",
                        "requires_grad_",
                        "set_extra_state",
                        "set_submodule",
                        "share_memory",
                        "state_dict",
                        "to",
                        "to_empty",
                        "train",
                        "type",
                        "xpu",
                        "zero_grad",
                        "training",
                        "to_consistent",
                        "to_global",
                        "make_contiguous_params_",
                        "forward_pre_hooks",
                        "forward_hooks",
                        "backward_hooks"})
    members_.reserve(n);
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

std::string ModuleBuilder::weight(const ir::Value* v, bool trainable, const ir::Node* consumer, int slot) {
  const ir::Tensor* t = constantTensor(v);
  if (!t) throw convert::Unsupported("input '" + v->name() + "' must be a constant here");
  // One weight per value: PyTorch exports alias a layer's parameter through an Identity named like the
  // layer's own (`features.4.squeeze.bias`), even where two layers' initial values were equal.
  const ir::Value* r = resolve(v);
  if (auto it = weightKeys_.find(r); it != weightKeys_.end()) {
    // A tensor first seen as a buffer becomes a parameter when a consumer trains it.
    for (auto& w : weights_) {
      if (w.key != it->second) continue;
      if (trainable && ir::isFloatingPoint(t->dtype)) w.parameter = true;
      if (currentNode_ && std::find(w.users.begin(), w.users.end(), currentNode_) == w.users.end())
        w.users.push_back(currentNode_);
    }
    return "self." + it->second;
  }
  // Decided here, before any code is written, by the rule the weights writer follows: `check` (a dry run) then
  // refuses exactly the weights `convert` could not write.
  const auto stored = storedWeightType(t->dtype, flavour_);
  if (!stored)
    throw convert::Unsupported("weight '" + v->name() + "' is " + std::string(ir::dataTypeName(t->dtype)) + ", which " +
                               (flavour_ == Flavour::OneFlow ? "oneflow.save/load" : "a PyTorch state dict") +
                               " cannot hold");
  std::string key = members_.claim(weightName(r, consumer, slot));
  Weight w;
  w.key = key;
  w.onnxName = r->name();
  if (*stored == t->dtype) {
    w.tensor = *t;
  } else {
    w.tensor = widenedExactly(*t, *stored);
    w.sourceType = t->dtype;
  }
  w.parameter = trainable && ir::isFloatingPoint(t->dtype);
  if (currentNode_) w.users.push_back(currentNode_);
  weights_.push_back(std::move(w));
  weightKeys_[r] = key;
  return "self." + key;
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
