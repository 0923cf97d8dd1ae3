"""What grading produces: a report per submission, and the files an instructor imports or sends.

* the gradebook (:func:`write_gradebook`): one row per student, one numeric column per assignment,
  with the columns Canvas's grade import requires (``Student``, ``ID``, ``SIS User ID``,
  ``SIS Login ID``, ``Section``); Moodle imports the same file, mapping ``SIS Login ID`` to the
  username;
* a feedback file per student (:func:`write_feedback`): per exercise, passed or failed, the
  points and the message;
* the details (:func:`write_details`, :func:`write_json`): one row per exercise and kind.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

#: The columns before the assignments' in the gradebook (Canvas's import needs them).
GRADEBOOK_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
DETAIL_COLUMNS = ["student", "submission", "seed", "label", "kind", "status", "points", "max_points",
                  "message"]


@dataclass
class ExerciseResult:
    """One exercise's grade of one kind: ``"auto"`` (its hidden test: passed, failed, timeout or
    tampered) or ``"manual"`` (its written answer: manual, unanswered or missing; ``points`` None
    until graded by hand)."""

    label: str
    kind: str
    status: str
    points: float | None
    max_points: float
    message: str = ""


@dataclass
class Report:
    """Everything grading found in one submission.

    >>> r = Report("alice/hw1/ch.ipynb", "alice", [ExerciseResult("ch9-ex-a", "auto", "passed", 1.0, 1.0),
    ...            ExerciseResult("ch9-ex-b", "auto", "failed", 0.0, 1.0, "n = 3: wrong")], [], seed=7)
    >>> r.score, r.max_auto
    (1.0, 2.0)
    """

    submission: str
    student: str
    exercises: list
    problems: list
    readable: bool = True
    seed: int | None = None

    @property
    def score(self) -> float:
        """The autograded points earned."""
        return sum(r.points or 0.0 for r in self.exercises if r.kind == "auto")

    @property
    def max_auto(self) -> float:
        """The autograded points available."""
        return sum(r.max_points for r in self.exercises if r.kind == "auto")

    def rows(self) -> list[dict]:
        """One dict per result (an unreadable submission: one row saying why, 0 points)."""
        head = {"student": self.student, "submission": self.submission, "seed": self.seed}
        if not self.readable:
            return [{**head, "label": "", "kind": "", "status": "unreadable", "points": 0.0,
                     "max_points": 0.0,
                     "message": "; ".join(self.problems)}]
        return [{**head, **asdict(r)} for r in self.exercises]

    def as_dict(self) -> dict:
        return {**asdict(self), "score": self.score, "max_autograded": self.max_auto}


def in_layout(path) -> bool:
    """True when ``path`` is ``.../submitted/<student>/<assignment>/<notebook>`` (or ``autograded``)."""
    parts = Path(path).parts
    return len(parts) >= 4 and parts[-4] in ("submitted", "autograded")


def student_of(path, name) -> str:
    """The student a submission belongs to: ``<student>`` in nbgrader's
    ``submitted/<student>/<assignment>/<notebook>``, else the first folder of its name relative to
    the folder holding all the submissions graded together, else its file's stem.

    >>> student_of("course/submitted/alice/hw1/ch1.ipynb", "ch1.ipynb")
    'alice'
    >>> student_of("subs/bob.ipynb", "bob.ipynb"), student_of("x/carol/ch1.ipynb", "carol/ch1.ipynb")
    ('bob', 'carol')
    """
    if in_layout(path):
        return Path(path).parts[-3]
    first = Path(name).parts
    return first[0] if len(first) > 1 else Path(name).stem


def format_table(reports) -> str:
    """A plain-text table: a line per exercise and kind, a total per submission."""
    lines = []
    for rep in reports:
        lines.append(f"{rep.submission} ({rep.student}): {rep.score:g} / {rep.max_auto:g} autograded points"
                     + (f", seed {rep.seed}" if rep.seed is not None else ""))
        for r in rep.exercises:
            pts = ("?" if r.points is None else f"{r.points:g}") + f" / {r.max_points:g}"
            lines.append(f"  {r.label:<28} {r.kind:<6} {r.status:<10} {pts:>9}  {r.message}".rstrip())
        lines += [f"  note: {p}" for p in rep.problems] + [""]
    return "\n".join(lines)


def write_details(reports, target) -> None:
    """One CSV row per exercise and kind of every report."""
    with open(target, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=DETAIL_COLUMNS)
        w.writeheader()
        for rep in reports:
            w.writerows({k: "" if row[k] is None else row[k] for k in DETAIL_COLUMNS} for row in rep.rows())


def write_json(reports, target) -> None:
    Path(target).write_text(json.dumps([r.as_dict() for r in reports], indent=1) + "\n", encoding="utf-8")


def write_gradebook(reports, target, assignment: str) -> None:
    """Write (or update) the gradebook ``target``: the autograded points of ``assignment`` in its
    column, one row per student (found by ``SIS Login ID``); other students and assignments kept."""
    target = Path(target)
    columns, rows = list(GRADEBOOK_COLUMNS), {}
    if target.is_file():
        with open(target, newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            if not set(GRADEBOOK_COLUMNS) <= set(reader.fieldnames or ()):
                raise ValueError(f"{target} is not a gradebook this grader wrote: choose another "
                                 "--gradebook file.")
            columns = list(reader.fieldnames)
            rows = {row["SIS Login ID"]: row for row in reader}
    columns += [assignment] if assignment not in columns else []
    for rep in reports:
        row = rows.setdefault(rep.student, {c: "" for c in columns})
        row.update({"Student": rep.student, "SIS Login ID": rep.student, assignment: f"{rep.score:g}"})
    with open(target, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=columns, restval="")
        w.writeheader()
        w.writerows(rows[k] for k in sorted(rows))


def write_feedback(reports, folder, assignment: str) -> list[Path]:
    """A Markdown file per student, ``<folder>/<student>.md``: the student's results."""
    folder, out = Path(folder), []
    folder.mkdir(parents=True, exist_ok=True)
    for rep in reports:
        lines = [f"# {assignment}: feedback for {rep.student}", "",
                 f"Autograded: {rep.score:g} of {rep.max_auto:g} points. "
                 "Written answers are graded by hand.", "",
                 "| exercise | result | points | message |", "|---|---|---|---|"]
        for r in rep.exercises:
            pts = "by hand" if r.points is None else f"{r.points:g} of {r.max_points:g}"
            lines.append(f"| {r.label} ({'code' if r.kind == 'auto' else 'written'}) | {r.status} | {pts} | "
                         + r.message.replace("|", "\\|") + " |")
        lines += ["", *(f"- {p}" for p in rep.problems)] if rep.problems else []
        path = folder / (re.sub(r"[^A-Za-z0-9._@-]+", "_", rep.student) + ".md")
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(path)
    return out
