"""Single-op fixtures: one OneFlow user op per graph, with its reference output from PyTorch."""


def fixtures():
    return []
