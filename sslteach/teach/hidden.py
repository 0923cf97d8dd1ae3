"""Hidden tests: the student's functions called on inputs drawn at grading time, judged in the grader.

A hidden test is a raw cell tagged ``hidden-test`` after an exercise's check cell in the
master notebook (tag ``remove-cell`` too, so the book does not show it). ``release``
leaves it out of both copies and writes it to ``<out>/instructor/<name>.tests.json``. Its
source is Python that runs in the *grader's* process (never in a kernel) and defines

``cases(rng)``
    a list of :func:`Case` ``(function, *args, name=..., **kwargs)`` (``function`` may be
    dotted, ``"one_nn_method.transduce"``: the attributes are looked up while graded) with plain inputs
    (numbers, strings, lists, dicts, numpy arrays, ``types.SimpleNamespace``) drawn with
    ``rng`` (a ``numpy.random.Generator`` seeded afresh for every grading run);
``compare(case, got, want)`` (optional)
    ``None`` when ``got`` (the student's value) is right, else a message saying what is
    wrong; ``want`` is the instructor solution's value on the same inputs. The default,
    :func:`same`, compares numbers and arrays with ``numpy.allclose`` (lists and tuples
    alike);
``forbid`` (optional)
    dotted names of modules, classes or functions the answer must not reach, at any depth
    (``"sslteach.relaxation"``, ``"numpy.linalg.svd"``): they are recognised by code
    object and bytecode, not by the name they are called through, and edited copies of
    them (and of the ``withhold`` functions) by their instructions
    (:mod:`sslteach.teach.copies`); the Cython functions of the extension modules a
    forbidden module imports are replaced in the kernel by wrappers that count as it
    (:func:`wrap_list`);
``require`` (optional)
    dotted names of functions the answer must call (``"scipy.optimize.linprog"``);
``withhold`` (optional)
    ``{dotted name: [keys]}``: when one of these functions (recognised as ``forbid``
    recognises them) returns a dict to the answer's code, those keys are replaced by a
    value whose every use raises, saying why (``{"scipy.optimize.linprog": ["ineqlin",
    ...]}`` hides the solver's multipliers from an answer that must solve the dual itself);
``record_lps`` (optional)
    ``True``: every LP the answer has HiGHS solve through ``scipy.optimize.linprog`` (any
    ``"highs"`` method) is recorded as scipy hands it to HiGHS, and ``compare`` finds the
    records in ``case["lps"]``: a list of dicts with ``n_vars``, ``n_rows``, ``n_ub``
    (rows ``A x <= b``), ``n_eq`` (rows ``A x = b``), ``n_lb`` and ``n_range`` (rows with a
    finite lower side), and the variables' bounds ``lb``, ``ub`` (lists, ``None`` for none);
    an LP of at most ``LP_DATA_MAX`` matrix entries also has ``c``, ``A`` (dense rows),
    ``lhs`` and ``rhs``, and :func:`same_lp` (in the spec's namespace, beside ``np``,
    ``Case`` and :func:`same`) tells whether it is a given LP however it was written.
    HiGHS reached any other way while graded (scipy's private ``_linprog_highs`` or
    ``_highs_wrapper``, or the methods of its C module ``scipy.optimize._highspy._core`` or of
    ``highspy._core``) is a violation, so the records hold every LP the answer solved with
    HiGHS; this lets a spec check *which* LP was built (its rows and bounds), not only its
    solution;
``cost`` (optional)
    ``dict(function=..., make=lambda n, rng: args, sizes=(n1, n2), max_exponent=e)``
    (three sizes may be given; of two, :func:`cost_sizes` puts their geometric mean between):
    the answer runs on inputs of each size (CPU seconds of its kernel, best of three, one
    run when it takes over
    ``ENOUGH_SECONDS``, and measured again before a
    failing verdict when it is less than ``RETRY_BELOW_SLOWDOWN`` times slower than the
    model solution, so that a load spike on a shared grader does not fail it, and before a
    passing verdict within ``NEAR_EXPONENT`` of the limit, so that one does not pass it; the
    better time of the two counts at each size; its values are checked too)
    and fails when its time grows faster than ``n^e`` (from the first size to the last, or
    in its increments, which a fixed time added to every call does not flatten: :func:`growth`)
    *and* it is more than
    ``max_slowdown`` (default 4) times slower than the instructor's solution at the last size
    (cache effects alone can push a right answer's exponent past ``e``); ``max_slowdown=0``
    judges by the growth alone (where the model solution is slow Python, a vectorised
    answer of a higher order can be as fast at ``n2``). An answer that slow whose times do
    not rise at every size, or grow slower than ``n^FLAT_GROWTH`` overall, fails as well
    (work that does not depend on the input's size hides the growth). The answer's own code
    may not read a clock while graded (``_kernel_harness.CLOCKS``).

:class:`HiddenTests` runs them: the reference values come once per grading run from the
instructor copy in a clean kernel; each submission's values come from its own kernel
through :mod:`sslteach.teach._kernel_harness` and are compared here.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import _kernel_harness as codec
from . import copies
from .slicing import _PARSE_LOCK

HARNESS_SOURCE = Path(codec.__file__).read_text(encoding="utf-8")
CALL_TIMEOUT = 60.0
RETRY_BELOW_SLOWDOWN = 100.0  # a cost test failed by less than this factor is measured again (fresh inputs)
RETRY_ALWAYS_BELOW = 0.05  # and one whose time is below this (s), however far: one pause of the machine can
# make a 50-microsecond run 100 times slower (red team 7: a correct q-eigs answer, 5 ms at n = 1000)
ENOUGH_SECONDS = 1.0  # a cost-test run longer than this is not repeated (noise is small beside it)
# Costs are timed in the kernel's CPU seconds (load on the grader does not inflate them); a
# call whose wall time exceeds both of these while it computed little (another process
# doing its work) fails. Ten runnable processes on two cores stretch wall time about 5x.
# Threads and processes the answer could hand its work to are policed in the kernel (see
# _kernel_harness._thread_census), so this is a second line, set above what load does.
WAIT_LIMIT_SECONDS = 5.0
WAIT_RATIO = 20.0
# a run this much faster than the call's first run (which took over the floor) was a lookup of
# a remembered result: see cpu_seconds
REMEMBERED_RATIO = 3.0
REMEMBERED_FLOOR = 0.005
# a passing growth this close under the limit is measured again (fresh inputs) before it
# stands: one slow run at the smaller size once took an O(n^3) answer under its limit on CI
NEAR_EXPONENT = 0.2
# increments of times are read (see growth) when the largest time is over this (s)
INCREMENTS_FLOOR = 0.05
# a slow answer (over max_slowdown times the model) whose times (over INCREMENTS_FLOOR) do not rise
# at every size, or grow slower than n^FLAT_GROWTH overall, fails: red team 10 ran, at every size or
# at the smaller ones, the answer on an input larger than the largest, and its times hardly grew
# (or fell) with n, while every answer's own work grows at least like n here
FLAT_GROWTH = 0.5
#: how :func:`judge`'s message starts when a reply was forged (the exercise is reported "tampered")
TAMPERED = "tampering: "


def Case(function, *args, name="", meta=None, **kwargs):  # noqa: N802 (reads as a record in the specs)
    """One call of a hidden test: ``function(*args, **kwargs)``, described by ``name``.

    ``meta`` is anything the spec's ``compare`` needs besides the arguments.
    """
    return {"function": function, "args": list(args), "kwargs": kwargs, "name": name, "meta": meta}


def same(got, want, rtol=1e-6, atol=1e-8, what="the value"):
    """``None`` when ``got`` matches ``want`` (numbers and arrays by allclose), else why not."""
    if isinstance(got, codec.Unsupported):  # before the sequence rules: a generator is not "not a sequence"
        if got.iterator:
            return got.why()
        return f"{what} is {got!r}, which the grader cannot read: return numbers or numpy arrays"
    if isinstance(want, list | tuple):
        if not isinstance(got, list | tuple) or len(got) != len(want):
            n = len(got) if isinstance(got, list | tuple) else "not a sequence"
            return f"{what} should be a tuple or list of {len(want)} items (got {n})"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            msg = same(g, w, rtol, atol, f"item {i} of {what}")
            if msg:
                return msg
        return None
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return f"{what} should be a dict with keys {sorted(map(str, want))}"
        for k in want:
            msg = same(got[k], want[k], rtol, atol, f"{what}[{k!r}]")
            if msg:
                return msg
        return None
    if hasattr(got, "toarray"):  # a sparse matrix: compared as the dense matrix it stands for
        got = got.toarray()
    if isinstance(want, bool | str) or want is None:
        return None if got == want else f"{what} is {_short(got)}, which is wrong"
    try:
        g = np.asarray(got, dtype=float)
        w = np.asarray(want, dtype=float)
    except (TypeError, ValueError):
        return f"{what} is {_short(got)}, not a number or an array of numbers"
    if g.shape != w.shape:
        if g.size == w.size == 1:
            g = g.reshape(w.shape)
        else:
            return f"{what} has shape {g.shape}, expected {w.shape}"
    if not np.all(np.isfinite(g) == np.isfinite(w)) or not np.allclose(
        g, w, rtol=rtol, atol=atol, equal_nan=True
    ):
        if g.ndim == 0:
            return f"{what} is {float(g):.6g}, which is wrong"
        bad = np.argwhere(~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True))
        where = tuple(int(i) for i in bad[0]) if len(bad) else ()
        return f"{what} is wrong at {len(bad)} of {w.size} entries (first at index {where})"
    return None


def _short(x):
    s = repr(x)
    return s if len(s) < 60 else s[:57] + "..."


@dataclass
class Spec:
    label: str
    cases: list
    compare: object
    forbid: list
    require: list
    cost: dict | None
    functions: list = field(default_factory=list)
    withhold: dict = field(default_factory=dict)
    record_lps: bool = False


def _halfspaces(lp):
    """``(A, b)``: a recorded LP's rows and bounds as ``A x <= b`` (an infinite side gives no row)."""
    n = lp["n_vars"]
    rows, rhs = [], []
    for a, lo, hi in zip(lp["A"], lp["lhs"], lp["rhs"], strict=True):
        if hi is not None:
            rows.append(np.asarray(a, float))
            rhs.append(hi)
        if lo is not None:
            rows.append(-np.asarray(a, float))
            rhs.append(-lo)
    for j, (lo, hi) in enumerate(zip(lp["lb"], lp["ub"], strict=True)):
        for side, bound in ((1.0, hi), (-1.0, -lo if lo is not None else None)):
            if bound is not None:
                rows.append(side * np.eye(n)[j])
                rhs.append(bound)
    return np.asarray(rows, float).reshape(-1, n), np.asarray(rhs, float)


def _inside(A1, b1, A2, b2):
    """Every point of {A1 x <= b1} satisfies A2 x <= b2: each row maximised over it (unbounded: no)."""
    from scipy.optimize import linprog

    for a, bound in zip(A2, b2, strict=True):
        r = linprog(-a, A_ub=A1, b_ub=b1, bounds=(None, None), method="highs")
        if r.status != 0 or -r.fun > bound + 1e-7 * (1 + abs(bound)):
            return False
    return True


def same_lp(lp, A, b, c, orders) -> bool:
    """True when the LP an answer gave HiGHS (a ``record_lps`` record, recorded whole) is
    min c'x subject to A x <= b: its objective a positive multiple of ``c`` and the same
    feasible set (each contains the other: every row of one maximised over the other with
    HiGHS), with its variable j standing for variable ``order[j]`` for one of ``orders``."""
    if lp.get("A") is None or lp["n_vars"] != len(c):
        return False
    c = np.asarray(c, float)
    rows, rhs = _halfspaces(lp)
    for order in orders:
        moved, cost = np.zeros_like(rows), np.zeros(len(c))
        moved[:, order], cost[order] = rows, np.asarray(lp["c"], float)
        s = cost @ c / (c @ c)
        if not (s > 0 and np.allclose(cost, s * c, rtol=1e-9, atol=1e-12 * s * np.abs(c).max())):
            continue
        if _inside(moved, rhs, A, b) and _inside(A, b, moved, rhs):
            return True
    return False


def load_spec(label: str, source: str, rng) -> Spec:
    """Execute a hidden test's source in the grader and draw its cases with ``rng``."""
    ns = {"np": np, "Case": Case, "same": same, "same_lp": same_lp}
    ns["__name__"] = f"hidden_{label.replace('-', '_')}"
    try:
        exec(compile(source, f"<hidden test {label}>", "exec"), ns)
        cases = list(ns["cases"](rng))
    except Exception as exc:
        raise ValueError(f"the hidden test of {label} is broken: {type(exc).__name__}: {exc}") from exc
    cost = ns.get("cost")
    if cost is not None:
        cost = dict(cost)
        cost["sizes"] = cost_sizes(cost["sizes"])
        cost["inputs"] = [cost["make"](n, rng) for n in cost["sizes"]]
        # a second draw, for the measurement made again before a failing verdict: on the same
        # inputs, an answer that remembers its results would be timed on a lookup
        cost["retry_inputs"] = [cost["make"](n, rng) for n in cost["sizes"]]
    # the names the answer must define (the object of a dotted "obj.attr" call)
    functions = sorted({c["function"].split(".")[0] for c in cases} | ({cost["function"]} if cost else set()))
    return Spec(
        label,
        cases,
        ns.get("compare"),
        list(ns.get("forbid", [])),
        list(ns.get("require", [])),
        cost,
        functions,
        {str(k): [str(x) for x in v] for k, v in dict(ns.get("withhold", {})).items()},
        bool(ns.get("record_lps", False)),
    )


@dataclass
class CallResult:
    value: object = None
    error: str = ""
    violations: list = field(default_factory=list)
    required: list = field(default_factory=list)
    seconds: float | None = None
    wall_seconds: float | None = None
    runs: list = field(default_factory=list)  # every run's CPU seconds, in order
    grader_seconds: float | None = None  # the wall time of the whole call, seen from the grader
    lps: list = field(default_factory=list)
    tampered: str = ""


_ENCODED: dict[int, tuple] = {}
_ENCODED_LOCK = threading.Lock()


def _encoded(args):
    """The encoded arguments, computed once per argument list (shared by all submissions)."""
    with _ENCODED_LOCK:
        hit = _ENCODED.get(id(args))
        if hit is None or hit[0] is not args:
            hit = (args, codec.encode(list(args)))
            _ENCODED[id(args)] = hit
        return hit[1]


_WATCH: dict = {}


def _watch(forbid, require, withhold, record_lps=False):
    """:func:`_kernel_harness.watch_lists`, computed once per grading process and list."""
    key = json.dumps([list(forbid), list(require), withhold or {}, bool(record_lps)], sort_keys=True)
    with _ENCODED_LOCK:
        if key not in _WATCH:
            _WATCH[key] = codec.watch_lists(forbid, require, withhold, record_lps=record_lps)
        return _WATCH[key]


def wrap_list(specs) -> list:
    """The compiled functions behind every spec's forbidden modules (``install_guard``'s ``wrap``)."""
    out: dict = {}
    for spec in specs:
        for forbidden, module, names in _watch(spec.forbid, (), None).get("wrap", []):
            out.setdefault((forbidden, module), set()).update(names)
    return [[forbidden, module, sorted(names)] for (forbidden, module), names in sorted(out.items())]


def guard_kernel(kernel, timeout=CALL_TIMEOUT, wrap=()):
    """Install the harness in a fresh kernel, before any cell of the notebook it will grade.

    It registers the audit hook and the entry point of hidden-test calls and announces the
    kernel's secret, kept on ``kernel.sslteach_key`` (see
    :func:`sslteach.teach._kernel_harness.install_guard`); ``ValueError`` if it fails there.
    The harness runs with a copy of the builtins taken now, before the notebook could change them.
    ``wrap`` (:func:`wrap_list`): the compiled functions it replaces by wrappers first.
    """
    code = (
        f"(lambda __ns: (exec(compile({HARNESS_SOURCE!r}, '<sslteach grader>', 'exec'), __ns), "
        f"__ns['install_guard'](wrap={[list(w) for w in wrap]!r})))({{'__name__': '__sslteach_grader__', "
        f"'__builtins__': __import__('builtins').__dict__.copy()}})\n"
        "None"
    )
    run = kernel.run(code, timeout)
    lines = run.stdout.splitlines()
    keys = [line[len(codec.KEY_LINE) :] for line in lines if line.startswith(codec.KEY_LINE)]
    if run.status != "ok" or len(keys) != 1:
        why = run.error or run.status
        raise ValueError(f"the grader's harness could not be installed in the kernel: {why}")
    kernel.sslteach_key = keys[0].strip()
    kernel.sslteach_known = set()  # keys of library functions shown genuine (see call_in_kernel)


def call_in_kernel(
    kernel,
    function,
    args,
    kwargs,
    *,
    forbid=(),
    require=(),
    withhold=None,
    record_lps=False,
    repeat=1,
    enough=None,
    timeout=CALL_TIMEOUT,
):
    """Call ``function`` in ``kernel`` through the harness; everything comes back as plain values.

    ``repeat`` runs (the best time is reported), stopping early after a run longer than
    ``enough`` seconds.
    """
    nonce = "@@" + secrets.token_hex(12) + "@@"
    watch = _watch(forbid, require, withhold, record_lps)
    if watch.get("copies"):  # library functions this kernel already showed genuine are not sent again
        watch = {**watch, "known": sorted(getattr(kernel, "sslteach_known", ()))}
    # a Python literal (the kernel reads it with eval and no builtins, not with its json module,
    # which a submission could have replaced): strings, finite numbers, lists, dicts, None
    payload = repr(
        {
            "nonce": nonce,
            "function": function,
            "args": _encoded(args),
            "kwargs": codec.encode(dict(kwargs)),
            "watch": watch,
            "repeat": repeat,
            "enough": 1e300 if enough is None else float(enough),
        }
    )
    key = getattr(kernel, "sslteach_key", None)
    if key is None:
        raise ValueError("the kernel has no grader's harness: run guard_kernel(kernel) before its first cell")
    if len(payload) > 100_000:  # large inputs travel through a file in the kernel's working folder
        path = Path(kernel.workdir) / f"payload-{nonce.strip('@')}.json"
        path.write_text(payload, encoding="utf-8")
        arg = repr("@file:" + str(path))  # read by the harness with the genuine open
    else:
        arg = repr(payload)
    # the entry point installed before the notebook's cells, with the payload's keyed digest: a
    # function of the notebook's put in its place cannot make a reply that the grader accepts
    code = f"{codec.ENTRY}({arg}, {codec.line_mac(key, payload)!r})\nNone"
    started = time.perf_counter()
    try:
        run = kernel.run(code, timeout)
    finally:
        grader_seconds = time.perf_counter() - started
        if arg != repr(payload):
            path.unlink(missing_ok=True)
    out = CallResult(grader_seconds=grader_seconds)
    finals = []
    shown = []  # the functions the answer entered, for the copy check
    forged = 0
    for line in run.stdout.splitlines():
        i = line.find(nonce)
        if i < 0:
            continue
        rest = line[i + len(nonce) :]
        n = codec.MAC_CHARS
        mac, kind, body = rest[:n], rest[n : n + 1], rest[n + 1 :]
        if not kind or codec.line_mac(key, nonce + kind + body) != mac:
            forged += 1  # a line in the grader's format that the harness did not write
            continue
        try:
            with _PARSE_LOCK:  # literal_eval parses: see slicing.parse (CPython 3.11, threads)
                data = ast.literal_eval(body)
        except (ValueError, SyntaxError):
            out.violations.append("a line in the grader's format could not be read")
            continue
        if kind == "V":
            out.violations.append(str(data))
        elif kind == "Q":
            out.required.append(str(data))
        elif kind == "L":
            out.lps.append(data)
        elif kind == "S":
            shown.append(data)
        elif kind == "R":
            finals.append(data)
    if forged:
        out.tampered = f"{forged} line(s) of the reply were not written by the grader's harness (forged)"
        out.violations.append(out.tampered)
        return out
    if len(finals) > 1:  # the harness writes one: the others are forged
        out.tampered = f"the grader's harness replied {len(finals)} times to one call (its reply was forged)"
        out.violations.append(out.tampered)
        return out
    if run.status != "ok":  # the harness catches every error of the answer: its cell cannot fail
        out.error = run.error or run.status
        if finals:
            out.tampered = "the call's reply came from a cell that then failed (its reply was forged)"
            out.violations.append(out.tampered)
        return out
    if not finals:
        out.violations.append("the grader's reply was suppressed")
        out.error = "no reply from the grader's harness"
        return out
    final = finals[0]
    if not isinstance(final, dict):
        out.error = "the grader's reply was not readable"
        return out
    got = {"V": len(out.violations), "Q": len(out.required), "L": len(out.lps), "S": len(shown)}
    if final.get("lines") != got:  # a line the harness wrote did not arrive: suppressed on its way out
        out.tampered = (
            f"lines of the grader's reply were suppressed (written {final.get('lines')}, received {got})"
        )
        out.violations.append(out.tampered)
        return out
    out.violations += _copy_violations(kernel, shown, forbid, withhold)
    out.error = final.get("error") or ""
    out.seconds = final.get("seconds")
    out.wall_seconds = final.get("wall_seconds")
    out.runs = list(final.get("runs") or [])
    if not out.error:
        try:
            out.value = codec.decode(final.get("result"))
        except Exception as exc:
            out.error = f"the returned value could not be read: {exc}"
    return out


def _pattern_paths(forbid, withhold):
    """The functions an answer must not copy: the forbidden ones and those whose values are withheld."""
    return tuple(sorted(set(forbid) | set(withhold or {})))


def _copy_violations(kernel, shown, forbid, withhold):
    """Judge the functions a call reported (see :mod:`sslteach.teach.copies`); remember the clean ones."""
    if not shown:
        return []
    pid = _pattern_paths(forbid, withhold)
    known = getattr(kernel, "sslteach_known", set())
    out = []
    own = []  # the answer's functions, in the order the call first entered them
    for item in shown:
        try:
            kind, key, file, name = item[:4]
            if kind == "library":
                if key in copies.genuine_keys(file):
                    known.add(key)
                else:
                    out.append(f"ran code that claims to be {file}'s {name} but is not in that file "
                               "(code built or compiled to pass for a library's)")
            else:
                code, names = bytes(item[4]), tuple(item[5])
                own.append((name, code, names))  # sent again by every call: a copy split into
                # helpers is looked for in all of them together, below
                why = copies.copied(name, code, names, copies.patterns(pid))
                if why:
                    out.append(why)
        except (TypeError, ValueError, IndexError):
            out.append("a line in the grader's format could not be read")
    if len(own) > 1 and not out:
        out += [why for why in [copies.copied_together(own, copies.patterns(pid))] if why]
    return out


def _violations_text(violations, shown=3):
    """The harness's violations in one line: ``called X (f, g, h and 120 more functions)`` per X."""
    by_path, other = {}, []
    for v in dict.fromkeys(violations):
        if v.startswith("called ") and v.endswith(")") and " (" in v:
            path, _, fn = v[len("called ") : -1].partition(" (")
            by_path.setdefault(path, []).append(fn)
        else:
            other.append(v)
    parts = []
    for path, fns in by_path.items():
        more = f" and {len(fns) - shown} more functions" if len(fns) > shown else ""
        parts.append(f"called {path} ({', '.join(fns[:shown])}{more})")
    return "; ".join(parts + other)


def seed_for(label: str, seed: int) -> np.random.Generator:
    digest = hashlib.sha256(f"{seed}:{label}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def reference_values(kernel, spec: Spec) -> dict:
    """The instructor solution's values on the spec's cases (and cost inputs), in a clean kernel."""
    out = {"cases": [], "cost": []}
    for case in spec.cases:
        r = call_in_kernel(kernel, case["function"], case["args"], case["kwargs"])
        if r.error:
            raise ValueError(
                f"the instructor's solution of {spec.label} fails its hidden test "
                f"{case['name'] or case['function']}: {r.error}"
            )
        out["cases"].append(r.value)
    if spec.cost:
        for args in spec.cost["inputs"]:
            # timed as an answer is (best of three, one run when it takes over ENOUGH_SECONDS)
            r = call_in_kernel(kernel, spec.cost["function"], args, {}, repeat=3, enough=ENOUGH_SECONDS)
            if r.error:
                raise ValueError(f"the instructor's solution of {spec.label} fails its cost test: {r.error}")
            out["cost"].append(r.value)
            out.setdefault("cost_seconds", []).append(max(r.seconds or 0.0, 1e-6))
        for args in spec.cost["retry_inputs"]:
            r = call_in_kernel(kernel, spec.cost["function"], args, {})
            if r.error:
                raise ValueError(f"the instructor's solution of {spec.label} fails its cost test: {r.error}")
            out.setdefault("cost_retry", []).append(r.value)
    return out


def cpu_seconds(runs: list, best: float | None = None, remembered: bool = True) -> float:
    """The CPU seconds a cost test counts for one call: the best of its runs, unless a run took
    less than ``1 / REMEMBERED_RATIO`` of the first (over ``REMEMBERED_FLOOR`` seconds): then the
    answer remembered the inputs it had already seen, and the first run, which did the work,
    counts. Load does not make a CPU time that much shorter than another.

    ``remembered=False`` (the smaller sizes of a cost test) always counts the best run: a longer
    time there lowers the measured exponent, so counting a slow first run (a cold cache, pages
    not yet mapped) would let a too-slow answer pass, and remembering is no help there."""
    if not runs:
        return max(best or 0.0, 1e-6)
    first = runs[0]
    if remembered and first > REMEMBERED_FLOOR and min(runs) * REMEMBERED_RATIO < first:
        return first
    return max(min(runs), 1e-6)


def _cost_times(kernel, spec: Spec, ref: dict, timeout: float, attempt: int = 0):
    """The answer's best-of-three seconds at the cost test's two sizes, or why it failed there.

    ``attempt`` 1 (the measurement made again before a failing verdict) uses the second draw
    of inputs, never seen by the answer.
    """
    c = spec.cost
    compare = spec.compare or (lambda case, got, want: same(got, want))
    times = []
    inputs, wants = (c["inputs"], ref["cost"]) if attempt == 0 else (c["retry_inputs"], ref["cost_retry"])
    for n, args, want in zip(c["sizes"], inputs, wants, strict=True):
        r = call_in_kernel(
            kernel,
            c["function"],
            args,
            {},
            forbid=spec.forbid,
            withhold=spec.withhold,
            record_lps=spec.record_lps,
            repeat=3,
            enough=ENOUGH_SECONDS,
            timeout=min(timeout, c.get("timeout", 30.0)),
        )
        if r.tampered:
            return TAMPERED + f"cost test, n = {n}: {r.tampered}"
        if r.violations:
            return f"cost test, n = {n}: {_violations_text(r.violations)}"
        if r.error:
            return f"cost test, n = {n}: {c['function']} raised {r.error}"
        msg = compare(
            {"function": c["function"], "args": args, "kwargs": {}, "name": f"n = {n}", "meta": None,
             "lps": r.lps},
            r.value,
            want,
        )
        if msg:
            return f"cost test, n = {n}: {msg}"
        cpu = cpu_seconds(r.runs, r.seconds, remembered=n == max(c["sizes"]))
        # the wall time of the best run, as the kernel measured it (its reply is signed with the
        # kernel's secret, so it cannot be forged); the grader's own clock would add the transfer
        # of the inputs and the result, which load on the grader stretches
        elapsed = r.wall_seconds or 0.0
        if elapsed > WAIT_LIMIT_SECONDS and elapsed > WAIT_RATIO * cpu:
            return (
                f"cost test, n = {n}: {c['function']} took {elapsed:.3g} s but computed for only "
                f"{cpu:.3g} CPU s: the work must be done in the graded call itself (costs are "
                "measured in CPU time, so that load on the grader does not change a verdict)"
            )
        times.append(cpu)
    return times


def cost_sizes(sizes) -> tuple:
    """A cost test's three sizes: given two, the geometric mean goes between them."""
    sizes = tuple(int(n) for n in sizes)
    if len(sizes) == 2:
        sizes = (sizes[0], round(math.sqrt(sizes[0] * sizes[1])), sizes[1])
    if len(sizes) != 3 or not 0 < sizes[0] < sizes[1] < sizes[2]:
        raise ValueError(f"a cost test's sizes must be two or three increasing positive sizes, not {sizes}")
    return sizes


def growth(sizes, times) -> tuple[float, float]:
    """``(overall, beyond a constant)``: the power of n that the times grow like from the first
    size to the last, and the power that their increments grow like, which a fixed time added
    to every call (overhead, or CPU burnt on purpose to flatten the growth) does not change:
    the ``p`` with ``(n3^p - n2^p) / (n2^p - n1^p) = (t3 - t2) / (t2 - t1)``. Increments are
    read only when the last time is over ``INCREMENTS_FLOOR`` (below it they are timing noise);
    no growth at the top is ``-inf``, growth at the top after none below ``inf``."""
    overall = math.log(times[-1] / times[0]) / math.log(sizes[-1] / sizes[0])
    if len(times) < 3 or times[-1] < INCREMENTS_FLOOR:
        return overall, overall
    (n1, n2, n3), (t1, t2, t3) = sizes, times
    if t3 <= t2:
        return overall, -math.inf
    if t2 <= t1:
        return overall, math.inf
    want = math.log((t3 - t2) / (t2 - t1))

    def ratio(p):  # log of the increments' ratio for times c n^p: increasing in p
        if abs(p) < 1e-9:
            return math.log(math.log(n3 / n2) / math.log(n2 / n1))
        return math.log((n3**p - n2**p) / (n2**p - n1**p))

    lo, hi = -4.0, 12.0
    if want <= ratio(lo):
        return overall, lo
    if want >= ratio(hi):
        return overall, hi
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ratio(mid) < want else (lo, mid)
    return overall, (lo + hi) / 2


def _cost_verdict(c: dict, times: list, ref: dict) -> str:
    """Why the times break the stated cost ("" when they do not)."""
    sizes = c["sizes"]
    at = ", ".join(f"{t:.3g} s" for t in times)
    overall, beyond = growth(sizes, times)
    slower = times[-1] / ref["cost_seconds"][-1]
    slow = slower > c.get("max_slowdown", 4.0)
    flat = any(b <= a for a, b in zip(times, times[1:])) or overall < FLAT_GROWTH
    if slow and flat and max(times) > INCREMENTS_FLOOR:
        return (
            f"{c['function']} is too slow for the cost the exercise asks, and its time hardly grows with "
            f"n ({at} at n = {', '.join(map(str, sizes))}): most of it is work that does not depend on "
            "the input's size (an answer's own work grows with n), so its cost cannot be told from it"
            + (
                f"; at n = {sizes[-1]} it is more than {c.get('max_slowdown', 4.0):g} times slower than the "
                "model solution"
                if c.get("max_slowdown", 4.0) > 0
                else ""
            )
        )
    if max(overall, beyond) > c["max_exponent"] and slow:
        if overall > c["max_exponent"]:
            how = f"grows like n^{overall:.1f} from n = {sizes[0]} to {sizes[-1]} ({at} at n = {sizes})"
        else:
            how = (
                f"grows, beyond a constant part, like n^{min(beyond, 9.9):.1f} at n = "
                f"{', '.join(map(str, sizes))} ({at}): time that every call spends alike does not hide "
                "how the rest grows"
            )
        return (
            f"{c['function']} is too slow for the cost the exercise asks: its time {how}; "
            f"the limit is n^{c['max_exponent']:g}"
            + (
                f", and at n = {sizes[-1]} it is more than {c.get('max_slowdown', 4.0):g} times slower than "
                "the model solution"
                if c.get("max_slowdown", 4.0) > 0
                else ""
            )
        )
    return ""


def _measure_again(c: dict, times: list, ref: dict, verdict: str) -> bool:
    """Whether a cost verdict is measured again before it stands: a failure unless the answer is
    far too slow for load to explain, a pass when its growth is within ``NEAR_EXPONENT`` of the
    limit and it is slow enough beside the model solution to fail on growth."""
    if verdict:
        far = times[-1] > RETRY_BELOW_SLOWDOWN * ref["cost_seconds"][-1] and times[-1] > RETRY_ALWAYS_BELOW
        return not far
    slower = times[-1] / ref["cost_seconds"][-1]
    return max(growth(c["sizes"], times)) > c["max_exponent"] - NEAR_EXPONENT and slower > c.get(
        "max_slowdown", 4.0
    )


def _watched(spec: Spec) -> bool:
    """Whether the spec watches what the answer runs (forbids, withholds, requires, records LPs or
    times it): only then do threads and processes matter, which run code the grader does not see."""
    return bool(spec.forbid or spec.withhold or spec.require or spec.record_lps or spec.cost)


#: how the harness's lines about threads and processes begin (see _kernel_harness._unwatched)
CONCURRENCY = ("called _thread.start_new_thread", "called posix.", "called _posixsubprocess.",
               "a thread or a process was started", "the notebook started a process")


def _concurrency(violation: str) -> bool:
    """A violation that is only a thread or a process (harmless where nothing is watched:
    red team 10's correct thread-pool 1-NN was refused)."""
    return violation.startswith(CONCURRENCY) or (
        violation[:1].isdigit() and ("thread(s) the notebook started" in violation
                                     or "process(es) the notebook started" in violation)
    )


def judge(kernel, spec: Spec, ref: dict, timeout: float) -> tuple[bool, str]:
    """Run the spec's calls in a submission's kernel; ``(passed, message)``."""
    compare = spec.compare or (lambda case, got, want: same(got, want))
    calls = [(c, want) for c, want in zip(spec.cases, ref["cases"], strict=True)]
    required_seen: set = set()
    for case, want in calls:
        r = call_in_kernel(
            kernel,
            case["function"],
            case["args"],
            case["kwargs"],
            forbid=spec.forbid,
            require=spec.require,
            withhold=spec.withhold,
            record_lps=spec.record_lps,
            timeout=timeout,
        )
        label = case["name"] or case["function"]
        if r.tampered:
            return False, TAMPERED + f"{label}: {r.tampered}"
        violations = r.violations if _watched(spec) else [v for v in r.violations if not _concurrency(v)]
        if violations:
            return False, f"{label}: {_violations_text(violations)}"
        if r.error and "Timeout" in r.error:
            return False, f"{label}: {r.error}"
        if r.error:
            return False, f"{label}: {case['function']} raised {r.error}"
        required_seen.update(r.required)
        if spec.record_lps:
            case = {**case, "lps": r.lps}
        try:
            msg = compare(case, r.value, want)
        except Exception as exc:  # a value of the wrong kind
            msg = f"the returned value could not be compared ({type(exc).__name__}: {exc})"
        if msg:
            return False, f"{label}: {msg}"
    missing = [p for p in spec.require if p not in required_seen]
    if missing:
        return False, f"{spec.functions[0]} must call {', '.join(missing)} (it was never called)"
    if spec.cost:
        c = spec.cost
        times = None
        for attempt in range(2):  # a verdict near its edge is measured twice: load comes and goes
            got = _cost_times(kernel, spec, ref, timeout, attempt)
            if isinstance(got, str):
                return False, got
            times = got if times is None else [min(a, b) for a, b in zip(times, got, strict=True)]
            verdict = _cost_verdict(c, times, ref)
            if not _measure_again(c, times, ref, verdict):
                break
        if verdict:
            return False, verdict
    return True, ""
