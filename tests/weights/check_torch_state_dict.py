#!/usr/bin/env python3
"""Checks a PyTorch checkpoint written by FlowBridge's weights writer against the ONNX model it came from.

    check_torch_state_dict.py --case MODEL.onnx FILE.pt KEYS.json [--case ...] [--shared a,b]...

KEYS.json maps each state-dict key to the name of the initializer it holds, in the order written. The check:
torch.load (and, where this torch has it, weights_only=True) gives an OrderedDict with exactly those keys in that
order, each tensor has the initializer's dtype, shape and bytes (read by the onnx package), every storage entry
of the zip starts on a 64-byte boundary, and load_state_dict(strict=True) into a module with those keys works.
"""
import argparse
import collections
import inspect
import json
import sys
import zipfile

import numpy as np
import onnx
from onnx import numpy_helper
import torch

TORCH_DTYPE = {
    onnx.TensorProto.FLOAT: torch.float32, onnx.TensorProto.DOUBLE: torch.float64,
    onnx.TensorProto.FLOAT16: torch.float16, onnx.TensorProto.BFLOAT16: torch.bfloat16,
    onnx.TensorProto.INT8: torch.int8, onnx.TensorProto.INT16: torch.int16, onnx.TensorProto.INT32: torch.int32,
    onnx.TensorProto.INT64: torch.int64, onnx.TensorProto.UINT8: torch.uint8, onnx.TensorProto.BOOL: torch.bool,
    onnx.TensorProto.COMPLEX64: torch.complex64, onnx.TensorProto.COMPLEX128: torch.complex128,
}


def expected_bytes(init):
    if init.data_type == onnx.TensorProto.BFLOAT16:  # numpy has no bfloat16: compare the raw 16-bit patterns
        if init.raw_data:
            return bytes(init.raw_data)
        return np.array(init.int32_data, dtype=np.uint16).tobytes()
    return np.ascontiguousarray(numpy_helper.to_array(init)).tobytes()


def tensor_bytes(t):
    t = t.contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().tobytes()
    return t.numpy().tobytes()


def module_with_keys(state):
    """A module whose state_dict has exactly these keys: dotted paths become sub-modules, leaves buffers."""
    root = torch.nn.Module()
    for key, t in state.items():
        *path, leaf = key.split(".")
        m = root
        for part in path:
            if not hasattr(m, part):
                m.add_module(part, torch.nn.Module())
            m = getattr(m, part)
        m.register_buffer(leaf, torch.zeros(t.shape, dtype=t.dtype))
    return root


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", nargs=3, action="append", required=True, metavar=("ONNX", "STATE", "KEYS"))
    ap.add_argument("--shared", action="append", default=[], help="two keys that must share one storage")
    args = ap.parse_args()
    for onnx_path, state_path, keys_path in args.case:
        check(onnx_path, state_path, keys_path, args.shared)


def check(onnx_path, state_path, keys_path, shared):
    keys = json.load(open(keys_path), object_pairs_hook=collections.OrderedDict)
    model = onnx.load(onnx_path)
    inits = {i.name: i for i in model.graph.initializer}

    loads = [torch.load(state_path, map_location="cpu")]
    if "weights_only" in inspect.signature(torch.load).parameters:
        loads.append(torch.load(state_path, map_location="cpu", weights_only=True))
    for state in loads:
        if not isinstance(state, collections.OrderedDict):
            fail("torch.load gave %s, not an OrderedDict" % type(state))
        if list(state.keys()) != list(keys.keys()):
            fail("keys differ: %s ... vs %s ..." % (list(state.keys())[:5], list(keys.keys())[:5]))
        for key, name in keys.items():
            t, init = state[key], inits[name]
            if t.dtype != TORCH_DTYPE[init.data_type]:
                fail("%s: dtype %s, expected %s" % (key, t.dtype, TORCH_DTYPE[init.data_type]))
            if tuple(t.shape) != tuple(init.dims):
                fail("%s: shape %s, expected %s" % (key, tuple(t.shape), tuple(init.dims)))
            if tensor_bytes(t) != expected_bytes(init):
                fail("%s: values differ" % key)
        for pair in shared:
            a, b = pair.split(",")
            if a in state and state[a].data_ptr() != state[b].data_ptr():
                fail("%s and %s do not share a storage" % (a, b))

    with zipfile.ZipFile(state_path) as z:
        with open(state_path, "rb") as f:
            for info in z.infolist():
                f.seek(info.header_offset + 26)
                name_len, extra_len = np.frombuffer(f.read(4), dtype="<u2")
                start = info.header_offset + 30 + int(name_len) + int(extra_len)
                if "/data/" in info.filename and start % 64:
                    fail("%s starts at %d, not 64-byte aligned" % (info.filename, start))
                if info.compress_type != zipfile.ZIP_STORED:
                    fail("%s is compressed" % info.filename)
        if z.testzip() is not None:
            fail("CRC mismatch in " + z.testzip())

    state = loads[0]
    module = module_with_keys(state)
    module.load_state_dict(state, strict=True)
    for key, t in module.state_dict().items():
        if tensor_bytes(t) != tensor_bytes(state[key]):
            fail("%s: load_state_dict copied different values" % key)
    print("ok: %s: %d tensors, %d loads" % (state_path, len(keys), len(loads)))


if __name__ == "__main__":
    main()
