// Scan-8 -> Scan-9+: Scan-8 runs its body over a batch axis (axis 0 of every state and scan input, with
// optional per-batch sequence_lens); Scan-9 has neither. With a batch of exactly 1 and no sequence_lens the
// two are the same loop: the batch axis is squeezed off the inputs, the body runs as it is (it never saw the
// batch axis), and the batch axis is put back on every output. A larger batch would need a Loop over the
// batch, and sequence_lens a per-batch trip count: both refused with that reason.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"
#include "schema/onnx_schema.h"

namespace fb::convert::onnx_onnx {
namespace {

// Squeeze/Unsqueeze of axis 0 in the form the target opset takes (axes attribute before 13, input from 13).
void axisZero(HandlerContext& ctx, ir::Node& at, const char* op, ir::Value* in, ir::Value* out) {
  if (ctx.targetOpset >= 13) {
    ctx.insertNode(at, op, {in, ctx.constantInt64(std::string(op) + "_axes", {0})}, {out});
  } else {
    ctx.insertNode(at, op, {in}, {out})->setAttr(ir::Attribute::makeInts("axes", {0}));
  }
}

void unbatchedScan(ir::Node& n, HandlerContext& ctx) {
  if (schema::schemaVersionAt("", "Scan", ctx.sourceOpset) != 8) return compatibleVersionStep(n, ctx);
  if (n.input(0))
    throw Unsupported("Scan-8 with sequence_lens has no Scan-" +
                      std::to_string(schema::schemaVersionAt("", "Scan", ctx.targetOpset)) +
                      " form (no per-batch sequence lengths after opset 8)");
  for (size_t i = 1; i < n.inputs().size(); ++i) {
    auto dims = ctx.staticShape(n.input(i));
    if (!dims || dims->empty() || (*dims)[0] != 1)
      throw Unsupported("Scan-8's batch axis must be a static 1 to drop it at opset " +
                        std::to_string(ctx.targetOpset) + " (input " + std::to_string(i) +
                        (dims ? " has batch " + (dims->empty() ? std::string("?") : std::to_string((*dims)[0]))
                              : " has no static shape") +
                        ")");
  }
  ctx.note = "batch axis of 1 squeezed off the inputs and put back on the outputs; directions -> scan_input_directions";
  if (!ctx.commit()) return;
  const std::string base = n.name.empty() ? "scan" : n.name;
  // Inputs: sequence_lens goes, the others lose their batch axis.
  std::vector<ir::Value*> inputs(n.inputs().begin() + 1, n.inputs().end());
  while (!n.inputs().empty()) n.removeInput(n.inputs().size() - 1);
  for (ir::Value* v : inputs) {
    ir::Value* s = ctx.newValue(base + "_unbatched");
    axisZero(ctx, n, "Squeeze", v, s);
    n.addInput(s);
  }
  // Outputs: the node writes the unbatched ones, an Unsqueeze after it restores the batch axis.
  std::vector<ir::Node*> after;
  for (size_t i = 0; i < n.outputs().size(); ++i) {
    ir::Value* y = n.output(i);
    if (!y) continue;
    ir::Value* u = ctx.newValue(y->name() + "_unbatched");
    ctx.graph.setOutput(&n, i, u);
    axisZero(ctx, n, "Unsqueeze", u, y);
    after.push_back(ctx.created.back());
  }
  // insertNode puts nodes before `n` (Squeezes, then Unsqueezes); the Unsqueezes read its outputs.
  if (!after.empty()) ctx.graph.moveBefore(&n, after.front());
  if (const ir::Attribute* d = n.attr("directions")) {
    ir::Attribute a = *d;
    a.name = "scan_input_directions";
    n.removeAttr("directions");
    n.setAttr(a);
  }
}

}  // namespace

void registerScanAdapters(HandlerRegistry& r) {
  add(r, "Scan", 8, "opset 8: the op itself, compatible version step", compatibleVersionStep);
  add(r, "Scan", 9, "Scan-8 -> 9+: batch axis of 1 squeezed off and put back; otherwise a compatible version step",
      unbatchedScan);
}

}  // namespace fb::convert::onnx_onnx
