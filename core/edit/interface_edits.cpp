// The graph's interface: an input's shape, a symbolic dim pinned or renamed everywhere, graph outputs added and
// removed.
#include <memory>

#include "check/onnx_check.h"
#include "edit/edit_support.h"
#include "edit/edit_verb.h"

namespace fb::edit {

namespace {

// Old types of the values an edit retyped, by name: the undo of every type edit.
struct OldTypes {
  std::vector<std::pair<std::string, ir::TypeInfo>> types;
  void keep(const ir::Value& v) { types.emplace_back(v.name(), v.type); }
  Undo undo() const {
    auto self = std::make_shared<OldTypes>(*this);
    size_t bytes = sizeof(OldTypes);
    for (const auto& [n, t] : types) bytes += n.size() + sizeof(t) + (t.shape ? t.shape->size() * sizeof(ir::Dim) : 0);
    return {[self](ir::Model& m) {
              for (const auto& [n, t] : self->types)
                if (ir::Value* v = m.graph().findValue(n)) v->type = t;
            },
            bytes};
  }
};

bool mentionsParam(const ir::TypeInfo& t, const std::string& p) {
  if (!t.shape) return false;
  for (const auto& d : *t.shape)
    if (d.kind == ir::Dim::Kind::Param && d.param == p) return true;
  return false;
}

// Every dim named `p` in the main graph's value types becomes `to` (a dim of the same name is the same size
// throughout a model, so pinning it in one place pins it everywhere). Values in `skip` are left alone.
void substituteParam(ir::Graph& g, const std::string& p, const ir::Dim& to, OldTypes& old, const ir::Value* skip) {
  for (ir::Value* v : g.values()) {
    if (v == skip || !mentionsParam(v->type, p)) continue;
    old.keep(*v);
    for (auto& d : *v->type.shape)
      if (d.kind == ir::Dim::Kind::Param && d.param == p) d = to;
  }
}

class SetInputShape : public EditVerb {
 public:
  std::vector<EditArg> args() const override {
    return {{"name", true, "graph input"},
            {"shape", true, "dims, e.g. 1,3,224,224 (a name is a symbolic dim, ? unknown, [] a scalar)"}};
  }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    const ir::Value* v = m.graph().findValue(e.get("name"));
    if (!v || !v->isGraphInput() || v->initializer()) return "the graph has no input " + q(e.get("name"));
    if (!v->type.isTensor()) return q(v->name()) + " is not a tensor (" + v->type.toString() + ")";
    if (!parseShape(e.get("shape"))) return "not a shape: " + q(e.get("shape"));
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    ir::Graph& g = m.graph();
    ir::Value* v = g.findValue(e.get("name"));
    const ir::Shape shape = *parseShape(e.get("shape"));
    OldTypes old;
    old.keep(*v);
    Applied out;
    const std::optional<ir::Shape> before = v->type.shape;
    v->type.shape = shape;
    if (before && before->size() == shape.size())
      for (size_t k = 0; k < shape.size(); ++k)
        if ((*before)[k].kind == ir::Dim::Kind::Param && shape[k].isValue()) {
          const size_t n = old.types.size();
          substituteParam(g, (*before)[k].param, shape[k], old, v);
          if (old.types.size() > n)
            out.notes.push_back("dim " + q((*before)[k].param) + " is " + std::to_string(shape[k].value) + " in " +
                                std::to_string(old.types.size() - n) + " more value types");
        }
    out.undo = old.undo();
    return out;
  }
};

class SetDim : public EditVerb {
 public:
  std::vector<EditArg> args() const override {
    return {{"name", true, "symbolic dim (dim_param)"}, {"value", true, "a number, or a new name"}};
  }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    const std::string value = e.get("value");
    if (value.empty() || value == "?" || (parseInt(value) && *parseInt(value) < 0)) return "not a dim: " + q(value);
    for (const ir::Value* v : m.graph().values())
      if (mentionsParam(v->type, e.get("name"))) return std::nullopt;
    return "no value type has a dim named " + q(e.get("name"));
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    const std::string value = e.get("value");
    const ir::Dim to = parseInt(value) ? ir::Dim::of(*parseInt(value)) : ir::Dim::named(value);
    OldTypes old;
    substituteParam(m.graph(), e.get("name"), to, old, nullptr);
    Applied out;
    out.notes.push_back("dim " + q(e.get("name")) + " set to " + value + " in " + std::to_string(old.types.size()) +
                        " value types");
    out.undo = old.undo();
    return out;
  }
};

// Replaces the graph's output list (the undo of adding or removing one).
void setOutputs(ir::Graph& g, const std::vector<std::string>& names) {
  g.clearOutputs();
  for (const auto& n : names) g.addOutput(g.getOrCreateValue(n));
}

std::vector<std::string> outputNames(const ir::Graph& g) {
  std::vector<std::string> out;
  for (const ir::Value* v : g.outputs()) out.push_back(v->name());
  return out;
}

Undo restoreOutputs(const ir::Graph& g) {
  auto names = std::make_shared<std::vector<std::string>>(outputNames(g));
  size_t bytes = sizeof(*names);
  for (const auto& n : *names) bytes += sizeof(n) + n.size();
  return {[names](ir::Model& m) { setOutputs(m.graph(), *names); }, bytes};
}

class AddOutput : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"value", true, "a value of the main graph"}}; }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    const ir::Value* v = findLiveValue(m.graph(), e.get("value"));
    if (!v) return noValue(m, e.get("value"));
    if (v->isGraphOutput()) return q(v->name()) + " is a graph output already";
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    ir::Graph& g = m.graph();
    ir::Value* v = g.findValue(e.get("value"));
    Applied out;
    OldTypes old;
    // A graph output needs a type: shape inference gives the one the value has when the model does not say.
    if (v->type.kind == ir::TypeInfo::Kind::None) {
      old.keep(*v);
      auto inferred = inferShapes(m);
      if (auto it = inferred.find(v->name()); it != inferred.end())
        v->type = it->second;
      else
        out.notes.push_back("no type is known for " + q(v->name()) + "; the check will ask for one");
    }
    Undo outputs = restoreOutputs(g);
    g.addOutput(v);
    Undo types = old.undo();
    out.undo = {[outputs, types](ir::Model& model) {
                  outputs.revert(model);
                  types.revert(model);
                },
                outputs.bytes + types.bytes};
    return out;
  }
};

class RemoveOutput : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"value", true, "a graph output"}}; }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    const ir::Value* v = m.graph().findValue(e.get("value"));
    if (!v || !v->isGraphOutput()) return "the graph has no output " + q(e.get("value"));
    if (m.graph().outputs().size() == 1) return q(v->name()) + " is the graph's only output";
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    ir::Graph& g = m.graph();
    Applied out;
    out.undo = restoreOutputs(g);
    std::vector<std::string> names = outputNames(g);
    std::erase(names, e.get("value"));
    setOutputs(g, names);
    return out;
  }
};

}  // namespace

void registerInterfaceEdits(EditRegistry& r) {
  r.add({"set-input-shape", "Set a graph input's whole shape; a symbolic dim set to a number is pinned everywhere",
         std::make_shared<SetInputShape>()});
  r.add({"set-dim", "Set a symbolic dim to a number (or rename it) in every value type of the main graph",
         std::make_shared<SetDim>()});
  r.add({"add-output", "Make a value a graph output", std::make_shared<AddOutput>()});
  r.add({"remove-output", "Remove a graph output (the value stays)", std::make_shared<RemoveOutput>()});
}

}  // namespace fb::edit
