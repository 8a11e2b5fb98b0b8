"""oneflow.save / oneflow.load as check_point_v2.py does them in OneFlow 1.0 (docs/oneflow-checkpoint-format.md)."""
import copyreg
import io
import os
import pickle
import re

import numpy as np
import torch

from . import _oneflow_internal

NUMPY_OF_DATA_TYPE = {
    1: np.int8, 2: np.float32, 3: np.float64, 4: np.int8, 5: np.int32, 6: np.int64, 7: np.uint8, 9: np.float16,
    12: np.bool_, 17: np.int16, 20: np.complex64, 21: np.complex128,
}
DATA_TYPE_OF_NAME = {"kChar": 1, "kFloat": 2, "kDouble": 3, "kInt8": 4, "kInt32": 5, "kInt64": 6, "kUInt8": 7,
                     "kFloat16": 9, "kBool": 12, "kInt16": 17, "kComplex64": 20, "kComplex128": 21}


def _read_meta(path):
    text = open(path).read()
    dims = [int(d) for d in re.findall(r"dim:\s*(-?\d+)", text)]
    m = re.search(r"data_type:\s*(\w+)", text)
    if not m:
        raise RuntimeError("%s: no data_type" % path)
    value = m.group(1)
    data_type = int(value) if value.isdigit() else DATA_TYPE_OF_NAME.get(value)
    if data_type not in NUMPY_OF_DATA_TYPE:
        raise NotImplementedError("%s: data type %s has no numpy counterpart" % (path, value))
    return dims, NUMPY_OF_DATA_TYPE[data_type]


def _read_variable(folder):
    """Format A's reader (legacy_load / _LoadSingleVariable): out + meta, size asserted."""
    dims, np_dtype = _read_meta(os.path.join(folder, "meta"))
    out = os.path.join(folder, "out")
    count = int(np.prod(dims)) if dims else 1
    if os.path.getsize(out) != count * np.dtype(np_dtype).itemsize:
        raise AssertionError("%s: file size does not match shape x itemsize" % out)
    return torch.from_numpy(np.fromfile(out, dtype=np_dtype).reshape(dims).copy())


def _legacy_load(path):
    assert os.path.isfile(os.path.join(path, "snapshot_done")), "no snapshot_done in %s" % path
    result = {}
    for name in os.listdir(path):
        if name == "snapshot_done":
            continue
        folder = os.path.join(path, name)
        if not os.path.exists(os.path.join(folder, "out")):
            continue  # OneFlow warns and skips
        if not os.path.exists(os.path.join(folder, "meta")):
            raise RuntimeError("%s does not have meta info" % folder)
        result[name] = _read_variable(folder)
    return result


class _TensorState:
    """What NEWOBJ + BUILD of 'oneflow Tensor' / 'oneflow.nn Parameter' produce; turned into tensors after."""

    def __init__(self, parameter):
        self.parameter = parameter

    def __setstate__(self, state):
        self.state = state


def _tensor_factory(parameter):
    class Cls(_TensorState):  # NEWOBJ calls Cls.__new__(Cls): it hands back a plain _TensorState
        def __new__(cls, *args):
            obj = object.__new__(_TensorState)
            obj.parameter = parameter
            return obj
    return Cls


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) == ("oneflow", "Tensor"):
            return _tensor_factory(False)
        if (module, name) == ("oneflow.nn", "Parameter"):
            return _tensor_factory(True)
        if (module, name) == ("oneflow._oneflow_internal", "dtype"):
            return _oneflow_internal.dtype
        return super().find_class(module, name)


def _materialize(obj, base_dir):
    if isinstance(obj, _TensorState):
        state = obj.state
        if "path" in state:  # format B: the tensor's own variable folder
            if base_dir is None:
                raise RuntimeError("a tensor refers to %r outside a pickle directory" % state["path"])
            t = _read_variable(os.path.join(base_dir, state["path"]))
        else:
            t = torch.from_numpy(np.array(state["data"], copy=True))
            if "dtype" in state and isinstance(state["dtype"], _oneflow_internal.dtype):
                t = t.to(state["dtype"].torch_dtype())
        return torch.nn.Parameter(t, requires_grad=t.is_floating_point()) if obj.parameter else t
    if isinstance(obj, dict):
        out = type(obj)()
        for k, v in obj.items():
            out[k] = _materialize(v, base_dir)
        return out
    if isinstance(obj, list):
        return [_materialize(v, base_dir) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_materialize(v, base_dir) for v in obj)
    return obj


def _unpack(envelope, base_dir):
    assert envelope["protocol_version"] == 1
    return _materialize(envelope["data"], base_dir)


def load(path, global_src_rank=None, map_location=None):
    """OneFlow 1.0's order: format A folder, format C file (a pickle holding "__oneflow__"), format B folder."""
    path = os.fspath(path) if not hasattr(path, "read") else path
    if isinstance(path, str) and os.path.isdir(path):
        pickled = os.path.join(path, "pickled_data")
        if not os.path.exists(pickled):
            return _legacy_load(path)
        with open(pickled, "rb") as f:
            return _unpack(_Unpickler(f).load(), path)
    try:
        if isinstance(path, str):
            with open(path, "rb") as f:
                content = _Unpickler(f).load()
        else:
            content = _Unpickler(path).load()
    except Exception:
        raise ValueError('Cannot load file "%s"' % path)
    if not isinstance(content, dict) or "__oneflow__" not in content:
        raise ValueError('Cannot load file "%s"' % path)
    return _unpack(content, None)


def _as_oneflow_classes(obj):
    """Tensors become instances of oneflow.Tensor / oneflow.nn.Parameter: pickle's NEWOBJ wants the real class."""
    from . import Tensor, nn

    if isinstance(obj, torch.Tensor):
        t = obj.detach().cpu()
        if t.dtype not in _oneflow_internal.DATA_TYPE_OF:
            raise NotImplementedError("oneflow.save cannot save %s tensors" % t.dtype)
        return t.as_subclass(nn.Parameter if isinstance(obj, torch.nn.Parameter) else Tensor)
    if isinstance(obj, dict):
        out = type(obj)()
        for k, v in obj.items():
            out[k] = _as_oneflow_classes(v)
        if hasattr(obj, "_metadata"):
            out._metadata = obj._metadata
        return out
    if isinstance(obj, (list, tuple)):
        return type(obj)(_as_oneflow_classes(v) for v in obj)
    return obj


class _Pickler(pickle.Pickler):
    """Tensors as OneFlow 1.0's tensor_getstate writes them outside a pickle directory (format C)."""

    def reducer_override(self, obj):
        from . import Tensor, nn

        if type(obj) in (Tensor, nn.Parameter):
            data = obj.as_subclass(torch.Tensor).numpy()
            dtype = _oneflow_internal.dtype()
            dtype.data_type = _oneflow_internal.DATA_TYPE_OF[obj.dtype]
            return copyreg.__newobj__, (type(obj),), {"data": data, "dtype": dtype, "device": "cpu"}
        if type(obj) is _oneflow_internal.dtype:
            return copyreg.__newobj__, (_oneflow_internal.dtype,), obj.data_type
        return NotImplemented


def save(obj, path_or_buffer, global_dst_rank=None, save_as_external_data=False):
    if save_as_external_data:
        raise NotImplementedError("the stand-in writes format C only")
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.DEFAULT_PROTOCOL).dump(
        {"protocol_version": 1, "__oneflow__": None, "data": _as_oneflow_classes(obj)})
    if hasattr(path_or_buffer, "write"):
        path_or_buffer.write(buffer.getvalue())
        return
    with open(path_or_buffer, "wb") as f:
        f.write(buffer.getvalue())
