"""Hidden tests: what the grader calls, how it judges the values, and the rules it checks.

A tests file holds one section per exercise, ``# %% <label>``, after a preamble that every
section sees (``import numpy as np``, ``from sslteach_grader import Case, same``, shared
helpers). A section runs in the grader's process, never in a kernel, and defines:

``cases(rng)``
    the calls, ``Case("function", *args, name=..., **kwargs)``, with inputs drawn from ``rng``
    (a ``numpy.random.Generator`` seeded by the assignment's seed) beside fixed ones that tell
    every plausible wrong answer apart; ``function`` may be dotted (``"method.transduce"``);
``compare(case, got, want)`` (optional)
    ``None`` when the student's value ``got`` is right, else what is wrong; ``want`` is the
    model solution's value on the same inputs; by default :func:`same`;
``forbid``, ``require`` (optional)
    dotted names (``"numpy.linalg.svd"``, ``"sslteach.relaxation"``) the answer's source must
    not name, or must call; an entry ``".attr"`` forbids that attribute (``".marginals"``);
``cost`` (optional)
    ``dict(function=..., make=lambda n, rng: args, sizes=(n1, n2[, n3]), max_exponent=e,
    max_slowdown=4.0, timeout=30.0)``: the function is timed at each size (:func:`cost_verdict`).
"""

from __future__ import annotations

import ast
import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .slicing import parse

_SECTION_RE = re.compile(r"^# %% (ch\d+-ex-[A-Za-z0-9-]+)[ \t]*$", re.M)
#: CPU seconds under which an answer is never too slow, whatever its growth
COST_FLOOR = 0.1


def Case(function, *args, name="", meta=None, **kwargs):  # noqa: N802 (reads as a record in the tests)
    """One call of a hidden test, ``function(*args, **kwargs)``, described by ``name``; ``meta`` is
    anything ``compare`` needs besides the arguments."""
    return {"function": function, "args": list(args), "kwargs": kwargs, "name": name, "meta": meta}


def same(got, want, rtol=1e-6, atol=1e-8, what="the value"):
    """``None`` when ``got`` matches ``want`` (numbers and arrays by ``numpy.allclose``, lists and
    tuples alike), else a message saying what differs.

    >>> same([1.0, np.ones(2)], (1.0, [1, 1])) is None
    True
    >>> same(np.zeros(3), np.ones(3))
    'the value is wrong at 3 of 3 entries (first at index (0,))'
    """
    if isinstance(want, list | tuple) and isinstance(got, list | tuple) and len(got) == len(want):
        return next((m for i, (g, w) in enumerate(zip(got, want, strict=True))
                     if (m := same(g, w, rtol, atol, f"item {i} of {what}"))), None)
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return f"{what} should be a dict with keys {sorted(map(str, want))}"
        return next((m for k in want if (m := same(got[k], want[k], rtol, atol, f"{what}[{k!r}]"))), None)
    if isinstance(want, bool | str) or want is None:
        return None if got == want else f"{what} is {str(got)[:60]}, which is wrong"
    try:
        g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    except (TypeError, ValueError):
        if isinstance(want, list | tuple):
            return f"{what} should be a tuple or list of {len(want)} items"
        return f"{what} is {str(got)[:60]}, not a number or an array of numbers"
    if g.shape != w.shape and not g.size == w.size == 1:
        return f"{what} has shape {g.shape}, expected {w.shape}"
    g = g.reshape(w.shape)
    bad = np.argwhere(~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True))
    if not len(bad):
        return None
    if g.ndim == 0:
        return f"{what} is {float(g):.6g}, which is wrong"
    return f"{what} is wrong at {len(bad)} of {w.size} entries (first at index {tuple(map(int, bad[0]))})"


@dataclass
class Spec:
    """One exercise's hidden test with its cases drawn."""

    label: str
    cases: list
    compare: object = None
    forbid: list = field(default_factory=list)
    require: list = field(default_factory=list)
    cost: dict | None = None

    @property
    def functions(self) -> list[str]:
        """The names the answer must define (the object of a dotted call)."""
        names = {c["function"].split(".")[0] for c in self.cases}
        return sorted(names | ({self.cost["function"]} if self.cost else set()))

    def judge(self, case, got, want) -> str | None:
        """Why ``got`` is wrong for ``case`` (``None`` when it is right)."""
        try:
            return (self.compare or (lambda c, g, w: same(g, w)))(case, got, want)
        except Exception as exc:  # a value of the wrong kind
            return f"the returned value could not be compared ({type(exc).__name__}: {exc})"


def sections(path) -> tuple[str, dict[str, tuple[int, str]]]:
    """A tests file's preamble, and ``{label: (line number of its marker, section text)}``."""
    text = Path(path).read_text(encoding="utf-8")
    marks = list(_SECTION_RE.finditer(text))
    if not marks:
        raise ValueError(f"{path} has no section: start each exercise's test with a line '# %% <label>'.")
    out = {}
    for m, nxt in zip(marks, [*marks[1:], None], strict=True):
        if m.group(1) in out:
            raise ValueError(f"{path}: the section {m.group(1)} appears twice.")
        end = nxt.start() if nxt else len(text)
        out[m.group(1)] = (text.count("\n", 0, m.start()), text[m.start() : end])
    return text[: marks[0].start()], out


def read_tests(path) -> dict[str, str]:
    """``{label: source}`` of a tests file: the preamble and the section, padded with blank lines so
    that a traceback's line numbers are the file's."""
    preamble, secs = sections(path)
    return {lab: preamble + "\n" * (line - preamble.count("\n")) + body for lab, (line, body) in secs.items()}


def seed_rng(seed: int, label: str) -> np.random.Generator:
    """The generator of one exercise's inputs: the assignment's seed and the label, hashed."""
    digest = hashlib.sha256(f"{int(seed)}:{label}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def load_spec(label: str, source: str, rng, filename="<tests>", cost_inputs=True) -> Spec:
    """Run a section in the grader and draw its cases (and, if ``cost_inputs``, the cost test's inputs:
    two draws per size)."""
    ns = {"__name__": "hidden_" + label.replace("-", "_"), "np": np, "Case": Case, "same": same}
    try:
        exec(compile(source, str(filename), "exec"), ns)
        spec = Spec(label, list(ns["cases"](rng)), ns.get("compare"), list(ns.get("forbid", [])),
                    list(ns.get("require", [])), dict(ns["cost"]) if "cost" in ns else None)
        if spec.cost:
            sizes = tuple(int(n) for n in spec.cost["sizes"])
            if not 2 <= len(sizes) <= 3 or list(sizes) != sorted(set(sizes)) or sizes[0] < 1:
                raise ValueError(f"cost sizes must be two or three increasing sizes, not {sizes}")
            if len(sizes) == 2:  # the geometric mean between
                sizes = (sizes[0], round(math.sqrt(sizes[0] * sizes[1])), sizes[1])
            spec.cost["sizes"] = sizes  # two draws of inputs: the second to measure a failing answer again
            if cost_inputs:
                spec.cost["inputs"] = [[tuple(spec.cost["make"](n, rng)) for n in sizes] for _ in range(2)]
    except Exception as exc:
        why = f"{type(exc).__name__}: {exc}"
        raise ValueError(f"the hidden test of {label} in {filename} is broken: {why}") from exc
    return spec


def _dotted(node) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def aliases(sources) -> dict[str, set[str]]:
    """What each imported name (or name assigned a dotted module path) stands for, in every cell.

    >>> sorted(aliases(["import numpy as np\\nfrom scipy.optimize import linprog as lp"]).items())
    [('lp', {'scipy.optimize.linprog'}), ('np', {'numpy'})]
    """
    out: dict[str, set[str]] = {}
    trees = [t for t in map(_tree, sources) if t]
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    head = a.name.split(".")[0]
                    out.setdefault(a.asname or head, set()).add(a.name if a.asname else head)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for a in node.names:
                    out.setdefault(a.asname or a.name, set()).add(f"{node.module}.{a.name}")
    for tree in trees:  # x = np.linalg: x stands for numpy.linalg
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                for full in _resolve(_dotted(node.value), out):
                    out.setdefault(node.targets[0].id, set()).add(full)
    return out


def _tree(code):
    try:
        return parse(code)
    except SyntaxError:
        return None


def _resolve(dotted, names) -> set[str]:
    if not dotted:
        return set()
    head, _, rest = dotted.partition(".")
    return {f"{full}.{rest}" if rest else full for full in names.get(head, ())}


def references(code: str, names) -> tuple[set[str], set[str], set[str]]:
    """``(references, calls, attributes)`` of ``code``: the dotted names it reads or imports and the
    ones it calls, resolved through ``names`` (:func:`aliases`), and every attribute and string key."""
    refs, calls, attrs = set(), set(), set()
    tree = _tree(code)
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, ast.Import):
            refs.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            refs.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Attribute | ast.Name):
            refs |= _resolve(_dotted(node), names)
            attrs |= {node.attr} if isinstance(node, ast.Attribute) else set()
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            attrs.add(node.value)
        if isinstance(node, ast.Call):
            calls |= _resolve(_dotted(node.func), names)
    return refs, calls, attrs


def source_violation(spec: Spec, answer_sources, all_sources) -> str:
    """Why the answer's source breaks the exercise's ``forbid`` or ``require`` rules ("" if not).

    >>> spec = Spec("ch9-ex-demo", [], forbid=["numpy.linalg.svd"], require=["scipy.optimize.linprog"])
    >>> source_violation(spec, ["def f(A):\\n    return la.svd(A)"], ["from numpy import linalg as la"])
    'your answer uses numpy.linalg.svd, which this exercise rules out'
    """
    names = aliases([*all_sources, *answer_sources])
    refs, calls, attrs = set(), set(), set()
    for code in answer_sources:
        r, c, a = references(code, names)
        refs, calls, attrs = refs | r, calls | c, attrs | a
    for rule in spec.forbid:
        hits = {rule[1:]} & attrs if rule.startswith(".") else {
            r for r in refs if r == rule or r.startswith(rule + ".")}
        if hits:
            return f"your answer uses {sorted(hits)[0]}, which this exercise rules out"
    missing = [r for r in spec.require if r not in calls]
    return f"your answer must call {', '.join(missing)}" if missing else ""


def growth(sizes, times, floor=0.03, rise=0.1) -> float:
    """The power of n that three times grow like: the larger of the slope between the two largest
    sizes (a time under ``floor`` seconds, the CPU clock's noise, counted as ``floor``) and the power
    ``p`` whose increments ``n3^p - n2^p`` and ``n2^p - n1^p`` have the times' ratio, which a fixed
    time added to every call does not change (read when each increment is over ``rise`` seconds).

    >>> round(growth((100, 200, 400), (1.0 + 0.2, 1.0 + 0.8, 1.0 + 3.2)), 3)  # n^2, 1 s added to each
    2.0
    """
    (n1, n2, n3), (t1, t2, t3) = sizes, times
    slope = math.log(max(t3, floor) / max(t2, floor)) / math.log(n3 / n2)
    if not (t2 - t1 >= rise and t3 - t2 >= rise):
        return slope
    want = math.log((t3 - t2) / (t2 - t1))
    lo, hi = 0.05, 12.0
    for _ in range(60):  # the increments' log-ratio increases with p
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.log((n3**mid - n2**mid) / (n2**mid - n1**mid)) < want else (lo, mid)
    return max(slope, lo)


def cost_limit(cost: dict, reference) -> float:
    """The CPU seconds at the largest size under which an answer is never too slow."""
    return max(COST_FLOOR, cost.get("max_slowdown", 4.0) * reference[-1])


def cost_verdict(cost: dict, times, reference) -> str:
    """Why the CPU ``times`` break the stated cost ("" when they do not): an answer fails when it is
    slower than ``max_slowdown`` times the model solution (and over ``COST_FLOOR`` s) at the largest
    size *and* its time grows faster than ``n^max_exponent``, or does not grow at all.

    >>> cost = dict(function="f", sizes=(1000, 2000, 4000), max_exponent=1.5)
    >>> print(cost_verdict(cost, (0.05, 0.4, 3.2), (0.01, 0.02, 0.04)))  # doctest: +NORMALIZE_WHITESPACE
    f is too slow for the cost the exercise asks: its time (0.05 s, 0.4 s, 3.2 s at n = 1000, 2000,
    4000) grows like n^3.0; the limit is n^1.5
    """
    sizes = cost["sizes"]
    if times[-1] <= cost_limit(cost, reference):
        return ""
    at = ", ".join(f"{t:.2g} s" for t in times) + f" at n = {', '.join(map(str, sizes))}"
    if any(b <= a for a, b in zip(times, times[1:])):
        return f"{cost['function']} is too slow ({at}) and its time does not grow with n"
    g = growth(sizes, times)
    if g > cost["max_exponent"]:
        return (f"{cost['function']} is too slow for the cost the exercise asks: its time ({at}) grows "
                f"like n^{g:.1f}; the limit is n^{cost['max_exponent']:g}")
    return ""
