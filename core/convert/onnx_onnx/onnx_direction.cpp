#include "convert/onnx_onnx/onnx_direction.h"

#include <onnx/defs/schema.h>

#include <algorithm>

#include "convert/onnx_onnx/function_body.h"
#include "convert/onnx_onnx/opset18_down.h"
#include "convert/onnx_onnx/opset18_up.h"
#include "convert/onnx_onnx/version_step.h"
#include "convert/target_opsets.h"
#include "schema/onnx_schema.h"
#include "schema/opsets_18_26/op_facts.h"

namespace fb::convert::onnx_onnx {

OnnxRetargeting::OnnxRetargeting(const HandlerRegistry& adapters) : Direction("onnx", adapters) {}

int64_t OnnxRetargeting::maxTargetOpset() const { return kMaxOpset; }

int64_t OnnxRetargeting::defaultTargetOpset(const ir::Model& source) const {
  return std::clamp<int64_t>(source.opsetVersion(""), kMinOpset, kMaxOpset);
}

std::optional<std::string> OnnxRetargeting::keepAsIs(const ir::Model& model, const ir::Node& n) const {
  if (n.isDefaultDomain() || handlers().lowestVersion(n.domain, n.opType) || localFunction(model, n))
    return std::nullopt;
  return "custom domain '" + n.domain.str() + "': passed through as it is";
}

std::vector<std::string> OnnxRetargeting::sourceWarnings(const ir::Node& n, int64_t sourceOpset) const {
  std::vector<std::string> out;
  if (!n.isDefaultDomain()) return out;
  if (const auto* newer = schema::opsets_18_26::schemaFact(n.opType, sourceOpset)) {  // FlowBridge's own table
    for (const auto& a : n.attributes)
      if (!schema::opsets_18_26::attributeDefault(*newer, a.name))
        out.push_back("attribute '" + a.name + "' is not part of " + n.opType + "-" + std::to_string(newer->since) +
                      "; no handler uses it");
  } else if (const auto* s = schema::schemaAt("", n.opType, sourceOpset)) {
    for (const auto& name : schema::unknownAttributes(n, *s))
      out.push_back("attribute '" + name + "' is not part of " + n.opType + "-" + std::to_string(s->since_version()) +
                    "; no handler uses it");
  }
  return out;
}

void OnnxRetargeting::convertNode(ir::Node& n, HandlerContext& ctx) const {
  try {
    convertDirect(n, ctx);
  } catch (const Unsupported& e) {
    if (!n.isDefaultDomain()) throw;
    ctx.note.clear();
    ctx.warnings.clear();
    ctx.changed = false;
    try {
      if (expandFunctionBody(n, ctx)) return;
    } catch (const Unsupported& inner) {
      throw Unsupported(std::string(e.what()) + "; " + inner.what());
    }
    throw;
  }
}

void OnnxRetargeting::convertDirect(ir::Node& n, HandlerContext& ctx) const {
  // A model-local function's body is written against its own opset imports: expanded, it converts.
  if (expandLocalFunction(n, ctx)) return;
  const bool defaultDomain = n.isDefaultDomain();
  if (defaultDomain && ctx.targetOpset > schema::kLibonnxMaxOpset) return convertAbove17(n, ctx);
  // Opsets 18-26 first step down to 17 (own adapters), then the 7-17 chain goes on from there.
  if (defaultDomain && ctx.sourceOpset > schema::kLibonnxMaxOpset) {
    if (stepDownTo17(n, ctx)) {
      // A dry run's step edits nothing, so the steps from 17 on cannot run on the node. An op the target lacks,
      // with no handler to write it otherwise, is refused here as the real conversion refuses it (DFT-20 to 16).
      if (ctx.dryRun && !ctx.wouldReplace && ctx.targetOpset < schema::kLibonnxMaxOpset &&
          !schema::schemaAt("", n.opType, ctx.targetOpset) && !handlers().find("", n.opType, ctx.targetOpset))
        compatibleVersionStep(n, ctx);  // throws "<op> does not exist at opset N"
      return;
    }
    ctx.sourceOpset = schema::kLibonnxMaxOpset;
  }
  if (defaultDomain) {
    int64_t sv = schema::schemaVersionAt("", n.opType, ctx.sourceOpset);
    if (sv != 0 && sv == schema::schemaVersionAt("", n.opType, ctx.targetOpset)) return;  // same schema: nothing to do
  }
  if (const HandlerInfo* h = handlers().find(n.domain, n.opType, ctx.targetOpset)) {
    ctx.attributesOnly = false;  // an adapter's rewrite after the opset-18 step is a real one unless it says otherwise
    return h->fn(n, ctx);
  }
  if (defaultDomain) return compatibleVersionStep(n, ctx);
  if (auto low = handlers().lowestVersion(n.domain, n.opType); low && *low > ctx.targetOpset)
    throw Unsupported("needs opset " + std::to_string(*low));
  throw Unsupported("no handler for " + n.qualifiedOp() + " in direction '" + name() + "'");
}

// Targets 18-26: the node's opset-17 form first (the 7-17 chain, or the step down for a newer source), then the
// adapters up from 17; between two opsets above 17 going down, only unchanged schemas pass.
void OnnxRetargeting::convertAbove17(ir::Node& n, HandlerContext& ctx) const {
  const int64_t target = ctx.targetOpset;
  if (ctx.sourceOpset > target) return stepBetweenNewOpsets(n, ctx);
  if (ctx.sourceOpset < schema::kLibonnxMaxOpset) {
    ctx.targetOpset = schema::kLibonnxMaxOpset;
    try {
      convertDirect(n, ctx);
    } catch (...) {
      ctx.targetOpset = target;  // a fallback (function body) must aim at the real target
      throw;
    }
    ctx.targetOpset = target;
    ctx.sourceOpset = schema::kLibonnxMaxOpset;
    if (ctx.replaced) {
      for (ir::Node* m : std::vector<ir::Node*>(ctx.created))
        if (m->isDefaultDomain()) stepUpFrom17(*m, ctx);
      return;
    }
  }
  return stepUpFrom17(n, ctx);
}

void OnnxRetargeting::finishModel(ir::Model& m) const { dropUncalledFunctions(m); }

}  // namespace fb::convert::onnx_onnx
