// Renaming values (graph inputs and outputs included) and nodes. A new name never merges two values: it must be
// free, which is what keeps every value with one producer.
#include <memory>

#include "edit/edit_support.h"
#include "edit/edit_verb.h"

namespace fb::edit {

namespace {

std::optional<std::string> checkValueRename(const ir::Graph& g, const std::string& from, const std::string& to) {
  if (!findLiveValue(g, from)) return "the graph has no value " + q(from);
  if (from == to) return "the new name is the old one";
  if (!nameIsFree(g, to)) return "a value is named " + q(to) + " already";
  if (capturedBySubgraph(g, from)) return "a subgraph reads " + q(from) + " by name";
  if (capturedBySubgraph(g, to)) return "a subgraph reads an outer value named " + q(to);
  return std::nullopt;
}

std::optional<std::string> checkNodeRename(const ir::Graph& g, const std::string& from, const std::string& to) {
  std::string why;
  if (!findNode(g, from, why)) return why;
  if (from == to) return "the new name is the old one";
  if (findNode(g, to, why) || why.find("nodes are named") != std::string::npos)
    return "a node is named " + q(to) + " already";
  return std::nullopt;
}

Applied renameValue(ir::Model& m, const std::string& from, const std::string& to) {
  m.graph().renameValue(m.graph().findValue(from), to);
  Applied out;
  out.undo = {[from, to](ir::Model& model) { model.graph().renameValue(model.graph().findValue(to), from); },
              sizeof(Undo) + from.size() + to.size()};
  return out;
}

Applied renameNode(ir::Model& m, const std::string& from, const std::string& to) {
  std::string why;
  findNode(m.graph(), from, why)->name = to;
  Applied out;
  out.undo = {[from, to](ir::Model& model) {
                std::string w;
                if (ir::Node* n = findNode(model.graph(), to, w)) n->name = from;
              },
              sizeof(Undo) + from.size() + to.size()};
  return out;
}

class RenameValue : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"from", true, "value"}, {"to", true, "new name"}}; }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    return checkValueRename(m.graph(), e.get("from"), e.get("to"));
  }
  Applied apply(ir::Model& m, const Edit& e) const override { return renameValue(m, e.get("from"), e.get("to")); }
};

class RenameNode : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"from", true, "node"}, {"to", true, "new name"}}; }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    return checkNodeRename(m.graph(), e.get("from"), e.get("to"));
  }
  Applied apply(ir::Model& m, const Edit& e) const override { return renameNode(m, e.get("from"), e.get("to")); }
};

// A value if one has the name, else a node: what --rename OLD=NEW means.
class Rename : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"from", true, "value or node"}, {"to", true, "new name"}}; }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    const std::string from = e.get("from");
    std::string why;
    const bool isValue = findLiveValue(m.graph(), from) != nullptr;
    const bool isNode = findNode(m.graph(), from, why) != nullptr;
    if (isValue && isNode) return "both a value and a node are named " + q(from) + " (use rename-value or rename-node)";
    if (isValue) return checkValueRename(m.graph(), from, e.get("to"));
    if (isNode) return checkNodeRename(m.graph(), from, e.get("to"));
    return "the graph has no value or node named " + q(from);
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    if (findLiveValue(m.graph(), e.get("from"))) return renameValue(m, e.get("from"), e.get("to"));
    return renameNode(m, e.get("from"), e.get("to"));
  }
};

}  // namespace

void registerRenameEdits(EditRegistry& r) {
  r.add({"rename", "Rename a value (input, output, weight) or, if no value has the name, a node",
         std::make_shared<Rename>()});
  r.add({"rename-value", "Rename a value; the new name must be free", std::make_shared<RenameValue>()});
  r.add({"rename-node", "Rename a node", std::make_shared<RenameNode>()});
}

}  // namespace fb::edit
