"""The book's exercise format, read from a master notebook.

Every chapter writes its exercises in one fixed format (``STYLE.md`` at the repository root)::

    ```{exercise}                      markdown cell: the statement, label ch<N>-ex-<slug>
    ```{solution-start} <label>        markdown cell: start of the gated solution (+ written solution)
    ... code cells tagged ``solution`` and more markdown ...
    ```{solution-end}                  markdown cell
    code cell tagged ``check``         plain asserts that a correct answer passes
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_EXERCISE_RE = re.compile(r"```\{exercise\}[^\n]*\n(?::[^\n]*\n)*?:label:\s*(ch\d+-ex-[A-Za-z0-9-]+)")
_SOLUTION_START_RE = re.compile(r"^\s*```\{solution-start\}\s*(\S+)\s*\n((?::[^\n]*\n)*)```[ \t]*\n?", re.S)
_SOLUTION_END_RE = re.compile(r"^\s*```\{solution-end\}\s*\n?```")
_STATEMENT_RE = re.compile(r"```\{exercise\}.*?\n```[ \t]*(?:\n|$)", re.S)
_ASKS_RE = re.compile(
    r"\?|\b(show|prove|derive|explain|express|argue|discuss|interpret|justify|say|find|propose|design|"
    r"give|conclude|measure|compare)\b|\bwrite\b(?!\s+CODE)",
    re.I,
)


def source(cell) -> str:
    """A cell's source as one string (nbformat allows a list of lines)."""
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def tags(cell) -> list[str]:
    """A cell's tags."""
    return list(cell.get("metadata", {}).get("tags", []))


@dataclass
class Exercise:
    """One exercise of a master notebook, located by 0-based cell indices.

    ``statement`` is the cell of the ``{exercise}`` directive; ``solution_cells`` every cell
    from ``solution-start`` to ``solution-end``; ``code_cells`` the solution's code cells
    (tag ``solution``); ``written`` the solution's Markdown; ``checks`` the code cells tagged
    ``check`` after it; ``asks`` whether the statement asks a question.

    >>> Exercise("ch9-ex-demo", 0, [1, 2, 3], [2], checks=[4], asks=False).has_written
    False
    >>> Exercise("ch9-ex-open", 5).has_written  # an open exploration
    True
    """

    label: str
    statement: int
    solution_cells: list[int] = field(default_factory=list)
    code_cells: list[int] = field(default_factory=list)
    written: str = ""
    checks: list[int] = field(default_factory=list)
    asks: bool = True

    @property
    def has_written(self) -> bool:
        """True when the exercise gets a written answer, graded by hand (no code, or a question)."""
        return not self.code_cells or self.asks


def parse_exercises(nb) -> list[Exercise]:
    r"""Every exercise of a master notebook, in order; ``ValueError`` naming the cell when the
    format is broken (a solution without its exercise, an untagged code cell inside a solution,
    a ``solution`` tag outside one, an unclosed solution, a label used twice, a cell still tagged
    ``hidden-test``).

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
    >>> ex.label, ex.solution_cells, ex.code_cells, ex.checks, ex.written
    ('ch9-ex-demo', [1, 2, 3], [2], [4], 'It is 2.')
    """
    exercises: list[Exercise] = []
    current: Exercise | None = None
    open_block = False
    for i, cell in enumerate(nb["cells"]):
        src, kind, where = source(cell), cell["cell_type"], f"cell {i + 1} of the notebook"
        if "hidden-test" in tags(cell):
            raise ValueError(f"{where} is tagged 'hidden-test': hidden tests live in a tests file "
                             "(`release --tests FILE`), never in the notebook; move it there.")
        if open_block:
            current.solution_cells.append(i)
            if kind == "markdown" and _SOLUTION_END_RE.match(src):
                open_block = False
            elif kind == "code" and ("check" in tags(cell) or "solution" not in tags(cell)):
                raise ValueError(f"{where} is a code cell inside the solution of {current.label} without "
                                 "the tag 'solution' (or with 'check'): tag it 'solution', or close the "
                                 "solution with a ```{solution-end} cell before it.")
            elif kind == "code":
                current.code_cells.append(i)
            else:
                current.written += "\n\n" + src
            continue
        m = _EXERCISE_RE.search(src) if kind == "markdown" else None
        if m:
            if any(e.label == m.group(1) for e in exercises):
                raise ValueError(f"{where}: exercise label {m.group(1)} is used twice; make labels unique.")
            current = Exercise(m.group(1), i, asks=asks_question(split_statement(src)[1]))
            exercises.append(current)
            continue
        m = _SOLUTION_START_RE.match(src) if kind == "markdown" else None
        if m:
            if current is None or m.group(1) != current.label or current.solution_cells:
                raise ValueError(f"{where}: a solution of {m.group(1)!r} that does not follow its exercise "
                                 "(or a second one); put each solution right after its exercise.")
            open_block, current.written = True, src[m.end():]
            current.solution_cells.append(i)
        elif kind == "code" and "solution" in tags(cell):
            raise ValueError(f"{where} is tagged 'solution' but is not between solution-start and "
                             "solution-end.")
        elif kind == "code" and "check" in tags(cell):
            if current is None:
                raise ValueError(f"{where} is tagged 'check' but no exercise precedes it.")
            current.checks.append(i)
    if open_block:
        raise ValueError(f"the solution of {current.label} has no solution-end; close it with "
                         "```{solution-end}.")
    return exercises


def asks_question(statement: str) -> bool:
    """True when a statement asks a question or for a written argument (outside code and math).

    >>> asks_question("Implement `cut_sweep(K, v)` in $O(m^2)$.")
    False
    >>> asks_question("Show that $L$ is PSD, then write `f(x)`.")
    True
    """
    text = "\n".join(ln for ln in statement.splitlines() if not ln.lstrip().startswith((":", "```")))
    text = re.sub(r"`[^`\n]*`", " CODE ", text)
    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " ", text, flags=re.S)
    return bool(_ASKS_RE.search(text))


def split_statement(src: str) -> tuple[str, str, str]:
    """A Markdown cell as (text before, the exercise directive, text after)."""
    m = _STATEMENT_RE.search(src)
    return src[: m.start()].strip(), src[m.start() : m.end()].rstrip(), src[m.end() :].strip()
