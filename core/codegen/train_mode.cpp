#include "codegen/train_mode.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "codegen/helper_library.h"
#include "codegen/py_node.h"

namespace fb::codegen {

std::string torchMomentumLiteral(float onnxMomentum) {
  const double complement = 1.0 - static_cast<double>(onnxMomentum);
  for (int digits = 1; digits <= 17; ++digits) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*g", digits, complement);
    const double candidate = std::strtod(buf, nullptr);
    if (static_cast<float>(1.0 - candidate) == onnxMomentum) return pyFloat(candidate);
  }
  return pyFloat(complement);
}

std::string batchNormHelperName() {
  static const bool registered = [] {
    HelperLibrary::instance().add(Helper{
        "_batch_norm",
        "def _batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps):\n"
        "    # nn.BatchNorm's behaviour (F.batch_norm is not in OneFlow 0.8): in training, normalise with the batch's\n"
        "    # statistics and move the running ones by `momentum`, the variance unbiased as nn.BatchNorm keeps it.\n"
        "    shape = (1, -1) + (1,) * (x.dim() - 2)\n"
        "    if training:\n"
        "        dims = [0] + list(range(2, x.dim()))\n"
        "        mean = x.mean(dim=dims)\n"
        "        var = x.var(dim=dims, unbiased=False)\n"
        "        n = x.numel() // x.shape[1]\n"
        "        with T.no_grad():\n"
        "            running_mean.copy_(running_mean * (1 - momentum) + mean * momentum)\n"
        "            running_var.copy_(running_var * (1 - momentum) + var * (momentum * n / max(n - 1, 1)))\n"
        "    else:\n"
        "        mean, var = running_mean, running_var\n"
        "    return (x - mean.reshape(shape)) / T.sqrt(var.reshape(shape) + eps) * weight.reshape(shape) + "
        "bias.reshape(shape)\n",
        {}});
    return true;
  }();
  (void)registered;
  return "_batch_norm";
}

}  // namespace fb::codegen
