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

// The one main-graph node named `name`; nullptr with the reason in `why` when none or several are.
ir::Node* findNode(const ir::Graph& g, const std::string& name, std::string& why);
// A value of the graph that something defines or reads (not a name left over from a removed node).
ir::Value* findLiveValue(const ir::Graph& g, const std::string& name);
bool isLive(const ir::Value& v);
// A name no live value has: a value could take it without making two producers or merging two values.
bool nameIsFree(const ir::Graph& g, const std::string& name);
// Whether a subgraph reads `name` from the main graph by name (renaming or removing it would break the body).
bool capturedBySubgraph(const ir::Graph& g, const std::string& name);

// A node as it was, by names, so it can be rebuilt after its Node object is gone.
struct NodeSnapshot {
  size_t position = 0;  // in the graph's node order when it was taken out
  std::string name, opType, domain, docString;
  std::vector<ir::Attribute> attributes;     // bodies and tensors are shared, not copied
  std::vector<std::string> inputs, outputs;  // "" for an omitted optional slot
  std::vector<uint64_t> origins;
  size_t bytes() const;
};
// Positions of the nodes in graph order (one walk).
std::vector<size_t> positionsOf(const ir::Graph& g, const std::vector<const ir::Node*>& nodes);
// Snapshots of `nodes` sorted by position, then the nodes removed from `g`. Their outputs stay as values (with
// their types), so that putting the nodes back finds them.
std::vector<NodeSnapshot> takeOutNodes(ir::Graph& g, const std::vector<ir::Node*>& nodes);
// Puts snapshots back at their positions (the graph must be as takeOutNodes left it: one walk).
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

// Where a value is read: reader positions and input slots, and graph output slots. Undo records keep these to
// wire the readers back; positions are those of the graph the edit saw, which is what it is again at undo.
struct ValueReaders {
  std::vector<std::pair<size_t, int>> inputs;  // (node position, input slot)
  std::vector<size_t> graphOutputs;            // output slots
  static ValueReaders of(const ir::Graph& g, const ir::Value& v);
  // Makes every recorded reader read `v` again.
  void rewire(ir::Graph& g, ir::Value* v) const;
  size_t bytes() const { return sizeof(*this) + inputs.size() * 16 + graphOutputs.size() * 8; }
};

}  // namespace fb::edit
