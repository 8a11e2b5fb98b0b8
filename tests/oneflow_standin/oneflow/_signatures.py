"""OneFlow's argument checking for the stand-in, from the table the code generator checks against
(core/codegen/oneflow_signatures.inc, made from the OneFlow API notes): a call with a keyword, a positional argument
or a missing argument that the chosen OneFlow release would reject raises TypeError, as OneFlow's arg parser does.

The release is ONEFLOW_STANDIN_VERSION (0.8, 0.9 or 1.0); the default is 0.8, the oldest release generated code
supports, so that code passing here passes on every supported release as far as the table knows.
"""
import functools
import os
import sys

RELEASES = ("0.8", "0.9", "1.0")
RELEASE = os.environ.get("ONEFLOW_STANDIN_VERSION", "0.8")
if RELEASE not in RELEASES:
    raise ImportError("ONEFLOW_STANDIN_VERSION must be one of %s, not %r" % (", ".join(RELEASES), RELEASE))

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "core", "codegen",
                     "oneflow_signatures.inc")


def _parse(parameters):
    """[(name, required, positional, keyword)], varargs, varkw, anything."""
    params, varargs, varkw, anything, keyword_only = [], False, False, False, False
    for p in (x.strip() for x in parameters.split(",")):
        if not p:
            continue
        if p == "...":
            anything = True
        elif p == "/":
            params = [(n, r, pos, False) for n, r, pos, _ in params]
        elif p == "*":
            keyword_only = True
        elif p.startswith("**"):
            varkw = True
        elif p.startswith("*"):
            varargs = keyword_only = True
        else:
            params.append((p.rstrip("="), not p.endswith("="), not keyword_only, True))
    return params, varargs, varkw, anything


def _load():
    rows = {}
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 3 or line.startswith("#"):
                continue
            if RELEASE in cols[1].split(","):
                rows.setdefault(cols[0], []).append((cols[2], _parse(cols[2])))
    return rows


SIGNATURES = _load()


def _mismatch(npos, keywords, sig):
    params, varargs, varkw, anything = sig
    if anything:
        return None
    slots = [p for p in params if p[2]]
    if npos > len(slots) and not varargs:
        return "takes %d positional argument%s, %d given" % (len(slots), "" if len(slots) == 1 else "s", npos)
    bound = {p[0] for p in slots[:npos]}
    for k in keywords:
        match = [p for p in params if p[0] == k]
        if not match or not match[0][3]:
            if varkw:
                continue
            return "unexpected keyword '%s'" % k if not match else "'%s' is positional-only" % k
        if k in bound:
            return "'%s' given twice" % k
        bound.add(k)
    for name, required, _, _ in params:
        if required and name not in bound:
            return "missing '%s'" % name
    return None


def check(api, args, kwargs):
    why = None
    for parameters, sig in SIGNATURES.get(api, ()):
        why = _mismatch(len(args), list(kwargs), sig)
        if why is None:
            return
        why = "%s (OneFlow %s takes: %s)" % (why, RELEASE, parameters)
    if why is not None:
        raise TypeError("%s(): %s" % (api, why))


# Calls from torch and from the stand-in itself (which maps OneFlow onto torch) are not OneFlow code.
_TORCH_DIR = os.path.dirname(os.path.abspath(sys.modules["torch"].__file__)) + os.sep
_STANDIN_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _from_oneflow_code(frame):
    caller = os.path.abspath(frame.f_code.co_filename)
    return not caller.startswith(_TORCH_DIR) and not caller.startswith(_STANDIN_DIR)


def _checked(api, fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        if _from_oneflow_code(sys._getframe(1)):
            check(api, args, kwargs)
        return fn(*args, **kwargs)
    return call


def install(namespace, prefix):
    """Wraps every public function of `namespace` (a module's globals) that the table knows, and drops the names the
    release lacks (a name the table has for other releases only)."""
    known_elsewhere = set()
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            cols = line.split("\t")
            if len(cols) == 3 and not line.startswith("#"):
                known_elsewhere.add(cols[0])
    for name, value in list(namespace.items()):
        api = prefix + "." + name
        if name.startswith("_") or isinstance(value, type) or not callable(value):
            continue
        if api in SIGNATURES:
            namespace[name] = _checked(api, value)
        elif api in known_elsewhere:
            del namespace[name]


# Tensor methods are torch's own (oneflow.Tensor is torch.Tensor): wrapped on torch.Tensor, checked only when
# OneFlow code calls them.
def _checked_method(api, fn):
    @functools.wraps(fn)
    def call(self, *args, **kwargs):
        if _from_oneflow_code(sys._getframe(1)):
            check(api, args, kwargs)
        return fn(self, *args, **kwargs)
    return call


def install_tensor_methods(tensor_class):
    for api in SIGNATURES:
        if not api.startswith("oneflow.Tensor.") or api.count(".") != 2:
            continue
        name = api.rsplit(".", 1)[1]
        if name.startswith("__"):
            continue
        fn = getattr(tensor_class, name, None)
        if fn is None or not callable(fn) or getattr(fn, "_oneflow_checked", False):
            continue
        wrapped = _checked_method(api, fn)
        wrapped._oneflow_checked = True
        setattr(tensor_class, name, wrapped)
