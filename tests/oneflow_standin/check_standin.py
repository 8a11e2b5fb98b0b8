#!/usr/bin/env python3
"""Checks the OneFlow stand-in: its names against OneFlow's (0.8, 0.9 and 1.0), and OneFlow-style snippets that must
run next to PyTorch-style ones that must fail as they would under OneFlow.

    PYTHONPATH=tests/oneflow_standin check_standin.py DOCS_DIR [GENERATOR_NAMES]

GENERATOR_NAMES: the OneFlow names FlowBridge's code generator may emit, one per line (all must exist here).
"""
import inspect
import os
import re
import sys
import tempfile
import types

import torch

import oneflow as flow
import oneflow.nn as nn
import oneflow.nn.functional as F
import oneflow.nn.init

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def versions(docs):
    present = {}
    for line in open(os.path.join(docs, "oneflow-api-versions.tsv")):
        cols = line.rstrip("\n").split("\t")
        if len(cols) >= 4 and cols[0] != "name":
            present[cols[0]] = cols[1:4] == ["Y", "Y", "Y"]
    return present


def section3_names(docs):
    """Functions and classes of oneflow-python-api.md section 3, with the names listed in its "Also ..." notes."""
    names = set()
    for line in open(os.path.join(docs, "oneflow-python-api.md")):
        if not re.match(r"\| \d+ \|", line):
            continue
        cols = [c.strip() for c in line.split("|")]
        api = cols[3].strip("`")
        names.add(api)
        m = re.search(r"Also ([^|]*?)(\.\s|\.$|;|$)", cols[8])
        if m and not api.startswith("oneflow.Tensor"):
            base = api.rsplit(".", 1)[0]
            for n in re.findall(r"[A-Za-z_][\w.]*", m.group(1)):
                if n == "and" or n.endswith("()"):
                    continue
                names.add(n if n.startswith("oneflow.") else base + "." + n)
    return names


def public_names():
    out = set()
    for prefix, mod in [("oneflow", flow), ("oneflow.nn", nn), ("oneflow.nn.functional", F),
                        ("oneflow.nn.init", oneflow.nn.init), ("oneflow.linalg", flow.linalg)]:
        for name in dir(mod):
            if name.startswith("_"):
                continue
            value = getattr(mod, name)
            if isinstance(value, types.ModuleType) and not value.__name__.startswith("oneflow"):
                continue  # an import the module uses, not part of its API
            out.add(prefix + "." + name)
    return out


def audit_names(docs, codegen_names):
    present = versions(docs)
    exposed = public_names()
    # Every name FlowBridge's code generator may emit for OneFlow (one per line) exists here too.
    for name in open(codegen_names).read().split() if codegen_names else []:
        parts = name.split(".")
        if parts[:2] == ["oneflow", "Tensor"] and len(parts) == 3:
            check(hasattr(torch.Tensor, parts[2]), "generator name %s is missing" % name)
            continue
        obj = flow
        for p in parts[1:]:
            obj = getattr(obj, p, None)
        check(obj is not None, "generator name %s is missing" % name)
    for name in sorted(exposed):
        check(present.get(name, False), "%s is exposed but not in all of OneFlow 0.8, 0.9, 1.0" % name)
    wanted = {n for n in section3_names(docs) if present.get(n, False) and not n.startswith("oneflow.Tensor.")}
    for name in sorted(wanted):
        module, attr = name.rsplit(".", 1)
        mod = {"oneflow": flow, "oneflow.nn": nn, "oneflow.nn.functional": F}[module]
        check(hasattr(mod, attr), "%s (section 3, in all three versions) is missing" % name)
    return len(exposed), len(wanted)


def raises(exc, fn, what):
    try:
        fn()
    except exc:
        return
    except Exception as e:  # the wrong kind of failure is a failure too
        failures.append("%s: raised %s instead of %s" % (what, type(e).__name__, exc.__name__))
        return
    failures.append("%s: did not raise %s" % (what, exc.__name__))


def snippets():
    x = flow.randn(2, 3, 8, 8)
    a, b = flow.randn(2, 3, 4), flow.randn(2, 4, 5)
    # OneFlow-style code runs.
    check(F.relu(x).shape == x.shape, "F.relu(x)")
    check(F.leaky_relu(x, 0.1).shape == x.shape, "F.leaky_relu(x, 0.1)")
    check(F.leaky_relu(x, alpha=0.2).min() < 0, "F.leaky_relu(x, alpha=0.2)")
    out = F.max_pool2d(x, 2, 2, 0, 1, True)  # sixth positional parameter is return_indices in OneFlow
    check(isinstance(out, tuple) and len(out) == 2, "F.max_pool2d positional return_indices")
    check(F.max_pool2d(x, 3, 2, ceil_mode=True).shape[-1] == 4, "F.max_pool2d ceil_mode keyword")
    check(F.avg_pool2d(x, 2, divisor_override=0).shape[-1] == 4, "F.avg_pool2d divisor_override=0")
    check(flow.permute(x, (0, 2, 3, 1)).shape == (2, 8, 8, 3), "flow.permute(x, dims)")
    check(flow.bmm(a, b).shape == (2, 3, 5), "flow.bmm(a, b)")
    check(flow.cat(inputs=[a, a], dim=1).shape == (2, 6, 4), "flow.cat(inputs=...)")
    check(F.softshrink(x, alpha=0.5).shape == x.shape, "F.softshrink(x, alpha=)")
    check(F.threshold(x, threshold=0.1, value=0.0).shape == x.shape, "F.threshold keywords")
    check(F.hardtanh(x, -1.0, 1.0).max() <= 1.0, "F.hardtanh(x, min, max)")
    check(flow.equal(x, x) is True and flow.equal(x, x + 1) is False, "flow.equal returns a bool")
    check(flow.eq(x, x).dtype == flow.bool, "flow.eq is elementwise")
    check(isinstance(F.upsample(scale_factor=2), nn.Module), "F.upsample is the Upsample class")
    check(flow.randn(2, 3).shape == (2, 3) and flow.zeros((4,)).shape == (4,), "Shape varargs are packed")
    check(flow.matmul(a, a, transpose_b=True).shape == (2, 3, 3), "flow.matmul transpose_b")
    check(flow.squeeze(flow.zeros(1, 2, 1), [0, 2]).shape == (2,), "flow.squeeze with a dim list")
    check(F.softmax(flow.zeros(2, 3, 4)).sum(0).allclose(flow.ones(3, 4)), "F.softmax legacy dim (0 for 3-D)")
    check(nn.PixelShuffle(h_upscale_factor=2, w_upscale_factor=1)(flow.zeros(1, 4, 3, 3)).shape == (1, 2, 6, 3),
          "nn.PixelShuffle with separate factors")
    with flow.no_grad():
        check(nn.Linear(3, 2)(flow.ones(1, 3)).requires_grad is False, "flow.no_grad")

    # PyTorch-style code fails where OneFlow rejects it.
    raises(TypeError, lambda: F.relu(input=x), "F.relu(input=x)")
    raises(TypeError, lambda: F.leaky_relu(x), "F.leaky_relu without alpha")
    raises(TypeError, lambda: F.leaky_relu(x, negative_slope=0.1), "F.leaky_relu(negative_slope=)")
    raises(TypeError, lambda: F.avg_pool2d(x, 2, divisor_override=None), "F.avg_pool2d(divisor_override=None)")
    raises(TypeError, lambda: flow.permute(x, 0, 2, 3, 1), "flow.permute(x, *dims)")
    raises(TypeError, lambda: flow.bmm(input=a, mat2=b), "flow.bmm(input=, mat2=)")
    raises(TypeError, lambda: flow.cat(tensors=[a, a]), "flow.cat(tensors=)")
    raises(TypeError, lambda: F.softshrink(x, 0.5), "F.softshrink(x, 0.5): keyword-only alpha")
    raises(TypeError, lambda: F.threshold(x, 0.1, 0.0), "F.threshold positional")
    raises(TypeError, lambda: F.hardtanh(x), "F.hardtanh without bounds")
    raises(TypeError, lambda: F.elu(x), "F.elu without alpha")
    raises(TypeError, lambda: F.celu(x, 1.0), "F.celu positional alpha")
    raises(TypeError, lambda: F.prelu(x, weight=flow.ones(1)), "F.prelu(weight=)")
    raises(TypeError, lambda: F.log_softmax(x, 1, dtype=flow.float64), "F.log_softmax(dtype=)")
    raises(TypeError, lambda: F.cosine_similarity(x1=x, x2=x), "F.cosine_similarity(x1=, x2=)")
    raises(TypeError, lambda: flow.clamp(x, min=flow.zeros(1)), "flow.clamp with a tensor bound")
    raises(TypeError, lambda: flow.masked_fill(x, x > 0, flow.tensor(1.0)), "flow.masked_fill with a tensor value")
    raises(TypeError, lambda: flow.rand(2, 3, None), "flow.rand positional dtype")
    raises(TypeError, lambda: F.conv2d(x, flow.ones(4, 3, 3, 3), padding="same"), "F.conv2d(padding='same')")
    raises(TypeError, lambda: nn.BatchNorm2d(3, device="cpu"), "nn.BatchNorm2d(device=)")
    raises(TypeError, lambda: nn.LayerNorm(3, bias=False), "nn.LayerNorm(bias=)")
    raises(TypeError, lambda: nn.Upsample(scale_factor=2, recompute_scale_factor=True), "nn.Upsample(recompute=)")
    raises(AssertionError, lambda: nn.Conv2d(3, 4, 3, padding_mode="reflect"), "nn.Conv2d(padding_mode='reflect')")
    raises(NotImplementedError, lambda: F.pad(flow.zeros(1, 1, 2, 2, 2), [1] * 6, mode="reflect"), "3-D reflect pad")
    raises(NotImplementedError, lambda: F.interpolate(x, scale_factor=2, mode="nearest-exact"), "nearest-exact")
    # Signatures by release, from the generator's table (oneflow/_signatures.py): OneFlow 0.8's ones_like takes the
    # tensor alone; tensor methods are checked too.
    from oneflow import _signatures
    if _signatures.RELEASE == "0.8":
        raises(TypeError, lambda: flow.ones_like(x, dtype=flow.bool), "flow.ones_like(dtype=) in OneFlow 0.8")
        raises(TypeError, lambda: flow.zeros_like(x, dtype=flow.bool), "flow.zeros_like(dtype=) in OneFlow 0.8")
    else:
        check(flow.ones_like(x, dtype=flow.bool).dtype == flow.bool, "flow.ones_like(dtype=) from OneFlow 0.9")
    check(flow.ones_like(x).to(flow.bool).dtype == flow.bool, "flow.ones_like(x).to(flow.bool)")
    raises(TypeError, lambda: x.unsqueeze(dim=0, axis=1), "Tensor.unsqueeze(axis=)")
    raises(TypeError, lambda: x.mean(dim=1, keepdims=True), "Tensor.mean(keepdims=)")
    check(x.mean(dim=1, keepdim=True).shape == (2, 1, 8, 8), "Tensor.mean(dim=, keepdim=)")
    for module, name in [(F, "instance_norm"), (F, "pixel_shuffle"), (F, "scaled_dot_product_attention"),
                         (F, "embedding_bag"), (flow, "remainder"), (flow, "take"), (flow, "int16"),
                         (nn, "MultiheadAttention"), (nn, "Unflatten"), (nn, "PixelUnshuffle"), (nn, "RMSNorm"),
                         (flow, "broadcast_to"), (flow, "logsumexp")]:
        check(not hasattr(module, name), "%s.%s exists but is not in all of OneFlow 0.8-1.0" % (module.__name__, name))


def save_and_load():
    m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.of")
        flow.save(m.state_dict(), path)
        raw = open(path, "rb").read()
        check(raw[:2] == b"\x80\x04", "flow.save writes pickle protocol 4 (the default of OneFlow's Pythons)")
        check(b"oneflow._oneflow_internal" in raw and b"__oneflow__" in raw, "flow.save writes format C")
        state = flow.load(path)
        check(list(state) == list(m.state_dict()), "flow.load keys")
        for k, v in m.state_dict().items():
            check(v.dtype == state[k].dtype and flow.equal(v, state[k]), "flow.load value of " + k)
        m2 = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
        m2.load_state_dict(state)
        raises(ValueError, lambda: flow.load(os.path.join(d, "nothing")), "flow.load of a missing file")


def main():
    docs = sys.argv[1]
    exposed, wanted = audit_names(docs, sys.argv[2] if len(sys.argv) > 2 else None)
    snippets()
    save_and_load()
    for f in failures:
        print("FAIL:", f)
    print("OneFlow %s: names exposed: %d; section-3 names in all three versions: %d; failures: %d" % (
        flow.__version__.split("+")[0], exposed, wanted, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
