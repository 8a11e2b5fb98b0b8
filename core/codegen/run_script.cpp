#include "codegen/run_script.h"

#include "codegen/python_text.h"

namespace fb::codegen {

namespace {
const char* kTemplate = R"PY("""Runs @CLASS@, the @LIB@ code FlowBridge generated from @SOURCE@.

usage: python3 run.py [INPUT.npy ...] [--save-outputs DIR] [--seed N]
With no inputs it makes random ones of the shapes the ONNX model declares (dynamic dims get 1).
"""
import argparse
import os
import sys

import numpy as np
@IMPORT@

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model import INPUTS, OUTPUTS, @CLASS@  # noqa: E402


def make_input(name, dtype, shape, rng):
    shape = [d if isinstance(d, int) and d >= 0 else 1 for d in (shape or [])]
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith(("int", "uint")):
        return rng.integers(0, 3, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def load_model():
    model = @CLASS@()
    model.load_state_dict(@LOAD@, strict=True)
    model.eval()
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="*", help=".npy files, one per model input, in order")
    parser.add_argument("--save-outputs", metavar="DIR", help="write output i as DIR/i.npy")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    args = parser.parse_args()
    if args.inputs and len(args.inputs) != len(INPUTS):
        parser.error(f"the model takes {len(INPUTS)} inputs, {len(args.inputs)} given")
    rng = np.random.default_rng(args.seed)
    arrays = [np.load(p) for p in args.inputs] if args.inputs else [make_input(*spec, rng) for spec in INPUTS]
    model = load_model()
    with @NS@.no_grad():
        outputs = model(*[@NS@.from_numpy(np.ascontiguousarray(a)) for a in arrays])
    if not isinstance(outputs, (tuple, list)):
        outputs = (outputs,)
    if args.save_outputs:
        os.makedirs(args.save_outputs, exist_ok=True)
    for i, (name, out) in enumerate(zip(OUTPUTS, outputs)):
        print(f"{name}: {tuple(out.shape)} {out.dtype}")
        if args.save_outputs:
            np.save(os.path.join(args.save_outputs, f"{i}.npy"), out.numpy())


if __name__ == "__main__":
    main()
)PY";

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}
}  // namespace

std::string runScript(Flavour f, const std::string& className, const std::string& sourceName) {
  const bool of = f == Flavour::OneFlow;
  std::string s = kTemplate;
  // The class name is an identifier (classNameFor); the file name is text from outside, shown in the docstring.
  s = replaceAll(s, "@CLASS@", className);
  s = replaceAll(s, "@LIB@", of ? "OneFlow" : "PyTorch");
  s = replaceAll(s, "@IMPORT@", of ? "import oneflow as flow" : "import torch");
  s = replaceAll(s, "@NS@", of ? "flow" : "torch");
  s = replaceAll(s, "@LOAD@",
                 of ? "flow.load(os.path.join(HERE, \"weights\"))" : "torch.load(os.path.join(HERE, \"weights.pt\"))");
  // Last: no placeholder may be found inside the file name's text.
  s = replaceAll(s, "@SOURCE@", sourceName.empty() ? "an ONNX model" : pyDocstringText(sourceName));
  return s;
}

}  // namespace fb::codegen
