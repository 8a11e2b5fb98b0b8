#pragma once
// What the verbs share: finding nodes and values by name with a reason when there is none, taking nodes out of a
// graph and putting them back where they were (the undo of every edit that removes nodes), and reading the typed
// values of arguments.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.h"

namespace fb::edit {

// 'name' for messages (the CLI escapes control characters when it prints them).
std::string q(const std::string& name);

// The one main-graph node named `name` (by the graph's name index: no walk); nullptr with the reason in `why` when
// none or several are (edit/node_index.h). A node of an If/Loop/Scan body is not found, and the reason names the body
// it is in.
ir::Node* findNode(const ir::Model& m, const std::string& name, std::string& why);
// The same, and when the main graph has no such node, the one node so named in a body (at any depth): for the
// edits that change a node without rewiring it (attributes, op type, name).
ir::Node* findNodeInModel(const ir::Model& m, const std::string& name, std::string& why);
// A value of the graph that something defines or reads (not a name left over from a removed node).
ir::Value* findLiveValue(const ir::Graph& g, const std::string& name);
// "the graph has no value 'x'", naming the body the value is in when a body has it.
std::string noValue(const ir::Model& m, const std::string& name);
bool isLive(const ir::Value& v);
// A name no live value has: a value could take it without making two producers or merging two values.
bool nameIsFree(const ir::Graph& g, const std::string& name);
// Whether a subgraph reads `name` from the main graph by name (renaming or removing it would break the body).
bool capturedBySubgraph(const ir::Model& m, const std::string& name);

// A node named so that an undo record finds it again after later edits were undone (their undo rebuilds the nodes
// they removed as new objects): by the name of its first output (a value has one producer), or, for a node
// without outputs, by its position in graph order (a walk, only then).
struct NodeRef {
  std::string output;
  size_t position = 0;
  static NodeRef of(const ir::Graph& g, const ir::Node& n);
  ir::Node* resolve(const ir::Graph& g) const;
  size_t bytes() const { return sizeof(NodeRef) + output.size(); }
};

// A node as it was, by names, so it can be rebuilt after its Node object is gone.
struct NodeSnapshot {
  bool last = false;  // it goes at the end of the graph, else before `next`
  NodeRef next;       // the node that followed it (and the others taken out with it) in graph order
  std::string name, opType, domain, docString;
  std::vector<ir::Attribute> attributes;     // bodies and tensors are shared, not copied
  std::vector<std::string> inputs, outputs;  // "" for an omitted optional slot
  std::vector<uint64_t> origins;
  size_t bytes() const;
};
// Positions of the nodes in graph order (one walk).
std::vector<size_t> positionsOf(const ir::Graph& g, const std::vector<const ir::Node*>& nodes);
// Snapshots of `nodes` in graph order, then the nodes removed from `g`. Their outputs stay as values (with their
// types), so that putting the nodes back finds them. No walk of the graph: O(nodes taken out).
std::vector<NodeSnapshot> takeOutNodes(ir::Model& m, const std::vector<ir::Node*>& nodes);
// Puts snapshots back where they were (the graph must be as takeOutNodes left it).
void putBackNodes(ir::Graph& g, const std::vector<NodeSnapshot>& snaps);

// Whether `v` is computed (through any path back) from an output of one of `nodes`: wiring `v` into a reader
// that one of them depends on would close a cycle.
bool dependsOnAny(const ir::Value* v, const std::vector<const ir::Node*>& nodes);

// Typed argument values. nullopt when the text is not one.
std::optional<int64_t> parseInt(const std::string& s);
std::optional<double> parseDouble(const std::string& s);
std::optional<std::vector<int64_t>> parseInts(const std::string& s);  // "1,2,3" or "[1, 2, 3]"; "" or "[]" empty
std::optional<std::vector<double>> parseDoubles(const std::string& s);
// "1,3,224,224", "batch,3,?,?" (a name is a symbolic dim, '?' unknown), "" or "[]" a scalar.
std::optional<ir::Shape> parseShape(const std::string& s);
std::vector<std::string> splitList(const std::string& s);  // comma-separated names; "" is none

}  // namespace fb::edit

namespace fb::edit {

// The nodes at the given positions of the graph's node order (one walk; nullptr past the end).
std::vector<ir::Node*> nodesAt(const ir::Graph& g, const std::vector<size_t>& positions);

// Where a value is read: reader nodes and input slots, and graph output slots. Undo records keep these to wire the
// readers back on the graph as the edit left it, which is what it is again at undo.
struct ValueReaders {
  std::vector<std::pair<NodeRef, int>> inputs;  // (reader, input slot)
  std::vector<size_t> graphOutputs;             // output slots
  static ValueReaders of(const ir::Graph& g, const ir::Value& v);
  // Makes every recorded reader read `v` again.
  void rewire(ir::Graph& g, ir::Value* v) const;
  size_t bytes() const {
    size_t b = sizeof(*this) + graphOutputs.size() * 8;
    for (const auto& [ref, slot] : inputs) b += ref.bytes() + sizeof(int);
    return b;
  }
};

}  // namespace fb::edit
