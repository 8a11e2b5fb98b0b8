"""oneflow.nn on torch.nn: modules with OneFlow's constructor signatures (same state-dict keys as PyTorch)."""
import torch as _torch

Module = _torch.nn.Module
ModuleList = _torch.nn.ModuleList
ModuleDict = _torch.nn.ModuleDict
Sequential = _torch.nn.Sequential
ParameterList = _torch.nn.ParameterList
ParameterDict = _torch.nn.ParameterDict


class Parameter(_torch.nn.Parameter):
    """oneflow.nn.Parameter: what format B/C pickles name for weights."""


Parameter.__module__ = "oneflow.nn"

# Modules whose constructors already match OneFlow's.
for _name in ["Identity", "ReLU", "ReLU6", "Sigmoid", "Tanh", "SiLU", "Mish", "SELU", "CELU", "ELU", "GELU", "GLU",
              "LeakyReLU", "Hardsigmoid", "Hardswish", "Hardtanh", "Hardshrink", "Softplus", "Softshrink",
              "Softsign", "LogSigmoid", "Softmax", "LogSoftmax", "Threshold", "Dropout", "Flatten", "Embedding",
              "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool3d", "AdaptiveAvgPool1d",
              "AdaptiveAvgPool3d", "Linear", "GroupNorm", "PReLU", "LSTM", "GRU", "RNN", "LSTMCell", "GRUCell",
              "RNNCell", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad2d",
              "ReplicationPad2d", "CosineSimilarity", "Fold", "Unfold", "Conv1d", "Conv3d", "BatchNorm1d",
              "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "UpsamplingNearest2d",
              "UpsamplingBilinear2d", "L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
              "BCEWithLogitsLoss", "SmoothL1Loss", "KLDivLoss"]:
    globals()[_name] = getattr(_torch.nn, _name)


class Conv2d(_torch.nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        assert padding_mode == "zeros", "OneFlow's Conv2d supports padding_mode='zeros' only"
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)


class ConvTranspose2d(_torch.nn.ConvTranspose2d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros"):
        assert padding_mode == "zeros", "OneFlow's ConvTranspose2d supports padding_mode='zeros' only"
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                         dilation, padding_mode)


ConvTranspose1d = _torch.nn.ConvTranspose1d
ConvTranspose3d = _torch.nn.ConvTranspose3d


class AvgPool2d(_torch.nn.AvgPool2d):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=0):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override or None)


class AdaptiveAvgPool2d(_torch.nn.AdaptiveAvgPool2d):
    def __init__(self, output_size, data_format=None):
        super().__init__(output_size)


class BatchNorm2d(_torch.nn.BatchNorm2d):
    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats)


class LayerNorm(_torch.nn.LayerNorm):
    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True):
        super().__init__(normalized_shape, eps, elementwise_affine)


class Upsample(_torch.nn.Upsample):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None):
        super().__init__(size, scale_factor, mode, align_corners)


class PixelShuffle(_torch.nn.Module):
    """OneFlow's PixelShufflev2: separate height and width factors."""

    def __init__(self, upscale_factor=None, h_upscale_factor=None, w_upscale_factor=None):
        super().__init__()
        if upscale_factor is not None:
            h_upscale_factor = w_upscale_factor = upscale_factor
        assert h_upscale_factor and w_upscale_factor, "an upscale factor is required"
        self.h, self.w = h_upscale_factor, w_upscale_factor

    def forward(self, x):
        n, c, hh, ww = x.shape
        oc = c // (self.h * self.w)
        x = x.reshape(n, oc, self.h, self.w, hh, ww).permute(0, 1, 4, 2, 5, 3)
        return x.reshape(n, oc, hh * self.h, ww * self.w)


from . import functional, init  # noqa: E402,F401  (functional refers to Upsample)
