#!/usr/bin/python3
"""Writes the bad-input suite: small ONNX and OneFlow files that once crashed, hung, exhausted memory or were
accepted although invalid (issue 11), plus the earlier cases of test_cli_bad_inputs.cpp.

    make_bad_inputs.py --out DIR

DIR/<case>/ holds each case's files; DIR/cases.json lists, per case, the path to give flowbridge-cli, a word the
error must contain (when one is known), and whether inspect/render may read it (graphs that are readable but fail
the checker: a summary or a picture of them is what those commands are for). run_bad_inputs.py runs them.
Call with /usr/bin/python3 (Debian's onnx, numpy and protobuf)."""
import argparse
import json
import os
import shutil
import stat
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "oneflow"))

CASES = []


def case(name, path, reason=None, readable=False, commands=None, valid=False, converts_leaving=None):
    """Which commands may succeed (exit 0): readable: inspect, render and diff (a well-formed graph that fails the
    checker: showing it is their job; diff compares the model with itself, so 0 is its only success); valid: every command (a valid model whose danger is time or memory). `check` never
    may: for OneFlow attributes that only a built node shows, it builds the result as `convert` does (exit 3).
    converts_leaving: `convert` must succeed and its report must contain this text (what it refused to do)."""
    may_pass = (["inspect", "check", "convert", "render", "run", "diff", "edit"] if valid else
                (["inspect", "render", "run", "diff"] if readable else []))
    CASES.append({"name": name, "path": path, "reason": reason, "may_pass": may_pass,
                  "commands": commands or ["inspect", "check", "convert", "render", "run", "diff", "edit"],
                  "converts_leaving": converts_leaving})


def model(nodes, inputs, outputs, inits=(), opset=13, value_info=(), ir=8, extra_opsets=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits), value_info=list(value_info))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)] + list(extra_opsets),
                          producer_name="bad_inputs")
    m.ir_version = ir
    return m


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def save(d, name, m, file="model.onnx"):
    os.makedirs(os.path.join(d, name), exist_ok=True)
    p = os.path.join(d, name, file)
    with open(p, "wb") as f:
        f.write(m.SerializeToString() if not isinstance(m, bytes) else m)
    return p


# ---- code generation: hostile names (security issue, points 1, 2 and 6) -------------------------------------------
# Valid models whose names are 100k characters long (std::regex recursed on them until the stack overflowed:
# SIGSEGV in `check --to pytorch` and `convert --to pytorch|oneflow`) or break lines in generated code. The
# commands are the code targets (run_bad_inputs.py code_target_args); exit 0 is allowed: the models are valid.
CODE_TARGET_COMMANDS = ["check-pytorch", "convert-pytorch", "convert-oneflow"]


def codegen_name_cases(d):
    def code_case(name, m, file="model.onnx"):
        p = save(d, name, m, file)
        CASES.append({"name": name, "path": p, "reason": None, "may_pass": CODE_TARGET_COMMANDS + ["run"],
                      "commands": CODE_TARGET_COMMANDS + ["run"]})
    long = 100000
    w = numpy_helper.from_array(np.ones((2, 2), np.float32), "w" * long)
    for label, value in (("letters", "a" * long), ("op output", "/" + "Conv" * (long // 4) + "_output_0"),
                         ("onnx scope", "onnx::" + "C" * long),
                         ("scopes", "/".join(["layer"] * (long // 6)) + "/Relu_output_0")):
        m = model([helper.make_node("Add", ["x", "w" * long], [value], name=value),
                   helper.make_node("Relu", [value], ["y"], name="n" * long)],
                  [f32("x", [2, 2])], [f32("y", [2, 2])], inits=[w])
        m.graph.name = "g" * long
        code_case("codegen 100k-character names, " + label, m)
    payload = "x\n        open('PWNED','w')\n#"
    m = model([helper.make_node("Relu", [payload], ["y\r\n#"], name="n\u2028\x00")],
              [f32(payload, ["N\n'''"])], [f32("y\r\n#", None)])
    code_case("codegen line breaks in names", m, file="model\n        open('PWNED','w')\n#.onnx")


def onnx_cases(d, corpus):
    # --- the cases test_cli_bad_inputs.cpp had ---
    case("empty_file", save(d, "empty_file", b""), "empty")
    with open(os.path.join(corpus, "models", "squeezenet1_0_op11.onnx"), "rb") as f:
        full = f.read()
    case("corpus_cut_in_half", save(d, "corpus_cut_in_half", full[:len(full) // 2]), "truncated or corrupt")
    rng = np.random.default_rng(1234)
    case("random_bytes", save(d, "random_bytes", rng.integers(0, 256, 65536, dtype=np.uint8).tobytes()), "not")
    case("one_truncated_varint", save(d, "one_truncated_varint", b"\x08\xff"), None)

    def ext_model(location, n=4, offset=None, length=None, dims=None):
        t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=dims if dims is not None else [n])
        t.data_location = TensorProto.EXTERNAL
        e = t.external_data.add()
        e.key, e.value = "location", location
        if offset is not None:
            e = t.external_data.add()
            e.key, e.value = "offset", str(offset)
        if length is not None:
            e = t.external_data.add()
            e.key, e.value = "length", str(length)
        shp = t.dims
        return model([helper.make_node("Relu", ["w"], ["y"])], [], [f32("y", list(shp))], [t])

    os.makedirs(os.path.join(d, "external_dotdot", "nested", "deeper"), exist_ok=True)
    case("external_dotdot", save(d, "external_dotdot/nested/deeper", ext_model("../../etc/passwd")),
         "outside the model's folder")
    case("external_absolute", save(d, "external_absolute", ext_model("/etc/passwd")), "absolute")
    p = save(d, "external_symlink_out", ext_model("w.bin"))
    os.symlink("/etc/passwd", os.path.join(d, "external_symlink_out", "w.bin"))
    case("external_symlink_out", p, "outside the model's folder")
    case("external_missing", save(d, "external_missing", ext_model("w.bin")), "does not exist")
    p = save(d, "external_fifo", ext_model("w.bin"))
    os.mkfifo(os.path.join(d, "external_fifo", "w.bin"))
    case("external_fifo", p, "regular file")
    p = save(d, "external_is_folder", ext_model("w.bin"))
    os.mkdir(os.path.join(d, "external_is_folder", "w.bin"))
    case("external_is_folder", p, None)

    def side(name, nbytes):
        with open(os.path.join(d, name, "w.bin"), "wb") as f:
            f.write(b"\0" * nbytes)

    # offset past the end with no length: size - offset wrapped to 18446744073709551580.
    p = save(d, "external_offset_past_end", ext_model("w.bin", n=16, offset=100))
    side("external_offset_past_end", 64)
    case("external_offset_past_end", p, "past the end")
    # ... and dims whose byte count wraps to exactly that figure, so that every check passed.
    p = save(d, "external_wrapped_size", ext_model("w.bin", offset=100, dims=[2 ** 62 - 9]))
    side("external_wrapped_size", 64)
    case("external_wrapped_size", p, None)
    p = save(d, "external_range_wraps", ext_model("w.bin", offset=2 ** 63 - 1, length=2 ** 63 - 1, dims=[4]))
    side("external_range_wraps", 64)
    case("external_range_wraps", p, None)
    p = save(d, "external_negative_length", ext_model("w.bin", length=-5))
    side("external_negative_length", 16)
    case("external_negative_length", p, None)
    p = save(d, "external_negative_offset", ext_model("w.bin", offset=-8, length=16))
    side("external_negative_offset", 16)
    case("external_negative_offset", p, None)
    p = save(d, "external_offset_not_number", ext_model("w.bin", offset="12abc"))
    side("external_offset_not_number", 64)
    case("external_offset_not_number", p, "number")

    cyc = model([helper.make_node("Relu", ["b"], ["a"], name="n1"), helper.make_node("Relu", ["a"], ["b"], name="n2")],
                [], [f32("a", [1])])
    case("cycle", save(d, "cycle", cyc), "cycle")
    und = model([helper.make_node("Relu", ["ghost"], ["y"])], [f32("x", [1])], [f32("y", [1])])
    case("undefined_input", save(d, "undefined_input", und), "'ghost'")
    case("missing_file", os.path.join(d, "missing_file", "does-not-exist.onnx"), "no such file")
    os.makedirs(os.path.join(d, "empty_folder", "inside"), exist_ok=True)
    case("empty_folder", os.path.join(d, "empty_folder"), "folder")
    os.makedirs(os.path.join(d, "fifo_model"), exist_ok=True)
    os.mkfifo(os.path.join(d, "fifo_model", "model.onnx"))
    case("fifo_model", os.path.join(d, "fifo_model", "model.onnx"), "regular file")
    os.mkfifo(os.path.join(d, "fifo_model", "job.pb"))
    case("fifo_job_pb", os.path.join(d, "fifo_model", "job.pb"), "regular file")
    case("dev_zero", "/dev/zero", "regular file")

    # --- crashes in shape arithmetic and inside libonnx ---
    case("shape_without_input", save(d, "shape_without_input", model(
        [helper.make_node("Shape", [], ["s"]), helper.make_node("Relu", ["s"], ["y"])], [], [
            helper.make_tensor_value_info("y", TensorProto.INT64, [None])])), None, readable=True)
    scan = helper.make_node("Scan", ["x"], ["y"], num_scan_inputs=1)
    case("scan_without_body", save(d, "scan_without_body", model([scan], [f32("x", [2, 3])], [f32("y", [2, 3])])),
         None, readable=True)
    loop = helper.make_node("Loop", ["", "c"], ["y"])
    case("loop_without_body", save(d, "loop_without_body", model(
        [loop], [helper.make_tensor_value_info("c", TensorProto.BOOL, [])], [f32("y", [None])])), None, readable=True)
    iff = helper.make_node("If", ["c"], ["y"])
    case("if_without_branches", save(d, "if_without_branches", model(
        [iff], [helper.make_tensor_value_info("c", TensorProto.BOOL, [])], [f32("y", [1])])), None, readable=True)
    d2s = helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2 ** 40)
    case("depth_to_space_huge_blocksize", save(d, "depth_to_space_huge_blocksize", model(
        [d2s], [f32("x", [1, 8, 2, 2])], [f32("y", [1, 2, 4, 4])])), None, readable=True)
    d2s0 = helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=0)
    case("depth_to_space_blocksize_0", save(d, "depth_to_space_blocksize_0", model(
        [d2s0], [f32("x", [1, 8, 2, 2])], [f32("y", [1, 8, 2, 2])])), None, readable=True)
    s2d = helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2 ** 33)
    case("space_to_depth_huge_blocksize", save(d, "space_to_depth_huge_blocksize", model(
        [s2d], [f32("x", [1, 8, 2, 2])], [f32("y", [1, 8, 2, 2])])), None, readable=True)
    # libonnx 1.12's ConvTranspose inference reads W's spatial dims as the kernel and indexes them by X's axes
    # (found by fuzz_codegen: a weight of rank 2 under an input of rank 4 was a SIGSEGV in every command).
    ct = helper.make_node("ConvTranspose", ["x", "w"], ["y"])
    case("conv_transpose_weight_rank_2", save(d, "conv_transpose_weight_rank_2", model(
        [ct], [f32("x", [1, 1, 3, 3]), f32("w", [3, 3])], [f32("y", [1, 2, 5, 5])])), None, readable=True)
    case("conv_transpose_input_rank_above_weight", save(d, "conv_transpose_input_rank_above_weight", model(
        [ct], [f32("x", [1, 1, 3, 3, 3]), f32("w", [1, 1, 3, 3])], [f32("y", [1, 1, 5, 5, 5])])), None, readable=True)
    unsq = helper.make_node("Unsqueeze", ["x", "axes"], ["x5"])
    ct5 = helper.make_node("ConvTranspose", ["x5", "w"], ["y"])
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [4])
    case("conv_transpose_input_rank_inferred", save(d, "conv_transpose_input_rank_inferred", model(
        [unsq, ct5], [f32("x", [1, 1, 3, 3]), f32("w", [1, 1, 3, 3])], [f32("y", [1, 1, 5, 5, 3])], inits=[axes])),
         None, readable=True)
    relu2 = helper.make_node("Relu", ["a", "b"], ["y"])  # was a MatMul
    case("matmul_retyped_to_relu", save(d, "matmul_retyped_to_relu", model(
        [relu2], [f32("a", [2, 3]), f32("b", [3, 4])], [f32("y", [2, 4])])), None, readable=True)
    w = numpy_helper.from_array(np.ones([2, 3, 4], np.float32), "w")
    for nm, node in [
        ("gather_axis_out_of_range", helper.make_node("Gather", ["w", "i"], ["y"], axis=7)),
        ("transpose_perm_wrong_length", helper.make_node("Transpose", ["w"], ["y"], perm=[5, 0])),
        ("concat_axis_out_of_range", helper.make_node("Concat", ["w", "w"], ["y"], axis=2 ** 40)),
        ("flatten_axis_out_of_range", helper.make_node("Flatten", ["w"], ["y"], axis=-99)),
        ("unsqueeze_axes_out_of_range", helper.make_node("Unsqueeze", ["w", "ax"], ["y"])),
        ("squeeze_axes_out_of_range", helper.make_node("Squeeze", ["w", "ax"], ["y"])),
        ("reduce_axes_out_of_range", helper.make_node("ReduceSum", ["w", "ax"], ["y"])),
        ("slice_axes_out_of_range", helper.make_node("Slice", ["w", "st", "en", "ax"], ["y"])),
        ("split_out_of_range", helper.make_node("Split", ["w", "ax"], ["y", "z"], axis=40)),
    ]:
        inits = [w, numpy_helper.from_array(np.array([0], np.int64), "i"),
                 numpy_helper.from_array(np.array([2 ** 40, -2 ** 40], np.int64), "ax"),
                 numpy_helper.from_array(np.array([0, 0], np.int64), "st"),
                 numpy_helper.from_array(np.array([1, 1], np.int64), "en")]
        outs = [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in node.output]
        # the values feed a Relu so that constant folding is not the only thing that sees them
        case(nm, save(d, nm, model([node], [], outs, inits)), None, readable=True)
    rs = helper.make_node("Reshape", ["x", "s"], ["y"])
    case("reshape_dims_overflow", save(d, "reshape_dims_overflow", model(
        [rs, helper.make_node("Shape", ["y"], ["sy"])], [f32("x", [2 ** 31, 2 ** 31, 2 ** 31])],
        [helper.make_tensor_value_info("sy", TensorProto.INT64, [None])],
        [numpy_helper.from_array(np.array([-1, 0, 3], np.int64), "s")])), None, valid=True)

    # --- memory: constant folding of small models with huge results ---
    cos = helper.make_node("ConstantOfShape", ["shp"], ["big"], value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0]))
    case("fold_constant_of_shape_huge", save(d, "fold_constant_of_shape_huge", model(
        [cos, helper.make_node("ReduceSum", ["big"], ["y"], keepdims=0)], [], [f32("y", [])],
        [numpy_helper.from_array(np.array([40000, 40000], np.int64), "shp")])), None, valid=True)
    tile_in = numpy_helper.from_array(np.ones([32768], np.float32), "t")
    case("fold_tile_huge", save(d, "fold_tile_huge", model(
        [helper.make_node("Tile", ["t", "r"], ["big"]), helper.make_node("ReduceMax", ["big"], ["y"], keepdims=0)],
        [], [f32("y", [])], [tile_in, numpy_helper.from_array(np.array([50000], np.int64), "r")])), None,
         valid=True)
    case("fold_expand_huge", save(d, "fold_expand_huge", model(
        [helper.make_node("Expand", ["t", "es"], ["big"]), helper.make_node("ReduceMin", ["big"], ["y"], keepdims=0)],
        [], [f32("y", [])], [tile_in, numpy_helper.from_array(np.array([40000, 32768], np.int64), "es")])), None,
         valid=True)
    case("fold_range_huge", save(d, "fold_range_huge", model(
        [helper.make_node("Range", ["r0", "r1", "r2"], ["big"]), helper.make_node("ReduceMax", ["big"], ["y"], keepdims=0)],
        [], [f32("y", [])], [numpy_helper.from_array(np.array(0, np.float32), "r0"),
                              numpy_helper.from_array(np.array(3e9, np.float32), "r1"),
                              numpy_helper.from_array(np.array(1, np.float32), "r2")], opset=13)), None, valid=True)

    # --- tensors whose size does not match their data ---
    t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4, 4])
    t.float_data.append(1.0)
    case("typed_4x4_one_value", save(d, "typed_4x4_one_value", model(
        [helper.make_node("Relu", ["w"], ["y"])], [], [f32("y", [4, 4])], [t])), "16")

    def raw(dims, nbytes, dtype=TensorProto.FLOAT):
        t = TensorProto(name="w", data_type=dtype, dims=dims)
        t.raw_data = b"\0" * nbytes
        return model([helper.make_node("Relu", ["w"], ["y"])], [], [f32("y", None)], [t])

    case("raw_negative_dims_mapped", save(d, "raw_negative_dims_mapped", raw([-1, 1024], 4096)), "negative")
    case("raw_dims_overflow_mapped", save(d, "raw_dims_overflow_mapped", raw([2 ** 62 + 1024], 4096)), None)
    case("raw_dims_overflow_product", save(d, "raw_dims_overflow_product", raw([2 ** 32, 2 ** 32, 2 ** 20], 8192)), None)
    case("raw_dims_overflow_inline", save(d, "raw_dims_overflow_inline", raw([2 ** 62 + 16], 64)), None)
    case("raw_undefined_dtype", save(d, "raw_undefined_dtype", raw([4], 16, dtype=0)), None)
    case("raw_unknown_dtype", save(d, "raw_unknown_dtype", raw([4], 16, dtype=999)), None)

    # --- graphs that are not valid ---
    case("node_output_twice", save(d, "node_output_twice", model(
        [helper.make_node("Split", ["x"], ["y", "y"], axis=0)], [f32("x", [4])], [f32("y", [2])], opset=11)),
         "twice")
    case("value_defined_twice", save(d, "value_defined_twice", model(
        [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Neg", ["x"], ["y"])], [f32("x", [4])],
        [f32("y", [4])])), "twice")
    ok_nodes = [helper.make_node("Relu", ["x"], ["y"])]
    for v in (0, -1, 100000):
        nm = "opset_%s" % str(v).replace("-", "minus_")
        case(nm, save(d, nm, model(ok_nodes, [f32("x", [4])], [f32("y", [4])], opset=v)), "opset")
    m = model(ok_nodes, [f32("x", [4])], [f32("y", [4])])
    del m.opset_import[:]
    case("no_opset_import", save(d, "no_opset_import", m), "opset")
    m = onnx.ModelProto(ir_version=8)
    m.opset_import.add().version = 13
    case("no_graph", save(d, "no_graph", m), "graph")

    # If inside If, deeper than protobuf's nesting limit.
    leaf = helper.make_graph([helper.make_node("Identity", ["x"], ["o0"])], "b", [], [f32("o0", [4])])
    body = leaf
    for k in range(60):
        n = helper.make_node("If", ["c"], ["o%d" % (k + 1)], then_branch=body, else_branch=leaf)
        body = helper.make_graph([n], "b%d" % k, [], [f32("o%d" % (k + 1), [4])])
    top = model(body.node, [f32("x", [4]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])], [f32("o60", [4])])
    case("nesting_too_deep", save(d, "nesting_too_deep", top), "nest")

    # Names from the file are printed escaped.
    evil = "\x1b[2J\x1b[31mEVIL\rname\nnext line\x07"
    case("control_characters_in_names", save(d, "control_characters_in_names", model(
        [helper.make_node("Relu", [evil], ["y"], name=evil)], [f32("x", [4])], [f32("y", [4])])), "\\x1b")
    # Invalid UTF-8 in the producer name, which inspect --json and the JSON report print.
    m = model([helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Unknown99", ["y"], ["z"], domain="")],
              [f32("x", [4])], [f32("z", [4])])
    m.producer_name = "p"
    raw_bytes = m.SerializeToString().replace(b"\x12\x01p", b"\x12\x01\xff")
    case("invalid_utf8_producer", save(d, "invalid_utf8_producer", raw_bytes), None, readable=True)

    # A model-local function that calls itself.
    fn = helper.make_function("local", "F", ["a"], ["b"], [helper.make_node("F", ["a"], ["b"], domain="local")],
                              [helper.make_opsetid("", 13), helper.make_opsetid("local", 1)])
    m = model([helper.make_node("F", ["x"], ["y"], domain="local")], [f32("x", [4])], [f32("y", [4])],
              extra_opsets=[helper.make_opsetid("local", 1)])
    m.functions.append(fn)
    case("recursive_function", save(d, "recursive_function", m), None, readable=True)

    # Sparse initializer with indices past its dense size.
    sp = helper.make_sparse_tensor(helper.make_tensor("sv", TensorProto.FLOAT, [2], [1.0, 2.0]),
                                   helper.make_tensor("si", TensorProto.INT64, [2], [0, 10 ** 12]), [4])
    g = helper.make_graph([helper.make_node("Relu", ["sv"], ["y"])], "g", [], [f32("y", [4])], sparse_initializer=[sp])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    case("sparse_indices_out_of_range", save(d, "sparse_indices_out_of_range", m), None, readable=True)

    # Found by fuzz_onnx_reader: typed data (float_data) of a sub-byte type (26; int4/float4 are 21-23), which has no
    # whole element size: the count in the message divided by zero (SIGFPE). As sparse values and as a dense tensor.
    sv = helper.make_tensor("sv", TensorProto.FLOAT, [2], [0.5, 2.0])
    sv.data_type = 26
    sp = helper.make_sparse_tensor(sv, helper.make_tensor("si", TensorProto.INT64, [2], [0, 1]), [4])
    g = helper.make_graph([helper.make_node("Relu", ["sv"], ["y"])], "g", [], [f32("y", [4])], sparse_initializer=[sp])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    case("sparse_values_subbyte_typed", save(d, "sparse_values_subbyte_typed", m), None)
    w = helper.make_tensor("w", TensorProto.INT32, [5], [1, 2, 3, 4, 5])
    w.data_type = 22
    case("int4_typed_data_wrong_count", save(d, "int4_typed_data_wrong_count", model(
        [helper.make_node("Identity", ["w"], ["y"])], [], [f32("y", [5])], [w], opset=21, ir=10)), None)


# --- constant folding bounded per model and charged before allocating (security issue, point 5) ---
def fold_budget_cases(d):
    """Folds whose results are far larger than the file: the conversion must succeed within the suite's limits,
    leaving the nodes unfolded and saying so in its report."""
    def reduced(nodes, inits, opset=13):
        return model(nodes + [helper.make_node("ReduceSum", ["big"], ["y"], keepdims=0)], [], [f32("y", [])], inits,
                     opset=opset)

    def column_row(n):
        v = (np.arange(n) % 7).astype(np.float32)
        return [numpy_helper.from_array(v.reshape(n, 1), "a"), numpy_helper.from_array(v.reshape(1, n), "b")]

    for n in (16000, 30000):
        # [n, 1] + [1, n]: index vectors of n * n elements were allocated before the result was charged.
        case("fold_broadcast_add_%d" % n, save(d, "fold_broadcast_add_%d" % n, reduced(
            [helper.make_node("Add", ["a", "b"], ["big"])], column_row(n))), None, valid=True,
             converts_leaving="left unfolded: ")
    cond = numpy_helper.from_array(np.ones([16000, 1, 1], np.bool_), "c")
    case("fold_where_broadcast", save(d, "fold_where_broadcast", reduced(
        [helper.make_node("Where", ["c", "a", "b"], ["big"])], [cond] + column_row(16000))), None, valid=True,
         converts_leaving="left unfolded: ")
    # A batch of 16000 x 16000 matrices of 1 x 1 from two 64 KB constants.
    mm = [numpy_helper.from_array(np.ones([16000, 1, 1, 1], np.float32), "a"),
          numpy_helper.from_array(np.ones([1, 16000, 1, 1], np.float32), "b")]
    case("fold_matmul_batch_broadcast", save(d, "fold_matmul_batch_broadcast", reduced(
        [helper.make_node("MatMul", ["a", "b"], ["big"])], mm)), None, valid=True, converts_leaving="left unfolded: ")
    # 600 results of 4 MiB from one 16-byte shape, each kept alive by an output: 2.4 GB without a budget per model.
    nodes, outs = [], []
    for k in range(600):
        nodes.append(helper.make_node("ConstantOfShape", ["shp"], ["c%d" % k],
                                      value=helper.make_tensor("v", TensorProto.FLOAT, [1], [float(k)])))
        nodes.append(helper.make_node("Add", ["x", "c%d" % k], ["y%d" % k]))
        outs.append(f32("y%d" % k, [1024, 1024]))
    case("fold_600_results_of_4mib", save(d, "fold_600_results_of_4mib", model(
        nodes, [f32("x", [1024, 1024])], outs, [numpy_helper.from_array(np.array([1024, 1024], np.int64), "shp")])),
         None, valid=True, converts_leaving="left unfolded: the node making 'c599' (ConstantOfShape): ")
    # Pooling windows of 2^20 x 2^20 over a padded 1 x 1 input: four outputs, 2^42 additions.
    case("fold_maxpool_huge_window", save(d, "fold_maxpool_huge_window", model(
        [helper.make_node("MaxPool", ["t"], ["big"], kernel_shape=[1 << 20, 1 << 20], strides=[1 << 20, 1 << 20],
                          pads=[1 << 20] * 4),
         helper.make_node("ReduceSum", ["big"], ["y"], keepdims=0)], [], [f32("y", [])],
        [numpy_helper.from_array(np.ones([1, 1, 1, 1], np.float32), "t")])), None, valid=True,
         converts_leaving="left unfolded: ")
    # Pads whose sum overflows int64, on a constant.
    case("fold_pad_overflow", save(d, "fold_pad_overflow", reduced(
        [helper.make_node("Pad", ["t", "p"], ["big"])],
        [numpy_helper.from_array(np.ones([2], np.float32), "t"),
         numpy_helper.from_array(np.array([2 ** 62, 2 ** 62], np.int64), "p")])), None, valid=True)
    # A Range whose length is not a number.
    case("fold_range_nan", save(d, "fold_range_nan", reduced(
        [helper.make_node("Range", ["r0", "r1", "r2"], ["big"])],
        [numpy_helper.from_array(np.array(0, np.float32), "r0"), numpy_helper.from_array(np.array(np.nan, np.float32), "r1"),
         numpy_helper.from_array(np.array(1, np.float32), "r2")])), None, valid=True)
    # ConstantOfShape whose value holds no element; Softmax of an empty tensor.
    empty_value = helper.make_tensor("v", TensorProto.FLOAT, [0], [])
    case("fold_constant_of_shape_empty_value", save(d, "fold_constant_of_shape_empty_value", reduced(
        [helper.make_node("ConstantOfShape", ["shp"], ["big"], value=empty_value)],
        [numpy_helper.from_array(np.array([4], np.int64), "shp")])), None, valid=True)
    case("fold_softmax_empty", save(d, "fold_softmax_empty", reduced(
        [helper.make_node("Softmax", ["t"], ["big"], axis=1)],
        [numpy_helper.from_array(np.ones([2, 0], np.float32), "t")])), None, valid=True)
    # INT64_MIN / -1 and INT64_MIN % -1 trap (SIGFPE) when folded.
    for op in ("Div", "Mod"):
        name = "fold_%s_int64_min_by_minus_one" % op.lower()
        case(name, save(d, name, model(
            [helper.make_node(op, ["p", "q"], ["big"]), helper.make_node("Cast", ["big"], ["y"], to=TensorProto.FLOAT)],
            [], [f32("y", [1])], [numpy_helper.from_array(np.array([-2 ** 63], np.int64), "p"),
                                  numpy_helper.from_array(np.array([-1], np.int64), "q")])), None, valid=True)


def oneflow_cases(d):
    import oneflow_job_builder as ob
    pb = ob.pb

    def write_job(name, jb, weights=True, fmt="pb"):
        folder = os.path.join(d, name)
        os.makedirs(folder, exist_ok=True)
        job = jb.job()
        if fmt == "pb":
            with open(os.path.join(folder, "job.pb"), "wb") as f:
                f.write(job.SerializeToString())
        if weights:
            jb.write_weights(os.path.join(folder, "weights"), key="op")
        return folder

    def net(op_type, attrs, x_shape=(1, 4, 8, 8), out_shape=(1, 4, 4, 4), weight=None, extra_inputs=()):
        jb = ob.JobBuilder("G")
        x = jb.input(np.zeros(x_shape, np.float32))
        ins = [("in" if op_type != "conv2d" else "in", [x])]
        if weight is not None:
            ins.append(("weight", [jb.variable("m.w", "w", weight)]))
        ins.extend(extra_inputs)
        y = jb.user_op("m", op_type, ins, [("out", [np.zeros(out_shape, np.float32)])], attrs)[0]
        jb.output(y, np.zeros(out_shape, np.float32))
        return jb

    case("of_adaptive_pool_no_output_size", write_job("of_adaptive_pool_no_output_size",
                                                      net("adaptive_avg_pool2d", {})), None, readable=True)
    case("of_adaptive_pool_output_size_0", write_job("of_adaptive_pool_output_size_0",
                                                     net("adaptive_avg_pool2d", {"output_size": ob.li64([0, 0])})),
         None, readable=True)
    case("of_flatten_start_past_rank", write_job("of_flatten_start_past_rank", net(
        "flatten", {"start_dim": ob.i32(9), "end_dim": ob.i32(-1)}, out_shape=(1, 256))), None, readable=True)
    case("of_flatten_end_before_start", write_job("of_flatten_end_before_start", net(
        "flatten", {"start_dim": ob.i32(3), "end_dim": ob.i32(1)}, out_shape=(1, 256))), None, readable=True)

    # Found by fuzz_convert_oneflow: var's dim past the rank indexed the input's dims out of bounds (heap overflow).
    def var_net(dims):
        jb = ob.JobBuilder("G")
        x = jb.input(np.zeros((2, 3, 4), np.float32))
        y = jb.user_op("m", "var", [("input", [x])], [("output", [np.zeros((2,), np.float32)])],
                       {"dim": ob.li32(dims), "unbiased": ob.b(True), "keepdim": ob.b(False)})[0]
        jb.output(y, np.zeros((2,), np.float32))
        return jb
    case("of_var_dim_past_rank", write_job("of_var_dim_past_rank", var_net([1, 40])), None, readable=True)
    case("of_var_dim_negative_past_rank", write_job("of_var_dim_negative_past_rank", var_net([-9])), None, readable=True)

    # Duplicate identity outputs.
    jb = ob.JobBuilder("G")
    x = jb.input(np.zeros((1, 4), np.float32))
    for k in range(2):
        op = pb.OperatorConf(name="m-identity", device_tag="cpu")
        op.identity_conf.SetInParent()
        setattr(op.identity_conf, "in", x)
        op.identity_conf.out = "out"
        jb.ops.append(op)
    jb.output("m-identity/out", np.zeros((1, 4), np.float32))
    case("of_duplicate_identity_outputs", write_job("of_duplicate_identity_outputs", jb), "twice")

    # SavedModel whose shape inference (from the signature's input shape) trusts the attributes.
    def saved_model(name, jb, checkpoint_dir="variables", input_shape=(1, 4, 8, 8)):
        folder = os.path.join(d, name)
        vdir = os.path.join(folder, "1")
        os.makedirs(vdir, exist_ok=True)
        jb.write_weights(os.path.join(vdir, "variables"), key="op")
        sm = pb.SavedModel(name=name, version=1, checkpoint_dir=checkpoint_dir, default_graph_name="G")
        g = sm.graphs["G"]
        g.op_list.extend(jb.ops)
        g.default_signature_name = "serving"
        sig = g.signatures["serving"]
        lbn, _ = jb.inputs[0]
        inp = sig.inputs["x"]
        inp.lbi.op_name, inp.lbi.blob_name = lbn.split("/")
        inp.blob_conf.shape.dim.extend(input_shape)
        inp.blob_conf.data_type = pb.kFloat
        with open(os.path.join(vdir, "saved_model.pb"), "wb") as f:
            f.write(sm.SerializeToString())
        return folder

    case("sm_pool_stride_0", saved_model("sm_pool_stride_0", net(
        "max_pool_2d", {"kernel_size": ob.li32([2, 2]), "stride": ob.li32([0, 0]), "padding": ob.li32([0, 0]),
                        "dilation": ob.li32([1, 1])})), None, readable=True)
    case("sm_pool_dilation_huge", saved_model("sm_pool_dilation_huge", net(
        "max_pool_2d", {"kernel_size": ob.li32([2 ** 30, 2]), "stride": ob.li32([1, 1]), "padding": ob.li32([0, 0]),
                        "dilation": ob.li32([2 ** 30, 1])})), None, readable=True)
    case("sm_transpose_perm_wrong_length", saved_model("sm_transpose_perm_wrong_length", net(
        "transpose", {"perm": ob.li32([3, 2, 1, 0, 7, 9])})), None, readable=True)
    case("sm_transpose_perm_out_of_range", saved_model("sm_transpose_perm_out_of_range", net(
        "transpose", {"perm": ob.li32([0, 1, 2, 1000000])})), None, readable=True)
    case("sm_expand_dims_huge_axis", saved_model("sm_expand_dims_huge_axis", net(
        "expand_dims", {"axis": ob.i32(2 ** 30)})), None, readable=True)
    case("sm_expand_dims_negative_axis", saved_model("sm_expand_dims_negative_axis", net(
        "expand_dims", {"axis": ob.i32(-2 ** 30)})), None, readable=True)
    case("sm_conv_weight_rank_0", saved_model("sm_conv_weight_rank_0", net(
        "conv2d", {"kernel_size": ob.li32([3, 3]), "strides": ob.li32([1, 1]), "padding_before": ob.li32([1, 1]),
                   "dilation_rate": ob.li32([1, 1]), "filters": ob.i32(4)},
        weight=np.zeros((), np.float32))), None, readable=True)
    jb = ob.JobBuilder("G")
    x = jb.input(np.zeros((1, 4, 8, 8), np.float32))
    y = jb.user_op("m", "concat", [("in", [x, x])], [("out", [np.zeros((1, 8, 8, 8), np.float32)])],
                   {"axis": ob.i64(2 ** 40)})[0]
    jb.output(y, np.zeros((1, 8, 8, 8), np.float32))
    case("sm_concat_axis_2_40", saved_model("sm_concat_axis_2_40", jb), None, readable=True)
    case("sm_reshape_zero", saved_model("sm_reshape_zero", net("reshape", {"shape": ob.shape([0, -1])})),
         None, readable=True)
    case("sm_squeeze_axes_huge", saved_model("sm_squeeze_axes_huge", net(
        "squeeze", {"axes": ob.li32([2 ** 30])})), None, readable=True)
    case("sm_matmul_rank_1", saved_model("sm_matmul_rank_1", net(
        "matmul", {}, x_shape=(4,), extra_inputs=[("b", [])])), None, readable=True)
    case("sm_flatten_start_past_rank", saved_model("sm_flatten_start_past_rank", net(
        "flatten", {"start_dim": ob.i32(9), "end_dim": ob.i32(2)}, out_shape=(1, 256))), None, readable=True)
    case("sm_adaptive_pool_no_output_size", saved_model("sm_adaptive_pool_no_output_size",
                                                        net("adaptive_avg_pool2d", {})), None, readable=True)
    case("sm_input_dims_negative_huge", saved_model("sm_input_dims_negative_huge", net("relu", {}),
                                                    input_shape=(-2 ** 62, 2 ** 62, 4)), None, readable=True)

    # More attributes only a built node shows: `check` must fail like `convert` does (exit 3), not say "convertible".
    conv_attrs = {"kernel_size": ob.li32([0, 0]), "strides": ob.li32([1, 1]), "padding_before": ob.li32([0, 0]),
                  "dilation_rate": ob.li32([1, 1]), "filters": ob.i32(4)}
    case("sm_conv_kernel_0", saved_model("sm_conv_kernel_0", net(
        "conv2d", conv_attrs, weight=np.zeros((4, 4, 1, 1), np.float32))), None, readable=True)
    case("sm_conv_strides_negative", saved_model("sm_conv_strides_negative", net(
        "conv2d", dict(conv_attrs, kernel_size=ob.li32([1, 1]), strides=ob.li32([-1, -1])),
        weight=np.zeros((4, 4, 1, 1), np.float32))), None, readable=True)
    case("sm_pool_padding_negative", saved_model("sm_pool_padding_negative", net(
        "max_pool_2d", {"kernel_size": ob.li32([2, 2]), "stride": ob.li32([2, 2]), "padding": ob.li32([-3, -3]),
                        "dilation": ob.li32([1, 1])})), None, readable=True)
    case("sm_reshape_huge", saved_model("sm_reshape_huge", net("reshape", {"shape": ob.shape([2 ** 40, 2 ** 40])})),
         None, readable=True)

    # SavedModel reaching out of its folder for checkpoints.
    case("sm_checkpoint_dir_dotdot", saved_model("sm_checkpoint_dir_dotdot", net(
        "conv2d", {"kernel_size": ob.li32([1, 1]), "strides": ob.li32([1, 1]), "padding_before": ob.li32([0, 0]),
                   "dilation_rate": ob.li32([1, 1]), "filters": ob.i32(4)},
        weight=np.zeros((4, 4, 1, 1), np.float32), out_shape=(1, 4, 8, 8)), checkpoint_dir="../.."),
         "outside")

    # Variables whose names or files lead out of the model's folder.
    def conv_job(var_name):
        jb = ob.JobBuilder("G")
        x = jb.input(np.zeros((1, 4, 8, 8), np.float32))
        wv = jb.variable(var_name, "w", np.zeros((4, 4, 1, 1), np.float32))
        y = jb.user_op("m", "conv2d", [("in", [x]), ("weight", [wv])], [("out", [np.zeros((1, 4, 8, 8), np.float32)])],
                       {"kernel_size": ob.li32([1, 1]), "strides": ob.li32([1, 1]),
                        "padding_before": ob.li32([0, 0]), "dilation_rate": ob.li32([1, 1]), "filters": ob.i32(4)})[0]
        jb.output(y, np.zeros((1, 4, 8, 8), np.float32))
        return jb

    secret = os.path.abspath(os.path.join(d, "secret_outside"))
    os.makedirs(os.path.join(secret, "v"), exist_ok=True)
    with open(os.path.join(secret, "v", "out"), "wb") as f:
        f.write(b"\0" * 64)
    folder = write_job("of_variable_dotdot", conv_job("m.w"))
    shutil.rmtree(os.path.join(folder, "weights", "m.w"))
    jb = conv_job("../../secret_outside/v")
    with open(os.path.join(folder, "job.pb"), "wb") as f:
        f.write(jb.job().SerializeToString())
    case("of_variable_dotdot", folder, "outside")
    folder = write_job("of_variable_absolute", conv_job("m.w"))
    with open(os.path.join(folder, "job.pb"), "wb") as f:
        f.write(conv_job(os.path.join(secret, "v")).job().SerializeToString())
    case("of_variable_absolute", folder, "outside")
    folder = write_job("of_out_symlink", conv_job("m.w"))
    os.remove(os.path.join(folder, "weights", "m.w", "out"))
    os.symlink(os.path.join(secret, "v", "out"), os.path.join(folder, "weights", "m.w", "out"))
    case("of_out_symlink", folder, "outside")
    folder = write_job("of_weights_folder_symlink", conv_job("m.w"))
    shutil.rmtree(os.path.join(folder, "weights", "m.w"))
    os.symlink(os.path.join(secret, "v"), os.path.join(folder, "weights", "m.w"))
    case("of_weights_folder_symlink", folder, "outside")
    folder = write_job("of_out_fifo", conv_job("m.w"))
    os.remove(os.path.join(folder, "weights", "m.w", "out"))
    os.mkfifo(os.path.join(folder, "weights", "m.w", "out"))
    case("of_out_fifo", folder, "regular file")
    folder = write_job("of_meta_fifo", conv_job("m.w"))
    os.remove(os.path.join(folder, "weights", "m.w", "meta"))
    os.mkfifo(os.path.join(folder, "weights", "m.w", "meta"))
    case("of_meta_fifo", folder, "regular file")
    folder = write_job("of_meta_garbage", conv_job("m.w"))
    with open(os.path.join(folder, "weights", "m.w", "meta"), "w") as f:
        f.write("shape { dim: 4 dim: 4 } data_type: !!! \x1b[31m\n")
    case("of_meta_garbage", folder, "meta")
    folder = write_job("of_out_wrong_size", conv_job("m.w"))
    with open(os.path.join(folder, "weights", "m.w", "out"), "ab") as f:
        f.write(b"\0" * 3)
    case("of_out_wrong_size", folder, "bytes")

    folder = write_job("of_job_truncated", conv_job("m.w"))
    with open(os.path.join(folder, "job.pb"), "rb") as f:
        data = f.read()
    with open(os.path.join(folder, "job.pb"), "wb") as f:
        f.write(data[:len(data) * 2 // 3])
    case("of_job_truncated", folder, None)
    os.makedirs(os.path.join(d, "of_prototxt_garbage"), exist_ok=True)
    with open(os.path.join(d, "of_prototxt_garbage", "job.prototxt"), "w") as f:
        f.write("net { op { name: \"\x1b[31m\" user_conf { op_type_name: 7 } } }\n\x00\x01")
    case("of_prototxt_garbage", os.path.join(d, "of_prototxt_garbage"), None)
    folder = os.path.join(d, "of_saved_model_garbage", "1")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "saved_model.pb"), "wb") as f:
        f.write(b"\x0a\xff\xff\xff\xff\x0f" + b"x" * 10)
    case("of_saved_model_garbage", os.path.dirname(folder), None)


# --- OneFlow readers: containment of every file, pickle walk budget, file size limits, shape overflow ---------------
def oneflow_save_cases(d):
    """flow.save weights beside a valid Job: format B files and format C files linked out of the model's folder;
    pickles whose shared references double per level (under 1 KB: 2^40 paths); sparse 3 GB meta and job files
    (no disk used); a pickled [2^32, 2^32] float array with 0 bytes."""
    import struct
    import oneflow_job_builder as ob
    sys.path.insert(0, os.path.join(HERE, "..", "weights"))
    import make_flow_save_files as fsf
    flow = fsf.install_fake_oneflow()
    weight = np.arange(16, dtype=np.float32).reshape(4, 4, 1, 1)

    def conv_job(name):
        folder = os.path.join(d, name)
        os.makedirs(folder, exist_ok=True)
        jb = ob.JobBuilder("G")
        x = jb.input(np.zeros((1, 4, 8, 8), np.float32))
        wv = jb.variable("m.w", "w", weight)
        y = jb.user_op("m", "conv2d", [("in", [x]), ("weight", [wv])], [("out", [np.zeros((1, 4, 8, 8), np.float32)])],
                       {"kernel_size": ob.li32([1, 1]), "strides": ob.li32([1, 1]), "padding_before": ob.li32([0, 0]),
                        "dilation_rate": ob.li32([1, 1]), "filters": ob.i32(4)})[0]
        jb.output(y, np.zeros((1, 4, 8, 8), np.float32))
        with open(os.path.join(folder, "job.pb"), "wb") as f:
            f.write(jb.job().SerializeToString())
        return folder, jb

    # Pickle pieces by hand (protocol 2), for what python's pickle cannot write: shared references on purpose, shapes
    # no numpy array can have.
    def pstr(t):
        b = t.encode()
        return b"X" + struct.pack("<I", len(b)) + b

    def envelope(data):
        return b"\x80\x02}(" + pstr("protocol_version") + b"K\x01" + pstr("data") + data + b"u."

    def float_array_tensor(dims, raw):
        shape = b"(" + b"".join(b"\x8a\x08" + struct.pack("<Q", n) for n in dims) + b"t"
        dtype = b"cnumpy\ndtype\n(" + pstr("f4") + b"\x89\x88tR"
        array = (b"cnumpy.core.numeric\n_frombuffer\n(B" + struct.pack("<I", len(raw)) + raw + dtype + shape +
                 pstr("C") + b"tR")
        return b"coneflow\nTensor\n)\x81}(" + pstr("data") + array + b"ub"

    def doubling(leaf, levels):  # as python's pickle writes shared lists: the previous level, then a reference
        out = leaf + b"r" + struct.pack("<I", 0)
        for i in range(1, levels + 1):
            out = b"](" + out + b"j" + struct.pack("<I", i - 1) + b"e" + b"r" + struct.pack("<I", i)
        return out

    def write(path, data):
        with open(path, "wb") as f:
            f.write(data)

    secret = os.path.abspath(os.path.join(d, "secret_flow_save"))
    os.makedirs(secret, exist_ok=True)
    write(os.path.join(secret, "out"), b"SECRET-BYTES-16!" * 4)
    fsf.save_c(flow, {"m.w": weight}, {"m.w"}, os.path.join(secret, "weights.of"), 4)

    folder, _ = conv_job("of_flow_save_b_out_symlink")
    fsf.save_b(flow, {"m.w": weight}, {"m.w"}, os.path.join(folder, "weights"), 4, __import__("random").Random(5))
    tensor_dir = [n for n in os.listdir(os.path.join(folder, "weights")) if n.startswith("tensor_")][0]
    os.remove(os.path.join(folder, "weights", tensor_dir, "out"))
    os.symlink(os.path.join(secret, "out"), os.path.join(folder, "weights", tensor_dir, "out"))
    case("of_flow_save_b_out_symlink", folder, "outside")

    folder, _ = conv_job("of_flow_save_c_symlink")
    os.symlink(os.path.join(secret, "weights.of"), os.path.join(folder, "weights.of"))
    case("of_flow_save_c_symlink", folder, "outside")

    folder, _ = conv_job("of_flow_save_doubling")
    write(os.path.join(folder, "weights.of"), envelope(doubling(float_array_tensor([4], b"\0" * 16), 40)))
    case("of_flow_save_doubling", folder, "tensors")
    folder, _ = conv_job("of_flow_save_doubling_none")
    write(os.path.join(folder, "weights.of"), envelope(doubling(b"N", 60)))
    case("of_flow_save_doubling_none", folder, "no tensors")

    folder, _ = conv_job("of_flow_save_c_dims_overflow")
    write(os.path.join(folder, "weights.of"),
          envelope(b"}(" + pstr("m.w") + float_array_tensor([2 ** 32, 2 ** 32], b"") + b"u"))
    case("of_flow_save_c_dims_overflow", folder, "overflows")

    three_gib = 3 << 30
    folder, jb = conv_job("of_meta_sparse_3g")
    jb.write_weights(os.path.join(folder, "weights"), key="op")
    open(os.path.join(folder, "weights", "snapshot_done"), "w").close()
    with open(os.path.join(folder, "weights", "m.w", "meta"), "wb") as f:
        f.truncate(three_gib)
    case("of_meta_sparse_3g", folder, "more than a OneFlow meta file can hold")
    folder, _ = conv_job("of_flow_save_b_meta_sparse_3g")
    fsf.save_b(flow, {"m.w": weight}, {"m.w"}, os.path.join(folder, "weights"), 4, __import__("random").Random(6))
    tensor_dir = [n for n in os.listdir(os.path.join(folder, "weights")) if n.startswith("tensor_")][0]
    with open(os.path.join(folder, "weights", tensor_dir, "meta"), "wb") as f:
        f.truncate(three_gib)
    case("of_flow_save_b_meta_sparse_3g", folder, "more than a OneFlow meta file can hold")
    os.makedirs(os.path.join(d, "of_job_sparse_3g"), exist_ok=True)
    with open(os.path.join(d, "of_job_sparse_3g", "job.pb"), "wb") as f:
        f.truncate(three_gib)
    case("of_job_sparse_3g", os.path.join(d, "of_job_sparse_3g"), "more than a OneFlow graph file can hold")
# --- end of the OneFlow readers' block -------------------------------------------------------------------------------


def write_fixtures(d):
    """Valid models for the runner's write cases: outputs that would overwrite what the input reads."""
    w = os.path.join(d, "write")

    def relu_on(t):
        return model([helper.make_node("Relu", ["w"], ["y"])], [], [f32("y", list(t.dims))], [t])

    def ext_tensor(location, n):
        t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[n])
        t.data_location = TensorProto.EXTERNAL
        for k, v in (("location", location), ("offset", "0"), ("length", str(4 * n))):
            e = t.external_data.add()
            e.key, e.value = k, v
        return t

    for name, location in (("ext", "weights.bin"), ("ext_data", "model.onnx.data"), ("ext_out", "out.onnx.data")):
        save(w, name, relu_on(ext_tensor(location, 1024)))
        with open(os.path.join(w, name, location), "wb") as f:
            f.write(np.arange(1024, dtype=np.float32).tobytes())
    # 96 MB of weights (a sparse side file, cheap to make) so that writing takes long enough to interrupt.
    save(w, "big", relu_on(ext_tensor("big.bin", 24 << 20)))
    with open(os.path.join(w, "big", "big.bin"), "wb") as f:
        f.truncate(4 * (24 << 20))
    import oneflow_job_builder as ob
    jb = ob.JobBuilder("G")
    x = jb.input(np.zeros((1, 4, 8, 8), np.float32))
    wv = jb.variable("m.w", "w", np.ones((4, 4, 1, 1), np.float32))
    y = jb.user_op("m", "conv2d", [("in", [x]), ("weight", [wv])], [("out", [np.zeros((1, 4, 8, 8), np.float32)])],
                   {"kernel_size": ob.li32([1, 1]), "strides": ob.li32([1, 1]), "padding_before": ob.li32([0, 0]),
                    "dilation_rate": ob.li32([1, 1]), "filters": ob.i32(4)})[0]
    jb.output(y, np.zeros((1, 4, 8, 8), np.float32))
    os.makedirs(os.path.join(w, "oneflow"))
    with open(os.path.join(w, "oneflow", "job.pb"), "wb") as f:
        f.write(jb.job().SerializeToString())
    jb.write_weights(os.path.join(w, "oneflow", "weights"), key="op")


# ---- code generation outputs and messages (issue points 8 and 9) ---------------------------------------------
# Fixtures for run_bad_inputs.py's code_output_cases: DIR/code/<name>/model.onnx.

def code_output_fixtures(d):
    c = os.path.join(d, "code")
    # Valid and small: the write cases (report paths, trailing slash, replacing folders).
    save(c, "small", model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [f32("x", [4])], [f32("y", [4])]))
    # Node names with bytes that are not UTF-8 (protobuf keeps them: onnx.proto is proto2).
    m = model([helper.make_node("Relu", ["x"], ["h"], name="cafe"), helper.make_node("Relu", ["h"], ["y"], name="ff")],
              [f32("x", [4])], [f32("y", [4])])
    raw = m.SerializeToString().replace(b"\x1a\x04cafe", b"\x1a\x04caf\xe9").replace(b"\x1a\x02ff", b"\x1a\x02\xff\xfe")
    assert raw.count(b"\xe9") == 1 and raw.count(b"\xff\xfe") == 1
    save(c, "non_utf8_names", raw)
    # An unsupported node (custom domains have no code) whose name is an escape sequence.
    evil = "\x1b[2J\x1b[31mEVIL\rname\nnext line\x07"
    save(c, "control_names", model([helper.make_node("Relu", ["x"], ["h"], name=evil),
                                    helper.make_node("Mystery", ["h"], ["y"], name=evil + "mystery", domain="com.example")],
                                   [f32("x", [4])], [f32("y", [4])], extra_opsets=[helper.make_opsetid("com.example", 1)]))
    # 20k nodes feeding one Sum: dot's "Edge length ... larger than maximum" once reached stderr with exit 0.
    relus = [helper.make_node("Relu", ["x"], ["r%d" % i], name="relu%d" % i) for i in range(20000)]
    save(c, "fan_in_20k", model(relus + [helper.make_node("Sum", ["r%d" % i for i in range(20000)], ["y"])],
                                [f32("x", [1])], [f32("y", [1])]))


# ---- edit scripts (issue 28): hostile scripts on a small valid model; each must exit 2 with one line, nothing
# written. reason: a text the line must contain.
def edit_script_cases(d):
    e = os.path.join(d, "edit")
    save(e, "model", model([helper.make_node("Relu", ["x"], ["h"], name="relu"),
                            helper.make_node("Neg", ["h"], ["y"], name="neg"),
                            helper.make_node("Shape", ["x"], ["s"], name="shape")], [f32("x", [2, "n"])],
                           [f32("y", [2, "n"]), helper.make_tensor_value_info("s", TensorProto.INT64, [2])]))
    scripts = [
        ("unknown_verb", b"explode node=relu\n", "unknown verb 'explode'"),
        ("missing_node", b"remove-node node=ghost\n", "no node named 'ghost'"),
        ("missing_value", b"add-output value=ghost\n", "no value 'ghost'"),
        ("missing_argument", b"set-attr node=relu name=alpha\n", "missing argument 'value'"),
        ("unknown_argument", b"prune really=yes\n", "unknown argument 'really'"),
        ("wrong_attr_type", b"insert-node value=h op=Cast attr.to=float\n", "is not one"),
        ("attr_op_lacks", b"set-attr node=relu name=alpha value=1\n", "Relu has no attribute 'alpha'"),
        ("wrong_shape", b"set-input-shape name=x shape=2,-1\n", "not a shape"),
        ("two_producers", b"rename from=h to=y\n", "a value is named 'y' already"),
        ("cycle", b"insert-node value=x op=Add inputs=y\n", "cyclic"),
        ("bypass_type", b"bypass-node node=shape\n", "types differ"),
        ("unterminated_quote", b"rename from=\"h to=z\n", "unterminated quote"),
        ("no_equals", b"rename from\n", "has no '=VALUE'"),
        ("repeated_key", b"rename from=h from=x to=z\n", "given twice"),
        ("bad_escape", b"rename from=\"\\q\" to=z\n", "unknown escape"),
        ("binary", bytes(range(256)) * 4, None),
        ("nul_in_name", b"rename from=h to=\"a\\u0000b\"\nremove-node node=\"\x00\"\n", "no node named"),
        ("control_chars", b"remove-node node=\"\\u001b[2J\\u0007evil\"\n", "no node named"),
        ("long_name", b"remove-node node=" + b"n" * 1000000 + b"\n", "no node named"),
        ("breaks_check", b"set-op node=relu op=Add\n", "does not pass the check"),
        ("last_edit_fails", b"rename from=h to=z\n" * 1 + b"set-producer name=p\n" * 5000 + b"remove-node node=z\n",
         "edit 5002"),
        ("npy_missing", b"insert-node value=h op=Identity\nset-attr node=relu name=alpha value=@/nonexistent.npy "
                        b"type=tensor\n", "edit 2"),
    ]
    for name, text, reason in scripts:
        with open(os.path.join(e, name + ".txt"), "wb") as f:
            f.write(text)
    with open(os.path.join(e, "scripts.json"), "w") as f:
        json.dump([{"name": n, "reason": r} for n, _, r in scripts], f, indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpus", required=True)
    a = ap.parse_args()
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)
    onnx_cases(a.out, a.corpus)
    fold_budget_cases(a.out)
    oneflow_cases(a.out)
    oneflow_save_cases(a.out)
    write_fixtures(a.out)
    code_output_fixtures(a.out)
    codegen_name_cases(a.out)
    edit_script_cases(a.out)
    with open(os.path.join(a.out, "cases.json"), "w") as f:
        json.dump(CASES, f, indent=1)
    print("%d bad inputs in %s" % (len(CASES), a.out))


if __name__ == "__main__":
    main()
