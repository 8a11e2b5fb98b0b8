#pragma once
// What makes a generated module's train() train (issue 25, point 3): BatchNormalization as nn.BatchNorm behaves
// (batch statistics and running-statistics updates while `self.training`), the momentum in PyTorch's convention.
#include <string>

namespace fb::codegen {

// PyTorch's momentum for an ONNX BatchNormalization momentum `m`: ONNX updates running = running * m + batch * (1 - m),
// nn.BatchNorm running = running * (1 - momentum) + batch * momentum. The shortest decimal whose float complement is
// `m` (0.9f -> "0.1", as the exporter's nn.BatchNorm had it), not 1 - 0.9f = 0.099999994.
std::string torchMomentumLiteral(float onnxMomentum);

// Registers `_batch_norm` (nn.BatchNorm's behaviour written out, for OneFlow 0.8, which lacks F.batch_norm) in the
// helper library; returns its name.
std::string batchNormHelperName();

}  // namespace fb::codegen
