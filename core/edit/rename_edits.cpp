// Renaming values (graph inputs and outputs included) and nodes. A new name never merges two values: it must be
// free, which is what keeps every value with one producer.
#include <memory>

#include "edit/edit_support.h"
#include "edit/edit_verb.h"
#include "edit/node_index.h"

namespace fb::edit {

namespace {

std::optional<std::string> checkValueRename(const ir::Model& m, const std::string& from, const std::string& to) {
  const ir::Graph& g = m.graph();
  if (!findLiveValue(g, from)) return noValue(m, from);
  if (from == to) return "the new name is the old one";
  if (!nameIsFree(g, to)) return "a value is named " + q(to) + " already";
  if (capturedBySubgraph(m, from)) return "a subgraph reads " + q(from) + " by name";
  if (capturedBySubgraph(m, to)) return "a subgraph reads an outer value named " + q(to);
  return std::nullopt;
}

// A node of the main graph or of a body (renaming does not rewire anything); the new name must be free in both.
std::optional<std::string> checkNodeRename(const ir::Model& m, const std::string& from, const std::string& to) {
  std::string why;
  if (!findNodeInModel(m, from, why)) return why;
  if (from == to) return "the new name is the old one";
  if (findNodeInModel(m, to, why) || why.find("nodes ") != std::string::npos)
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

// Node::name is not journaled: the name index is told (a node of a body is not indexed).
void setNodeName(ir::Model& m, ir::Node* n, const std::string& name) {
  n->name = name;
  if (n->graph() == &m.graph()) NodeIndex::of(m).renamed(n);
}

Applied renameNode(ir::Model& m, const std::string& from, const std::string& to) {
  std::string why;
  setNodeName(m, findNodeInModel(m, from, why), to);
  Applied out;
  out.undo = {[from, to](ir::Model& model) {
                std::string w;
                if (ir::Node* node = findNodeInModel(model, to, w)) setNodeName(model, node, from);
              },
              sizeof(Undo) + from.size() + to.size()};
  return out;
}

class RenameValue : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"from", true, "value"}, {"to", true, "new name"}}; }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    return checkValueRename(m, e.get("from"), e.get("to"));
  }
  Applied apply(ir::Model& m, const Edit& e) const override { return renameValue(m, e.get("from"), e.get("to")); }
};

class RenameNode : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"from", true, "node"}, {"to", true, "new name"}}; }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    return checkNodeRename(m, e.get("from"), e.get("to"));
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
    const bool isNode = findNodeInModel(m, from, why) != nullptr;
    if (isValue && isNode) return "both a value and a node are named " + q(from) + " (use rename-value or rename-node)";
    if (isValue) return checkValueRename(m, from, e.get("to"));
    if (isNode) return checkNodeRename(m, from, e.get("to"));
    if (why.find("nodes ") != std::string::npos) return why;
    const std::string value = noValue(m, from);
    return value.find(" (it is") == std::string::npos ? "the graph has no value or node named " + q(from) : value;
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
