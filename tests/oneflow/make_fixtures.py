#!/usr/bin/env python3
"""Builds the OneFlow test fixtures: for real PyTorch models (fixed seeds) the Job graph and weight folders that
OneFlow's nn.Graph would produce for the same network, with PyTorch's outputs for fixed inputs.

    /usr/bin/python3 tests/oneflow/make_fixtures.py --out DIR [--only NAME ...]

Each fixture is a folder DIR/<name>/ with job.pb (or job.prototxt, or saved_model/), weights/ (one folder per
variable: out, meta, snapshot_done), inputs/<i>.npy, outputs/<i>.npy and fixture.json (the ONNX names of the
inputs and outputs, the lowest opset its ops allow, what the test should expect)."""
import argparse
import glob
import hashlib
import json
import os
import shutil
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_fixtures  # noqa: E402
import op_fixtures  # noqa: E402
from oneflow_job_builder import PROTO_DIR, pb  # noqa: E402


def write_fixture(out_dir, name, jb, min_opset=9, fmt="binary", weights_key="state", kind="model", extra=None):
    d = os.path.join(out_dir, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(os.path.join(d, "inputs"))
    os.makedirs(os.path.join(d, "outputs"))
    job = jb.job()
    if fmt == "binary":
        with open(os.path.join(d, "job.pb"), "wb") as f:
            f.write(job.SerializeToString())
    elif fmt == "text":
        with open(os.path.join(d, "job.prototxt"), "w") as f:
            f.write(str(job))
    elif fmt == "jobset":
        js = pb.JobSet()
        empty = js.job.add()
        empty.job_conf.job_name = "System-ModelInit"
        empty.net.SetInParent()
        js.job.add().ParseFromString(job.SerializeToString())
        with open(os.path.join(d, "jobset.pb"), "wb") as f:
            f.write(js.SerializeToString())
    if jb.variables:
        jb.write_weights(os.path.join(d, "weights"), key=weights_key)
    meta = {"name": name, "kind": kind, "min_opset": min_opset, "inputs": [], "outputs": []}
    for i, (lbn, arr) in enumerate(jb.inputs):
        np.save(os.path.join(d, "inputs", "%d.npy" % i), arr)
        meta["inputs"].append({"name": lbn, "file": "inputs/%d.npy" % i})
    for i, (lbn, arr) in enumerate(jb.outputs):
        np.save(os.path.join(d, "outputs", "%d.npy" % i), arr)
        meta["outputs"].append({"name": lbn, "file": "outputs/%d.npy" % i})
    meta.update(extra or {})
    with open(os.path.join(d, "fixture.json"), "w") as f:
        json.dump(meta, f, indent=1)
    return d


def sources_digest():
    """Hash of everything the fixtures depend on: these scripts, the .proto, the torch version."""
    h = hashlib.sha256(torch.__version__.encode())
    here = os.path.dirname(os.path.abspath(__file__))
    files = sorted(glob.glob(os.path.join(here, "*.py"))) + [os.path.join(PROTO_DIR, "oneflow_job.proto")]
    for path in files:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*", help="fixture names to build (default: all)")
    ap.add_argument("--list", action="store_true", help="print the fixture names and exit")
    args = ap.parse_args()
    torch.set_num_threads(2)
    builders = model_fixtures.FIXTURES + op_fixtures.fixtures()
    if args.list:
        print("\n".join(name for name, _ in builders))
        return
    os.makedirs(args.out, exist_ok=True)
    stamp = os.path.join(args.out, "fixtures.done")
    digest = sources_digest()
    if not args.only and os.path.exists(stamp) and open(stamp).read().strip() == digest:
        print("fixtures are up to date in", args.out)
        return
    if os.path.exists(stamp):
        os.remove(stamp)
    for name, build in builders:
        if args.only and name not in args.only:
            continue
        torch.manual_seed(0)
        np.random.seed(0)
        build(lambda jb, **kw: write_fixture(args.out, name, jb, **kw))
        print("fixture", name, flush=True)
    if not args.only:
        with open(stamp, "w") as f:
            f.write(digest + "\n")


if __name__ == "__main__":
    main()
