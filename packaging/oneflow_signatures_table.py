#!/usr/bin/env python3
"""Writes core/codegen/oneflow_signatures.inc: the OneFlow 0.8 / 0.9 / 1.0 call signatures generated OneFlow code is
checked against (by the code generator, by tests/codegen/test_codegen_oneflow_signatures and by the OneFlow stand-in).

    oneflow_signatures_table.py DOCS_DIR > core/codegen/oneflow_signatures.inc

DOCS_DIR holds oneflow-python-api.md (section 3: the v1.0.0 signatures, copied from OneFlow's sources) and
oneflow-api-versions.tsv (which of 0.8.0, 0.9.0, 1.0.0 has each name). A row's signature is the documented v1.0.0 one
for every version that has the name, except for the differences listed in VERSION_DIFFERENCES below (each with its
source). The ctest `oneflow_signatures_table_current` regenerates the table and compares it with the checked-in one.

Row format (tab-separated): qualified name, versions ("0.8,0.9,1.0"), parameters in Python's notation without types
or defaults: `name` (required), `name=` (has a default), `/` (what precedes it is positional-only), `*` (what follows
it is keyword-only), `*name` (varargs), `**name` (any keyword), or `...` (not documented: the name is checked, the
arguments are not). One row per overload: a call fits a version when one of the version's rows accepts it.
"""
import os
import re
import sys

VERSIONS = ["0.8", "0.9", "1.0"]

# Names generated code may use that section 3 does not list, with their parameters. Source: OneFlow v1.0.0's
# functional_api.yaml / Python sources as section 3 quotes the neighbouring functions (same functor family), or `...`
# where the documents give no signature.
EXTRA_ROWS = [
    ("oneflow.atan2", "input, other"),
    ("oneflow.expm1", "x"),
    ("oneflow.log1p", "x"),
    ("oneflow.square", "x"),
    ("oneflow.relu", "x, inplace="),
    ("oneflow.selu", "x"),
    ("oneflow.silu", "x"),
    ("oneflow.gelu", "x, approximate="),
    ("oneflow.softmax", "x, dim="),
    ("oneflow.log_softmax", "x, dim="),
    ("oneflow.logical_not", "input"),
    ("oneflow.equal", "input, other"),
    ("oneflow.diag", "x, diagonal="),
    ("oneflow.broadcast_like", "x, like, broadcast_axes="),
    ("oneflow.from_numpy", "ndarray"),
    ("oneflow.load", "..."),
    ("oneflow.save", "..."),
    ("oneflow.no_grad", ""),
    ("oneflow.nn.Module", ""),
    ("oneflow.nn.ModuleList", "modules="),
    ("oneflow.nn.Parameter", "data=, requires_grad="),
    ("oneflow.nn.InstanceNorm2d", "num_features, eps=, momentum=, affine=, track_running_stats="),
    ("oneflow.nn.functional.upsample", "size=, scale_factor=, mode=, align_corners="),
]
# The 1-D and 3-D forms have the 2-D form's parameters (section 3 lists the 2-D one and says "Also Conv1d/Conv3d").
SAME_AS = {
    "oneflow.nn.functional.conv1d": "oneflow.nn.functional.conv2d",
    "oneflow.nn.functional.conv3d": "oneflow.nn.functional.conv2d",
    "oneflow.nn.functional.conv_transpose1d": "oneflow.nn.functional.conv_transpose2d",
    "oneflow.nn.functional.conv_transpose3d": "oneflow.nn.functional.conv_transpose2d",
    "oneflow.nn.functional.max_pool1d": "oneflow.nn.functional.max_pool2d",
    "oneflow.nn.functional.max_pool3d": "oneflow.nn.functional.max_pool2d",
    "oneflow.nn.functional.avg_pool1d": "oneflow.nn.functional.avg_pool2d",
    "oneflow.nn.functional.avg_pool3d": "oneflow.nn.functional.avg_pool2d",
    "oneflow.nn.functional.adaptive_avg_pool1d": "oneflow.nn.functional.adaptive_avg_pool2d",
    "oneflow.nn.functional.adaptive_avg_pool3d": "oneflow.nn.functional.adaptive_avg_pool2d",
}
# Where an older release's signature differs from v1.0.0's: (name, versions, parameters, source).
VERSION_DIFFERENCES = [
    ("oneflow.ones_like", "0.8", "input, /",
     "issue 25: OneFlow 0.8 rejects dtype= (swin_t); before 0.9 ones_like_op(other) took the tensor alone"),
    ("oneflow.zeros_like", "0.8", "input, /",
     "as ones_like: zeros_like_op(other) took the tensor alone before the *_like rework of 0.9 (full_like, "
     "empty_like, randn_like are new in 0.9 in oneflow-api-versions.tsv)"),
]
# Tensor methods: `x.name(...)` takes the parameters of `oneflow.name` after the tensor, except these, whose
# method form differs (the C++ methods in tensor_functions.cpp take the shape or dims as varargs or one list).
TENSOR_METHODS = {
    "reshape": "*shape", "view": "*shape", "permute": "*dims", "expand": "*sizes", "repeat": "*sizes",
    "flip": "*dims", "to": "*args, **kwargs", "type": "dtype=", "dim": "", "numel": "", "item": "", "tolist": "",
    "numpy": "", "size": "dim=", "contiguous": "", "clone": "", "float": "", "double": "", "half": "", "int": "",
    "long": "", "bool": "", "t": "", "zero_": "", "fill_": "value", "copy_": "other", "type_as": "other",
    "view_as": "other", "reshape_as": "other", "expand_as": "other", "new_ones": "*size, dtype=, device=",
    "new_zeros": "*size, dtype=, device=", "new_tensor": "data, dtype=, device=", "unbind": "dim=",
    "norm": "p=, dim=, keepdim=, dtype=", "__getitem__": "key", "__setitem__": "key, value",
}


def split_top(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [x.strip() for x in out]


def python_params(arglist):
    params = []
    for a in split_top(arglist):
        if a == "self":
            continue
        name, _, default = a.partition("=")
        name = name.split(":")[0].strip()
        params.append(name + ("=" if default else ""))
    return params


def functional_params(arglist):
    """A functional_api.yaml signature: `Type name=default` items; a lone IntList/Shape/TensorTuple positional
    parameter also takes varargs (python_arg_parser.cpp packs them)."""
    items = split_top(arglist)
    params = []
    for a in items:
        if a == "*":
            params.append("*")
            continue
        decl, _, default = a.partition("=")
        params.append(decl.split()[-1] + ("=" if default else ""))
    positional = items[: items.index("*")] if "*" in items else items
    if len(positional) == 1 and re.match(r"(Int32List|Int64List|Shape|TensorTuple)", positional[0]):
        params[0] = "*" + params[0].rstrip("=")
    return params


def section3(docs):
    rows = []
    for line in open(os.path.join(docs, "oneflow-python-api.md"), encoding="utf-8"):
        if not re.match(r"\| \d+ \|", line):
            continue
        cols = [c.strip() for c in line.replace("\\|", "/").split("|")]
        api, signature, notes = cols[3].strip("`"), cols[5], cols[7]
        overloads = []
        for overload in signature.split("‖"):
            overload = overload.strip().strip("`").strip()
            m = re.match(r"_C\.\w+ [\w\[\], ]*?\((.*)\)$", overload)
            if m:
                overloads.append(functional_params(m.group(1)))
                continue
            m = re.match(r"(?:def \w+|class \w+\([\w.]+\)\.__init__)\((.*)\)", overload)
            if m:
                overloads.append(python_params(m.group(1)))
        names = [api]
        also = re.search(r"Also ([^|]*?)(\.\s|\.$|;|$)", notes)
        if also and not api.startswith("oneflow.Tensor"):
            base = api.rsplit(".", 1)[0]
            for n in re.findall(r"[A-Za-z_][\w.]*", also.group(1)):
                if n != "and" and not n.endswith("()") and n.count(".") <= 1 or n.startswith("oneflow."):
                    full = n if n.startswith("oneflow.") else base + "." + n
                    # atan2 is binary beside unary rows, logical_not/bitwise_not unary beside binary ones.
                    if not full.endswith(("atan2", "_not")):
                        names.append(full)
        for name in names:
            for params in overloads:
                rows.append((name, ", ".join(params)))
    return rows


def main():
    docs = sys.argv[1]
    present = {}
    for line in open(os.path.join(docs, "oneflow-api-versions.tsv"), encoding="utf-8"):
        cols = line.rstrip("\n").split("\t")
        if cols[0] != "name":
            present[cols[0]] = [v for v, y in zip(VERSIONS, cols[1:4]) if y == "Y"]
    rows = section3(docs) + EXTRA_ROWS
    by_name = {}
    for name, params in rows:
        by_name.setdefault(name, [])
        if params not in by_name[name]:
            by_name[name].append(params)
    for alias, source in SAME_AS.items():
        by_name.setdefault(alias, list(by_name[source]))
    # Tensor methods from the function of the same name (the tensor is the first parameter).
    for name in sorted(n for n in present if n.startswith("oneflow.Tensor.")):
        method = name.rsplit(".", 1)[1]
        if name in by_name:
            continue
        if method in TENSOR_METHODS:
            by_name[name] = [TENSOR_METHODS[method]]
        elif "oneflow." + method in by_name:
            by_name[name] = [", ".join(p.strip() for p in split_top(params)[1:])
                             for params in by_name["oneflow." + method] if params and not params.startswith("*")]
            by_name[name] = [p for p in by_name[name]] or ["..."]
    overridden = {(n, v) for n, vs, _, _ in VERSION_DIFFERENCES for v in vs.split(",")}
    out = ['R"TABLE(',
           "# OneFlow call signatures by version, made by packaging/oneflow_signatures_table.py from",
           "# oneflow-python-api.md section 3 (v1.0.0 signatures from OneFlow's sources) and oneflow-api-versions.tsv",
           "# (names per version); older releases differ where listed with their source. Do not edit by hand.",
           "# name\tversions\tparameters"]
    for name in sorted(by_name):
        have = [v for v in present.get(name, []) if (name, v) not in overridden]
        if not have:
            continue  # not in any supported release: generated code must not use it
        for params in by_name[name]:
            out.append("%s\t%s\t%s" % (name, ",".join(have), params))
    for name, versions, params, source in VERSION_DIFFERENCES:
        out.append("# %s at %s: %s" % (name, versions, source))
        out.append("%s\t%s\t%s" % (name, versions, params))
    out.append(')TABLE"')
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
