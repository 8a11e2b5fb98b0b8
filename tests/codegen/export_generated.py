#!/usr/bin/env python3
"""Exports a generated PyTorch model back to ONNX with torch.onnx.export (the round trip of the tests).

usage: export_generated.py CODE_DIR OUT.onnx

The module is traced on inputs of the declared shapes (dynamic dims get 2 and stay dynamic axes), so it
suits models without data-dependent control flow.
"""
import ast
import importlib.util
import os
import sys

import numpy as np
import torch


def main():
    code, out = sys.argv[1], sys.argv[2]
    spec = importlib.util.spec_from_file_location("generated_model", os.path.join(code, "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls = [v for k, v in vars(module).items() if isinstance(v, type) and issubclass(v, torch.nn.Module)][0]
    model = cls()
    model.load_state_dict(torch.load(os.path.join(code, "weights.pt")), strict=True)
    model.eval()
    rng = np.random.default_rng(0)
    args, names, dynamic = [], [], {}
    for name, dtype, shape in module.INPUTS:
        dims = [d if isinstance(d, int) else 2 for d in (shape or [])]
        if dtype.startswith(("int", "uint")):
            args.append(torch.from_numpy(rng.integers(1, 4, size=dims).astype(dtype)))
        else:
            args.append(torch.from_numpy((rng.random(dims) * 2 - 1).astype(dtype)))
        names.append(name)
        axes = {i: str(d) for i, d in enumerate(shape or []) if not isinstance(d, int)}
        if axes:
            dynamic[name] = axes
    torch.onnx.export(model, tuple(args), out, input_names=names, output_names=list(module.OUTPUTS),
                      dynamic_axes=dynamic or None, opset_version=13, do_constant_folding=False)


if __name__ == "__main__":
    main()
