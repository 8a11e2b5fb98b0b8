#!/usr/bin/python3
"""Runs flowbridge-cli on every bad input of make_bad_inputs.py with every command, and the write cases.

    run_bad_inputs.py --cli build/bin/flowbridge-cli --cases DIR --scratch DIR [--no-memory-limit] [-k WORD]

Every run must: end with exit code 2 or 3 (0 only for inspect/render of a readable case), not by a signal, within
10 s and 1 GB of address space (setrlimit; --no-memory-limit for sanitizer builds, which reserve terabytes);
print, for exit 2, exactly one stderr line `flowbridge-cli: error: <file>: <reason>` with no control characters;
leave every input file as it was and create nothing but the intended output. A case with `converts_leaving`
(constant folding over its budget) must convert with exit 0 and that text in the report. Prints one line per failure and a
summary; exit status 1 when anything failed."""
import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

TIME_LIMIT_S = 10
MEMORY_LIMIT = 1 << 30
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

failures = []
runs = 0
runs_lock = threading.Lock()


def fail(what, why, r=None):
    detail = ""
    if r is not None:
        detail = " [exit %s] stderr: %r" % (r.returncode, r.stderr[-600:])
    failures.append("%s: %s%s" % (what, why, detail))
    print("FAIL %s: %s%s" % (what, why, detail), flush=True)


def snapshot(root):
    """Every entry under root (not following symlinks): type, size and content hash of regular files."""
    out = {}
    if not os.path.lexists(root):
        return out
    if not os.path.isdir(root) or os.path.islink(root):
        paths = [root]
    else:
        paths = []
        for base, dirs, files in os.walk(root):
            paths.extend(os.path.join(base, n) for n in dirs + files)
    for p in paths:
        st = os.lstat(p)
        if stat_is_reg(st) and st.st_size >= 1 << 20 and st.st_blocks * 512 < st.st_size // 2:
            # Mostly holes (the multi-gigabyte sparse cases): hashing gigabytes of zeros would cost seconds a run.
            out[p] = ("s", st.st_size, st.st_mtime_ns, st.st_ino)
        elif stat_is_reg(st):
            with open(p, "rb") as f:
                h = hashlib.sha1()
                while True:
                    chunk = f.read(1 << 20)
                    if not chunk:
                        break
                    h.update(chunk)
            out[p] = ("f", st.st_size, h.hexdigest(), st.st_ino)
        else:
            out[p] = ("o", st.st_mode, os.readlink(p) if os.path.islink(p) else "", st.st_ino)
    return out


def stat_is_reg(st):
    import stat
    return stat.S_ISREG(st.st_mode)


def limits(memory, fsize=None):
    def apply():
        resource.setrlimit(resource.RLIMIT_CPU, (TIME_LIMIT_S + 2, TIME_LIMIT_S + 2))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return apply


class Result:
    pass


# `run` computes what a model asks for within the evaluator's budget (half the machine's memory by default): a
# tiny file may legitimately ask for gigabytes. The suite gives it a budget under its own limits, so that such a
# file is the budget's one-line refusal (exit 2) here too, and in the sanitizer build, which runs without the
# address-space limit.
RUN_MEMORY_MB = "256"


def run(cli, args, memory, fsize=None):
    global runs
    with runs_lock:
        runs += 1
    r = Result()
    t0 = time.monotonic()
    env = dict(os.environ, FLOWBRIDGE_RUN_MEMORY_MB=RUN_MEMORY_MB) if args and args[0] == "run" else None
    p = subprocess.Popen([cli] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         preexec_fn=limits(memory, fsize), start_new_session=True, env=env)
    try:
        out, err = p.communicate(timeout=TIME_LIMIT_S)
        r.timedOut = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        r.timedOut = True
    r.seconds = time.monotonic() - t0
    r.returncode = p.returncode
    r.stdout = out.decode("utf-8", "replace")
    r.stderr = err.decode("utf-8", "replace")
    return r


def check_error_line(what, r, file=None):
    lines = r.stderr.splitlines()
    if len(lines) != 1 or not r.stderr.endswith("\n"):
        return fail(what, "expected exactly one stderr line, got %d" % len(lines), r)
    line = lines[0]
    prefix = "flowbridge-cli: error: " + (file + ": " if file else "")
    if not line.startswith(prefix):
        return fail(what, "the line does not start with %r" % prefix, r)
    if CONTROL.search(line):
        return fail(what, "control characters in the message", r)
    if len(line) > len(prefix) + 2000:
        return fail(what, "the message is %d characters long" % len(line), r)


def check_run(what, r, allowed, file=None, reason=None):
    if r.timedOut:
        return fail(what, "did not finish within %d s" % TIME_LIMIT_S, r)
    if r.returncode < 0:
        return fail(what, "killed by signal %d" % -r.returncode, r)
    if r.returncode not in allowed:
        return fail(what, "exit code %d, expected one of %s" % (r.returncode, allowed), r)
    if r.returncode == 2:
        check_error_line(what, r, file)
        if reason and reason not in r.stderr:
            fail(what, "the message does not mention %r" % reason, r)
    elif r.returncode == 3:
        for line in r.stderr.splitlines():
            if not line.startswith("flowbridge-cli: ") or CONTROL.search(line):
                return fail(what, "stderr line %r is not a flowbridge-cli message" % line, r)
    if "libprotobuf" in r.stderr or "what()" in r.stderr or "terminate called" in r.stderr:
        fail(what, "library text on stderr", r)


# ---- code generation targets (security issue, points 1, 2 and 6): the hostile-name cases of make_bad_inputs.py ----
CODE_TARGET_OUTPUTS = {"convert-pytorch": ["code"], "convert-oneflow": ["code"]}


def check_generated_code(what, folder):
    """Exit 0 from a code target means files Python compiles (not run here: test_codegen_hostile_names runs them)."""
    for name in ("model.py", "run.py"):
        try:
            with open(os.path.join(folder, name), "rb") as f:
                compile(f.read().decode("utf-8"), name, "exec", dont_inherit=True)
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError) as e:
            fail(what, "%s: %s" % (name, e))


def code_target_args(path, out_dir):
    return {"check-pytorch": ["check", path, "--to", "pytorch"],
            "convert-pytorch": ["convert", path, "--to", "pytorch", "-o", os.path.join(out_dir, "code")],
            "convert-oneflow": ["convert", path, "--to", "oneflow", "-o", os.path.join(out_dir, "code")]}


def bad_inputs(cli, cases_dir, scratch, memory, only, jobs):
    global EDIT_SCRIPT
    # `edit` on every hostile model: an edit that applies to any model, so that what is judged is the model.
    EDIT_SCRIPT = os.path.join(scratch, "set_producer.txt")
    with open(EDIT_SCRIPT, "w") as f:
        f.write("set-producer name=bad_inputs\n")
    with open(os.path.join(cases_dir, "cases.json")) as f:
        cases = json.load(f)
    for_each_case(cases, only, jobs, lambda c: one_case(cli, cases_dir, scratch, memory, c))


def for_each_case(cases, only, jobs, check):
    """One case per worker: a case's commands share its folder (whose snapshot is compared), cases share nothing."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for done in [pool.submit(check, c) for c in cases if not only or only in c["name"]]:
            done.result()


def one_case(cli, cases_dir, scratch, memory, c):
    path = c["path"]
    case_root = os.path.join(cases_dir, c["name"])
    for cmd in c["commands"]:
        what = "%s %s" % (c["name"], cmd)
        out_dir = os.path.join(scratch, c["name"] + "-" + cmd)
        shutil.rmtree(out_dir, ignore_errors=True)
        os.makedirs(out_dir)
        args = {"inspect": ["inspect", "--json", path],
                "check": ["check", path, "--opset", "13"],
                "convert": ["convert", path, "-o", os.path.join(out_dir, "out.onnx"), "--report",
                            os.path.join(out_dir, "report.json")],
                "render": ["render", path, "-o", os.path.join(out_dir, "out.svg")],
                "run": ["run", path, "--save-outputs", os.path.join(out_dir, "out")],
                "diff": ["diff", path, path],
                "edit": ["edit", path, "--script", EDIT_SCRIPT, "-o", os.path.join(out_dir, "out.onnx")],
                **code_target_args(path, out_dir)}[cmd]
        before = snapshot(case_root)
        r = run(cli, args, memory)
        allowed = [2, 3] + ([0] if cmd in c["may_pass"] else [])
        check_run(what, r, allowed, path, c["reason"])
        if r.returncode == 0 and cmd == "inspect":
            try:
                json.loads(r.stdout)
            except ValueError as e:
                fail(what, "inspect --json printed invalid JSON: %s" % e)
        if r.returncode == 0 and cmd in CODE_TARGET_OUTPUTS:
            check_generated_code(what, os.path.join(out_dir, "code"))
        if cmd == "convert" and c.get("converts_leaving"):
            if r.returncode != 0:
                fail(what, "the conversion must succeed (leaving what does not fit as it is)", r)
            else:
                with open(os.path.join(out_dir, "report.json")) as f:
                    if c["converts_leaving"] not in f.read():
                        fail(what, "the report does not mention %r" % c["converts_leaving"])
        if snapshot(case_root) != before:
            fail(what, "the input's folder changed")
        left = sorted(os.listdir(out_dir))
        expected = {0: {"render": ["out.svg"], "edit": ["out.onnx"], "convert": ["out.onnx", "report.json"], "run": ["out"],
                        **CODE_TARGET_OUTPUTS}.get(cmd, []), 2: [],
                    3: ["report.json"] if cmd == "convert" else []}
        if r.returncode in expected and left != expected[r.returncode]:
            fail(what, "left %s in the output folder" % left)
        shutil.rmtree(out_dir, ignore_errors=True)


def interrupt_while_writing(cli, args, watch, sig, what, settle_s=0.0):
    """Starts the CLI, sends `sig` once a temporary file or folder shows in `watch` (plus `settle_s`), and waits for
    it to stop. Returns the process and whether the temporary item was seen."""
    p = subprocess.Popen([cli] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limits(False))
    deadline = time.monotonic() + 60
    seen = False
    while time.monotonic() < deadline and p.poll() is None:
        if any(".tmp-" in n for n in os.listdir(watch)):
            seen = True
            break
        time.sleep(0.001)
    time.sleep(settle_s)
    p.send_signal(sig)
    try:
        p.communicate(timeout=TIME_LIMIT_S)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        fail(what, "did not stop")
    return p, seen


def write_cases(cli, cases_dir, scratch, memory, only):
    """Outputs that are, or lead to, files the input reads; failed writes; interrupted writes."""
    src = os.path.join(cases_dir, "write")
    work = os.path.join(scratch, "write")

    def fresh():
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(src, work, symlinks=True)
        return work

    def refused(name, args, file_check=None, reason=None, extra_allowed=()):
        if only and only not in name:
            return
        w = fresh()
        args = [a.replace("@", w) for a in args]
        before = snapshot(w)
        r = run(cli, args, memory)
        check_run("write " + name, r, [2], None, reason)
        after = snapshot(w)
        if after != before:
            added = sorted(set(after) - set(before))
            changed = sorted(p for p in before if after.get(p) != before[p])
            fail("write " + name, "files changed: %s, added: %s" % (changed, added))

    refused("output onto the external-data side file", ["convert", "@/ext/model.onnx", "-o", "@/ext/weights.bin"],
            reason="input")
    refused("output onto model.onnx.data", ["convert", "@/ext_data/model.onnx", "-o", "@/ext_data/model.onnx.data"],
            reason="input")
    refused("--external-data side file is an input",
            ["convert", "@/ext_out/model.onnx", "-o", "@/ext_out/out.onnx", "--external-data"], reason="input")
    refused("output onto a OneFlow out", ["convert", "@/oneflow", "-o", "@/oneflow/weights/m.w/out"], reason="input")
    refused("output onto a OneFlow meta", ["convert", "@/oneflow", "-o", "@/oneflow/weights/m.w/meta"], reason="input")
    refused("report onto the side file", ["convert", "@/ext/model.onnx", "-o", "@/ext/x.onnx", "--report",
                                          "@/ext/weights.bin"], reason="input")
    refused("output onto the input itself", ["convert", "@/ext/model.onnx", "-o", "@/ext/model.onnx"])

    if not only or "link" in only or "fifo" in only or "folder" in only:
        w = fresh()
        os.symlink(os.path.join(w, "ext", "weights.bin"), os.path.join(w, "ext", "link.onnx"))
        os.link(os.path.join(w, "ext", "model.onnx"), os.path.join(w, "ext", "hard.onnx"))
        os.mkfifo(os.path.join(w, "ext", "fifo.onnx"))
        os.mkdir(os.path.join(w, "ext", "folder.onnx"))
        shutil.copytree(src, work + "-again", symlinks=True, dirs_exist_ok=True)
        for name, out, extra in (("symlink to the side file", "link.onnx", []),
                                 ("hard link to the input", "hard.onnx", []),
                                 ("a FIFO", "fifo.onnx", []),
                                 ("an existing folder, with --external-data", "folder.onnx", ["--external-data"]),
                                 ("an existing folder, with --report", "folder.onnx", ["--report",
                                                                                     os.path.join(w, "ext", "r.json")])):
            before = snapshot(w)
            r = run(cli, ["convert", os.path.join(w, "ext", "model.onnx"), "-o", os.path.join(w, "ext", out)] + extra,
                    memory)
            check_run("write output onto " + name, r, [2])
            if snapshot(w) != before:
                fail("write output onto " + name, "files changed or were added")
        shutil.rmtree(work + "-again", ignore_errors=True)

    if not only or "full" in only:
        w = fresh()
        out = os.path.join(w, "out")
        os.mkdir(out)
        r = run(cli, ["convert", os.path.join(w, "ext", "model.onnx"), "-o", os.path.join(out, "m.onnx"),
                      "--passes", "none"], memory, fsize=1024)
        check_run("write onto a full disk (RLIMIT_FSIZE)", r, [2], reason=os.strerror(27))
        if os.listdir(out):
            fail("write onto a full disk (RLIMIT_FSIZE)", "left %s" % os.listdir(out))

    for sig in (signal.SIGTERM, signal.SIGINT):
        name = "interrupted by %s" % signal.Signals(sig).name
        if only and only not in name:
            continue
        # On a loaded machine the write can finish between seeing its temporary file and the signal: then the
        # whole output is there (never a part of it) and the attempt is repeated; a few tries catch it mid-write.
        for attempt in range(5):
            w = fresh()
            out = os.path.join(w, "out")
            os.mkdir(out)
            p, seen = interrupt_while_writing(cli, ["convert", os.path.join(w, "big", "model.onnx"), "-o",
                                                    os.path.join(out, "m.onnx"), "--passes", "none"], out, sig,
                                              "write " + name)
            if not seen:
                fail("write " + name, "never saw the temporary file (exit %s)" % p.returncode)
                break
            if p.returncode == 0:
                if sorted(os.listdir(out)) != ["m.onnx"]:
                    fail("write " + name, "finished before the signal but left %s" % sorted(os.listdir(out)))
                    break
                continue
            if os.listdir(out):
                fail("write " + name, "left %s" % os.listdir(out))
            if p.returncode not in (-sig, 128 + sig):
                fail("write " + name, "exit status %s, expected death by the signal" % p.returncode)
            break
        else:
            fail("write " + name, "every write finished before the signal reached it")
    shutil.rmtree(work, ignore_errors=True)


# ---- code generation outputs and messages (issue points 8 and 9) ---------------------------------------------

def code_output_cases(cli, cases_dir, scratch, memory, only, jobs):
    """convert --to pytorch / check --to pytorch on every bad input, then the code-generation write cases: the report
    checked before anything is written, `-o dir/`, replacing only a folder FlowBridge generated (its marker),
    interrupts, names that are not UTF-8 or hold control characters, and Graphviz's messages."""
    with open(os.path.join(cases_dir, "cases.json")) as f:
        cases = json.load(f)
    for_each_case(cases, only, jobs, lambda c: code_case(cli, cases_dir, scratch, memory, c))
    code_write_cases(cli, cases_dir, scratch, memory, only)


def code_case(cli, cases_dir, scratch, memory, c):
    # A readable graph may convert (code generation runs no checker), and so may a case made to convert.
    readable = "inspect" in c["may_pass"] or "convert-pytorch" in c["may_pass"]
    out_dir = os.path.join(scratch, c["name"] + "-code")
    for cmd in ("convert --to", "check --to"):
        what = "%s %s pytorch" % (c["name"], cmd)
        shutil.rmtree(out_dir, ignore_errors=True)
        os.makedirs(out_dir)
        case_root = os.path.join(cases_dir, c["name"])
        before = snapshot(case_root)
        if cmd == "convert --to":
            args = ["convert", c["path"], "--to", "pytorch", "-o", os.path.join(out_dir, "out"), "--report",
                    os.path.join(out_dir, "report.json")]
        else:
            args = ["check", c["path"], "--to", "pytorch", "--json"]
        r = run(cli, args, memory)
        # Code generation runs no checker: a readable graph may convert.
        check_run(what, r, [2, 3] + ([0] if readable else []), c["path"], c["reason"])
        if snapshot(case_root) != before:
            fail(what, "the input's folder changed")
        left = sorted(os.listdir(out_dir))
        if cmd == "convert --to":
            expected = {0: ["out", "report.json"], 2: [], 3: ["report.json"]}.get(r.returncode)
            if expected is not None and left != expected:
                fail(what, "left %s" % left)
            if r.returncode == 0:
                check_generated_code(what, os.path.join(out_dir, "out"))
        if r.returncode in (0, 3):
            try:
                json.loads(r.stdout if cmd == "check --to" else open(os.path.join(out_dir, "report.json")).read())
            except (ValueError, OSError) as e:
                fail(what, "invalid JSON: %s" % e)
    shutil.rmtree(out_dir, ignore_errors=True)


def code_write_cases(cli, cases_dir, scratch, memory, only):
    src = os.path.join(cases_dir, "code")
    work = os.path.join(scratch, "code")
    marker = ".flowbridge-generated"

    def fresh():
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(src, work, symlinks=True)
        return work

    def wanted(name):
        return not only or only in name

    def refused(name, args, reason, prepare=None):
        if not wanted(name):
            return
        w = fresh()
        if prepare:
            prepare(w)
        args = [a.replace("@", w) for a in args]
        before = snapshot(w)
        r = run(cli, args, memory)
        check_run("code " + name, r, [2], None, reason)
        if snapshot(w) != before:
            fail("code " + name, "files changed or were added")

    small = ["convert", "@/small/model.onnx", "--to", "pytorch"]
    refused("--report inside the output folder", small + ["-o", "@/out", "--report", "@/out/model.py"], "output folder")
    refused("--report is the output folder", small + ["-o", "@/out/", "--report", "@/out"], "output folder")
    refused("--report in a missing folder", small + ["-o", "@/out", "--report", "@/missing/r.json"], "r.json")
    refused("--report onto the input", small + ["-o", "@/out", "--report", "@/small/model.onnx"], "input")
    refused("-o the input's folder", small + ["-o", "@/small"], "input")

    def project(w):
        os.makedirs(os.path.join(w, "project"))
        for n in ("model.py", "run.py"):
            with open(os.path.join(w, "project", n), "w") as f:
                f.write("mine")
    refused("a folder with model.py and run.py but no marker", small + ["-o", "@/project"], marker, project)

    if wanted("trailing slash and replacing"):
        w = fresh()
        for attempt in range(2):
            r = run(cli, [a.replace("@", w) for a in small] + ["-o", os.path.join(w, "new", "out") + "/"], memory)
            check_run("code -o new/out/ (run %d)" % (attempt + 1), r, [0])
            left = sorted(os.listdir(os.path.join(w, "new")))
            if left != ["out"] or not os.path.isfile(os.path.join(w, "new", "out", marker)):
                fail("code -o new/out/ (run %d)" % (attempt + 1), "left %s" % left)

    if wanted("names that are not UTF-8"):
        w = fresh()
        m = os.path.join(w, "non_utf8_names", "model.onnx")
        r = run(cli, ["convert", m, "--to", "pytorch", "-o", os.path.join(w, "o"), "--report", os.path.join(w, "r.json")],
                memory)
        check_run("code names that are not UTF-8: convert --report", r, [0])
        r2 = run(cli, ["check", m, "--to", "pytorch", "--json"], memory)
        check_run("code names that are not UTF-8: check --json", r2, [0])
        try:
            report = open(os.path.join(w, "r.json"), encoding="utf-8").read()
            json.loads(report)
            json.loads(r2.stdout)
            if "caf\ufffd" not in report:
                fail("code names that are not UTF-8", "no U+FFFD in the report")
        except (ValueError, OSError) as e:
            fail("code names that are not UTF-8", "invalid JSON: %s" % e)

    if wanted("control characters in names"):
        w = fresh()
        m = os.path.join(w, "control_names", "model.onnx")
        for args in (["convert", m, "--to", "pytorch", "-o", os.path.join(w, "o")], ["check", m, "--to", "pytorch"]):
            r = run(cli, args, memory)
            what = "code control characters in names: " + args[0]
            check_run(what, r, [3])
            if CONTROL.search(r.stdout.replace("\n", "")) or CONTROL.search(r.stderr.replace("\n", "")):
                fail(what, "control characters reached the terminal", r)
            if "\\x1b[2J" not in r.stdout + r.stderr:
                fail(what, "the escaped name is not shown", r)

    if wanted("Graphviz messages on a fan-in of 20k"):
        # Its own time limit: laying out 20k boxes takes 3 s in a release build, several times that under ASan.
        w = fresh()
        p = subprocess.Popen([cli, "render", os.path.join(w, "fan_in_20k", "model.onnx"), "-o", os.path.join(w, "fan.svg")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        try:
            _, err = p.communicate(timeout=120)
            if p.returncode != 0 or err:
                fail("code render fan-in 20k", "exit %s, stderr %r" % (p.returncode, err.decode("utf-8", "replace")[-600:]))
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            fail("code render fan-in 20k", "did not finish within 120 s")

    for sig in (signal.SIGINT, signal.SIGTERM):
        name = "code generation interrupted by %s" % signal.Signals(sig).name
        if not wanted(name):
            continue
        w = fresh()
        out_parent = os.path.join(w, "gen")
        os.mkdir(out_parent)
        p, seen = interrupt_while_writing(cli, ["convert", os.path.join(cases_dir, "write", "big", "model.onnx"),
                                                "--to", "pytorch", "-o", os.path.join(out_parent, "out")],
                                          out_parent, sig, name, settle_s=0.05)  # into the writing of the weights
        left = os.listdir(out_parent)
        if not seen:
            fail(name, "never saw the temporary folder (exit %s)" % p.returncode)
        if left and (left != ["out"] or not os.path.isfile(os.path.join(out_parent, "out", marker))):
            fail(name, "left %s" % left)
        if p.returncode not in (-sig, 128 + sig) and not (p.returncode == 0 and left == ["out"]):
            fail(name, "exit status %s, expected death by the signal" % p.returncode)
    shutil.rmtree(work, ignore_errors=True)


def edit_script_runs(cli, cases_dir, scratch, memory, only):
    """Hostile edit scripts on a valid model: exit 2, one line (naming the reason), nothing written, input kept."""
    d = os.path.join(cases_dir, "edit")
    with open(os.path.join(d, "scripts.json")) as f:
        scripts = json.load(f)
    model = os.path.join(d, "model", "model.onnx")
    for s in scripts:
        if only and only not in "edit " + s["name"]:
            continue
        what = "edit script " + s["name"]
        out_dir = os.path.join(scratch, "edit-" + s["name"])
        shutil.rmtree(out_dir, ignore_errors=True)
        os.makedirs(out_dir)
        before = snapshot(d)
        r = run(cli, ["edit", model, "--script", os.path.join(d, s["name"] + ".txt"), "-o",
                      os.path.join(out_dir, "out.onnx")], memory)
        check_run(what, r, [2], None, s["reason"])
        if snapshot(d) != before:
            fail(what, "the input's folder changed")
        if os.listdir(out_dir):
            fail(what, "left %s in the output folder" % sorted(os.listdir(out_dir)))
        shutil.rmtree(out_dir, ignore_errors=True)
    # The script and the output folder as inputs of the wrong kind.
    for name, script in (("script is a folder", d), ("script is missing", os.path.join(d, "none.txt"))):
        if only and only not in "edit " + name:
            continue
        r = run(cli, ["edit", model, "--script", script, "-o", os.path.join(scratch, "edit-out.onnx")], memory)
        check_run("edit " + name, r, [2])
        if os.path.exists(os.path.join(scratch, "edit-out.onnx")):
            fail("edit " + name, "wrote the output")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--no-memory-limit", action="store_true")
    ap.add_argument("-k", default="", help="only cases whose name contains this")
    ap.add_argument("--jobs", type=int, default=1, help="hostile files checked at once (the other parts run alone)")
    a = ap.parse_args()
    # Absolute: the write cases make symlinks to files in the scratch folder.
    a.scratch = os.path.abspath(a.scratch)
    os.makedirs(a.scratch, exist_ok=True)
    t0 = time.monotonic()
    bad_inputs(a.cli, a.cases, a.scratch, not a.no_memory_limit, a.k, a.jobs)
    write_cases(a.cli, a.cases, a.scratch, not a.no_memory_limit, a.k)
    code_output_cases(a.cli, a.cases, a.scratch, not a.no_memory_limit, a.k, a.jobs)
    edit_script_runs(a.cli, a.cases, a.scratch, not a.no_memory_limit, a.k)
    print("%d runs, %d failures, %.1f s" % (runs, len(failures), time.monotonic() - t0))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
