#pragma once
// The activation functions RNN, GRU and LSTM name in their `activations` attribute, with the alpha/beta values
// of `activation_alpha` / `activation_beta`: those lists are consumed in the order of the functions, each taking
// a value only when it has that parameter (as ONNX Runtime reads them); a function with no value given uses the
// default of the ONNX op of the same name.
#include <cmath>
#include <string>
#include <vector>

namespace fb::eval {

struct RecurrentActivation {
  enum class Kind {
    Sigmoid,
    Tanh,
    Relu,
    Affine,
    LeakyRelu,
    ThresholdedRelu,
    ScaledTanh,
    HardSigmoid,
    Elu,
    Softsign,
    Softplus
  };
  Kind kind = Kind::Sigmoid;
  double alpha = 0, beta = 0;

  template <typename T>
  T operator()(T x) const {
    const T a = static_cast<T>(alpha), b = static_cast<T>(beta);
    switch (kind) {
      case Kind::Sigmoid:
        return x >= 0 ? T(1) / (T(1) + std::exp(-x)) : std::exp(x) / (T(1) + std::exp(x));
      case Kind::Tanh:
        return std::tanh(x);
      case Kind::Relu:
        return x > 0 ? x : T(0);
      case Kind::Affine:
        return a * x + b;
      case Kind::LeakyRelu:
        return x >= 0 ? x : a * x;
      case Kind::ThresholdedRelu:
        return x > a ? x : T(0);
      case Kind::ScaledTanh:
        return a * std::tanh(b * x);
      case Kind::HardSigmoid:
        return std::max(T(0), std::min(T(1), a * x + b));
      case Kind::Elu:
        return x >= 0 ? x : a * (std::exp(x) - T(1));
      case Kind::Softsign:
        return x / (T(1) + std::abs(x));
      case Kind::Softplus:
        return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    }
    return x;
  }
};

// The activations of every direction, in order (directions * perDirection of them). `names` may give one
// direction's worth for a bidirectional op (used for both) or be empty (the defaults). Throws Unsupported for a
// name it does not know, BadInput for a wrong count.
std::vector<RecurrentActivation> recurrentActivations(const std::vector<std::string>& names,
                                                      const std::vector<float>& alphas, const std::vector<float>& betas,
                                                      const std::vector<std::string>& defaults, int directions);

}  // namespace fb::eval
