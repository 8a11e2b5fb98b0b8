// Evaluates nodes whose inputs are all constants with FlowBridge's own kernels (core/eval) and replaces
// them by initializers of the same name. Shapes count as constants where shape inference knows them:
// Shape/Size of a statically shaped value, and Gather/Slice of a Shape whose selected dims are known
// (PyTorch's Shape->Gather->Unsqueeze->Concat->Reshape chains), as onnx-simplifier does with a runtime.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "eval/eval_budget.h"
#include "eval/runtime/node_eval.h"
#include "eval/runtime/run_error.h"
#include "eval/transpose_bytes.h"
#include "passes/fold_budget.h"
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

// Results larger than this, and larger than their inputs, stay computed: folding them would bloat the file.
constexpr int64_t kMaxFoldedElements = 1 << 20;
// Stands for a dim shape inference does not know; a result containing one is not constant.
constexpr int64_t kUnknownDimBase = std::numeric_limits<int64_t>::min() / 2;

bool isUnknownDim(int64_t v) { return v >= kUnknownDimBase && v < kUnknownDimBase + (1 << 20); }

// The shape of `v` with unknown dims as distinct sentinels, when at least the rank is known.
std::optional<eval::Tensor> partialShape(const ir::Value* v, const ir::Node& shapeNode) {
  if (!v) return std::nullopt;
  std::vector<int64_t> dims;
  if (v->initializer()) {
    dims = v->initializer()->dims;
  } else {
    if (!v->type.isTensor() || !v->type.shape) return std::nullopt;
    int64_t k = 0;
    for (const auto& d : *v->type.shape) dims.push_back(d.isValue() ? d.value : kUnknownDimBase + k++);
  }
  const int64_t r = static_cast<int64_t>(dims.size());
  int64_t s = shapeNode.attrInt("start", 0), e = shapeNode.attrInt("end", r);
  if (s < 0) s += r;
  if (e < 0) e += r;
  s = std::clamp<int64_t>(s, 0, r);
  e = std::clamp<int64_t>(e, s, r);
  return eval::Tensor::int64s({e - s}, std::vector<int64_t>(dims.begin() + s, dims.begin() + e));
}

bool hasUnknown(const eval::Tensor& a) {
  if (a.dtype() != ir::DataType::Int64) return false;
  const int64_t* p = a.data<int64_t>();
  for (int64_t k = 0; k < a.size(); ++k)
    if (isUnknownDim(p[k])) return true;
  return false;
}

int64_t product(const std::vector<int64_t>& dims, size_t from = 0) {
  int64_t p = 1;
  for (size_t k = from; k < dims.size(); ++k)
    p = static_cast<int64_t>(eval::saturatingProduct(p, std::max<int64_t>(dims[k], 1)));
  return p;
}

// Multiply-adds the compute-heavy kernels would do on these inputs, estimated from shapes alone (an upper bound
// for convolutions and pools: output positions counted on the padded input): folding refuses a node over the
// budget before running it, as a few kilobytes of constants must not take minutes.
uint64_t estimatedOperations(const ir::Node& n, const std::vector<const eval::Tensor*>& ins) {
  auto dimsOf = [&](size_t k) -> const std::vector<int64_t>* {
    return k < ins.size() && ins[k] ? &ins[k]->dims() : nullptr;
  };
  const std::string& op = n.opType;
  if ((op == "MatMul" || op == "Gemm" || op == "MatMulInteger") && dimsOf(0) && dimsOf(1)) {
    const auto& b = *dimsOf(1);
    const int64_t cols = b.empty() ? 1 : b.back();
    return eval::saturatingProduct(std::max<uint64_t>(ins[0]->size(), 1), std::max<int64_t>(cols, 1)) +
           eval::saturatingProduct(std::max<uint64_t>(ins[1]->size(), 1), 1);
  }
  const bool conv = op == "Conv" || op == "ConvTranspose" || op == "ConvInteger";
  const bool pool = op == "MaxPool" || op == "AveragePool" || op == "LpPool";
  if ((conv && dimsOf(0) && dimsOf(1)) || (pool && dimsOf(0))) {
    const auto& x = *dimsOf(0);
    if (x.size() < 3) return 0;
    std::vector<int64_t> kernel =
        pool ? n.attrInts("kernel_shape") : std::vector<int64_t>(dimsOf(1)->begin() + 2, dimsOf(1)->end());
    const std::vector<int64_t> pads = n.attrInts("pads");
    uint64_t positions = static_cast<uint64_t>(std::max<int64_t>(x[0], 1));
    for (size_t k = 2; k < x.size(); ++k) {
      int64_t extent = x[k];
      for (size_t p = k - 2; p < pads.size(); p += x.size() - 2) extent += std::max<int64_t>(pads[p], 0);
      if (k - 2 < kernel.size()) extent += kernel[k - 2];  // SAME padding and ConvTranspose's growth
      positions = eval::saturatingProduct(positions, static_cast<uint64_t>(std::max<int64_t>(extent, 1)));
    }
    const uint64_t perPosition = conv ? static_cast<uint64_t>(product(*dimsOf(1)))
                                      : eval::saturatingProduct(product(kernel), std::max<int64_t>(x[1], 1));
    return eval::saturatingProduct(positions, perPosition);
  }
  return 0;
}

class ConstantFolding final : public GraphPass {
 public:
  std::string_view name() const override { return "constant_folding"; }
  std::string_view description() const override {
    return "Evaluate nodes with constant inputs (and known shapes) into initializers";
  }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Shape", "Size"}); }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    // The pipeline run's budget for the whole model (PassManager::run); called on its own, a budget for this call.
    ModelFoldBudget* modelBudget = ModelFoldBudget::current();
    std::optional<ModelFoldBudget> ownBudget;
    if (!modelBudget) modelBudget = &ownBudget.emplace(m, FoldLimits::fromEnvironment());
    for (ir::Node* n : nodesToVisit(g)) {
      if (!eval::canEvaluate(*n, rw.opset()) || n->outputs().empty()) continue;
      // A body's (If/Loop/Scan) outputs may be its initializers, so there they fold too; the main graph's
      // outputs stay computed.
      const bool inBody = g.parent() != nullptr;
      bool bodyOutput = false, pinnedOut = false;
      for (ir::Value* o : n->outputs()) {
        if (!o || (o->isGraphOutput() && !inBody)) pinnedOut = true;
        if (o && o->isGraphOutput()) bodyOutput = true;
      }
      if (pinnedOut) continue;
      // Constant, Identity and Dropout belong to their own passes (Dropout may be in training mode), except an
      // Identity of a constant that is a body's output: no pass can bypass it, its output name must stay.
      if (n->opType == "Constant" || n->opType == "Dropout") continue;
      if (n->opType == "Identity" && !(bodyOutput && constantTensor(n->input(0)))) continue;
      std::string overBudget;
      auto results = tryEvaluate(*n, rw.opset(), budget_, *modelBudget, overBudget);
      if (!overBudget.empty()) {
        // Unnamed nodes (common in exports) by their first output, so that every node left has a line of its own.
        const std::string label = !n->name.empty() ? n->name
                                  : n->output(0)   ? "the node making '" + n->output(0)->name() + "'"
                                                   : "an unnamed node";
        rw.change.warnings.push_back("left unfolded: " + label + " (" + n->opType + "): " + overBudget);
      }
      if (!results || results->size() < n->outputs().size()) continue;
      const std::vector<ir::Value*> outs = n->outputs();  // the node goes before its outputs become initializers
      rw.erase(n);
      for (size_t k = 0; k < outs.size(); ++k) {
        ir::Value* out = outs[k];
        ir::Tensor t = std::move((*results)[k]);
        t.name = out->name();
        out->type = tensorTypeOf(t);
        g.addInitializer(std::move(t));
        ++rw.change.initializersAdded;
      }
    }
    return rw.change;
  }

 private:
  // Read once per pass object: FLOWBRIDGE_FOLD_BUDGET_MB can change the limits (see eval/eval_budget.h).
  const eval::EvalBudget budget_ = eval::defaultEvalBudget();

  // Every array evaluating this node creates is charged to the node's budget before it is allocated, and no array
  // may be larger than what is left of the model's budget; the results are charged to the model's before they
  // become tensors.
  static std::optional<std::vector<ir::Tensor>> tryEvaluate(const ir::Node& n, int64_t opset,
                                                            const eval::EvalBudget& budget,
                                                            ModelFoldBudget& modelBudget, std::string& overBudget) {
    // The constants it reads, each once (Add(a, a) does not free twice a's bytes).
    uint64_t inputBytes = 0, inputElements = 0;
    std::vector<const ir::Tensor*> seen;
    for (const ir::Value* v : n.inputs())
      if (const ir::Tensor* t = v ? constantTensor(v) : nullptr;
          t && std::find(seen.begin(), seen.end(), t) == seen.end()) {
        seen.push_back(t);
        inputBytes += t->expectedBytes();
        inputElements += static_cast<uint64_t>(std::max<int64_t>(t->numElements(), 0));
      }
    // No array larger than a result that would be kept: larger ones would be computed only to be dropped.
    const uint64_t keptElements = std::max<uint64_t>(kMaxFoldedElements, inputElements);
    const uint64_t leftElements = modelBudget.elementsLeft(inputBytes);
    eval::EvalBudget nodeBudget = budget;
    nodeBudget.maxArrayElements = std::min(keptElements, leftElements);
    eval::BudgetScope scope(nodeBudget);
    try {
      if (n.opType == "Transpose" && n.inputs().size() == 1) {
        const ir::Tensor* t = constantTensor(n.input(0));
        if (!t || t->dtype == ir::DataType::String) return std::nullopt;
        overBudget = modelBudget.refusal(t->expectedBytes(), inputBytes);
        if (!overBudget.empty()) return std::nullopt;
        // Weights are moved as bytes, never converted element by element.
        std::vector<ir::Tensor> out{eval::transposeBytes(*t, n.attrInts("perm"))};
        modelBudget.charge(t->expectedBytes(), inputBytes);
        return out;
      }
      auto tensors = evaluateTensors(n, opset);
      if (!tensors) return std::nullopt;
      uint64_t resultBytes = 0;
      for (const auto& a : *tensors) resultBytes += a.byteSize();
      overBudget = modelBudget.refusal(resultBytes, inputBytes);
      if (!overBudget.empty()) return std::nullopt;
      std::vector<ir::Tensor> out;
      for (const auto& a : *tensors) out.push_back(a.toModel(""));
      modelBudget.charge(resultBytes, inputBytes);
      return out;
    } catch (const eval::RunError&) {
      return std::nullopt;  // the kernel does not take this node: it stays
    } catch (const eval::OverBudget& e) {
      if (std::string_view(e.what()).find("budget") == std::string_view::npos) return std::nullopt;
      overBudget = e.what();
      // An array over this fold's limit: say which limit that is.
      if (overBudget.find("this fold's budget") != std::string::npos)
        overBudget = leftElements < keptElements ? modelBudget.spent() : tooLargeToKeep();
      return std::nullopt;
    }
  }

  // Throws eval::OverBudget (a budget) or eval::RunError (the kernel cannot take it) when it cannot be folded.
  static std::optional<std::vector<eval::Tensor>> evaluateTensors(const ir::Node& n, int64_t opset) {
    if (n.opType == "Shape" || n.opType == "Size") {
      // Only the dims matter, so the input never needs to be materialized.
      auto ps = partialShape(n.input(0), n.opType == "Shape" ? n : ir::Node());
      if (!ps || hasUnknown(*ps)) return std::nullopt;
      if (n.opType == "Size") return std::vector<eval::Tensor>{eval::Tensor::int64s({}, {product(ps->toInt64s())})};
      return std::vector<eval::Tensor>{*ps};
    }
    // Decide from the graph alone before converting any (possibly large) constant.
    for (size_t k = 0; k < n.inputs().size(); ++k) {
      const ir::Value* v = n.input(k);
      if (!v || constantTensor(v)) continue;
      const bool shapeOperand =
          k == 0 && v->producer() && v->producer()->opType == "Shape" && (n.opType == "Gather" || n.opType == "Slice");
      if (!shapeOperand) return std::nullopt;
    }
    std::vector<eval::Tensor> storage;
    storage.reserve(n.inputs().size());
    std::vector<const eval::Tensor*> ins;
    int64_t inputElements = 0;
    bool sentinels = false;
    for (ir::Value* v : n.inputs()) {
      if (!v || v->name().empty()) {
        ins.push_back(nullptr);
        continue;
      }
      if (const ir::Tensor* t = constantTensor(v)) {
        eval::chargeArray(static_cast<uint64_t>(std::max<int64_t>(t->numElements(), 0)));
        storage.push_back(eval::Tensor::fromModel(*t));  // the model's bytes, not a copy
      } else if (v->producer() && v->producer()->opType == "Shape" && v->producer()->isDefaultDomain() &&
                 v == n.input(0) && (n.opType == "Gather" || n.opType == "Slice")) {
        auto ps = partialShape(v->producer()->input(0), *v->producer());
        if (!ps) return std::nullopt;
        sentinels = true;
        storage.push_back(std::move(*ps));
      } else {
        return std::nullopt;
      }
      inputElements += storage.back().size();
      ins.push_back(&storage.back());
    }
    // Said, not just skipped: a model that asks for a huge constant should learn why it stayed a node.
    if (!fitsBudget(n, ins, inputElements))
      throw eval::OverBudget("its output would be larger than the constant-folding budget allows");
    eval::chargeOperations(estimatedOperations(n, ins));
    auto out = eval::evaluateNode(n, ins, opset);
    for (const auto& a : out) {
      if (sentinels && hasUnknown(a)) return std::nullopt;
      if (a.size() > kMaxFoldedElements && a.size() > inputElements) throw eval::OverBudget(tooLargeToKeep());
    }
    return out;
  }

  static std::string tooLargeToKeep() {
    return "its result would be over the constant-folding budget of " + std::to_string(kMaxFoldedElements) +
           " elements for a result larger than its inputs (it would bloat the model)";
  }

  // Ops whose output size comes from input values: check it before allocating.
  static bool fitsBudget(const ir::Node& n, const std::vector<const eval::Tensor*>& ins, int64_t inputElements) {
    int64_t count = 0;
    if ((n.opType == "ConstantOfShape" || n.opType == "Expand") && ins.size() >= (n.opType == "Expand" ? 2u : 1u)) {
      const eval::Tensor* shape = ins[n.opType == "Expand" ? 1 : 0];
      if (!shape) return true;
      count = 1;
      for (int64_t k = 0; k < shape->size(); ++k) {
        int64_t d = shape->int64At(k);
        if (d < 0 || d > kMaxFoldedElements) return false;
        count *= std::max<int64_t>(d, 1);
        if (count > kMaxFoldedElements) break;
      }
    } else if (n.opType == "Range" && ins.size() == 3 && ins[0] && ins[1] && ins[2] && ins[2]->size() == 1 &&
               ins[0]->size() == 1 && ins[1]->size() == 1 && ins[2]->doubleAt(0) != 0) {
      // As a double first: a NaN, an infinity or 1e30 converted to int64 is undefined.
      const double length = (ins[1]->doubleAt(0) - ins[0]->doubleAt(0)) / ins[2]->doubleAt(0);
      if (std::isnan(length)) return true;  // not a length: the kernel refuses it
      if (!(length < 9.0e18)) return false;
      count = length > 0 ? static_cast<int64_t>(length) : 0;
    }
    return count <= kMaxFoldedElements || count <= inputElements;
  }
};

}  // namespace
void registerConstantFolding(bool inDefault) { registerPass<ConstantFolding>(inDefault); }
}  // namespace fb::passes
