// Training losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss. ONNX defines them as PyTorch's
// F.nll_loss / F.cross_entropy do (weights gathered by target, ignored targets weigh 0, 'mean' divides by the
// sum of the weights that apply), so PyTorch gets one call. OneFlow 0.8 has no F.nll_loss and its
// F.cross_entropy lacks ignore_index and weights in places: there the loss is spelt out with gather.
#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

void registerHelpers() {
  HelperLibrary::instance().add(
      Helper{"_onnx_nll_loss",
             "def _onnx_nll_loss(x, target, weight=None, ignore_index=None, reduction='mean'):\n"
             "    # ONNX NegativeLogLikelihoodLoss: -x[n, target[n, d...], d...] * weight[target]; a target equal\n"
             "    # to ignore_index weighs 0, and 'mean' divides by the sum of the weights that apply.\n"
             "    target = target.long()\n"
             "    keep = None if ignore_index is None else target != ignore_index\n"
             "    if keep is not None:\n"
             "        target = T.where(keep, target, T.zeros_like(target))\n"
             "    loss = -T.gather(x, 1, target.unsqueeze(1)).squeeze(1)\n"
             "    w = T.ones_like(loss) if weight is None else weight[target]\n"
             "    if keep is not None:\n"
             "        w = T.where(keep, w, T.zeros_like(w))\n"
             "    loss = loss * w\n"
             "    if reduction == 'sum':\n"
             "        return loss.sum()\n"
             "    if reduction == 'mean':\n"
             "        return loss.sum() / w.sum()\n"
             "    return loss\n",
             {}});
}

// The keyword arguments both F.nll_loss and the helper take, defaults omitted: weight, ignore_index, reduction.
// ONNX has no default ignore_index (PyTorch's is -100, an out-of-range target in ONNX either way).
std::string lossOptions(PyNode& p) {
  std::string reduction = p.attrString("reduction", "mean");
  if (reduction != "mean" && reduction != "sum" && reduction != "none") p.unsupported("reduction '" + reduction + "'");
  std::string s;
  if (p.has(2)) s += ", weight=" + p.in(2);
  if (p.hasAttr("ignore_index")) s += ", ignore_index=" + std::to_string(p.attrInt("ignore_index", 0));
  if (reduction != "mean") s += ", reduction=" + pyStringLiteral(reduction);
  return s;
}

// Targets are int32 or int64 in ONNX; PyTorch's losses index with int64 only.
std::string target(PyNode& p, size_t i) {
  std::string t = p.in(i);
  return p.dtype(i) == ir::DataType::Int64 ? t : t + ".long()";
}

// loss = NLL(logProb, target) in the flavour's spelling.
std::string nll(PyNode& p, const std::string& logProb) {
  if (p.oneflow()) return p.helper("_onnx_nll_loss") + "(" + logProb + ", " + p.in(1) + lossOptions(p) + ")";
  return "F.nll_loss(" + logProb + ", " + target(p, 1) + lossOptions(p) + ")";
}

}  // namespace

void registerLossCode(convert::HandlerRegistry& r) {
  registerHelpers();
  addPy(r, "NegativeLogLikelihoodLoss", 12, "F.nll_loss(x, target, weight=, ignore_index=, reduction=)",
        [](PyNode& p) { p.assign(nll(p, p.in(0))); });
  addPy(r, "SoftmaxCrossEntropyLoss", 12, "F.cross_entropy, or log_softmax then nll_loss when log_prob is used",
        [](PyNode& p) {
          std::string scores = p.in(0);
          if (!p.outUsed(1) && !p.oneflow())
            return p.assign("F.cross_entropy(" + scores + ", " + target(p, 1) + lossOptions(p) + ")");
          std::string logProb = p.outUsed(1) ? p.out(1) : p.temp("log_prob");
          p.line(logProb + " = F.log_softmax(" + scores + ", dim=1)");
          p.assignOut(0, nll(p, logProb));
        });
}

}  // namespace fb::codegen
