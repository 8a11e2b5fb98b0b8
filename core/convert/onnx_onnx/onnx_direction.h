#pragma once
// ONNX -> ONNX retargeting as a conversion direction (direction "onnx"): how a node reaches the adapters registered
// in adapters.h, and what is special about ONNX sources. Per default-domain node, the first that applies:
//   a call of a model-local function          -> its body, converted from the function's own opset imports;
//   a target above 17                         -> the node's opset-17 form (the 7-17 chain, or the step down from a
//                                                newer source), then the steps up (opset18_up); going down between
//                                                two opsets above 17, only schemas that did not change pass;
//   a source above 17, target 17 or below     -> the step down to 17 (opset18_down), then on as from 17;
//   the same schema version at both opsets    -> unchanged;
//   an adapter for the target                 -> the adapter;
//   otherwise                                 -> the compatible version step (version_step.h).
// When none of that can express the node, its op's function body at the source version, converted node by node.
// Nodes of other domains: an adapter if there is one, kept as they are when there is none (custom ops).
#include "convert/direction.h"

namespace fb::convert::onnx_onnx {

class OnnxRetargeting final : public Direction {
 public:
  explicit OnnxRetargeting(const HandlerRegistry& adapters);

  int64_t maxTargetOpset() const override;                             // kMaxOpset
  int64_t defaultTargetOpset(const ir::Model& source) const override;  // the source's own opset, within 7..26
  std::optional<std::string> keepAsIs(const ir::Model& model, const ir::Node& node) const override;
  std::vector<std::string> sourceWarnings(const ir::Node& node, int64_t sourceOpset) const override;
  void convertNode(ir::Node& node, HandlerContext& ctx) const override;
  void finishModel(ir::Model& model) const override;  // drops the model-local functions no node calls any more

 private:
  // Everything but the function-body fallback.
  void convertDirect(ir::Node& node, HandlerContext& ctx) const;
  // Targets above 17.
  void convertAbove17(ir::Node& node, HandlerContext& ctx) const;
};

}  // namespace fb::convert::onnx_onnx
