#!/usr/bin/python3
"""Writes OUTDIR/transformer_block_18.onnx: a small nn.TransformerEncoderLayer (GELU, batch_first) in the form
PyTorch's exporter writes at opset 18.

Debian's torch 1.13 exports up to opset 17 only, so the block is exported at opset 16 (where layer_norm is
written as ReduceMean/Sub/Pow/Sqrt/Div, as the exporter still does for RMS-style norms), then rewritten the
way the opset-18 exporter spells the same ops: Reduce* take their axes as an input, and Split's equal chunks
become num_outputs. Nothing else changes between 16 and 18 for these ops. The graph is not checked by onnx
1.12's checker, which stops at 17."""
import os, sys
import numpy as np
import onnx
from onnx import helper as h, numpy_helper
import torch

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32, dropout=0.0, activation="gelu",
                                         batch_first=True).eval()
x = torch.randn(2, 5, 16)
path16 = os.path.join(out, "transformer_block_16.onnx")
# Autograd stays on: under no_grad the layer takes its fused fast path, which has no ONNX export.
torch.onnx.export(layer, (x,), path16, opset_version=16, input_names=["x"], output_names=["y"],
                  dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
m = onnx.load(path16)
g = m.graph
nodes = []
consts = {t.name: numpy_helper.to_array(t) for t in g.initializer}
for n in g.node:
    if n.op_type == "Constant":
        for a in n.attribute:
            if a.name == "value":
                consts[n.output[0]] = numpy_helper.to_array(a.t)
moved = 0
for n in g.node:
    if n.op_type.startswith("Reduce") and n.op_type != "ReduceSum":
        axes = [a for a in n.attribute if a.name == "axes"]
        if axes:
            name = n.name + "_axes" if n.name else "axes_%d" % moved
            g.initializer.append(numpy_helper.from_array(np.array(axes[0].ints, dtype=np.int64), name))
            n.attribute.remove(axes[0])
            n.input.append(name)
            moved += 1
    if n.op_type == "Split" and len(n.input) > 1 and n.input[1] in consts:
        sizes = list(consts[n.input[1]])
        if len(set(sizes)) == 1:
            del n.input[1]
            n.attribute.append(h.make_attribute("num_outputs", len(sizes)))
            moved += 1
assert moved > 0, "nothing to rewrite: the exporter's opset-16 form changed"
del m.opset_import[:]
m.opset_import.append(h.make_opsetid("", 18))
m.ir_version = 8
onnx.save(m, os.path.join(out, "transformer_block_18.onnx"))
os.remove(path16)
print("rewrote", moved, "nodes")
