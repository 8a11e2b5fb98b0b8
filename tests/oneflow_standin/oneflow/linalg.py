"""oneflow.linalg: the norms present in OneFlow 0.8, 0.9 and 1.0."""
import torch as _torch


def vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None):
    return _torch.linalg.vector_norm(input, ord, dim, keepdim, dtype=dtype)


def matrix_norm(input, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    return _torch.linalg.matrix_norm(input, ord, dim, keepdim, dtype=dtype)


def norm(input, ord=None, dim=None, keepdim=False, *, dtype=None):
    return _torch.linalg.norm(input, ord, dim, keepdim, dtype=dtype)
