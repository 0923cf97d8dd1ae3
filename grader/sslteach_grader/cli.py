"""The command line: ``python -m sslteach_grader {release,grade} ...`` (``sslteach-grader`` too)."""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .grading import DEFAULT_MEMORY, Grader
from .release import DEFAULT_TIMEOUT, release_notebooks
from .reports import (
    format_table,
    in_layout,
    student_of,
    write_details,
    write_feedback,
    write_gradebook,
    write_json,
)


def _parser(prog) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Release assignments from the book's notebooks "
                                     "and grade the submissions.")
    sub = parser.add_subparsers(dest="command", required=True)
    rel = sub.add_parser("release", help="write student and instructor copies and the hidden tests")
    rel.add_argument("notebooks", nargs="+", type=Path)
    rel.add_argument("--out", required=True, type=Path, help="output folder (student/, instructor/ inside)")
    rel.add_argument("--tests", action="append", type=Path, default=[],
                     help="a file of hidden tests (default: the book's own, for the book's notebooks)")
    rel.add_argument("--seed", type=int, help="seed of the hidden tests' inputs (default: a new one)")
    rel.add_argument("--force", action="store_true", help="overwrite earlier copies")
    gr = sub.add_parser("grade", help="grade submissions of one released notebook")
    gr.add_argument("submissions", nargs="+", type=Path)
    gr.add_argument("--reference", required=True, type=Path, help="the student copy `release` wrote")
    gr.add_argument("--instructor", type=Path, help="the instructor copy (default: ../instructor/<name>)")
    gr.add_argument("--tests", type=Path, help="its hidden tests (default: <stem>.tests.py beside it)")
    gr.add_argument("--seed", type=int, help="override the seed recorded at release")
    gr.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per cell (default 300)")
    gr.add_argument("--memory", type=float, default=DEFAULT_MEMORY / 2**30, help="GiB per kernel (default 4)")
    gr.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="submissions at once")
    gr.add_argument("--no-sandbox", action="store_true", help="run submissions without bubblewrap")
    gr.add_argument("--gradebook", type=Path, help="write or update this gradebook CSV (one row per student)")
    gr.add_argument("--feedback", type=Path, help="write a feedback file per student into this folder")
    gr.add_argument("--csv", type=Path, help="write one row per exercise to this CSV file")
    gr.add_argument("--json", type=Path, help="write the full reports to this JSON file")
    gr.add_argument("--assignment", help="the gradebook column (default: the notebook's name without .ipynb)")
    gr.add_argument("--student", help="the student, when grading one submission outside nbgrader's layout")
    return parser


def _names(paths) -> list[str]:
    """Each path relative to the folder holding them all (one path: its file name)."""
    full = [Path(os.path.abspath(p)) for p in paths]
    common = Path(os.path.commonpath([str(p.parent) for p in full])) if full else Path()
    return [p.relative_to(common).as_posix() for p in full]


def _grade(args) -> list:
    if not args.timeout > 0 or args.jobs < 1 or args.memory <= 0:
        raise ValueError("--timeout and --memory must be positive and --jobs at least 1.")
    if args.student and len(args.submissions) > 1:
        raise ValueError("--student names the student of one submission: grade one at a time.")
    named = list(zip(args.submissions, _names(args.submissions), strict=True))
    jobs = [(p, n, args.student or student_of(p, n)) for p, n in named]
    if len(jobs) == 1 and not args.student and not in_layout(jobs[0][0]):
        raise ValueError(f"whose is {jobs[0][0]}? Put it in nbgrader's layout, "
                         "submitted/<student>/<assignment>/<notebook>, or pass --student NAME.")
    if len({s for _, _, s in jobs}) < len(jobs):
        twice = sorted({s for _, _, s in jobs if [j[2] for j in jobs].count(s) > 1})
        raise ValueError(f"several submissions would belong to {', '.join(twice)}: use nbgrader's layout, "
                         "submitted/<student>/<assignment>/<notebook>, one folder per student.")
    grader = Grader(args.reference, instructor=args.instructor, tests=args.tests, seed=args.seed,
                    timeout=args.timeout, sandbox=not args.no_sandbox, memory=int(args.memory * 2**30))
    grader.reference([grader.seed])
    with ThreadPoolExecutor(args.jobs) as pool:
        return list(pool.map(lambda job: grader.grade(*job), jobs))


def main(argv=None, prog="python -m sslteach_grader") -> int:
    """Run the command; exit status 0, 1 when a submission could not be read, 2 on an error."""
    args = _parser(prog).parse_args(argv)
    try:
        if args.command == "release":
            written, skipped = release_notebooks(args.notebooks, args.out, tests=args.tests, seed=args.seed,
                                                 force=args.force)
            for student, instructor, tests in written:
                print(f"released {student.name}: {student} (hand out), {instructor} and {tests} (keep)")
            if skipped:
                print("no exercises, not released: " + ", ".join(p.name for p in skipped))
            return 0
        reports = _grade(args)
        assignment = args.assignment or args.reference.stem
        print(format_table(reports))
        for option, write in ((args.gradebook, write_gradebook), (args.feedback, write_feedback)):
            if option:
                write(reports, option, assignment)
        for option, write in ((args.csv, write_details), (args.json, write_json)):
            if option:
                write(reports, option)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unreadable = [r.submission for r in reports if not r.readable]
    if unreadable:
        print(f"error: {len(unreadable)} submission(s) could not be read: {', '.join(unreadable)}",
              file=sys.stderr)
    return 1 if unreadable else 0
