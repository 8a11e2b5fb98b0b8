#!/usr/bin/env python3
"""Runs generated model code on ONNX's backend node tests, in one process.

usage: run_node_suite.py LIST.json RESULTS.json

LIST.json is [{"test": name, "dir": ".../data/node/test_x", "code": generated folder}, ...]. Each generated
model.py is imported, its weights loaded with load_state_dict(strict=True), run on test_data_set_0's inputs,
and compared with the expected outputs the way ONNX's backend runner does (rtol 1e-3, atol 1e-7, NaN equal
to NaN), with the same shapes and element types. OneFlow folders run against tests/oneflow_standin.
"""
import json
import os
import signal
import sys
import traceback

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "oneflow_standin"))
import torch  # noqa: E402
from generated_module import load_generated  # noqa: E402

torch.set_num_threads(1)


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


def read_value(path, type_proto):
    """A tensor file as an array, a sequence file as a list, an optional file as its value or None."""
    kind = type_proto.WhichOneof("value") if type_proto is not None else "tensor_type"
    proto = {"sequence_type": onnx.SequenceProto, "optional_type": onnx.OptionalProto}.get(kind, onnx.TensorProto)()
    with open(path, "rb") as f:
        proto.ParseFromString(f.read())
    if kind == "sequence_type":
        return numpy_helper.to_list(proto)
    if kind == "optional_type":
        return numpy_helper.to_optional(proto)
    return numpy_helper.to_array(proto)


def read_inputs(test_dir, model_path):
    graph = onnx.load(model_path, load_external_data=False).graph
    initializers = {i.name for i in graph.initializer}
    inputs = [i for i in graph.input if i.name not in initializers]
    data = os.path.join(test_dir, "test_data_set_0")
    arrays = []
    for i, v in enumerate(inputs):
        path = os.path.join(data, f"input_{i}.pb")
        if not os.path.exists(path):
            raise ValueError(f"input {i} has no data file")
        arrays.append(read_value(path, v.type))
    outputs = []
    for i, v in enumerate(graph.output):
        path = os.path.join(data, f"output_{i}.pb")
        outputs.append((read_value(path, v.type),) if os.path.exists(path) else None)
    return arrays, outputs


def to_numpy(x):
    if hasattr(x, "detach"):
        x = x.detach()
    if hasattr(x, "numpy"):
        return x.numpy()
    return np.asarray(x)


def wrap_value(value, wrap):
    """A test input for the generated forward: sequences are lists of tensors, an empty optional is None."""
    if value is None:
        return None
    if isinstance(value, list):
        return [wrap_value(v, wrap) for v in value]
    # ascontiguousarray would make a 0-d array 1-d; copy keeps the shape (and gives a writable array).
    return wrap(np.array(value, copy=True, order="C"))


def compare(i, out, ref):
    """None when `out` equals the expected `ref` (array, list of arrays or None), else why not."""
    if ref is None or out is None:
        return None if ref is None and out is None else f"output {i}: {out is None and 'None' or 'a value'} instead of {ref is None and 'None' or 'a value'}"
    if isinstance(ref, list):
        if not isinstance(out, (list, tuple)):
            return f"output {i}: {type(out).__name__} instead of a sequence"
        if len(out) != len(ref):
            return f"output {i}: sequence of {len(out)} instead of {len(ref)}"
        for o, r in zip(out, ref):
            why = compare(i, o, r)
            if why:
                return why
        return None
    out = to_numpy(out)
    if out.shape != ref.shape:
        return f"output {i}: shape {out.shape} instead of {ref.shape}"
    if out.dtype != ref.dtype:
        return f"output {i}: dtype {out.dtype} instead of {ref.dtype}"
    if ref.dtype.kind in "fc":
        try:
            np.testing.assert_allclose(out, ref, rtol=1e-3, atol=1e-7, equal_nan=True)
        except AssertionError as e:
            return f"output {i}: " + " ".join(str(e).split())[:300]
    elif not np.array_equal(out, ref):
        return f"output {i}: values differ"
    return None


def run_one(entry, index):
    code = entry["code"]
    model, wrap = load_generated(code, index)
    inputs, expected = read_inputs(entry["dir"], os.path.join(entry["dir"], "model.onnx"))
    with torch.no_grad():
        outs = model(*[wrap_value(a, wrap) for a in inputs])
    # One graph output comes back as itself (which may be a list: a sequence), several as a tuple.
    if len(expected) == 1 or not isinstance(outs, tuple):
        outs = (outs,)
    for i, ref in enumerate(expected):
        if ref is None:
            continue
        why = compare(i, outs[i], ref[0])
        if why:
            return "mismatch", why
    return "match", ""


def main():
    entries = json.load(open(sys.argv[1]))
    results = []
    signal.signal(signal.SIGALRM, on_alarm)
    for k, entry in enumerate(entries):
        signal.alarm(60)
        try:
            result, detail = run_one(entry, k)
        except Timeout:
            result, detail = "error", "timed out after 60 s"
        except Exception as e:  # the generated code failed: report it, go on with the next test
            result, detail = "error", f"{type(e).__name__}: " + " ".join(str(e).split())[:300]
            if os.environ.get("FB_NODE_SUITE_TRACEBACK"):
                traceback.print_exc()
        finally:
            signal.alarm(0)
        results.append({"test": entry["test"], "result": result, "detail": detail})
    with open(sys.argv[2], "w") as f:
        json.dump(results, f, indent=0)


if __name__ == "__main__":
    main()
