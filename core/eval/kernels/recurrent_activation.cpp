#include "eval/kernels/recurrent_activation.h"

#include <algorithm>
#include <cctype>

#include "eval/runtime/run_error.h"

namespace fb::eval {

namespace {

struct Known {
  const char* name;
  RecurrentActivation::Kind kind;
  bool hasAlpha, hasBeta;
  double alpha, beta;  // ONNX's defaults for the op of that name
};

constexpr Known kKnown[] = {
    {"sigmoid", RecurrentActivation::Kind::Sigmoid, false, false, 0, 0},
    {"tanh", RecurrentActivation::Kind::Tanh, false, false, 0, 0},
    {"relu", RecurrentActivation::Kind::Relu, false, false, 0, 0},
    {"affine", RecurrentActivation::Kind::Affine, true, true, 1.0, 0.0},
    {"leakyrelu", RecurrentActivation::Kind::LeakyRelu, true, false, 0.01, 0},
    {"thresholdedrelu", RecurrentActivation::Kind::ThresholdedRelu, true, false, 1.0, 0},
    {"scaledtanh", RecurrentActivation::Kind::ScaledTanh, true, true, 1.0, 1.0},
    {"hardsigmoid", RecurrentActivation::Kind::HardSigmoid, true, true, 0.2, 0.5},
    {"elu", RecurrentActivation::Kind::Elu, true, false, 1.0, 0},
    {"softsign", RecurrentActivation::Kind::Softsign, false, false, 0, 0},
    {"softplus", RecurrentActivation::Kind::Softplus, false, false, 0, 0},
};

}  // namespace

std::vector<RecurrentActivation> recurrentActivations(const std::vector<std::string>& names,
                                                      const std::vector<float>& alphas, const std::vector<float>& betas,
                                                      const std::vector<std::string>& defaults, int directions) {
  const size_t per = defaults.size();
  std::vector<std::string> all;
  if (names.empty()) {
    for (int d = 0; d < directions; ++d) all.insert(all.end(), defaults.begin(), defaults.end());
  } else if (names.size() == per * directions) {
    all = names;
  } else if (names.size() == per) {
    for (int d = 0; d < directions; ++d) all.insert(all.end(), names.begin(), names.end());
  } else {
    badInput("activations lists " + std::to_string(names.size()) + " functions where " +
             std::to_string(per * directions) + " are expected");
  }
  std::vector<RecurrentActivation> out;
  size_t nextAlpha = 0, nextBeta = 0;
  for (const std::string& name : all) {
    std::string lower;
    for (char ch : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const Known* k =
        std::find_if(std::begin(kKnown), std::end(kKnown), [&](const Known& x) { return lower == x.name; });
    if (k == std::end(kKnown)) unsupported("recurrent activation '" + name.substr(0, 64) + "' is not known");
    RecurrentActivation a;
    a.kind = k->kind;
    a.alpha = k->alpha;
    a.beta = k->beta;
    if (k->hasAlpha && nextAlpha < alphas.size()) a.alpha = alphas[nextAlpha++];
    if (k->hasBeta && nextBeta < betas.size()) a.beta = betas[nextBeta++];
    out.push_back(a);
  }
  return out;
}

}  // namespace fb::eval
