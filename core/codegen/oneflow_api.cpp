#include "codegen/flavour.h"

namespace fb::codegen {

// The OneFlow names generated code may use. Each exists in OneFlow 0.8, 0.9 and 1.0 (tests check this list
// against shared/docs/oneflow-api-versions.tsv, and every generated model against this list); the README
// prints it. A handler that needs another name adds it here.
const std::vector<std::string>& oneflowApiNames() {
  static const std::vector<std::string> names{
    "oneflow.Tensor.T", "oneflow.Tensor.__getitem__", "oneflow.Tensor.__setitem__", "oneflow.Tensor.abs",
    "oneflow.Tensor.all", "oneflow.Tensor.amax", "oneflow.Tensor.amin", "oneflow.Tensor.any", "oneflow.Tensor.argmax",
    "oneflow.Tensor.argmin", "oneflow.Tensor.argsort", "oneflow.Tensor.ceil", "oneflow.Tensor.chunk",
    "oneflow.Tensor.clone", "oneflow.Tensor.contiguous", "oneflow.Tensor.cumsum", "oneflow.Tensor.device",
    "oneflow.Tensor.dim", "oneflow.Tensor.dtype", "oneflow.Tensor.exp", "oneflow.Tensor.expand",
    "oneflow.Tensor.expand_as", "oneflow.Tensor.fill_", "oneflow.Tensor.flatten", "oneflow.Tensor.flip",
    "oneflow.Tensor.float", "oneflow.Tensor.floor", "oneflow.Tensor.gather", "oneflow.Tensor.index_select",
    "oneflow.Tensor.int", "oneflow.Tensor.item", "oneflow.Tensor.log", "oneflow.Tensor.logical_not",
    "oneflow.Tensor.long", "oneflow.Tensor.masked_fill", "oneflow.Tensor.max", "oneflow.Tensor.mean",
    "oneflow.Tensor.min", "oneflow.Tensor.narrow", "oneflow.Tensor.neg", "oneflow.Tensor.nonzero",
    "oneflow.Tensor.norm", "oneflow.Tensor.numpy", "oneflow.Tensor.permute", "oneflow.Tensor.pow",
    "oneflow.Tensor.prod", "oneflow.Tensor.repeat", "oneflow.Tensor.reshape", "oneflow.Tensor.round",
    "oneflow.Tensor.shape", "oneflow.Tensor.sigmoid", "oneflow.Tensor.sign", "oneflow.Tensor.size",
    "oneflow.Tensor.sort", "oneflow.Tensor.split", "oneflow.Tensor.sqrt", "oneflow.Tensor.squeeze",
    "oneflow.Tensor.std", "oneflow.Tensor.sum", "oneflow.Tensor.t", "oneflow.Tensor.tanh", "oneflow.Tensor.to",
    "oneflow.Tensor.tolist", "oneflow.Tensor.topk", "oneflow.Tensor.transpose", "oneflow.Tensor.type_as",
    "oneflow.Tensor.unbind", "oneflow.Tensor.unsqueeze", "oneflow.Tensor.var", "oneflow.Tensor.view", "oneflow.abs",
    "oneflow.acos", "oneflow.acosh", "oneflow.all", "oneflow.amax", "oneflow.amin", "oneflow.any", "oneflow.arange",
    "oneflow.argmax", "oneflow.argmin", "oneflow.argsort", "oneflow.argwhere", "oneflow.asin", "oneflow.asinh",
    "oneflow.atan", "oneflow.atan2", "oneflow.atanh", "oneflow.bfloat16", "oneflow.bmm", "oneflow.bool",
    "oneflow.broadcast_like", "oneflow.cast", "oneflow.cat", "oneflow.ceil", "oneflow.chunk", "oneflow.clamp",
    "oneflow.cos", "oneflow.cosh", "oneflow.cumprod", "oneflow.cumsum", "oneflow.diag", "oneflow.div",
    "oneflow.einsum", "oneflow.empty", "oneflow.eq", "oneflow.erf", "oneflow.exp", "oneflow.expand", "oneflow.expm1",
    "oneflow.eye", "oneflow.flatten", "oneflow.flip", "oneflow.float16", "oneflow.float32", "oneflow.float64",
    "oneflow.floor", "oneflow.floor_divide", "oneflow.fmod", "oneflow.from_numpy", "oneflow.full", "oneflow.gather",
    "oneflow.gather_nd", "oneflow.ge", "oneflow.gelu", "oneflow.gt", "oneflow.index_select", "oneflow.int32",
    "oneflow.int64", "oneflow.int8", "oneflow.isinf", "oneflow.isnan", "oneflow.le", "oneflow.linspace",
    "oneflow.load", "oneflow.log", "oneflow.log1p", "oneflow.log_softmax", "oneflow.logical_and",
    "oneflow.logical_not", "oneflow.logical_or", "oneflow.logical_xor", "oneflow.lt", "oneflow.masked_fill",
    "oneflow.matmul", "oneflow.max", "oneflow.maximum", "oneflow.mean", "oneflow.min", "oneflow.minimum",
    "oneflow.mm", "oneflow.narrow", "oneflow.neg", "oneflow.nn.GRU", "oneflow.nn.LSTM", "oneflow.nn.Module",
    "oneflow.nn.ModuleList", "oneflow.nn.Parameter", "oneflow.nn.RNN", "oneflow.nn.functional.adaptive_avg_pool1d",
    "oneflow.nn.functional.adaptive_avg_pool2d", "oneflow.nn.functional.adaptive_avg_pool3d",
    "oneflow.nn.functional.affine_grid", "oneflow.nn.functional.avg_pool1d", "oneflow.nn.functional.avg_pool2d",
    "oneflow.nn.functional.avg_pool3d", "oneflow.nn.functional.celu", "oneflow.nn.functional.conv1d",
    "oneflow.nn.functional.conv2d", "oneflow.nn.functional.conv3d", "oneflow.nn.functional.conv_transpose1d",
    "oneflow.nn.functional.conv_transpose2d", "oneflow.nn.functional.conv_transpose3d",
    "oneflow.nn.functional.dropout", "oneflow.nn.functional.elu", "oneflow.nn.functional.embedding",
    "oneflow.nn.functional.gelu", "oneflow.nn.functional.glu", "oneflow.nn.functional.grid_sample",
    "oneflow.nn.functional.hardshrink", "oneflow.nn.functional.hardsigmoid", "oneflow.nn.functional.hardswish",
    "oneflow.nn.functional.hardtanh", "oneflow.nn.functional.interpolate", "oneflow.nn.functional.layer_norm",
    "oneflow.nn.functional.leaky_relu", "oneflow.nn.functional.linear", "oneflow.nn.functional.log_softmax",
    "oneflow.nn.functional.logsigmoid", "oneflow.nn.functional.max_pool1d", "oneflow.nn.functional.max_pool2d",
    "oneflow.nn.functional.max_pool3d", "oneflow.nn.functional.mish", "oneflow.nn.functional.normalize",
    "oneflow.nn.functional.one_hot", "oneflow.nn.functional.pad", "oneflow.nn.functional.prelu",
    "oneflow.nn.functional.relu", "oneflow.nn.functional.relu6", "oneflow.nn.functional.selu",
    "oneflow.nn.functional.silu", "oneflow.nn.functional.softmax", "oneflow.nn.functional.softplus",
    "oneflow.nn.functional.softshrink", "oneflow.nn.functional.softsign", "oneflow.nn.functional.threshold",
    "oneflow.no_grad", "oneflow.nonzero", "oneflow.ones", "oneflow.ones_like", "oneflow.permute", "oneflow.pow",
    "oneflow.prod", "oneflow.reciprocal", "oneflow.relu", "oneflow.reshape", "oneflow.roll", "oneflow.round",
    "oneflow.rsqrt", "oneflow.save", "oneflow.scatter", "oneflow.scatter_add", "oneflow.selu", "oneflow.sigmoid",
    "oneflow.sign", "oneflow.silu", "oneflow.sin", "oneflow.sinh", "oneflow.softmax", "oneflow.sort", "oneflow.split",
    "oneflow.sqrt", "oneflow.square", "oneflow.squeeze", "oneflow.stack", "oneflow.std", "oneflow.sum", "oneflow.tan",
    "oneflow.tanh", "oneflow.tensor", "oneflow.tile", "oneflow.topk", "oneflow.transpose", "oneflow.tril",
    "oneflow.triu", "oneflow.uint8", "oneflow.unsqueeze", "oneflow.var", "oneflow.where", "oneflow.zeros",
    "oneflow.zeros_like",
  };
  return names;
}

}  // namespace fb::codegen
