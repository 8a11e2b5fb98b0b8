#!/usr/bin/env python3
"""Exports a small PyTorch model whose GELU, LayerNorm and hardswish torch.onnx.export decomposes at opset 13
(Div/Erf/Add/Mul/Mul; ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div/Mul/Add; HardSigmoid/Mul), with GELU's tanh
approximation (Mul/Mul/Mul/Add/Mul/Tanh/Add/Mul/Mul) and hardswish written out (Add/Clip/Mul/Div), for
test_codegen_blocks.

usage: export_blocks.py OUT.onnx
"""
import sys

import torch
import torch.nn as nn


class Blocks(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.norm = nn.LayerNorm(32, eps=1e-6)
        self.fc2 = nn.Linear(32, 8)

    def forward(self, x):
        x = nn.functional.gelu(self.fc1(x))
        x = nn.functional.hardswish(self.norm(x))
        x = nn.functional.gelu(x, approximate="tanh")
        x = x * torch.clamp(x + 3, 0, 6) / 6
        return self.fc2(x)


torch.manual_seed(0)
model = Blocks().eval()
with torch.no_grad():
    nn.init.normal_(model.norm.weight)
    nn.init.normal_(model.norm.bias)
torch.onnx.export(model, torch.randn(2, 5, 16), sys.argv[1], opset_version=13, input_names=["input"],
                  output_names=["output"])
