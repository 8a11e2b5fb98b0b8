"""oneflow.nn.functional with OneFlow's signatures (first parameters named `x` where OneFlow names them so,
keyword-only parameters, required slopes), on torch.nn.functional."""
import torch as _torch
import torch.nn.functional as _F

import oneflow as _flow

from . import Upsample as upsample  # OneFlow binds F.upsample to the Upsample class


def _ints(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, channel_pos="channels_first"):
    return _F.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, channel_pos="channels_first"):
    if isinstance(padding, str):
        raise TypeError("conv2d(): padding must be a list of ints, not str")
    return _F.conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, channel_pos="channels_first"):
    return _F.conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     data_format="channels_first"):
    return _F.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     data_format="channels_first"):
    return _F.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     data_format="channels_first"):
    return _F.conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def _max_pool(torch_fn):
    def f(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False,
          data_format="channels_first"):
        return torch_fn(x, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, return_indices=return_indices)
    return f


max_pool1d, max_pool2d, max_pool3d = _max_pool(_F.max_pool1d), _max_pool(_F.max_pool2d), _max_pool(_F.max_pool3d)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               data_format="channels_first"):
    return _F.avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad)


def _divisor(v):
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError("avg_pool(): divisor_override must be Int32 (0 for none), not %s" % type(v).__name__)
    return v or None


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0, data_format="channels_first"):
    return _F.avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, _divisor(divisor_override))


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0, data_format="channels_first"):
    return _F.avg_pool3d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, _divisor(divisor_override))


def adaptive_avg_pool1d(x, output_size, data_format="channels_first"):
    return _F.adaptive_avg_pool1d(x, output_size)


def adaptive_avg_pool2d(x, output_size, data_format="channels_first"):
    return _F.adaptive_avg_pool2d(x, output_size)


def adaptive_avg_pool3d(x, output_size, data_format="channels_first"):
    return _F.adaptive_avg_pool3d(x, output_size)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    return _F.layer_norm(input, normalized_shape, weight, bias, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12, use_l2_norm_kernel=True):
    return _F.normalize(input, p, dim, eps)


def relu(x, inplace=False):
    return _F.relu(x, inplace)


def leaky_relu(x, alpha, inplace=False):
    return _F.leaky_relu(x, alpha, inplace)


def elu(x, alpha):
    return _F.elu(x, alpha)


def celu(x, *, alpha=1.0, inplace=False):
    return _F.celu(x, alpha, inplace)


def selu(x):
    return _F.selu(x)


def gelu(x, approximate="none"):
    return _F.gelu(x, approximate=approximate)


def hardsigmoid(input, inplace=False):
    return _F.hardsigmoid(input, inplace)


def hardswish(x):
    return _F.hardswish(x)


def hardtanh(x, min_val, max_val):
    return _F.hardtanh(x, min_val, max_val)


def hardshrink(x, *, lambd=0.5, inplace=False):
    return _F.hardshrink(x, lambd)


softplus = _flow.softplus
softshrink = _flow.softshrink
threshold = _flow.threshold


def softsign(x):
    return _F.softsign(x)


def mish(x):
    return _F.mish(x)


def silu(x):
    return _F.silu(x)


def sigmoid(x):
    return _torch.sigmoid(x)


def tanh(x):
    return _torch.tanh(x)


def prelu(x, alpha):
    return _F.prelu(x, alpha)


def softmax(input, dim=None, dtype=None):
    out = _flow.softmax(input if dtype is None else input.to(dtype), dim)
    return out


def log_softmax(x, dim=None):
    return _flow.log_softmax(x, dim)


def logsigmoid(x):
    return _F.logsigmoid(x)


def glu(input, dim=-1):
    return _F.glu(input, dim)


def relu6(input, inplace=False):
    return _F.relu6(input, inplace)


def linear(input, weight, bias=None):
    return _F.linear(input, weight, bias)


def pad(input, pad, mode="constant", value=0.0):
    pad = list(pad)
    if mode in ("reflect", "replicate"):
        if not ((len(pad) == 2 and input.dim() in (2, 3)) or (len(pad) == 4 and input.dim() in (3, 4))):
            raise NotImplementedError("%s padding of %d values on a %d-D input" % (mode, len(pad), input.dim()))
        return _F.pad(input, pad, mode)
    if mode != "constant":
        raise NotImplementedError("pad mode %s" % mode)
    return _F.pad(input, pad, mode, value)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    if mode not in ("nearest", "linear", "bilinear", "area", "bicubic", "trilinear"):
        raise NotImplementedError("interpolate mode %s" % mode)
    if align_corners is not None and mode in ("nearest", "area"):
        raise ValueError("align_corners option can only be set with the interpolating modes")
    return _F.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    return _F.grid_sample(input, grid, mode, padding_mode, align_corners)


def affine_grid(theta, size, align_corners=False):
    return _F.affine_grid(theta, list(size), align_corners)


def one_hot(input, num_classes=-1, on_value=1, off_value=0):
    hot = _F.one_hot(input, num_classes)
    if on_value == 1 and off_value == 0:
        return hot
    return hot * (on_value - off_value) + off_value


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    return _F.embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse)


def dropout(input, p=0.5, training=True, inplace=False, generator=None, *, addend=None):
    out = _F.dropout(input, p, training, inplace)
    return out if addend is None else out + addend


def cosine_similarity(x, y, dim=1, eps=1e-8):
    return _F.cosine_similarity(x, y, dim, eps)
