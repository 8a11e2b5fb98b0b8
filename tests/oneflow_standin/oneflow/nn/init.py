"""oneflow.nn.init: the initializers present in OneFlow 0.8, 0.9 and 1.0."""
import torch as _torch

for _name in ["uniform_", "normal_", "constant_", "ones_", "zeros_", "xavier_uniform_", "xavier_normal_",
              "kaiming_uniform_", "kaiming_normal_", "trunc_normal_", "orthogonal_", "calculate_gain"]:
    globals()[_name] = getattr(_torch.nn.init, _name)
