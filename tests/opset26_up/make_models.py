#!/usr/bin/python3
"""Writes small models at opsets 13-18 whose ops change schema after opset 17 in a way the up-adapters must
handle (Reduce* axes attribute, Split equal split, DFT axis, GridSample mode names, GroupNormalization-18 scale),
into OUTDIR. python3-onnx 1.12 cannot check opset-18 models, so they are put together without check_model."""
import os, sys
import numpy as np
import onnx
from onnx import helper as h, TensorProto as T

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
IR_FOR = {13: 7, 16: 8, 17: 8, 18: 8}


def save(name, opset, nodes, inputs, outputs, inits=()):
    g = h.make_graph(nodes, name, inputs, outputs, list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)], producer_name="opset26_up/make_models.py")
    m.ir_version = IR_FOR[opset]
    onnx.save(m, os.path.join(out, name + ".onnx"))


def f(name, shape):
    return h.make_tensor_value_info(name, T.FLOAT, shape)


save("reducemean_attr_13", 13, [h.make_node("ReduceMean", ["x"], ["y"], axes=[-1, 1], keepdims=0),
                                h.make_node("ReduceMax", ["x"], ["z"], axes=[0])],
     [f("x", [2, 3, 4])], [f("y", [2]), f("z", [1, 3, 4])])
save("reduce_all_13", 13, [h.make_node("ReduceL2", ["x"], ["y"])], [f("x", [2, 3, 4])], [f("y", [1, 1, 1])])
save("split_equal_13", 13, [h.make_node("Split", ["x"], ["a", "b"], axis=1)],
     [f("x", [2, 6, 3])], [f("a", [2, 3, 3]), f("b", [2, 3, 3])])
save("dft_axis_17", 17, [h.make_node("DFT", ["x"], ["y"], axis=1)], [f("x", [2, 8, 3, 1])], [f("y", [2, 8, 3, 2])])
save("dft_default_17", 17, [h.make_node("DFT", ["x"], ["y"])], [f("x", [2, 8, 3, 1])], [f("y", [2, 8, 3, 2])])
save("gridsample_bilinear_16", 16, [h.make_node("GridSample", ["x", "grid"], ["y"], mode="bilinear", align_corners=1)],
     [f("x", [1, 2, 4, 5]), f("grid", [1, 3, 3, 2])], [f("y", [1, 2, 3, 3])])
save("gridsample_bicubic_16", 16, [h.make_node("GridSample", ["x", "grid"], ["y"], mode="bicubic")],
     [f("x", [1, 2, 4, 5]), f("grid", [1, 3, 3, 2])], [f("y", [1, 2, 3, 3])])
save("groupnorm_18", 18, [h.make_node("GroupNormalization", ["x", "scale", "bias"], ["y"], num_groups=2, epsilon=1e-3)],
     [f("x", [2, 6, 3])], [f("y", [2, 6, 3])],
     [h.make_tensor("scale", T.FLOAT, [2], [0.5, 2.0]), h.make_tensor("bias", T.FLOAT, [2], [1.0, -1.0])])
