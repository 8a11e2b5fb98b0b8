// refreshValueTypesOf: libonnx inference on a small model of the nodes a pass changed (see value_types.h).
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "check/onnx_check.h"
#include "passes/rewrite_utils.h"
#include "passes/value_types.h"

namespace fb::passes {
namespace {

// Initializers up to this many elements are copied into the small model as initializers, because inference reads
// the values of shape-like inputs (Reshape's shape, Slice's starts, Resize's scales). The copy shares the bytes,
// and exportForInference still leaves out those of 4 KB and more exactly as for the whole graph; bigger ones are
// only declared, so a weight's bytes are never touched.
constexpr int64_t kCopiedInitializerElements = 4096;
// A computed input of at most this many elements (rank 0 or 1) is a shape-like value: its producer is copied in
// too, and so on upstream, so that data propagation sees a Shape -> Gather -> Concat -> Reshape chain whole, as it
// does on the whole graph. Otherwise a Reshape handed in alone would get unknown dims where the whole graph knows
// them. The chains are short; the budget keeps a pathological graph from turning this into a whole-graph walk.
constexpr int64_t kShapeLikeElements = 64;
constexpr size_t kContextNodesPerTarget = 32;
// Producer of an outside input whose type cannot be declared as a graph input (no type, unknown rank): the checker
// wants a typed graph input, but a node of a custom domain passes unchecked and inference skips it (no schema),
// so its output reaches the node handed in untyped, as it is in the model.
constexpr const char* kOpaqueDomain = "flowbridge.local_types";

// How much a type tells (kind, element type, rank, each dim that is a number or a named param): an incomplete
// inferred type replaces an incomplete current one only when it tells more, so a named dim the file declared is
// not traded for inference's "unk__".
int knowledge(const ir::TypeInfo& t) {
  if (t.kind == ir::TypeInfo::Kind::None) return 0;
  int k = 1;
  if (t.elemType != ir::DataType::Undefined) ++k;
  if (t.shape) {
    ++k;
    for (const auto& d : *t.shape)
      if (d.isValue() || (d.kind == ir::Dim::Kind::Param && !d.param.starts_with("unk__"))) ++k;
  }
  if (t.inner) k += knowledge(*t.inner);
  return k;
}

// What libonnx's checker accepts on a graph input: an element type and a shape field at every level.
bool declarable(const ir::TypeInfo& t) {
  switch (t.kind) {
    case ir::TypeInfo::Kind::Tensor:
    case ir::TypeInfo::Kind::SparseTensor:
      return t.elemType != ir::DataType::Undefined && t.shape.has_value();
    case ir::TypeInfo::Kind::Sequence:
    case ir::TypeInfo::Kind::Optional:
      return t.inner && declarable(*t.inner);
    case ir::TypeInfo::Kind::Map:
      return t.elemType != ir::DataType::Undefined && t.inner && declarable(*t.inner);
    default:
      return false;
  }
}

bool shapeLike(const ir::TypeInfo& t) {
  if (!t.isTensor() || !t.shape || t.shape->size() > 1) return false;
  return t.shape->empty() || !(*t.shape)[0].isValue() || (*t.shape)[0].value <= kShapeLikeElements;
}

bool writable(const ir::Value* v) {
  return v && !v->isGraphInput() && !v->isGraphOutput() && !v->initializer() && !v->isSparseInitializer();
}

bool hasIncompleteOutput(const ir::Node& n) {
  for (const ir::Value* v : n.outputs())
    if (writable(v) && typeIncomplete(v->type)) return true;
  return false;
}

// The values a node reads: its inputs, and for If/Loop/Scan the main-graph values its bodies capture by name.
// Those bodies are copied along (shared, not cloned) and the captured values declared like inputs, so libonnx
// infers the node's outputs from its bodies as on the whole graph. nullopt when a captured name is defined nowhere
// in the main graph (the small model would fail the checker; the node is left out).
std::optional<std::vector<ir::Value*>> readsOf(const ir::Node& n, const ir::Graph& main) {
  std::vector<ir::Value*> reads = n.inputs();
  for (ir::Graph* body : n.subgraphs())
    for (const auto& name : body->capturedNames()) {
      ir::Value* v = main.findValue(name);
      if (!v) return std::nullopt;
      reads.push_back(v);
    }
  return reads;
}

// One small model: the targets, the shape-like chains feeding them, every other value they read declared.
class LocalModel {
 public:
  explicit LocalModel(const ir::Model& m) : src_(m.graph()) {
    tmp_.irVersion = m.irVersion;
    tmp_.graph().name = "local_types";  // the checker wants a name
    tmp_.opsets = m.opsets;
    tmp_.opsets.push_back({kOpaqueDomain, 1});
    // Shared bodies: export only reads them.
    tmp_.functions = m.functions;
  }

  // Builds the graph; false when nothing can be inferred.
  bool build(const std::vector<ir::Node*>& targets) {
    std::vector<const ir::Node*> members;
    for (const ir::Node* n : targets) {
      auto reads = readsOf(*n, src_);
      if (!reads || !index_.emplace(n, members.size()).second) continue;
      members.push_back(n);
      reads_.push_back(std::move(*reads));
    }
    if (members.empty()) return false;
    pullShapeLikeProducers(members, kContextNodesPerTarget * members.size());
    for (const ir::Node* n : topoOrder(members)) copyNode(*n, reads_[index_.at(n)]);
    return true;
  }

  const ir::Model& model() const { return tmp_; }

 private:
  void pullShapeLikeProducers(std::vector<const ir::Node*>& members, size_t budget) {
    for (size_t k = 0; k < members.size() && budget > 0; ++k) {
      const std::vector<ir::Value*> reads = reads_[k];  // copy: reads_ grows below
      for (ir::Value* v : reads) {
        if (!v || !v->producer() || index_.count(v->producer()) || !shapeLike(v->type)) continue;
        const ir::Node* p = v->producer();
        if (!p->subgraphs().empty() || budget == 0) continue;
        --budget;
        index_.emplace(p, members.size());
        members.push_back(p);
        reads_.push_back(p->inputs());
      }
    }
  }

  // Kahn's order among the members only (the checker wants producers first); the members are few.
  std::vector<const ir::Node*> topoOrder(const std::vector<const ir::Node*>& members) const {
    std::vector<size_t> waiting(members.size(), 0);
    std::vector<std::vector<size_t>> readers(members.size());
    for (size_t k = 0; k < members.size(); ++k)
      for (const ir::Value* v : reads_[k])
        if (v && v->producer() && v->producer() != members[k])
          if (auto it = index_.find(v->producer()); it != index_.end()) {
            readers[it->second].push_back(k);
            ++waiting[k];
          }
    std::vector<const ir::Node*> order;
    std::vector<size_t> ready;
    for (size_t k = 0; k < members.size(); ++k)
      if (!waiting[k]) ready.push_back(k);
    while (!ready.empty()) {
      size_t k = ready.back();
      ready.pop_back();
      order.push_back(members[k]);
      for (size_t r : readers[k])
        if (--waiting[r] == 0) ready.push_back(r);
    }
    return order;  // a cycle (not a valid graph) leaves its nodes out
  }

  ir::Value* local(const ir::Value* v) {
    ir::Graph& g = tmp_.graph();
    if (v->producer() && index_.count(v->producer())) return g.getOrCreateValue(v->name());
    if (ir::Value* done = g.findValue(v->name())) return done;
    const ir::Tensor* init = v->initializer();
    if (init && init->numElements() <= kCopiedInitializerElements) {
      ir::Value* c = g.addInitializer(*init);
      // An input with a default keeps its declared type; IR 3 wants every initializer among the inputs.
      if (v->isGraphInput() || tmp_.irVersion < 4) {
        if (v->isGraphInput() && declarable(v->type)) c->type = v->type;
        g.addInput(c);
      }
      return c;
    }
    ir::Value* c = g.getOrCreateValue(v->name());
    if (declarable(v->type))
      c->type = v->type;
    else if (init)
      c->type = tensorTypeOf(*init);
    if (declarable(c->type)) {
      g.addInput(c);
    } else if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined && tmp_.opsetVersion("") >= 5) {
      // An element type without a rank: the checker refuses it on a graph input, yet inference reads the element
      // type (Reshape to a constant shape types its output from it alone). A Reshape of a declared scalar to a
      // shape of unknown length gives exactly that type.
      c->type = {};
      ir::Value* scalar = g.getOrCreateValue(freshName());
      scalar->type = ir::TypeInfo::tensor(v->type.elemType, ir::Shape{});
      g.addInput(scalar);
      ir::Value* shape = g.getOrCreateValue(freshName());
      shape->type = ir::TypeInfo::tensor(ir::DataType::Int64, ir::Shape{ir::Dim{}});
      g.addInput(shape);
      g.addNode("Reshape", {scalar, shape}, {c});
    } else {
      c->type = {};
      g.addNode("Opaque", {}, {c}, kOpaqueDomain);
    }
    return c;
  }

  std::string freshName() {
    std::string name;
    do name = "flowbridge_local_types_" + std::to_string(fresh_++);
    while (src_.findValue(name) || tmp_.graph().findValue(name));
    return name;
  }

  void copyNode(const ir::Node& n, const std::vector<ir::Value*>& reads) {
    std::vector<ir::Value*> ins;
    ins.reserve(n.inputs().size());
    for (size_t k = 0; k < reads.size(); ++k) {
      ir::Value* l = reads[k] ? local(reads[k]) : nullptr;
      if (k < n.inputs().size()) ins.push_back(l);  // the rest are captures: declared, not wired
    }
    std::vector<ir::Value*> outs;
    outs.reserve(n.outputs().size());
    for (const ir::Value* v : n.outputs()) outs.push_back(v ? tmp_.graph().getOrCreateValue(v->name()) : nullptr);
    ir::Node* c = tmp_.graph().addNode(n.opType, ins, outs, std::string(n.domain.str()));
    c->name = n.name;
    c->attributes = n.attributes;
  }

  const ir::Graph& src_;
  ir::Model tmp_;
  std::unordered_map<const ir::Node*, size_t> index_;
  std::vector<std::vector<ir::Value*>> reads_;
  size_t fresh_ = 0;
};

// libonnx names the dims it cannot know unk__0, unk__1, ... afresh in every run, so two runs would give two
// different unknown dims one name, which says they are equal. Named after the value and position instead they stay
// apart, and come out the same whatever order the nodes were inferred in. The prefix stays: passes treat unk__ dims
// as made up (fold_reshape_of_own_dims), never as the same dim.
void nameMadeUpDims(ir::Value& v) {
  if (!v.type.isTensor() || !v.type.shape) return;
  for (size_t k = 0; k < v.type.shape->size(); ++k)
    if (auto& d = (*v.type.shape)[k]; d.kind == ir::Dim::Kind::Param && d.param.rfind("unk__", 0) == 0)
      d.param = "unk__" + v.name() + "_" + std::to_string(k);
}

// One inference on `targets`; writes what it learns into their outputs and returns the nodes reading the
// outputs it wrote. Not only completed ones: a value that gained an element type or a rank can complete its
// readers (Reshape to a constant shape needs only its input's element type), and whole-graph inference would
// have typed them.
std::vector<ir::Node*> inferRound(ir::Model& m, const std::vector<ir::Node*>& targets, size_t& typed) {
  LocalModel lm(m);
  if (!lm.build(targets)) return {};
  const auto types = inferShapes(lm.model());
  std::vector<ir::Node*> next;
  std::unordered_set<const ir::Node*> queued;
  for (ir::Node* n : targets)
    for (ir::Value* v : n->outputs()) {
      if (!writable(v) || !typeIncomplete(v->type)) continue;
      auto it = types.find(v->name());
      if (it == types.end()) continue;
      const bool completes = !typeIncomplete(it->second);
      if (!completes && knowledge(it->second) <= knowledge(v->type)) continue;
      v->type = it->second;
      nameMadeUpDims(*v);
      ++typed;
      // New types are a change the passes see: with a journal on, the passes reading them are handed this node.
      if (ir::ChangeJournal* j = n->graph()->journal()) j->touch(n);
      for (const auto& use : v->uses())
        if (queued.insert(use.node).second) next.push_back(use.node);
    }
  return next;
}

}  // namespace

size_t refreshValueTypesOf(ir::Model& m, const std::vector<ir::Node*>& nodes) {
  size_t typed = 0;
  try {
    const ir::Graph* main = &m.graph();
    std::vector<ir::Node*> targets = nodes;
    // Each round's targets read a value the round before wrote, so they lie strictly further downstream of the
    // nodes handed in: the rounds end within the longest path, and a round only runs while something was learned.
    while (!targets.empty()) {
      std::vector<ir::Node*> keep;
      for (ir::Node* n : targets)
        if (n && n->graph() == main && hasIncompleteOutput(*n)) keep.push_back(n);
      if (keep.empty()) break;
      targets = inferRound(m, keep, typed);
    }
  } catch (...) {
  }
  return typed;
}

}  // namespace fb::passes
