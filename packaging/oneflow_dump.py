#!/usr/bin/env python3
"""Dumps a OneFlow model in the layout FlowBridge reads, where OneFlow is installed (FlowBridge itself needs no
OneFlow). It compiles an nn.Graph (or wraps an nn.Module in one) on example inputs, then writes

    OUT/job.pb                      the compiled Job (graph._full_graph_proto), binary protobuf
    OUT/weights.of                  the variables by name, in OneFlow 1.0's single-file oneflow.save layout
                                    (format C: a pickle of {"protocol_version": 1, "__oneflow__": None, "data": ...})

or, with --weights-format folder, the per-variable layout every OneFlow release reads (format A):

    OUT/weights/<variable>/out      each variable's raw bytes (C order, little-endian)
    OUT/weights/<variable>/meta     its shape and data type (text VariableMetaInfo)
    OUT/weights/snapshot_done       marks a complete save

As a library:
    from oneflow_dump import dump
    dump(flowvision.models.resnet18().eval(), [flow.randn(1, 3, 224, 224)], "resnet18_of")
From the shell (FACTORY returns the module or graph):
    python3 oneflow_dump.py --script my_model.py --factory build --input-shape 1,3,224,224 --out resnet18_of
Then: flowbridge-cli convert resnet18_of -o resnet18.onnx --opset 13
"""
import argparse
import collections
import copyreg
import importlib.util
import os
import pickle
import sys

import numpy as np

ONEFLOW_DATA_TYPE = {  # numpy dtype -> OneFlow DataType enum name (data_type.proto)
    "float32": "kFloat", "float64": "kDouble", "float16": "kFloat16", "int8": "kInt8", "int32": "kInt32",
    "int64": "kInt64", "uint8": "kUInt8", "bool": "kBool",
}
ONEFLOW_DATA_TYPE_NUMBER = {"kFloat": 2, "kDouble": 3, "kInt8": 4, "kInt32": 5, "kInt64": 6, "kUInt8": 7,
                            "kFloat16": 9, "kBool": 12}


def as_graph(flow, model):
    """An nn.Graph for `model`: itself if it is one, else a graph whose build calls the module."""
    if isinstance(model, flow.nn.Graph):
        return model

    class DumpGraph(flow.nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model

        def build(self, *args):
            return self.model(*args)

    return DumpGraph()


def compile_graph(graph, inputs):
    if hasattr(graph, "_compile"):
        graph._compile(*inputs)
    else:  # older releases compile on the first call
        graph(*inputs)
    return graph._full_graph_proto


def flatten_state(graph):
    """Variable op name -> tensor, from graph.state_dict() ({block: module state}) and free eager tensors."""
    out = {}
    state = graph.state_dict()
    for block, sub in state.items():
        if hasattr(sub, "items"):
            for key, tensor in sub.items():
                out["%s.%s" % (block, key)] = tensor
        else:
            out[block] = sub
    return out


def as_array(name, tensor, shape):
    array = tensor.numpy() if hasattr(tensor, "numpy") else np.asarray(tensor)
    array = np.ascontiguousarray(array).reshape(shape)
    if array.dtype.name not in ONEFLOW_DATA_TYPE:
        raise SystemExit("variable %s has dtype %s, which FlowBridge cannot read" % (name, array.dtype))
    return array.astype(array.dtype.newbyteorder("<"))


def write_variable(folder, name, array):
    d = os.path.join(folder, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "out"), "wb") as f:
        f.write(array.astype(array.dtype.newbyteorder("<")).tobytes())
    with open(os.path.join(d, "meta"), "w") as f:
        f.write("shape {\n" + "".join("  dim: %d\n" % x for x in array.shape) + "}\n")
        f.write("data_type: %s\n" % ONEFLOW_DATA_TYPE[array.dtype.name])


class _Named:
    """An object pickled as NEWOBJ of the class `module.name` + BUILD `state`, without that class existing here:
    OneFlow's classes are referenced by name only, so the file is the same with or without OneFlow installed."""

    def __init__(self, state):
        self.state = state

    def __reduce_ex__(self, protocol):
        return copyreg.__newobj__, (type(self),), self.state


def _named_class(module, name):
    return type(name, (_Named,), {"__module__": module, "__qualname__": name})


class _OneflowPickler(pickle._Pickler):  # the Python pickler: its save_global can be taught OneFlow's names
    def save_global(self, obj, name=None):
        if isinstance(obj, type) and issubclass(obj, _Named) and obj is not _Named:
            module, name = obj.__module__, obj.__qualname__
            if self.proto >= 4:
                self.save(module)
                self.save(name)
                self.write(pickle.STACK_GLOBAL)
            else:
                self.write(pickle.GLOBAL + module.encode() + b"\n" + name.encode() + b"\n")
            self.memoize(obj)
            return
        super().save_global(obj, name)


def write_single_file(path, arrays):
    """Format C (OneFlow 1.0's oneflow.save default): each tensor is oneflow.Tensor with state {"data": ndarray,
    "dtype": oneflow._oneflow_internal.dtype (state: DataType number), "device": "cpu"}; protocol 4, the default of
    the Pythons OneFlow 1.0 supports. Written beside the target and renamed."""
    tensor_cls = _named_class("oneflow", "Tensor")
    dtype_cls = _named_class("oneflow._oneflow_internal", "dtype")
    data = collections.OrderedDict()
    for name, array in arrays.items():
        number = ONEFLOW_DATA_TYPE_NUMBER[ONEFLOW_DATA_TYPE[array.dtype.name]]
        data[name] = tensor_cls({"data": array, "dtype": dtype_cls(number), "device": "cpu"})
    temp = path + ".tmp"
    with open(temp, "wb") as f:
        _OneflowPickler(f, protocol=4).dump({"protocol_version": 1, "__oneflow__": None, "data": data})
    os.replace(temp, path)


def dump(model, inputs, out_dir, weights_format="file"):
    """Compiles `model` (nn.Graph or nn.Module in eval mode) on `inputs` and writes it to `out_dir`, with the
    weights in one file (weights.of, format C) or, for weights_format="folder", as weights/<variable>/ (format A)."""
    if weights_format not in ("file", "folder"):
        raise ValueError("weights_format is 'file' or 'folder'")
    import oneflow as flow

    graph = as_graph(flow, model)
    job = compile_graph(graph, inputs)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "job.pb"), "wb") as f:
        f.write(job.SerializeToString())
    state = flatten_state(graph)
    arrays = collections.OrderedDict()
    missing = []
    for op in job.net.op:
        if not op.HasField("variable_conf"):
            continue
        tensor = state.get(op.name)
        if tensor is None and "." in op.name:  # keys without the graph's block name
            tensor = state.get(op.name.split(".", 1)[1])
        if tensor is None:
            missing.append(op.name)
            continue
        arrays[op.name] = as_array(op.name, tensor, list(op.variable_conf.shape.dim))
    if missing:
        raise SystemExit("no tensor found for variables: " + ", ".join(missing))
    if weights_format == "file":
        write_single_file(os.path.join(out_dir, "weights.of"), arrays)
        return out_dir
    weights = os.path.join(out_dir, "weights")
    os.makedirs(weights, exist_ok=True)
    for name, array in arrays.items():
        write_variable(weights, name, array)
    open(os.path.join(weights, "snapshot_done"), "w").close()
    return out_dir


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--script", required=True, help="Python file defining the factory")
    ap.add_argument("--factory", required=True, help="function in the script returning an nn.Module or nn.Graph")
    ap.add_argument("--input-shape", action="append", required=True,
                    help="comma-separated shape of one float32 input (repeat for several inputs)")
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--weights-format", choices=["file", "folder"], default="file",
                    help="file: OUT/weights.of, OneFlow 1.0's single-file layout (default); "
                         "folder: OUT/weights/<variable>/{out,meta}, read by every OneFlow release")
    args = ap.parse_args()
    import oneflow as flow

    spec = importlib.util.spec_from_file_location("dump_target", args.script)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(args.script)))
    spec.loader.exec_module(module)
    model = getattr(module, args.factory)()
    if isinstance(model, flow.nn.Module):
        model.eval()
    inputs = [flow.randn(*[int(d) for d in s.split(",")]) for s in args.input_shape]
    print("wrote", dump(model, inputs, args.out, args.weights_format))


if __name__ == "__main__":
    main()
