// Einsum exists from opset 12. Below, with static input shapes, an equation of one or two operands is
// written out: a label repeated in one operand takes the diagonal (Gather on the flattened pair of axes), a
// label only one operand has and the output lacks is summed (ReduceSum), two operands meet in one batched
// MatMul ([batch, m, k] x [batch, k, n]), and a Transpose puts the labels in the output's order. Sizes that
// would broadcast (1 against n), more than two operands and non-floating types are refused with the reason.
#include <algorithm>
#include <map>
#include <numeric>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

using Labels = std::vector<int>;  // letters as their char code, ellipsis dims as kEllipsis + position
constexpr int kEllipsis = 1000;

struct Term {
  Labels labels;
  bool hasEllipsis = false;
  size_t explicitCount = 0;
};

Term parseTerm(const std::string& s) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 3, "...") == 0) {
      if (t.hasEllipsis) throw Unsupported("Einsum: two ellipses in one term");
      t.hasEllipsis = true;
      t.labels.push_back(-1);  // placeholder, expanded once ranks are known
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(s[i]))) {
      t.labels.push_back(s[i]);
      ++t.explicitCount;
    } else {
      throw Unsupported("Einsum: unexpected character '" + std::string(1, s[i]) + "' in the equation");
    }
  }
  return t;
}

// Replaces the placeholder by `dims` ellipsis labels, right-aligned against `total` (numpy broadcasting).
Labels expand(const Term& t, int64_t dims, int64_t total) {
  Labels out;
  for (int l : t.labels) {
    if (l != -1) {
      out.push_back(l);
      continue;
    }
    for (int64_t j = 0; j < dims; ++j) out.push_back(kEllipsis + static_cast<int>(total - dims + j));
  }
  return out;
}

struct Operand {
  ir::Value* v;
  Labels labels;
};

class Writer {
 public:
  Writer(ir::Node& n, HandlerContext& ctx, std::map<int, int64_t>& size) : n_(n), ctx_(ctx), size_(size) {
    base_ = n.name.empty() ? "einsum" : n.name;
  }

  ir::Value* node(const char* op, std::vector<ir::Value*> ins, ir::Value* out = nullptr) {
    if (!out) out = ctx_.newValue(base_ + "_" + op);
    lastNode_ = ctx_.insertNode(n_, op, ins, {out});
    return out;
  }
  ir::Value* reshape(ir::Value* v, const std::vector<int64_t>& shape) {
    return node("Reshape", {v, ctx_.constantInt64(base_ + "_shape", shape)});
  }
  // Reorders `o` to `order` (a permutation of its labels).
  void transpose(Operand& o, const Labels& order) {
    std::vector<int64_t> perm;
    for (int l : order) perm.push_back(std::find(o.labels.begin(), o.labels.end(), l) - o.labels.begin());
    o.labels = order;
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
    if (identity) return;
    o.v = node("Transpose", {o.v});
    lastNode_->setAttr(ir::Attribute::makeInts("perm", perm));
  }
  void diagonal(Operand& o, int label) {
    Labels rest;
    for (int l : o.labels)
      if (l != label) rest.push_back(l);
    Labels order = rest;
    order.push_back(label);
    order.push_back(label);
    // transpose() finds the first occurrence twice: build the permutation by hand.
    std::vector<int64_t> perm;
    for (int l : rest) perm.push_back(std::find(o.labels.begin(), o.labels.end(), l) - o.labels.begin());
    for (size_t i = 0; i < o.labels.size(); ++i)
      if (o.labels[i] == label) perm.push_back(static_cast<int64_t>(i));
    o.v = node("Transpose", {o.v});
    lastNode_->setAttr(ir::Attribute::makeInts("perm", perm));
    const int64_t d = size_[label];
    std::vector<int64_t> shape;
    for (int l : rest) shape.push_back(size_[l]);
    shape.push_back(d * d);
    ir::Value* flat = reshape(o.v, shape);
    std::vector<int64_t> idx(static_cast<size_t>(d));
    for (int64_t i = 0; i < d; ++i) idx[static_cast<size_t>(i)] = i * (d + 1);
    o.v = node("Gather", {flat, ctx_.constantInt64(base_ + "_diagonal", idx)});
    lastNode_->setAttr(ir::Attribute::makeInt("axis", static_cast<int64_t>(rest.size())));
    rest.push_back(label);
    o.labels = rest;
  }
  void sumOut(Operand& o, const Labels& gone) {
    if (gone.empty()) return;
    std::vector<int64_t> axes;
    Labels kept;
    for (size_t i = 0; i < o.labels.size(); ++i) {
      if (std::count(gone.begin(), gone.end(), o.labels[i]))
        axes.push_back(static_cast<int64_t>(i));
      else
        kept.push_back(o.labels[i]);
    }
    o.v = node("ReduceSum", {o.v});
    lastNode_->setAttr(ir::Attribute::makeInts("axes", axes));
    lastNode_->setAttr(ir::Attribute::makeInt("keepdims", 0));
    o.labels = kept;
  }
  int64_t product(const Labels& ls) {
    int64_t p = 1;
    for (int l : ls) p *= size_[l];
    return p;
  }
  std::vector<int64_t> sizes(const Labels& ls) {
    std::vector<int64_t> s;
    for (int l : ls) s.push_back(size_[l]);
    return s;
  }

 private:
  ir::Node& n_;
  HandlerContext& ctx_;
  std::map<int, int64_t>& size_;
  std::string base_;
  ir::Node* lastNode_ = nullptr;
};

void writtenOut(ir::Node& n, HandlerContext& ctx) {
  if (ctx.targetOpset >= 12) return compatibleVersionStep(n, ctx);
  std::string eq;
  for (char c : n.attrString("equation", ""))
    if (c != ' ') eq += c;
  std::vector<ir::Value*> ins;
  for (ir::Value* v : n.inputs()) ins.push_back(v);
  if (ins.empty() || ins.size() > 2)
    throw Unsupported("Einsum: " + std::to_string(ins.size()) +
                      " operands below opset 12 (one or two are written out)");
  const ir::DataType t = ctx.elemType(ins[0]);
  if (t != ir::DataType::Float && t != ir::DataType::Double && t != ir::DataType::Float16)
    throw Unsupported("Einsum on " + std::string(ir::dataTypeName(t)) +
                      " needs opset 12 (below, MatMul is written for floating types only)");
  const size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(parseTerm(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ins.size())
    throw std::runtime_error("Einsum: the equation has " + std::to_string(terms.size()) + " terms for " +
                             std::to_string(ins.size()) + " inputs");
  std::vector<std::vector<int64_t>> shapes;
  for (ir::Value* v : ins) {
    auto s = v ? ctx.staticShape(v) : std::nullopt;
    if (!s) throw Unsupported("Einsum below opset 12 needs static input shapes");
    shapes.push_back(*s);
  }
  int64_t ellipsisRank = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    int64_t extra = static_cast<int64_t>(shapes[i].size()) - static_cast<int64_t>(terms[i].explicitCount);
    if (extra < 0 || (extra > 0 && !terms[i].hasEllipsis))
      throw std::runtime_error("Einsum: term " + std::to_string(i) + " does not match its input's rank");
    ellipsisRank = std::max(ellipsisRank, extra);
  }
  std::map<int, int64_t> size;
  std::vector<Operand> ops;
  std::map<int, int> count;
  for (size_t i = 0; i < terms.size(); ++i) {
    int64_t extra = static_cast<int64_t>(shapes[i].size()) - static_cast<int64_t>(terms[i].explicitCount);
    Labels ls = expand(terms[i], extra, ellipsisRank);
    for (size_t a = 0; a < ls.size(); ++a) {
      auto [it, fresh] = size.emplace(ls[a], shapes[i][a]);
      if (!fresh && it->second != shapes[i][a])
        throw Unsupported("Einsum: a label of size " + std::to_string(it->second) + " meets size " +
                          std::to_string(shapes[i][a]) + " (broadcasting) below opset 12");
      ++count[ls[a]];
    }
    ops.push_back({ins[i], ls});
  }
  Labels out;
  if (arrow != std::string::npos) {
    Term o = parseTerm(eq.substr(arrow + 2));
    out = expand(o, o.hasEllipsis ? ellipsisRank : 0, ellipsisRank);
    for (int l : out)
      if (!size.count(l)) throw std::runtime_error("Einsum: an output label no input has");
  } else {
    for (int64_t j = 0; j < ellipsisRank; ++j) out.push_back(kEllipsis + static_cast<int>(j));
    for (auto [l, c] : count)
      if (l < kEllipsis && c == 1) out.push_back(l);
  }
  for (const auto& o : ops)
    for (int l : o.labels)
      if (std::count(o.labels.begin(), o.labels.end(), l) > 2)
        throw Unsupported("Einsum: a label three times in one term below opset 12");
  ctx.note = "equation '" + eq + "' written out (" + (ops.size() == 2 ? "MatMul" : "Transpose/ReduceSum") + ")";
  if (!ctx.commit()) return;

  Writer w(n, ctx, size);
  auto inOut = [&](int l) { return std::count(out.begin(), out.end(), l) > 0; };
  for (size_t i = 0; i < ops.size(); ++i) {
    Operand& o = ops[i];
    for (bool again = true; again;) {
      again = false;
      for (int l : o.labels)
        if (std::count(o.labels.begin(), o.labels.end(), l) == 2) {
          w.diagonal(o, l);
          again = true;
          break;
        }
    }
    const Operand* other = ops.size() == 2 ? &ops[1 - i] : nullptr;
    Labels gone;
    for (int l : o.labels)
      if (!inOut(l) && !(other && std::count(other->labels.begin(), other->labels.end(), l))) gone.push_back(l);
    w.sumOut(o, gone);
  }
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue("einsum_replaced"));
  Operand result{nullptr, {}};
  if (ops.size() == 1) {
    result = ops[0];
  } else {
    Operand &a = ops[0], &b = ops[1];
    Labels batch, m, k, nn;
    auto has = [](const Operand& o, int l) { return std::count(o.labels.begin(), o.labels.end(), l) > 0; };
    for (int l : a.labels) (has(b, l) ? (inOut(l) ? batch : k) : m).push_back(l);
    for (int l : b.labels)
      if (!has(a, l)) nn.push_back(l);
    Labels orderA = batch, orderB = batch;
    orderA.insert(orderA.end(), m.begin(), m.end());
    orderA.insert(orderA.end(), k.begin(), k.end());
    orderB.insert(orderB.end(), k.begin(), k.end());
    orderB.insert(orderB.end(), nn.begin(), nn.end());
    w.transpose(a, orderA);
    w.transpose(b, orderB);
    ir::Value* a3 = w.reshape(a.v, {w.product(batch), w.product(m), w.product(k)});
    ir::Value* b3 = w.reshape(b.v, {w.product(batch), w.product(k), w.product(nn)});
    ir::Value* prod = w.node("MatMul", {a3, b3});
    Labels labels = batch;
    labels.insert(labels.end(), m.begin(), m.end());
    labels.insert(labels.end(), nn.begin(), nn.end());
    result = {w.reshape(prod, w.sizes(labels)), labels};
  }
  w.transpose(result, out);
  w.node("Identity", {result.v}, y);
  ctx.removeReplaced(n);
}

}  // namespace

void registerEinsumAdapters(HandlerRegistry& r) {
  add(r, "Einsum", 7,
      "opsets 7-11: one or two operands with static shapes written out (diagonal, ReduceSum, MatMul, Transpose)",
      writtenOut);
  add(r, "Einsum", 12, "opset 12+: compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
