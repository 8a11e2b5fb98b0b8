#include "ir/node.h"

#include <algorithm>

#include "ir/graph.h"
#include "ir/value.h"

namespace fb::ir {
namespace {
void dropUse(Value* v, Node* n, int index) {
  if (!v) return;
  auto& uses = const_cast<std::vector<Use>&>(v->uses());
  auto it = std::find(uses.begin(), uses.end(), Use{n, index});
  if (it != uses.end()) uses.erase(it);
}
void addUse(Value* v, Node* n, int index) {
  if (v) const_cast<std::vector<Use>&>(v->uses()).push_back(Use{n, index});
}
// The node now reads other values; the producers of the values it stopped or started reading have other readers.
void noteRewired(Node* n, const Value* before, const Value* after) {
  ChangeJournal* j = n->graph() ? n->graph()->journal() : nullptr;
  if (!j) return;
  j->touch(n);
  if (before) j->touch(before->producer());
  if (after && after != before) j->touch(after->producer());
}
void noteEdited(Node* n) {
  if (ChangeJournal* j = n->graph() ? n->graph()->journal() : nullptr) j->touch(n);
}
}  // namespace

void Node::setInput(size_t i, Value* v) {
  if (i >= inputs_.size()) inputs_.resize(i + 1, nullptr);
  Value* old = inputs_[i];
  dropUse(old, this, static_cast<int>(i));
  inputs_[i] = v;
  addUse(v, this, static_cast<int>(i));
  noteRewired(this, old, v);
}

void Node::addInput(Value* v) {
  inputs_.push_back(v);
  addUse(v, this, static_cast<int>(inputs_.size() - 1));
  noteRewired(this, nullptr, v);
}

void Node::removeInput(size_t i) {
  if (i >= inputs_.size()) return;
  for (size_t k = i; k < inputs_.size(); ++k) dropUse(inputs_[k], this, static_cast<int>(k));
  const Value* old = inputs_[i];
  inputs_.erase(inputs_.begin() + static_cast<long>(i));
  for (size_t k = i; k < inputs_.size(); ++k) addUse(inputs_[k], this, static_cast<int>(k));
  noteRewired(this, old, nullptr);
}

void Node::clearInputs() {
  for (size_t k = 0; k < inputs_.size(); ++k) {
    dropUse(inputs_[k], this, static_cast<int>(k));
    noteRewired(this, inputs_[k], nullptr);
  }
  inputs_.clear();
}

const Attribute* Node::attr(std::string_view n) const {
  for (const auto& a : attributes)
    if (a.name == n) return &a;
  return nullptr;
}

Attribute* Node::attr(std::string_view n) {
  for (auto& a : attributes)
    if (a.name == n) return &a;
  return nullptr;
}

int64_t Node::attrInt(std::string_view n, int64_t def) const {
  auto* a = attr(n);
  return a && a->type == AttrType::Int ? a->i : def;
}

float Node::attrFloat(std::string_view n, float def) const {
  auto* a = attr(n);
  return a && a->type == AttrType::Float ? a->f : def;
}

std::string Node::attrString(std::string_view n, std::string def) const {
  auto* a = attr(n);
  return a && a->type == AttrType::String ? a->s.str() : def;
}

std::vector<int64_t> Node::attrInts(std::string_view n) const {
  auto* a = attr(n);
  return a && a->type == AttrType::Ints ? a->ints : std::vector<int64_t>{};
}

void Node::setAttr(Attribute a) {
  noteEdited(this);
  if (auto* e = attr(a.name)) {
    *e = std::move(a);
    return;
  }
  attributes.push_back(std::move(a));
}

bool Node::removeAttr(std::string_view n) {
  auto it = std::find_if(attributes.begin(), attributes.end(), [&](const Attribute& a) { return a.name == n; });
  if (it == attributes.end()) return false;
  attributes.erase(it);
  noteEdited(this);
  return true;
}

std::string Node::qualifiedOp() const { return isDefaultDomain() ? opType : domain + "::" + opType; }

std::vector<Graph*> Node::subgraphs() const {
  std::vector<Graph*> out;
  for (const auto& a : attributes)
    for (const auto& g : a.graphs)
      if (g) out.push_back(g.get());
  return out;
}

}  // namespace fb::ir
