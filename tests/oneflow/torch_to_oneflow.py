"""Records a PyTorch module as the Job OneFlow's nn.Graph compiles for the same network.

torch.fx traces the module; an fx.Interpreter runs it node by node on real inputs and, for each node, emits the
OneFlow user ops OneFlow's functors emit for that call (e.g. nn.Conv2d(bias=True) -> conv2d + bias_add(axis=1),
nn.Linear -> matmul(transpose_b) + broadcast_add, x + y of equal shapes -> add_n), with OneFlow's attribute names
and types and its input/output argument names. Values that are not tensors (sizes, chunk lists) are evaluated."""
import math
import operator

import numpy as np
import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import shufflenetv2

from oneflow_job_builder import (JobBuilder, b, f32, f64, i32, i64, li32, li64, s, shape)


def npy(t):
    return t.detach().cpu().numpy()


class Lbn:
    """A traced tensor: its OneFlow lbn and its value."""

    def __init__(self, lbn, value):
        self.lbn, self.value = lbn, value


class OneflowRecorder(torch.fx.Interpreter):
    def __init__(self, gm, builder, scope="model"):
        super().__init__(gm)
        self.jb = builder
        self.scope = scope
        self.lbn = {}  # fx node name -> Lbn (or list of Lbn)
        self.modules = dict(gm.named_modules())

    # ---- helpers
    def var(self, qualname, tensor):
        return self.jb.variable(self.scope + "." + qualname, qualname, npy(tensor))

    def op(self, scope, op_type, inputs, outputs, attrs=None):
        return self.jb.user_op(scope, op_type, inputs, outputs, attrs)

    def lbn_of(self, a):
        if isinstance(a, torch.fx.Node):
            return self.lbn[a.name]
        raise TypeError(a)

    def run_node(self, n):
        result = super().run_node(n)
        if n.op == "placeholder":
            self.lbn[n.name] = Lbn(self.jb.input(npy(result)), result)
        elif n.op == "output":
            outs = result if isinstance(result, (tuple, list)) else (result,)
            args = n.args[0] if isinstance(n.args[0], (tuple, list)) else (n.args[0],)
            for a, r in zip(args, outs):
                self.jb.output(self.lbn_of(a).lbn, npy(r))
        elif n.op == "get_attr":
            self.lbn[n.name] = Lbn(self.var(n.target, result), result)
        elif isinstance(result, torch.Tensor):
            self.lbn[n.name] = self.emit(n, result)
        elif isinstance(result, (tuple, list)) and all(isinstance(r, torch.Tensor) for r in result) and result:
            self.lbn[n.name] = self.emit_multi(n, result)
        return result

    def t(self, a):
        """The Lbn of an argument (fx node)."""
        return self.lbn[a.name]

    # ---- one fx node -> OneFlow ops
    def emit(self, n, out):
        o = npy(out)
        if n.op == "call_module":
            return self.emit_module(n, self.modules[n.target], o)
        target = n.target
        args = n.args
        kw = n.kwargs
        scope = self.scope
        name = target if isinstance(target, str) else getattr(target, "__name__", str(target))
        if name == "channel_shuffle":  # x.view(b, g, c/g, h, w).transpose(1, 2).contiguous().view(b, c, h, w)
            x = self.t(args[0])
            bsz, c, h, w = x.value.shape
            g = args[1]
            grouped = np.zeros((bsz, g, c // g, h, w), dtype=o.dtype)
            swapped = np.zeros((bsz, c // g, g, h, w), dtype=o.dtype)
            lbn = self.op(scope, "reshape", [("in", [x.lbn])], [("out", [grouped])], {"shape": shape(grouped.shape)})[0]
            lbn = self.op(scope, "transpose", [("input", [lbn])], [("output", [swapped])], {"perm": li32([0, 2, 1, 3, 4])})[0]
            return Lbn(self.op(scope, "reshape", [("in", [lbn])], [("out", [o])], {"shape": shape(o.shape)})[0], out)
        if name == "mean":  # OneFlow's ReduceMean functor: reduce_sum, then scalar_mul by 1 / count
            x = self.t(args[0])
            dims = args[1] if len(args) > 1 else kw.get("dim")
            dims = [d % x.value.ndim for d in (dims if isinstance(dims, (list, tuple)) else [dims])]
            keep = kw.get("keepdim", args[2] if len(args) > 2 else False)
            count = int(np.prod([x.value.shape[d] for d in dims]))
            total = np.zeros(o.shape, dtype=o.dtype)
            lbn = self.op(scope, "reduce_sum", [("input_tensor", [x.lbn])], [("output_tensor", [total])],
                          {"axis": li32(dims), "keepdims": b(keep)})[0]
            return Lbn(self.op(scope, "scalar_mul", [("in", [lbn])], [("out", [o])],
                              {"has_int_operand": b(False), "has_float_operand": b(True), "int_operand": i64(0),
                               "float_operand": f64(1.0 / count)})[0], out)
        if name in ("contiguous", "dropout", "clone", "stochastic_depth") or target is F.dropout:  # eval: identity
            return self.t(args[0])
        if name == "getitem":
            src = self.lbn[args[0].name]
            if isinstance(src, list):
                return src[args[1]]
            raise NotImplementedError("tensor indexing")
        if name in ("add", "iadd", "sub", "mul", "imul", "truediv"):
            return self.binary(name, args, o)
        if name in ("cat",):
            tensors = args[0]
            axis = kw.get("dim", args[1] if len(args) > 1 else 0)
            axis = axis % o.ndim
            lbns = [self.t(a).lbn for a in tensors]
            return Lbn(self.op(scope, "cat", [("in", lbns)], [("out", [o])],
                              {"axis": i64(axis), "max_dim_size": i64(o.shape[axis])})[0], out)
        if name == "flatten":
            start = kw.get("start_dim", args[1] if len(args) > 1 else 0)
            end = kw.get("end_dim", args[2] if len(args) > 2 else -1)
            return Lbn(self.op(scope, "flatten", [("in", [self.t(args[0]).lbn])], [("out", [o])],
                              {"start_dim": i32(start), "end_dim": i32(end)})[0], out)
        if name in ("view", "reshape"):
            return Lbn(self.op(scope, "reshape", [("in", [self.t(args[0]).lbn])], [("out", [o])],
                              {"shape": shape(o.shape)})[0], out)
        if name in ("transpose", "permute"):
            nd = o.ndim
            if name == "transpose":
                d0, d1 = args[1] % nd, args[2] % nd
                perm = list(range(nd))
                perm[d0], perm[d1] = perm[d1], perm[d0]
            else:
                perm = [p % nd for p in (args[1] if isinstance(args[1], (list, tuple)) else args[1:])]
            return Lbn(self.op(scope, "transpose", [("input", [self.t(args[0]).lbn])], [("output", [o])],
                              {"perm": li32(perm)})[0], out)
        if name in ("matmul",):
            return self.matmul(scope, self.t(args[0]), self.t(args[1]), o, out, transpose_b=False)
        if name in ("relu", "sigmoid", "tanh"):
            return self.unary(scope, name, args[0], o, "x", "y")
        if name in ("gelu", "silu", "hardswish", "hardsigmoid"):
            return self.unary(scope, name, args[0], o, "in", "out")
        if name == "softmax":
            return self.unary(scope, "softmax", args[0], o, "in", "out")
        if name == "adaptive_avg_pool2d":
            return self.adaptive(scope, self.t(args[0]), o, out)
        if name == "max_pool2d":
            k = args[1] if len(args) > 1 else kw["kernel_size"]
            st = kw.get("stride", args[2] if len(args) > 2 else k)
            pad = kw.get("padding", args[3] if len(args) > 3 else 0)
            return self.maxpool(scope, self.t(args[0]), o, out, k, st, pad, 1, kw.get("ceil_mode", False))
        if name == "avg_pool2d":
            k = args[1] if len(args) > 1 else kw["kernel_size"]
            st = kw.get("stride", args[2] if len(args) > 2 else k)
            pad = kw.get("padding", args[3] if len(args) > 3 else 0)
            return self.avgpool(scope, self.t(args[0]), o, out, k, st, pad, kw.get("ceil_mode", False),
                                kw.get("count_include_pad", True))
        raise NotImplementedError("no OneFlow mapping for fx node %s (%s)" % (n.name, name))

    def emit_multi(self, n, outs):
        name = n.target if isinstance(n.target, str) else n.target.__name__
        if name == "chunk":
            src = self.t(n.args[0])
            dim = n.kwargs.get("dim", n.args[2] if len(n.args) > 2 else 0) % src.value.ndim
            res, start = [], 0
            for piece in outs:
                length = piece.shape[dim]
                lbn = self.op(self.scope, "narrow", [("in", [src.lbn])], [("out", [npy(piece)])],
                              {"dim": i64(dim), "start": i64(start), "length": i64(length)})[0]
                res.append(Lbn(lbn, piece))
                start += length
            return res
        raise NotImplementedError("no OneFlow mapping for multi-output fx node %s (%s)" % (n.name, name))

    def unary(self, scope, op_type, a, o, in_arg, out_arg, attrs=None):
        return Lbn(self.op(scope, op_type, [(in_arg, [self.t(a).lbn])], [(out_arg, [o])], attrs)[0], None)

    def binary(self, name, args, o):
        x, y = args[0], args[1]
        scope = self.scope
        if not isinstance(y, torch.fx.Node) or not isinstance(x, torch.fx.Node):
            tensor, scalar = (x, y) if isinstance(x, torch.fx.Node) else (y, x)
            op_type = {"add": "scalar_add", "iadd": "scalar_add", "mul": "scalar_mul", "imul": "scalar_mul",
                       "truediv": "scalar_div", "sub": "scalar_add"}[name]
            value = -scalar if name == "sub" else scalar
            is_int = isinstance(value, int)
            attrs = {"has_int_operand": b(is_int), "has_float_operand": b(not is_int),
                     "int_operand": i64(value if is_int else 0), "float_operand": f64(0.0 if is_int else value)}
            return Lbn(self.op(scope, op_type, [("in", [self.t(tensor).lbn])], [("out", [o])], attrs)[0], None)
        a, c = self.t(x), self.t(y)
        same = tuple(a.value.shape) == tuple(c.value.shape)
        if name in ("add", "iadd") and same:
            return Lbn(self.op(scope, "add_n", [("in", [a.lbn, c.lbn])], [("out", [o])])[0], None)
        if name in ("mul", "imul") and same:
            return Lbn(self.op(scope, "multiply", [("x", [a.lbn]), ("y", [c.lbn])], [("out", [o])])[0], None)
        op_type = {"add": "broadcast_add", "iadd": "broadcast_add", "sub": "broadcast_sub", "mul": "broadcast_mul",
                   "imul": "broadcast_mul", "truediv": "broadcast_div"}[name]
        return Lbn(self.op(scope, op_type, [("x", [a.lbn]), ("y", [c.lbn])], [("z", [o])])[0], None)

    def matmul(self, scope, a, w, o, out, transpose_b, w_is_2d=None):
        na, nb = a.value.ndim, w.value.ndim
        if na == 2 and nb == 2:
            op_type = "matmul"
        elif nb == 2:
            op_type = "broadcast_matmul"
        else:
            op_type = "batch_matmul"
        return Lbn(self.op(scope, op_type, [("a", [a.lbn]), ("b", [w.lbn])], [("out", [o])],
                          {"transpose_a": b(False), "transpose_b": b(transpose_b), "alpha": f64(1.0)})[0], out)

    def adaptive(self, scope, x, o, out):
        return Lbn(self.op(scope, "adaptive_avg_pool2d", [("x", [x.lbn])], [("y", [o])],
                          {"output_size": li64(o.shape[2:]), "data_format": s("channels_first")})[0], out)

    @staticmethod
    def pair(v):
        return list(v) if isinstance(v, (list, tuple)) else [v, v]

    def maxpool(self, scope, x, o, out, k, st, pad, dil, ceil):
        st = st if st not in (None, []) else k
        indice = np.zeros(o.shape, dtype=np.int64)
        lbns = self.op(scope, "max_pool_2d", [("x", [x.lbn])], [("y", [o]), ("indice", [indice])],
                       {"padding": li32(self.pair(pad)), "data_format": s("channels_first"),
                        "kernel_size": li32(self.pair(k)), "stride": li32(self.pair(st)),
                        "dilation": li32(self.pair(dil)), "return_indices": b(False), "ceil_mode": b(ceil)})
        return Lbn(lbns[0], out)

    def avgpool(self, scope, x, o, out, k, st, pad, ceil, count_include_pad):
        st = st if st not in (None, []) else k
        return Lbn(self.op(scope, "avg_pool_2d", [("x", [x.lbn])], [("y", [o])],
                          {"padding": li32(self.pair(pad)), "data_format": s("channels_first"),
                           "kernel_size": li32(self.pair(k)), "stride": li32(self.pair(st)),
                           "ceil_mode": b(ceil), "count_include_pad": b(count_include_pad),
                           "divisor_override": i32(0)})[0], out)

    def emit_module(self, n, m, o):
        x = self.t(n.args[0])
        scope = self.scope + "." + n.target
        out = None
        if isinstance(m, (nn.Dropout, nn.Identity)):
            return x
        if isinstance(m, (nn.Conv2d, nn.Conv1d)):
            nd = 2 if isinstance(m, nn.Conv2d) else 1
            w = self.var(n.target + ".weight", m.weight)
            conv_out = o if m.bias is None else np.zeros_like(o)
            lbn = self.op(scope, "conv%dd" % nd, [("in", [x.lbn]), ("weight", [w])], [("out", [conv_out])],
                          {"filters": i32(m.out_channels), "padding_before": li32(m.padding),
                           "data_format": s("channels_first"), "kernel_size": li32(m.kernel_size),
                           "strides": li32(m.stride), "dilation_rate": li32(m.dilation), "groups": i32(m.groups),
                           "tuning_cache": s("")})[0]
            if m.bias is not None:
                bias = self.var(n.target + ".bias", m.bias)
                lbn = self.op(scope, "bias_add", [("a", [lbn]), ("b", [bias])], [("out", [o])], {"axis": i32(1)})[0]
            return Lbn(lbn, None)
        if isinstance(m, nn.BatchNorm2d):
            lbns = self.op(scope, "normalization",
                           [("x", [x.lbn]), ("moving_mean", [self.var(n.target + ".running_mean", m.running_mean)]),
                            ("moving_variance", [self.var(n.target + ".running_var", m.running_var)]),
                            ("gamma", [self.var(n.target + ".weight", m.weight)]),
                            ("beta", [self.var(n.target + ".bias", m.bias)])],
                           [("y", [o])],
                           {"axis": i32(1), "epsilon": f32(m.eps), "training": b(False), "momentum": f32(m.momentum)})
            return Lbn(lbns[0], None)
        if isinstance(m, nn.ReLU):
            return self.unary(scope, "relu", n.args[0], o, "x", "y")
        if isinstance(m, nn.ReLU6):
            return self.unary(scope, "hardtanh", n.args[0], o, "in", "out", {"min_val": f64(0.0), "max_val": f64(6.0)})
        if isinstance(m, nn.Hardtanh):
            return self.unary(scope, "hardtanh", n.args[0], o, "in", "out",
                              {"min_val": f64(m.min_val), "max_val": f64(m.max_val)})
        if isinstance(m, (nn.Sigmoid, nn.Tanh)):
            return self.unary(scope, type(m).__name__.lower(), n.args[0], o, "x", "y")
        if isinstance(m, (nn.Hardswish, nn.Hardsigmoid, nn.SiLU, nn.GELU)):
            return self.unary(scope, type(m).__name__.lower(), n.args[0], o, "in", "out")
        if isinstance(m, nn.Softmax):
            return self.unary(scope, "softmax", n.args[0], o, "in", "out")
        if isinstance(m, nn.MaxPool2d):
            return self.maxpool(scope, x, o, out, m.kernel_size, m.stride, m.padding, m.dilation, m.ceil_mode)
        if isinstance(m, nn.AvgPool2d):
            return self.avgpool(scope, x, o, out, m.kernel_size, m.stride, m.padding, m.ceil_mode, m.count_include_pad)
        if isinstance(m, nn.AdaptiveAvgPool2d):
            return self.adaptive(scope, x, o, out)
        if isinstance(m, nn.Flatten):
            return Lbn(self.op(scope, "flatten", [("in", [x.lbn])], [("out", [o])],
                              {"start_dim": i32(m.start_dim), "end_dim": i32(m.end_dim)})[0], None)
        if isinstance(m, nn.Linear):
            w = Lbn(self.var(n.target + ".weight", m.weight), m.weight)
            mm_out = o if m.bias is None else np.zeros_like(o)
            lbn = self.matmul(scope, x, w, mm_out, None, transpose_b=True).lbn
            if m.bias is not None:
                bias = self.var(n.target + ".bias", m.bias)
                lbn = self.op(scope, "broadcast_add", [("x", [lbn]), ("y", [bias])], [("z", [o])])[0]
            return Lbn(lbn, None)
        if isinstance(m, nn.LayerNorm):
            ins = [("x", [x.lbn])]
            if m.elementwise_affine:
                ins += [("gamma", [self.var(n.target + ".weight", m.weight)]),
                        ("beta", [self.var(n.target + ".bias", m.bias)])]
            axis = x.value.ndim - len(m.normalized_shape)
            stat = np.zeros(x.value.shape[:axis], dtype=np.float32)
            lbns = self.op(scope, "layer_norm", ins, [("y", [o]), ("mean", [stat]), ("inv_variance", [stat])],
                           {"center": b(m.elementwise_affine), "scale": b(m.elementwise_affine),
                            "begin_norm_axis": i64(axis), "begin_params_axis": i64(axis), "epsilon": f64(m.eps)})
            return Lbn(lbns[0], None)
        raise NotImplementedError("no OneFlow mapping for module %s (%s)" % (n.target, type(m).__name__))


class ChunkTracer(torch.fx.Tracer):
    """Lets `a, b = x.chunk(2)` trace: the chunk count is a constant, so the pieces are getitem nodes."""

    def iter(self, obj):
        n = obj.node
        if n.op == "call_method" and n.target == "chunk":
            count = n.args[1] if len(n.args) > 1 else n.kwargs["chunks"]
            return iter([obj[i] for i in range(count)])
        return super().iter(obj)


def record(module, example_inputs, graph_name, blob_layout="v0.8"):
    """Returns (JobBuilder, outputs) for `module` in eval mode on `example_inputs`."""
    module.eval()
    # channel_shuffle unpacks x.size(), which fx cannot trace: it is recorded as one call and expanded below.
    tracer = ChunkTracer(autowrap_functions=(shufflenetv2.channel_shuffle,))
    gm = torch.fx.GraphModule(module, tracer.trace(module))
    jb = JobBuilder(graph_name, blob_layout)
    rec = OneflowRecorder(gm, jb)
    # Value fix-ups: Lbn objects created with value None get their value from the interpreter's result.
    orig_emit = rec.emit

    def emit_with_value(n, result):
        r = orig_emit(n, result)
        if isinstance(r, Lbn) and r.value is None:
            r = Lbn(r.lbn, result)
        return r

    rec.emit = emit_with_value
    with torch.no_grad():
        outs = rec.run(*example_inputs)
    return jb, outs
