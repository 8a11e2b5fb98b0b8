"""Loads a folder of generated code (model.py + weights) as the user would, for the code-generation checks.

The caller puts tests/oneflow_standin on sys.path first when OneFlow folders are to be loaded: generated
OneFlow code imports `oneflow`.
"""
import importlib.util
import os


def load_generated(code, index):
    """Imports CODE/model.py, builds its model class, loads the weights with load_state_dict(strict=True) and
    returns (model in eval mode, the framework's from_numpy)."""
    with open(os.path.join(code, "model.py"), encoding="utf-8") as f:
        oneflow = "import oneflow" in f.read()
    spec = importlib.util.spec_from_file_location(f"generated_{index}", os.path.join(code, "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls = [v for k, v in vars(module).items() if isinstance(v, type) and k[0].isupper() and hasattr(v, "forward")][0]
    model = cls()
    if oneflow:
        import oneflow as flow
        model.load_state_dict(flow.load(os.path.join(code, "weights")), strict=True)
        wrap = flow.from_numpy
    else:
        import torch
        model.load_state_dict(torch.load(os.path.join(code, "weights.pt")), strict=True)
        wrap = torch.from_numpy
    model.eval()
    return model, wrap
