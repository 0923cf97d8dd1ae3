"""Student and instructor copies of a master notebook, and the hidden tests kept beside them.

``release`` writes, for each notebook with exercises, ``<out>/student/<name>.ipynb`` (solutions
replaced by stubs, statements and checks locked, outputs cleared), ``<out>/instructor/<name>.ipynb``
(the same cells with the solutions, inside nbgrader's ``### BEGIN SOLUTION`` markers) and
``<out>/instructor/<stem>.tests.py`` (its hidden tests). Both copies carry nbgrader cell
metadata (schema 3) and a manifest (``metadata["sslteach_assignment"]``): the exercises and
their points, the sha256 of every locked cell, and the assignment's seed.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import re
import secrets
from importlib import resources
from pathlib import Path

from .exercises import parse_exercises, source, split_statement
from .slicing import uses
from .specs import load_spec, read_tests, sections, seed_rng

#: Points of an exercise graded by its hidden test, and of a written answer (graded by hand).
POINTS = 1.0
#: Seconds a cell may run before it is interrupted (``grade --timeout``; nbgrader_config.py too).
DEFAULT_TIMEOUT = 300.0
MANIFEST_KEY = "sslteach_assignment"
CODE_STUB = 'raise NotImplementedError("write your solution in this cell")'
WRITTEN_STUB = "**Your answer.** Write your derivation or explanation here (Markdown and LaTeX)."
#: The Markdown cell put under the title of every copy: how the notebook is graded.
GRADING_RULES = """**How this notebook is graded.** Your instructor runs the cells your answers need in a
fresh kernel, without network access and with a time and a memory limit. For each exercise graded
automatically, the grader then calls the functions the exercise names on inputs that your
instructor's grading tests draw, and compares the values they return with the model solution's.
The check cells below the exercises are for your feedback; the grade comes from those calls.

- Leave the locked cells as they are (the statements and the check cells): an exercise whose
  locked cell was edited, deleted or duplicated scores 0. The chapter's own code runs as it was
  handed out.
- The comments at the top of an answer cell name what that cell must not use (the exercise asks
  you to write it yourself), under any name, and what it must call. The rule reads only the answer
  cells: to compare your answer with the library, do it in a cell of your own.
- Where an exercise states a cost ($O(n^2)$, $O(m\\log m)$, ...), your function is timed at two or
  three sizes. It fails when it is much slower than the model solution and its time grows
  faster than the stated cost.
- Your written answers, and how your code reaches its result, are graded by hand."""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _nbgrader(grade_id, *, solution=False, grade=False, locked=False) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": False}
    return {**meta, "points": POINTS} if grade else meta


def _cell(kind: str, text: str, cell_id: str, nbgrader: dict | None = None) -> dict:
    meta = {"nbgrader": nbgrader} if nbgrader else {}
    cell = {"cell_type": kind, "id": cell_id, "metadata": meta, "source": text}
    return {**cell, "outputs": [], "execution_count": None} if kind == "code" else cell


def _rules(forbid=(), require=()) -> list[str]:
    """The comment lines that tell a student an exercise's ``forbid`` and ``require`` rules (private
    names, which a student does not reach for, left out).

    >>> for line in _rules(["sslteach.relaxation", "sslteach.kernels._center", ".marginals"],
    ...                    ["scipy.optimize.linprog"]):
    ...     print(line)
    # Not allowed in this cell: sslteach.relaxation, the attribute .marginals
    # This cell must call: scipy.optimize.linprog
    """
    shown = [f"the attribute {r}" if r.startswith(".") else r for r in forbid
             if r.startswith(".") or not any(part.startswith("_") for part in r.split("."))]
    return ((["# Not allowed in this cell: " + ", ".join(shown)] if shown else [])
            + (["# This cell must call: " + ", ".join(require)] if require else []))


def _hint(label: str, solution: str, checks: list[str], rules=()) -> str:
    """The comments above an answer: the exercise, its rules, and the names of the solution its
    check uses."""
    lines = [f"# Exercise {label}: write your code in this cell, replacing the `raise` line.", *rules]
    try:
        body = ast.parse(solution).body
    except SyntaxError:
        body = []
    used, names = set().union(*map(uses, checks)), {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names[node.name] = f"{node.name}({ast.unparse(node.args)})"
        elif isinstance(node, ast.ClassDef):
            names[node.name] = node.name
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                found = [n.id for n in ast.walk(t) if isinstance(n, ast.Name)]
                names.update({n: n for n in found if n not in names})
    needed = [sig for name, sig in names.items() if name in used]
    return "\n".join(lines + (["# The check cell below uses: " + ", ".join(needed)] if needed else []))


def _copies(nb, exercises, rules=None) -> tuple[list, list]:
    """The student's and the instructor's cells, in the master's order; ``rules`` is
    ``{label: comment lines}`` for the answer cells."""
    first = {e.solution_cells[0]: e for e in exercises if e.solution_cells}
    in_solution = {i for e in exercises for i in e.solution_cells}
    statement = {e.statement: e for e in exercises}
    check = {i: (e, k) for e in exercises for k, i in enumerate(e.checks)}
    student, instructor, given = [], [], 0
    for i, cell in enumerate(nb["cells"]):
        pairs = []
        if i in first:
            pairs = _answer_cells(nb, first[i], (rules or {}).get(first[i].label, ()))
        elif i in statement:
            pairs = _statement_cells(statement[i], source(cell))
        elif i not in in_solution:
            out = copy.deepcopy(cell)
            if out["cell_type"] == "code":
                out.update(outputs=[], execution_count=None)
            out.get("metadata", {}).pop("execution", None)
            if i in check:
                e, k = check[i]
                out["id"] = f"{e.label}-check" + (f"-{k + 1}" if k else "")
                out["metadata"]["nbgrader"] = _nbgrader(out["id"], grade=True, locked=True)
            elif out["cell_type"] == "code":
                given += 1
                out.setdefault("id", f"given-{given}")
                out["metadata"]["nbgrader"] = _nbgrader(f"given-{given}", locked=True)
            pairs = [(out, out)]
        for s, t in pairs:
            student.append(s)
            instructor.append(copy.deepcopy(t))
    return student, instructor


def _answer_cells(nb, e, rules=()) -> list[tuple[dict, dict]]:
    """Exercise ``e``'s answer cells: a written answer, then one per solution code cell."""
    checks = [source(nb["cells"][j]) for j in e.checks]
    out = []
    if e.has_written:
        meta = _nbgrader(f"{e.label}-written", solution=True, grade=True)
        out.append((_cell("markdown", WRITTEN_STUB, f"{e.label}-written", meta),
                    _cell("markdown", e.written.strip(), f"{e.label}-written", meta)))
    for k, j in enumerate(e.code_cells):
        gid, sol = f"{e.label}-code" + (f"-{k + 1}" if k else ""), source(nb["cells"][j])
        hint, meta = _hint(e.label, sol, checks, rules), _nbgrader(gid, solution=True)
        out.append((_cell("code", f"{hint}\n{CODE_STUB}", gid, meta),
                    _cell("code", f"{hint}\n### BEGIN SOLUTION\n{sol}\n### END SOLUTION", gid, meta)))
    return out


def _statement_cells(e, text) -> list[tuple[dict, dict]]:
    """The locked statement of ``e``, with the text sharing its cell before and after."""
    before, statement, after = split_statement(text)
    cells = [_cell("markdown", before, f"{e.label}-before")] if before else []
    cells.append(_cell("markdown", statement, e.label, _nbgrader(e.label, locked=True)))
    if not e.solution_cells:  # an open exploration: a written answer
        meta = _nbgrader(f"{e.label}-written", solution=True, grade=True)
        cells.append(_cell("markdown", WRITTEN_STUB, f"{e.label}-written", meta))
    cells += [_cell("markdown", after, f"{e.label}-after")] if after else []
    return [(c, c) for c in cells]


def _render(cells):
    """The copies' MyST made readable in Jupyter (sslteach's converter, when installed)."""
    try:
        from sslteach.teach.myst import Numbers, book_numbers, convert_notebook
    except ImportError:
        return cells
    try:
        return convert_notebook({"cells": cells}, numbers=book_numbers())["cells"]
    except (OSError, ValueError):
        return convert_notebook({"cells": cells}, numbers=Numbers(), docname="")["cells"]


def _locked(cells) -> list[dict]:
    out = []
    for cell in cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("locked"):
            m = re.fullmatch(r"(ch\d+-ex-[A-Za-z0-9-]+?)(-check(-\d+)?)?", meta["grade_id"])
            out.append({"id": cell.get("id"), "grade_id": meta["grade_id"], "label": m and m.group(1),
                        "sha256": _sha(source(cell))})
    return out


def release(nb, *, name="notebook", tests=None, seed=0) -> tuple[dict, dict]:
    """``(student, instructor)`` notebooks from a master notebook; ``tests`` is ``{label: source}``
    of its hidden tests (checked: every exercise with a check cell has one, and its statement
    names the functions it calls); ``ValueError`` says what to fix.

    >>> def cell(kind, source, *tags):
    ...     return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": source}
    >>> nb = {"cells": [
    ...     cell("markdown", "```{exercise}\\n:label: ch9-ex-demo\\nWrite `two()`. Why is it even?\\n```"),
    ...     cell("markdown", "```{solution-start} ch9-ex-demo\\n:class: dropdown\\n```\\nIt is 2."),
    ...     cell("code", "def two():\\n    return 2", "solution"),
    ...     cell("markdown", "```{solution-end}\\n```"),
    ...     cell("code", 'assert two() == 2, "1 + 1 is 2"', "check")]}
    >>> tests = {"ch9-ex-demo": "def cases(rng):\\n    return [Case('two')]"}
    >>> student, instructor = release(nb, name="demo.ipynb", tests=tests)
    >>> [c["metadata"]["nbgrader"]["grade_id"] for c in student["cells"] if c["metadata"].get("nbgrader")]
    ['ch9-ex-demo', 'ch9-ex-demo-written', 'ch9-ex-demo-code', 'ch9-ex-demo-check']
    >>> print(student["cells"][3]["source"])
    # Exercise ch9-ex-demo: write your code in this cell, replacing the `raise` line.
    # The check cell below uses: two()
    raise NotImplementedError("write your solution in this cell")
    """
    exercises, tests = parse_exercises(nb), dict(tests or {})
    if not exercises:
        raise ValueError(f"{name} has no exercises in the book's format "
                         "(```{exercise} with :label: chN-ex-...).")
    labels = {e.label for e in exercises}
    if set(tests) - labels:
        raise ValueError(f"{name}: the tests have sections for {', '.join(sorted(set(tests) - labels))}, "
                         "which the notebook has no exercise for: fix the label after '# %%'.")
    entries = [_entry(nb, e, tests.get(e.label), name) for e in exercises]
    student, instructor = _copies(nb, exercises, {e["label"]: e.pop("rules") for e in entries})
    titled = student and student[0]["cell_type"] == "markdown" and source(student[0]).startswith("# ")
    for cells in (student, instructor):
        cells.insert(1 if titled else 0, _cell("markdown", GRADING_RULES, "grading-rules"))
    student, instructor = _render(student), _render(instructor)
    manifest = {"version": 3, "source": name, "exercises": entries, "locked": _locked(student)}
    seeds = {"student": {}, "instructor": {"seed": int(seed)}}  # the seed stays with the instructor
    return tuple(
        {"cells": cells, "nbformat": 4, "nbformat_minor": max(5, nb.get("nbformat_minor", 5)),
         "metadata": {**copy.deepcopy(nb.get("metadata", {})),
                      MANIFEST_KEY: {**manifest, **seeds[role], "role": role}}}
        for role, cells in (("student", student), ("instructor", instructor)))


def _entry(nb, e, test, name) -> dict:
    """Exercise ``e``'s manifest entry; its hidden test loaded once to check it."""
    if e.checks and test is None:
        raise ValueError(f"{name}: {e.label} has a check cell but no hidden test: add a section "
                         f"'# %% {e.label}' to the tests file (--tests), as the authoring guide shows.")
    spec = load_spec(e.label, test, seed_rng(0, e.label)) if test else None
    functions = spec.functions if spec else []
    statement = split_statement(source(nb["cells"][e.statement]))[1]
    for fn in functions:
        if not re.search(r"`" + re.escape(fn) + r"[`(.]", statement):
            raise ValueError(f"{name}: the statement of {e.label} does not name `{fn}`, which its hidden "
                             "test calls: name it in the statement (as `name(args)`).")
    return {"label": e.label, "auto_points": POINTS if test else 0.0,
            "manual_points": POINTS if e.has_written else 0.0, "functions": functions,
            "rules": _rules(spec.forbid, spec.require) if spec else []}


def book_tests(stem: str) -> Path | None:
    """The hidden tests of one of the book's notebooks (``grader/hidden/<stem>.py``), if any."""
    path = resources.files("sslteach_grader.hidden") / f"{stem}.py"
    return Path(str(path)) if path.is_file() else None


def _read(path, given, tests) -> tuple | None:
    """``(notebook, its tests {label: source}, the tests file)`` of a master notebook to release, or
    None when it has no exercises; ``ValueError`` when it or its tests cannot be used."""
    if not path.is_file():
        raise ValueError(f"{path} does not exist: pass a notebook such as notebooks/00_foundations.ipynb.")
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path} is not a notebook (JSON): {exc}") from exc
    exercises = parse_exercises(nb)
    if not exercises:
        return None
    files = {given[e.label] for e in exercises if e.label in given}
    files = files if tests else {book_tests(path.stem)} - {None}
    if len(files) > 1:
        raise ValueError(f"{path.name}: its grading tests must be in one file, not {sorted(map(str, files))}")
    file = next(iter(files), None)
    labels = {e.label for e in exercises}
    return nb, {k: v for k, v in read_tests(file).items() if k in labels or not tests} if file else {}, file


def release_notebooks(paths, out, *, tests=(), seed=None, force=False) -> tuple[list, list]:
    """Release every notebook of ``paths`` into ``out``; ``(written, skipped)``, where ``written``
    lists ``(student, instructor, tests)`` paths and ``skipped`` the notebooks without exercises.

    Every input is checked before anything is written: the notebooks and their format, the
    grading tests (``tests``: files of sections; by default the book's own for each notebook), and
    the outputs, which must not exist unless ``force``. ``seed`` (default: a new one per notebook)
    draws the tests' inputs when grading.
    """
    given, out = {}, Path(out)
    for f in tests:
        for label in read_tests(f):
            if label in given:
                raise ValueError(f"{label} has a section in both {given[label]} and {f}.")
            given[label] = Path(f)
    read = {Path(p): _read(Path(p), given, tests) for p in paths}
    skipped, todo = [p for p, r in read.items() if r is None], {p: r for p, r in read.items() if r}
    if not todo:
        raise ValueError("none of the notebooks has exercises: " + ", ".join(p.name for p in skipped))
    if extra := set(given) - {lab for _, src, _ in todo.values() for lab in src}:
        raise ValueError(f"the tests have sections for {', '.join(sorted(extra))}, which no notebook has.")
    targets = [(out / "student" / p.name, out / "instructor" / p.name,
                out / "instructor" / f"{p.stem}.tests.py") for p in todo]
    if (existing := [str(t) for trio in targets for t in trio if t.exists()]) and not force:
        raise ValueError(f"{existing[0]} (and {len(existing) - 1} more) exist: pass --force to overwrite "
                         "them, or choose another --out.")
    copies = [release(nb, name=p.name, tests=src, seed=secrets.randbelow(2**31) if seed is None else seed)
              for p, (nb, src, _) in todo.items()]
    for (_, src, file), (student, instructor), trio in zip(todo.values(), copies, targets, strict=True):
        for target, content in ((trio[0], student), (trio[1], instructor)):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        preamble, secs = sections(file) if file else ("", {})
        if text := preamble + "".join(body for lab, (_, body) in secs.items() if lab in src):
            trio[2].write_text(text, encoding="utf-8")
    return targets, skipped


def _labels(nb) -> list[str]:
    return [e["label"] for e in nb["metadata"][MANIFEST_KEY]["exercises"]]
