"""The pybind module whose `dtype` class OneFlow pickles (format C): here only that class and its enum numbers."""
import torch

# data_type.proto numbers of the dtypes OneFlow can save (numpy-convertible).
DATA_TYPE_OF = {
    torch.float32: 2, torch.float64: 3, torch.int8: 4, torch.int32: 5, torch.int64: 6, torch.uint8: 7,
    torch.float16: 9, torch.bool: 12, torch.int16: 17, torch.complex64: 20, torch.complex128: 21,
}
TORCH_DTYPE_OF = {v: k for k, v in DATA_TYPE_OF.items()}


class dtype:
    """Only as a pickled reference: OneFlow's pickle state is the DataType enum value."""

    def __setstate__(self, state):
        if state not in TORCH_DTYPE_OF:
            raise NotImplementedError("DataType %r has no numpy counterpart" % (state,))
        self.data_type = state

    def torch_dtype(self):
        return TORCH_DTYPE_OF[self.data_type]


dtype.__module__ = "oneflow._oneflow_internal"
