#include "codegen/recognised_blocks.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "codegen/dead_code.h"
#include "ir/node.h"

namespace fb::codegen {
namespace {

// The one node reading `v`, when exactly one node reads it once and it is no graph output.
const ir::Node* soleReader(const ir::Value* v) {
  if (!v || v->isGraphOutput() || v->uses().size() != 1) return nullptr;
  return v->uses()[0].node;
}

bool isOp(const ir::Node* n, const char* op) { return n && n->isDefaultDomain() && n->opType == op; }

class Matcher {
 public:
  explicit Matcher(const BlockLookups& look) : look_(look) {}

  // The value of a one-element floating constant.
  std::optional<double> scalar(const ir::Value* v) const {
    const ir::Tensor* t = v ? look_.constant(v) : nullptr;
    if (!t || !ir::isFloatingPoint(t->dtype) || t->numElements() != 1) return std::nullopt;
    return t->asDouble()[0];
  }
  // Slot of `n`'s two inputs that is the scalar constant `want` (within `tolerance`), or -1.
  int scalarSlot(const ir::Node* n, double want, double tolerance = 0) const {
    for (int i = 0; i < 2; ++i)
      if (auto s = scalar(n->input(i)); s && std::fabs(*s - want) <= tolerance) return i;
    return -1;
  }
  bool floating(const ir::Value* v) const {
    const ir::DataType t = look_.elemType(v);
    return t == ir::DataType::Float || t == ir::DataType::Double;
  }
  // The last axis alone: -1, or rank - 1 when the rank is known.
  bool lastAxisOnly(const ir::Node* reduce, const ir::Value* x) const {
    std::vector<int64_t> axes = reduce->attrInts("axes");
    if (!reduce->hasAttr("axes") && reduce->input(1)) {
      const ir::Tensor* t = look_.constant(reduce->input(1));
      if (!t || ir::isFloatingPoint(t->dtype)) return false;
      axes = t->asInt64();
    }
    if (reduce->attrInt("keepdims", 1) != 1 || axes.size() != 1) return false;
    if (axes[0] == -1) return true;
    return x->type.shape && axes[0] == static_cast<int64_t>(x->type.shape->size()) - 1;
  }
  // A 1-D constant of `size` elements (size -1: any), or nullptr.
  const ir::Tensor* vector(const ir::Value* v, int64_t size) const {
    const ir::Tensor* t = v ? look_.constant(v) : nullptr;
    if (!t || t->dims.size() != 1 || (size >= 0 && t->dims[0] != size)) return nullptr;
    return t;
  }

  std::optional<RecognisedBlock> layerNorm(const ir::Node* mean) const {
    // mean = ReduceMean(x); d = Sub(x, mean); sq = Pow(d, 2); var = ReduceMean(sq); ve = Add(var, eps);
    // sd = Sqrt(ve); n = Div(d, sd) [; w = Mul(n, gamma) [; y = Add(w, beta)]]
    const ir::Value* x = mean->input(0);
    if (!x || !floating(x) || !lastAxisOnly(mean, x)) return std::nullopt;
    const ir::Node* sub = soleReader(mean->output(0));
    if (!isOp(sub, "Sub") || sub->input(0) != x || sub->input(1) != mean->output(0)) return std::nullopt;
    const ir::Value* d = sub->output(0);
    if (!d || d->isGraphOutput() || d->uses().size() != 2) return std::nullopt;
    const ir::Node *sq = nullptr, *div = nullptr;
    for (const ir::Use& u : d->uses()) {
      if (isOp(u.node, "Pow") && u.index == 0) sq = u.node;
      if (isOp(u.node, "Div") && u.index == 0) div = u.node;
    }
    if (!sq || !div || !scalar(sq->input(1)) || *scalar(sq->input(1)) != 2.0) return std::nullopt;
    const ir::Node* var = soleReader(sq->output(0));
    if (!isOp(var, "ReduceMean") || !lastAxisOnly(var, x)) return std::nullopt;
    const ir::Node* addEps = soleReader(var->output(0));
    if (!isOp(addEps, "Add")) return std::nullopt;
    const int epsSlot = addEps->input(0) == var->output(0) ? 1 : 0;
    const auto eps = scalar(addEps->input(epsSlot));
    if (!eps || *eps < 0) return std::nullopt;
    const ir::Node* sqrt = soleReader(addEps->output(0));
    if (!isOp(sqrt, "Sqrt") || soleReader(sqrt->output(0)) != div || div->input(1) != sqrt->output(0))
      return std::nullopt;
    RecognisedBlock b;
    b.kind = RecognisedBlock::Kind::LayerNorm;
    b.nodes = {mean, sub, sq, var, addEps, sqrt, div};
    b.input = x;
    b.output = div->output(0);
    b.epsilon = static_cast<float>(*eps);
    if (x->type.shape && !x->type.shape->empty() && x->type.shape->back().isValue())
      b.normalizedSize = x->type.shape->back().value;
    // The affine part: a 1-D weight, then a 1-D bias, each of the normalised dim's size.
    const ir::Node* mul = soleReader(b.output);
    if (isOp(mul, "Mul")) {
      const int slot = mul->input(0) == b.output ? 1 : 0;
      if (const ir::Tensor* g = vector(mul->input(slot), b.normalizedSize); g && mul->input(1 - slot) == b.output) {
        b.normalizedSize = g->dims[0];
        b.weight = mul->input(slot);
        b.weightReader = mul;
        b.weightSlot = slot;
        b.nodes.push_back(mul);
        b.output = mul->output(0);
        const ir::Node* add = soleReader(b.output);
        if (isOp(add, "Add")) {
          const int bslot = add->input(0) == b.output ? 1 : 0;
          if (vector(add->input(bslot), b.normalizedSize) && add->input(1 - bslot) == b.output) {
            b.bias = add->input(bslot);
            b.biasReader = add;
            b.biasSlot = bslot;
            b.nodes.push_back(add);
            b.output = add->output(0);
          }
        }
      }
    }
    return b;
  }

  std::optional<RecognisedBlock> gelu(const ir::Node* erf) const {
    // Div(x, sqrt(2)) or Mul(x, 1/sqrt(2)); Erf; Add(., 1); then x * . * 0.5 in either order.
    const ir::Node* scale = erf->input(0) ? erf->input(0)->producer() : nullptr;
    if (!scale || soleReader(erf->input(0)) != erf) return std::nullopt;
    const ir::Value* x = nullptr;
    if (isOp(scale, "Div") && scalarSlot(scale, std::sqrt(2.0), 1e-6) == 1) x = scale->input(0);
    if (isOp(scale, "Mul"))
      if (int s = scalarSlot(scale, std::sqrt(0.5), 1e-7); s >= 0) x = scale->input(1 - s);
    if (!x || !floating(x)) return std::nullopt;
    return geluTail(x, {scale, erf}, erf->output(0), false);
  }

  // GELU's tanh form: Mul(x, x), Mul(x, .), Mul(., 0.044715), Add(x, .), Mul(., sqrt(2 / pi)), Tanh, then the tail.
  std::optional<RecognisedBlock> geluTanh(const ir::Node* tanh) const {
    const ir::Node* scale = tanh->input(0) ? tanh->input(0)->producer() : nullptr;
    if (!isOp(scale, "Mul") || soleReader(tanh->input(0)) != tanh) return std::nullopt;
    const int s = scalarSlot(scale, 0.7978845608028654 /* sqrt(2 / pi) */, 1e-7);
    if (s < 0) return std::nullopt;
    const ir::Node* sum = scale->input(1 - s) ? scale->input(1 - s)->producer() : nullptr;
    if (!isOp(sum, "Add") || soleReader(sum->output(0)) != scale) return std::nullopt;
    for (int k = 0; k < 2; ++k) {
      const ir::Value* x = sum->input(k);
      const ir::Node* cubic = sum->input(1 - k) ? sum->input(1 - k)->producer() : nullptr;
      if (!x || !floating(x) || !isOp(cubic, "Mul") || soleReader(cubic->output(0)) != sum) continue;
      const int c = scalarSlot(cubic, 0.044715, 1e-8);
      if (c < 0) continue;
      const ir::Node* cube = cubic->input(1 - c) ? cubic->input(1 - c)->producer() : nullptr;
      if (!isOp(cube, "Mul") || soleReader(cube->output(0)) != cubic) continue;
      const int sq = cube->input(0) == x ? 1 : 0;
      const ir::Node* square = cube->input(sq) ? cube->input(sq)->producer() : nullptr;
      if (cube->input(1 - sq) != x || !isOp(square, "Mul") || square->input(0) != x || square->input(1) != x ||
          soleReader(square->output(0)) != cube)
        continue;
      return geluTail(x, {square, cube, cubic, sum, scale, tanh}, tanh->output(0), true);
    }
    return std::nullopt;
  }

  // Add(., 1), then x * . * 0.5 in either order.
  std::optional<RecognisedBlock> geluTail(const ir::Value* x, std::vector<const ir::Node*> nodes,
                                          const ir::Value* inner, bool tanhApproximation) const {
    const ir::Node* addOne = soleReader(inner);
    if (!isOp(addOne, "Add") || scalarSlot(addOne, 1.0) < 0) return std::nullopt;
    const ir::Node* mul = soleReader(addOne->output(0));
    if (!isOp(mul, "Mul")) return std::nullopt;
    const ir::Value* other = mul->input(0) == addOne->output(0) ? mul->input(1) : mul->input(0);
    RecognisedBlock b;
    b.kind = RecognisedBlock::Kind::Gelu;
    b.tanhApproximation = tanhApproximation;
    b.input = x;
    b.nodes = std::move(nodes);
    if (other == x) {  // (x * (1 + inner)) * 0.5
      const ir::Node* half = soleReader(mul->output(0));
      if (!isOp(half, "Mul") || scalarSlot(half, 0.5) < 0) return std::nullopt;
      b.nodes.insert(b.nodes.end(), {addOne, mul, half});
      b.output = half->output(0);
    } else {  // (x * 0.5) * (1 + inner)
      const ir::Node* half = other ? other->producer() : nullptr;
      if (!isOp(half, "Mul") || soleReader(other) != mul) return std::nullopt;
      const int s = scalarSlot(half, 0.5);
      if (s < 0 || half->input(1 - s) != x) return std::nullopt;
      b.nodes.insert(b.nodes.end(), {half, addOne, mul});
      b.output = mul->output(0);
    }
    return b;
  }

  std::optional<RecognisedBlock> hardSwish(const ir::Node* n) const {
    // HardSigmoid(x, 1/6, 0.5) * x
    if (isOp(n, "HardSigmoid")) {
      const ir::Value* x = n->input(0);
      if (!x || !floating(x) || std::fabs(n->attrFloat("alpha", 0.2f) - 1.0 / 6) > 1e-7 ||
          n->attrFloat("beta", 0.5f) != 0.5f)
        return std::nullopt;
      const ir::Node* mul = soleReader(n->output(0));
      if (!isOp(mul, "Mul")) return std::nullopt;
      const ir::Value* other = mul->input(0) == n->output(0) ? mul->input(1) : mul->input(0);
      if (other != x) return std::nullopt;
      RecognisedBlock b;
      b.kind = RecognisedBlock::Kind::HardSwish;
      b.nodes = {n, mul};
      b.input = x;
      b.output = mul->output(0);
      return b;
    }
    // x * Clip(x + 3, 0, 6) / 6, the Div after the Clip or after the Mul.
    if (isOp(n, "Add")) {
      const int s = scalarSlot(n, 3.0);
      if (s < 0) return std::nullopt;
      const ir::Value* x = n->input(1 - s);
      if (!x || !floating(x)) return std::nullopt;
      const ir::Node* clip = soleReader(n->output(0));
      if (!isOp(clip, "Clip") || !clipsTo(clip, 0, 6)) return std::nullopt;
      const ir::Node* next = soleReader(clip->output(0));
      RecognisedBlock b;
      b.kind = RecognisedBlock::Kind::HardSwish;
      b.input = x;
      if (isOp(next, "Div") && next->input(0) == clip->output(0) && scalar(next->input(1)) == 6.0) {
        const ir::Node* mul = soleReader(next->output(0));
        if (!isOp(mul, "Mul") || (mul->input(0) == next->output(0) ? mul->input(1) : mul->input(0)) != x)
          return std::nullopt;
        b.nodes = {n, clip, next, mul};
        b.output = mul->output(0);
        return b;
      }
      if (isOp(next, "Mul") && (next->input(0) == clip->output(0) ? next->input(1) : next->input(0)) == x) {
        const ir::Node* div = soleReader(next->output(0));
        if (!isOp(div, "Div") || div->input(0) != next->output(0) || scalar(div->input(1)) != 6.0) return std::nullopt;
        b.nodes = {n, clip, next, div};
        b.output = div->output(0);
        return b;
      }
    }
    return std::nullopt;
  }

 private:
  bool clipsTo(const ir::Node* clip, double lo, double hi) const {
    if (clip->hasAttr("min") || clip->hasAttr("max"))  // opset < 11
      return clip->attrFloat("min", -1) == lo && clip->attrFloat("max", -1) == hi;
    return scalar(clip->input(1)) == lo && scalar(clip->input(2)) == hi;
  }

  const BlockLookups& look_;
};

}  // namespace

void RecognisedBlocks::add(RecognisedBlock b) {
  for (const ir::Node* n : b.nodes)
    if (byNode_.count(n->id())) return;  // overlapping another block: the first found stays
  for (const ir::Node* n : b.nodes) byNode_[n->id()] = blocks_.size();
  blocks_.push_back(std::move(b));
}

void RecognisedBlocks::findIn(const ir::Graph& g, const BlockLookups& look) {
  if (hasSubgraphReaders(g)) return;
  const Matcher m(look);
  // Graph order: a block's nodes appear in it as the graph lists them, its output's producer last.
  std::unordered_map<uint64_t, size_t> position;
  for (const auto& n : g.nodes()) position[n->id()] = position.size();
  for (const auto& node : g.nodes()) {
    const ir::Node* n = node.get();
    if (!n->isDefaultDomain() || byNode_.count(n->id())) continue;
    std::optional<RecognisedBlock> b;
    if (n->opType == "ReduceMean")
      b = m.layerNorm(n);
    else if (n->opType == "Erf")
      b = m.gelu(n);
    else if (n->opType == "Tanh" && look.tanhGelu)
      b = m.geluTanh(n);
    else if (n->opType == "HardSigmoid" || n->opType == "Add")
      b = m.hardSwish(n);
    if (!b) continue;
    std::stable_sort(b->nodes.begin(), b->nodes.end(),
                     [&](const ir::Node* a, const ir::Node* c) { return position[a->id()] < position[c->id()]; });
    if (b->nodes.back()->output(0) != b->output) continue;
    add(std::move(*b));
  }
}

const char* blockKindName(RecognisedBlock::Kind k) {
  switch (k) {
    case RecognisedBlock::Kind::LayerNorm:
      return "LayerNorm";
    case RecognisedBlock::Kind::Gelu:
      return "GELU";
    case RecognisedBlock::Kind::HardSwish:
      return "hardswish";
  }
  return "";
}

std::string blockComment(const RecognisedBlock& b) {
  std::string s = blockKindName(b.kind) + std::string(" of ");
  for (size_t i = 0; i < b.nodes.size(); ++i)
    s += (i ? ", " : "") + (b.nodes[i]->name.empty() ? b.nodes[i]->opType : b.nodes[i]->name);
  return s;
}

}  // namespace fb::codegen
