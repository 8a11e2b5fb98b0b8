"""Writes OneFlow graphs the way OneFlow's nn.Graph records them: a Job (net of OperatorConf, job_conf,
helper.lbn2logical_blob_desc) with input/variable/output system ops and user ops, plus the weight folders
flow.save / check_point_v2 write (<key>/out raw bytes, <key>/meta text VariableMetaInfo, snapshot_done).

The message classes come from FlowBridge's own oneflow_job.proto compiled with `protoc --python_out`."""
import importlib
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "core", "formats", "oneflow"))


def load_proto_module():
    out = tempfile.mkdtemp(prefix="fb_oneflow_pb2_")
    subprocess.run(["protoc", "--python_out=" + out, "-I", PROTO_DIR, os.path.join(PROTO_DIR, "oneflow_job.proto")],
                   check=True)
    sys.path.insert(0, out)
    return importlib.import_module("oneflow_job_pb2")


pb = load_proto_module()

NP_TO_OF = {np.dtype("float32"): pb.kFloat, np.dtype("float64"): pb.kDouble, np.dtype("int32"): pb.kInt32,
            np.dtype("int64"): pb.kInt64, np.dtype("int8"): pb.kInt8, np.dtype("uint8"): pb.kUInt8,
            np.dtype("bool"): pb.kBool, np.dtype("float16"): pb.kFloat16}


# Attribute values with OneFlow's exact AttrValue case.
class Attr:
    def __init__(self, case, value):
        self.case, self.value = case, value


def i32(v): return Attr("at_int32", int(v))
def i64(v): return Attr("at_int64", int(v))
def b(v): return Attr("at_bool", bool(v))
def f32(v): return Attr("at_float", float(v))
def f64(v): return Attr("at_double", float(v))
def s(v): return Attr("at_string", str(v))
def shape(v): return Attr("at_shape", [int(x) for x in v])
def dtype(v): return Attr("at_data_type", v)
def li32(v): return Attr("at_list_int32", [int(x) for x in v])
def li64(v): return Attr("at_list_int64", [int(x) for x in v])
def lf32(v): return Attr("at_list_float", [float(x) for x in v])
def lstr(v): return Attr("at_list_string", [str(x) for x in v])


def set_attr(av, a):
    if a.case in ("at_int32", "at_int64", "at_bool", "at_float", "at_double", "at_string", "at_data_type"):
        setattr(av, a.case, a.value)
    elif a.case == "at_shape":
        av.at_shape.dim.extend(a.value)
    else:
        getattr(av, a.case).val.extend(a.value)


class JobBuilder:
    """One job. Tensors are numpy arrays; every lbn gets its logical blob description."""

    def __init__(self, graph_name, blob_layout="v0.8"):
        self.graph_name = graph_name
        self.layout = blob_layout
        self.ops = []
        self.blobs = {}  # lbn -> (shape, of dtype)
        self.variables = {}  # variable op name -> (state key, array)
        self.n_inputs = 0
        self.n_outputs = 0
        self.n_ops = 0
        self.inputs = []  # (lbn, array)
        self.outputs = []  # (lbn, array)

    def _blob(self, lbn, arr):
        self.blobs[lbn] = (list(arr.shape), NP_TO_OF[arr.dtype])

    @staticmethod
    def _interface(conf, arr):
        conf.shape.dim.extend(arr.shape)
        conf.data_type = NP_TO_OF[arr.dtype]
        conf.is_dynamic = False

    def input(self, arr):
        op = pb.OperatorConf(name="_%s_0-input_%d" % (self.graph_name, self.n_inputs), device_tag="cpu")
        self.n_inputs += 1
        op.input_conf.out = "out"
        self._interface(op.input_conf.blob_conf, arr)
        self.ops.append(op)
        lbn = op.name + "/out"
        self._blob(lbn, arr)
        self.inputs.append((lbn, arr))
        return lbn

    def variable(self, op_name, state_key, arr):
        lbn = op_name + "/out"
        if op_name in self.variables:
            return lbn
        op = pb.OperatorConf(name=op_name, device_tag="cpu")
        vc = op.variable_conf
        vc.out = "out"
        vc.shape.dim.extend(arr.shape)
        vc.data_type = NP_TO_OF[arr.dtype]
        vc.initializer.SetInParent()
        vc.trainable = False
        vc.nd_sbp.append("B")
        self.ops.append(op)
        self.variables[op_name] = (state_key, np.ascontiguousarray(arr))
        self._blob(lbn, arr)
        return lbn

    def output(self, lbn, arr):
        # Lazy-era jobs (v0.3 layout) mark their results with return ops, nn.Graph with output ops.
        kind = "return" if self.layout == "v0.3" else "output"
        op = pb.OperatorConf(name="_%s_0-%s_%d" % (self.graph_name, kind, self.n_outputs), device_tag="cpu")
        self.n_outputs += 1
        conf = op.return_conf if kind == "return" else op.output_conf
        setattr(conf, "in", lbn)  # "in" is a Python keyword
        conf.out = "out"
        if kind == "output":
            self._interface(op.output_conf.blob_conf, arr)
        self.ops.append(op)
        out = op.name + "/out"
        self._blob(out, arr)
        self.outputs.append((out, arr))
        return out

    def distribute_op(self, kind, in_lbn, arr):
        """A single-device distribute_{split,concat,clone,add} system op (one input, one output)."""
        op = pb.OperatorConf(name="%s-%s_%d" % ("model", kind, self.n_ops), device_tag="cpu")
        self.n_ops += 1
        conf = getattr(op, kind + "_conf")
        getattr(conf, "in").append(in_lbn)
        conf.out.append("out_0")
        if kind in ("distribute_split", "distribute_concat"):
            conf.axis = 0
        self.ops.append(op)
        lbn = op.name + "/out_0"
        self._blob(lbn, arr)
        return lbn

    def user_op(self, scope, op_type, inputs, outputs, attrs=None, name=None):
        """inputs: [(arg, [lbn, ...])]; outputs: [(arg, [array, ...])]; returns the output lbns in order."""
        op = pb.OperatorConf(name=name or "%s-%s_%d" % (scope, op_type, self.n_ops), device_tag="cpu")
        self.n_ops += 1
        u = op.user_conf
        u.op_type_name = op_type
        for arg, lbns in inputs:
            u.input[arg].s.extend(lbns)
            u.input_order.append(arg)
        result = []
        for arg, arrays in outputs:
            for i, arr in enumerate(arrays):
                lbn = "%s/%s_%d" % (op.name, arg, i)
                u.output[arg].s.append(lbn)
                self._blob(lbn, arr)
                result.append(lbn)
            u.output_order.append(arg)
        for k, a in (attrs or {}).items():
            set_attr(u.attr[k], a)
        self.ops.append(op)
        return result

    def job(self):
        if self.layout == "v0.8":
            job = pb.JobV08()
            for lbn, (shp, dt) in self.blobs.items():
                d = job.helper.lbn2logical_blob_desc[lbn]
                d.shape.dim.extend(shp)
                d.stride.dim.extend(contiguous_stride(shp))
                d.data_type = dt
                d.is_dynamic = False
                d.memory_format = pb.kContiguous
        else:
            job = pb.Job()
            for lbn, (shp, dt) in self.blobs.items():
                if self.layout == "v0.5":
                    d = pb.BlobDescProtoV05(data_type=dt, is_dynamic=False)
                    d.shape.dim.extend(shp)
                else:
                    d = pb.BlobDescProtoV03(is_tensor_list=False, is_body_disabled=False, is_dynamic=False,
                                            header_is_opaque=False)
                    d.header.SetInParent()
                    d.body.shape.dim.extend(shp)
                    d.body.data_type = dt
                job.helper.lbn2logical_blob_desc[lbn] = d.SerializeToString()
        job.net.op.extend(self.ops)
        job.job_conf.job_name = self.graph_name
        job.job_conf.predict_conf.SetInParent()
        return job

    def write_weights(self, folder, key="state"):
        """key="state": folders named by state-dict key (flow.save(module.state_dict())); "op": by variable op
        name (check_point_v2 / serving)."""
        os.makedirs(folder, exist_ok=True)
        for op_name, (state_key, arr) in self.variables.items():
            d = os.path.join(folder, state_key if key == "state" else op_name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "out"), "wb") as f:
                f.write(np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes())
            meta = pb.VariableMetaInfo(data_type=NP_TO_OF[arr.dtype])
            meta.shape.dim.extend(arr.shape)
            with open(os.path.join(d, "meta"), "w") as f:
                f.write(str(meta))
        open(os.path.join(folder, "snapshot_done"), "w").close()


def contiguous_stride(shp):
    stride, acc = [], 1
    for d in reversed(shp):
        stride.append(acc)
        acc *= max(int(d), 1)
    return list(reversed(stride))
