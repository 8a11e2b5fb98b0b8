#include "ir/graph.h"

#include <algorithm>
#include <unordered_set>

#include <absl/container/flat_hash_set.h>

namespace fb::ir {
namespace {
// Room for about a million insertions at one place before the keys are spread again.
constexpr uint64_t kOrderGap = uint64_t{1} << 20;
}  // namespace

Graph::Graph(std::shared_ptr<IdSource> ids) : ids_(ids ? std::move(ids) : std::make_shared<IdSource>()) {}
Graph::~Graph() = default;

Value* Graph::findValue(std::string_view n) const {
  auto it = byName_.find(NameKey{n});
  return it == byName_.end() ? nullptr : it->second;
}

Value* Graph::findValueInScope(std::string_view n) const {
  for (const Graph* g = this; g; g = g->parent_) {
    Value* v = g->findValue(n);
    if (v && !v->isOuterScope()) return v;
  }
  return nullptr;
}

Value* Graph::getOrCreateValue(std::string_view n) {
  auto [it, added] = byName_.try_emplace(NameKey{n}, nullptr);
  if (!added) return it->second;
  auto v = std::make_unique<Value>();
  v->name_ = n;
  v->graph_ = this;
  Value* raw = v.get();
  values_.push_back(std::move(v));
  it->first.view = raw->name_;  // the same characters, now the value's own
  it->second = raw;
  return raw;
}

void Graph::reserveValues(size_t count) {
  values_.reserve(values_.size() + count);
  byName_.reserve(byName_.size() + count);
}

std::string Graph::uniqueName(const std::string& base) const {
  auto taken = [&](const std::string& s) {
    for (const Graph* g = this; g; g = g->parent_)
      if (g->findValue(s)) return true;
    return false;
  };
  if (!base.empty() && !taken(base)) return base;
  auto& counter = const_cast<uint64_t&>(uniqueCounter_);
  for (;;) {
    std::string s = (base.empty() ? std::string("v") : base) + "_fb" + std::to_string(++counter);
    if (!taken(s)) return s;
  }
}

Value* Graph::createUniqueValue(const std::string& base) { return getOrCreateValue(uniqueName(base)); }

void Graph::renameValue(Value* v, const std::string& newName) {
  if (v->name_ == newName) return;
  byName_.erase(NameKey{v->name_});
  v->name_ = newName;
  touchAround(v);
  // A value already under this name loses its entry, as before; the key must view v's own name.
  byName_.erase(NameKey{v->name_});
  byName_.emplace(NameKey{v->name_}, v);
  if (v->initializer_) v->initializer_->name = newName;
}

std::vector<Value*> Graph::values() const {
  std::vector<Value*> out;
  out.reserve(values_.size());
  for (const auto& v : values_) out.push_back(v.get());
  return out;
}

Node* Graph::addNode(std::string opType, const std::vector<Value*>& inputs, const std::vector<Value*>& outputs,
                     std::string domain, Node* before) {
  auto n = std::make_unique<Node>();
  n->opType = std::move(opType);
  n->domain = std::move(domain);
  n->id_ = ids_->next++;
  n->graph_ = this;
  Node* raw = n.get();
  auto pos = before ? before->self_ : nodes_.end();
  raw->self_ = nodes_.insert(pos, std::move(n));
  placeInOrder(raw);
  if (journal_) journal_->touch(raw);
  raw->inputs_.reserve(inputs.size());
  raw->outputs_.reserve(outputs.size());
  for (Value* v : inputs) raw->addInput(v);
  for (size_t i = 0; i < outputs.size(); ++i) setOutput(raw, i, outputs[i]);
  return raw;
}

void Graph::setOutput(Node* n, size_t i, Value* v) {
  if (i >= n->outputs_.size()) n->outputs_.resize(i + 1, nullptr);
  if (Value* old = n->outputs_[i]; old && old->producer_ == n) {
    old->producer_ = nullptr;
    old->producerOutput_ = -1;
  }
  Value* old = n->outputs_[i];
  n->outputs_[i] = v;
  if (v) {
    v->producer_ = n;
    v->producerOutput_ = static_cast<int>(i);
  }
  if (journal_) {  // readers of both values now see another producer (or none)
    journal_->touch(n);
    if (old != v) journal_->touchAround(old);
    journal_->touchAround(v);
  }
}

void Graph::removeNode(Node* n) {
  n->clearInputs();
  for (Value* v : n->outputs_)
    if (v && v->producer_ == n) {
      v->producer_ = nullptr;
      v->producerOutput_ = -1;
      touchAround(v);
    }
  if (journal_) journal_->removed(n);
  nodes_.erase(n->self_);
}

void Graph::moveBefore(Node* n, Node* before) {
  auto target = before ? before->self_ : nodes_.end();
  nodes_.splice(target, nodes_, n->self_);
  placeInOrder(n);
}

void Graph::placeInOrder(Node* n) {
  auto it = n->self_;
  const uint64_t lo = it == nodes_.begin() ? 0 : (*std::prev(it))->order_;
  auto next = std::next(it);
  if (next == nodes_.end()) {
    n->order_ = lo + kOrderGap;
    return;
  }
  const uint64_t hi = (*next)->order_;
  if (hi > lo + 1) {
    n->order_ = lo + (hi - lo) / 2;
    return;
  }
  renumberOrder();
}

void Graph::renumberOrder() {
  uint64_t key = 0;
  for (auto& n : nodes_) n->order_ = key += kOrderGap;
}

void Graph::replaceAllUses(Value* from, Value* to) {
  if (from == to) return;
  auto uses = from->uses_;
  for (const Use& u : uses) u.node->setInput(static_cast<size_t>(u.index), to);
  bool output = false;
  for (auto& o : outputs_)
    if (o == from) {
      o = to;
      --from->graphOutputs_;
      ++to->graphOutputs_;
      output = true;
    }
  if (output) {
    touchAround(from);
    touchAround(to);
  }
}

void Graph::addInput(Value* v) {
  v->graphInput_ = true;
  inputs_.push_back(v);
  touchAround(v);
}

void Graph::removeInput(Value* v) {
  inputs_.erase(std::remove(inputs_.begin(), inputs_.end(), v), inputs_.end());
  v->graphInput_ = false;
  touchAround(v);
}

void Graph::removeInputs(const std::vector<Value*>& vs) {
  for (Value* v : vs) {
    v->graphInput_ = false;
    touchAround(v);
  }
  std::erase_if(inputs_, [](const Value* v) { return !v->graphInput_; });
}

void Graph::addOutput(Value* v) {
  ++v->graphOutputs_;
  outputs_.push_back(v);
  touchAround(v);
}

void Graph::setGraphOutput(size_t i, Value* v) {
  --outputs_[i]->graphOutputs_;
  touchAround(outputs_[i]);
  outputs_[i] = v;
  ++v->graphOutputs_;
  touchAround(v);
}

void Graph::clearOutputs() {
  for (Value* v : outputs_) {
    --v->graphOutputs_;
    touchAround(v);
  }
  outputs_.clear();
}

void Graph::addValueInfo(Value* v) {
  if (v->inValueInfo_) return;
  v->inValueInfo_ = true;
  valueInfo_.push_back(v);
}

void Graph::clearValueInfo() {
  for (Value* v : valueInfo_) v->inValueInfo_ = false;
  valueInfo_.clear();
}

Value* Graph::addInitializer(Tensor t) {
  Value* v = getOrCreateValue(t.name);
  touchAround(v);  // its readers now read a constant (or another one)
  if (v->initializer_) {
    *v->initializer_ = std::move(t);
    return v;
  }
  if (v->type.kind == TypeInfo::Kind::None) {
    Shape s;
    s.reserve(t.dims.size());
    for (auto d : t.dims) s.push_back(Dim::of(d));
    v->type = TypeInfo::tensor(t.dtype, std::move(s));
  }
  initializers_.push_back(std::make_unique<Tensor>(std::move(t)));
  v->initializer_ = initializers_.back().get();
  return v;
}

void Graph::removeInitializer(Value* v) {
  if (!v->initializer_) return;
  auto it = std::find_if(initializers_.begin(), initializers_.end(),
                         [&](const std::unique_ptr<Tensor>& t) { return t.get() == v->initializer_; });
  if (it != initializers_.end()) initializers_.erase(it);
  v->initializer_ = nullptr;
  touchAround(v);
}

void Graph::removeInitializers(const std::vector<Value*>& vs) {
  absl::flat_hash_set<const Tensor*> gone;
  gone.reserve(vs.size());
  for (Value* v : vs)
    if (v->initializer_) {
      gone.insert(std::exchange(v->initializer_, nullptr));
      touchAround(v);
    }
  if (gone.empty()) return;
  std::erase_if(initializers_, [&](const std::unique_ptr<Tensor>& t) { return gone.count(t.get()) != 0; });
}

Value* Graph::addSparseInitializer(SparseTensor t) {
  Value* v = getOrCreateValue(t.values.name);
  v->sparseInitializer_ = true;
  touchAround(v);
  sparse_.push_back(std::move(t));
  return v;
}

void Graph::setOwner(Graph* parent, Node* owner) {
  parent_ = parent;
  owner_ = owner;
}

namespace {
bool referenced(const Value& v) {
  return v.producer() || !v.uses().empty() || v.isGraphInput() || v.isGraphOutput() || v.initializer() ||
         v.isSparseInitializer() || v.hasValueInfo();
}
}  // namespace

void Graph::pruneValues() {
  std::vector<std::unique_ptr<Value>> kept;
  kept.reserve(values_.size());
  for (auto& v : values_) {
    if (referenced(*v)) {
      kept.push_back(std::move(v));
    } else {
      byName_.erase(NameKey{v->name_});
    }
  }
  values_ = std::move(kept);
}

void Graph::pruneValues(const std::vector<Value*>& candidates) {
  absl::flat_hash_set<const Value*> gone;
  std::vector<Value*> batch;
  // Each removal from the name index is a cache miss on 100k-node graphs: the slots of a batch are fetched
  // together first, so the misses overlap instead of following one another.
  constexpr size_t kBatch = 32;
  auto flush = [&] {
    for (Value* v : batch) byName_.prefetch(NameKey{v->name_});
    for (Value* v : batch) byName_.erase(NameKey{v->name_});
    batch.clear();
  };
  for (Value* v : candidates) {
    if (!v || v->graph_ != this || referenced(*v) || !gone.insert(v).second) continue;
    batch.push_back(v);
    if (batch.size() == kBatch) flush();
  }
  flush();
  if (gone.empty()) return;
  // Only the pointer array is walked, not the values it points to.
  std::erase_if(values_, [&](const std::unique_ptr<Value>& v) { return gone.count(v.get()) != 0; });
}

std::vector<std::string> Graph::capturedNames() const {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& n) {
    Value* local = findValue(n);
    if ((!local || local->isOuterScope()) && seen.insert(n).second) out.push_back(n);
  };
  for (const auto& n : nodes_) {
    for (Value* v : n->inputs_)
      if (v && v->isOuterScope()) add(v->name());
    for (Graph* sg : n->subgraphs())
      for (const auto& name : sg->capturedNames()) add(name);
  }
  for (Value* v : outputs_)
    if (v->isOuterScope()) add(v->name());
  return out;
}

size_t Graph::totalNodeCount() const {
  size_t total = nodes_.size();
  for (const auto& n : nodes_)
    for (Graph* sg : n->subgraphs()) total += sg->totalNodeCount();
  return total;
}

std::shared_ptr<Graph> Graph::clone(std::shared_ptr<IdSource> ids) const {
  auto g = std::make_shared<Graph>(ids ? ids : ids_);
  g->name = name;
  g->docString = docString;
  g->quantizationAnnotations = quantizationAnnotations;
  g->unknownFields = unknownFields;
  g->uniqueCounter_ = uniqueCounter_;
  std::unordered_map<const Value*, Value*> map;
  map.reserve(values_.size());
  for (const auto& v : values_) {
    Value* c = g->getOrCreateValue(v->name_);
    c->type = v->type;
    c->docString = v->docString;
    c->unknownFields = v->unknownFields;
    c->outerScope_ = v->outerScope_;
    map[v.get()] = c;
  }
  for (const auto& t : initializers_) g->addInitializer(*t);
  for (const auto& s : sparse_) g->addSparseInitializer(s);
  for (Value* v : inputs_) g->addInput(map[v]);
  for (Value* v : outputs_) g->addOutput(map[v]);
  for (Value* v : valueInfo_) g->addValueInfo(map[v]);
  for (const auto& n : nodes_) {
    std::vector<Value*> ins, outs;
    for (Value* v : n->inputs_) ins.push_back(v ? map[v] : nullptr);
    for (Value* v : n->outputs_) outs.push_back(v ? map[v] : nullptr);
    Node* c = g->addNode(n->opType, ins, outs, n->domain);
    c->id_ = n->id_;
    c->name = n->name;
    c->docString = n->docString;
    c->unknownFields = n->unknownFields;
    c->origins = n->origins;
    c->attributes = n->attributes;
    for (auto& a : c->attributes)
      for (auto& sg : a.graphs)
        if (sg) {
          sg = sg->clone(g->ids_);
          sg->setOwner(g.get(), c);
        }
  }
  return g;
}

}  // namespace fb::ir
