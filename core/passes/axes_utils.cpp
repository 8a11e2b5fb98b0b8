#include "passes/axes_utils.h"

namespace fb::passes {

std::optional<std::vector<int64_t>> readAxes(const ir::Node& n, int64_t opset) {
  if (opset < 13) {
    if (!n.hasAttr("axes")) return std::nullopt;
    return n.attrInts("axes");
  }
  if (!n.input(1)) return std::nullopt;
  return constantInts(n.input(1));
}

void writeAxes(Rewriter& rw, ir::Node& n, const std::vector<int64_t>& axes) {
  if (rw.opset() < 13) {
    n.setAttr(ir::Attribute::makeInts("axes", axes));
    return;
  }
  auto t = ir::Tensor::fromValues<int64_t>("", ir::DataType::Int64, {static_cast<int64_t>(axes.size())}, axes);
  n.setInput(1, rw.addConstant(std::move(t), n.output(0)->name() + "_axes"));
}

}  // namespace fb::passes
