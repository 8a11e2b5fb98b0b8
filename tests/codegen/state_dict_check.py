#!/usr/bin/python3
"""Generated modules against the state_dict of the PyTorch module the ONNX model was exported from (issue 25).

    state_dict_check.py export-mlp --out MLP.onnx
    state_dict_check.py check --case transformer|resnet50|mlp --onnx SRC.onnx --corpus CORPUS --work DIR CODE_DIR...

`export-mlp` exports a square MLP (64x64 nn.Linear layers on a rank-3 input, so the exporter writes MatMul with the
weight transposed; the last layer has no bias) with torch.onnx.export. `check` builds the source module with the
seeds make_corpus.py uses (the MLP: this file's), and for each generated folder (PyTorch or OneFlow, the latter on
the test-only stand-in): overwrites every weight of the generated module with noise, loads the source's state_dict
(strict=True for the MLP, whose generated state_dict has the source's keys exactly; load_original_state_dict for
the others), and compares its output with ONNX Runtime on the source model and with the source module. Then it does
the same with a second source module whose weights differ from the export's (another seed; resnet50: random
BatchNorm statistics too), against that module's own output: a key mapped to the wrong layer or layout shows there.
Prints one JSON line per folder; exit 1 on any failure.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "oracle")
sys.path.insert(0, os.path.join(HERE, "..", "oneflow_standin"))
import torch  # noqa: E402  (after the stand-in's path: generated OneFlow code imports `oneflow`)
from generated_module import load_generated  # noqa: E402

torch.set_num_threads(2)


class SquareMLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 64)
        self.fc2 = torch.nn.Linear(64, 64)
        self.fc3 = torch.nn.Linear(64, 64, bias=False)

    def forward(self, x):
        return self.fc3(torch.tanh(self.fc2(torch.relu(self.fc1(x)))))


def make_mlp(seed):
    torch.manual_seed(seed)
    return SquareMLP().eval()


_sources = {}


def source_module(case, corpus, variant):
    """The source module; variant 0 has the export's weights, variant 1 other ones (built once per process)."""
    if (case, variant) not in _sources:
        _sources[(case, variant)] = build_source_module(case, corpus, variant)
    return _sources[(case, variant)]


def build_source_module(case, corpus, variant):
    if case == "mlp":
        return make_mlp(0 if variant == 0 else 1), torch.randn(2, 5, 64)
    sys.path.insert(0, corpus)
    import make_corpus
    model, x = make_corpus.build("transformer_encoder" if case == "transformer" else case)
    model.eval()
    if variant == 1:
        g = torch.Generator().manual_seed(1)
        with torch.no_grad():
            for _, t in list(model.named_parameters()) + list(model.named_buffers()):
                if not t.is_floating_point():
                    continue
                positive = bool(t.min() >= 0)  # running_var and the like stay positive
                spread = float(t.std()) if t.numel() > 1 else 0.0
                t.add_(torch.randn(t.shape, generator=g) * 0.1 * (spread if spread > 0 else 1.0))
                if positive:
                    t.abs_()
        if case == "transformer":  # make_corpus's six layers are copies of one: make them differ
            assert not torch.equal(model.layers[0].linear1.weight, model.layers[1].linear1.weight)
    return model, x


_ort_outputs = {}


def onnx_runtime(onnx_path, x, work):
    """ONNX Runtime's output on `x` (run once per model and input: every folder compares with it)."""
    key = (onnx_path, x.numpy().tobytes())
    if key in _ort_outputs:
        return _ort_outputs[key]
    os.makedirs(work, exist_ok=True)
    inp = os.path.join(work, "input.npy")
    np.save(inp, x.numpy())
    r = subprocess.run(["node", os.path.join(ORACLE, "run_npy.mjs"), onnx_path, work, inp], capture_output=True,
                       text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit("ONNX Runtime: " + r.stderr.strip()[-400:])
    _ort_outputs[key] = np.load(os.path.join(work, "0.npy"))
    return _ort_outputs[key]


def close(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= 1e-4 + 1e-3 * np.abs(b))), float(np.max(np.abs(a - b)))


def model_py(folder):
    spec = importlib.util.spec_from_file_location("model_py_" + os.path.basename(folder), os.path.join(folder, "model.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def load_source_state(case, folder, gen, state):
    """Loads `state` into the generated module as a user would: by name, else through load_original_state_dict."""
    if case == "mlp":
        gen.load_state_dict(state, strict=True)
        return "strict"
    model_py(folder).load_original_state_dict(gen, state)
    return "load_original_state_dict"


def check_folder(case, folder, index, onnx_path, corpus, work):
    rec = {"folder": folder, "ok": True}
    for variant in (0, 1):
        src, x = source_module(case, corpus, variant)
        state = src.state_dict()
        # weights.pt loaded: load_original_state_dict keeps the module's values for the exporter's own constants.
        gen, wrap = load_generated(folder, f"{index}_{variant}")
        dotted = {k: tuple(v.shape) for k, v in gen.state_dict().items() if "." in k}
        if variant == 0:
            # Every dotted key of the generated module is one of the source's, in the source's shape (the bias of a
            # Conv the export folded a BatchNorm into may be new).
            folded_biases = {b for _, b in model_py(folder).__dict__.get("FOLDED_BATCH_NORMS", [])}
            wrong = [k for k, s in dotted.items()
                     if k not in folded_biases and (k not in state or tuple(state[k].shape) != s)]
            rec["dotted_keys"] = len(dotted)
            rec["source_keys"] = len(state)
            rec["source_keys_not_in_module"] = len([k for k in state if k not in dotted])
            if wrong:
                rec.update(ok=False, error="generated keys the source lacks or holds in another shape: " + str(wrong[:5]))
                return rec
        with torch.no_grad():  # the weights must come from the source, not from weights.pt
            for k, t in gen.state_dict().items():
                if "." in k and t.is_floating_point():
                    t.copy_(torch.randn(t.shape))
        rec[f"load_{variant}"] = load_source_state(case, folder, gen, state)
        with torch.no_grad():
            expected = src(x).numpy()
            got = gen(wrap(x.numpy())).numpy()
        ok, diff = close(got, expected)
        rec[f"max_diff_source_{variant}"] = diff
        if variant == 0:
            ort = onnx_runtime(onnx_path, x, os.path.join(work, f"ort_{index}"))
            ok_ort, diff_ort = close(got, ort)
            rec["max_diff_onnxruntime"] = diff_ort
            ok = ok and ok_ort
        if not ok:
            rec.update(ok=False, error=f"variant {variant}: outputs differ")
            return rec
    return rec


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export-mlp")
    e.add_argument("--out", required=True)
    c = sub.add_parser("check")
    c.add_argument("--case", required=True, choices=["transformer", "resnet50", "mlp"])
    c.add_argument("--onnx", required=True)
    c.add_argument("--corpus", required=True)
    c.add_argument("--work", required=True)
    c.add_argument("folders", nargs="+")
    a = ap.parse_args()
    if a.cmd == "export-mlp":
        model, x = source_module("mlp", None, 0)
        torch.onnx.export(model, x, a.out, opset_version=13, input_names=["input"], output_names=["output"])
        return 0
    failed = 0
    for i, folder in enumerate(a.folders):
        rec = check_folder(a.case, folder, i, a.onnx, a.corpus, a.work)
        print(json.dumps(rec), flush=True)
        failed += not rec["ok"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
