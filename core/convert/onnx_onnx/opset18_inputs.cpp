// Inputs and attributes of opsets 18-20 that moved or gained values, taken back to their opset-17 form where
// the meaning is the same: Pad-18 axes and Pad-19 wrap, Resize-18/19's new attributes and mode, DFT-20's axis
// input, GridSample-20's mode names, Optional*-18 on plain tensors.
#include <cmath>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"
#include "ir/graph.h"

namespace fb::convert::onnx_onnx {
namespace {

std::string baseName(const ir::Node& n) { return n.name.empty() ? n.opType : n.name; }

// Pad-19 wrap: each padded axis becomes Concat(tail of x, x, head of x) (torus padding), for amounts
// between 0 and the axis length.
void padWrap(ir::Node& n, HandlerContext& ctx, const std::vector<int64_t>& pads) {
  auto shape = ctx.staticShape(n.input(0));
  if (!shape)
    throw Unsupported("Pad-19 mode='wrap': the input's shape is not static (the wrapped slices need constant bounds)");
  const int64_t rank = static_cast<int64_t>(shape->size());
  if (static_cast<int64_t>(pads.size()) != 2 * rank) throw Unsupported("Pad-19: pads does not hold 2 * rank values");
  for (int64_t a = 0; a < rank; ++a)
    for (int64_t p : {pads[a], pads[a + rank]})
      if (p < 0 || p > (*shape)[a])
        throw Unsupported("Pad-19 mode='wrap': amount " + std::to_string(p) + " on axis " + std::to_string(a) +
                          " is outside [0, " + std::to_string((*shape)[a]) + "]; only single wraps are decomposed");
  replaceByBody17(
      n, ctx, {"data"}, {"output"},
      [&](onnx::FunctionBuilder& b) {
        std::string cur = "data";
        int step = 0;
        for (int64_t a = 0; a < rank; ++a) {
          const int64_t dim = (*shape)[a], before = pads[a], after = pads[a + rank];
          if (!before && !after) continue;
          std::string s = std::to_string(step++);
          std::vector<std::string> parts;
          b.Const("axis" + s, std::vector<int64_t>{a});
          if (before) {
            b.Const("bs" + s, std::vector<int64_t>{dim - before});
            b.Const("be" + s, std::vector<int64_t>{dim});
            b.Add(("tail" + s + " = Slice(" + cur + ", bs" + s + ", be" + s + ", axis" + s + ")").c_str());
            parts.push_back("tail" + s);
          }
          parts.push_back(cur);
          if (after) {
            b.Const("as" + s, std::vector<int64_t>{0});
            b.Const("ae" + s, std::vector<int64_t>{after});
            b.Add(("head" + s + " = Slice(" + cur + ", as" + s + ", ae" + s + ", axis" + s + ")").c_str());
            parts.push_back("head" + s);
          }
          std::string joined;
          for (const auto& p : parts) joined += (joined.empty() ? "" : ", ") + p;
          b.Add(("wrapped" + s + " = Concat <axis = " + std::to_string(a) + "> (" + joined + ")").c_str());
          cur = "wrapped" + s;
        }
        b.Add(("output = Identity(" + cur + ")").c_str());
      },
      "Pad-19 wrap written as Slice/Concat");
}

}  // namespace

// Pad-18: `axes` names the axes `pads` is for; opset 17 wants pads for every axis. Pad-19: mode 'wrap'.
void padTo17(ir::Node& n, HandlerContext& ctx) {
  const bool wrap = n.attrString("mode", "constant") == "wrap";
  std::optional<std::vector<int64_t>> full;
  if (n.input(3)) {
    auto axes = requireConstantInts(n, 3, ctx, "axes");
    auto pads = requireConstantInts(n, 1, ctx, "pads (with an axes input)");
    auto rank = ctx.rank(n.input(0));
    if (!rank)
      throw Unsupported("Pad-18 axes input: the rank is unknown, so pads cannot be spelled out for every axis");
    if (pads.size() != 2 * axes.size()) throw Unsupported("Pad-18: pads does not hold 2 * len(axes) values");
    full = std::vector<int64_t>(2 * static_cast<size_t>(*rank), 0);
    axes = normalizedAxes(axes, rank, "Pad axes");
    for (size_t k = 0; k < axes.size(); ++k) {
      (*full)[axes[k]] = pads[k];
      (*full)[axes[k] + *rank] = pads[k + axes.size()];
    }
  }
  if (wrap) {
    std::vector<int64_t> pads = full ? *full : requireConstantInts(n, 1, ctx, "pads (mode 'wrap')");
    return padWrap(n, ctx, pads);
  }
  if (!full) return;
  ctx.note = "axes input -> pads for every axis";
  if (!ctx.commit()) return;
  ctx.dropInput(n, 3);
  while (n.inputs().size() > 3 || (n.inputs().size() > 1 && !n.inputs().back())) n.removeInput(n.inputs().size() - 1);
  n.setInput(1, ctx.constantInt64(baseName(n) + "_pads", *full));
}

// Resize-18/19 -> Resize-13: axes spelled out over every axis; antialias, keep_aspect_ratio_policy and
// half_pixel_symmetric kept only where they change nothing (or the scales that they imply are exact).
void resizeTo17(ir::Node& n, HandlerContext& ctx) {
  const std::string mode = n.attrString("mode", "nearest");
  const std::string policy = n.attrString("keep_aspect_ratio_policy", "stretch");
  std::string coord = n.attrString("coordinate_transformation_mode", "half_pixel");
  const bool antialias = n.attrInt("antialias", 0) != 0;
  std::optional<std::vector<double>> scales;
  std::optional<std::vector<int64_t>> sizes;
  if (n.input(2)) {
    scales = ctx.constantDoubles(n.input(2));
    if (scales && scales->empty()) scales.reset();
  }
  if (n.input(3)) sizes = ctx.constantInts(n.input(3));
  const bool scalesGiven = n.input(2) && !(ctx.constantDoubles(n.input(2)) && ctx.constantDoubles(n.input(2))->empty());
  auto shape = ctx.staticShape(n.input(0));
  auto rank = ctx.rank(n.input(0));
  std::vector<int64_t> axes = n.attrInts("axes");
  const bool hasAxes = n.hasAttr("axes");
  if (hasAxes) {
    if (!rank)
      throw Unsupported("Resize-18 axes: the rank is unknown, so scales/sizes cannot be spelled out for every axis");
    axes = normalizedAxes(axes, rank, "Resize axes");
  } else if (rank) {
    for (int64_t i = 0; i < *rank; ++i) axes.push_back(i);
  }
  if (hasAxes && scalesGiven && !scales) throw Unsupported("Resize-18 axes with scales computed at run time");
  if (hasAxes && !scalesGiven && n.input(3) && !sizes)
    throw Unsupported("Resize-18 axes with sizes computed at run time");
  std::optional<std::vector<double>> roi;
  if (n.input(1)) {
    roi = ctx.constantDoubles(n.input(1));
    if (hasAxes && !roi) throw Unsupported("Resize-18 axes with roi computed at run time");
  }
  // Scales per axis of the listed axes (what the op uses for coordinates), when known.
  std::optional<std::vector<double>> used;
  std::string scalesNote;
  if (sizes && sizes->size() != axes.size() && (hasAxes || rank))
    throw Unsupported("Resize-18: sizes holds " + std::to_string(sizes->size()) + " values for " +
                      std::to_string(axes.size()) + " axes");
  if (!scalesGiven && sizes && policy != "stretch") {
    if (!shape || axes.empty())
      throw Unsupported("Resize-18 keep_aspect_ratio_policy=" + policy + ": the input's shape is not static");
    double s = policy == "not_larger" ? INFINITY : 0.0;
    for (size_t k = 0; k < axes.size(); ++k) {
      double r = static_cast<double>(static_cast<float>((*sizes)[k]) / static_cast<float>((*shape)[axes[k]]));
      s = policy == "not_larger" ? std::min(s, r) : std::max(s, r);
    }
    used = std::vector<double>(axes.size(), s);
    for (size_t k = 0; k < axes.size(); ++k) {
      double out = s * static_cast<double>((*shape)[axes[k]]);
      if (out != std::floor(out))
        throw Unsupported("Resize-18 keep_aspect_ratio_policy=" + policy + ": scale " + std::to_string(s) +
                          " does not give whole output sizes, and opset 17's floor differs from the policy's rounding");
    }
    scalesNote = "keep_aspect_ratio_policy=" + policy + " -> scales";
  } else if (scales) {
    used = scales;
  } else if (sizes && shape) {
    used = std::vector<double>();
    for (size_t k = 0; k < axes.size() && k < sizes->size(); ++k)
      used->push_back(static_cast<double>((*sizes)[k]) / static_cast<double>((*shape)[axes[k]]));
  }
  if (antialias && mode != "nearest") {
    bool upscaling = used && std::all_of(used->begin(), used->end(), [](double s) { return s >= 1.0; });
    if (!upscaling)
      throw Unsupported("Resize-18 antialias=1 when downscaling (" + mode + "): opset 17 has no antialiasing filter");
  }
  if (coord == "half_pixel_symmetric") {
    bool whole = false;
    if (!scalesGiven && sizes && policy == "stretch")
      whole = true;  // output = scale * input exactly
    else if (scalesGiven && scales && shape) {
      whole = true;
      for (size_t k = 0; k < axes.size() && k < scales->size(); ++k) {
        double out = static_cast<double>(static_cast<float>((*scales)[k]) * static_cast<float>((*shape)[axes[k]]));
        if (out != std::floor(out)) whole = false;
      }
    } else if (!scalesNote.empty()) {
      whole = true;
    }
    if (!whole)
      throw Unsupported(
          "Resize-19 half_pixel_symmetric with an output size that is not input * scale exactly; "
          "opset 17's half_pixel differs then");
  }
  const bool anything = hasAxes || n.hasAttr("antialias") || n.hasAttr("keep_aspect_ratio_policy") ||
                        coord == "half_pixel_symmetric" || !scalesNote.empty();
  if (!anything) return;
  ctx.note = "Resize-" + std::to_string(ctx.sourceOpset >= 19 ? 19 : 18) + " -> Resize-13";
  if (hasAxes) ctx.note += "; axes spelled out";
  if (!scalesNote.empty()) ctx.note += "; " + scalesNote;
  if (coord == "half_pixel_symmetric") ctx.note += "; half_pixel_symmetric = half_pixel for whole output sizes";
  if (!ctx.commit()) return;
  const std::string b = baseName(n);
  if (hasAxes || !scalesNote.empty()) {
    const size_t r = static_cast<size_t>(*rank);
    std::vector<float> fullScales(r, 1.0f);
    if (!scalesNote.empty() || scales) {
      const auto& src = !scalesNote.empty() ? *used : *scales;
      for (size_t k = 0; k < axes.size(); ++k) fullScales[axes[k]] = static_cast<float>(src[k]);
      ir::Value* sv = ctx.constantFloat(b + "_scales", fullScales);
      while (n.inputs().size() < 3) n.addInput(nullptr);
      n.setInput(2, sv);
      if (n.inputs().size() > 3) ctx.dropInput(n, 3);
    } else if (sizes) {
      std::vector<int64_t> fullSizes(r);
      for (size_t i = 0; i < r; ++i) {
        if (!shape) throw std::runtime_error("Resize-18 axes: sizes need the static shape");
        fullSizes[i] = (*shape)[i];
      }
      for (size_t k = 0; k < axes.size(); ++k) fullSizes[axes[k]] = (*sizes)[k];
      n.setInput(3, ctx.constantInt64(b + "_sizes", fullSizes));
    }
    if (roi && !roi->empty() && hasAxes) {
      std::vector<float> fullRoi(2 * r);
      for (size_t i = 0; i < r; ++i) fullRoi[i] = 0.0f, fullRoi[i + r] = 1.0f;
      for (size_t k = 0; k < axes.size(); ++k) {
        fullRoi[axes[k]] = static_cast<float>((*roi)[k]);
        fullRoi[axes[k] + r] = static_cast<float>((*roi)[k + axes.size()]);
      }
      n.setInput(1, ctx.constantFloat(b + "_roi", fullRoi));
    }
  }
  n.removeAttr("axes");
  n.removeAttr("antialias");
  n.removeAttr("keep_aspect_ratio_policy");
  if (coord == "half_pixel_symmetric")
    n.setAttr(ir::Attribute::makeString("coordinate_transformation_mode", "half_pixel"));
}

// DFT-20: axis is the third input (default -2, counted over the rank that includes the complex dimension);
// DFT-17 has it as an attribute.
void dftTo17(ir::Node& n, HandlerContext& ctx) {
  int64_t axis = -2;
  if (n.input(2)) {
    auto v = requireConstantInts(n, 2, ctx, "axis");
    if (v.size() != 1) throw Unsupported("DFT-20: axis must hold one value");
    axis = v[0];
  }
  if (n.attrInt("inverse", 0) != 0 && n.attrInt("onesided", 0) != 0)
    throw Unsupported("DFT-20 inverse with onesided (an inverse real FFT) is new in opset 20");
  if (axis < 0) {
    auto rank = ctx.rank(n.input(0));
    if (!rank) throw Unsupported("DFT-20: a negative axis needs the rank, which is unknown");
    axis += *rank;
  }
  ctx.note = "axis input -> attribute (" + std::to_string(axis) + ")";
  if (!ctx.commit()) return;
  if (n.input(2)) ctx.dropInput(n, 2);
  while (n.inputs().size() > 1 && !n.inputs().back()) n.removeInput(n.inputs().size() - 1);
  n.setAttr(ir::Attribute::makeInt("axis", axis));
}

// GridSample-20/22: modes renamed (linear was bilinear, cubic was bicubic) and N-D inputs; opset 16-17 is 4-D.
void gridSampleTo17(ir::Node& n, HandlerContext& ctx) {
  auto rank = ctx.rank(n.input(0));
  if (!rank || *rank != 4)
    throw Unsupported("GridSample-20: only 4-D inputs have an opset-17 form (rank unknown or not 4)");
  std::string mode = n.attrString("mode", "linear");
  std::string old = mode == "linear" ? "bilinear" : mode == "cubic" ? "bicubic" : mode;
  if (old != "bilinear" && old != "bicubic" && old != "nearest")
    throw Unsupported("GridSample-20: unknown mode '" + mode + "'");
  ctx.note = "mode '" + mode + "' -> '" + old + "'";
  if (!ctx.commit()) return;
  n.setAttr(ir::Attribute::makeString("mode", old));
}

// OptionalHasElement/OptionalGetElement-18 also take plain tensors (and HasElement no input at all); on those
// they are constants / Identity. On optional values they are the opset-15 ops.
void optionalTo17(ir::Node& n, HandlerContext& ctx) {
  const ir::Value* in = n.input(0);
  const bool plain = in && (in->type.isTensor() || in->initializer());
  if (in && !plain) {
    if (in->type.kind == ir::TypeInfo::Kind::Optional) return;
    throw Unsupported(n.opType +
                      "-18: the input's type is unknown (optional or plain?), so the opset-15 form cannot be chosen");
  }
  if (n.opType == "OptionalGetElement") {
    replaceByBody17(
        n, ctx, {"input"}, {"output"}, [](onnx::FunctionBuilder& b) { b.Add("output = Identity(input)"); },
        "OptionalGetElement on a plain tensor -> Identity");
    return;
  }
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::BOOL);
  t.add_int32_data(in ? 1 : 0);
  replaceByBody17(
      n, ctx, in ? std::vector<std::string>{"input"} : std::vector<std::string>{}, {"output"},
      [&](onnx::FunctionBuilder& b) { b.Const("output", t); },
      std::string("OptionalHasElement on ") + (in ? "a plain tensor -> true" : "no input -> false"));
}

}  // namespace fb::convert::onnx_onnx
