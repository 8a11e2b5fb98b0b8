#!/usr/bin/env python3
"""Loads OneFlow weights with oneflow.load (the stand-in, on PYTHONPATH) and compares them with an ONNX model.

    PYTHONPATH=tests/oneflow_standin check_oneflow_load.py --case MODEL.onnx WEIGHTS KEYS.json [--case ...]

WEIGHTS is a folder (format A or B) or a file (format C). KEYS.json maps state-dict keys to initializer names.
The loaded dict must hold exactly those keys with the initializers' dtypes, shapes and bytes, and
load_state_dict(strict=True) into a module with those keys must accept it.
"""
import argparse
import collections
import json
import sys

import numpy as np
import onnx
from onnx import numpy_helper
import torch

import oneflow as flow


def module_with_keys(state):
    root = flow.nn.Module()
    for key, t in state.items():
        *path, leaf = key.split(".")
        m = root
        for part in path:
            if not hasattr(m, part):
                m.add_module(part, flow.nn.Module())
            m = getattr(m, part)
        m.register_buffer(leaf, flow.zeros(*t.shape, dtype=t.dtype))
    return root


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", nargs=3, action="append", required=True, metavar=("ONNX", "WEIGHTS", "KEYS"))
    args = ap.parse_args()
    for onnx_path, weights, keys_path in args.case:
        keys = json.load(open(keys_path), object_pairs_hook=collections.OrderedDict)
        inits = {i.name: i for i in onnx.load(onnx_path).graph.initializer}
        state = flow.load(weights)
        if sorted(state) != sorted(keys):
            sys.exit("FAIL: %s: keys differ: %s" % (weights, sorted(set(state) ^ set(keys))[:5]))
        for key, name in keys.items():
            expected = numpy_helper.to_array(inits[name])
            got = state[key].numpy()
            if got.dtype != expected.dtype or got.shape != expected.shape or got.tobytes() != expected.tobytes():
                sys.exit("FAIL: %s: %s: %s %s differs from %s %s" % (weights, key, got.dtype, got.shape,
                                                                    expected.dtype, expected.shape))
        module_with_keys(state).load_state_dict(state, strict=True)
        print("ok: %s: %d tensors" % (weights, len(keys)))


if __name__ == "__main__":
    main()
