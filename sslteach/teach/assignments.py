"""Course assignments from the chapters' exercises: release student notebooks and grade submissions.

Every chapter writes its exercises in one fixed format (``STYLE.md`` at the repository root)::

    ```{exercise}                      markdown cell: the statement, label ch<N>-ex-<slug>
    ```{solution-start} <label>        markdown cell: start of the gated solution (+ written solution)
    ... code cells tagged ``solution`` and more markdown ...
    ```{solution-end}                  markdown cell
    code cell tagged ``check``         plain asserts that a correct answer passes

Because the format is fixed, assignments are produced mechanically from the one master
notebook, never by hand:

``python -m sslteach.assignments release notebooks/01_spectral_clustering.ipynb --out DIR``
    writes ``DIR/student/<name>.ipynb`` (solutions removed, statements and checks kept,
    outputs cleared, setup cell kept) and ``DIR/instructor/<name>.ipynb`` (the same cells
    with the solutions filled in). Both carry nbgrader cell metadata (schema 3).

``python -m sslteach.assignments grade SUBMISSION.ipynb [...] [--csv F] [--json F]``
    executes each submission in a fresh kernel with a per-cell timeout and reports, per
    exercise, passed or failed with the assertion message and the points; an untouched
    written answer scores 0. Submissions are named by their paths relative to the folder
    holding them all (``alice/hw1/<notebook>`` in nbgrader's ``submitted/`` layout).

The mapping to nbgrader (cell metadata schema 3; also in ``book/instructors.md``):

- exercise statement: ``grade_id = <label>``, locked, neither solution nor graded;
- written answer (Markdown): ``<label>-written``, solution and graded by hand
  (``WRITTEN_POINTS``; 0 when left as handed out, in both graders);
- code answer (stub or solution): ``<label>-code``, solution, not graded itself;
- check cell (asserts): ``<label>-check``, graded automatically and locked
  (``CHECK_POINTS``).

In the instructor copy the code answers are wrapped in ``### BEGIN SOLUTION`` /
``### END SOLUTION`` under the same hint comments as the student's stub, so
``nbgrader generate_assignment`` produces the student version itself if an instructor
prefers nbgrader's own tooling; with the repository's ``nbgrader_config.py`` (which sets
nbgrader's stubs to :data:`CODE_STUB` and :data:`WRITTEN_STUB`, and a cell timeout of
:data:`DEFAULT_TIMEOUT`) every cell's source is the same as in our student copy.
"""

from __future__ import annotations

import argparse
import ast
import copy
import csv
import hashlib
import json
import math
import os
import re
import secrets
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .slicing import parse

__all__ = [
    "CHECK_POINTS",
    "WRITTEN_POINTS",
    "CODE_STUB",
    "WRITTEN_STUB",
    "GRADING_RULES",
    "DEFAULT_TIMEOUT",
    "Exercise",
    "ExerciseResult",
    "GradeReport",
    "parse_exercises",
    "release",
    "release_notebook",
    "grade_notebook",
    "submission_names",
    "main",
]

#: float: Points of an exercise's check cell (autograded, all or nothing).
#:
#: :func:`release` writes them into each check cell's nbgrader metadata (``points``) and
#: into the manifest, where an exercise's ``auto_points`` is ``CHECK_POINTS`` times its
#: number of check cells; :func:`grade_notebook` awards all of them when every check cell
#: of the exercise passes, else 0. See :doc:`/book/instructors` (Grading).
CHECK_POINTS = 1.0

#: float: Points of a written (markdown) answer, graded by hand.
#:
#: :func:`release` gives every exercise with a written part (or an open exploration) one
#: answer cell worth this many points (nbgrader ``points``, manifest ``manual_points``);
#: :func:`grade_notebook` reports it as "manual" with no points awarded. See
#: :doc:`/book/instructors` (Grading).
WRITTEN_POINTS = 1.0

#: float: Seconds a submission's cell may run before it is interrupted.
#:
#: The default of :func:`grade_notebook` and of ``grade --timeout``, and the value of
#: ``Execute.timeout`` in the repository's ``nbgrader_config.py`` (nbgrader's own default,
#: 30 s, interrupts cells of chapters 2 to 4). The slowest chapter cells take about 60 s
#: on a loaded 2-core machine with one BLAS thread per kernel; this is five times that.
#: The measurements are in :doc:`/book/instructors` (Grading).
DEFAULT_TIMEOUT = 300.0

#: int: Bytes of address space a submission's kernel may use (``grade --memory``, in GiB).
DEFAULT_MEMORY = 4 << 30

MANIFEST_KEY = "sslteach_assignment"
NBGRADER_SCHEMA = 3

_EXERCISE_RE = re.compile(r"```\{exercise\}[^\n]*\n(?::[^\n]*\n)*?:label:\s*(ch\d+-ex-[A-Za-z0-9-]+)")
_SOLUTION_START_RE = re.compile(r"^\s*```\{solution-start\}\s*(\S+)\s*\n((?::[^\n]*\n)*)```[ \t]*\n?", re.S)
_SOLUTION_END_RE = re.compile(r"^\s*```\{solution-end\}\s*\n?```")


def _src(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


@dataclass
class Exercise:
    """One exercise of a master notebook, located by cell indices.

    :func:`parse_exercises` returns one per ``{exercise}`` directive; :func:`release` turns
    it into a locked statement cell, a written-answer cell (when ``has_written``), one
    code-answer cell per solution code cell and the locked check cells. All indices are
    0-based positions in the notebook's ``cells`` list. The format is described in
    :doc:`/book/instructors` (Exercise format).

    Parameters
    ----------
    label : str
        The exercise's label, ``ch<N>-ex-<slug>``.
    statement : int
        The markdown cell holding the ``{exercise}`` directive.
    solution_cells : list of int, default []
        Every cell from the ``solution-start`` cell to the ``solution-end`` cell, both
        included; empty when the exercise has no solution block (an open exploration).
    code_cells : list of int, default []
        The solution's code cells (tag ``solution``), a subset of ``solution_cells``.
    written : str, default ""
        The written (markdown) part of the solution: the text after the
        ``solution-start`` directive and the markdown cells of the block.
    checks : list of int, default []
        The code cells tagged ``check`` that follow the exercise (autograded).

    See Also
    --------
    parse_exercises : Builds the list of exercises of a notebook.

    Notes
    -----
    The fields are stored as attributes of the same names. Memory: a few integers per
    cell of the exercise plus the written text.

    Examples
    --------
    >>> from sslteach.assignments import Exercise
    >>> ex = Exercise("ch9-ex-demo", statement=0, solution_cells=[1, 2, 3], code_cells=[2], checks=[4],
    ...               asks=False)
    >>> ex.autograded, ex.has_written  # a check cell; code, and a statement that asks no question
    (True, False)
    >>> Exercise("ch9-ex-open", statement=5).has_written  # an open exploration
    True
    """

    label: str
    statement: int
    solution_cells: list[int] = field(default_factory=list)  # all cells from solution-start to -end
    code_cells: list[int] = field(default_factory=list)  # solution code cells (tag ``solution``)
    written: str = ""  # the written (markdown) part of the solution
    checks: list[int] = field(default_factory=list)  # check cells after the solution
    hidden: list[int] = field(default_factory=list)  # hidden-test cells (grader only)
    asks: bool = True  # the statement asks a question (a written answer is expected)

    @property
    def autograded(self) -> bool:
        """bool: True when the exercise has at least one check cell (graded automatically)."""
        return bool(self.checks)

    @property
    def has_written(self) -> bool:
        """bool: True when the exercise gets a written-answer cell graded by hand.

        That is when it has no code cell at all (a derivation, or an open exploration),
        or when its statement asks a question or for a derivation (:func:`asks_question`).
        """
        return not self.code_cells or self.asks


def parse_exercises(nb) -> list[Exercise]:
    r"""Locate every exercise, its solution cells and its check cells in a master notebook.

    Raises ``ValueError`` (with the cell number) when the notebook breaks the format: a
    solution without an exercise, a ``solution-start`` whose label is not the current
    exercise, an untagged code cell inside a solution (it would leak into the release), a
    ``solution`` tag outside a solution block, an unclosed solution, or a duplicated label.

    One pass over the cells: a markdown cell with an ``{exercise}`` directive and a
    ``:label: ch<N>-ex-<slug>`` option starts an exercise; a ``{solution-start} <label>``
    cell opens its solution block, which every cell joins until the ``{solution-end}``
    cell; code cells tagged ``check`` after it are its checks. The format is the one of
    the book's chapters, described in :doc:`/book/instructors` (Exercise format).

    Parameters
    ----------
    nb : dict or nbformat.NotebookNode
        A notebook in nbformat 4 form (``nb["cells"]``, each cell with ``cell_type``,
        ``source`` as a string or a list of lines, and ``metadata.tags``).

    Returns
    -------
    exercises : list of Exercise
        One :class:`Exercise` per exercise, in notebook order (empty when there is none).

    Raises
    ------
    ValueError
        When the notebook breaks the format: a solution without an exercise or for
        another exercise than the current one, a second solution block, an untagged code
        cell or a check cell inside a solution, a ``solution`` tag outside a solution
        block, a check cell before any exercise, an unclosed solution, or a duplicated
        label. The message names the cell (1-based) and what to do.

    Notes
    -----
    Cost: time linear in the total length of the cells' sources (one regular-expression
    search per markdown cell), memory :math:`O(\text{number of cells})` besides the
    written texts.

    Examples
    --------
    A notebook as a plain dict (``nbformat.v4.new_notebook`` builds the same):

    >>> from sslteach.assignments import parse_exercises
    >>> def cell(kind, source, *tags):
    ...     return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": source}
    >>> nb = {"cells": [
    ...     cell("markdown", "```{exercise}\n:label: ch9-ex-demo\nCompute 1 + 1.\n```"),
    ...     cell("markdown", "```{solution-start} ch9-ex-demo\n:class: dropdown\n```\nIt is 2."),
    ...     cell("code", "answer = 1 + 1", "solution"),
    ...     cell("markdown", "```{solution-end}\n```"),
    ...     cell("code", 'assert answer == 2, "1 + 1 is 2"', "check"),
    ... ]}
    >>> [ex] = parse_exercises(nb)
    >>> ex.label, ex.statement, ex.solution_cells, ex.code_cells, ex.checks
    ('ch9-ex-demo', 0, [1, 2, 3], [2], [4])
    >>> ex.written
    'It is 2.'

    Without its ``solution-start`` cell, the solution code would leak into the student copy:

    >>> del nb["cells"][1]
    >>> parse_exercises(nb)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: cell 2 of the notebook is tagged 'solution' but is not between ...
    """
    exercises: list[Exercise] = []
    current: Exercise | None = None
    in_solution = False
    for i, cell in enumerate(nb["cells"]):
        src, tags, kind = _src(cell), _tags(cell), cell["cell_type"]
        where = f"cell {i + 1} of the notebook"
        if in_solution:
            current.solution_cells.append(i)
            if kind == "markdown" and _SOLUTION_END_RE.match(src):
                in_solution = False
            elif kind == "code":
                if "check" in tags:
                    raise ValueError(
                        f"{where} is a check cell inside the solution of {current.label}; close the "
                        "solution with a ```{solution-end} cell before its check."
                    )
                if "solution" not in tags:
                    raise ValueError(
                        f"{where} is a code cell inside the solution of {current.label} without the tag "
                        "'solution'; tag it so the release can remove it."
                    )
                current.code_cells.append(i)
            else:
                current.written += "\n\n" + src
            continue
        if kind == "markdown":
            m = _EXERCISE_RE.search(src)
            if m:
                if any(e.label == m.group(1) for e in exercises):
                    raise ValueError(
                        f"{where}: exercise label {m.group(1)} is used twice; labels must be unique."
                    )
                current = Exercise(
                    label=m.group(1), statement=i, asks=asks_question(_split_statement(src)[1])
                )
                exercises.append(current)
                continue
            m = _SOLUTION_START_RE.match(src)
            if m:
                if current is None or m.group(1) != current.label:
                    expected = current.label if current else "none (no exercise above it)"
                    raise ValueError(
                        f"{where}: solution-start for {m.group(1)!r} but the current exercise is {expected}; "
                        "each solution must follow its exercise."
                    )
                if current.solution_cells:
                    raise ValueError(f"{where}: exercise {current.label} has a second solution block.")
                in_solution = True
                current.solution_cells.append(i)
                current.written = src[m.end() :]
                continue
        if "hidden-test" in tags:
            if current is None:
                raise ValueError(f"{where} is tagged 'hidden-test' but no exercise precedes it.")
            if current.hidden:
                raise ValueError(f"{where}: exercise {current.label} has a second hidden-test cell.")
            current.hidden.append(i)
            continue
        if kind == "code":
            if "solution" in tags:
                raise ValueError(
                    f"{where} is tagged 'solution' but is not between solution-start and solution-end."
                )
            if "check" in tags:
                if current is None:
                    raise ValueError(f"{where} is tagged 'check' but no exercise precedes it.")
                current.checks.append(i)
                continue
    if in_solution:
        raise ValueError(
            f"the solution of {current.label} has no solution-end; close it with ```{{solution-end}}."
        )
    return exercises


_STATEMENT_RE = re.compile(r"```\{exercise\}.*?\n```[ \t]*(?:\n|$)", re.S)
_ASKS_RE = re.compile(
    r"\?|\b(show|prove|derive|explain|express|argue|discuss|interpret|justify|say|find|propose|design|"
    r"give|conclude|measure|compare)\b|\bwrite\b(?!\s+CODE)",
    re.I,
)


def asks_question(statement: str) -> bool:
    """True when an exercise statement asks a question or for a written argument.

    A question mark, or a verb that asks for one (show, prove, derive, explain, find, ...),
    outside inline code and math. An exercise whose statement only asks for a function
    (``Implement `cut_sweep(K, v)` ...``) gets no written-answer cell.

    >>> asks_question("Implement `cut_sweep(K, v)` in $O(m^2)$.")
    False
    >>> asks_question("Show that $L$ is PSD, then write `f(x)`.")
    True
    >>> asks_question("Write $JMJ$ entrywise, and implement `double_center(M)`.")  # a derivation
    True
    """
    text = "\n".join(ln for ln in statement.splitlines() if not ln.lstrip().startswith((":", "```")))
    text = re.sub(r"`[^`\n]*`", " CODE ", text)  # a function's name: "write `f(x)`" asks for code
    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " ", text, flags=re.S)
    return bool(_ASKS_RE.search(text))


def _split_statement(src: str) -> tuple[str, str, str]:
    """Split a markdown cell into (text before, the exercise directive, text after)."""
    m = _STATEMENT_RE.search(src)
    return src[: m.start()].strip(), src[m.start() : m.end()].rstrip(), src[m.end() :].strip()


def _defined_names(code: str) -> dict[str, str]:
    """Top-level names a solution cell defines, with a call signature for functions."""
    try:
        tree = parse(code)
    except SyntaxError:
        return {}
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            sig = f"({ast.unparse(node.args)})" if not isinstance(node, ast.ClassDef) else ""
            names[node.name] = node.name + sig
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        names.setdefault(n.id, n.id)
    return names


def _used_names(code: str) -> set[str]:
    try:
        return {n.id for n in ast.walk(parse(code)) if isinstance(n, ast.Name)}
    except SyntaxError:
        return set()


def _hint(label: str, solution: str, checks: list[str]) -> str:
    """The comment lines above an answer: the exercise and what its check cell uses."""
    used = set().union(*[_used_names(c) for c in checks]) if checks else set()
    needed = [sig for name, sig in _defined_names(solution).items() if name in used]
    lines = [f"# Exercise {label}: write your code in this cell, replacing the `raise` line."]
    if needed:
        lines.append("# The check cell below uses: " + ", ".join(needed))
    return "\n".join(lines)


#: str: The line that stands for a code answer in the student copy.
#:
#: :func:`release` writes it under the hint comments of every code-answer cell of the
#: student copy, where the instructor copy has the solution between ``### BEGIN SOLUTION``
#: and ``### END SOLUTION``. The repository's ``nbgrader_config.py`` gives nbgrader the same
#: line (``ClearSolutions.code_stub``), so ``nbgrader generate_assignment`` writes the
#: student copy's cells exactly. See :doc:`/book/instructors` (Using nbgrader instead).
CODE_STUB = 'raise NotImplementedError("write your solution in this cell")'

#: str: The text of a written-answer cell in the student copy.
#:
#: The repository's ``nbgrader_config.py`` gives nbgrader the same text
#: (``ClearSolutions.text_stub``). :func:`grade_notebook` scores a written answer that is
#: still this text (or nbgrader's default ``YOUR ANSWER HERE``, or empty) 0, as nbgrader
#: does, instead of leaving it to be graded by hand.
WRITTEN_STUB = "**Your answer.** Write your derivation or explanation here (Markdown and LaTeX)."

# What counts as an untouched written answer: ours, ours before the label was dropped
# (copies released by earlier versions), and nbgrader's default text stub.
_PLACEHOLDERS = (WRITTEN_STUB, "YOUR ANSWER HERE")
_OLD_PLACEHOLDER_RE = re.compile(
    r"\*\*Your answer \(ch\d+-ex-[A-Za-z0-9-]+\)\.\*\* Write your derivation or explanation here "
    r"\(Markdown and LaTeX\)\."
)


#: str: The Markdown cell :func:`release` puts after the title of a copy whose exercises have hidden
#: tests: what the grader does and the rules it enforces (:doc:`/book/instructors`, Grading),
#: so that no rule costs a student points unannounced. It is not locked.
#:
#: :meta hide-value:
GRADING_RULES = """**How this notebook is graded.** When your instructor grades it with sslteach's `grade`
command, your notebook is run once (the cells your answers need) in a fresh kernel, with no network
and with a time and a memory limit. The grader then calls the functions each exercise names on
inputs of its own, most drawn when it grades, and compares what they return with the model
solution's values. The check cells below the exercises are there for your feedback; the grade comes
from these hidden tests.

- Leave the locked cells as they are (the statements and the check cells): an exercise whose
  locked cell was edited, deleted or duplicated scores 0. The code given to you is run as it was
  handed out, whatever you change in it.
- Where an exercise says not to use a function, the grader refuses it however it is reached: under
  another name, as a copy of its code, or by reading its source.
- Where an exercise states a cost ($O(n^2)$, $O(m\\log m)$, ...), the grader times your function at
  three sizes and compares it with the model solution.
- Your code may not build code objects, use `ctypes` or list the garbage collector's objects. While
  your function is graded, its own code may not read a clock or a CPU timer or look into the grader
  (frames, the profiler, audit hooks); and where an exercise forbids or requires a function or
  states a cost, no thread or process may run beside the call (the grader watches only the thread
  it calls in)."""


def _untouched(source: str) -> bool:
    """True when a written answer is empty or still a placeholder (whitespace ignored)."""
    text = " ".join(source.split())
    return not text or text in _PLACEHOLDERS or bool(_OLD_PLACEHOLDER_RE.fullmatch(text))


def _nbgrader(grade_id, *, solution=False, grade=False, locked=False, points=None) -> dict:
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": NBGRADER_SCHEMA,
        "solution": solution,
        "task": False,
    }
    if grade:
        meta["points"] = points
    return meta


def _clean(cell):
    cell = copy.deepcopy(cell)
    if cell["cell_type"] == "code":
        cell["outputs"] = []
        cell["execution_count"] = None
    cell.get("metadata", {}).pop("execution", None)
    return cell


def _new_cell(kind: str, source: str, cell_id: str, nbgrader: dict, tags=()) -> dict:
    cell = {
        "cell_type": kind,
        "id": cell_id,
        "metadata": {"nbgrader": nbgrader} if nbgrader else {},
        "source": source,
    }
    if tags:
        cell["metadata"]["tags"] = list(tags)
    if kind == "code":
        cell["outputs"], cell["execution_count"] = [], None
    return cell


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def release(nb, *, name: str = "notebook") -> tuple[dict, dict]:
    r"""Return ``(student, instructor)`` notebooks built from a master notebook (a dict).

    Both have the same cells in the same order; they differ only in the answer cells
    (stubs for the student, solutions for the instructor). The book-only solution
    directives (``solution-start`` / ``solution-end``) are dropped from both.

    Per exercise (see :func:`parse_exercises`): the statement cell is kept and locked
    (``grade_id = <label>``; text sharing its cell before or after the directive goes to
    separate plain cells); the solution block becomes a written-answer cell
    ``<label>-written`` (when the exercise has written text or no code; an open
    exploration gets one too) and one code-answer cell per solution code cell,
    ``<label>-code``, ``<label>-code-2``, ...: both copies start it with the same comment
    lines (the exercise, and the names and signatures the check cell uses), followed in the
    student copy by :data:`CODE_STUB` (which raises ``NotImplementedError``) and in the
    instructor copy by the solution between ``### BEGIN SOLUTION`` and ``### END SOLUTION``,
    so that ``nbgrader generate_assignment`` keeps the comments; a written-answer cell
    holds :data:`WRITTEN_STUB` in the student copy; the check cells are kept
    verbatim and locked (``<label>-check``, ``<label>-check-2``, ...). Every other cell is
    kept with its outputs cleared. Where the exercises have hidden tests, both copies get the
    Markdown cell :data:`GRADING_RULES` after the title. Both notebooks carry nbgrader cell
    metadata (schema 3) and, under ``metadata["sslteach_assignment"]``, a manifest with each exercise's check
    sources, their sha256 and its points,

    .. math:: \mathtt{auto\_points} = \mathtt{CHECK\_POINTS}\times(\text{number of check cells}),
       \qquad \mathtt{manual\_points} = \mathtt{WRITTEN\_POINTS}\ \text{or}\ 0,

    which :func:`grade_notebook` grades against. How to hand them out is described in
    :doc:`/book/instructors` (Releasing an assignment).

    Parameters
    ----------
    nb : dict or nbformat.NotebookNode
        The master notebook, nbformat 4; it is not modified.
    name : str, default "notebook"
        The notebook's name, recorded in the manifest (``source``) and used in messages.

    Returns
    -------
    student : dict
        The notebook to hand out (nbformat 4, ``nbformat_minor`` at least 5).
    instructor : dict
        The same cells with the solutions filled in.

    Raises
    ------
    ValueError
        If the notebook breaks the exercise format (as in :func:`parse_exercises`) or has
        no exercise.

    See Also
    --------
    release_notebook : The same from a file, written to disk.

    Notes
    -----
    Cost: time and memory linear in the size of the notebook (each cell is deep-copied
    once per copy, each check source hashed once).

    Examples
    --------
    >>> from sslteach.assignments import release
    >>> def cell(kind, source, *tags):
    ...     return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": source}
    >>> nb = {"cells": [
    ...     cell("markdown", "```{exercise}\n:label: ch9-ex-demo\nCompute 1 + 1. Why is it even?\n```"),
    ...     cell("markdown", "```{solution-start} ch9-ex-demo\n:class: dropdown\n```\nIt is 2."),
    ...     cell("code", "answer = 1 + 1", "solution"),
    ...     cell("markdown", "```{solution-end}\n```"),
    ...     cell("code", 'assert answer == 2, "1 + 1 is 2"', "check"),
    ... ]}
    >>> student, instructor = release(nb, name="demo.ipynb")
    >>> [c["metadata"]["nbgrader"]["grade_id"] for c in student["cells"]]
    ['ch9-ex-demo', 'ch9-ex-demo-written', 'ch9-ex-demo-code', 'ch9-ex-demo-check']
    >>> print(student["cells"][2]["source"])
    # Exercise ch9-ex-demo: write your code in this cell, replacing the `raise` line.
    # The check cell below uses: answer
    raise NotImplementedError("write your solution in this cell")
    >>> print(instructor["cells"][2]["source"])
    # Exercise ch9-ex-demo: write your code in this cell, replacing the `raise` line.
    # The check cell below uses: answer
    ### BEGIN SOLUTION
    answer = 1 + 1
    ### END SOLUTION
    >>> print(student["cells"][1]["source"])
    **Your answer.** Write your derivation or explanation here (Markdown and LaTeX).
    >>> entry = student["metadata"]["sslteach_assignment"]["exercises"][0]
    >>> entry["auto_points"], entry["manual_points"]
    (1.0, 1.0)
    """
    exercises = parse_exercises(nb)
    tests = hidden_tests(nb, exercises, name)
    if not exercises:
        raise ValueError(
            f"{name} has no exercises in the book's format (```{{exercise}} with :label: chN-ex-...)."
        )
    student, instructor = _release_cells(nb, exercises)
    if tests:  # the rules of the hidden tests, after the title
        titled = bool(student) and student[0]["cell_type"] == "markdown" and _src(student[0]).startswith("# ")
        at = 1 if titled else 0
        for cells in (student, instructor):
            cells.insert(at, _new_cell("markdown", GRADING_RULES, "grading-rules", {}))
    manifest = [_manifest_entry(nb, e, tests) for e in exercises]
    student, instructor = _render_statements(student), _render_statements(instructor)
    locked = _locked_entries(student)
    student_nb = _released_notebook(nb, student, "student", name, manifest, locked)
    instructor_nb = _released_notebook(nb, instructor, "instructor", name, manifest, locked)
    if tests:
        instructor_nb["metadata"][MANIFEST_KEY]["tests"] = {"source": name, "labels": sorted(tests)}
    return student_nb, instructor_nb


def _release_cells(nb, exercises):
    """The student's and the instructor's cells of :func:`release`, before rendering."""
    hidden_of = {i: e for e in exercises for i in e.hidden}
    by_statement = {e.statement: e for e in exercises}
    in_solution = {i: e for e in exercises for i in e.solution_cells}
    check_of = {i: e for e in exercises for i in e.checks}
    student, instructor = [], []
    for i, cell in enumerate(nb["cells"]):
        if i in hidden_of:
            continue  # the grader's: written to the instructor's tests file, in neither copy
        if i in in_solution:
            e = in_solution[i]
            if i == e.solution_cells[0]:  # the block is emitted with its first cell
                _add_answer_cells(nb, e, student, instructor)
            continue
        out = _clean(cell)
        if i in by_statement:
            _add_statement_cells(by_statement[i], out, _src(cell), student, instructor)
            continue
        if i in check_of:
            e = check_of[i]
            k = e.checks.index(i)
            gid = f"{e.label}-check" + (f"-{k + 1}" if k else "")
            out["metadata"]["nbgrader"] = _nbgrader(gid, grade=True, locked=True, points=CHECK_POINTS)
            out["id"] = gid
        elif cell["cell_type"] == "code":
            gid = f"given-{len([c for c in student if c['cell_type'] == 'code']) + 1}"
            out.setdefault("id", gid)
            out["metadata"]["nbgrader"] = _nbgrader(gid, locked=True)
        student.append(out)
        instructor.append(copy.deepcopy(out))
    return student, instructor


def _add_answer_cells(nb, e, student, instructor):
    """Append exercise ``e``'s answer cells (written, then one per solution code cell)."""
    checks = [_src(nb["cells"][j]) for j in e.checks]
    if e.has_written:
        gid = f"{e.label}-written"
        meta = _nbgrader(gid, solution=True, grade=True, points=WRITTEN_POINTS)
        student.append(_new_cell("markdown", WRITTEN_STUB, gid, meta))
        instructor.append(_new_cell("markdown", e.written.strip(), f"{gid}", copy.deepcopy(meta)))
    for k, j in enumerate(e.code_cells):
        gid = f"{e.label}-code" + (f"-{k + 1}" if k else "")
        meta = _nbgrader(gid, solution=True)
        sol = _src(nb["cells"][j])
        hint = _hint(e.label, sol, checks)  # outside the markers: nbgrader keeps it
        student.append(_new_cell("code", f"{hint}\n{CODE_STUB}", gid, meta))
        wrapped = f"{hint}\n### BEGIN SOLUTION\n{sol}\n### END SOLUTION"
        instructor.append(_new_cell("code", wrapped, gid, copy.deepcopy(meta)))


def _add_statement_cells(e, out, source, student, instructor):
    """Append exercise ``e``'s locked statement ``out`` (cleaned) with its plain neighbours."""
    before, statement, after = _split_statement(source)
    if before:
        plain = _new_cell("markdown", before, f"{e.label}-before", {})
        student.append(plain)
        instructor.append(copy.deepcopy(plain))
    out["source"] = statement
    out["metadata"]["nbgrader"] = _nbgrader(e.label, locked=True)
    student.append(out)
    instructor.append(copy.deepcopy(out))
    if not e.solution_cells:  # an open exercise: give it a written answer cell
        gid = f"{e.label}-written"
        meta = _nbgrader(gid, solution=True, grade=True, points=WRITTEN_POINTS)
        stub = _new_cell("markdown", WRITTEN_STUB, gid, meta)
        student.append(stub)
        instructor.append(copy.deepcopy(stub))
    if after:  # text that shares the cell (a Summary after the last exercise)
        plain = _new_cell("markdown", after, f"{e.label}-after", {})
        student.append(plain)
        instructor.append(copy.deepcopy(plain))


def _manifest_entry(nb, e, tests):
    """Exercise ``e``'s entry in the release manifest (its checks, points and functions)."""
    checks = [_src(nb["cells"][j]) for j in e.checks]
    return {
        "label": e.label,
        "checks": [
            {
                "grade_id": f"{e.label}-check" + (f"-{k + 1}" if k else ""),
                "source": s,
                "sha256": _sha(s),
            }
            for k, s in enumerate(checks)
        ],
        "auto_points": CHECK_POINTS * max(len(checks), 1 if e.hidden else 0),
        "manual_points": WRITTEN_POINTS if e.has_written else 0.0,
        "hidden": bool(e.hidden),
        "functions": tests[e.label]["functions"] if e.label in tests else [],
    }


def _released_notebook(nb, cells, role, name, manifest, locked):
    """One released copy: ``cells`` with ``nb``'s metadata and the manifest under ``role``."""
    meta = copy.deepcopy(nb.get("metadata", {}))
    meta[MANIFEST_KEY] = {
        "version": 2,
        "source": name,
        "role": role,
        "exercises": manifest,
        "locked": locked,
    }
    return {
        "cells": cells,
        "metadata": meta,
        "nbformat": 4,
        "nbformat_minor": max(5, nb.get("nbformat_minor", 5)),
    }


def _render_statements(cells):
    """The released cells with their Markdown made readable in Jupyter and Colab.

    The one call site of the MyST-to-Markdown converter (:func:`sslteach.teach.myst.convert_notebook`,
    the same that writes the reader notebooks): directives and roles become Markdown and LaTeX,
    equation, theorem and exercise references the book's numbers. It runs on the copies after
    the exercises are parsed from the master's MyST, and before the locked cells are hashed, so
    the grader matches what the student sees. Where the book's sources are not at hand (an
    installed package), equations are numbered within the notebook.
    """
    from .myst import book_numbers, convert_notebook

    try:
        numbers = book_numbers()
    except (OSError, ValueError):
        numbers = None
    if numbers is None:
        from .myst import Numbers

        numbers = Numbers()
        converted = convert_notebook({"cells": cells}, numbers=numbers, docname="")
    else:
        converted = convert_notebook({"cells": cells}, numbers=numbers)
    return converted["cells"]


def _locked_entries(cells) -> list[dict]:
    """Every locked cell of a student copy: its id, grade_id, exercise and sha256."""
    out = []
    for cell in cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if not meta.get("locked"):
            continue
        gid = meta["grade_id"]
        m = re.match(r"(ch\d+-ex-[A-Za-z0-9-]+?)(-check(-\d+)?)?$", gid)
        label = m.group(1) if m and not gid.startswith("given-") else None
        out.append(
            {
                "id": cell.get("id"),
                "grade_id": gid,
                "label": label,
                "kind": cell["cell_type"],
                "sha256": _sha(_src(cell)),
            }
        )
    return out


def hidden_tests(nb, exercises, name="notebook") -> dict:
    """``{label: {"source": ..., "functions": [...]}}`` for every exercise with a hidden test.

    Each test is loaded once (with a fixed seed) to learn the functions it calls; a
    statement that does not name every one of them is refused with a ``ValueError``, so
    that a student always knows which function to write.
    """
    out = {}
    for e in exercises:
        if not e.hidden:
            continue
        source = _src(nb["cells"][e.hidden[0]])
        from .hidden import load_spec  # numpy only; imported when a chapter has hidden tests

        spec = load_spec(e.label, source, np_rng(0))
        statement = _split_statement(_src(nb["cells"][e.statement]))[1]
        for fn in spec.functions:
            if not re.search(r"`" + re.escape(fn) + r"[`(]", statement):
                raise ValueError(
                    f"{name}: the statement of {e.label} does not name the function `{fn}` "
                    "its hidden test calls; "
                    "name it in the statement (as `name(args)`)."
                )
        out[e.label] = {"source": source, "functions": spec.functions}
    return out


def np_rng(seed):
    import numpy as np

    return np.random.default_rng(seed)


def release_notebook(path, out_dir) -> tuple[Path, Path]:
    r"""Write ``out_dir/student/<name>.ipynb`` and ``out_dir/instructor/<name>.ipynb``.

    Reads the master notebook at ``path`` (JSON), builds both copies with :func:`release`
    and writes them as JSON (indent 1, UTF-8 characters kept), creating the two folders
    when needed and overwriting earlier copies. This is what
    ``python -m sslteach.assignments release NOTEBOOK --out DIR`` runs, as described in
    :doc:`/book/instructors` (Releasing an assignment).

    Parameters
    ----------
    path : str or pathlib.Path
        The master notebook, e.g. ``notebooks/01_spectral_clustering.ipynb``.
    out_dir : str or pathlib.Path
        The output folder; ``student/`` and ``instructor/`` are created inside it.

    Returns
    -------
    student : pathlib.Path
        ``out_dir/student/<name>.ipynb``.
    instructor : pathlib.Path
        ``out_dir/instructor/<name>.ipynb``.

    Raises
    ------
    ValueError
        If ``path`` is not a file, or the notebook breaks the exercise format or has no
        exercise (see :func:`release`).

    Notes
    -----
    Cost: time and memory linear in the size of the notebook, plus writing two files of
    about its size.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> from sslteach.assignments import release_notebook
    >>> def cell(kind, source, *tags):
    ...     return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": source}
    >>> nb = {"cells": [
    ...     cell("markdown", "```{exercise}\n:label: ch9-ex-demo\nExplain why.\n```"),
    ...     cell("code", "assert True", "check"),
    ... ]}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     master = Path(tmp) / "demo.ipynb"
    ...     _ = master.write_text(json.dumps(nb))
    ...     student, instructor = release_notebook(master, Path(tmp) / "hw")
    ...     print(student.relative_to(tmp).as_posix(), instructor.relative_to(tmp).as_posix())
    ...     print(len(json.loads(student.read_text())["cells"]))
    hw/student/demo.ipynb hw/instructor/demo.ipynb
    3
    """
    path, out_dir = Path(path), Path(out_dir)
    if not path.is_file():
        raise ValueError(
            f"{path} does not exist; pass a chapter notebook such as notebooks/00_foundations.ipynb."
        )
    nb = json.loads(path.read_text(encoding="utf-8"))
    student, instructor = release(nb, name=path.name)
    tests = hidden_tests(nb, parse_exercises(nb), path.name)
    written = []
    for role, book in (("student", student), ("instructor", instructor)):
        target = out_dir / role / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(book, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
    tests_path = hidden_tests_path(written[1])
    if tests:
        tests_path.write_text(
            json.dumps({"source": path.name, "tests": tests}, indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
    elif tests_path.exists():
        tests_path.unlink()
    return written[0], written[1]


def hidden_tests_path(instructor: Path) -> Path:
    """Where the hidden tests of an instructor copy live: ``<name>.tests.json`` beside it."""
    instructor = Path(instructor)
    return instructor.with_name(instructor.stem + ".tests.json")


# --------------------------------------------------------------------------------------- grading


@dataclass
class CellOutcome:
    index: int  # 1-based cell number in the executed notebook
    grade_id: str | None
    status: str  # "ok", "error", "timeout", "not run"
    error: str = ""


@dataclass
class ExerciseResult:
    """The grade of one exercise of one submission, for one kind of answer.

    :func:`grade_notebook` gives an exercise one ``"auto"`` result when it has check cells
    (all of its points when every check cell passes, else 0) and one ``"manual"`` result
    when it has a written answer (points left to the grader). The statuses are those of
    the table in :doc:`/book/instructors` (Grading).

    Parameters
    ----------
    label : str
        The exercise's label, ``ch<N>-ex-<slug>``.
    kind : str
        ``"auto"`` (the check cells) or ``"manual"`` (the written answer).
    status : str
        For ``"auto"``: ``"passed"``, ``"failed"`` (an assertion failed), ``"error"``,
        ``"timeout"``, ``"not run"`` (the kernel died earlier) or ``"missing"`` (a check
        cell was deleted); for ``"manual"``: ``"manual"`` (answered, to grade by hand),
        ``"unanswered"`` (empty or still the placeholder: 0 points, as nbgrader gives) or
        ``"missing"``.
    points : float or None
        The points earned; None for a written answer still to be graded by hand.
    max_points : float
        The points the exercise's answer of this kind is worth.
    message : str, default ""
        Why it did not pass: assertion and error messages, joined by ``"; "``.

    See Also
    --------
    GradeReport : All results of one submission.

    Notes
    -----
    The fields are stored as attributes of the same names. Memory: the strings only.

    Examples
    --------
    >>> from dataclasses import asdict
    >>> from sslteach.assignments import ExerciseResult
    >>> r = ExerciseResult("ch9-ex-demo", "auto", "failed", 0.0, 1.0, "AssertionError: 1 + 1 is 2")
    >>> asdict(r)["status"], r.points, r.max_points
    ('failed', 0.0, 1.0)
    """

    label: str
    kind: str  # "auto" (check cells) or "manual" (written answer)
    status: str  # passed, failed, error, timeout, not run, missing, manual, unanswered
    points: float | None
    max_points: float
    message: str = ""


@dataclass
class GradeReport:
    r"""Everything :func:`grade_notebook` found in one submission.

    The autograded score and its maximum are sums over the ``"auto"`` results,

    .. math:: \mathtt{score} = \sum_{r:\ \mathrm{kind} = \mathrm{auto}} \mathtt{points}_r,
       \qquad \mathtt{max\_auto} = \sum_{r:\ \mathrm{kind} = \mathrm{auto}} \mathtt{max\_points}_r,

    written answers being graded by hand. The command line prints the reports as a table
    and writes :meth:`rows` to CSV and :meth:`as_dict` to JSON, as described in
    :doc:`/book/instructors` (Grading).

    Parameters
    ----------
    submission : str
        The submission's name: its file name, or, from the command line, its path relative
        to the folder that holds all the graded submissions (:func:`submission_names`),
        such as ``alice/hw1/01_spectral_clustering.ipynb``.
    exercises : list of ExerciseResult
        One or two results per exercise of the manifest, in its order.
    problems : list of str
        Notes outside the exercises: check cells that were edited and restored, cells
        outside the exercises that raised or timed out, or why the file could not be read.
    readable : bool, default True
        False when the file is missing, a directory, or not a notebook (then
        ``exercises`` is empty and ``problems`` says why).

    See Also
    --------
    grade_notebook : Builds the report.

    Notes
    -----
    The fields are stored as attributes of the same names. Each property and method
    costs time linear in the number of exercises.

    Examples
    --------
    >>> from sslteach.assignments import ExerciseResult, GradeReport
    >>> report = GradeReport("alice.ipynb", [
    ...     ExerciseResult("ch9-ex-a", "auto", "passed", 1.0, 1.0),
    ...     ExerciseResult("ch9-ex-b", "auto", "failed", 0.0, 1.0, "AssertionError: too small"),
    ...     ExerciseResult("ch9-ex-b", "manual", "manual", None, 1.0, "graded by hand"),
    ... ], problems=[])
    >>> report.score, report.max_auto
    (1.0, 2.0)
    >>> [(row["label"], row["kind"], row["status"]) for row in report.rows()]
    [('ch9-ex-a', 'auto', 'passed'), ('ch9-ex-b', 'auto', 'failed'), ('ch9-ex-b', 'manual', 'manual')]
    """

    submission: str
    exercises: list[ExerciseResult]
    problems: list[str]
    readable: bool = True  # False: the file is missing, a directory, or not a notebook
    seed: int | None = None  # the hidden tests' seed (grade --seed reproduces the inputs)

    @property
    def score(self) -> float:
        """float: The autograded points earned, the sum over the ``"auto"`` results."""
        return sum(r.points or 0.0 for r in self.exercises if r.kind == "auto")

    @property
    def max_auto(self) -> float:
        """float: The autograded points available, the sum of ``max_points`` over ``"auto"``."""
        return sum(r.max_points for r in self.exercises if r.kind == "auto")

    def rows(self) -> list[dict]:
        """The CSV rows: one dict per result.

        Returns
        -------
        rows : list of dict
            Keys ``submission, label, kind, status, points, max_points, message``; an
            unreadable submission gives one row with status ``"unreadable"``, 0 points and
            the reason, so that the student stays in the grade book.
        """
        if not self.readable:  # keep the student in the CSV, with the reason
            return [
                {
                    "submission": self.submission,
                    "label": "",
                    "kind": "",
                    "status": "unreadable",
                    "points": 0.0,
                    "max_points": 0.0,
                    "message": "; ".join(self.problems),
                }
            ]
        return [{"submission": self.submission, **asdict(r)} for r in self.exercises]

    def as_dict(self) -> dict:
        """The full report as JSON-ready data.

        Returns
        -------
        report : dict
            Keys ``submission``, ``score``, ``max_autograded``, ``exercises`` (each result as a
            dict), ``problems``, ``readable`` and ``seed`` (of the hidden tests' inputs, None
            without hidden tests; ``grade --seed`` draws the same inputs again).
        """
        return {
            "submission": self.submission,
            "score": self.score,
            "max_autograded": self.max_auto,
            "exercises": [asdict(r) for r in self.exercises],
            "problems": self.problems,
            "readable": self.readable,
            "seed": self.seed,
        }


_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
_CELL_FRAME_RE = re.compile(r"Cell In\[\d+\], line (\d+)")


def _error_text(outputs, source: str = "") -> str:
    """``"<ename>: <first line of the message>"`` of the first error output, else "".

    An error without a message (a bare ``assert``) is named by the line of ``source`` (the
    cell) where it was raised, read from the traceback's first frame:
    ``"AssertionError at line 5: assert np.allclose(got, expected)"``.
    """
    for out in outputs:
        if out.get("output_type") == "error":
            ename = out.get("ename", "Error")
            value = str(out.get("evalue", "")).strip().splitlines()
            if value:
                return f"{ename}: {value[0]}"
            frame = _CELL_FRAME_RE.search(_ANSI_RE.sub("", "\n".join(out.get("traceback", []))))
            lines = source.splitlines()
            if frame and 0 < int(frame.group(1)) <= len(lines):
                n = int(frame.group(1))
                return f"{ename} at line {n}: {lines[n - 1].strip()[:120]}"
            return ename
    return ""


def _run(nb, cwd: Path, timeout: float, kernel_name: str) -> list[CellOutcome]:
    """Execute ``nb`` in place cell by cell; errors, timeouts and a dying kernel are recorded."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    timeout_message = f"Timeout: the cell ran past the {timeout:g} s limit and was interrupted"
    client = NotebookClient(
        nb,
        timeout=max(1, math.ceil(timeout)),  # nbclient takes whole seconds
        kernel_name=kernel_name,
        allow_errors=True,
        interrupt_on_timeout=True,
        error_on_timeout={"ename": "Timeout", "evalue": timeout_message},
        resources={"metadata": {"path": str(cwd)}},
    )
    outcomes: list[CellOutcome] = []
    dead_at = None
    with client.setup_kernel():
        for i, cell in enumerate(nb.cells):
            gid = cell.metadata.get("nbgrader", {}).get("grade_id")
            if cell.cell_type != "code":
                continue
            if dead_at is not None:
                outcomes.append(CellOutcome(i + 1, gid, "not run", f"the kernel died at cell {dead_at}"))
                continue
            start = time.monotonic()
            try:
                client.execute_cell(cell, i)
            except DeadKernelError:
                dead_at = i + 1
                outcomes.append(CellOutcome(i + 1, gid, "error", "the kernel died (the cell crashed Python)"))
                continue
            except CellTimeoutError:  # the interrupt did not stop the cell
                dead_at = i + 1
                outcomes.append(CellOutcome(i + 1, gid, "timeout", "the cell could not be interrupted"))
                continue
            err = _error_text(cell.outputs, cell.source)
            timed_out = time.monotonic() - start >= timeout and err.startswith(
                ("Timeout", "KeyboardInterrupt")
            )
            if timed_out:
                outcomes.append(CellOutcome(i + 1, gid, "timeout", timeout_message))
                # The interrupt raised KeyboardInterrupt in the kernel; wait until it is idle again.
                probe = _probe(client)
                if not probe:
                    dead_at = i + 1
            elif err:
                outcomes.append(CellOutcome(i + 1, gid, "error", err))
            else:
                outcomes.append(CellOutcome(i + 1, gid, "ok"))
    return outcomes


def _probe(client) -> bool:
    """Run an empty cell; True when the kernel answers (after an interrupted cell)."""
    import nbformat

    probe = nbformat.v4.new_code_cell("pass")
    try:
        client.execute_cell(probe, -1)
    except Exception:
        return False
    return not _error_text(probe.outputs) or _error_text(probe.outputs).startswith("KeyboardInterrupt")


class Grader:
    """Grades submissions of one released notebook; the reference values are computed once.

    Parameters
    ----------
    reference : path or None
        The released student notebook whose manifest (exercises, points, locked cells) is
        authoritative; None: each submission's own manifest.
    instructor : path or None
        The instructor copy (its solutions give the reference values); by default
        ``<reference>/../../instructor/<name>``, its hidden tests ``<name>.tests.json``
        beside it (:func:`hidden_tests_path`).
    timeout : float
        Seconds per cell and per hidden-test call.
    sandbox : bool
        Run submissions under bubblewrap (:mod:`sslteach.teach.sandbox`); ``ValueError``
        when it is not available here.
    seed : int or None
        The seed of the hidden tests' inputs; None draws one (from the OS).
    memory : int or None
        Address-space limit per submission kernel, in bytes.
    """

    def __init__(
        self,
        *,
        reference=None,
        instructor=None,
        timeout=DEFAULT_TIMEOUT,
        sandbox=True,
        seed=None,
        memory=DEFAULT_MEMORY,
    ):
        import nbformat

        if reference is not None and not Path(reference).is_file():
            raise ValueError(f"the reference notebook {reference} does not exist or is not a file.")
        self.reference = nbformat.read(str(reference), as_version=4) if reference is not None else None
        if instructor is None and reference is not None:
            guess = Path(reference).resolve().parent.parent / "instructor" / Path(reference).name
            instructor = guess if guess.is_file() else None
        if instructor is not None and not Path(instructor).is_file():
            raise ValueError(f"the instructor copy {instructor} does not exist or is not a file.")
        self.instructor_path = Path(instructor) if instructor is not None else None
        self.timeout = timeout
        self.memory = memory
        if sandbox:
            from .sandbox import sandbox_available

            ok, why = sandbox_available()
            if not ok:
                raise ValueError(
                    f"the sandbox is not available: {why}. Install it (apt-get install bubblewrap) or pass "
                    "--no-sandbox to run submissions without it (they can then read any file this user can, "
                    "the master notebooks included, and use the network)."
                )
        self.sandbox = sandbox
        self.seed = secrets.randbits(63) if seed is None else int(seed)
        self._lock = threading.Lock()
        self._specs = None  # label -> Spec
        self._wrap: list = []  # the compiled functions behind forbidden modules (hidden.wrap_list)
        self._refs = None  # label -> reference values
        self._tests = {}
        if self.instructor_path is not None and hidden_tests_path(self.instructor_path).is_file():
            data = json.loads(hidden_tests_path(self.instructor_path).read_text(encoding="utf-8"))
            self._tests = {label: t["source"] for label, t in data["tests"].items()}

    # -- the reference, once per run
    def specs_and_refs(self, manifest):
        with self._lock:
            if self._specs is None:
                from .hidden import load_spec, reference_values, seed_for

                wanted = [ex["label"] for ex in manifest["exercises"] if ex.get("hidden")]
                missing = [lab for lab in wanted if lab not in self._tests]
                if missing:
                    where = "(no instructor copy)"
                    if self.instructor_path:
                        where = hidden_tests_path(self.instructor_path)
                    raise ValueError(
                        f"the hidden tests of {', '.join(missing)} were not found in {where}; "
                        "pass --instructor "
                        "with the instructor copy that `release` wrote (its .tests.json file beside it)."
                    )
                specs = {lab: load_spec(lab, self._tests[lab], seed_for(lab, self.seed)) for lab in wanted}
                refs = {}
                if specs:
                    import nbformat

                    inst = nbformat.read(str(self.instructor_path), as_version=4)
                    kernel = self._kernel(sandbox=False)
                    try:
                        from .hidden import guard_kernel, wrap_list

                        self._wrap = wrap_list(specs.values())
                        # the harness, before the instructor's cells
                        guard_kernel(kernel, self.timeout, self._wrap)
                        cells = _plan(inst, None, set(specs), specs)[0]
                        for cell in cells:
                            r = kernel.run(cell["source"], self.timeout)
                            if r.status != "ok" and cell["role"] == "answer":
                                raise ValueError(
                                    f"the instructor copy's answer cell {cell['grade_id']} fails: {r.error}"
                                )
                        refs = {lab: reference_values(kernel, spec) for lab, spec in specs.items()}
                    finally:
                        kernel.close()
                self._specs, self._refs = specs, refs
            return self._specs, self._refs

    def _kernel(self, sandbox):
        from .sandbox import Kernel

        return Kernel(sandbox=sandbox, memory=self.memory if sandbox else None)

    def grade(self, path, name=None) -> GradeReport:
        """Grade one submission (see :func:`grade_notebook`)."""
        import nbformat

        path = Path(path)
        name = path.name if name is None else str(name)
        try:
            nb = nbformat.read(str(path), as_version=4)
        except Exception as exc:  # missing, a directory, not JSON, not a notebook
            return GradeReport(
                name, [], [f"the submission could not be read as a notebook: {exc}"], readable=False
            )
        ref = self.reference if self.reference is not None else nb
        manifest = ref.metadata.get(MANIFEST_KEY)
        if not manifest:
            raise ValueError(
                f"{'the reference' if self.reference is not None else path} has no {MANIFEST_KEY!r} "
                "metadata: "
                "it is not a notebook released by `python -m sslteach.assignments release`; "
                "pass --reference with the released "
                "notebook."
            )
        specs, refs = self.specs_and_refs(manifest)
        broken, problems, restored = _integrity(nb, ref, manifest)
        legacy = [ex for ex in manifest["exercises"] if ex["checks"] and not ex.get("hidden")]
        if specs:
            from .slicing import uses

            cells, _ = _plan(
                nb,
                ref if self.reference is not None else None,
                set(specs),
                specs,
                restored=restored,
                extra_names=set().union(*(uses(c["source"]) for ex in legacy for c in ex["checks"])),
            )
        else:  # no hidden test at all (a notebook without them): every cell in order, checks included
            cells = _all_cells(nb, manifest, restored)
        answer_errors: dict[str, str] = {}
        check_status: dict[str, tuple[str, str]] = {}
        kernel = None
        needs_kernel = bool(specs) or bool(legacy)
        try:
            if needs_kernel:
                kernel = self._kernel(self.sandbox)
                if specs:  # before the submission's first cell: see _kernel_harness.install_guard
                    from .hidden import guard_kernel

                    guard_kernel(kernel, self.timeout, self._wrap)
            dead = self._run_cells(kernel, cells if kernel else [], problems, answer_errors, check_status)
            dead = self._run_legacy_checks(kernel, legacy, check_status, dead)
            auto_status = self._run_hidden_tests(kernel, specs, refs, broken, dead)
        finally:
            if kernel is not None:
                kernel.close()
        results = _exercise_results(nb, manifest, broken, answer_errors, check_status, auto_status)
        return GradeReport(name, results, problems, seed=self.seed if specs else None)

    def _run_cells(self, kernel, cells, problems, answer_errors, check_status):
        """Run the planned cells; record check verdicts, answer errors and problems.

        Returns the reason the kernel died ("" while it lives).
        """
        dead = ""
        for cell in cells:
            if dead:
                if cell["role"] == "check":
                    check_status[cell["grade_id"]] = ("not run", dead)
                continue
            r = kernel.run(cell["source"], self.timeout)
            if cell["role"] == "check":
                check_status[cell["grade_id"]] = _check_verdict(r)
            if r.status == "dead":
                dead = dead or f"the kernel died at cell {cell['index']}"
                if cell["role"] == "answer":
                    answer_errors[cell["grade_id"]] = "the kernel died (the cell crashed Python)"
                continue
            if r.status != "ok" and cell["role"] != "check":
                if cell["role"] == "answer":
                    answer_errors[cell["grade_id"]] = r.error
                else:
                    problems.append(f"cell {cell['index']}: {r.status}: {r.error}")
        return dead

    def _run_legacy_checks(self, kernel, legacy, check_status, dead):
        """Run the check cells of exercises without a hidden test that have not run yet."""
        for ex in legacy:
            for chk in ex["checks"]:
                if chk["grade_id"] in check_status:
                    continue
                if dead:
                    check_status[chk["grade_id"]] = ("not run", dead)
                    continue
                r = kernel.run(chk["source"], self.timeout)
                if r.status == "dead":
                    dead = f"the kernel died at {chk['grade_id']}"
                check_status[chk["grade_id"]] = _check_verdict(r)
        return dead

    def _run_hidden_tests(self, kernel, specs, refs, broken, dead):
        """``{label: (ok, status, message)}`` of the hidden tests of the untampered exercises."""
        from .hidden import TAMPERED, judge

        auto_status: dict[str, tuple[bool, str, str]] = {}
        for label, spec in (specs or {}).items():
            if label in broken:
                continue
            if dead:
                auto_status[label] = (False, "not run", dead)
                continue
            ok, message = judge(kernel, spec, refs[label], min(self.timeout, 120.0))
            if not kernel.km.is_alive():
                dead = "the kernel died during the hidden tests"
            if message.startswith(TAMPERED):  # a forged reply: reported as tampering, with the reason
                status, message = "tampered", message[len(TAMPERED) :]
            else:
                status = "passed" if ok else ("timeout" if "Timeout" in message else "failed")
            auto_status[label] = (ok, status, message)
        return auto_status


def _check_verdict(r):
    """``(status, message)`` of a check cell from its run result ``r``."""
    if r.status == "ok":
        return ("passed", "")
    if r.status == "dead":
        return ("error", "the kernel died (the cell crashed Python)")
    if r.error.startswith("AssertionError"):
        return ("failed", r.error)
    return (r.status, r.error)


def _exercise_results(nb, manifest, broken, answer_errors, check_status, auto_status):
    """The :class:`ExerciseResult` rows of a graded submission, in the manifest's order."""
    cells_by_gid = {}
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid:
            cells_by_gid.setdefault(gid, cell)
    results = []
    for ex in manifest["exercises"]:
        if ex["auto_points"]:
            results.append(_auto_result(ex, broken, answer_errors, check_status, auto_status))
        if ex["manual_points"]:
            results.append(_manual_result(ex, cells_by_gid.get(f"{ex['label']}-written")))
    return results


def _auto_result(ex, broken, answer_errors, check_status, auto_status):
    """The autograded row of exercise ``ex`` (tampered, hidden test, or its check cells)."""
    label = ex["label"]
    answers = "; ".join(
        f"your answer cell: {answer_errors[g]}"
        for g in sorted(answer_errors)
        if g == f"{label}-code" or g.startswith(f"{label}-code-")
    )
    if label in broken:
        ok, status, points, message = False, "tampered", 0.0, broken[label]
    elif ex.get("hidden"):
        ok, status, message = auto_status.get(label, (False, "error", "not graded"))
        points = ex["auto_points"] if ok else 0.0
    else:
        statuses, messages = [], []
        for chk in ex["checks"]:
            st, msg = check_status.get(chk["grade_id"], ("not run", "the check cell was not executed"))
            statuses.append(st)
            if msg:
                messages.append(msg)
        ok = all(st == "passed" for st in statuses)
        status = "passed" if ok else next(st for st in statuses if st != "passed")
        points, message = (ex["auto_points"] if ok else 0.0), "; ".join(messages)
    if not ok and answers:
        message = "; ".join(m for m in (message, answers) if m)
    return ExerciseResult(label, "auto", status, points, ex["auto_points"], message)


def _manual_result(ex, cell):
    """The hand-graded row of exercise ``ex`` from its written answer ``cell`` (None if deleted)."""
    if cell is None:
        status, points, message = "missing", 0.0, "the written answer cell was deleted"
    elif _untouched(cell.source):
        status, points, message = "unanswered", 0.0, "the written answer is empty or the placeholder"
    else:
        status, points, message = "manual", None, "graded by hand"
    return ExerciseResult(ex["label"], "manual", status, points, ex["manual_points"], message)


def _integrity(nb, ref, manifest):
    """Locked cells matched by id (or grade_id) and sha256.

    Returns ``(broken, problems, restored)``: the exercises whose locked cells are missing,
    duplicated or edited, with the reason; notes; and, for given (chapter) code cells that
    were edited, the original source to run instead.
    """
    broken: dict[str, str] = {}
    problems: list[str] = []
    restored: dict[int, str] = {}
    locked = manifest.get("locked")
    if locked is None:  # a release of version 1: the check cells only
        locked = [
            {
                "id": c["grade_id"],
                "grade_id": c["grade_id"],
                "label": ex["label"],
                "kind": "code",
                "sha256": c["sha256"],
            }
            for ex in manifest["exercises"]
            for c in ex["checks"]
        ]
    sources = {}
    if ref is not None:
        for cell in ref.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id")
            if gid:
                sources[gid] = cell.source
    for ex in manifest["exercises"]:
        for c in ex["checks"]:
            sources[c["grade_id"]] = c["source"]
    by_key: dict[str, list[int]] = {}
    for i, cell in enumerate(nb.cells):
        keys = {cell.get("id"), cell.metadata.get("nbgrader", {}).get("grade_id")} - {None}
        for k in keys:
            by_key.setdefault(k, []).append(i)
    shas = {}
    for i, cell in enumerate(nb.cells):
        shas.setdefault(_sha(cell.source), []).append(i)
    for entry in locked:
        hits = sorted(set(by_key.get(entry["grade_id"], [])) | set(by_key.get(entry.get("id") or "", [])))
        what = f"the locked cell {entry['grade_id']}"
        reason = None
        if not hits:
            if entry["sha256"] in shas and len(shas[entry["sha256"]]) == 1:
                continue  # its id was lost (an editor that drops ids) but its content is intact
            reason = f"{what} is missing"
        elif len(hits) > 1:
            reason = f"{what} appears {len(hits)} times (a copy of a locked cell)"
        elif _sha(nb.cells[hits[0]].source) != entry["sha256"]:
            reason = f"{what} was edited"
            if entry["label"] is None and entry["grade_id"] in sources:
                restored[hits[0]] = sources[entry["grade_id"]]
        if reason is None:
            continue
        if entry["label"] is not None:
            broken.setdefault(entry["label"], reason + "; the exercise scores 0")
        else:
            problems.append(reason + ("; the original was run instead" if hits and len(hits) == 1 else ""))
    return broken, problems, restored


def _plan(nb, ref, labels, specs, restored=None, extra_names=()):
    """The code cells to run, in order: answers, the cells they need, the setup cell's part they need.

    Check cells and hidden tests are not run (the grade comes from the hidden tests); a
    given cell that was edited runs as released (``restored``). ``extra_names``: names
    something else run afterwards reads (the check cells of exercises without a hidden test).
    """
    from .slicing import plan

    restored = restored or {}
    rows = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        gid = cell.metadata.get("nbgrader", {}).get("grade_id") or ""
        if re.search(r"-check(-\d+)?$", gid):
            continue
        role = (
            "answer"
            if re.search(r"-code(-\d+)?$", gid)
            else ("given" if gid.startswith("given-") else "added")
        )
        if ref is None and role == "added" and not gid and cell.metadata.get("nbgrader", {}).get("locked"):
            role = "given"
        source = restored.get(i, cell.source)
        rows.append({"index": i + 1, "grade_id": gid, "role": role, "source": _runnable(source)})
    functions = set().union(*(set(s.functions) for s in specs.values())) if specs else set()
    keep = {k for k, r in enumerate(rows) if r["role"] == "answer"}
    setup = 0 if rows and rows[0]["role"] != "answer" else None
    order = plan([r["source"] for r in rows], keep, functions | set(extra_names), setup=setup)
    return [{**rows[k], "source": source} for k, source in order], keep


def _all_cells(nb, manifest, restored):
    """Every code cell in order (the grading of releases without hidden tests); checks as released."""
    checks = {c["grade_id"]: c["source"] for ex in manifest["exercises"] for c in ex["checks"]}
    rows, seen = [], set()
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        gid = cell.metadata.get("nbgrader", {}).get("grade_id") or ""
        if gid in checks:
            if gid in seen:
                continue
            seen.add(gid)
            if _sha(cell.source) != _sha(checks[gid]):
                cell.source = checks[gid]  # an edited check runs as released (the exercise is already 0)
            role = "check"
        else:
            role = "answer" if re.search(r"-code(-\d+)?$", gid) else "given"
        rows.append(
            {"index": i + 1, "grade_id": gid, "role": role, "source": _runnable(restored.get(i, cell.source))}
        )
    return rows


def _runnable(source: str) -> str:
    """A cell's source without IPython magics and shell escapes (no network, no installs)."""
    return "\n".join(
        "pass  # " + ln if ln.lstrip().startswith(("%", "!")) else ln for ln in source.split("\n")
    )


def grade_notebook(
    path,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    reference=None,
    kernel_name: str = "python3",
    name=None,
    instructor=None,
    sandbox: bool = True,
    seed=None,
    grader=None,
) -> GradeReport:
    r"""Grade one submission: hidden tests in the grader, integrity of the locked cells.

    The exercises, their points and the locked cells come from the assignment manifest of
    ``reference`` (the released student notebook), else of the submission itself. The
    submission's answer cells and the cells they need (a def-use slice: the setup cell,
    the chapter cells and the student's own cells that bind a name an answer reads) run in
    a fresh kernel, sandboxed with bubblewrap unless ``sandbox=False``
    (:mod:`sslteach.teach.sandbox`). Then, for each exercise with a hidden test, the
    grader calls the student's functions in that kernel on inputs drawn at grading time
    and compares the values, brought back as JSON and ``.npy`` bytes, with the instructor
    solution's values computed in a separate clean kernel (:mod:`sslteach.teach.hidden`):

    .. math:: \mathtt{points} = \begin{cases}\mathtt{auto\_points} & \text{if every hidden call returned
       the reference's value,}\\ & \text{reached no forbidden function}\\ & \text{and met the stated
       cost,}\\ 0 & \text{otherwise.}\end{cases}

    An exercise whose locked cell (statement or check) is missing, duplicated or edited
    scores 0 ("tampered", with the reason); an edited chapter cell is run as released
    and noted. Exercises without a hidden test (only in notebooks that have none) are
    graded by their check cells as before. A written answer is "manual" (to grade by hand),
    "unanswered" (0 points: empty or still the placeholder :data:`WRITTEN_STUB`, the
    labelled text of earlier releases, or nbgrader's ``YOUR ANSWER HERE``) or "missing".

    Parameters
    ----------
    path : str or pathlib.Path
        The submitted notebook.
    timeout : float, default 300.0
        Seconds per cell (and, up to 120, per hidden-test call).
    reference : str or pathlib.Path, optional
        The released student notebook, whose manifest is authoritative.
    kernel_name : str, default "python3"
        Kept for compatibility; the grader starts the current Python's IPython kernel.
    name : str, optional
        The submission's name in the report; by default its file name.
    instructor : str or pathlib.Path, optional
        The instructor copy; by default found beside ``reference``
        (``<out>/instructor/<name>``).
    sandbox : bool, default True
        Run the submission under bubblewrap; ``ValueError`` when unavailable.
    seed : int, optional
        The seed of the hidden tests' inputs (drawn from the OS by default).
    grader : Grader, optional
        A :class:`Grader` to reuse (its reference values are computed once).

    Returns
    -------
    report : GradeReport
        The results per exercise and the problems found; ``readable=False`` (and no
        results) when the submission is missing, a directory or not a notebook.

    Raises
    ------
    ValueError
        If ``reference`` is given but is not a file, if the manifest notebook has no
        ``sslteach_assignment`` metadata, if hidden tests are needed but the instructor
        copy or its tests file is missing, or if the sandbox is not available.

    See Also
    --------
    release : Writes the manifest and the hidden tests this function grades against.

    Notes
    -----
    Cost: one kernel per submission running the needed cells (seconds), plus, once per
    :class:`Grader`, one clean kernel for the reference values.

    Examples
    --------
    A missing file is reported, not raised (no kernel is started):

    >>> from sslteach.assignments import grade_notebook
    >>> report = grade_notebook("no_such_submission.ipynb", name="alice/hw1/no_such_submission.ipynb",
    ...                         sandbox=False)
    >>> report.readable, report.exercises, report.rows()[0]["status"]
    (False, [], 'unreadable')

    An untouched written answer (empty or still the placeholder) scores 0 when graded; any
    other text is left to be graded by hand:

    >>> from sslteach.assignments import WRITTEN_STUB, _untouched
    >>> _untouched(WRITTEN_STUB), _untouched("  "), _untouched("Since $L$ is PSD, ...")
    (True, True, False)

    A notebook that was not released has no manifest to grade against:

    >>> import json, tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     nb = Path(tmp) / "chapter.ipynb"
    ...     _ = nb.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    ...     grade_notebook(nb, sandbox=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: ...chapter.ipynb has no 'sslteach_assignment' metadata: it is not a notebook released by ...
    """
    if grader is None:
        grader = Grader(
            reference=reference, instructor=instructor, timeout=timeout, sandbox=sandbox, seed=seed
        )
    return grader.grade(path, name=name)


def submission_names(paths) -> list[str]:
    r"""Name submissions by their paths relative to the folder that holds them all.

    ``grade`` names each report (and each CSV and JSON row) this way, so that submissions
    collected in nbgrader's layout, ``submitted/<student>/<assignment>/<notebook>``, keep
    the student in their name. A single submission is named by its file name. The paths
    are made absolute without resolving symbolic links, and need not exist.

    Parameters
    ----------
    paths : list of str or pathlib.Path
        The submissions, as given on the command line.

    Returns
    -------
    names : list of str
        One name per path, in order, with ``/`` as the separator: the path relative to the
        longest common parent folder of all the paths (the absolute path when they share
        none, as on different Windows drives).

    See Also
    --------
    grade_notebook : Takes the name as ``name``.

    Notes
    -----
    Cost: time linear in the total length of the paths; no file is opened.

    Examples
    --------
    >>> from sslteach.assignments import submission_names
    >>> submission_names(["submitted/alice/hw1/01_spectral_clustering.ipynb",
    ...                   "submitted/bob/hw1/01_spectral_clustering.ipynb"])
    ['alice/hw1/01_spectral_clustering.ipynb', 'bob/hw1/01_spectral_clustering.ipynb']
    >>> submission_names(["submissions/alice.ipynb", "submissions/bob.ipynb"])
    ['alice.ipynb', 'bob.ipynb']
    >>> submission_names(["submitted/alice/hw1/01_spectral_clustering.ipynb"])
    ['01_spectral_clustering.ipynb']
    """
    full = [Path(os.path.abspath(p)) for p in paths]
    if not full:
        return []
    try:
        common = Path(os.path.commonpath([str(p.parent) for p in full]))
    except ValueError:  # no common parent (different drives)
        return [p.as_posix() for p in full]
    return [p.relative_to(common).as_posix() for p in full]


# --------------------------------------------------------------------------------------- output


def format_table(reports: list[GradeReport]) -> str:
    """A plain-text table: one row per exercise and kind, a total per submission."""
    lines = []
    for rep in reports:
        seed = "" if rep.seed is None else f" (hidden tests' seed {rep.seed}: --seed {rep.seed} redraws them)"
        lines.append(f"{rep.submission}: {rep.score:g} / {rep.max_auto:g} autograded points{seed}")
        width = max([len(r.label) for r in rep.exercises] + [8])
        sw = max([len(r.status) for r in rep.exercises] + [8])
        lines.append(f"  {'exercise':<{width}}  {'kind':<6}  {'status':<{sw}}  {'points':>9}  message")
        for r in rep.exercises:
            pts = ("?" if r.points is None else f"{r.points:g}") + f" / {r.max_points:g}"
            row = f"  {r.label:<{width}}  {r.kind:<6}  {r.status:<{sw}}  {pts:>9}  {r.message}"
            lines.append(row.rstrip())
        for p in rep.problems:
            lines.append(f"  note: {p}")
        lines.append("")
    return "\n".join(lines)


CSV_FIELDS = ["submission", "label", "kind", "status", "points", "max_points", "message"]


def write_csv(reports: list[GradeReport], target) -> None:
    with open(target, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        w.writeheader()
        for rep in reports:
            for row in rep.rows():
                w.writerow({k: ("" if row[k] is None else row[k]) for k in CSV_FIELDS})


def write_json(reports: list[GradeReport], target) -> None:
    Path(target).write_text(json.dumps([r.as_dict() for r in reports], indent=1) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    r"""The command line: ``python -m sslteach.assignments {release,grade} ...``.

    ``release NOTEBOOK [...] --out DIR`` runs :func:`release_notebook` on each notebook
    and prints one line per notebook (its number of exercises and the two copies).
    ``grade SUBMISSION [...] [--timeout S] [--reference NB] [--csv F] [--json F]
    [--kernel NAME]`` runs :func:`grade_notebook` on each submission, prints a table (one
    line per exercise and kind, the autograded total :math:`\sum` points / :math:`\sum`
    max_points per submission) and writes :meth:`GradeReport.rows` to the CSV file and
    :meth:`GradeReport.as_dict` to the JSON file. Each submission is named by its path
    relative to the folder that holds them all (:func:`submission_names`): graded from
    nbgrader's ``submitted/`` folder, ``submitted/*/hw1/*.ipynb`` gives rows such as
    ``alice/hw1/01_spectral_clustering.ipynb``. Both commands are described in
    :doc:`/book/instructors`.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name; by default ``sys.argv[1:]``.

    Returns
    -------
    code : int
        The exit status: 0 on success; 1 when a submission could not be read (its row is
        still written, with status ``"unreadable"``); 2 when a notebook breaks the format,
        ``--timeout`` is not positive or ``--reference`` is not a file (the message goes to
        stderr, prefixed ``error:``).

    Raises
    ------
    SystemExit
        From argparse: status 2 on a usage error (an unknown command, a missing
        ``--out``), 0 after ``--help``.

    See Also
    --------
    release_notebook, grade_notebook : What the two commands run.

    Notes
    -----
    Cost: that of :func:`release_notebook` per notebook, or of :func:`grade_notebook` per
    submission (one kernel each, run one after the other).

    Examples
    --------
    From a shell (grading starts one Jupyter kernel per submission)::

        python -m sslteach.assignments release notebooks/01_spectral_clustering.ipynb --out hw1
        python -m sslteach.assignments grade submitted/*/hw1/01_spectral_clustering.ipynb \
            --reference hw1/student/01_spectral_clustering.ipynb --csv grades.csv

    The same release from Python, here of a one-exercise notebook in a temporary folder:

    >>> import contextlib, io, json, tempfile
    >>> from pathlib import Path
    >>> from sslteach.assignments import main
    >>> nb = {"cells": [
    ...     {"cell_type": "markdown", "metadata": {},
    ...      "source": "```{exercise}\n:label: ch9-ex-demo\nExplain why.\n```"},
    ... ]}
    >>> with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()) as out:
    ...     master = Path(tmp) / "ch.ipynb"
    ...     _ = master.write_text(json.dumps(nb))
    ...     code = main(["release", str(master), "--out", str(Path(tmp) / "hw")])
    ...     printed = out.getvalue().replace(tmp, "TMP")
    >>> code
    0
    >>> print(printed.split(",")[0])
    TMP/ch.ipynb: 1 exercises -> TMP/hw/student/ch.ipynb (student)
    """
    args = _parser().parse_args(argv)
    try:
        if args.command == "release":
            _release_all(args.notebooks, args.out)
            return 0
        reports = _grade_all(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(format_table(reports))
    if args.csv:
        write_csv(reports, args.csv)
    if args.json:
        write_json(reports, args.json)
    unreadable = [r.submission for r in reports if not r.readable]
    if unreadable:  # a grading script must be able to tell
        names = ", ".join(unreadable)
        print(f"error: {len(unreadable)} submission(s) could not be read: {names}", file=sys.stderr)
        return 1
    return 0


def _parser() -> argparse.ArgumentParser:
    """The argument parser of :func:`main` (commands ``release`` and ``grade``)."""
    parser = argparse.ArgumentParser(
        prog="python -m sslteach.assignments",
        description="Release student notebooks from the book's chapters and grade submissions.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rel = sub.add_parser("release", help="write student and instructor copies of chapter notebooks")
    rel.add_argument("notebooks", nargs="+", type=Path)
    rel.add_argument(
        "--out", required=True, type=Path, help="output directory (student/ and instructor/ inside)"
    )
    _add_grade_parser(sub)
    return parser


def _add_grade_parser(sub) -> None:
    """Add the ``grade`` command and its options to the subparsers ``sub``."""
    gr = sub.add_parser(
        "grade",
        help="execute submissions and grade their exercises",
        description=(
            "Execute each submission in a fresh kernel and grade every exercise: a check is passed, "
            "failed, error, timeout, not run or missing; a written answer is manual (to grade by hand), "
            "unanswered (empty or the placeholder: 0 points, as in nbgrader) or missing. Submissions are "
            "named by their paths relative to the folder that holds them all, so "
            "submitted/*/hw1/*.ipynb gives alice/hw1/<notebook>. Exit status 1 when a submission "
            "cannot be read (its row says unreadable), 2 on a bad argument."
        ),
    )
    gr.add_argument("submissions", nargs="+", type=Path, help="the submitted notebooks")
    gr.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds per cell before it is interrupted (default {DEFAULT_TIMEOUT:g})",
    )
    gr.add_argument(
        "--reference", type=Path, help="the released student notebook (its checks are authoritative)"
    )
    gr.add_argument("--csv", type=Path, help="write one row per exercise to this CSV file")
    gr.add_argument("--json", type=Path, help="write the full reports to this JSON file")
    gr.add_argument(
        "--kernel", default="python3", help="kept for compatibility (the current Python's kernel is used)"
    )
    gr.add_argument(
        "--instructor",
        type=Path,
        help="the instructor copy written by release (default: ../instructor/<name> beside --reference); "
        "its hidden tests are read from <name>.tests.json beside it",
    )
    gr.add_argument(
        "--jobs",
        type=int,
        default=min(2, os.cpu_count() or 1),
        help="submissions graded at once (default: 2, or 1 on a one-core machine)",
    )
    gr.add_argument("--seed", type=int, help="seed of the hidden tests' inputs (default: a new one each run)")
    gr.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run submissions without bubblewrap (they can then read the master notebooks and use "
        "the network); by default grading refuses to start when the sandbox is unavailable",
    )
    gr.add_argument(
        "--memory",
        type=float,
        default=DEFAULT_MEMORY / 2**30,
        help=f"GiB of address space per submission kernel (default {DEFAULT_MEMORY / 2**30:g})",
    )


def _release_all(notebooks, out) -> None:
    """Release each notebook into ``out`` and print one line per notebook."""
    for nb in notebooks:
        s, i = release_notebook(nb, out)
        n = len(parse_exercises(json.loads(nb.read_text(encoding="utf-8"))))
        print(f"{nb}: {n} exercises -> {s} (student), {i} (instructor)")


def _grade_all(args) -> list[GradeReport]:
    """Check the ``grade`` options and grade every submission (``--jobs`` at once)."""
    if not args.timeout > 0:
        raise ValueError("--timeout must be a positive number of seconds.")
    if args.reference is not None and not args.reference.is_file():
        raise ValueError(f"--reference {args.reference} does not exist or is not a file.")
    if args.jobs < 1:
        raise ValueError("--jobs must be at least 1.")
    grader = Grader(
        reference=args.reference,
        instructor=args.instructor,
        timeout=args.timeout,
        sandbox=not args.no_sandbox,
        seed=args.seed,
        memory=int(args.memory * 2**30),
    )
    pairs = list(zip(args.submissions, submission_names(args.submissions), strict=True))
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return list(pool.map(lambda pn: grader.grade(pn[0], name=pn[1]), pairs))


if __name__ == "__main__":
    sys.exit(main())
