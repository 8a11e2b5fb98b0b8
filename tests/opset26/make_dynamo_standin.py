#!/usr/bin/python3
"""Writes OUTDIR/dynamo_standin_18.onnx: a stand-in for a model as today's PyTorch writes it (torch.onnx.export with
dynamo=True, torch 2.5+), which this machine cannot run: Debian's torch 1.13 exports with TorchScript up to opset
17, and PyPI is unreachable.

  1. A real model (a small ViT-style classifier: Conv patch embedding, a pre-norm GELU TransformerEncoderLayer,
     LayerNorm, split + gating, mean pooling, Linear head) is exported by torch 1.13 at opset 17.
  2. FlowBridge's own up-conversion (`flowbridge-cli convert --opset 18`, the path given as the second argument)
     moves it to opset 18: Reduce* axes become inputs, Split gets its sizes as an input.
  3. The result is rewritten into the form the dynamo exporter writes (facts from torch's docs
     docs/source/onnx_export.md "Metadata" and onnxscript's torch_lib, read through the search tool): IR version 10;
     equal Splits as num_outputs; graph "main_graph"; node names node_<Op>_<index>; values named after the ATen op
     that made them (convolution, layer_norm, linear, ...; repeats numbered _1, _2) or val_<n>; symbolic batch
     s0; per-node metadata_props (namespace, pkg.torch.onnx.class_hierarchy/name_scopes/fx_node/stack_trace);
     graph metadata_props (graph signature, range constraints); input/output/initializer metadata_props; and the
     model-local functions Rank and IsScalar of domain pkg.onnxscript.torch_lib.common (version 1), which the
     exporter adds to every model. python3-onnx 1.12 does not know the IR-10 fields: they are written as wire
     bytes (merged in as unknown fields, which protobuf keeps).
The model's metadata_props say that it is a stand-in. Also writes OUTDIR/dynamo_standin_17.onnx (step 1's export),
whose outputs the test compares with the stand-in's."""
import inspect, os, subprocess, sys
import numpy as np
import onnx
from onnx import helper as h, numpy_helper
import torch

out, cli = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)


class TinyViT(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = torch.nn.Conv2d(3, 32, kernel_size=4, stride=4)
        self.block = torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0,
                                                      activation="gelu", batch_first=True, norm_first=True)
        self.norm = torch.nn.LayerNorm(32)
        self.head = torch.nn.Linear(16, 10)

    def forward(self, x):
        tokens = self.patch(x).flatten(2).transpose(1, 2)
        tokens = self.norm(self.block(tokens))
        value, gate = tokens.split([16, 16], dim=-1)
        return self.head((value * torch.sigmoid(gate)).mean(dim=1))


model = TinyViT().eval()
x = torch.randn(2, 3, 16, 16)
path17 = os.path.join(out, "dynamo_standin_17.onnx")
# Autograd stays on: under no_grad the encoder layer takes its fused fast path, which has no ONNX export.
torch.onnx.export(model, (x,), path17, opset_version=17, input_names=["x"], output_names=["linear"],
                  dynamic_axes={"x": {0: "batch"}, "linear": {0: "batch"}})

# 2. FlowBridge moves it to opset 18.
path18 = os.path.join(out, "dynamo_standin_up18.onnx")
subprocess.run([cli, "convert", path17, "-o", path18, "--opset", "18", "--passes", "none"], check=True,
               stdout=subprocess.DEVNULL)
m = onnx.load(path18)
os.remove(path18)
g = m.graph
assert any(n.op_type == "ReduceMean" and len(n.input) == 2 for n in g.node), "no ReduceMean with an axes input"


# --- Wire bytes for fields onnx 1.12's proto lacks (StringStringEntryProto: key = 1, value = 2).
def varint(v):
    b = bytearray()
    while True:
        byte = v & 0x7F
        v >>= 7
        b.append(byte | (0x80 if v else 0))
        if not v:
            return bytes(b)


def field(num, payload):
    return varint((num << 3) | 2) + varint(len(payload)) + payload


def metadata(msg, field_number, entries):
    for key, value in entries:
        msg.MergeFromString(field(field_number, field(1, key.encode()) + field(2, value.encode())))


NODE_METADATA, GRAPH_METADATA, VALUE_INFO_METADATA, TENSOR_METADATA = 9, 16, 4, 16

# 3a. Equal splits as num_outputs (Split-18), as the exporter writes split() into equal parts.
consts = {t.name: numpy_helper.to_array(t) for t in g.initializer}
for n in g.node:
    if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
        consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
for n in g.node:
    if n.op_type == "Split" and len(n.input) > 1 and n.input[1] in consts:
        sizes = list(consts[n.input[1]])
        if len(set(sizes)) == 1:
            del n.input[1]
            n.attribute.append(h.make_attribute("num_outputs", len(sizes)))
still_used = {i for n in g.node for i in n.input}
for n in [n for n in g.node if n.op_type == "Constant" and n.output[0] not in still_used]:
    g.node.remove(n)

# 3b. Names: values after the ATen op that made them, else val_<n>; nodes node_<Op>_<index>.
ATEN = {"Conv": "convolution", "MatMul": "matmul", "Gemm": "linear", "Add": "add", "Mul": "mul", "Div": "div",
        "Sub": "sub", "Softmax": "softmax", "LayerNormalization": "layer_norm", "Transpose": "transpose",
        "Reshape": "view", "ReduceMean": "mean", "Split": "split", "Erf": "erf", "Sigmoid": "sigmoid",
        "Concat": "cat", "Flatten": "flatten", "Sqrt": "sqrt", "Pow": "pow"}
used, counter, renames = {"linear": 1}, [0], {}  # "linear" is the graph output's name
graph_inputs = {i.name for i in g.input}


def fresh(op):
    base = ATEN.get(op)
    if base is None:
        name = "val_%d" % counter[0]
        counter[0] += 1
        return name
    k = used.get(base, 0)
    used[base] = k + 1
    return base if k == 0 else "%s_%d" % (base, k)


getitems = [0]


def getitem():
    k = getitems[0]
    getitems[0] += 1
    return "getitem" if k == 0 else "getitem_%d" % k


for n in g.node:
    for i, o in enumerate(n.output):
        if o and o not in renames and o != "linear":
            # chunk() is one FX node whose pieces are getitem nodes; other extra outputs are helper values.
            renames[o] = getitem() if n.op_type == "Split" else fresh(n.op_type) if i == 0 else fresh("")
for t in g.initializer:
    if t.name.startswith("onnx::") or t.name.startswith("/"):
        old = t.name
        renames[old] = "val_%d" % counter[0]
        counter[0] += 1
        metadata(t, TENSOR_METADATA, [("pkg.torch.onnx.original_node_name", old)])
for n in g.node:
    n.input[:] = [renames.get(i, i) for i in n.input]
    n.output[:] = [renames.get(o, o) for o in n.output]
for t in g.initializer:
    t.name = renames.get(t.name, t.name)
for vi in g.value_info:
    vi.name = renames.get(vi.name, vi.name)

# 3c. Node metadata: the module each node came from (torch 1.13's scope names: /block/self_attn/MatMul).
modules = dict(model.named_modules())


def module_path(scope):
    parts = [p for p in scope.split("/")[1:-1] if p]
    path = []
    for p in parts:
        candidate = ".".join(path + [p])
        if candidate in modules:
            path.append(p)
    return path


for index, n in enumerate(g.node):
    path = module_path(n.name)
    chain = [modules[""]] + [modules[".".join(path[:k + 1])] for k in range(len(path))]
    classes = ["__main__.TinyViT"] + ["%s.%s" % (type(c).__module__, type(c).__name__) for c in chain[1:]]
    aten = "aten.%s.default" % ATEN.get(n.op_type, n.op_type.lower())
    owner = type(chain[-1])
    src, first = inspect.getsourcelines(owner.forward)
    file = inspect.getsourcefile(owner.forward)
    stack = 'File "%s", line %d, in forward\n    %s' % (file, first + 1, src[1].strip() if len(src) > 1 else "")
    metadata(n, NODE_METADATA, [
        ("namespace", "/".join(classes[:1] + [".".join(path)]) + ": " + aten),
        ("pkg.torch.onnx.class_hierarchy", repr(classes + [aten])),
        ("pkg.torch.onnx.fx_node", "%%%s : [num_users=%d] = call_function[target=torch.ops.%s]" %
         (n.output[0], sum(n.output[0] in m.input for m in g.node), aten)),
        ("pkg.torch.onnx.name_scopes", repr([""] + path)),
        ("pkg.torch.onnx.stack_trace", stack),
    ])
    n.name = "node_%s_%d" % (n.op_type, index)

# 3d. Graph, inputs, outputs: names, symbolic dims, signatures.
g.name = "main_graph"
for vi in list(g.input) + list(g.output) + list(g.value_info):
    for d in vi.type.tensor_type.shape.dim:
        if d.HasField("dim_param"):
            d.dim_param = "s0"
for vi in g.input:
    metadata(vi, VALUE_INFO_METADATA, [("pkg.torch.export.graph_signature.InputSpec.kind", "USER_INPUT"),
                                        ("pkg.torch.export.graph_signature.InputSpec.persistent", "None")])
for vi in g.output:
    metadata(vi, VALUE_INFO_METADATA, [("pkg.torch.export.graph_signature.OutputSpec.kind", "USER_OUTPUT")])
metadata(g, GRAPH_METADATA, [
    ("pkg.torch.export.ExportedProgram.graph_signature",
     "# inputs\nx: USER_INPUT\n\n# outputs\nlinear: USER_OUTPUT\n"),
    ("pkg.torch.export.ExportedProgram.range_constraints", "{s0: VR[2, int_oo]}"),
])

# 3e. The torch_lib common functions every dynamo export carries.
COMMON = "pkg.onnxscript.torch_lib.common"
rank = h.make_function(COMMON, "Rank", ["input"], ["return_val"],
                       [h.make_node("Shape", ["input"], ["tmp"]), h.make_node("Size", ["tmp"], ["return_val"])],
                       [h.make_opsetid("", 18)])
is_scalar = h.make_function(COMMON, "IsScalar", ["input"], ["return_val"],
                            [h.make_node("Shape", ["input"], ["tmp"]), h.make_node("Size", ["tmp"], ["tmp_0"]),
                             h.make_node("Constant", [], ["tmp_1"], value_int=0),
                             h.make_node("Equal", ["tmp_0", "tmp_1"], ["return_val"])],
                            [h.make_opsetid("", 18)])
m.functions.extend([rank, is_scalar])
m.opset_import.append(h.make_opsetid(COMMON, 1))
m.ir_version = 10
m.producer_name = "pytorch"
m.producer_version = "1.13.1"
del m.metadata_props[:]
m.metadata_props.append(onnx.StringStringEntryProto(
    key="flowbridge.stand_in",
    value="torch 1.13.1 TorchScript export at opset 17, moved to opset 18 by FlowBridge and rewritten in the form of "
          "torch.onnx's dynamo exporter (torch 2.5+); not written by that exporter"))
onnx.save(m, os.path.join(out, "dynamo_standin_18.onnx"))
print("dynamo stand-in:", len(g.node), "nodes,", len(m.functions), "functions")
