"""Grading: the student's functions called on inputs drawn at grading time, judged in the grader.

For each submission, :class:`Grader` checks the locked cells against the manifest, runs the cells
the answers need in a fresh kernel (in the sandbox by default), then calls the functions each
hidden test names and compares the values with the instructor solution's, computed once per
grading run in a kernel of its own. The values cross from the kernel as JSON with arrays as
``.npy`` bytes (never pickles), so the grader's process runs none of the student's code.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import pickle
import re
import secrets
import threading
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from .kernel import PACKAGES, Kernel, sandbox_problem
from .release import DEFAULT_TIMEOUT, MANIFEST_KEY, WRITTEN_STUB
from .reports import ExerciseResult, Report
from .slicing import needed, plan
from .specs import cost_limit, cost_verdict, load_spec, read_tests, seed_rng, source_violation

#: Bytes of address space a submission's kernel may use (``grade --memory``, in GiB).
DEFAULT_MEMORY = 4 << 30
#: Seconds the calls of one exercise may take, per seed.
CALL_TIMEOUT = 60.0
_MAX_REPLY = 200 << 20

# Defined in the kernel after the notebook's cells: reads the calls, writes the values.
RUNNER = r'''
def __sslteach_grader__():
    import base64, io, json, pickle
    import numpy as np
    user, state = globals(), {}

    def enc(v, depth=0):
        if depth > 50:
            raise ValueError("the value is nested too deeply")
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, (list, tuple)):
            return [enc(x, depth + 1) for x in v]
        if isinstance(v, dict):
            return {"__dict__": [[str(k), enc(x, depth + 1)] for k, x in v.items()]}
        a = np.asarray(v.toarray() if hasattr(v, "toarray") else v)
        if a.dtype == object:
            raise TypeError(f"a value of type {type(v).__name__} cannot be graded: return numbers, "
                            "arrays, lists, tuples or dicts of them")
        buf = io.BytesIO()
        np.save(buf, a, allow_pickle=False)
        return {"__npy__": base64.b64encode(buf.getvalue()).decode()}

    def call(fn, args, kwargs):
        if fn.split(".")[0] not in user:
            raise NameError(f"name {fn.split('.')[0]!r} is not defined: no cell that ran defines it")
        obj = user[fn.split(".")[0]]
        for part in fn.split(".")[1:]:
            obj = getattr(obj, part)
        return obj(*args, **kwargs)

    def reply(get):
        try:
            return {"value": enc(get())}
        except Exception as exc:
            return {"error": f"{type(exc).__name__}: {exc}"[:300]}

    def calls(tag):
        with open(tag + ".in", "rb") as f:
            todo = pickle.load(f)
        with open(tag + ".out", "w") as f:
            json.dump([reply(lambda c=c: call(*c)) for c in todo], f)

    def load(tag):
        with open(tag + ".in", "rb") as f:
            state["call"] = pickle.load(f)[0]

    def run():
        try:
            state["value"], state["error"] = call(*state["call"]), None
        except Exception as exc:
            state["error"] = exc

    def save(tag):
        with open(tag + ".out", "w") as f:
            json.dump([reply(lambda: state["value"]) if state["error"] is None
                       else {"error": f"{type(state['error']).__name__}: {state['error']}"[:300]}], f)

    return calls, load, run, save


__sslteach_calls__, __sslteach_load__, __sslteach_run__, __sslteach_save__ = __sslteach_grader__()
del __sslteach_grader__
'''


def _decode(x):
    if isinstance(x, list):
        return [_decode(v) for v in x]
    if isinstance(x, dict) and "__npy__" in x:
        return np.load(io.BytesIO(base64.b64decode(x["__npy__"])), allow_pickle=False)
    if isinstance(x, dict) and "__dict__" in x:
        return {str(k): _decode(v) for k, v in x["__dict__"]}
    return x


def _value(reply):
    """``(value,)`` of a reply, or ``(None,)`` when it cannot be read (then judged wrong)."""
    try:
        return (_decode(reply.get("value")),)
    except (ValueError, TypeError, KeyError, RecursionError):
        return (None,)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _gid(cell) -> str:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") or ""


def _runnable(code: str) -> str:
    """A cell without IPython magics and shell escapes (no installs, no network)."""
    return "\n".join("pass  # " + ln if ln.lstrip().startswith(("%", "!")) else ln for ln in code.split("\n"))


def integrity(nb, manifest, originals) -> tuple[dict, list, dict]:
    """``(broken, problems, restored)``: the exercises whose locked cells are missing, duplicated or
    edited (with the reason), notes, and the released source of edited chapter cells by index."""
    broken, problems, restored = {}, [], {}
    by_key = defaultdict(list)
    for i, cell in enumerate(nb.cells):
        for key in {cell.get("id"), _gid(cell)} - {None, ""}:
            by_key[key].append(i)
    contents = Counter(_sha(cell.source) for cell in nb.cells)
    for entry in manifest["locked"]:
        hits = sorted(set(by_key[entry["grade_id"]]) | set(by_key[entry["id"] or ""]))
        what = f"the locked cell {entry['grade_id']}"
        if not hits and contents[entry["sha256"]] == 1:
            continue  # its id was lost (an editor that drops ids) but its content is intact
        if not hits:
            reason = f"{what} is missing"
        elif len(hits) > 1:
            reason = f"{what} appears {len(hits)} times (a copy of a locked cell)"
        elif _sha(nb.cells[hits[0]].source) != entry["sha256"]:
            reason = f"{what} was edited"
        else:
            continue
        if entry["label"]:
            broken.setdefault(entry["label"], reason + "; the exercise scores 0")
        elif len(hits) == 1 and entry["grade_id"] in originals:
            restored[hits[0]] = originals[entry["grade_id"]]
            problems.append(reason + "; the released cell ran instead")
        else:
            problems.append(reason)
    return broken, problems, restored


class Grader:
    """Grades submissions of one released notebook.

    ``reference`` is the released student copy (its manifest is authoritative); the instructor
    copy is ``instructor`` (default ``../instructor/<name>`` beside it) and its hidden tests
    ``<stem>.tests.py`` beside that (``tests``). ``seed`` overrides the assignment's seed.
    ``ValueError`` when a file is missing or the sandbox cannot run (``sandbox=False`` runs
    submissions without it).
    """

    def __init__(self, reference, *, instructor=None, tests=None, seed=None, timeout=DEFAULT_TIMEOUT,
                 sandbox=True, memory=DEFAULT_MEMORY, packages=PACKAGES):
        import nbformat

        reference = Path(reference)
        if not reference.is_file():
            raise ValueError(f"the reference {reference} does not exist: pass the student copy `release` "
                             "wrote.")
        self.ref = nbformat.read(str(reference), as_version=4)
        self.manifest = self.ref.metadata.get(MANIFEST_KEY)
        if not self.manifest or self.manifest.get("version") != 3:
            raise ValueError(f"{reference} was not released by this grader's `release`: release it again.")
        self.instructor = Path(instructor or reference.resolve().parents[1] / "instructor" / reference.name)
        self.tests = Path(tests or self.instructor.with_name(f"{self.instructor.stem}.tests.py"))
        auto = [e["label"] for e in self.manifest["exercises"] if e["auto_points"]]
        if auto and not (self.instructor.is_file() and self.tests.is_file()):
            raise ValueError(f"{self.instructor} or {self.tests} is missing: pass --instructor with the "
                             "instructor copy that `release` wrote (its tests file beside it).")
        self.sources = {k: v for k, v in read_tests(self.tests).items() if k in auto} if auto else {}
        if missing := sorted(set(auto) - set(self.sources)):
            raise ValueError(f"{self.tests} has no hidden test for {', '.join(missing)}: release the "
                             "notebook again.")
        if problem := sandbox and sandbox_problem(packages):
            raise ValueError(f"the sandbox cannot run: {problem}; or pass --no-sandbox to run submissions "
                             "without it (they can then read this user's files and use the network).")
        if seed is None and auto:  # the assignment's seed: kept in the instructor copy only
            kept = nbformat.read(str(self.instructor), as_version=4).metadata.get(MANIFEST_KEY, {})
            if (seed := kept.get("seed")) is None:
                raise ValueError(f"{self.instructor} holds no seed: pass the instructor copy `release` "
                                 "wrote, or --seed.")
        self.seed = int(seed or 0)
        self.timeout, self.sandbox, self.memory, self.packages = timeout, sandbox, memory, packages
        self.originals = {_gid(c): c.source for c in self.ref.cells if _gid(c)}
        self._specs, self._refs, self._lock = {}, {}, threading.RLock()

    def spec(self, seed, label):
        """The hidden test of ``label`` with its cases drawn for ``seed`` (drawn once)."""
        with self._lock:
            if (seed, label) not in self._specs:
                rng = seed_rng(seed, label)
                source, primary = self.sources[label], seed == self.seed
                self._specs[seed, label] = load_spec(label, source, rng, self.tests, primary)
            return self._specs[seed, label]

    def _rows(self, nb, restored) -> list[dict]:
        """The code cells to consider, checks left out: answer, given (locked) or added cells."""
        given = {e["grade_id"] for e in self.manifest["locked"] if not e["label"]}
        given |= {e["id"] for e in self.manifest["locked"] if not e["label"] and e["id"]}
        rows = []
        for i, cell in enumerate(nb.cells):
            gid = _gid(cell)
            if cell.cell_type != "code" or re.search(r"-check(-\d+)?$", gid):
                continue
            role = "given" if {gid, cell.get("id")} & given else "added"
            role = "answer" if re.search(r"-code(-\d+)?$", gid) else role
            code = _runnable(restored.get(i, cell.source))
            rows.append({"index": i + 1, "gid": gid, "role": role, "source": code})
        return rows

    def reference(self, seeds) -> None:
        """The instructor solution's values on every case of ``seeds`` (and its cost times), once."""
        import nbformat

        with self._lock:
            todo = [s for s in dict.fromkeys(seeds) if (s, "done") not in self._refs]
            if not todo or not self.sources:
                return
            nb = nbformat.read(str(self.instructor), as_version=4)
            for cell in nb.cells:  # the solution, without nbgrader's markers
                cell.source = re.sub(r"(?m)^### (BEGIN|END) SOLUTION\n?", "", cell.source)
            rows = self._rows(nb, {})
            kernel = Kernel(sandbox=False)
            try:
                self._run_cells(kernel, rows, self._plan(rows, todo[0]), strict=True)
                for label in self.sources:
                    cases = [c for s in todo for c in self.spec(s, label).cases]
                    values = self._call(kernel, cases, len(todo))
                    errors = [values] if isinstance(values, str) else [v.get("error") for v in values]
                    if any(errors):
                        why = next(e for e in errors if e)
                        raise ValueError(f"the instructor's solution of {label} fails its hidden test: {why}")
                    for s in todo:
                        n = len(self.spec(s, label).cases)
                        self._refs[s, label], values = [_decode(v["value"]) for v in values[:n]], values[n:]
                    if self.spec(self.seed, label).cost and (self.seed, "cost", label) not in self._refs:
                        spec = self.spec(self.seed, label)
                        self._refs[self.seed, "cost", label] = self._reference_cost(kernel, spec)
                self._refs.update({(s, "done"): True for s in todo})
            finally:
                kernel.close()

    def _reference_cost(self, kernel, spec):
        """The model solution's values on both draws of the cost inputs, and its better CPU times."""
        runs = [self._cost_runs(kernel, spec, draw) for draw in (0, 1)]
        if why := next((r for r in runs if isinstance(r, str)), None):
            raise ValueError(f"the instructor's solution of {spec.label} fails its cost test: {why}")
        return [r[0] for r in runs], [min(a, b) for a, b in zip(runs[0][1], runs[1][1], strict=True)]

    def _plan(self, rows, seed) -> list[dict]:
        answers = {k for k, r in enumerate(rows) if r["role"] == "answer"}
        names = set().union(*(self.spec(seed, lab).functions for lab in self.sources))
        return [{**rows[k], "source": src} for k, src in plan([r["source"] for r in rows], answers, names)]

    def _run_cells(self, kernel, rows, cells, strict=False) -> tuple[dict, list]:
        """Run the planned cells: ``({answer grade_id: error}, [notes])``."""
        errors, notes = {}, []
        for row in cells:
            status, error = kernel.run(row["source"], self.timeout)
            if status != "ok" and strict and row["role"] == "answer":
                raise ValueError(f"the instructor copy's cell {row['gid']} fails: {error}")
            if status != "ok" and row["role"] == "answer":
                errors[row["gid"]] = f"your answer cell: {error}"
            elif status != "ok":
                notes.append(f"cell {row['index']}: {status}: {error}")
        kernel.run(RUNNER, 60)
        return errors, notes

    def _call(self, kernel, cases, seeds=1):
        """The values of ``cases`` called in ``kernel`` (dicts with "value" or "error"), or why not."""
        tag = str(kernel.workdir / f"calls-{secrets.token_hex(8)}")
        Path(tag + ".in").write_bytes(pickle.dumps([(c["function"], c["args"], c["kwargs"]) for c in cases]))
        status, error = kernel.run(f"__sslteach_calls__({tag!r})", CALL_TIMEOUT * seeds)
        return self._reply(tag, status, error, len(cases))

    @staticmethod
    def _reply(tag, status, error, n):
        out = Path(tag + ".out")
        try:
            if status != "ok":
                return f"{status}: {error}" if status != "timeout" else f"timeout: {error}"
            if not out.is_file() or out.stat().st_size > _MAX_REPLY:
                return "the grader got no readable reply (your code replaced what the grader sends)"
            values = json.loads(out.read_text(encoding="utf-8"))
            if not isinstance(values, list) or len(values) != n or not all(type(v) is dict for v in values):
                return "the grader got no readable reply (your code replaced what the grader sends)"
            return values
        except (ValueError, RecursionError) as exc:
            return f"the returned value could not be read ({type(exc).__name__})"
        finally:
            for p in (Path(tag + ".in"), out):
                p.unlink(missing_ok=True)

    def _cost_runs(self, kernel, spec, draw):
        """``(values, seconds)`` of one draw of the cost test's inputs: CPU seconds per size."""
        c, values, seconds = spec.cost, [], []
        for n, args in zip(c["sizes"], c["inputs"][draw], strict=True):
            tag = str(kernel.workdir / f"cost-{secrets.token_hex(8)}")
            Path(tag + ".in").write_bytes(pickle.dumps([(c["function"], list(args), {})]))
            kernel.run(f"__sslteach_load__({tag!r})", 60)
            before = kernel.cpu_seconds()
            status, error = kernel.run("__sslteach_run__()", c.get("timeout", 30.0))
            seconds.append(kernel.cpu_seconds() - before)
            if status == "ok":
                status, error = kernel.run(f"__sslteach_save__({tag!r})", 60)
            got = self._reply(tag, status, error, 1)
            if isinstance(got, str) or "error" in got[0]:
                why = got if isinstance(got, str) else f"{c['function']} raised {got[0]['error']}"
                return f"n = {n}: {why}"
            values.append(_decode(got[0]["value"]))
        return values, seconds

    def grade(self, path, name=None, student=None) -> Report:
        """Grade one submission (named ``name``, of ``student``) with the assignment's seed."""
        return self.grade_seeds(path, [self.seed], name, student)[0]

    def grade_seeds(self, path, seeds, name=None, student=None) -> list[Report]:
        """Grade one submission on the inputs of several seeds (one kernel run): a report per seed;
        the cost test runs with the first seed only."""
        import nbformat

        path, seeds = Path(path), list(dict.fromkeys(int(s) for s in seeds))
        name, student = name or path.name, student or path.stem
        try:
            nb = nbformat.read(str(path), as_version=4)
        except Exception as exc:  # missing, a folder, not JSON, not a notebook
            why = f"the submission could not be read as a notebook: {type(exc).__name__}: {exc}"
            return [Report(name, student, [], [why], readable=False, seed=s) for s in seeds]
        self.reference(seeds)
        broken, problems, restored = integrity(nb, self.manifest, self.originals)
        rows = self._rows(nb, restored)
        verdicts = {label: [broken[label]] * len(seeds) if label in broken
                    else self._precheck(rows, label, len(seeds)) for label in self.sources}
        errors, todo = {}, [label for label, v in verdicts.items() if v is None]
        kernel = Kernel(sandbox=self.sandbox, memory=self.memory, packages=self.packages) if todo else None
        try:
            if kernel:
                errors, notes = self._run_cells(kernel, rows, self._plan(rows, seeds[0]))
                problems += notes
            verdicts.update({label: self._judge(kernel, rows, label, seeds) for label in todo})
        finally:
            if kernel:
                kernel.close()
        return [Report(name, student, self._results(nb, k, verdicts, errors), problems, seed=s)
                for k, s in enumerate(seeds)]

    def _precheck(self, rows, label, n) -> list[str] | None:
        """Why the exercise fails without running anything (its answer cells as handed out, or its
        source breaking a rule), ``n`` times; None when its functions must be called."""
        spec = self.spec(self.seed, label)
        mine = {k for k, r in enumerate(rows) if re.fullmatch(re.escape(label) + r"-code(-\d+)?", r["gid"])}
        sources = [r["source"] for r in rows]
        answer = [k for k in needed(sources, mine, spec.functions) if rows[k]["role"] != "given"]
        stubs = {k for k in mine if rows[k]["source"] == _runnable(self.originals.get(rows[k]["gid"], ""))}
        if set(answer) <= stubs:
            return ["unanswered: the answer cell is as it was handed out"] * n
        why = source_violation(spec, [sources[k] for k in answer], sources)
        return [why] * n if why else None

    def _judge(self, kernel, rows, label, seeds) -> list[str]:
        """Per seed, why the exercise fails ("" when it passes): the values, then the cost."""
        spec = self.spec(seeds[0], label)
        cases = [(s, c) for s in seeds for c in self.spec(s, label).cases]
        values = self._call(kernel, [c for _, c in cases], len(seeds))
        if isinstance(values, str):
            return [values] * len(seeds)
        wants = [w for s in seeds for w in self._refs[s, label]]
        out = {s: "" for s in seeds}
        for (s, case), got, want in zip(cases, values, wants, strict=True):
            if out[s]:
                continue
            what = case["name"] or case["function"]
            if "error" in got:
                out[s] = f"{what}: {case['function']} raised {got['error']}"
            elif msg := spec.judge(case, *_value(got), want):
                out[s] = f"{what}: {msg}"
        if spec.cost and not out[seeds[0]]:
            out[seeds[0]] = self._judge_cost(kernel, self.spec(self.seed, label))
        return [out[s] for s in seeds]

    def _judge_cost(self, kernel, spec) -> str:
        """Why the answer breaks the stated cost: its values at every size, then its CPU times, measured
        again on the second draw of inputs (the better time counts) when a failure is not clear-cut."""
        refs, ref_seconds = self._refs[self.seed, "cost", spec.label]
        times = None
        for draw in (0, 1):
            got = self._cost_runs(kernel, spec, draw)
            if isinstance(got, str):
                return f"cost test, {got}"
            for n, args, value, want in zip(spec.cost["sizes"], spec.cost["inputs"][draw], got[0], refs[draw],
                                            strict=True):
                case = {"function": spec.cost["function"], "args": list(args), "kwargs": {},
                        "name": f"n = {n}", "meta": None}
                if msg := spec.judge(case, value, want):
                    return f"cost test, n = {n}: {msg}"
            times = got[1] if times is None else [min(a, b) for a, b in zip(times, got[1], strict=True)]
            verdict = cost_verdict(spec.cost, times, ref_seconds)
            if not verdict or times[-1] > 3 * cost_limit(spec.cost, ref_seconds):
                return verdict
        return verdict

    def _results(self, nb, k, verdicts, errors) -> list[ExerciseResult]:
        """The rows of one report (seed number ``k``), in the manifest's order."""
        written = {_gid(c): c for c in nb.cells}
        out = []
        for ex in self.manifest["exercises"]:
            label = ex["label"]
            if ex["auto_points"]:
                why = verdicts.get(label, ["not graded"])[k]
                mine = "; ".join(v for g, v in sorted(errors.items())
                                 if re.fullmatch(re.escape(label) + r"-code(-\d+)?", g))
                status = "passed" if not why else next(
                    (w for w in ("unanswered", "timeout") if why.startswith(w)),
                    "tampered" if "locked cell" in why else "failed")
                message = "; ".join(m for m in (why.removeprefix("unanswered: "), mine if why else "") if m)
                points = ex["auto_points"] * (not why)
                out.append(ExerciseResult(label, "auto", status, points, ex["auto_points"], message))
            if ex["manual_points"]:
                cell = written.get(f"{label}-written")
                text = " ".join(cell.source.split()) if cell else None
                blank = text in ("", WRITTEN_STUB, "YOUR ANSWER HERE")
                status = "missing" if cell is None else "unanswered" if blank else "manual"
                message = {"missing": "the written answer cell was deleted", "manual": "graded by hand",
                           "unanswered": "the written answer is empty or the placeholder"}[status]
                out.append(ExerciseResult(label, "manual", status, None if status == "manual" else 0.0,
                                          ex["manual_points"], message))
        return out
