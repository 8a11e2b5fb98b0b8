#!/usr/bin/env python3
"""Checks that generated PyTorch code keeps dynamic dims dynamic (shapes computed as Python ints).

usage: check_static_shapes.py --model SRC.onnx --work DIR [--sizes 1,3] [--export OUT.onnx] CODE_DIR

For each size N in --sizes, seeded inputs with every dynamic dim of the declared INPUTS set to N run through the
source in ONNX Runtime and through torch.jit.script of the generated module (weights loaded strict). With --export
the generated module is exported once (torch.onnx.export at size 2, dynamic_axes naming every dynamic input dim)
and the re-export runs in ONNX Runtime at every size. Every output must match the source's (same shape and dtype,
within 1e-4 + 1e-3 * |reference|). Prints one JSON line; exit 1 on any failure.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from verify_generated import ORACLE, check, declared_inputs, make_input  # noqa: E402
from generated_module import load_generated  # noqa: E402
import torch  # noqa: E402


def run_ort(model, inputs, out_dir, n_out=None):
    r = subprocess.run(["node", os.path.join(ORACLE, "run_npy.mjs"), model, out_dir, *inputs],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError("ONNX Runtime on " + model + ": " + r.stderr.strip()[-500:])
    n = len(json.loads(r.stdout.strip().splitlines()[-1])["outputs"])
    return [np.load(os.path.join(out_dir, f"{i}.npy")) for i in range(n)]


def outputs_of(result):
    if not isinstance(result, (tuple, list)):
        result = (result,)
    return [o.detach().numpy() for o in result]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--sizes", default="1,3")
    ap.add_argument("--export", metavar="OUT.onnx")
    ap.add_argument("code_dir")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    declared = declared_inputs(a.code_dir)
    model, _ = load_generated(a.code_dir, 0)
    report = {"ok": True}
    try:
        scripted = torch.jit.script(model)
    except Exception as e:  # the finding: the code cannot be scripted
        print(json.dumps({"ok": False, "error": f"torch.jit.script: {type(e).__name__}: {e}"[-1500:]}))
        return 1

    def inputs_at(size, tag):
        rng = np.random.default_rng(size)
        paths = []
        for i, (_name, dtype, shape) in enumerate(declared):
            dims = [d if isinstance(d, int) and d >= 0 else size for d in (shape or [])]
            path = os.path.join(a.work, f"{tag}_{size}_{i}.npy")
            np.save(path, make_input(dtype, dims, rng))
            paths.append(path)
        return paths

    exported = None
    if a.export:
        example = tuple(torch.from_numpy(np.load(p)) for p in inputs_at(2, "example"))
        names = [n for n, _t, _s in declared]
        axes = {n: {k: f"d{i}_{k}" for k, d in enumerate(s or []) if not (isinstance(d, int) and d >= 0)}
                for i, (n, _t, s) in enumerate(declared)}
        try:
            torch.onnx.export(model, example, a.export, opset_version=13, input_names=names,
                              dynamic_axes={n: ax for n, ax in axes.items() if ax})
            exported = a.export
        except Exception as e:
            report.update(ok=False, error=f"torch.onnx.export: {type(e).__name__}: {e}"[-1500:])
    for size in [int(s) for s in a.sizes.split(",")]:
        paths = inputs_at(size, "input")
        refs = run_ort(a.model, paths, os.path.join(a.work, f"ort_{size}"))
        with torch.no_grad():
            outs = outputs_of(scripted(*[torch.from_numpy(np.load(p)) for p in paths]))
        report[f"script_{size}"] = check(refs, outs)
        report["ok"] = report["ok"] and report[f"script_{size}"]["ok"]
        if exported:
            try:
                report[f"export_{size}"] = check(refs, run_ort(exported, paths, os.path.join(a.work, f"re_{size}")))
            except RuntimeError as e:
                report[f"export_{size}"] = {"ok": False, "error": str(e)}
            report["ok"] = report["ok"] and report[f"export_{size}"]["ok"]
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
