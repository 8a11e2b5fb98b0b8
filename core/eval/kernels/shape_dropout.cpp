// Dropout. At inference (every opset's default) it passes its input through and its mask keeps everything. With
// opset 12's training_mode input set it drops elements at random: a Mersenne Twister (MT19937) seeded with the
// node's `seed` (0 when absent, so runs repeat) draws one double in [0, 1) per element as numpy's
// RandomState.uniform does, and an element is kept when its draw is >= ratio, then scaled by 1 / (1 - ratio). That
// is the generator ONNX's own reference uses, so a seeded node gives the reference's mask.
#include <random>

#include "eval/kernels/shape_parts.h"
#include "eval/runtime/half.h"

namespace fb::eval::shape {

namespace {

// A tensor of type `t` and `dims` holding ones (the mask where nothing is dropped).
Tensor ones(ir::DataType t, const std::vector<int64_t>& dims) {
  const Tensor one = Tensor::scalar(t, 1.0);
  Tensor r = Tensor::empty(t, dims);
  ElementMover(one, r, "Dropout").fill(0, r.size(), one);
  return r;
}

// Which elements training-mode Dropout keeps: draw k >= ratio, draws as numpy's uniform(0, 1) from MT19937(seed).
Tensor keptMask(const std::vector<int64_t>& dims, double ratio, uint32_t seed) {
  Tensor mask = Tensor::empty(ir::DataType::Bool, dims);
  std::mt19937 gen(seed);
  bool* m = mask.mutableData<bool>();
  for (int64_t k = 0; k < mask.size(); ++k) {
    const uint32_t hi = static_cast<uint32_t>(gen()) >> 5, lo = static_cast<uint32_t>(gen()) >> 6;
    const double draw = (hi * 67108864.0 + lo) / 9007199254740992.0;  // 53 random bits, as numpy's random_double
    m[k] = draw >= ratio;
  }
  return mask;
}

Tensor applyMask(const Tensor& x, const Tensor& mask, double ratio) {
  Tensor y = Tensor::empty(x.dtype(), x.dims());
  const bool* m = mask.data<bool>();
  const int64_t n = x.size();
  const double scale = 1.0 / (1.0 - ratio);
  switch (x.dtype()) {
    case ir::DataType::Float: {
      const float s = static_cast<float>(scale);
      for (int64_t k = 0; k < n; ++k) y.mutableData<float>()[k] = m[k] ? x.data<float>()[k] * s : 0.f;
      break;
    }
    case ir::DataType::Double:
      for (int64_t k = 0; k < n; ++k) y.mutableData<double>()[k] = m[k] ? x.data<double>()[k] * scale : 0.0;
      break;
    case ir::DataType::Float16:
    case ir::DataType::BFloat16: {
      const bool h = x.dtype() == ir::DataType::Float16;
      const float s = static_cast<float>(scale);
      for (int64_t k = 0; k < n; ++k) {
        const uint16_t b = x.data<uint16_t>()[k];
        const float v = m[k] ? (h ? halfBitsToFloat(b) : bfloat16BitsToFloat(b)) * s : 0.f;
        y.mutableData<uint16_t>()[k] = h ? floatToHalfBits(v) : floatToBfloat16Bits(v);
      }
      break;
    }
    default:
      unsupported("training-mode Dropout of " + describe(x));
  }
  return y;
}

std::vector<Value> dropout(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const bool wantMask = c.node.outputs().size() > 1 && c.node.output(1);
  if (c.opset >= 12) {
    const Tensor* training = c.optionalInput(2);
    if (training && training->size() != 1) badInput("Dropout's training_mode is " + describe(*training));
    const Tensor* ratioT = c.optionalInput(1);
    if (ratioT && ratioT->size() != 1) badInput("Dropout's ratio is " + describe(*ratioT));
    const double ratio = ratioT ? ratioT->doubleAt(0) : 0.5;
    if (training && training->doubleAt(0) != 0 && ratio != 0) {
      if (!(ratio > 0 && ratio < 1)) badInput("Dropout's ratio " + std::to_string(ratio) + " is outside [0, 1)");
      const Tensor mask = keptMask(x.dims(), ratio, static_cast<uint32_t>(c.node.attrInt("seed", 0)));
      std::vector<Value> out{applyMask(x, mask, ratio)};
      if (wantMask) out.emplace_back(mask);
      return out;
    }
  }
  std::vector<Value> out{x};
  if (wantMask) out.emplace_back(ones(c.opset >= 10 ? ir::DataType::Bool : x.dtype(), x.dims()));
  return out;
}

}  // namespace

void registerDropoutKernels(KernelRegistry& r) {
  const auto asIs = HalfTypes::AsIs;
  r.add("Dropout", 1, dropout, asIs);   // mask of T before 10
  r.add("Dropout", 10, dropout, asIs);  // mask of bool
  r.add("Dropout", 12, dropout, asIs);  // ratio and training_mode inputs, seed attribute
}

}  // namespace fb::eval::shape
