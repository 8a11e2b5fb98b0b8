#!/usr/bin/env python3
"""Checks that generated code trains as the source PyTorch module does (issue 25, point 3).

usage: train_mode_check.py batchnorm TORCHVISION_NAME CODE_DIR [CODE_DIR ...]
       train_mode_check.py dropout RATIO CODE_DIR [CODE_DIR ...]

batchnorm: CODE_DIR holds the code generated from make_corpus.py's raw export of a torchvision model (resnet50,
mobilenet_v2: BatchNormalization kept). The original module is built again as make_corpus.py builds it (seed 0).
Eval mode must leave the running statistics alone; `.double()` of the generated module must run in float64 and give
the original's output; then both take one SGD step in train mode on the same batch, in float64 so that only a real
difference shows: every BatchNorm's running mean and variance, weight and bias must then be equal (within
1e-9 + 1e-7*|ref|), and every running mean must have moved.
dropout: CODE_DIR holds the code of a model whose only layer is Dropout(RATIO) exported in inference mode: in eval
mode the output is the input; in train mode about RATIO of the elements are zero and the others scaled by
1 / (1 - RATIO).
Prints one JSON line per folder; exit 1 on any failure.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "oneflow_standin"))
import torch  # noqa: E402
from generated_module import load_generated  # noqa: E402

torch.set_num_threads(1)


def close(a, b, atol=1e-5, rtol=1e-4):
    a, b = a.detach().double(), b.detach().double()
    return a.shape == b.shape and bool(((a - b).abs() <= atol + rtol * b.abs()).all())


def by_flat_name(module):
    # Generated names are the exporter's with '.' as '_' (or dotted, with a module tree): compare them flattened.
    return {k.replace(".", "_"): v for k, v in module.state_dict().items()}


def check_batchnorm(name, code, index):
    import torchvision
    torch.manual_seed(0)
    original = getattr(torchvision.models, name)(weights=None)
    # The export is of the module in eval mode, where Dropout is the identity and leaves no node (mobilenet_v2's
    # classifier): the original trains without it here, as the generated module can only do.
    for m in original.modules():
        if isinstance(m, torch.nn.Dropout):
            m.p = 0.0
    model, _ = load_generated(code, index)
    generated = by_flat_name(model)
    problems = []
    norms = [(n, m) for n, m in original.named_modules() if isinstance(m, torch.nn.BatchNorm2d)]
    for norm, m in norms:
        for stat in ("running_mean", "running_var", "weight"):
            key = f"{norm}_{stat}".replace(".", "_")
            if key not in generated:
                problems.append(f"no {key} in the generated state_dict")
            elif not close(generated[key], getattr(m, stat)):
                problems.append(f"{key} differs before training (not the same model)")
    if problems:
        return problems
    torch.manual_seed(1)
    x = torch.randn(2, 3, 64, 64, dtype=torch.float64)
    before = {norm: m.running_mean.clone() for norm, m in norms}
    # Eval mode: the statistics stay; .double() runs in float64 and gives the original's output.
    original.double().eval()
    model.double().eval()
    with torch.no_grad():
        y = model(x)
        ref = original(x)
    y = y[0] if isinstance(y, (tuple, list)) else y
    if y.dtype != torch.float64:
        problems.append(f".double() gives {y.dtype}")
    elif not close(y, ref, 1e-9, 1e-7):
        problems.append(".double() output differs from torchvision's")
    generated = by_flat_name(model)
    for norm, _ in norms:
        if not torch.equal(generated[f"{norm}_running_mean".replace(".", "_")], before[norm].double()):
            problems.append(f"{norm}: running_mean moved in eval mode")
    # One SGD step in train mode on both.
    for m in (original, model):
        m.train()
        opt = torch.optim.SGD(m.parameters(), lr=0.1)
        opt.zero_grad()
        out = m(x)
        out = out[0] if isinstance(out, (tuple, list)) else out
        (out.square().mean()).backward()
        opt.step()
    generated = by_flat_name(model)
    moved = 0
    for norm, m in norms:
        for stat in ("running_mean", "running_var", "weight", "bias"):
            key = f"{norm}_{stat}".replace(".", "_")
            if not close(generated[key], getattr(m, stat), 1e-9, 1e-7):
                diff = (generated[key].double() - getattr(m, stat).double()).abs().max().item()
                problems.append(f"{key} after one step differs from torchvision's by {diff:.3g}")
        moved += not torch.equal(m.running_mean, before[norm].double())
    if moved != len(norms):
        problems.append(f"only {moved} of {len(norms)} BatchNorms moved their running mean")
    return problems or {"batchnorms": len(norms), "moved": moved}


def check_dropout(code, index, ratio):
    model, _ = load_generated(code, index)
    torch.manual_seed(2)
    x = torch.rand(64, 256) + 1.0
    problems = []
    y = model(x)
    y = y[0] if isinstance(y, (tuple, list)) else y
    if not torch.equal(y, x):
        problems.append("eval mode changed the input")
    model.train()
    y = model(x)
    y = y[0] if isinstance(y, (tuple, list)) else y
    zeros = (y == 0).double().mean().item()
    if abs(zeros - ratio) > 0.05:
        problems.append(f"train mode zeroed {zeros:.3f} of the elements, not about {ratio}")
    kept = y != 0
    if not torch.allclose(y[kept], x[kept] / (1 - ratio)):
        problems.append("train mode did not scale the kept elements by 1 / (1 - ratio)")
    return problems or {"zeros": round(zeros, 3)}


def main():
    import time
    t0 = time.time()
    kind = sys.argv[1]
    failed = False
    args = sys.argv[2:]
    parameter = args.pop(0)
    for i, code in enumerate(args):
        result = check_batchnorm(parameter, code, i) if kind == "batchnorm" else check_dropout(code, i, float(parameter))
        ok = isinstance(result, dict)
        failed |= not ok
        print(json.dumps({"code": code, "ok": ok, "result" if ok else "problems": result,
                          "seconds": round(time.time() - t0, 1)}))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
