#!/usr/bin/env python3
"""Checks generated model code against ONNX Runtime on the source model.

usage: verify_generated.py --model SRC.onnx --work DIR [--seed N] CODE_DIR [CODE_DIR ...]

Makes seeded inputs of the shapes the generated INPUTS declare (dynamic dims get 2), runs the source in ONNX
Runtime (tests/oracle/run_npy.mjs) and each generated model (imported in this process, weights loaded with
load_state_dict(strict=True)) on the same .npy files, and compares every output: same shape and dtype, every
element within 1e-4 + 1e-3 * |reference|. OneFlow folders run against the test-only stand-in package
(tests/oneflow_standin). With --roundtrip the first folder's module is exported again with torch.onnx.export
and run in ONNX Runtime. Prints one JSON line per folder; exit 1 on any difference.
"""
import argparse
import ast
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "oracle")
STANDIN = os.path.join(HERE, "..", "oneflow_standin")
sys.path.insert(0, STANDIN)
import torch  # noqa: E402  (after the stand-in's path: generated OneFlow code imports `oneflow`)
from generated_module import load_generated  # noqa: E402

torch.set_num_threads(2)


def declared_inputs(code_dir):
    # INPUTS is a literal in model.py: read it without importing the model's library.
    with open(os.path.join(code_dir, "model.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "INPUTS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit(f"{code_dir}/model.py declares no INPUTS")


def make_input(dtype, shape, rng):
    dims = [d if isinstance(d, int) and d >= 0 else 2 for d in (shape or [])]
    if dtype == "bool":
        return rng.random(dims) < 0.5
    if dtype.startswith(("int", "uint")):
        return rng.integers(1, 4, size=dims).astype(dtype)  # counts and indices: small positive values
    return (rng.random(dims) * 2 - 1).astype(dtype)


def compare(ref, out):
    if ref.shape != out.shape:
        return False, float("inf"), f"shape {out.shape} instead of {ref.shape}"
    if ref.dtype != out.dtype:
        return False, float("inf"), f"dtype {out.dtype} instead of {ref.dtype}"
    if ref.size == 0:
        return True, 0.0, ""
    r, o = ref.astype(np.float64), out.astype(np.float64)
    both_nan = np.isnan(r) & np.isnan(o)
    err = np.where(both_nan, 0.0, np.abs(r - o))
    err = np.where(np.isnan(err), np.inf, err)
    ok = bool(np.all(err <= 1e-4 + 1e-3 * np.abs(np.nan_to_num(r))))
    return ok, float(err.max()), "" if ok else "values differ"


def run_generated(code, input_paths, index):
    """Imports a generated folder's model.py, loads its weights and runs it on the .npy inputs."""
    model, wrap = load_generated(code, index)
    with torch.no_grad():
        outs = model(*[wrap(np.ascontiguousarray(np.load(p))) for p in input_paths])
    if not isinstance(outs, (tuple, list)):
        outs = (outs,)
    return model, [o.numpy() for o in outs]


def check(refs, outs):
    worst = 0.0
    for i, ref in enumerate(refs):
        if i >= len(outs):
            return {"ok": False, "error": f"output {i} missing"}
        ok, err, why = compare(ref, outs[i])
        worst = max(worst, err)
        if not ok:
            return {"ok": False, "max_abs_err": worst, "error": f"output {i}: {why} (max abs err {err:.3g})"}
    return {"ok": True, "max_abs_err": worst}


def roundtrip(model, input_paths, source, out, refs, work):
    """torch.onnx.export of the generated module, run in ONNX Runtime on the same inputs."""
    args = tuple(torch.from_numpy(np.load(p)) for p in input_paths)
    torch.onnx.export(model, args, out, opset_version=13, do_constant_folding=False)
    out_dir = os.path.join(work, "roundtrip")
    r = subprocess.run(["node", os.path.join(ORACLE, "run_npy.mjs"), out, out_dir, *input_paths],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return {"ok": False, "error": "ONNX Runtime on the exported model: " + r.stderr.strip()[-500:]}
    outs = [np.load(os.path.join(out_dir, f"{i}.npy")) for i in range(len(refs))]
    return check(refs, outs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--roundtrip", metavar="OUT.onnx",
                    help="also export the first (PyTorch) folder's module with torch.onnx.export and compare that in ONNX Runtime")
    ap.add_argument("code_dirs", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    inputs = []
    for i, (_name, dtype, shape) in enumerate(declared_inputs(args.code_dirs[0])):
        path = os.path.join(args.work, f"input_{i}.npy")
        np.save(path, make_input(dtype, shape, rng))
        inputs.append(path)
    ref_dir = os.path.join(args.work, "ort")
    r = subprocess.run(["node", os.path.join(ORACLE, "run_npy.mjs"), args.model, ref_dir, *inputs],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        print(json.dumps({"model": args.model, "ok": False, "error": "ONNX Runtime: " + r.stderr.strip()[-500:]}))
        return 1
    n_out = len(json.loads(r.stdout.strip().splitlines()[-1])["outputs"])
    refs = [np.load(os.path.join(ref_dir, f"{i}.npy")) for i in range(n_out)]
    failed = False
    for k, code in enumerate(args.code_dirs):
        result = {"code": code, "ok": True, "max_abs_err": 0.0}
        try:
            model, outs = run_generated(code, inputs, k)
        except Exception as e:  # the generated code failed: that is the finding
            result.update(ok=False, error=f"{type(e).__name__}: {e}"[-1500:])
            outs = None
        if outs is not None:
            result.update(check(refs, outs))
            if result["ok"] and args.roundtrip and k == 0:
                result["roundtrip"] = roundtrip(model, inputs, args.model, args.roundtrip, refs, args.work)
                result["ok"] = result["roundtrip"]["ok"]
        failed = failed or not result["ok"]
        print(json.dumps(result))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
