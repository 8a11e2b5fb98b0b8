#!/usr/bin/python3
"""Hostile names for the ONNX -> Python code generator: models whose every string is an attack on model.py/run.py.

    hostile_names.py make  --out DIR --corpus CORPUS_DIR
    hostile_names.py check --cli FLOWBRIDGE_CLI --cases DIR --scratch DIR [--folders DIR]

`make` writes DIR/models/<n>-<payload>.onnx (the file name carries the payload too, where the file system allows)
and DIR/manifest.json. Each payload tries to create a file named PWNED in the working folder when it runs: after
line breaks of every kind (\\n, \\r, \\r\\n, \\x0b, \\x0c, \\x1c-\\x1e, \\x85, U+2028, U+2029, NUL) at every indentation
the generated code uses, after quotes, triple quotes and backslashes, after a PEP 263 `coding: utf-7` cookie
(which turns `+AAo-` into a line break), in non-UTF-8 bytes; plus keywords, builtins, torch/F/nn names,
nn.Module attributes, 100k-character names and names that are equal once reduced to identifiers. The payloads
go into node, value, initializer, graph, input, output, function and domain names, dim_params, attribute
strings, doc strings, metadata and the producer name; one model is the corpus' super_resolution_op11 with every
name replaced by a payload.

`check` converts every model to both flavours with the CLI (and with --continue-on-error when it has unsupported
nodes), runs `check --to pytorch`, then verifies every folder written (and every folder under --folders, written
in-process by the C++ test): model.py and run.py are valid UTF-8 without NUL, hidden line breaks or bidi
controls, declare no source encoding, compile, import, build (OneFlow against tests/oneflow_standin), load their
weights with strict=True and, for the models that convert fully, run forward and run.py. Exit 0 from convert
must mean exactly that. Finally no PWNED file may exist anywhere. Prints a summary line; exit 1 on any failure.
"""
import argparse
import ast
import importlib.util
import io
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = "PWNED"
ACTION = "open('PWNED','w')"

BREAKS = {"lf": "\n", "cr": "\r", "crlf": "\r\n", "vt": "\x0b", "ff": "\x0c", "fs": "\x1c", "gs": "\x1d", "rs": "\x1e",
          "nel": "\x85", "ls": "\u2028", "ps": "\u2029", "nul": "\x00"}
INDENTS = ["", "    ", "        ", "            "]
# Names that must not be shadowed or must not become code as they are.
RESERVED_WORDS = ["None", "True", "class", "def", "lambda", "import", "match", "_", "print", "range", "len", "int",
                  "float", "open", "exec", "eval", "__import__", "super", "NotImplementedError", "torch", "F", "nn",
                  "flow", "np", "math", "T", "self", "INPUTS", "OUTPUTS", "HERE", "main", "forward",
                  "register_buffer", "add_module", "state_dict", "training", "named_parameters", "zero_grad",
                  "extra_repr", "requires_grad_", "get_submodule", "dump_patches", "T_destination", "call_super_init",
                  "to", "cuda", "eval", "train", "load_state_dict", "parameters", "type", "half", "apply"]
# Bytes that are not UTF-8: protobuf's Python API refuses them, so they are patched into the serialized model
# over a placeholder of the same length.
NON_UTF8 = [b"\xff\xfe\nopen('PWNED','w')#", b"\x80\r        open('PWNED','w')#", b"x\xc0\xaf\xed\xa0\x80\n#"]


def payloads():
    """(label, text) pairs; text is str, or bytes for the non-UTF-8 ones."""
    out = []
    for bname, b in BREAKS.items():
        for k, ind in enumerate(INDENTS):
            out.append(("%s-indent%d" % (bname, len(ind)), "w%s%s%s%s%s#" % (b, ind, ACTION, b, ind)))
    for q in ["'", '"', "'''", '"""']:
        out.append(("quote " + q, "x%s);%s;(%s" % (q, ACTION, q)))
        out.append(("quote %s in a line" % q, "x%s\n        %s\n        #%s" % (q, ACTION, q)))
    out += [("backslash quote", "x\\');%s;#" % ACTION), ("trailing backslash", "x\\"),
            ("backslash newline", "x\\\n        %s\n#" % ACTION), ("docstring end", 'x""".\n%s\n"""' % ACTION),
            ("utf-7 cookie", "x coding: utf-7 +AAo-%s+AAo-#" % ACTION.replace("'", "+ACc-")),
            ("utf-7 cookie =", "x coding=utf-7 +AAo-" + ACTION.replace("'", "+ACc-")),
            ("utf-7 newline", "+AAo-%s+AAo-#" % ACTION.replace("'", "+ACc-")),
            ("bidi override", "x\u202e\n%s\n#\u2066\u2069\u202a\u202c" % ACTION),
            ("zero width and BOM", "x\u200b\ufeff\u2060\U000e0041"),
            ("tab and form feed", "x\t\x0c\n\t%s\n#" % ACTION), ("DEL and C1", "x\x7f\x9b\x90"),
            ("long 100k", "a" * 100000), ("long op output", "/" + "Conv" * 25000 + "_output_0"),
            ("long onnx::", "onnx::" + "C" * 100000), ("long scope", "/".join(["layer"] * 20000) + "/Relu_output_0"),
            ("long with breaks", ("x\n" + ACTION + "\n#") * 10000), ("empty-ish", "..."), ("digits", "123"),
            ("dunder", "__class__"), ("unicode letters", "w\u00e9ight_\u4e2d\u6587")]
    out += [("word " + w, w) for w in RESERVED_WORDS]
    out += [("non-utf8 %d" % i, b) for i, b in enumerate(NON_UTF8)]
    return out


# ----------------------------------------------------------------------------------------------------- make


def text_of(p, placeholders, tag):
    """A str for protobuf: the payload, or a same-length ASCII placeholder recorded for patching."""
    if isinstance(p, str):
        return p
    ph = ("\x01%s%d\x02" % (tag, len(placeholders))).ljust(len(p), "~")[: len(p)]
    assert len(ph.encode()) == len(p) and len(ph) >= 4, p
    placeholders.append((ph.encode(), p))
    return ph


def save(model, path, placeholders):
    import onnx
    data = model.SerializeToString()
    for ph, raw in placeholders:
        data = data.replace(ph, raw)
    with open(path, "wb") as f:
        f.write(data)
    # The file must still parse: protobuf's C++ reader (the CLI's) does not check UTF-8 in proto2 strings.
    onnx.load_model_from_string(data)


def file_name(index, label, p):
    raw = p if isinstance(p, bytes) else p.encode("utf-8", "surrogatepass")
    raw = raw.replace(b"/", b"%").replace(b"\x00", b"%00")[:180]
    return ("%03d-" % index).encode() + raw + b".onnx"


FIELD_OF = {"": "weight", ".": "weight", "b": "weight", "k": "weight", "pads": "weight", "in": "input",
            "out": "output", "d": "dim_param", "c": "value", "c.": "value", "s": "value", "m": "value", "r": "value",
            "p": "value", "q": "value", "doc": "doc", "gdoc": "doc", "mdoc": "doc", "fdoc": "doc", "conv": "node",
            "conv.": "node", "add": "node", "mul": "node", "relu": "node", "pad": "node", "custom": "node",
            "call": "node", "fnode": "node", "mode": "attribute", "attr": "attribute", "dom": "domain",
            "fdom": "domain", "Op": "domain", "Fn": "function", "fx": "function", "fy": "function", "graph": "graph",
            "producer": "metadata", "key": "metadata", "value": "metadata"}
FIELDS = sorted(set(FIELD_OF.values()))
# Fields only nodes the generator refuses carry: their models keep unconverted nodes.
UNSUPPORTED_FIELDS = {"attribute", "domain", "function"}
# The payloads put into one field alone (with all other strings plain, one broken field cannot hide another).
SINGLE_FIELD = ["lf-indent8", "crlf-indent8", "cr-indent8", "ls-indent8", "quote '", 'quote """', "backslash quote"]
FILE_NAME_ONLY = ["lf-indent0", "crlf-indent0", "cr-indent0", "docstring end", "quote '''", 'quote """']


def payload_model(p, index, unsupported, only=None):
    """A small model with the payload in every string field (or in the field `only`, the others plain). With
    `unsupported`, also nodes the generator refuses (custom domain, model-local function, a Pad mode it does not
    know) whose messages quote the payload."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
    ph = []

    def t(suffix=""):
        if only is not None and FIELD_OF[suffix] != only:
            return "plain_" + suffix.replace(".", "dot")
        return text_of(p, ph, "P") + suffix if isinstance(p, str) else text_of(p + suffix.encode(), ph, "P")
    dim = t("d")
    x = helper.make_tensor_value_info(t("in"), TensorProto.FLOAT, [dim, 2, 4, 4])
    y = helper.make_tensor_value_info(t("out"), TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.ones((3, 2, 3, 3), np.float32) * 0.1, t())       # the bare payload: a weight
    b = numpy_helper.from_array(np.arange(3, dtype=np.float32), t("b"))
    w2 = numpy_helper.from_array(np.ones((3, 2, 3, 3), np.float32) * 0.2, t("."))    # equal once sanitised
    k = numpy_helper.from_array(np.array([2.0], np.float32), t("k"))
    nodes = [helper.make_node("Conv", [t("in"), t(), t("b")], [t("c")], name=t("conv"), pads=[1, 1, 1, 1],
                              doc_string=t("doc")),
             helper.make_node("Conv", [t("in"), t("."), t("b")], [t("c.")], name=t("conv."), pads=[1, 1, 1, 1]),
             helper.make_node("Add", [t("c"), t("c.")], [t("s")], name=t("add")),
             helper.make_node("Mul", [t("s"), t("k")], [t("m")], name=t("mul")),
             helper.make_node("Relu", [t("m")], [t("out")], name=t("relu"))]
    funcs = []
    opsets = [helper.make_opsetid("", 13)]
    if unsupported:
        dom = t("dom")
        nodes[-1] = helper.make_node("Relu", [t("m")], [t("r")], name=t("relu"))
        nodes += [helper.make_node("Pad", [t("r"), t("pads")], [t("p")], name=t("pad"), mode=t("mode")),
                  helper.make_node(t("Op"), [t("p")], [t("q")], name=t("custom"), domain=dom, attr=t("attr")),
                  helper.make_node(t("Fn"), [t("q")], [t("out")], name=t("call"), domain=t("fdom"))]
        funcs.append(helper.make_function(t("fdom"), t("Fn"), [t("fx")], [t("fy")],
                                          [helper.make_node("Identity", [t("fx")], [t("fy")], name=t("fnode"))],
                                          [helper.make_opsetid("", 13)], doc_string=t("fdoc")))
        opsets += [helper.make_opsetid(dom, 1), helper.make_opsetid(t("fdom"), 1)]
        pads = numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), t("pads"))
        inits = [w, b, w2, k, pads]
    else:
        inits = [w, b, w2, k]
    g = helper.make_graph(nodes, t("graph"), [x], [y], initializer=inits, doc_string=t("gdoc"),
                          value_info=[helper.make_tensor_value_info(t("s"), TensorProto.FLOAT, [dim, 3, 4, 4])])
    m = helper.make_model(g, opset_imports=opsets, producer_name=t("producer"), doc_string=t("mdoc"), functions=funcs)
    m.ir_version = 8
    helper.set_model_props(m, {t("key"): t("value")})
    return m, ph


def name_collision_model():
    """Initializers and values whose names are equal once sanitised, keywords, builtins and nn.Module attributes:
    every one must stay a distinct attribute that loads with strict=True and computes the same sum."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
    names = list(dict.fromkeys(RESERVED_WORDS)) + ["a.b", "a/b", "a b", "a-b", "a_b", "a__b", "a\nb", "a\u2028b", "9", "_9", "v"]
    inits, nodes, prev = [], [], "x"
    for i, n in enumerate(names):
        inits.append(numpy_helper.from_array(np.full((2, 3), float(i + 1), np.float32), n))
        out = names[i + 1] + "#v" if i + 1 < len(names) else "y"
        nodes.append(helper.make_node("Add", [prev, n], [out], name=n))
        prev = out
    g = helper.make_graph(nodes, "none", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m, float(sum(range(1, len(names) + 1)))


def renamed_corpus_model(corpus, plist):
    """super_resolution_op11 with every node, value and initializer name replaced by a payload (str ones: the
    protobuf API takes no bytes), the graph name and the input's dim_params too."""
    import onnx
    m = onnx.load(os.path.join(corpus, "models", "super_resolution_op11.onnx"))
    texts = [p for _, p in plist if isinstance(p, str) and len(p) < 1000]
    mapping, k = {}, 0

    def ren(name):
        nonlocal k
        if not name:
            return name
        if name not in mapping:
            mapping[name] = "%s~%d" % (texts[k % len(texts)], k)
            k += 1
        return mapping[name]
    g = m.graph
    for coll in (g.input, g.output, g.value_info):
        for v in coll:
            v.name = ren(v.name)
    for t in g.initializer:
        t.name = ren(t.name)
    for n in g.node:
        n.name = ren(n.name or n.op_type)
        n.input[:] = [ren(i) for i in n.input]
        n.output[:] = [ren(o) for o in n.output]
    g.name = texts[3]
    for d in g.input[0].type.tensor_type.shape.dim:
        if d.HasField("dim_value") and d.dim_value == 1:
            d.dim_param = texts[7]
    return m


def make(out, corpus):
    import onnx
    if os.path.exists(out):
        shutil.rmtree(out)
    models = os.path.join(out, "models")
    os.makedirs(models)
    plist = payloads()
    manifest = []
    index = 0
    for label, p in plist:
        for unsupported in (False, True):
            m, ph = payload_model(p, index, unsupported)
            name = file_name(index, label, p)
            path = os.path.join(models.encode(), name)
            save(m, path, ph)
            manifest.append({"file": name.hex(), "label": label + (" (unsupported nodes)" if unsupported else ""),
                             "complete": not unsupported, "run": not unsupported})
            index += 1
    labels = dict(plist)
    for label in SINGLE_FIELD:
        for field in FIELDS:
            unsupported = field in UNSUPPORTED_FIELDS
            m, ph = payload_model(labels[label], index, unsupported, only=field)
            name = b"%03d-%s in the %s.onnx" % (index, label.encode().replace(b"/", b"%"), field.encode())
            save(m, os.path.join(models.encode(), name), ph)
            manifest.append({"file": name.hex(), "label": "%s in the %s alone" % (label, field),
                             "complete": not unsupported, "run": not unsupported})
            index += 1
    for label in FILE_NAME_ONLY:
        m, ph = payload_model("plain", index, False)
        name = file_name(index, label, labels[label])
        save(m, os.path.join(models.encode(), name), ph)
        manifest.append({"file": name.hex(), "label": label + " in the file name alone", "complete": True, "run": True})
        index += 1
    # A PEP 263 cookie in the file name (model.py's first line) would make Python read the file as UTF-7, where
    # `+AAo-` in a node name's comment is a line break.
    utf7 = "+AAo-        " + ACTION.replace("'", "+ACc-") + "+AAo-        #"
    m, ph = payload_model(utf7, index, False, only="node")
    name = b"%03d-coding: utf-7 -*- .onnx" % index
    save(m, os.path.join(models.encode(), name), ph)
    manifest.append({"file": name.hex(), "label": "utf-7 cookie in the file name, +AAo- in node names",
                     "complete": True, "run": True})
    index += 1
    m, total = name_collision_model()
    name = b"%03d-names equal after sanitising\n'''\"\"\".onnx" % index
    save(m, os.path.join(models.encode(), name), [])
    manifest.append({"file": name.hex(), "label": "names equal after sanitising", "complete": True, "run": True,
                     "sum": total})
    index += 1
    m = renamed_corpus_model(corpus, plist)
    name = b"%03d-super_resolution\n        open('PWNED','w')\n#.onnx" % index
    save(m, os.path.join(models.encode(), name), [])
    manifest.append({"file": name.hex(), "label": "super_resolution_op11 renamed", "complete": True, "run": True})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"payloads": len(plist), "models": manifest}, f, indent=1)
    print("%d payloads, %d models in %s" % (len(plist), len(manifest), models))


# ---------------------------------------------------------------------------------------------------- check

failures = []
COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=]", re.M)
HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def fail(what, why):
    failures.append("%s: %s" % (what, why))
    print("FAIL %s: %s" % (what, why), flush=True)


def check_source(what, path):
    """The text of a generated file: UTF-8, no NUL, every line break a \\n, no hidden or bidi characters, no
    encoding cookie on its first two lines, and compiles (Python's own parser)."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return fail(what, "%s is not UTF-8: %s" % (os.path.basename(path), e))
    if HIDDEN.search(text.replace("\n", "").replace("\t", "")):
        m = HIDDEN.search(text.replace("\n", "").replace("\t", ""))
        return fail(what, "%s holds the hidden character %r" % (os.path.basename(path), m.group()))
    if any(COOKIE.match(line) for line in raw.split(b"\n")[:2]):
        return fail(what, "%s declares a source encoding" % os.path.basename(path))
    try:
        compile(text, path, "exec", dont_inherit=True)
        ast.parse(text)
    except SyntaxError as e:
        return fail(what, "%s does not compile: %s" % (os.path.basename(path), e))
    return text


def build_and_run(what, folder, index, run, expected_sum=None):
    """Imports model.py as the user would, builds the module, loads the weights (strict), and when `run` calls
    forward on inputs of the declared shapes and runs run.py."""
    sys.path.insert(0, os.path.join(HERE, "..", "oneflow_standin"))
    sys.path.insert(0, HERE)
    import numpy as np
    from generated_module import load_generated
    try:
        model, wrap = load_generated(folder, index)
    except Exception as e:  # noqa: BLE001 (any failure to build is the finding)
        return fail(what, "the module does not build or load its weights: %s: %s" % (type(e).__name__, str(e)[:300]))
    if not run:
        return
    try:
        with open(os.path.join(folder, "model.py"), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        inputs = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and
                      any(getattr(t, "id", None) == "INPUTS" for t in n.targets))
        rng = np.random.default_rng(0)
        arrays = [rng.standard_normal([d if isinstance(d, int) else 1 for d in (shape or [])]).astype(dtype)
                  for _, dtype, shape in inputs]
        if expected_sum is not None:
            arrays = [np.zeros_like(a) for a in arrays]
        out = model(*[wrap(a) for a in arrays])
        if expected_sum is not None:
            got = float(out.detach().numpy().reshape(-1)[0]) if hasattr(out, "detach") else float(out.numpy()[0, 0])
            if got != expected_sum:
                fail(what, "forward gives %s, expected %s (a weight was shadowed or lost)" % (got, expected_sum))
        sys.modules.pop("model", None)
        argv, stdout = sys.argv, sys.stdout
        sys.argv, sys.stdout = [os.path.join(folder, "run.py")], io.StringIO()
        try:
            runpy.run_path(os.path.join(folder, "run.py"), run_name="__main__")
        finally:
            sys.argv, sys.stdout = argv, stdout
            sys.path[:] = [p for p in sys.path if os.path.abspath(p) != os.path.abspath(folder)]
            sys.modules.pop("model", None)
    except SystemExit as e:
        if e.code:
            fail(what, "run.py exited with %s" % e.code)
    except Exception as e:  # noqa: BLE001
        fail(what, "forward or run.py failed: %s: %s" % (type(e).__name__, str(e)[:300]))


def verify_folder(what, folder, index, run, expected_sum=None):
    verify_files(what, folder, index, run, expected_sum)
    if os.path.exists(MARKER):  # the working folder: say which folder's code ran a payload, then look again
        fail(what, "a payload ran (%s written)" % MARKER)
        os.remove(MARKER)


def verify_files(what, folder, index, run, expected_sum):
    for f in ("model.py", "run.py"):
        if not os.path.isfile(os.path.join(folder, f)):
            return fail(what, "no " + f)
    if check_source(what, os.path.join(folder, "model.py")) is None:
        return
    if check_source(what, os.path.join(folder, "run.py")) is None:
        return
    build_and_run(what, folder, index, run, expected_sum)


TERMINAL_CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")


def cli(args, cwd):
    """Runs flowbridge-cli; what it prints about the model reaches a terminal: no control characters but \n."""
    try:
        r = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    except subprocess.TimeoutExpired:
        return None
    for stream, text in (("stdout", r.stdout), ("stderr", r.stderr)):
        m = TERMINAL_CONTROL.search(text)
        if m:
            fail("%s %s" % (args[1].decode() if isinstance(args[1], bytes) else args[1], os.path.basename(args[2])[:40]),
                 "control character %r on %s" % (m.group(), stream))
    return r


def check(cli_path, cases, scratch, extra):
    import torch
    torch.set_num_threads(1)
    with open(os.path.join(cases, "manifest.json")) as f:
        manifest = json.load(f)
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    os.makedirs(scratch)
    os.chdir(scratch)  # every payload writes its marker into the working folder
    t0 = time.monotonic()
    converted = verified = 0
    for i, m in enumerate(manifest["models"]):
        src = os.path.join(os.path.abspath(cases).encode(), b"models", bytes.fromhex(m["file"]))
        what0 = "%s [%r]" % (m["label"], bytes.fromhex(m["file"])[:40])
        r = cli([cli_path, "check", src, "--to", "pytorch"], scratch)
        if r is None or r.returncode not in ((0,) if m["complete"] else (3,)):
            fail(what0 + " check --to pytorch", "exit %s" % (r.returncode if r else "timeout"))
        for flavour in ("pytorch", "oneflow"):
            what = "%s %s" % (what0, flavour)
            for keep in ((False,) if m["complete"] else (False, True)):
                out = os.path.join(scratch, "cli-%03d-%s%s" % (i, flavour, "-kept" if keep else ""))
                args = [cli_path, "convert", src, "--to", flavour, "-o", out, "--report", out + ".json"] + \
                    (["--continue-on-error"] if keep else [])
                r = cli(args, scratch)
                if r is None:
                    fail(what, "convert did not finish")
                    continue
                expected = 0 if m["complete"] else 3
                if r.returncode != expected:
                    fail(what, "convert exit %d (expected %d): %r" % (r.returncode, expected, r.stderr[-300:]))
                    continue
                converted += 1
                try:
                    with open(out + ".json", encoding="utf-8") as f:
                        json.load(f)
                except (OSError, ValueError) as e:
                    fail(what, "the report is not readable JSON: %s" % e)
                if r.returncode == 3 and not keep:
                    if os.path.exists(out):
                        fail(what, "exit 3 without --continue-on-error wrote the folder")
                    continue
                verify_folder(what + (" (kept)" if keep else ""), out, "cli%d%s%d" % (i, flavour, keep), m["run"],
                              m.get("sum"))
                verified += 1
    for folder in sorted(os.listdir(extra)) if extra else []:
        # In-process folders are named <manifest index>-<flavour>.
        i = int(folder.split("-")[0])
        m = manifest["models"][i]
        verify_folder("in-process %s %s" % (folder, m["label"]), os.path.join(extra, folder), "inproc" + folder,
                      m["run"] and m["complete"], m.get("sum"))
        verified += 1
    os.chdir(HERE)
    for root in (scratch, cases, extra or scratch, HERE):
        for base, _, files in os.walk(root):
            if any(f.startswith(MARKER) for f in files):
                fail("payload", "a payload ran: %s/%s exists" % (base, MARKER))
    print("payloads: %d; models: %d; conversions: %d; folders verified: %d; failures: %d; %.1f s" %
          (manifest["payloads"], len(manifest["models"]), converted, verified, len(failures), time.monotonic() - t0))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--out", required=True)
    mk.add_argument("--corpus", required=True)
    ck = sub.add_parser("check")
    ck.add_argument("--cli", required=True)
    ck.add_argument("--cases", required=True)
    ck.add_argument("--scratch", required=True)
    ck.add_argument("--folders", default="")
    a = ap.parse_args()
    if a.cmd == "make":
        make(a.out, a.corpus)
        return 0
    return check(os.path.abspath(a.cli), os.path.abspath(a.cases), os.path.abspath(a.scratch),
                 os.path.abspath(a.folders) if a.folders else "")


if __name__ == "__main__":
    sys.exit(main())
