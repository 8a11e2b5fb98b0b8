// Adapters from opset 17 up to 18-26 (docs: /work/shared/docs/onnx-opsets-after-17.md, "Converter-relevant
// summary"). Only four changes after 17 need an older node rewritten:
//   Reduce*-18 (not ReduceSum): axes attribute -> optional input;
//   Split-18: without a `split` input, the outputs' count has to be spelled as num_outputs;
//   DFT-20: axis attribute (default 1) -> optional input (default -2: the old default must be written);
//   GridSample-20: mode names bilinear/bicubic -> linear/cubic;
// and one between two newer versions: GroupNormalization-18 -> 21 (scale/bias per group -> per channel).
// Every other version after 17 widens types or adds attributes whose defaults mean what the older version
// did without them (Resize antialias/axes/keep_aspect_ratio_policy, LpPool ceil_mode/dilations, AveragePool
// dilations, Cast saturate/round_mode, Q/DQ block_size/output_dtype/precision, GroupNormalization stash_type).
#include "convert/onnx_onnx/opset18_up.h"

#include <algorithm>

#include "schema/opsets.h"
#include "schema/onnx_schema.h"
#include "schema/opsets_18_26/op_facts.h"
#include "ir/graph.h"
#include "ir/packed_types.h"

namespace fb::convert::onnx_onnx {
namespace {

std::string baseName(const ir::Node& n) { return n.name.empty() ? n.opType : n.name; }

void addNote(HandlerContext& ctx, const std::string& what) { ctx.note += (ctx.note.empty() ? "" : "; ") + what; }

// True when the step from `from` to `to` passes the op version `since`.
bool crosses(int64_t from, int64_t to, int64_t since) { return from < since && since <= to; }

bool isReduceWithAxesInputAt18(const std::string& op) {
  static const char* ops[] = {"ReduceL1",   "ReduceL2",  "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
                              "ReduceMean", "ReduceMin", "ReduceProd",   "ReduceSumSquare"};
  return std::find(std::begin(ops), std::end(ops), op) != std::end(ops);
}

// Reduce*-18: the axes attribute becomes a constant int64 input. No attribute means "all axes", which an
// absent input with noop_with_empty_axes=0 (the default) still means.
void reduceAxesToInput(ir::Node& n, HandlerContext& ctx) {
  const ir::Attribute* a = n.attr("axes");
  if (!a) return;
  std::vector<int64_t> axes = a->ints;
  addNote(ctx, "axes attribute -> input (" + n.opType + "-18)");
  if (!ctx.commit()) return;
  n.removeAttr("axes");
  ir::Value* c = ctx.constantInt64(baseName(n) + "_axes", axes);
  n.setInput(1, c);
}

// Split-18: with neither a `split` input nor num_outputs the node is invalid. Opset 13-17's equal split into as
// many parts as there are outputs becomes the sizes as a constant input when the dimension is static (what every
// opset from 13 reads the same way), else num_outputs = that count (ceil(dim/n) chunks equal dim/n when n divides
// dim, which 13-17 required).
void splitNumOutputs(ir::Node& n, HandlerContext& ctx) {
  if (n.input(1) || n.hasAttr("num_outputs")) return;
  const int64_t parts = static_cast<int64_t>(n.outputs().size());
  std::optional<int64_t> dim;
  if (auto shape = ctx.staticShape(n.input(0))) {
    int64_t axis = n.attrInt("axis", 0), rank = static_cast<int64_t>(shape->size());
    if (axis < 0) axis += rank;
    if (axis >= 0 && axis < rank) dim = (*shape)[axis];
  }
  if (dim && *dim % parts != 0)
    throw Unsupported("Split: dimension " + std::to_string(*dim) + " does not split into " + std::to_string(parts) +
                      " equal parts (the source is invalid)");
  addNote(ctx, dim ? "equal split -> split sizes input (Split-18)"
                   : "equal split -> num_outputs=" + std::to_string(parts) + " (Split-18)");
  if (!ctx.commit()) return;
  if (dim)
    n.setInput(1, ctx.constantInt64(baseName(n) + "_split", std::vector<int64_t>(size_t(parts), *dim / parts)));
  else
    n.setAttr(ir::Attribute::makeInt("num_outputs", parts));
}

// DFT-20: axis moves to the third input, and its default changes from 1 to -2: write the old value.
void dftAxisToInput(ir::Node& n, HandlerContext& ctx) {
  const int64_t axis = n.attrInt("axis", 1);
  if (n.attrInt("onesided", 0) != 0 && n.attrInt("inverse", 0) != 0)
    throw Unsupported("DFT-17 with onesided=1 and inverse=1 is undefined; DFT-20 calls it an inverse real FFT");
  addNote(ctx, "axis=" + std::to_string(axis) + " attribute -> input (DFT-20)");
  if (!ctx.commit()) return;
  n.removeAttr("axis");
  ir::Value* c = ctx.constantInt64(baseName(n) + "_axis", {axis}, /*asScalar=*/true);
  if (n.inputs().size() < 2) n.setInput(1, nullptr);
  n.setInput(2, c);
}

// GridSample-20: the same interpolations under new names; an absent mode meant bilinear and now means linear.
void gridSampleModes(ir::Node& n, HandlerContext& ctx) {
  const ir::Attribute* a = n.attr("mode");
  if (!a) return;
  std::string renamed = a->s == "bilinear" ? "linear" : a->s == "bicubic" ? "cubic" : a->s;
  if (renamed == a->s) return;
  addNote(ctx, "mode '" + a->s + "' -> '" + renamed + "' (GridSample-20)");
  if (!ctx.commit()) return;
  n.setAttr(ir::Attribute::makeString("mode", renamed));
}

// GroupNormalization-21: scale and bias have one value per channel instead of one per group. Constant ones
// are repeated C/G times; stash_type (new, default float32) is set to the input's own type so that double
// inputs keep their precision.
void groupNormPerChannel(ir::Node& n, HandlerContext& ctx) {
  const int64_t groups = n.attrInt("num_groups", 0);
  const ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Float && t != ir::DataType::Double)
    throw Unsupported("GroupNormalization-18 -> 21 on " + std::string(ir::dataTypeName(t)) +
                      ": 21 computes in float32 (stash_type), 18 in the input type");
  auto shape = ctx.staticShape(n.input(0));
  if (!shape || shape->size() < 2 || groups <= 0 || (*shape)[1] % groups != 0)
    throw Unsupported("GroupNormalization-18 -> 21 needs the channel count (static) to widen scale/bias");
  const int64_t channels = (*shape)[1];
  std::vector<std::vector<double>> values;
  for (size_t i : {size_t(1), size_t(2)}) {
    auto v = ctx.constantDoubles(n.input(i));
    if (!v || static_cast<int64_t>(v->size()) != groups)
      throw Unsupported("GroupNormalization-18 -> 21: " + std::string(i == 1 ? "scale" : "bias") +
                        " is not a constant of num_groups values");
    values.push_back(*v);
  }
  addNote(ctx, "scale/bias per group -> per channel (GroupNormalization-21)");
  if (!ctx.commit()) return;
  for (size_t k = 0; k < 2; ++k) {
    std::vector<double> wide;
    for (int64_t c = 0; c < channels; ++c) wide.push_back(values[k][c / (channels / groups)]);
    std::string name = ctx.graph.uniqueName(baseName(n) + (k == 0 ? "_scale_c" : "_bias_c"));
    ir::Value* v = t == ir::DataType::Float
                       ? ctx.graph.addInitializer(
                             ir::Tensor::fromValues(name, t, {channels}, std::vector<float>(wide.begin(), wide.end())))
                       : ctx.graph.addInitializer(ir::Tensor::fromValues(name, t, {channels}, wide));
    ir::Value* old = n.input(k + 1);
    n.setInput(k + 1, v);
    if (old && old->uses().empty() && old->initializer() && !old->isGraphOutput() && !old->isGraphInput())
      ctx.graph.removeInitializer(old);
  }
  n.setAttr(ir::Attribute::makeInt("stash_type", static_cast<int64_t>(t)));
}

// Element types the target's IR version cannot hold (float8 at IR 8, int4 at IR 9, ...).
void requireTypesAt(const ir::Node& n, const HandlerContext& ctx) {
  const int64_t ir = schema::irVersionForOpset(ctx.targetOpset);
  auto check = [&](const ir::Value* v) {
    if (!v) return;
    ir::DataType t = v->initializer() ? v->initializer()->dtype : ctx.elemType(v);
    if (ir::minIrVersionFor(t) > ir)
      throw Unsupported("'" + v->name() + "' is " + std::string(ir::dataTypeName(t)) + ", which opset " +
                        std::to_string(ctx.targetOpset) + " (IR " + std::to_string(ir) + ") does not have");
  };
  for (const ir::Value* v : n.inputs()) check(v);
  for (const ir::Value* v : n.outputs()) check(v);
}

bool typesOnly(const schema::opsets_18_26::SchemaFact& f) {
  return f.change == "types only" || f.change.rfind("adds ", 0) == 0 ||
         f.change.find("float8 types") != std::string::npos;
}

}  // namespace

void stepUpFrom17(ir::Node& n, HandlerContext& ctx) {
  const int64_t from = std::max<int64_t>(ctx.sourceOpset, schema::kLibonnxMaxOpset), to = ctx.targetOpset;
  if (isReduceWithAxesInputAt18(n.opType) && crosses(from, to, 18)) reduceAxesToInput(n, ctx);
  if (n.opType == "Split" && crosses(from, to, 18)) splitNumOutputs(n, ctx);
  if (n.opType == "DFT" && crosses(from, to, 20)) dftAxisToInput(n, ctx);
  if (n.opType == "GridSample" && crosses(from, to, 20)) gridSampleModes(n, ctx);
  if (n.opType == "GroupNormalization" && crosses(from, to, 21)) groupNormPerChannel(n, ctx);
}

std::string upPlan18(const std::string& op, int64_t since) {
  if (isReduceWithAxesInputAt18(op) && since == 18) return "axes attribute -> constant axes input";
  if (op == "Split" && since == 18) return "equal split -> split sizes input (static dimension) or num_outputs";
  if (op == "DFT" && since == 20) return "axis attribute -> constant axis input (the old default 1 written out)";
  if (op == "GridSample" && since == 20) return "mode bilinear/bicubic -> linear/cubic";
  if (op == "GroupNormalization" && since == 21)
    return "from 18: constant scale/bias per group -> per channel (static channel count), stash_type = input type";
  if (schema::firstOpsetOf("", op) == since) return "new op: no older node to convert";
  return "kept: only types widened, or attributes added whose defaults keep the meaning";
}

void stepBetweenNewOpsets(ir::Node& n, HandlerContext& ctx) {
  requireTypesAt(n, ctx);
  if (int64_t first = schema::firstOpsetOf("", n.opType); first > ctx.targetOpset)
    throw Unsupported(n.opType + " is new in opset " + std::to_string(first));
  const int64_t sv = schema::schemaVersionAt("", n.opType, ctx.sourceOpset),
                tv = schema::schemaVersionAt("", n.opType, ctx.targetOpset);
  if (sv == tv) return;
  // Each version in (target, source] must have changed nothing but types.
  for (const auto& f : schema::opsets_18_26::allSchemaFacts())
    if (f.op == n.opType && f.since > tv && f.since <= sv && !typesOnly(f))
      throw Unsupported(n.opType + "-" + std::to_string(f.since) + " (" + f.change +
                        ") is not converted down to opset " + std::to_string(ctx.targetOpset) +
                        "; convert to 17 or below");
}

}  // namespace fb::convert::onnx_onnx
