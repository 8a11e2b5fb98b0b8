"""Single-op fixtures: one OneFlow user op per graph, written as OneFlow records it (argument names, attribute
names and AttrValue cases), with its reference output from PyTorch / numpy.

Each entry gives the op's inputs as (arg, array, "input"|"variable"), its attributes, its outputs as
(arg, reference array) and the lowest opset the conversion claims. Fixtures named "*_error" expect the node to be
`failed` or `unsupported` with the given reason instead."""
import math

import numpy as np
import torch
import torch.nn.functional as F

from oneflow_job_builder import (JobBuilder, b, dtype, f32, f64, i32, i64, li32, li64, pb, s, shape)

R = np.random.RandomState(7)


def rnd(*shape_, lo=-2.0, hi=2.0):
    return R.uniform(lo, hi, size=shape_).astype(np.float32)


def T(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def N(t):
    return t.detach().numpy()


def one_op(op_type, inputs, outputs, attrs=None, min_opset=7, error=None, unused_outputs=()):
    def build(write):
        jb = JobBuilder("OpGraph")
        lbns = []
        for arg, arr, where in inputs:
            if where == "variable":
                lbn = jb.variable("model.%s_%d" % (arg, len(lbns)), "%s_%d" % (arg, len(lbns)), arr)
            else:
                lbn = jb.input(arr)
            lbns.append((arg, lbn))
        grouped = []
        for arg, lbn in lbns:  # variadic args: one entry with every lbn
            if grouped and grouped[-1][0] == arg:
                grouped[-1][1].append(lbn)
            else:
                grouped.append((arg, [lbn]))
        outs = [(arg, [ref]) for arg, ref in outputs] + [(arg, [ref]) for arg, ref in unused_outputs]
        produced = jb.user_op("model", op_type, grouped, outs, attrs or {})
        for (arg, ref), lbn in zip(outputs, produced):
            jb.output(lbn, ref)
        extra = {"op_type": op_type}
        if error:
            extra["error"] = error
        write(jb, min_opset=min_opset, kind="op", extra=extra)
    return build


def scalar_attrs(v):
    is_int = isinstance(v, int)
    return {"has_int_operand": b(is_int), "has_float_operand": b(not is_int), "int_operand": i64(v if is_int else 0),
            "float_operand": f64(0.0 if is_int else v)}


def pool_ref(x, kind, k, s_, pad, ceil=False, count_include_pad=True):
    if kind == "max":
        return N(F.max_pool2d(T(x), k, s_, pad, ceil_mode=ceil))
    return N(F.avg_pool2d(T(x), k, s_, pad, ceil_mode=ceil, count_include_pad=count_include_pad))


def fixtures():
    x = rnd(2, 3, 4, 5)
    pos = rnd(2, 3, 4, 5, lo=0.1, hi=3.0)
    unit = rnd(2, 3, 4, 5, lo=-0.9, hi=0.9)
    big = rnd(2, 3, 4, 5, lo=1.1, hi=3.0)
    y = rnd(3, 1, 5)
    ints_a = R.randint(-20, 20, size=(2, 6)).astype(np.int64)
    ints_b = R.randint(1, 7, size=(2, 6)).astype(np.int64) * np.where(R.rand(2, 6) < 0.5, -1, 1)
    xr, yr = np.round(x), np.round(rnd(3, 1, 5))
    bool_a, bool_b = R.rand(2, 3) < 0.5, R.rand(2, 3) < 0.5
    out = []

    def add(name, build):
        out.append(("op_" + name, build))

    tx = T(x)
    # activations
    for op in ("relu", "sigmoid", "sigmoid_v2", "tanh"):
        fn = {"relu": torch.relu, "sigmoid": torch.sigmoid, "sigmoid_v2": torch.sigmoid, "tanh": torch.tanh}[op]
        add(op, one_op(op, [("x", x, "input")], [("y", N(fn(tx)))]))
    add("elu", one_op("elu", [("in", x, "input")], [("out", N(F.elu(tx, 0.7)))], {"alpha": f64(0.7)}))
    add("leaky_relu", one_op("leaky_relu", [("x", x, "input")], [("y", N(F.leaky_relu(tx, 0.2)))], {"alpha": f32(0.2)}))
    add("softplus", one_op("softplus", [("in", x, "input")], [("out", N(F.softplus(tx, 2.0, 1.5)))],
                           {"beta": f64(2.0), "threshold": f64(1.5)}, min_opset=9))
    alpha = rnd(3, lo=0.0, hi=0.5)
    add("prelu", one_op("prelu", [("x", x, "input"), ("alpha", alpha, "variable")], [("y", N(F.prelu(tx, T(alpha))))]))
    add("hardswish", one_op("hardswish", [("in", x * 2, "input")], [("out", N(F.hardswish(T(x * 2))))]))
    add("hardsigmoid", one_op("hardsigmoid", [("in", x * 2, "input")], [("out", N(F.hardsigmoid(T(x * 2))))]))
    add("hardtanh", one_op("hardtanh", [("in", x, "input")], [("out", N(F.hardtanh(tx, -0.5, 0.8)))],
                           {"min_val": f64(-0.5), "max_val": f64(0.8)}))
    add("silu", one_op("silu", [("in", x, "input")], [("out", N(F.silu(tx)))]))
    add("mish", one_op("mish", [("in", x, "input")], [("out", N(F.mish(tx)))]))
    add("gelu", one_op("gelu", [("in", x, "input")], [("out", N(F.gelu(tx)))], min_opset=9))
    add("fast_gelu", one_op("fast_gelu", [("in", x, "input")], [("out", N(F.gelu(tx, approximate="tanh")))]))
    add("quick_gelu", one_op("quick_gelu", [("x", x, "input")], [("y", N(tx * torch.sigmoid(1.702 * tx)))]))
    add("softmax", one_op("softmax", [("in", x, "input")], [("out", N(torch.softmax(tx, -1)))]))
    for op, lo, hi, attrs in (("clip_by_scalar", -0.5, 0.5, {"floating_min": f64(-0.5), "floating_max": f64(0.5)}),
                              ("clip_by_scalar_min", -0.5, None, {"floating_min": f64(-0.5)}),
                              ("clip_by_scalar_max", None, 0.5, {"floating_max": f64(0.5)})):
        attrs.update({k: i64(0) for k in ("integral_min", "integral_max") if k.replace("integral", "floating") in attrs})
        add(op, one_op(op, [("x", x, "input")], [("y", N(torch.clamp(tx, lo, hi)))], attrs))

    # element-wise unary math
    unary = [("abs", x, torch.abs, 7), ("ceil", x, torch.ceil, 7), ("exp", x, torch.exp, 7), ("floor", x, torch.floor, 7),
             ("log", pos, torch.log, 7), ("neg", x, torch.neg, 7), ("sqrt", pos, torch.sqrt, 7),
             ("reciprocal", pos, torch.reciprocal, 7), ("acos", unit, torch.acos, 7), ("asin", unit, torch.asin, 7),
             ("atan", x, torch.atan, 7), ("cos", x, torch.cos, 7), ("sin", x, torch.sin, 7), ("tan", unit, torch.tan, 7),
             ("acosh", big, torch.acosh, 9), ("asinh", x, torch.asinh, 9), ("atanh", unit, torch.atanh, 9),
             ("cosh", x, torch.cosh, 9), ("sinh", x, torch.sinh, 9), ("erf", x, torch.erf, 9), ("sign", xr, torch.sign, 9),
             ("round", x * 3, torch.round, 11), ("square", x, torch.square, 7), ("rsqrt", pos, torch.rsqrt, 7)]
    for op, a, fn, m in unary:
        add(op, one_op(op, [("x", a, "input")], [("y", N(fn(T(a))))], min_opset=m))

    # broadcasting binaries
    ty = T(y)
    binaries = [("broadcast_add", torch.add, "z"), ("broadcast_sub", torch.sub, "z"), ("broadcast_mul", torch.mul, "z"),
                ("broadcast_div", torch.div, "z"), ("squared_difference", lambda p, q: (p - q) ** 2, "z")]
    for op, fn, o in binaries:
        add(op, one_op(op, [("x", x, "input"), ("y", y, "input")], [(o, N(fn(tx, ty)))]))
    for op, fn in (("broadcast_minimum", torch.minimum), ("broadcast_maximum", torch.maximum),
                   ("elementwise_minimum", torch.minimum), ("elementwise_maximum", torch.maximum)):
        other = y if op.startswith("broadcast") else pos
        add(op, one_op(op, [("x", x, "input"), ("y", other, "input")], [("z", N(fn(tx, T(other))))], min_opset=8))
    add("multiply", one_op("multiply", [("x", x, "input"), ("y", pos, "input")], [("out", N(tx * T(pos)))]))
    sc = np.array([1.75], dtype=np.float32)
    for op, fn in (("scalar_add_by_tensor", torch.add), ("scalar_sub_by_tensor", torch.sub),
                   ("scalar_mul_by_tensor", torch.mul), ("scalar_div_by_tensor", torch.div)):
        add(op, one_op(op, [("x", x, "input"), ("scalar", sc, "input")], [("y", N(fn(tx, T(sc))))]))
    add("broadcast_floor_mod", one_op("broadcast_floor_mod", [("x", x * 3, "input"), ("y", y + 3, "input")],
                                      [("z", N(torch.remainder(T(x * 3), T(y + 3))))]))
    add("broadcast_floor_mod_int", one_op("broadcast_floor_mod", [("x", ints_a, "input"), ("y", ints_b, "input")],
                                          [("z", N(torch.remainder(T(ints_a), T(ints_b))))], min_opset=10))
    for op, v, fn in (("scalar_add", 2.5, lambda t: t + 2.5), ("scalar_mul", -1.5, lambda t: t * -1.5),
                      ("scalar_div", 4.0, lambda t: t / 4.0), ("scalar_pow", 2, lambda t: t ** 2)):
        add(op, one_op(op, [("in", x, "input")], [("out", N(fn(tx)))], scalar_attrs(v)))
    add("scalar_pow_float", one_op("scalar_pow", [("in", pos, "input")], [("out", N(T(pos) ** 1.5))], scalar_attrs(1.5)))
    add("scalar_logical_less", one_op("scalar_logical_less", [("in", x, "input")], [("out", N(tx < 0.25))],
                                      scalar_attrs(0.25)))
    add("scalar_logical_greater", one_op("scalar_logical_greater", [("in", x, "input")], [("out", N(tx > 0.25))],
                                         scalar_attrs(0.25)))
    add("add_n", one_op("add_n", [("in", x, "input"), ("in", pos, "input"), ("in", unit, "input")],
                        [("out", x + pos + unit)], min_opset=8))
    bias = rnd(3)
    add("bias_add", one_op("bias_add", [("a", x, "input"), ("b", bias, "variable")],
                           [("out", x + bias.reshape(3, 1, 1))], {"axis": i32(1)}))

    # comparisons and logic
    txr, tyr = T(xr), T(yr)
    for op, fn, m in (("broadcast_equal", torch.eq, 11), ("broadcast_not_equal", torch.ne, 11),
                      ("broadcast_greater", torch.gt, 9), ("broadcast_less", torch.lt, 9),
                      ("broadcast_greater_equal", torch.ge, 9), ("broadcast_less_equal", torch.le, 9)):
        add(op, one_op(op, [("x", xr, "input"), ("y", yr, "input")], [("z", N(fn(txr, tyr)))], min_opset=m))
    add("logical_not", one_op("logical_not", [("x", bool_a, "input")], [("y", ~bool_a)]))
    add("logical_not_float", one_op("logical_not", [("x", xr, "input")], [("y", xr == 0)]))
    add("broadcast_logical_and", one_op("broadcast_logical_and", [("x", bool_a, "input"), ("y", bool_b, "input")],
                                        [("z", bool_a & bool_b)]))
    add("broadcast_logical_or", one_op("broadcast_logical_or", [("x", bool_a, "input"), ("y", bool_b, "input")],
                                       [("z", bool_a | bool_b)]))

    # matrix products
    a2, w2 = rnd(4, 5), rnd(6, 5)
    mm = {"transpose_a": b(False), "transpose_b": b(True), "alpha": f64(0.5)}
    add("matmul", one_op("matmul", [("a", a2, "input"), ("b", w2, "variable")], [("out", 0.5 * a2 @ w2.T)], mm))
    at = rnd(5, 4)
    add("matmul_transpose_a", one_op("matmul", [("a", at, "input"), ("b", rnd(5, 3) * 0 + w2.T[:, :3], "input")],
                                     [("out", at.T @ w2.T[:, :3])],
                                     {"transpose_a": b(True), "transpose_b": b(False), "alpha": f64(1.0)}))
    a3, b3 = rnd(2, 4, 5), rnd(2, 5, 3)
    plain = {"transpose_a": b(False), "transpose_b": b(False), "alpha": f64(1.0)}
    add("batch_matmul", one_op("batch_matmul", [("a", a3, "input"), ("b", b3, "input")], [("out", a3 @ b3)], plain))
    b2 = rnd(5, 3)
    add("broadcast_matmul", one_op("broadcast_matmul", [("a", a3, "input"), ("b", b2, "variable")], [("out", a3 @ b2)], plain))
    bias6 = rnd(6)
    add("fused_matmul_bias", one_op("fused_matmul_bias", [("x", a2, "input"), ("weight", w2, "variable"),
                                                           ("bias", bias6, "variable")], [("out", a2 @ w2.T + bias6)]))
    w_b, b_b = rnd(3, 6), rnd(3)
    h1 = np.maximum(a2 @ w2.T + bias6, 0)
    add("cublas_fused_mlp", one_op("cublas_fused_mlp", [("x", a2, "input"), ("weights", w2, "variable"),
                                                         ("weights", w_b, "variable"), ("biases", bias6, "variable"),
                                                         ("biases", b_b, "variable")],
                                   [("out", h1 @ w_b.T + b_b)], {"skip_final_activation": b(True)}))
    seq, batch, heads, hd = 4, 2, 2, 3
    hs = rnd(seq, batch, heads * 3 * hd)
    r = hs.reshape(seq, batch, heads, 3 * hd).transpose(1, 2, 0, 3)
    q, k, v = r[..., :hd], r[..., hd:2 * hd], r[..., 2 * hd:]
    add("fused_self_attention_query_mul_key_and_value", one_op(
        "fused_self_attention_query_mul_key_and_value", [("hidden_states", hs, "input")],
        [("query_mul_key", (0.5 * q @ k.transpose(0, 1, 3, 2)).astype(np.float32)), ("value", np.ascontiguousarray(v))],
        {"head_size": i64(hd), "alpha": f32(0.5)}))
    xs, bs = rnd(2, 3, 4), rnd(4)
    mask = R.rand(2, 3, 4) < 0.7
    sm = N(torch.softmax(torch.where(T(mask), (T(xs) + T(bs)) * 0.5, torch.tensor(-1e4)), -1))
    add("fused_bias_add_scale_mask_softmax_dropout", one_op(
        "fused_bias_add_scale_mask_softmax_dropout",
        [("x", xs, "input"), ("bias", bs, "variable"), ("mask", mask, "input"), ("dropout_mask", np.ones_like(mask), "input")],
        [("y", sm), ("softmax_y", sm)],
        {"scale_value": f32(0.5), "mask_fill_value": f32(-1e4), "dropout_scale_value": f32(1.0)}, min_opset=9))

    # shape and data movement
    add("reshape", one_op("reshape", [("in", x, "input")], [("out", x.reshape(6, 20))], {"shape": shape([6, 20])}, min_opset=5))
    add("flatten", one_op("flatten", [("in", x, "input")], [("out", x.reshape(2, 12, 5))],
                          {"start_dim": i32(1), "end_dim": i32(2)}, min_opset=5))
    add("flatten_from_0", one_op("flatten", [("in", x, "input")], [("out", x.reshape(-1))],
                                 {"start_dim": i32(0), "end_dim": i32(-1)}, min_opset=5))
    xq = rnd(2, 1, 3, 1)
    add("squeeze", one_op("squeeze", [("in", xq, "input")], [("out", xq.reshape(2, 3, 1))], {"axes": li32([1])}))
    add("expand_dims", one_op("expand_dims", [("in", x, "input")], [("out", x[..., None])], {"axis": i32(-1)}))
    xe = rnd(3, 1)
    add("expand", one_op("expand", [("in", xe, "input")], [("out", np.broadcast_to(xe, (2, 3, 4)).copy())],
                         {"expand_shape": shape([2, 3, 4])}, min_opset=8))
    add("transpose", one_op("transpose", [("input", x, "input")], [("output", x.transpose(0, 2, 3, 1).copy())],
                            {"perm": li32([0, 2, 3, 1])}))
    for op in ("concat", "cat"):
        add(op, one_op(op, [("in", x, "input"), ("in", pos, "input")], [("out", np.concatenate([x, pos], 1))],
                       {"axis": i64(1), "max_dim_size": i64(6)}))
    add("slice", one_op("slice", [("x", x, "input")], [("y", x[:, 1:3, ::2, 1:4].copy())],
                        {"start": li64([0, 1, 0, 1]), "stop": li64([2, 3, 4, 4]), "step": li64([1, 1, 2, 1])}, min_opset=10))
    add("slice_unit_steps", one_op("slice", [("x", x, "input")], [("y", x[:, 1:3, :, 1:4].copy())],
                                   {"start": li64([0, 1, 0, 1]), "stop": li64([2, 3, 4, 4]), "step": li64([1, 1, 1, 1])}))
    add("narrow", one_op("narrow", [("in", x, "input")], [("out", x[:, :, 1:3].copy())],
                         {"dim": i64(2), "start": i64(1), "length": i64(2)}))
    padded = np.pad(x, [(0, 0), (0, 0), (1, 2), (2, 1)], constant_values=0.5)
    add("pad", one_op("pad", [("x", x, "input")], [("y", padded)],
                      {"padding_before": li64([0, 0, 1, 2]), "padding_after": li64([0, 0, 2, 1]),
                       "padding": li64([2, 1, 1, 2]), "floating_constant_value": f64(0.5), "integral_constant_value": i64(0)}))
    add("upsample_nearest_2d", one_op("upsample_nearest_2d", [("x", x, "input")],
                                      [("y", N(F.interpolate(tx, scale_factor=2, mode="nearest")))],
                                      {"height_scale": f64(2.0), "width_scale": f64(2.0), "output_size": li64([]),
                                       "data_format": s("channels_first")}, min_opset=9))
    add("upsample_nearest_2d_size", one_op("upsample_nearest_2d", [("x", x, "input")],
                                           [("y", N(F.interpolate(tx, size=(6, 7), mode="nearest")))],
                                           {"height_scale": f64(0.0), "width_scale": f64(0.0), "output_size": li64([6, 7]),
                                            "data_format": s("channels_first")}, min_opset=9))
    table, idx = rnd(5, 4), np.array([4, 0, 2], dtype=np.int64)
    add("gather", one_op("gather", [("in", table, "input"), ("indices", idx, "input")], [("out", table[idx])], {"axis": i64(0)}))
    nd_idx = np.array([[0, 1], [4, 3]], dtype=np.int64)
    add("gather_nd", one_op("gather_nd", [("params", table, "input"), ("indices", nd_idx, "input")],
                            [("out", table[nd_idx[:, 0], nd_idx[:, 1]])], min_opset=11))
    cond = R.rand(2, 3, 4, 5) < 0.5
    add("where", one_op("where", [("condition", cond, "input"), ("x", x, "input"), ("y", pos, "input")],
                        [("out", np.where(cond, x, pos))], min_opset=9))
    add("cast", one_op("cast", [("in", x, "input")], [("out", x.astype(np.float64))],
                       {"dtype": dtype(pb.kDouble), "pin_memory": b(False)}, min_opset=6))
    for op in ("identity", "amp_white_identity", "amp_black_identity"):
        add(op, one_op(op, [("in", x, "input")], [("out", x)]))

    def distribute(write):  # the four single-device distribute ops in a chain
        jb = JobBuilder("OpGraph")
        lbn = jb.input(x)
        kinds = ("distribute_split", "distribute_clone", "distribute_add", "distribute_concat")
        for kind in kinds:
            lbn = jb.distribute_op(kind, lbn, x)
        jb.output(lbn, x)
        write(jb, kind="op", extra={"op_type": "distribute_split", "op_types": list(kinds)})

    add("distribute", distribute)

    # tensors made by ops
    add("constant", one_op("constant", [], [("out", np.full((2, 3), 1.5, np.float32))],
                           {"floating_value": f64(1.5), "integer_value": i64(0), "is_floating_value": b(True),
                            "dtype": dtype(pb.kFloat), "shape": shape([2, 3])}))
    add("fill_", one_op("fill_", [("in", x, "input")], [("out", np.full_like(x, 2.0))],
                        {"floating_value": f64(2.0), "integral_value": i64(0), "is_floating_value": b(True)}))
    add("arange", one_op("arange", [], [("out", np.arange(1, 9, 2, dtype=np.int64))],
                         {"integer_start": i64(1), "integer_delta": i64(2), "integer_limit": i64(9), "float_start": f64(0),
                          "float_delta": f64(0), "float_limit": f64(0), "dtype": dtype(pb.kInt64)}, min_opset=11))

    # normalization
    xb = rnd(2, 3, 4, 5)
    mean, var, gamma, beta = rnd(3), rnd(3, lo=0.5, hi=1.5), rnd(3, lo=0.5, hi=1.5), rnd(3)
    bn = N(F.batch_norm(T(xb), T(mean), T(var), T(gamma), T(beta), False, 0.1, 1e-5))
    bn_in = [("x", xb, "input"), ("moving_mean", mean, "variable"), ("moving_variance", var, "variable"),
             ("gamma", gamma, "variable"), ("beta", beta, "variable")]
    bn_attrs = {"axis": i32(1), "epsilon": f32(1e-5), "training": b(False), "momentum": f32(0.9)}
    add("normalization", one_op("normalization", bn_in, [("y", bn)], bn_attrs))
    add("normalization_training_error", one_op("normalization", bn_in, [("y", bn)], dict(bn_attrs, training=b(True)),
                                               error="training=true"))
    xl, gl, bl = rnd(2, 3, 8), rnd(8, lo=0.5, hi=1.5), rnd(8)
    ln = N(F.layer_norm(T(xl), (8,), T(gl), T(bl), 1e-5))
    stat = np.zeros((2, 3), np.float32)
    add("layer_norm", one_op("layer_norm", [("x", xl, "input"), ("gamma", gl, "variable"), ("beta", bl, "variable")],
                             [("y", ln)], {"center": b(True), "scale": b(True), "begin_norm_axis": i64(2),
                                           "begin_params_axis": i64(2), "epsilon": f64(1e-5)},
                             unused_outputs=[("mean", stat), ("inv_variance", stat)]))
    rms = xl / np.sqrt((xl ** 2).mean(-1, keepdims=True) + 1e-6) * gl
    add("rms_norm", one_op("rms_norm", [("x", xl, "input"), ("weight", gl, "variable")], [("y", rms)],
                           {"normalized_shape": shape([8]), "epsilon": f32(1e-6)}, unused_outputs=[("inv_rms", stat)]))
    add("rms_layer_norm", one_op("rms_layer_norm", [("hidden_states", xl, "input"), ("weight", gl, "variable")],
                                 [("y", rms)], {"epsilon": f32(1e-6)}))

    # convolution and pooling
    x1, w1 = rnd(1, 2, 10), rnd(4, 2, 3)
    add("conv1d", one_op("conv1d", [("in", x1, "input"), ("weight", w1, "variable")],
                         [("out", N(F.conv1d(T(x1), T(w1), padding=1, stride=2)))],
                         {"filters": i32(4), "padding_before": li32([1]), "data_format": s("channels_first"),
                          "kernel_size": li32([3]), "strides": li32([2]), "dilation_rate": li32([1]), "groups": i32(1)}))
    xc, wc, bc = rnd(1, 4, 9, 9), rnd(6, 2, 3, 3), rnd(6)
    add("conv2d", one_op("conv2d", [("in", xc, "input"), ("weight", wc, "variable"), ("bias", bc, "variable")],
                         [("out", N(F.conv2d(T(xc), T(wc), T(bc), stride=2, padding=2, dilation=2, groups=2)))],
                         {"filters": i32(6), "padding_before": li32([2, 2]), "data_format": s("channels_first"),
                          "kernel_size": li32([3, 3]), "strides": li32([2, 2]), "dilation_rate": li32([2, 2]),
                          "groups": i32(2), "tuning_cache": s("")}))
    xp = rnd(1, 3, 9, 10)
    idx_zero = np.zeros((1, 3, 5, 5), np.int64)
    pt = {"data_format": s("channels_first"), "kernel_size": li32([3, 3]), "stride": li32([2, 2]), "padding": li32([1, 1])}
    add("max_pool_2d", one_op("max_pool_2d", [("x", xp, "input")], [("y", pool_ref(xp, "max", 3, 2, 1, ceil=True))],
                              dict(pt, dilation=li32([1, 1]), return_indices=b(False), ceil_mode=b(True)),
                              unused_outputs=[("indice", idx_zero)]))
    add("maxpool_2d", one_op("maxpool_2d", [("x", xp, "input")], [("y", pool_ref(xp, "max", 3, 2, 1))],
                             dict(pt, dilation=li32([1, 1]), return_indices=b(False), ceil_mode=b(False)),
                             unused_outputs=[("indice", idx_zero)]))
    avg_attrs = dict(pt, ceil_mode=b(False), count_include_pad=b(False), divisor_override=i32(0))
    for op in ("avg_pool_2d", "avgpool_2d"):
        add(op, one_op(op, [("x", xp, "input")], [("y", pool_ref(xp, "avg", 3, 2, 1, count_include_pad=False))], avg_attrs))
    add("avg_pool_2d_ceil", one_op("avg_pool_2d", [("x", xp, "input")],
                                   [("y", pool_ref(xp, "avg", 3, 2, 1, ceil=True, count_include_pad=True))],
                                   dict(avg_attrs, ceil_mode=b(True), count_include_pad=b(True)), min_opset=10))
    tf = {"data_format": s("channels_first"), "pool_size": li32([2, 3]), "strides": li32([2, 2]), "padding": s("customized"),
          "padding_before": li32([1, 1]), "padding_after": li32([0, 0]), "ceil_mode": b(False)}
    padded_neg = N(F.pad(T(xp), (1, 0, 1, 0), value=-np.inf))
    add("tf_max_pool_2d", one_op("tf_max_pool_2d", [("x", xp, "input")], [("y", N(F.max_pool2d(T(padded_neg), (2, 3), 2)))], tf))
    tf_valid = dict(tf, padding=s("valid"), padding_before=li32([0, 0]))
    add("tf_avg_pool_2d", one_op("tf_avg_pool_2d", [("x", xp, "input")], [("y", N(F.avg_pool2d(T(xp), (2, 3), 2)))], tf_valid))
    xa = rnd(1, 3, 8, 6)
    add("adaptive_avg_pool2d", one_op("adaptive_avg_pool2d", [("x", xa, "input")],
                                      [("y", N(F.adaptive_avg_pool2d(T(xa), (2, 3))))],
                                      {"output_size": li64([2, 3]), "data_format": s("channels_first")}))
    add("adaptive_avg_pool2d_indivisible_error", one_op(
        "adaptive_avg_pool2d", [("x", xa, "input")], [("y", N(F.adaptive_avg_pool2d(T(xa), (3, 4))))],
        {"output_size": li64([3, 4]), "data_format": s("channels_first")}, error="not a multiple"))

    # reductions
    xv = rnd(2, 3, 4)
    add("var", one_op("var", [("input", xv, "input")], [("output", N(torch.var(T(xv), (1, 2), unbiased=True)))],
                      {"dim": li32([1, 2]), "unbiased": b(True), "keepdim": b(False), "dtype": dtype(pb.kFloat)}))
    for op, fn in (("reduce_sum", np.sum), ("reduce_min", np.min), ("reduce_max", np.max), ("reduce_prod", np.prod),
                   ("reduce_mean", np.mean)):
        add(op, one_op(op, [("input_tensor", xv, "input")], [("output_tensor", fn(xv, axis=(0, 2), keepdims=True))],
                       {"axis": li32([0, -1]), "keepdims": b(True)}))
    add("argmax", one_op("argmax", [("in", xv, "input")], [("out", xv.argmax(-1))]))
    add("argmin", one_op("argmin", [("in", xv, "input")], [("out", xv.argmin(-1))]))

    # quantization
    wq = rnd(4, 3)
    s_sym = np.array([np.abs(wq).max() / 127.0], np.float32)
    add("min_max_observer", one_op("min_max_observer", [("in", wq, "variable")],
                                   [("scale", s_sym), ("zero_point", np.zeros(1, np.float32))],
                                   {"quantization_formula": s("google"), "quantization_bit": i32(8),
                                    "quantization_scheme": s("symmetric"), "per_layer_quantization": b(True)}, min_opset=10))
    s_aff = np.array([(wq.max() - wq.min()) / 255.0], np.float32)
    add("min_max_observer_affine", one_op("min_max_observer", [("in", wq, "variable")],
                                          [("scale", s_aff), ("zero_point", -np.round(np.array([wq.min()], np.float32) / s_aff))],
                                          {"quantization_formula": s("google"), "quantization_bit": i32(8),
                                           "quantization_scheme": s("affine"), "per_layer_quantization": b(True)},
                                          min_opset=11))
    mmax, mmin = np.array([2.5], np.float32), np.array([-1.0], np.float32)
    add("moving_average_min_max_observer", one_op(
        "moving_average_min_max_observer",
        [("in", x, "input"), ("current_train_step", np.array([100], np.int64), "variable"),
         ("moving_max", mmax, "variable"), ("moving_min", mmin, "variable")],
        [("scale", mmax / 127.0), ("zero_point", np.zeros(1, np.float32))],
        {"training": b(False), "quantization_formula": s("google"), "quantization_bit": i32(8),
         "quantization_scheme": s("symmetric"), "momentum": f32(0.95), "stop_update_after_iters": i64(1)}, min_opset=10))
    scale = np.array([0.02], np.float32)
    fq = (np.clip(np.round(x / scale), -128, 127) * scale).astype(np.float32)
    add("fake_quantization", one_op("fake_quantization", [("in", x, "input"), ("scale", scale, "variable"),
                                                          ("zero_point", np.zeros(1, np.float32), "variable")],
                                    [("out", fq)], {"quantization_formula": s("google"), "quantization_bit": i32(8),
                                                    "quantization_scheme": s("symmetric")}, min_opset=10))
    return out
