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


# --- Op versions of opsets 18-26 that the step down converts (one model each; the test converts each to 17
# and 13 and compares in ONNX Runtime), and ones it refuses with a reason.
def f32(name, shape, vals=None):
    vals = vals if vals is not None else list(np.linspace(-1.0, 1.5, int(np.prod(shape))))
    return h.make_tensor(name, T.FLOAT, shape, [float(v) for v in vals])


def v(name, elem, shape):
    return h.make_tensor_value_info(name, elem, shape)


# ReduceMax/ReduceMin-20 on bool -> through uint8 and back.
save("reducemax_bool_20", 20, [h.make_node("ReduceMax", ["x", "axes"], ["y"], keepdims=1)],
     [v("x", T.BOOL, [2, 3, 4])], [v("y", T.BOOL, [2, 1, 4])], [i64("axes", [1])])
save("reducemin_bool_20", 20, [h.make_node("ReduceMin", ["x", "axes"], ["y"], keepdims=0)],
     [v("x", T.BOOL, [2, 3, 4])], [v("y", T.BOOL, [3])], [i64("axes", [0, 2])])
save("reducemin_bool_all_20", 20, [h.make_node("ReduceMin", ["x"], ["y"], keepdims=1)],
     [v("x", T.BOOL, [2, 2])], [v("y", T.BOOL, [1, 1])])
save("reducemax_axes_20", 20, [h.make_node("ReduceMax", ["x", "axes"], ["y"], keepdims=1)],
     [fin("x", [2, 3, 4])], [fout("y", [2, 1, 4])], [i64("axes", [1])])
save("pad_axes_18", 18, [h.make_node("Pad", ["x", "pads", "", "axes"], ["y"], mode="reflect")],
     [fin("x", [2, 3, 4])], [fout("y", [2, 4, 7])], [i64("pads", [1, 0, 2, 1]), i64("axes", [-1, 1])])
save("pad_axes_constant_18", 18, [h.make_node("Pad", ["x", "pads", "cv", "axes"], ["y"])],
     [fin("x", [2, 3, 4])], [fout("y", [4, 3, 4])], [i64("pads", [1, 1]), i64("axes", [0]), f32("cv", [], [0.5])])
save("pad_wrap_axes_19", 19, [h.make_node("Pad", ["x", "pads", "", "axes"], ["y"], mode="wrap")],
     [fin("x", [2, 3, 4])], [fout("y", [2, 5, 7])], [i64("pads", [1, 3, 1, 0]), i64("axes", [1, 2])])
save("resize_axes_scales_18", 18, [h.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear", axes=[2, 3])],
     [fin("x", [1, 2, 3, 4])], [fout("y", [1, 2, 6, 8])], [f32("scales", [2], [2.0, 2.0])])
save("resize_axes_sizes_18", 18, [h.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="nearest", axes=[-1])],
     [fin("x", [1, 2, 3, 4])], [fout("y", [1, 2, 3, 7])], [i64("sizes", [7])])
save("resize_antialias_up_18", 18, [h.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear", antialias=1)],
     [fin("x", [1, 1, 3, 4])], [fout("y", [1, 1, 6, 8])], [f32("scales", [4], [1, 1, 2, 2])])
save("resize_keep_aspect_18", 18,
     [h.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="linear", keep_aspect_ratio_policy="not_larger", axes=[2, 3])],
     [fin("x", [1, 1, 2, 3])], [fout("y", [1, 1, 4, 6])], [i64("sizes", [4, 8])])
save("resize_half_pixel_symmetric_19", 19,
     [h.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear", coordinate_transformation_mode="half_pixel_symmetric")],
     [fin("x", [1, 1, 2, 4])], [fout("y", [1, 1, 4, 6])], [f32("scales", [4], [1, 1, 2, 1.5])])
save("dft_axis_20", 20, [h.make_node("DFT", ["x", "", "axis"], ["y"])],
     [fin("x", [2, 8, 1])], [fout("y", [2, 8, 2])], [h.make_tensor("axis", T.INT64, [], [1])])
save("gridsample_linear_20", 20, [h.make_node("GridSample", ["x", "grid"], ["y"], mode="linear", align_corners=1)],
     [fin("x", [1, 2, 3, 4]), fin("grid", [1, 2, 5, 2])], [fout("y", [1, 2, 2, 5])])
save("optional_get_18", 18, [h.make_node("OptionalGetElement", ["x"], ["o"]), h.make_node("Relu", ["o"], ["y"])],
     [fin("x", [2, 3])], [fout("y", [2, 3])])
save("optional_has_18", 18, [h.make_node("OptionalHasElement", ["x"], ["y"])], [fin("x", [2, 3])], [v("y", T.BOOL, [])])
save("groupnorm_18", 18, [h.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2, epsilon=1e-3)],
     [fin("x", [2, 4, 3, 3])], [fout("y", [2, 4, 3, 3])], [f32("s", [2], [1.5, -0.5]), f32("b", [2], [0.1, 0.2])])
save("groupnorm_21", 21, [h.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)],
     [fin("x", [2, 4, 5])], [fout("y", [2, 4, 5])], [f32("s", [4], [1.5, -0.5, 2, 1]), f32("b", [4], [0.1, 0.2, 0, -1])])
save("rmsnorm_axis_23", 23, [h.make_node("RMSNormalization", ["x", "scale"], ["y"], axis=1, epsilon=1e-4)],
     [fin("x", [2, 3, 4])], [fout("y", [2, 3, 4])], [f32("scale", [3, 4])])
save("rotary_23", 23, [h.make_node("RotaryEmbedding", ["x", "cos", "sin", "pos"], ["y"])],
     [fin("x", [1, 2, 3, 8]), v("pos", T.INT64, [1, 3])], [fout("y", [1, 2, 3, 8])],
     [f32("cos", [5, 4], np.cos(np.arange(20) * 0.3)), f32("sin", [5, 4], np.sin(np.arange(20) * 0.3))])
save("rotary_interleaved_partial_23", 23,
     [h.make_node("RotaryEmbedding", ["x", "cos", "sin"], ["y"], interleaved=1, num_heads=2, rotary_embedding_dim=4)],
     [fin("x", [1, 3, 16]), fin("cos", [1, 3, 2]), fin("sin", [1, 3, 2])], [fout("y", [1, 3, 16])])
save("affinegrid_20", 20, [h.make_node("AffineGrid", ["theta", "size"], ["grid"])],
     [fin("theta", [2, 2, 3])], [fout("grid", [2, 3, 4, 2])], [i64("size", [2, 1, 3, 4])])
save("affinegrid_3d_aligned_20", 20, [h.make_node("AffineGrid", ["theta", "size"], ["grid"], align_corners=1)],
     [fin("theta", [1, 3, 4])], [fout("grid", [1, 2, 3, 4, 3])], [i64("size", [1, 1, 2, 3, 4])])
save("centercroppad_18", 18, [h.make_node("CenterCropPad", ["x", "shape"], ["y"])],
     [fin("x", [5, 4])], [fout("y", [2, 7])], [i64("shape", [2, 7])])
save("centercroppad_axes_18", 18, [h.make_node("CenterCropPad", ["x", "shape"], ["y"], axes=[-1])],
     [fin("x", [2, 3, 6])], [fout("y", [2, 3, 3])], [i64("shape", [3])])
save("bitwisenot_18", 18, [h.make_node("BitwiseNot", ["x"], ["y"])], [v("x", T.INT32, [2, 3])], [v("y", T.INT32, [2, 3])])
# The oracle's int32 inputs are 1..3: spread them over the whole range, negatives included.
spread = h.make_tensor("spread", T.INT32, [4], [-1000003, 77, 2**30 + 5, -9])
for op in ["BitwiseAnd", "BitwiseOr", "BitwiseXor"]:
    save(op.lower() + "_18", 18, [h.make_node("Mul", ["a", "spread"], ["as"]), h.make_node("Mul", ["b", "spread"], ["bs_"]),
                                  h.make_node("Sub", ["bs_", "a"], ["bs"]), h.make_node(op, ["as", "bs"], ["y"])],
         [v("a", T.INT32, [3, 4]), v("b", T.INT32, [4])], [v("y", T.INT32, [3, 4])], [spread])
save("bitwisexor_uint8_18", 18, [h.make_node("Mul", ["a", "k"], ["ak"]), h.make_node("Cast", ["ak"], ["u"], to=T.UINT8),
                                 h.make_node("Cast", ["b"], ["v8"], to=T.UINT8), h.make_node("BitwiseXor", ["u", "v8"], ["x"]),
                                 h.make_node("Cast", ["x"], ["y"], to=T.INT32)],
     [v("a", T.INT32, [5]), v("b", T.INT32, [5])], [v("y", T.INT32, [5])], [h.make_tensor("k", T.INT32, [5], [85, 60, 1, 7, 33])])
save("bitwisenot_uint8_18", 18, [h.make_node("Cast", ["x"], ["u"], to=T.UINT8), h.make_node("BitwiseNot", ["u"], ["n"]),
                                 h.make_node("Cast", ["n"], ["y"], to=T.INT32)],
     [v("x", T.INT32, [4])], [v("y", T.INT32, [4])])
save("attention_causal_23", 23, [h.make_node("Attention", ["q", "k", "v"], ["y"], is_causal=1)],
     [fin("q", [1, 2, 4, 8]), fin("k", [1, 2, 4, 8]), fin("v", [1, 2, 4, 8])], [fout("y", [1, 2, 4, 8])])
save("attention_gqa_mask_23", 23,
     [h.make_node("Attention", ["q", "k", "v", "m"], ["y"], q_num_heads=4, kv_num_heads=2, scale=0.3)],
     [fin("q", [2, 3, 16]), fin("k", [2, 5, 8]), fin("v", [2, 5, 6]), v("m", T.BOOL, [3, 5])], [fout("y", [2, 3, 12])])
save("attention_float_mask_24", 24, [h.make_node("Attention", ["q", "k", "v", "m"], ["y"])],
     [fin("q", [1, 2, 3, 4]), fin("k", [1, 2, 5, 4]), fin("v", [1, 2, 5, 4]), fin("m", [1, 1, 3, 5])], [fout("y", [1, 2, 3, 4])])
save("attention_cache_causal_23", 23,
     [h.make_node("Attention", ["q", "k", "v", "", "pk", "pv"], ["y", "presk", "presv"], is_causal=1)],
     [fin("q", [1, 2, 3, 4]), fin("k", [1, 2, 3, 4]), fin("v", [1, 2, 3, 4]), fin("pk", [1, 2, 5, 4]), fin("pv", [1, 2, 5, 4])],
     [fout("y", [1, 2, 3, 4]), fout("presk", [1, 2, 8, 4]), fout("presv", [1, 2, 8, 4])])
save("attention_cache_gqa_3d_24", 24,
     [h.make_node("Attention", ["q", "k", "v", "m", "pk", "pv"], ["y", "presk", "presv"], q_num_heads=4, kv_num_heads=2)],
     [fin("q", [2, 1, 16]), fin("k", [2, 1, 8]), fin("v", [2, 1, 8]), fin("m", [2, 1, 1, 4]), fin("pk", [2, 2, 3, 4]),
      fin("pv", [2, 2, 3, 4])],
     [fout("y", [2, 1, 16]), fout("presk", [2, 2, 4, 4]), fout("presv", [2, 2, 4, 4])])
for mode, wi in [("linear", [1, 3]), ("circular", [1, 4])]:
    save("tensorscatter_%s_24" % mode, 24, [h.make_node("TensorScatter", ["past", "upd", "wi"], ["y"], mode=mode)],
         [fin("past", [2, 2, 5, 3]), fin("upd", [2, 2, 2, 3])], [fout("y", [2, 2, 5, 3])], [i64("wi", wi)])
save("tensorscatter_runtime_24", 24, [h.make_node("TensorScatter", ["past", "upd", "wi"], ["y"], axis=1)],
     [fin("past", [2, 5, 3]), fin("upd", [2, 1, 3]), v("wi", T.INT64, [2])], [fout("y", [2, 5, 3])])
save("mish_22", 22, [h.make_node("Mish", ["x"], ["y"])], [fin("x", [3, 5])], [fout("y", [3, 5])])
save("averagepool_dilations1_19", 19,
     [h.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[1, 1], strides=[1, 1])],
     [fin("x", [1, 1, 4, 4])], [fout("y", [1, 1, 3, 3])])
save("lppool_defaults_18", 18,
     [h.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2], ceil_mode=0, dilations=[1, 1], p=2)],
     [fin("x", [1, 1, 4, 4])], [fout("y", [1, 1, 3, 3])])
save("lppool_dilated_22", 22,
     [h.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[2, 1], p=3, strides=[1, 2])],
     [fin("x", [1, 2, 5, 6])], [fout("y", [1, 2, 3, 3])])
save("lppool_ceil_18", 18, [h.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2], ceil_mode=1, strides=[2, 2])],
     [fin("x", [1, 1, 5, 5])], [fout("y", [1, 1, 3, 3])])
# ceil_mode=1 -> explicit end pads: a partial last window on both axes (above), with pads and dilations (the Conv
# form), and one whose extra window would start in the end padding (dropped: same size as floor).
save("lppool_ceil_padded_18", 18,
     [h.make_node("LpPool", ["x"], ["y"], kernel_shape=[3, 2], ceil_mode=1, strides=[2, 3], pads=[1, 0, 0, 0], p=3)],
     [fin("x", [1, 2, 7, 7])], [fout("y", [1, 2, 4, 3])])
save("lppool_ceil_dilated_22", 22,
     [h.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2], ceil_mode=1, strides=[2, 2], dilations=[2, 1])],
     [fin("x", [1, 2, 6, 5])], [fout("y", [1, 2, 3, 3])])
save("lppool_ceil_dropped_18", 18,
     [h.make_node("LpPool", ["x"], ["y"], kernel_shape=[2], ceil_mode=1, strides=[2], pads=[0, 1])],
     [fin("x", [1, 1, 4])], [fout("y", [1, 1, 2])])
save("scatterelements_add_18", 18, [h.make_node("ScatterElements", ["x", "idx", "upd"], ["y"], axis=1, reduction="add")],
     [fin("x", [2, 4])], [fout("y", [2, 4])],
     [h.make_tensor("idx", T.INT64, [2, 2], [0, 0, 3, 1]), f32("upd", [2, 2], [1, 2, 3, 4])])
save("scatterelements_max_distinct_18", 18,
     [h.make_node("ScatterElements", ["x", "idx", "upd"], ["y"], axis=-1, reduction="max")],
     [fin("x", [2, 4]), fin("upd", [2, 2])], [fout("y", [2, 4])], [h.make_tensor("idx", T.INT64, [2, 2], [0, -1, 3, 1])])
save("scatternd_min_18", 18, [h.make_node("ScatterND", ["x", "idx", "upd"], ["y"], reduction="min")],
     [fin("x", [3, 4]), fin("upd", [2, 4])], [fout("y", [3, 4])], [h.make_tensor("idx", T.INT64, [2, 1], [2, 0])])
save("quantize_output_dtype_21", 21,
     [h.make_node("QuantizeLinear", ["x", "sc", "zp"], ["q"], output_dtype=T.UINT8),
      h.make_node("DequantizeLinear", ["q", "sc", "zp"], ["y"])],
     [fin("x", [2, 3])], [fout("y", [2, 3])], [f32("sc", [], [0.05]), h.make_tensor("zp", T.UINT8, [], [100])])
save("dequantize_output_dtype_23", 23,
     [h.make_node("DequantizeLinear", ["w", "sc"], ["wf"], output_dtype=T.FLOAT, axis=0), h.make_node("Add", ["x", "wf"], ["y"])],
     [fin("x", [2, 3])], [fout("y", [2, 3])],
     [h.make_tensor("w", T.INT8, [2, 3], [1, -2, 3, 100, -128, 0]), f32("sc", [2], [0.5, 0.25])])
# Versions that only widened the type lists, at their opset.
save("types_only_22", 22, [h.make_node("Cos", ["x"], ["c"]), h.make_node("Round", ["c"], ["r"]),
                           h.make_node("Elu", ["x"], ["e"]), h.make_node("Add", ["r", "e"], ["y"])],
     [fin("x", [2, 3])], [fout("y", [2, 3])])
save("types_only_24", 24, [h.make_node("TopK", ["x", "k"], ["y", "i"]), h.make_node("Flatten", ["y"], ["z"]),
                           h.make_node("IsNaN", ["z"], ["n"]), h.make_node("Not", ["n"], ["nn"]),
                           h.make_node("Cast", ["nn"], ["nf"], to=T.FLOAT), h.make_node("Mul", ["z", "nf"], ["w"])],
     [fin("x", [2, 5])], [fout("w", [2, 2])], [i64("k", [2])])
# Refused, with the reason.
save("bitwiseand_int64_18", 18, [h.make_node("BitwiseAnd", ["a", "b"], ["y"])],
     [v("a", T.INT64, [3]), v("b", T.INT64, [3])], [v("y", T.INT64, [3])])
save("scatterelements_max_18", 18, [h.make_node("ScatterElements", ["x", "idx", "upd"], ["y"], axis=1, reduction="max")],
     [fin("x", [2, 4])], [fout("y", [2, 4])],
     [h.make_tensor("idx", T.INT64, [2, 2], [0, 0, 3, 1]), f32("upd", [2, 2], [1, 2, 3, 4])])
# One model per op that the step refuses as a whole (the test checks each refused plan against its model).
S = T.STRING
save("refused_BitCast_26", 26, [h.make_node("BitCast", ["x"], ["y"], to=T.INT32)], [fin("x", [3])], [v("y", T.INT32, [3])])
save("cumprod_26", 26, [h.make_node("CumProd", ["x", "ax"], ["y"])], [fin("x", [2, 5])], [fout("y", [2, 5])],
     [h.make_tensor("ax", T.INT64, [], [1])])
save("cumprod_exclusive_reverse_26", 26, [h.make_node("CumProd", ["x", "ax"], ["y"], exclusive=1, reverse=1)],
     [fin("x", [4, 3])], [fout("y", [4, 3])], [h.make_tensor("ax", T.INT64, [], [-2])])
for opset in (19, 22):
    save("refused_DeformConv_%d" % opset, opset, [h.make_node("DeformConv", ["x", "w", "off"], ["y"], kernel_shape=[1, 1])],
         [fin("x", [1, 1, 2, 2]), fin("off", [1, 2, 2, 2])], [fout("y", [1, 1, 2, 2])], [f32("w", [1, 1, 1, 1], [1])])
save("refused_ImageDecoder_20", 20, [h.make_node("ImageDecoder", ["b"], ["y"])], [v("b", T.UINT8, [16])], [v("y", T.UINT8, None)])
save("refused_RegexFullMatch_20", 20, [h.make_node("RegexFullMatch", ["s"], ["y"], pattern="a.*")], [v("s", S, [2])],
     [v("y", T.BOOL, [2])])
save("refused_StringConcat_20", 20, [h.make_node("StringConcat", ["a", "b"], ["y"])], [v("a", S, [2]), v("b", S, [2])],
     [v("y", S, [2])])
save("refused_StringSplit_20", 20, [h.make_node("StringSplit", ["s"], ["y", "c"])], [v("s", S, [2])],
     [v("y", S, None), v("c", T.INT64, [2])])
save("resize_antialias_down_18", 18, [h.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear", antialias=1)],
     [fin("x", [1, 1, 4, 4])], [fout("y", [1, 1, 2, 2])], [f32("scales", [4], [1, 1, 0.5, 0.5])])
save("averagepool_dilated_19", 19, [h.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[2, 2])],
     [fin("x", [1, 3, 5, 6])], [fout("y", [1, 3, 3, 4])])
save("averagepool_dilated_padded_22", 22,
     [h.make_node("AveragePool", ["x"], ["y"], kernel_shape=[3], dilations=[2], pads=[1, 2], strides=[2], count_include_pad=1)],
     [fin("x", [2, 2, 9])], [fout("y", [2, 2, 4])])
save("averagepool_dilated_ceil_19", 19,
     [h.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[2, 2], ceil_mode=1, strides=[2, 2])],
     [fin("x", [1, 1, 6, 6])], [fout("y", [1, 1, 2, 2])])
save("dequantize_blocked_21", 21, [h.make_node("DequantizeLinear", ["w", "sc"], ["wf"], axis=1, block_size=2),
                                   h.make_node("Add", ["x", "wf"], ["y"])],
     [fin("x", [2, 4])], [fout("y", [2, 4])],
     [h.make_tensor("w", T.INT8, [2, 4], [1, 2, 3, 4, 5, 6, 7, 8]), f32("sc", [2, 2], [0.5, 0.25, 1, 2])])
save("col2im_18", 18, [h.make_node("Col2Im", ["x", "img", "blk"], ["y"])],
     [fin("x", [1, 4, 4])], [fout("y", [1, 1, 3, 3])], [i64("img", [3, 3]), i64("blk", [2, 2])])
save("col2im_strided_18", 18, [h.make_node("Col2Im", ["x", "img", "blk"], ["y"], strides=[2, 1], pads=[1, 0, 1, 1], dilations=[1, 2])],
     [fin("x", [2, 12, 12])], [fout("y", [2, 2, 5, 5])], [i64("img", [5, 5]), i64("blk", [3, 2])])
save("col2im_runtime_shape_18", 18, [h.make_node("Col2Im", ["x", "img", "blk"], ["y"])],
     [fin("x", [1, 4, 4]), v("img", T.INT64, [2])], [fout("y", None)], [i64("blk", [2, 2])])

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

# Constant weights whose DequantizeLinear form opset 17 lacks: blocked int4 with an int4 zero point, and float8.
save("dequantize_blocked_int4_21", 21,
     [h.make_node("DequantizeLinear", ["w4b", "sc", "zp4"], ["wf"], axis=1, block_size=2),
      h.make_node("MatMul", ["x", "wf"], ["y"])],
     [fin("x", [3, 2])], [fout("y", [3, 5])],
     [packed("w4b", 22, [2, 5], [v & 15 for v in [-8, -3, 0, 1, 7, -1, 5, 2, -5, 3]], 4),
      f32("sc", [2, 3], [0.5, 0.25, 1, 2, 0.125, 4]), packed("zp4", 22, [2, 3], [v & 15 for v in [1, 0, -1, 2, 0, -3]], 4)])
save("dequantize_float8_19", 19,
     [h.make_node("DequantizeLinear", ["w8", "sc"], ["wf"]), h.make_node("Add", ["x", "wf"], ["y"])],
     [fin("x", [2, 3])], [fout("y", [2, 3])], [packed("w8", 17, [2, 3], list(e4m3), 8), f32("sc", [], [0.5])])
save("quantize_int4_21", 21, [h.make_node("QuantizeLinear", ["x", "sc", "zp"], ["q"]), h.make_node("DequantizeLinear", ["q", "sc", "zp"], ["y"])],
     [fin("x", [2, 3])], [fout("y", [2, 3])], [f32("sc", [], [0.2]), packed("zp", 22, [], [1], 4)])
save("dequantize_blocked_runtime_21", 21,
     [h.make_node("Cast", ["xi"], ["x8"], to=T.INT8),
      h.make_node("DequantizeLinear", ["x8", "sc"], ["y"], axis=1, block_size=2)],
     [v("xi", T.INT32, [2, 4])], [fout("y", [2, 4])], [f32("sc", [2, 2], [0.5, 0.25, 1, 2])])

with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f)

# Chains whose intermediate shapes come only from op versions after 17 (no value_info): the second node's
# adapter needs the first one's output shape, which libonnx 1.12 cannot infer (shape facts for 18+ ops).
def sym(name, shape):
    return h.make_tensor_value_info(name, T.FLOAT, shape)


save("chain_mish_split_18", 18, [h.make_node("Mish", ["x"], ["m"]), h.make_node("Split", ["m"], ["a", "b"], axis=1, num_outputs=2)],
     [fin("x", [2, 6])], [fout("a", [2, 3]), fout("b", [2, 3])])
save("chain_symbolic_split_18", 18, [h.make_node("Mish", ["x"], ["m"]), h.make_node("Split", ["m"], ["a", "b", "c"], axis=1, num_outputs=3)],
     [sym("x", ["batch", 7])], [sym("a", ["batch", 3]), sym("b", ["batch", 3]), sym("c", ["batch", 1])])
save("chain_conv_groupnorm_split_21", 21,
     [h.make_node("Conv", ["x", "w"], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
      h.make_node("GroupNormalization", ["c", "s", "b"], ["g"], num_groups=2),
      h.make_node("Split", ["g"], ["y0", "y1"], axis=1, num_outputs=2)],
     [fin("x", [1, 2, 5, 5])], [fout("y0", [1, 2, 5, 5]), fout("y1", [1, 2, 5, 5])],
     [f32("w", [4, 2, 3, 3], np.sin(np.arange(72) * 0.7)), f32("s", [4], [1, 2, 0.5, -1]), f32("b", [4], [0, 0.1, 0.2, 0.3])])
save("chain_pad_centercroppad_18", 18,
     [h.make_node("Pad", ["x", "pads", "", "axes"], ["p"]), h.make_node("CenterCropPad", ["p", "shape"], ["y"], axes=[-1, 1])],
     [fin("x", [2, 3, 4])], [fout("y", [2, 2, 5])], [i64("pads", [1, 2]), i64("axes", [-1]), i64("shape", [5, 2])])
save("chain_resize_cumprod_26", 26,
     [h.make_node("Resize", ["x", "", "scales"], ["r"], mode="nearest", axes=[2, 3]),
      h.make_node("CumProd", ["r", "ax"], ["y"])],
     [fin("x", [1, 1, 2, 3])], [fout("y", [1, 1, 4, 6])],
     [f32("scales", [2], [2.0, 2.0]), h.make_tensor("ax", T.INT64, [], [3])])
save("chain_attention_split_23", 23,
     [h.make_node("Attention", ["q", "k", "v"], ["att"], q_num_heads=2, kv_num_heads=2),
      h.make_node("ReduceMean", ["att", "axes"], ["r"], keepdims=1),
      h.make_node("Split", ["r"], ["y0", "y1"], axis=2, num_outputs=2)],
     [fin("q", [1, 3, 8]), fin("k", [1, 4, 8]), fin("v", [1, 4, 8])], [fout("y0", [1, 1, 4]), fout("y1", [1, 1, 4])],
     [i64("axes", [1])])

# Values from the file that would make an adapter write out an enormous constant or loop for ever, now that shape
# facts reach them through 18+ ops: refused with the reason (the test converts each; none may crash or hang).
BIG = 2 ** 62
save("hostile_col2im_18", 18, [h.make_node("Mish", ["x"], ["m"]), h.make_node("Col2Im", ["m", "img", "blk"], ["y"])],
     [fin("x", [1, 4, 4])], [fout("y", None)], [i64("img", [BIG, BIG]), i64("blk", [BIG, BIG])])
save("hostile_pool_19", 19, [h.make_node("Mish", ["x"], ["m"]),
                             h.make_node("AveragePool", ["m"], ["y"], kernel_shape=[BIG], dilations=[BIG])],
     [fin("x", [1, 1, BIG])], [fout("y", None)])
save("hostile_attention_23", 23, [h.make_node("Mish", ["q"], ["m"]), h.make_node("Attention", ["m", "k", "v"], ["y"], is_causal=1)],
     [fin("q", [1, 1, 2 ** 40, 4]), fin("k", [1, 1, 2 ** 40, 4]), fin("v", [1, 1, 2 ** 40, 4])], [fout("y", None)])
save("hostile_split_18", 18, [h.make_node("Mish", ["x"], ["m"]), h.make_node("Split", ["m"], ["a", "b"], axis=0, num_outputs=10 ** 12)],
     [fin("x", [BIG, 2])], [fout("a", None), fout("b", None)])
