"""python3-onnx's version converter as a long-lived process, for test_convert_node_suite's side-by-side column.

One JSON request per line on stdin: {"model": PATH, "opset": N, "out": PATH}. For each it runs
onnx.version_converter.convert_version(model, N) and onnx.checker.check_model on the result, and saves the
result to "out". One JSON answer per line on stdout (with "onnx": its version): {"ok": true} when written, or {"ok": false, "error": why}
when the converter or the checker refused. A converter that takes the interpreter down (abort, segfault) ends
this process: the caller counts that request as crashed and starts a new one.
"""
import json
import sys

import onnx
from onnx import version_converter


def main():
    for line in sys.stdin:
        req = json.loads(line)
        try:
            model = onnx.load(req["model"])
            converted = version_converter.convert_version(model, int(req["opset"]))
            onnx.checker.check_model(converted)
            onnx.save(converted, req["out"])
            answer = {"ok": True}
        except Exception as e:  # every refusal the converter or the checker raises
            answer = {"ok": False, "error": (type(e).__name__ + ": " + str(e)).replace("\n", " ")[:300]}
        answer["onnx"] = onnx.__version__
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
