"""Torch-exported models with data-dependent loops for test_eval_control_flow, on the inputs OUT/x.npy and
OUT/steps.npy:
- OUT/loop.onnx: a while loop that runs `steps` times and halves its running total whenever the total's sum
  passes a bound (an If inside the Loop, reading the loop body's and the main graph's values);
- OUT/sequence.onnx: a for loop appending to a list (a sequence carried through the Loop, SequenceInsert), then
  the list stacked and concatenated (ConcatFromSequence with and without a new axis).

usage: /usr/bin/python3 make_torch_control_flow.py OUT
"""
import os
import sys

from typing import List

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


class ListOfSteps(torch.nn.Module):
    def forward(self, x, steps):
        rows: List[torch.Tensor] = []
        acc = x
        for _ in range(int(steps)):
            acc = torch.relu(acc * 1.5 - 0.25)
            rows.append(acc)
        return torch.stack(rows, 0), torch.cat(rows, 1)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(7)
    x = torch.rand(2, 3)
    steps = torch.tensor(6)
    torch.onnx.export(torch.jit.script(RunningTotal()), (x, steps), os.path.join(out, "loop.onnx"),
                      input_names=["x", "steps"], output_names=["y"], opset_version=13)
    torch.onnx.export(torch.jit.script(ListOfSteps()), (x, steps), os.path.join(out, "sequence.onnx"),
                      input_names=["x", "steps"], output_names=["stacked", "joined"], opset_version=13)
    np.save(os.path.join(out, "x.npy"), x.numpy())
    np.save(os.path.join(out, "steps.npy"), steps.numpy())


if __name__ == "__main__":
    main()
