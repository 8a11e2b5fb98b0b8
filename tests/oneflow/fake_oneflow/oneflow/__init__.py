"""A stand-in for the few OneFlow APIs packaging/oneflow_dump.py calls (nn.Module, nn.Graph with _compile,
_full_graph_proto and state_dict, randn), built on PyTorch and the fixture recorder. OneFlow cannot be installed
on the build machines; this lets the test run the dump script's own code (graph wrapping, variable lookup, the
weight folder layout) end to end. It is used by test_oneflow_dump only."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from torch_to_oneflow import record  # noqa: E402

randn = torch.randn


class _Graph:
    def __init__(self):
        self._full_graph_proto = None

    def _compile(self, *inputs):
        modules = [v for v in vars(self).values() if isinstance(v, torch.nn.Module)]
        if len(modules) != 1:
            raise RuntimeError("the stand-in graph supports one module attribute")
        self._block = [k for k, v in vars(self).items() if v is modules[0]][0]
        jb, _ = record(modules[0], inputs, type(self).__name__)
        self._full_graph_proto = jb.job()

    def state_dict(self):  # nn.Graph.state_dict(): {block name: module state_dict}
        return {self._block: getattr(self, self._block).state_dict()}


class nn:  # noqa: N801 (module-like namespace, as oneflow.nn)
    Module = torch.nn.Module
    Graph = _Graph
