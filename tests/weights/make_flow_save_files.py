#!/usr/bin/env python3
"""Writes the pickle-based oneflow.save layouts byte for byte as OneFlow 0.6-1.0 writes them (format B: folder with
pickled_data + tensor_<N>/{out,meta}; format C: one pickle file; docs: oneflow-checkpoint-format.md), without OneFlow:
classes named as OneFlow's (oneflow.Tensor, oneflow.nn.Parameter, oneflow._oneflow_internal.dtype) are registered
as fake modules and pickle with the same NEWOBJ + BUILD state OneFlow's tensor_getstate produces.

    make_flow_save_files.py --out DIR             fixtures for test_flow_save_reader (see write_fixtures)
    make_flow_save_files.py --from-folder A --c FILE [--b DIR] [--protocol N]
                                                  the format A folder A re-saved as format C (and B)
"""
import argparse
import collections
import copyreg
import os
import pickle
import random
import shutil
import struct
import sys
import types

import numpy as np

DATA_TYPE = {  # numpy dtype name -> (DataType enum number, name) of data_type.proto
    "int8": (4, "kInt8"), "float32": (2, "kFloat"), "float64": (3, "kDouble"), "int32": (5, "kInt32"),
    "int64": (6, "kInt64"), "uint8": (7, "kUInt8"), "float16": (9, "kFloat16"), "bool": (12, "kBool"),
    "int16": (17, "kInt16"), "complex64": (20, "kComplex64"), "complex128": (21, "kComplex128"),
}
NUMPY_OF_NAME = {name: np.dtype(k) for k, (_, name) in DATA_TYPE.items()}


def install_fake_oneflow():
    """sys.modules entries so that pickle writes 'oneflow Tensor', 'oneflow.nn Parameter' and
    'oneflow._oneflow_internal dtype' exactly as OneFlow's classes are named."""
    flow = types.ModuleType("oneflow")
    nn = types.ModuleType("oneflow.nn")
    internal = types.ModuleType("oneflow._oneflow_internal")

    class Tensor:
        def __init__(self, state):
            self.state = state

        def __reduce_ex__(self, protocol):  # copyreg.__newobj__ -> NEWOBJ with (), then BUILD state
            return copyreg.__newobj__, (type(self),), self.state

    class Parameter(Tensor):
        pass

    class dtype:
        def __init__(self, number):
            self.number = number

        def __reduce_ex__(self, protocol):
            return copyreg.__newobj__, (type(self),), self.number

    for cls, mod, name in [(Tensor, flow, "Tensor"), (Parameter, nn, "Parameter"), (dtype, internal, "dtype")]:
        cls.__module__, cls.__qualname__, cls.__name__ = mod.__name__, name, name
        setattr(mod, name, cls)
    flow.nn, flow._oneflow_internal = nn, internal
    sys.modules.update({"oneflow": flow, "oneflow.nn": nn, "oneflow._oneflow_internal": internal})
    return flow


def write_variable(folder, array):
    """Format A's variable layout (check_point_v2._save_tensor_to_disk): out = raw bytes, meta = text proto."""
    os.makedirs(folder)
    np.ascontiguousarray(array).tofile(os.path.join(folder, "out"))
    with open(os.path.join(folder, "meta"), "w") as f:
        f.write("shape {\n" + "".join("  dim: %d\n" % d for d in array.shape) + "}\n")
        f.write("data_type: %s\n" % DATA_TYPE[array.dtype.name][1])


def read_variable(folder):
    text = open(os.path.join(folder, "meta")).read()
    dims = [int(line.split(":")[1]) for line in text.splitlines() if line.strip().startswith("dim:")]
    name = [line.split(":")[1].strip() for line in text.splitlines() if line.startswith("data_type")][0]
    return np.fromfile(os.path.join(folder, "out"), dtype=NUMPY_OF_NAME[name]).reshape(dims)


def state_dict(flow, arrays, parameters, metadata=True):
    """An OrderedDict like Module.state_dict(): Parameters for weights (OneFlow never detaches), Tensors for
    buffers, with the _metadata attribute (pickled as BUILD on the OrderedDict)."""
    sd = collections.OrderedDict()
    for key, (array, state) in arrays.items():
        sd[key] = (flow.nn.Parameter if key in parameters else flow.Tensor)(state)
    if metadata:
        sd._metadata = collections.OrderedDict([("", {"version": 1})])
    return sd


def save_c(flow, arrays, parameters, path, protocol, envelope_key=True):
    states = {k: (a, {"data": a, "dtype": flow._oneflow_internal.dtype(DATA_TYPE[a.dtype.name][0]), "device": "cpu"})
              for k, a in arrays.items()}
    envelope = {"protocol_version": 1}
    if envelope_key:
        envelope["__oneflow__"] = None
    envelope["data"] = state_dict(flow, states, parameters)
    with open(path, "wb") as f:
        f.write(pickle.dumps(envelope, protocol=protocol))


def save_b(flow, arrays, parameters, folder, protocol, rng):
    os.makedirs(folder)
    states = {}
    for key, a in arrays.items():
        rel = "tensor_%d" % rng.randrange(1, 10 ** 6)  # NewUniqueId(): arbitrary, non-contiguous
        while os.path.exists(os.path.join(folder, rel)):
            rel = "tensor_%d" % rng.randrange(1, 10 ** 6)
        write_variable(os.path.join(folder, rel), a)
        states[key] = (a, {"path": rel})
    with open(os.path.join(folder, "pickled_data"), "wb") as f:  # written last, as flow.save does
        f.write(pickle.dumps({"protocol_version": 1, "data": state_dict(flow, states, parameters)}, protocol=protocol))


def save_a(arrays, folder):
    os.makedirs(folder)
    for key, a in arrays.items():
        write_variable(os.path.join(folder, key), a)
    open(os.path.join(folder, "snapshot_done"), "w").close()


def sample_arrays():
    """A small network's state dict (conv, batch norm with its int64 0-d counter, linear) and one tensor of every
    dtype OneFlow can save, including empty and many-element ones."""
    import torch
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.BatchNorm2d(8), torch.nn.ReLU(), torch.nn.Flatten(),
                              torch.nn.Linear(8 * 6 * 6, 10))
    net[1].running_mean.uniform_()
    arrays = collections.OrderedDict((k, v.detach().numpy().copy()) for k, v in net.state_dict().items())
    parameters = {k for k, _ in net.named_parameters()}
    rng = np.random.default_rng(1)
    arrays["extra.f64"] = rng.standard_normal((3, 4))
    arrays["extra.f16"] = rng.standard_normal((5,)).astype(np.float16)
    arrays["extra.i8"] = rng.integers(-128, 127, (2, 3), dtype=np.int8)
    arrays["extra.i16"] = rng.integers(-30000, 30000, (7,), dtype=np.int16)
    arrays["extra.i32"] = rng.integers(-2 ** 31, 2 ** 31 - 1, (2, 2, 2), dtype=np.int32)
    arrays["extra.u8"] = rng.integers(0, 255, (300,), dtype=np.uint8)
    arrays["extra.bool"] = rng.integers(0, 2, (4,)).astype(np.bool_)
    arrays["extra.c64"] = (rng.standard_normal(3) + 1j * rng.standard_normal(3)).astype(np.complex64)
    arrays["extra.empty"] = np.zeros((0, 3), dtype=np.float32)
    arrays["extra.big"] = rng.standard_normal((70000,)).astype(np.float32)
    return arrays, parameters


def hostile(out, marker):
    """Pickles that must be refused; those that call os.system would create `marker` if anything executed them."""
    command = ("touch " + marker).encode()
    cases = {}
    # GLOBAL + REDUCE: the classic payload, inside an otherwise valid envelope.
    cases["global_reduce_os_system"] = (b"\x80\x02}q\x00(X\x10\x00\x00\x00protocol_versionK\x01X\x04\x00\x00\x00data"
                                       b"cos\nsystem\nX" + struct.pack("<I", len(command)) + command +
                                       b"\x85R" + b"u.")
    # STACK_GLOBAL + REDUCE (protocol 4 spelling), builtins.eval.
    code = b"__import__('os').system('" + command + b"')"
    cases["stack_global_eval"] = (b"\x80\x04\x8c\x08builtins\x8c\x04eval\x93\x8c" + bytes([len(code)]) + code +
                                  b"\x85R.")
    # NEWOBJ of a class that is not whitelisted (subprocess.Popen).
    cases["newobj_popen"] = (b"\x80\x04\x8c\nsubprocess\x8c\x05Popen\x93)\x81.")
    # INST / OBJ (protocol 0/1 opcodes that call classes) and an opcode that does not exist.
    cases["inst_opcode"] = b"\x80\x02(ios\nsystem\nX" + struct.pack("<I", len(command)) + command + b"."
    cases["unknown_opcode"] = b"\x80\x04\xff."
    # Persistent ids (what torch's data.pkl uses): no persistent_load here.
    cases["binpersid"] = b"\x80\x02X\x01\x00\x00\x000Q."
    # Lengths past the end of the file.
    cases["huge_binbytes8"] = b"\x80\x04\x8e" + struct.pack("<Q", 1 << 60) + b"abc"
    cases["huge_binunicode"] = b"\x80\x02X" + struct.pack("<I", 0xFFFFFFF0) + b"abc"
    cases["huge_frame"] = b"\x80\x04\x95" + struct.pack("<Q", 1 << 62) + b"."
    # Deep nesting: MARKs, and lists inside lists.
    cases["deep_marks"] = b"\x80\x02" + b"(" * 100000 + b"t" * 100000 + b"."
    cases["deep_lists"] = b"\x80\x02" + b"]" * 200000 + b"a" * 199999 + b"."
    # Many small values: memory would grow about 250 times the file size without a cap.
    cases["many_values"] = b"\x80\x04]" + b"N" * (1 << 21) + b"."
    # Memo references to nothing.
    cases["memo_out_of_range"] = b"\x80\x02]q\x00h\x05."
    cases["long_memo_out_of_range"] = b"\x80\x04]\x94j\xff\xff\xff\x7f."
    # Protocol 1 and 0 are not what OneFlow writes.
    cases["protocol_0"] = b"(lp0\n."
    for name, data in cases.items():
        with open(os.path.join(out, name + ".of"), "wb") as f:
            f.write(data)
    return cases


def write_fixtures(out):
    flow = install_fake_oneflow()
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    arrays, parameters = sample_arrays()
    save_a(arrays, os.path.join(out, "reference_a"))
    rng = random.Random(7)
    for protocol in (2, 4, 5):
        save_c(flow, arrays, parameters, os.path.join(out, "c_p%d.of" % protocol), protocol)
        save_b(flow, arrays, parameters, os.path.join(out, "b_p%d" % protocol), protocol, rng)
    # A truncated format C file (the first half of a valid one).
    data = open(os.path.join(out, "c_p4.of"), "rb").read()
    os.makedirs(os.path.join(out, "hostile"))
    with open(os.path.join(out, "hostile", "truncated.of"), "wb") as f:
        f.write(data[: len(data) // 2])
    # Format B whose path leaves the folder, and one whose tensor folder is missing.
    for name, rel in [("b_escape", "../reference_a/0.weight"), ("b_missing", "tensor_404")]:
        folder = os.path.join(out, "hostile", name)
        os.makedirs(folder)
        env = {"protocol_version": 1, "data": collections.OrderedDict(w=flow.Tensor({"path": rel}))}
        with open(os.path.join(folder, "pickled_data"), "wb") as f:
            f.write(pickle.dumps(env, protocol=4))
    # A format C tensor whose array holds fewer bytes than its shape needs (numpy's own reduce, data cut short).
    bias = arrays["0.bias"]

    class ShortArray:
        def __reduce_ex__(self, protocol):
            return (np.core.multiarray._reconstruct, (np.ndarray, (0,), b"b"),
                    (1, bias.shape, bias.dtype, False, bias.tobytes()[:-4]))

    short = {"data": ShortArray(), "dtype": flow._oneflow_internal.dtype(2), "device": "cpu"}
    blob = pickle.dumps({"protocol_version": 1, "__oneflow__": None,
                         "data": collections.OrderedDict(b=flow.Tensor(short))}, protocol=4)
    with open(os.path.join(out, "hostile", "short_array.of"), "wb") as f:
        f.write(blob)
    # The os.system payload really runs under pickle.loads: proven on a copy with another marker.
    live_marker = os.path.join(out, "live_marker")
    live = hostile(os.path.join(out, "hostile"), live_marker)
    try:
        pickle.loads(live["global_reduce_os_system"])
    except Exception:
        pass
    if not os.path.exists(live_marker):
        sys.exit("the os.system payload did not run under pickle.loads: the hostile fixture proves nothing")
    os.remove(live_marker)
    hostile(os.path.join(out, "hostile"), os.path.join(out, "marker"))
    with open(os.path.join(out, "keys.txt"), "w") as f:
        f.write("\n".join(arrays) + "\n")


def convert_folder(args):
    flow = install_fake_oneflow()
    names = sorted(n for n in os.listdir(args.from_folder) if n != "snapshot_done")
    arrays = collections.OrderedDict((n, read_variable(os.path.join(args.from_folder, n))) for n in names)
    params = {n for n in names if n.endswith("weight") or n.endswith("bias")}
    save_c(flow, arrays, params, args.c, args.protocol)
    if args.b:
        save_b(flow, arrays, params, args.b, args.protocol, random.Random(3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--from-folder")
    ap.add_argument("--c")
    ap.add_argument("--b")
    ap.add_argument("--protocol", type=int, default=4)
    args = ap.parse_args()
    if args.from_folder:
        convert_folder(args)
    else:
        write_fixtures(args.out)


if __name__ == "__main__":
    main()
