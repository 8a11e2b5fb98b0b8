// Removing a node: its output rewired to one of its inputs where the types allow (bypass), or its readers left
// reading new graph inputs. Undo puts the node back at its place and the readers back on its output.
#include <memory>

#include "check/onnx_check.h"
#include "edit/edit_support.h"
#include "edit/edit_verb.h"

namespace fb::edit {

namespace {

// Why `from` cannot stand for `to` in its readers, or nullopt (unknown types are let through: the check after
// the script judges them).
std::optional<std::string> typeClash(const ir::Value& from, const ir::Value& to) {
  const ir::TypeInfo &a = from.type, &b = to.type;
  if (a.kind == ir::TypeInfo::Kind::None || b.kind == ir::TypeInfo::Kind::None) return std::nullopt;
  if (a.kind != b.kind) return q(from.name()) + " is " + a.toString() + ", " + q(to.name()) + " is " + b.toString();
  if (a.elemType != ir::DataType::Undefined && b.elemType != ir::DataType::Undefined && a.elemType != b.elemType)
    return q(from.name()) + " is " + a.toString() + ", " + q(to.name()) + " is " + b.toString();
  if (a.hasStaticShape() && b.hasStaticShape() && a.staticDims() != b.staticDims())
    return q(from.name()) + " is " + a.toString() + ", " + q(to.name()) + " is " + b.toString();
  return std::nullopt;
}

class RemoveNode : public EditVerb {
 public:
  explicit RemoveNode(bool bypass) : bypass_(bypass) {}
  std::vector<EditArg> args() const override {
    if (bypass_)
      return {{"node", true, "node"}, {"input", false, "the input its readers read instead (default: the first)"}};
    return {{"node", true, "node"},
            {"rewire", false, "one of its inputs, read instead of its output (else the readers get graph inputs)"}};
  }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    std::string why;
    const ir::Node* n = findNode(m, e.get("node"), why);
    if (!n) return why;
    const ir::Value* with = replacement(*n, e, why);
    if (!why.empty()) return why;
    if (with) {
      const ir::Value* used = nullptr;
      for (const ir::Value* out : n->outputs()) {
        if (!out || (out->uses().empty() && !out->isGraphOutput())) continue;
        if (used) return "more than one of its outputs is used; only a node with one can be bypassed";
        used = out;
      }
      if (used) {
        if (auto clash = typeClash(*with, *used)) return "types differ: " + *clash;
        if (capturedBySubgraph(m, used->name())) return "a subgraph reads " + q(used->name()) + " by name";
      }
      return std::nullopt;
    }
    for (const ir::Value* out : n->outputs())
      if (out && out->isGraphOutput())
        return q(out->name()) + " is a graph output: give rewire= or remove the output first";
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    ir::Graph& g = m.graph();
    std::string why;
    ir::Node* n = findNode(m, e.get("node"), why);
    ir::Value* with = replacement(*n, e, why);
    Applied out;
    struct Record {
      std::vector<NodeSnapshot> node;
      std::vector<std::pair<std::string, ValueReaders>> moved;  // outputs whose readers now read `with`
      std::string with;
      std::vector<std::pair<std::string, ir::TypeInfo>> newInputs;  // outputs made graph inputs, old types
    };
    auto rec = std::make_shared<Record>();
    if (with) {
      rec->with = with->name();
      for (ir::Value* o : n->outputs()) {
        if (!o || (o->uses().empty() && !o->isGraphOutput())) continue;
        rec->moved.emplace_back(o->name(), ValueReaders::of(g, *o));
        if (o->isGraphOutput()) out.notes.push_back("graph output " + q(o->name()) + " is now " + q(with->name()));
        g.replaceAllUses(o, with);
      }
    } else {
      std::unordered_map<std::string, ir::TypeInfo> inferred;
      bool inferredYet = false;
      for (ir::Value* o : n->outputs()) {
        if (!o || o->uses().empty()) continue;
        rec->newInputs.emplace_back(o->name(), o->type);
        if (o->type.kind == ir::TypeInfo::Kind::None || (o->type.isTensor() && !o->type.shape)) {
          if (!inferredYet) inferred = inferShapes(m);
          inferredYet = true;
          if (auto it = inferred.find(o->name()); it != inferred.end()) o->type = it->second;
        }
      }
    }
    rec->node = takeOutNodes(m, {n});
    for (const auto& [name, type] : rec->newInputs) {
      g.addInput(g.findValue(name));
      out.notes.push_back(q(name) + " is now a graph input (" + g.findValue(name)->type.toString() + ")");
    }
    size_t bytes = sizeof(Record) + rec->node[0].bytes() + rec->with.size();
    for (const auto& [name, r] : rec->moved) bytes += name.size() + r.bytes();
    for (const auto& [name, t] : rec->newInputs) bytes += name.size() + sizeof(t);
    out.undo = {[rec](ir::Model& model) {
                  ir::Graph& graph = model.graph();
                  std::vector<ir::Value*> added;
                  for (const auto& [name, type] : rec->newInputs) added.push_back(graph.findValue(name));
                  graph.removeInputs(added);
                  for (const auto& [name, type] : rec->newInputs) graph.findValue(name)->type = type;
                  putBackNodes(graph, rec->node);
                  for (const auto& [name, readers] : rec->moved) readers.rewire(graph, graph.findValue(name));
                },
                bytes};
    return out;
  }

 private:
  bool bypass_;
  // The input that replaces the node's output, nullptr when none is asked for; `why` says when the one asked
  // for is not an input of the node.
  ir::Value* replacement(const ir::Node& n, const Edit& e, std::string& why) const {
    why.clear();
    const std::string key = bypass_ ? "input" : "rewire";
    if (!e.has(key)) {
      if (!bypass_) return nullptr;
      for (ir::Value* in : n.inputs())
        if (in) return in;
      why = "node " + q(n.name) + " has no input";
      return nullptr;
    }
    for (ir::Value* in : n.inputs())
      if (in && in->name() == e.get(key)) return in;
    why = q(e.get(key)) + " is not an input of node " + q(n.name);
    return nullptr;
  }
};

}  // namespace

void registerNodeRemovalEdits(EditRegistry& r) {
  r.add({"remove-node", "Delete a node; its readers read rewire= (one of its inputs) or, without it, new graph inputs",
         std::make_shared<RemoveNode>(false)});
  r.add({"bypass-node", "Delete a node as if it were Identity: its readers read its first (or the given) input",
         std::make_shared<RemoveNode>(true)});
}

}  // namespace fb::edit
