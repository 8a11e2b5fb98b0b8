#!/usr/bin/env python3
"""Writes shape_arith.onnx (opset 14): shape arithmetic where ONNX and Python disagree unless the generated code
takes care. Input x: float [N, 6, 4], N dynamic. Integer Div of a negative number truncates in ONNX (Python's //
floors), Mod takes the divisor's sign, Gather counts negative indices from the end, Slice clamps its bounds, Reshape
copies a dim for 0 (allowzero=0), Equal/Where pick dims, and the ints become tensors (Range, ConstantOfShape, an
int64 output).

usage: make_shape_arith_model.py OUT.onnx
"""
import sys

import onnx
from onnx import TensorProto, helper


def const(name, values, dims=None):
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(
        name + "_v", TensorProto.INT64, [len(values)] if dims is None else dims, values))


nodes = [
    helper.make_node("Shape", ["x"], ["s"]),
    const("i_last", [-1], []), const("i_one", [1], []), const("i_zero", [0], []), const("i_pair", [-1, 0]),
    helper.make_node("Gather", ["s", "i_last"], ["d_last"]),  # 4
    helper.make_node("Gather", ["s", "i_one"], ["d1"]),  # 6
    helper.make_node("Gather", ["s", "i_zero"], ["n"]),  # N
    helper.make_node("Gather", ["s", "i_pair"], ["pair"]),  # [4, N]
    const("c11", [11], []), const("c2", [2], []), const("c3", [3], []), const("c100", [100], []),
    helper.make_node("Sub", ["d_last", "c11"], ["neg"]),  # -7
    helper.make_node("Div", ["neg", "c2"], ["q"]),  # -3 (floor would give -4)
    helper.make_node("Mod", ["neg", "c3"], ["m"]),  # 2 (C's fmod would give -1)
    const("ax0", [0]),
    helper.make_node("Unsqueeze", ["n", "ax0"], ["n1"]),
    helper.make_node("Unsqueeze", ["q", "ax0"], ["q1"]),
    helper.make_node("Unsqueeze", ["m", "ax0"], ["m1"]),
    helper.make_node("Unsqueeze", ["neg", "ax0"], ["neg1"]),
    const("minus1", [-1]), const("zero1", [0]),
    helper.make_node("Concat", ["n1", "minus1"], ["flat_shape"], axis=0),
    helper.make_node("Reshape", ["x", "flat_shape"], ["flat"]),  # [N, 24]
    helper.make_node("Mul", ["d1", "d_last"], ["area"]),
    helper.make_node("Unsqueeze", ["area", "ax0"], ["area1"]),
    helper.make_node("Concat", ["zero1", "area1"], ["zero_shape"], axis=0),
    helper.make_node("Reshape", ["x", "zero_shape"], ["copied"]),  # 0 copies N
    helper.make_node("Concat", ["n1", "area1"], ["az_shape"], axis=0),
    helper.make_node("Reshape", ["x", "az_shape"], ["allowzero"], allowzero=1),
    helper.make_node("Add", ["d1", "c100"], ["big"]),
    helper.make_node("Unsqueeze", ["big", "ax0"], ["big1"]),
    const("axis1", [1]),
    helper.make_node("Slice", ["x", "neg1", "big1", "axis1"], ["clamped"]),  # starts -7 -> 0, ends 106 -> 6
    helper.make_node("Sub", ["d1", "c2"], ["four"]),
    helper.make_node("Unsqueeze", ["four", "ax0"], ["four1"]),
    helper.make_node("Slice", ["x", "four1", "big1", "axis1"], ["tail"]),  # x[:, 4:]
    helper.make_node("Concat", ["q1", "m1", "s", "pair"], ["ints"], axis=0),  # [-3, 2, N, 6, 4, 4, N]
    helper.make_node("Range", ["i_zero", "n", "i_one"], ["arange"]),
    const("two1", [2]),
    helper.make_node("Concat", ["n1", "two1"], ["fill_shape"], axis=0),
    helper.make_node("ConstantOfShape", ["fill_shape"], ["filled"],
                     value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.5])),
    const("neg_ones", [-1, -1]), const("ones", [1, 1]),
    helper.make_node("Equal", ["flat_shape", "neg_ones"], ["is_neg"]),
    helper.make_node("Where", ["is_neg", "ones", "flat_shape"], ["expand_shape"]),  # [N, 1]
    helper.make_node("Constant", [], ["two_f"], value=helper.make_tensor("t", TensorProto.FLOAT, [1, 1], [2.0])),
    helper.make_node("Expand", ["two_f", "expand_shape"], ["expanded"]),
]
outputs = [("flat", TensorProto.FLOAT, ["N", 24]), ("copied", TensorProto.FLOAT, ["N", 24]),
           ("allowzero", TensorProto.FLOAT, ["N", 24]), ("clamped", TensorProto.FLOAT, ["N", 6, 4]),
           ("tail", TensorProto.FLOAT, ["N", 2, 4]), ("ints", TensorProto.INT64, [7]),
           ("arange", TensorProto.INT64, ["N"]), ("filled", TensorProto.FLOAT, ["N", 2]),
           ("expanded", TensorProto.FLOAT, ["N", 1])]
graph = helper.make_graph(nodes, "shape_arith", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 6, 4])],
                          [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="flowbridge-tests")
model.ir_version = 7
onnx.checker.check_model(model, full_check=True)
onnx.save(model, sys.argv[1])
