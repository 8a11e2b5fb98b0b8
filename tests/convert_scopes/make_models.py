"""Models for test_convert_scopes, written into the folder given as the only argument.

if_script_op13.onnx     torch.jit.script'ed module with an if/else (PyTorch 1.13's exporter, constant folding off):
                        the branches' ReduceSum reads its axes from a Constant of the main graph.
if_shape_chain_op13.onnx  an If whose branches slice an outer value at bounds computed inside the branch from
                        that value's shape (Shape -> Gather -> Div -> Unsqueeze), and unsqueeze at axes
                        computed from its rank: below opsets 10/13 those must be attributes, which only the
                        outer value's shape facts give.
loop_shape_chain_op13.onnx  the same kind of chain inside a Loop body.
if_branch_values_op13.onnx  an If whose branches reshape a value they make themselves to [its first dim, -1], the
                        first dim read from its own shape (Shape -> Gather -> Unsqueeze -> Concat).
loop_grows_op13.onnx    a Loop whose carried value grows by a row per iteration, and whose body slices it up to
                        its own row count: that count is no fact (it changes per iteration), so the Slice must
                        not get a constant bound below opset 10.
local_functions_op15.onnx  torch.onnx.export(..., export_modules_as_functions={Block}): two calls of a
                        model-local function (domain __main__) whose body is written at opset 15.
"""
import sys

import onnx
import torch
from onnx import TensorProto, helper


class Branchy(torch.nn.Module):
    def forward(self, x, flag):
        if bool(flag.sum() > 0):
            y = (x[:, : x.size(1) // 2] * 2.0).sum(dim=[1]).unsqueeze(1)
        else:
            y = x[:, x.size(1) // 2:].sum(dim=[1]).unsqueeze(1) - 1.0
        return y.reshape(x.size(0), -1)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)
        self.ln = torch.nn.LayerNorm(8)

    def forward(self, x):
        return self.ln(torch.relu(self.fc(x))) + x


class Blocks(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.b1 = Block()
        self.b2 = Block()

    def forward(self, x):
        return self.b2(self.b1(x)).softmax(-1)


def const(name, values, dims=None):
    t = helper.make_tensor(name + "_t", TensorProto.INT64, [len(values)] if dims is None else dims, values)
    return helper.make_node("Constant", [], [name], value=t)


def shape_chain_branch(prefix, upper):
    """x[:, :d1/2] (upper=False) or x[:, d1/2:] (upper=True), then Unsqueeze at axis rank(x)-1."""
    nodes = [
        helper.make_node("Shape", ["t"], [prefix + "shape"]),
        const(prefix + "one", [1], []),
        helper.make_node("Gather", [prefix + "shape", prefix + "one"], [prefix + "d1"], axis=0),
        const(prefix + "two", [2], []),
        helper.make_node("Div", [prefix + "d1", prefix + "two"], [prefix + "half"]),
        const(prefix + "axes0", [0]),
        helper.make_node("Unsqueeze", [prefix + "half", prefix + "axes0"], [prefix + "half1"]),
        const(prefix + "edge", [0 if not upper else 1 << 40]),
        const(prefix + "axis1", [1]),
    ]
    if upper:
        nodes.append(helper.make_node("Slice", ["t", prefix + "half1", prefix + "edge", prefix + "axis1"], [prefix + "s"]))
    else:
        nodes.append(helper.make_node("Slice", ["t", prefix + "edge", prefix + "half1", prefix + "axis1"], [prefix + "s"]))
    nodes += [
        helper.make_node("Shape", [prefix + "shape"], [prefix + "rank1"]),
        const(prefix + "minus1", [1]),
        helper.make_node("Sub", [prefix + "rank1", prefix + "minus1"], [prefix + "axis_last"]),
        helper.make_node("Unsqueeze", [prefix + "s", prefix + "axis_last"], [prefix + "u"]),
        helper.make_node("ReduceSum", [prefix + "u", prefix + "axis1"], [prefix + "out"], keepdims=0),
    ]
    return helper.make_graph(nodes, prefix + "branch", [],
                             [helper.make_tensor_value_info(prefix + "out", TensorProto.FLOAT, ["a", "b", "c"])])


def if_shape_chain(path):
    # t is computed in the main graph (no declared shape): its shape reaches the branches as a fact.
    main = [
        helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0, 2]),
        const("zero_axes", [0]),
        helper.make_node("ReduceSum", ["flag", "zero_axes"], ["flag_sum"], keepdims=0),
        const("zero", [0], []),
        helper.make_node("Cast", ["zero"], ["zero_f"], to=TensorProto.FLOAT),
        helper.make_node("Greater", ["flag_sum", "zero_f"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=shape_chain_branch("a_", False),
                         else_branch=shape_chain_branch("b_", True)),
    ]
    g = helper.make_graph(main, "if_shape_chain",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6, 2, 4]),
                           helper.make_tensor_value_info("flag", TensorProto.FLOAT, [1])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b", "c"])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="test_convert_scopes")
    m.ir_version = 7
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, path)


def branch_reshaping_own_value(prefix, op):
    """r = op(t) (Mul by 2 or Neg), then Reshape(r, [shape(r)[0], -1])."""
    nodes = []
    if op == "Mul":
        nodes.append(helper.make_node("Constant", [], [prefix + "two"], value=helper.make_tensor(prefix + "two_t", TensorProto.FLOAT, [], [2.0])))
        nodes.append(helper.make_node("Mul", ["t", prefix + "two"], [prefix + "r"]))
    else:
        nodes.append(helper.make_node("Neg", ["t"], [prefix + "r"]))
    nodes += [
        helper.make_node("Shape", [prefix + "r"], [prefix + "s"]),
        const(prefix + "zero", [0], []),
        helper.make_node("Gather", [prefix + "s", prefix + "zero"], [prefix + "d0"], axis=0),
        const(prefix + "axes0", [0]),
        helper.make_node("Unsqueeze", [prefix + "d0", prefix + "axes0"], [prefix + "d0_1"]),
        const(prefix + "minus1", [-1]),
        helper.make_node("Concat", [prefix + "d0_1", prefix + "minus1"], [prefix + "target"], axis=0),
        helper.make_node("Reshape", [prefix + "r", prefix + "target"], [prefix + "out"]),
    ]
    return helper.make_graph(nodes, prefix + "branch", [],
                             [helper.make_tensor_value_info(prefix + "out", TensorProto.FLOAT, ["a", "b"])])


def if_branch_values(path):
    main = [
        helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0, 2]),
        const("zero_axes", [0]),
        helper.make_node("ReduceSum", ["flag", "zero_axes"], ["flag_sum"], keepdims=0),
        helper.make_node("Constant", [], ["zero_f"], value=helper.make_tensor("zero_f_t", TensorProto.FLOAT, [], [0.0])),
        helper.make_node("Greater", ["flag_sum", "zero_f"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=branch_reshaping_own_value("p_", "Mul"),
                         else_branch=branch_reshaping_own_value("q_", "Neg")),
    ]
    g = helper.make_graph(main, "if_branch_values",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6, 2, 4]),
                           helper.make_tensor_value_info("flag", TensorProto.FLOAT, [1])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="test_convert_scopes")
    m.ir_version = 7
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, path)


def loop_shape_chain(path):
    # Loop(3 trips) { acc += ReduceSum(Unsqueeze(Slice(t, 0, d1/2), rank-1)) } with the chain in the body.
    body = shape_chain_branch("l_", False)
    body_nodes = list(body.node) + [
        helper.make_node("Add", ["acc_in", "l_out"], ["acc_out"]),
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
    ]
    body_graph = helper.make_graph(
        body_nodes, "loop_body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_in", TensorProto.FLOAT, ["a", "b", "c"])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, ["a", "b", "c"])])
    main = [
        helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0, 2]),
        const("trips", [3], []),
        helper.make_node("Constant", [], ["cond"], value=helper.make_tensor("cond_t", TensorProto.BOOL, [], [True])),
        helper.make_node("Constant", [], ["acc0"], value=helper.make_tensor("acc0_t", TensorProto.FLOAT, [2, 1, 4], [0.0] * 8)),
        helper.make_node("Loop", ["trips", "cond", "acc0"], ["y"], body=body_graph),
        helper.make_node("Mul", ["y", "flag"], ["z"]),
    ]
    g = helper.make_graph(main, "loop_shape_chain",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6, 2, 4]),
                           helper.make_tensor_value_info("flag", TensorProto.FLOAT, [1])],
                          [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["a", "b", "c"])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="test_convert_scopes")
    m.ir_version = 7
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, path)


def loop_grows(path):
    body = helper.make_graph([
        helper.make_node("Concat", ["acc_in", "row"], ["acc_out"], axis=0),
        helper.make_node("Shape", ["acc_in"], ["g_shape"]),
        const("g_zero", [0]),
        const("g_one", [1]),
        helper.make_node("Slice", ["g_shape", "g_zero", "g_one"], ["g_rows"]),
        helper.make_node("Slice", ["acc_in", "g_zero", "g_rows", "g_zero"], ["g_all"]),
        helper.make_node("ReduceSum", ["g_all", "g_zero"], ["g_sum"], keepdims=1),
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
    ], "loop_body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_in", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, ["r", 4]),
         helper.make_tensor_value_info("g_sum", TensorProto.FLOAT, [1, 4])])
    main = [
        const("trips", [3], []),
        helper.make_node("Constant", [], ["cond"], value=helper.make_tensor("cond_t", TensorProto.BOOL, [], [True])),
        helper.make_node("Slice", ["x", "start0", "end1", "axis1"], ["first"]),
        const("start0", [0, 0]),
        const("end1", [1, 1]),
        const("axis1", [0, 1]),
        helper.make_node("Reshape", ["first", "row_shape"], ["row"]),
        const("row_shape", [1, 4]),
        helper.make_node("Loop", ["trips", "cond", "row"], ["acc", "sums"], body=body),
        helper.make_node("Mul", ["sums", "flag"], ["z"]),
    ]
    # Constants before their users, as ONNX wants.
    order = ["trips", "cond", "start0", "end1", "axis1", "row_shape"]
    main.sort(key=lambda n: (0, order.index(n.output[0])) if n.output[0] in order else (1, 0))
    g = helper.make_graph(main, "loop_grows",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6, 2, 4]),
                           helper.make_tensor_value_info("flag", TensorProto.FLOAT, [1])],
                          [helper.make_tensor_value_info("acc", TensorProto.FLOAT, ["a", 4]),
                           helper.make_tensor_value_info("z", TensorProto.FLOAT, ["a", "b", "c"])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="test_convert_scopes")
    m.ir_version = 7
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, path)


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    torch.onnx.export(torch.jit.script(Branchy()), (torch.randn(2, 6, 4), torch.tensor([1.0])),
                      out + "/if_script_op13.onnx", opset_version=13, input_names=["x", "flag"], output_names=["y"],
                      do_constant_folding=False)
    torch.onnx.export(Blocks().eval(), (torch.randn(2, 8),), out + "/local_functions_op15.onnx", opset_version=15,
                      input_names=["x"], output_names=["y"], export_modules_as_functions={Block})
    if_shape_chain(out + "/if_shape_chain_op13.onnx")
    loop_shape_chain(out + "/loop_shape_chain_op13.onnx")
    loop_grows(out + "/loop_grows_op13.onnx")
    if_branch_values(out + "/if_branch_values_op13.onnx")


if __name__ == "__main__":
    main()
