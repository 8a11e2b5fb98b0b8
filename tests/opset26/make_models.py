#!/usr/bin/python3
"""Writes small models at opsets 18-26 (one per change FlowBridge converts down) into OUTDIR, and
OUTDIR/expected.json with the element values of the narrow-type weights as plain numbers.

python3-onnx 1.12 cannot check opset-18+ models, so the protos are put together by hand (no check_model)."""
import json, sys, os
import numpy as np
import onnx
from onnx import helper as h, TensorProto as T

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
IR_FOR = {18: 8, 19: 9, 20: 9, 21: 10, 22: 10, 23: 11, 24: 12, 25: 13, 26: 13}


def save(name, opset, nodes, inputs, outputs, inits=()):
    g = h.make_graph(nodes, name, inputs, outputs, list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)], producer_name="make_models.py")
    m.ir_version = IR_FOR[opset]
    onnx.save(m, os.path.join(out, name + ".onnx"))


def fin(name, shape):
    return h.make_tensor_value_info(name, T.FLOAT, shape)


def fout(name, shape):
    return h.make_tensor_value_info(name, T.FLOAT, shape)


def i64(name, vals):
    return h.make_tensor(name, T.INT64, [len(vals)], vals)


for op in ["ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSumExp",
           "ReduceSumSquare"]:
    save(op.lower() + "_axes_18", 18, [h.make_node(op, ["x", "axes"], ["y"], keepdims=0)],
         [fin("x", [2, 3, 4])], [fout("y", [2])], [i64("axes", [-1, 1])])
save("reducemean_noaxes_18", 18, [h.make_node("ReduceMean", ["x"], ["y"])], [fin("x", [2, 3, 4])], [fout("y", [1, 1, 1])])
save("reducelogsum_axes_20", 20, [h.make_node("Mul", ["xa", "xa"], ["sq"]),
                                  h.make_node("ReduceLogSum", ["sq", "axes"], ["y"], keepdims=1)],
     [fin("xa", [2, 3, 4])], [fout("y", [1, 3, 4])], [i64("axes", [0])])
save("split_num_outputs_18", 18, [h.make_node("Split", ["x"], ["a", "b", "c"], axis=1, num_outputs=3)],
     [fin("x", [2, 7, 3])], [fout("a", [2, 3, 3]), fout("b", [2, 3, 3]), fout("c", [2, 1, 3])])
save("mish_18", 18, [h.make_node("Mish", ["x"], ["y"])], [fin("x", [3, 5])], [fout("y", [3, 5])])
save("gelu_20", 20, [h.make_node("Gelu", ["x"], ["y"])], [fin("x", [3, 5])], [fout("y", [3, 5])])
save("gelu_tanh_20", 20, [h.make_node("Gelu", ["x"], ["y"], approximate="tanh")], [fin("x", [3, 5])], [fout("y", [3, 5])])
save("swish_24", 24, [h.make_node("Swish", ["x"], ["y"], alpha=1.7)], [fin("x", [3, 5])], [fout("y", [3, 5])])
save("cast_saturate_19", 19, [h.make_node("Cast", ["x"], ["y"], to=T.DOUBLE, saturate=1),
                              h.make_node("Cast", ["y"], ["z"], to=T.FLOAT)], [fin("x", [4])], [fout("z", [4])])
save("resize_defaults_19", 19,
     [h.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest", antialias=0, keep_aspect_ratio_policy="stretch")],
     [fin("x", [1, 1, 2, 3])], [fout("y", [1, 1, 4, 6])], [h.make_tensor("scales", T.FLOAT, [4], [1, 1, 2, 2])])
# Not expressible at 17: axes computed at run time, Pad-19 wrap, a new op without an opset-17 form.
save("reducemean_runtime_axes_18", 18, [h.make_node("ReduceMean", ["x", "axes"], ["y"])],
     [fin("x", [2, 3, 4]), h.make_tensor_value_info("axes", T.INT64, [1])], [fout("y", None)])
save("pad_wrap_19", 19, [h.make_node("Pad", ["x", "pads"], ["y"], mode="wrap")],
     [fin("x", [2, 3])], [fout("y", [2, 5])], [i64("pads", [0, 1, 0, 1])])
save("rmsnorm_23", 23, [h.make_node("RMSNormalization", ["x", "scale"], ["y"])],
     [fin("x", [2, 3])], [fout("y", [2, 3])], [h.make_tensor("scale", T.FLOAT, [3], [1, 2, 3])])
# A model at opset 21 whose ops did not change after 17 (converts as it is).
save("plain_21", 21, [h.make_node("Add", ["x", "x"], ["s"]), h.make_node("Relu", ["s"], ["y"])],
     [fin("x", [2, 3])], [fout("y", [2, 3])])

# Narrow-type weights, packed as onnx.proto says (raw_data little-endian; 4-bit two per byte, low nibble first;
# 2-bit four per byte, lowest bits first), each used through Cast to float and added to x.
expected = {}


def packed(name, dtype, dims, codes, bits):
    t = T()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    per = 8 // bits
    buf = bytearray((len(codes) + per - 1) // per)
    for k, c in enumerate(codes):
        buf[k // per] |= (c & ((1 << bits) - 1)) << ((k % per) * bits)
    t.raw_data = bytes(buf)
    return t


def narrow_model(name, opset, tensor, values):
    n = int(np.prod(list(tensor.dims)))
    save(name, opset, [h.make_node("Cast", [tensor.name], ["wf"], to=T.FLOAT), h.make_node("Add", ["x", "wf"], ["y"])],
         [fin("x", list(tensor.dims))], [fout("y", list(tensor.dims))], [tensor])
    expected[name] = {"tensor": tensor.name, "values": values}
    # The same graph with the values written out as float: a reference that does not need ONNX Runtime to
    # know the narrow type (its CPU build has no Cast from float4e2m1).
    save(name + "_ref", opset, [h.make_node("Add", ["x", "wf"], ["y"])], [fin("x", list(tensor.dims))], [fout("y", list(tensor.dims))],
         [h.make_tensor("wf", T.FLOAT, list(tensor.dims), [float(v) for v in values])])


int4 = [-8, -3, 0, 1, 7, -1, 5, 2, -5]  # odd count: the last high nibble is padding
narrow_model("int4_weight_21", 21, packed("w4", 22, [3, 3], [v & 15 for v in int4], 4), int4)
uint4 = [0, 15, 3, 8, 9, 1]
narrow_model("uint4_weight_21", 21, packed("wu4", 21, [2, 3], uint4, 4), uint4)
# float8 e4m3fn: codes chosen by hand: 0x38 = 1.0, 0xC0 = -2.0, 0x7E = 448, 0x01 = 2^-9, 0x44 = 3.0, 0xB0 = -0.5
e4m3 = {0x38: 1.0, 0xC0: -2.0, 0x7E: 448.0, 0x01: 2.0 ** -9, 0x44: 3.0, 0xB0: -0.5}
narrow_model("float8e4m3fn_weight_19", 19, packed("w8", 17, [2, 3], list(e4m3), 8), list(e4m3.values()))
# float8 e5m2: 0x3C = 1.0, 0x7B = 57344, 0xC2 = -3.0, 0x01 = 2^-16
e5m2 = {0x3C: 1.0, 0x7B: 57344.0, 0xC2: -3.0, 0x01: 2.0 ** -16}
narrow_model("float8e5m2_weight_19", 19, packed("w85", 19, [4], list(e5m2), 8), list(e5m2.values()))
# float4 e2m1: codes 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6; 8+ negative
fp4 = {0x1: 0.5, 0x3: 1.5, 0x7: 6.0, 0xA: -1.0, 0xE: -4.0, 0x5: 3.0}
narrow_model("float4e2m1_weight_23", 23, packed("w44", 23, [6], list(fp4), 4), list(fp4.values()))
int2 = [-2, -1, 0, 1, 1, -2]
narrow_model("int2_weight_25", 25, packed("w2", 26, [6], [v & 3 for v in int2], 2), int2)
uint2 = [0, 1, 2, 3, 3]
narrow_model("uint2_weight_25", 25, packed("wu2", 25, [5], uint2, 2), uint2)
# The same int4 weight through DequantizeLinear-21 (per-tensor, int4 zero point).
zp = packed("zp", 22, [], [1], 4)
save("dequantize_int4_21", 21,
     [h.make_node("DequantizeLinear", ["w4", "scale", "zp"], ["wf"]), h.make_node("Add", ["x", "wf"], ["y"])],
     [fin("x", [3, 3])], [fout("y", [3, 3])],
     [packed("w4", 22, [3, 3], [v & 15 for v in int4], 4), h.make_tensor("scale", T.FLOAT, [], [0.25]), zp])

with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f)
