#!/usr/bin/env python3
"""Checks generated model code against ONNX Runtime on the source model.

usage: verify_generated.py --model SRC.onnx --work DIR [--seed N] CODE_DIR [CODE_DIR ...]

Makes seeded inputs of the shapes the generated INPUTS declare (dynamic dims get 2), runs the source in ONNX
Runtime (tests/oracle/run_npy.mjs) and each generated folder's run.py on the same .npy files, and compares
every output: same shape and dtype, every element within 1e-4 + 1e-3 * |reference|. OneFlow folders run
against the test-only stand-in package (tests/oneflow_standin). Prints one JSON line per folder; exit 1 on
any difference.
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
PYTHON = "/usr/bin/python3"


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seed", type=int, default=1)
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
        out_dir = os.path.join(args.work, f"out_{k}")
        env = dict(os.environ)
        with open(os.path.join(code, "model.py"), encoding="utf-8") as f:
            if "import oneflow" in f.read():
                env["PYTHONPATH"] = STANDIN + os.pathsep + env.get("PYTHONPATH", "")
        r = subprocess.run([PYTHON, os.path.join(code, "run.py"), *inputs, "--save-outputs", out_dir],
                           capture_output=True, text=True, timeout=900, env=env)
        result = {"code": code, "ok": r.returncode == 0, "max_abs_err": 0.0}
        if r.returncode != 0:
            result["error"] = r.stderr.strip()[-1500:]
        else:
            for i, ref in enumerate(refs):
                path = os.path.join(out_dir, f"{i}.npy")
                if not os.path.exists(path):
                    result.update(ok=False, error=f"output {i} missing")
                    break
                ok, err, why = compare(ref, np.load(path))
                result["max_abs_err"] = max(result["max_abs_err"], err)
                if not ok:
                    result.update(ok=False, error=f"output {i}: {why} (max abs err {err:.3g})")
                    break
        failed = failed or not result["ok"]
        print(json.dumps(result))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
