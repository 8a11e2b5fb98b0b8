"""A torch-exported model with a data-dependent loop for test_eval_control_flow: a scripted module whose while
loop runs `steps` times and halves its running total whenever the total's sum passes a bound (an If inside the
Loop, reading the loop body's and the main graph's values). Writes OUT/loop.onnx and the inputs OUT/x.npy and
OUT/steps.npy.

usage: /usr/bin/python3 make_torch_control_flow.py OUT
"""
import os
import sys

import numpy as np
import torch


class RunningTotal(torch.nn.Module):
    def forward(self, x, steps):
        total = torch.zeros_like(x)
        i = 0
        while i < int(steps):
            total = total + x
            if bool(total.sum() > 4.0):
                total = total * 0.5
            i += 1
        return total


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(7)
    x = torch.rand(2, 3)
    steps = torch.tensor(6)
    torch.onnx.export(torch.jit.script(RunningTotal()), (x, steps), os.path.join(out, "loop.onnx"),
                      input_names=["x", "steps"], output_names=["y"], opset_version=13)
    np.save(os.path.join(out, "x.npy"), x.numpy())
    np.save(os.path.join(out, "steps.npy"), steps.numpy())


if __name__ == "__main__":
    main()
