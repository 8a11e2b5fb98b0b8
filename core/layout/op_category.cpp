#include "layout/op_category.h"

#include <unordered_map>

namespace fb::layout {

OpCategory opCategory(std::string_view opType, std::string_view domain) {
  if (!domain.empty() && domain != "ai.onnx") return OpCategory::Custom;
  using C = OpCategory;
  static const std::unordered_map<std::string_view, OpCategory> table = {
      {"Conv", C::Linear},
      {"ConvTranspose", C::Linear},
      {"Gemm", C::Linear},
      {"MatMul", C::Linear},
      {"MatMulInteger", C::Linear},
      {"QLinearConv", C::Linear},
      {"QLinearMatMul", C::Linear},
      {"ConvInteger", C::Linear},
      {"Einsum", C::Linear},
      {"Relu", C::Activation},
      {"LeakyRelu", C::Activation},
      {"PRelu", C::Activation},
      {"Sigmoid", C::Activation},
      {"Tanh", C::Activation},
      {"Softmax", C::Activation},
      {"LogSoftmax", C::Activation},
      {"Elu", C::Activation},
      {"Selu", C::Activation},
      {"Gelu", C::Activation},
      {"HardSigmoid", C::Activation},
      {"HardSwish", C::Activation},
      {"Softplus", C::Activation},
      {"Softsign", C::Activation},
      {"Clip", C::Activation},
      {"Mish", C::Activation},
      {"Celu", C::Activation},
      {"ThresholdedRelu", C::Activation},
      {"Hardmax", C::Activation},
      {"BatchNormalization", C::Normalization},
      {"InstanceNormalization", C::Normalization},
      {"LayerNormalization", C::Normalization},
      {"GroupNormalization", C::Normalization},
      {"LRN", C::Normalization},
      {"LpNormalization", C::Normalization},
      {"MeanVarianceNormalization", C::Normalization},
      {"Dropout", C::Normalization},
      {"MaxPool", C::Pooling},
      {"AveragePool", C::Pooling},
      {"GlobalAveragePool", C::Pooling},
      {"GlobalMaxPool", C::Pooling},
      {"LpPool", C::Pooling},
      {"GlobalLpPool", C::Pooling},
      {"MaxRoiPool", C::Pooling},
      {"RoiAlign", C::Pooling},
      {"MaxUnpool", C::Pooling},
      {"Reshape", C::ShapeLayout},
      {"Transpose", C::ShapeLayout},
      {"Flatten", C::ShapeLayout},
      {"Squeeze", C::ShapeLayout},
      {"Unsqueeze", C::ShapeLayout},
      {"Concat", C::ShapeLayout},
      {"Split", C::ShapeLayout},
      {"Slice", C::ShapeLayout},
      {"Gather", C::ShapeLayout},
      {"GatherElements", C::ShapeLayout},
      {"GatherND", C::ShapeLayout},
      {"Shape", C::ShapeLayout},
      {"Size", C::ShapeLayout},
      {"Expand", C::ShapeLayout},
      {"Tile", C::ShapeLayout},
      {"Pad", C::ShapeLayout},
      {"Resize", C::ShapeLayout},
      {"Upsample", C::ShapeLayout},
      {"DepthToSpace", C::ShapeLayout},
      {"SpaceToDepth", C::ShapeLayout},
      {"Identity", C::ShapeLayout},
      {"Constant", C::ShapeLayout},
      {"ConstantOfShape", C::ShapeLayout},
      {"Cast", C::ShapeLayout},
      {"Range", C::ShapeLayout},
      {"ScatterND", C::ShapeLayout},
      {"ScatterElements", C::ShapeLayout},
      {"NonZero", C::ShapeLayout},
      {"If", C::ControlFlow},
      {"Loop", C::ControlFlow},
      {"Scan", C::ControlFlow},
      {"Add", C::Elementwise},
      {"Sub", C::Elementwise},
      {"Mul", C::Elementwise},
      {"Div", C::Elementwise},
      {"Pow", C::Elementwise},
      {"Sqrt", C::Elementwise},
      {"Exp", C::Elementwise},
      {"Log", C::Elementwise},
      {"Abs", C::Elementwise},
      {"Neg", C::Elementwise},
      {"Reciprocal", C::Elementwise},
      {"Erf", C::Elementwise},
      {"Where", C::Elementwise},
      {"Equal", C::Elementwise},
      {"Greater", C::Elementwise},
      {"Less", C::Elementwise},
      {"Not", C::Elementwise},
      {"And", C::Elementwise},
      {"Or", C::Elementwise},
      {"Min", C::Elementwise},
      {"Max", C::Elementwise},
      {"Sum", C::Elementwise},
      {"Mean", C::Elementwise},
      {"ReduceMean", C::Elementwise},
      {"ReduceSum", C::Elementwise},
      {"ReduceMax", C::Elementwise},
      {"ReduceMin", C::Elementwise},
      {"ReduceProd", C::Elementwise},
      {"Floor", C::Elementwise},
      {"Ceil", C::Elementwise},
      {"Round", C::Elementwise},
      {"Sin", C::Elementwise},
      {"Cos", C::Elementwise},
      {"ArgMax", C::Elementwise},
      {"ArgMin", C::Elementwise},
      {"CumSum", C::Elementwise},
      {"Mod", C::Elementwise},
      {"Sign", C::Elementwise},
  };
  auto it = table.find(opType);
  return it == table.end() ? OpCategory::Other : it->second;
}

std::string_view opCategoryName(OpCategory c) {
  switch (c) {
    case OpCategory::Linear:
      return "convolution / linear";
    case OpCategory::Activation:
      return "activation";
    case OpCategory::Normalization:
      return "normalization";
    case OpCategory::Pooling:
      return "pooling";
    case OpCategory::ShapeLayout:
      return "shape and layout";
    case OpCategory::Elementwise:
      return "elementwise math";
    case OpCategory::ControlFlow:
      return "control flow";
    case OpCategory::Custom:
      return "custom domain";
    case OpCategory::Other:
      return "other";
  }
  return "other";
}

std::string_view opCategoryColor(OpCategory c) {
  switch (c) {
    case OpCategory::Linear:
      return "#9ecae9";
    case OpCategory::Activation:
      return "#f6b38a";
    case OpCategory::Normalization:
      return "#b9dfa8";
    case OpCategory::Pooling:
      return "#c8b6e2";
    case OpCategory::ShapeLayout:
      return "#e3e3e3";
    case OpCategory::Elementwise:
      return "#f7e08f";
    case OpCategory::ControlFlow:
      return "#f29a9a";
    case OpCategory::Custom:
      return "#e7a6d6";
    case OpCategory::Other:
      return "#d2d2c4";
  }
  return "#d2d2c4";
}

}  // namespace fb::layout
