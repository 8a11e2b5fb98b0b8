"""A test-only stand-in for OneFlow (0.8 / 0.9 / 1.0) on PyTorch: OneFlow's names and signatures, torch's kernels.

Only names that exist in all of OneFlow 0.8.0, 0.9.0 and 1.0.0 are defined (docs: oneflow-api-versions.tsv), with
OneFlow's parameter names, order, defaults and keyword-only markers (docs: oneflow-python-api.md), so that code
written against PyTorch's signatures fails here where it would fail under OneFlow. See ../README.md.
"""
import builtins as _builtins
import numbers as _numbers

import numpy as _np
import torch as _torch

from . import _oneflow_internal
from ._checkpoint import load, save

__version__ = "1.0.0+standin"

# ---- dtypes (torch's objects, so they can be handed to torch) -------------------------------------------------
dtype = _torch.dtype
float32 = float = _torch.float32
float64 = double = _torch.float64
float16 = half = _torch.float16
bfloat16 = _torch.bfloat16
int8 = _torch.int8
int32 = int = _torch.int32
int64 = long = _torch.int64
uint8 = _torch.uint8
bool = _torch.bool

device = _torch.device
Size = _torch.Size
Generator = _torch.Generator
no_grad = _torch.no_grad
enable_grad = _torch.enable_grad
inference_mode = _torch.inference_mode
set_grad_enabled = _torch.set_grad_enabled
is_grad_enabled = _torch.is_grad_enabled
manual_seed = _torch.manual_seed
seed = _torch.seed
initial_seed = _torch.initial_seed
is_tensor = _torch.is_tensor
is_floating_point = _torch.is_floating_point
numel = _torch.numel
from_numpy = _torch.from_numpy


class _AnyTensorMeta(type(_torch.Tensor)):
    def __instancecheck__(cls, obj):
        return isinstance(obj, _torch.Tensor)


class Tensor(_torch.Tensor, metaclass=_AnyTensorMeta):
    """oneflow.Tensor: every torch tensor is one (isinstance), and it is what format C pickles name."""


Tensor.__module__ = "oneflow"


def _scalar(name, v):
    if isinstance(v, _torch.Tensor):
        raise TypeError("%s(): argument '%s' must be a Python scalar, not Tensor" % (_caller(), name))
    return v


def _caller():
    import inspect
    return inspect.stack()[2].function


def _int_list(v):
    return [v] if isinstance(v, _numbers.Integral) else list(v)


def _shape(size):
    """Shape parameters: varargs are packed (randn(2, 3)), a single list/Size is taken as is."""
    if len(size) == 1 and isinstance(size[0], (list, tuple, _torch.Size)):
        return tuple(size[0])
    return tuple(size)


# ---- creation ---------------------------------------------------------------------------------------------------
def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    return _torch.tensor(data, dtype=dtype, device=device, requires_grad=requires_grad)


def as_tensor(data, dtype=None, device=None):
    return _torch.as_tensor(data, dtype=dtype, device=device)


def zeros(*size, dtype=None, device=None, placement=None, sbp=None, requires_grad=False):
    return _torch.zeros(_shape(size), dtype=dtype, device=device, requires_grad=requires_grad)


def ones(*size, dtype=None, device=None, placement=None, sbp=None, requires_grad=False):
    return _torch.ones(_shape(size), dtype=dtype, device=device, requires_grad=requires_grad)


def empty(*size, dtype=None, device=None, placement=None, sbp=None, requires_grad=False, pin_memory=False):
    return _torch.empty(_shape(size), dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, device=None, placement=None, sbp=None, requires_grad=False):
    return _torch.full(tuple(_int_list(size)), fill_value, dtype=dtype, device=device, requires_grad=requires_grad)


def zeros_like(input, dtype=None, device=None, placement=None, sbp=None, requires_grad=False):
    return _torch.zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def ones_like(input, dtype=None, device=None, placement=None, sbp=None, requires_grad=False):
    return _torch.ones_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def arange(start=None, end=None, step=1, dtype=None, device=None, placement=None, sbp=None, requires_grad=False):
    if isinstance(step, _torch.Tensor):
        raise TypeError("arange(): step must be a Python number")
    start = start.item() if isinstance(start, _torch.Tensor) else start
    end = end.item() if isinstance(end, _torch.Tensor) else end
    if end is None:
        start, end = 0, start
    return _torch.arange(start, end, step, dtype=dtype, device=device, requires_grad=requires_grad)


def eye(n, m=None, *, dtype=float32, device=None, requires_grad=False):
    return _torch.eye(n, n if m is None else m, dtype=dtype, device=device, requires_grad=requires_grad)


def linspace(start, end, steps, dtype=float32, device=None, placement=None, sbp=None, requires_grad=False):
    return _torch.linspace(start, end, steps, dtype=dtype, device=device, requires_grad=requires_grad)


def rand(*size, dtype=None, device=None, generator=None, requires_grad=False):
    return _torch.rand(_shape(size), dtype=dtype, device=device, generator=generator, requires_grad=requires_grad)


def randn(*size, dtype=None, device=None, generator=None, requires_grad=False):
    return _torch.randn(_shape(size), dtype=dtype, device=device, generator=generator, requires_grad=requires_grad)


def bernoulli(input, p=None, *, dtype=float32, generator=None, inplace=False):
    probs = input if p is None else _torch.full_like(input, p)
    return _torch.bernoulli(probs, generator=generator).to(dtype)


# ---- elementwise ------------------------------------------------------------------------------------------------
def _unary(torch_fn, name, first="x"):
    if first == "x":
        def f(x):
            return torch_fn(x)
    else:
        def f(input):
            return torch_fn(input)
    f.__name__ = f.__qualname__ = name
    return f


for _name in ["sigmoid", "tanh", "erf", "sqrt", "rsqrt", "exp", "log", "abs", "reciprocal", "floor", "ceil",
              "round", "sign", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
              "atanh", "erfinv", "erfc", "expm1", "log1p", "log2", "square", "relu", "selu", "silu", "mish",
              "softsign"]:
    globals()[_name] = _unary({"mish": _torch.nn.functional.mish, "softsign": _torch.nn.functional.softsign,
                               "silu": _torch.nn.functional.silu}.get(_name, getattr(_torch, _name, None)), _name)
neg = negative = _unary(_torch.neg, "neg")
isnan = _unary(_torch.isnan, "isnan", "input")
isinf = _unary(_torch.isinf, "isinf", "input")
logical_not = _unary(_torch.logical_not, "logical_not", "input")
arccos, arccosh, arcsin, arcsinh, arctan, arctanh = acos, acosh, asin, asinh, atan, atanh


def _binary(torch_fn, name):
    def f(input, other):
        return torch_fn(input, other)
    f.__name__ = f.__qualname__ = name
    return f


for _name, _fn in [("maximum", _torch.maximum), ("minimum", _torch.minimum), ("fmod", _torch.fmod),
                   ("floor_divide", _torch.floor_divide), ("atan2", _torch.atan2), ("logical_and", _torch.logical_and),
                   ("logical_or", _torch.logical_or), ("logical_xor", _torch.logical_xor), ("eq", _torch.eq),
                   ("ne", _torch.ne), ("gt", _torch.gt), ("ge", _torch.ge), ("lt", _torch.lt), ("le", _torch.le),
                   ("mm", None), ("dot", _torch.dot)]:
    if _fn is not None:
        globals()[_name] = _binary(_fn, _name)
not_equal, greater, greater_equal = ne, gt, ge


def mm(input, mat2):
    return _torch.mm(input, mat2)


def equal(input, other):
    """A Python bool: whole-tensor equality (the elementwise comparison is oneflow.eq)."""
    return _builtins.bool(_torch.equal(input, other))


def add(input, other=None, *, alpha=1, inplace=False):
    if other is None and isinstance(input, (list, tuple)):
        return _builtins.sum(input[1:], input[0])
    return _torch.add(input, other, alpha=alpha)


def sub(input, other, *, alpha=1, inplace=False):
    return _torch.sub(input, other, alpha=alpha)


def mul(input, other):
    return _torch.mul(input, other)


def div(input, other, *, rounding_mode=None):
    return _torch.div(input, other, rounding_mode=rounding_mode)


def pow(input, exponent):
    return _torch.pow(input, exponent)


def clamp(input, min=None, max=None):
    return _torch.clamp(input, _scalar("min", min), _scalar("max", max))


def clip(input, min=None, max=None):
    return _torch.clip(input, _scalar("min", min), _scalar("max", max))


def cast(x, dtype, pin_memory=False):
    return x.to(dtype)


def where(condition, x=None, y=None):
    if x is None and y is None:
        return _torch.where(condition)
    return _torch.where(condition, _torch.as_tensor(x) if not isinstance(x, _torch.Tensor) else x,
                        _torch.as_tensor(y) if not isinstance(y, _torch.Tensor) else y)


def masked_fill(input, mask, value):
    return input.masked_fill(mask, _scalar("value", value))


def softmax(x, dim=None):
    return _torch.softmax(x, dim if dim is not None else (0 if x.dim() in (0, 1, 3) else 1))


def log_softmax(x, dim=None):
    return _torch.log_softmax(x, dim if dim is not None else (0 if x.dim() in (0, 1, 3) else 1))


def softplus(x, beta=1.0, threshold=20.0):
    return _torch.nn.functional.softplus(x, beta, threshold)


def softshrink(x, *, alpha=0.5, inplace=False):
    return _torch.nn.functional.softshrink(x, alpha)


def threshold(x, *, threshold, value):
    return _torch.nn.functional.threshold(x, threshold, value)


def gelu(x, approximate="none"):
    return _torch.nn.functional.gelu(x, approximate=approximate)


# ---- linear algebra -----------------------------------------------------------------------------------------------
def matmul(input, other, transpose_a=False, transpose_b=False, alpha=1.0):
    a = input.transpose(-2, -1) if transpose_a else input
    b = other.transpose(-2, -1) if transpose_b else other
    out = _torch.matmul(a, b)
    return out if alpha == 1.0 else out * alpha


def bmm(a, b, transpose_a=False, transpose_b=False, alpha=1.0):
    return matmul(a, b, transpose_a, transpose_b, alpha)


def addmm(input, mat1, mat2, alpha=1, beta=1):
    return _torch.addmm(input, mat1, mat2, beta=beta, alpha=alpha)


def einsum(equation, *operands):
    return _torch.einsum(equation, *operands)


def tensordot(a, b, dims=2, out=None):
    return _torch.tensordot(a, b, dims)


def mv(input, vec):
    return _torch.mv(input, vec)


# ---- shape ----------------------------------------------------------------------------------------------------
def reshape(input, shape=None):
    return _torch.reshape(input, tuple(shape))


def view(input, shape=None):
    return input.view(tuple(shape))


def flatten(x, start_dim=0, end_dim=-1):
    return _torch.flatten(x, start_dim, end_dim)


def permute(input, dims):
    return input.permute(*_int_list(dims))


def transpose(input, dim0, dim1=None):
    if dim1 is None:  # the (input, perm) overload
        return input.permute(*_int_list(dim0))
    return _torch.transpose(input, dim0, dim1)


swapaxes = swapdims = transpose


def t(input):
    return _torch.t(input)


def squeeze(x, dim=None):
    if dim is None:
        return _torch.squeeze(x)
    for d in sorted((d % x.dim() for d in _int_list(dim)), reverse=True):
        x = _torch.squeeze(x, d)
    return x


def unsqueeze(input, dim):
    return _torch.unsqueeze(input, dim)


def cat(inputs, dim=0):
    return _torch.cat(inputs, dim)


concat = cat


def stack(inputs, dim=0):
    return _torch.stack(inputs, dim)


def split(x, split_size_or_sections, dim=0):
    return _torch.split(x, split_size_or_sections, dim)


def chunk(x, chunks, dim=0):
    return _torch.chunk(x, chunks, dim)


def unbind(x, dim=0):
    return _torch.unbind(x, dim)


def tile(input, dims):
    return _torch.tile(input, tuple(_int_list(dims)))


def repeat(input, repeat_shape):
    return input.repeat(*_int_list(repeat_shape))


def broadcast_like(x, like, broadcast_axes=None):
    """x broadcast to like's shape; broadcast_axes name the dims of `like` that x lacks (when x has fewer)."""
    if broadcast_axes and x.dim() < like.dim():
        for axis in sorted(a % like.dim() for a in broadcast_axes):
            x = x.unsqueeze(axis)
    return _torch.broadcast_to(x, like.shape)


def expand(input, *sizes):
    return input.expand(*_shape(sizes))


def narrow(input, dim, start, length):
    return _torch.narrow(input, dim, start, length)


def slice(input, slice_tup_list):
    index = tuple(_builtins.slice(s, e, st) for s, e, st in slice_tup_list)
    return input[index]


def select(input, dim, index):
    return _torch.select(input, dim, index)


def index_select(input, dim, index):
    return _torch.index_select(input, dim, index)


def gather(input, dim, index, sparse_grad=False):
    return _torch.gather(input, dim, index)


def gather_nd(params, indices):
    idx = tuple(indices[..., i] for i in range(indices.shape[-1]))
    return params[idx]


def scatter(input, dim, index, src, *, reduce=None):
    if reduce is None:
        return _torch.scatter(input, dim, index, src)
    return _torch.scatter(input, dim, index, src, reduce=reduce)


def scatter_add(input, dim, index, src):
    return _torch.scatter_add(input, dim, index, src)


def tensor_scatter_nd_update(tensor, indices, updates):
    out = tensor.clone()
    out[tuple(indices[..., i] for i in range(indices.shape[-1]))] = updates
    return out


def scatter_nd(index, update, shape):
    return tensor_scatter_nd_update(_torch.zeros(tuple(shape), dtype=update.dtype), index, update)


def pad(x, pad, mode="constant", value=0):
    if mode not in ("constant", "reflect", "replicate"):
        raise NotImplementedError("pad mode %s" % mode)
    return _torch.nn.functional.pad(x, list(pad), mode=mode, value=value) if mode == "constant" else \
        _torch.nn.functional.pad(x, list(pad), mode=mode)


def cumsum(input, dim, *, dtype=None):
    return _torch.cumsum(input, dim, dtype=dtype)


def cumprod(input, dim, *, dtype=None):
    return _torch.cumprod(input, dim, dtype=dtype)


def flip(x, dims):
    return _torch.flip(x, _int_list(dims))


def roll(input, shifts, dims=None):
    return _torch.roll(input, shifts, dims)


def movedim(input, source, destination):
    return _torch.movedim(input, source, destination)


def diagonal(x, offset=0, dim1=0, dim2=1):
    return _torch.diagonal(x, offset, dim1, dim2)


def diag(input, diagonal=0):
    return _torch.diag(input, diagonal)


def tril(x, diagonal=0):
    return _torch.tril(x, diagonal)


def triu(x, diagonal=0):
    return _torch.triu(x, diagonal)


def repeat_interleave(input, repeats, dim=None, output_size=None):
    if isinstance(repeats, _torch.Tensor) and dim is None:
        raise TypeError("repeat_interleave(): the Tensor-repeats overload requires dim")
    return _torch.repeat_interleave(input, repeats, dim)


def meshgrid(*tensors, indexing="ij"):
    return _torch.meshgrid(*tensors, indexing=indexing)


def masked_select(input, mask):
    return _torch.masked_select(input, mask)


def nonzero(input, as_tuple=False):
    return _torch.nonzero(input, as_tuple=as_tuple)


def argwhere(input, dtype=int32):
    return _torch.argwhere(input).to(dtype)


def searchsorted(sorted_sequence, values, out_int32=False, right=False):
    return _torch.searchsorted(sorted_sequence, values, out_int32=out_int32, right=right)


# ---- reductions -----------------------------------------------------------------------------------------------
def sum(x, dim=None, keepdim=False, *, dtype=None):
    return _torch.sum(x, dtype=dtype) if dim is None else _torch.sum(x, _int_list(dim), keepdim, dtype=dtype)


def mean(x, dim=None, keepdim=False):
    return _torch.mean(x) if dim is None else _torch.mean(x, _int_list(dim), keepdim)


def prod(x, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return _torch.prod(x, dtype=dtype)
    for d in sorted((d % x.dim() for d in _int_list(dim)), reverse=True):
        x = _torch.prod(x, d, keepdim, dtype=dtype)
    return x


def _max_min(torch_reduce, torch_binary):
    def f(input, dim=None, keepdim=False):
        if dim is None:
            return torch_reduce(input)
        if isinstance(dim, _torch.Tensor):  # the (input, other) overload
            return torch_binary(input, dim)
        return torch_reduce(input, dim, keepdim)
    return f


max = _max_min(_torch.max, _torch.maximum)
min = _max_min(_torch.min, _torch.minimum)


def amax(input, dim=None, keepdim=False):
    return _torch.amax(input, () if dim is None else _int_list(dim), keepdim)


def amin(input, dim=None, keepdim=False):
    return _torch.amin(input, () if dim is None else _int_list(dim), keepdim)


def argmax(x, dim=None, keepdim=None, dtype=None):
    out = _torch.argmax(x, dim, _builtins.bool(keepdim))
    return out if dtype is None else out.to(dtype)


def argmin(x, dim=None, keepdim=None, dtype=None):
    out = _torch.argmin(x, dim, _builtins.bool(keepdim))
    return out if dtype is None else out.to(dtype)


def std(x, dim=None, unbiased=None, keepdim=None):
    unbiased = True if unbiased is None else unbiased
    return _torch.std(x, unbiased=unbiased) if dim is None else \
        _torch.std(x, _int_list(dim), unbiased=unbiased, keepdim=_builtins.bool(keepdim))


def var(x, dim=None, unbiased=None, keepdim=None):
    unbiased = True if unbiased is None else unbiased
    return _torch.var(x, unbiased=unbiased) if dim is None else \
        _torch.var(x, _int_list(dim), unbiased=unbiased, keepdim=_builtins.bool(keepdim))


def all(x, dim=None, keepdim=False):
    if dim is None:
        return _torch.all(x)
    for d in sorted((d % x.dim() for d in _int_list(dim)), reverse=True):
        x = _torch.all(x, d, keepdim)
    return x


def any(x, dim=None, keepdim=False):
    if dim is None:
        return _torch.any(x)
    for d in sorted((d % x.dim() for d in _int_list(dim)), reverse=True):
        x = _torch.any(x, d, keepdim)
    return x


def topk(input, k, dim=None, largest=True, sorted=True):
    return _torch.topk(input, k, -1 if dim is None else dim, largest, sorted)


def sort(input, dim=-1, descending=False):
    return _torch.sort(input, dim, descending)


def argsort(input, dim=-1, descending=False):
    return _torch.argsort(input, dim, descending)


# ---- vision ops ---------------------------------------------------------------------------------------------------
def nms(boxes, scores, iou_threshold):
    import torchvision
    return torchvision.ops.nms(boxes, scores, iou_threshold)


def roi_align(x, rois, spatial_scale, pooled_h, pooled_w, sampling_ratio, aligned):
    import torchvision
    return torchvision.ops.roi_align(x, rois, (pooled_h, pooled_w), spatial_scale, sampling_ratio, aligned)


from . import linalg, nn  # noqa: E402  (nn refers back to this module)

# OneFlow's argument checking for the release ONEFLOW_STANDIN_VERSION (default 0.8), from the generator's table.
from . import _signatures  # noqa: E402

__version__ = _signatures.RELEASE + ".0+standin"
_signatures.install(globals(), "oneflow")
_signatures.install(nn.functional.__dict__, "oneflow.nn.functional")
_signatures.install_tensor_methods(_torch.Tensor)
