#!/usr/bin/env python3
"""Dumps a OneFlow model in the layout FlowBridge reads, where OneFlow is installed (FlowBridge itself needs no
OneFlow). It compiles an nn.Graph (or wraps an nn.Module in one) on example inputs, then writes

    OUT/job.pb                      the compiled Job (graph._full_graph_proto), binary protobuf
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
import importlib.util
import os
import sys

import numpy as np

ONEFLOW_DATA_TYPE = {  # numpy dtype -> OneFlow DataType enum name (data_type.proto)
    "float32": "kFloat", "float64": "kDouble", "float16": "kFloat16", "int8": "kInt8", "int32": "kInt32",
    "int64": "kInt64", "uint8": "kUInt8", "bool": "kBool",
}


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


def write_variable(folder, name, tensor, shape):
    array = tensor.numpy() if hasattr(tensor, "numpy") else np.asarray(tensor)
    array = np.ascontiguousarray(array).reshape(shape)
    if array.dtype.name not in ONEFLOW_DATA_TYPE:
        raise SystemExit("variable %s has dtype %s, which FlowBridge cannot read" % (name, array.dtype))
    d = os.path.join(folder, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "out"), "wb") as f:
        f.write(array.astype(array.dtype.newbyteorder("<")).tobytes())
    with open(os.path.join(d, "meta"), "w") as f:
        f.write("shape {\n" + "".join("  dim: %d\n" % x for x in array.shape) + "}\n")
        f.write("data_type: %s\n" % ONEFLOW_DATA_TYPE[array.dtype.name])


def dump(model, inputs, out_dir):
    """Compiles `model` (nn.Graph or nn.Module in eval mode) on `inputs` and writes it to `out_dir`."""
    import oneflow as flow

    graph = as_graph(flow, model)
    job = compile_graph(graph, inputs)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "job.pb"), "wb") as f:
        f.write(job.SerializeToString())
    weights = os.path.join(out_dir, "weights")
    os.makedirs(weights, exist_ok=True)
    state = flatten_state(graph)
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
        write_variable(weights, op.name, tensor, list(op.variable_conf.shape.dim))
    if missing:
        raise SystemExit("no tensor found for variables: " + ", ".join(missing))
    open(os.path.join(weights, "snapshot_done"), "w").close()
    return out_dir


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--script", required=True, help="Python file defining the factory")
    ap.add_argument("--factory", required=True, help="function in the script returning an nn.Module or nn.Graph")
    ap.add_argument("--input-shape", action="append", required=True,
                    help="comma-separated shape of one float32 input (repeat for several inputs)")
    ap.add_argument("--out", required=True, help="output folder")
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
    print("wrote", dump(model, inputs, args.out))


if __name__ == "__main__":
    main()
