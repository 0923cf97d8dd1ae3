"""Grading time of one chapter: seconds per submission and for a class of 100.

    python benchmarks/bench_grade.py [--chapter 01_spectral_clustering] [--n 20] [--jobs 2]
                                     [--no-sandbox]
    python benchmarks/bench_grade.py --execute [--chapter 00_foundations --chapter ...]

Releases the chapter into a temporary folder, makes ``--n`` submissions (copies of the
instructor copy: every answer right, so every hidden test and cost test runs; an untouched
copy needs no kernel and takes no time), and grades
them all with one :class:`sslteach_grader.grading.Grader` (what ``python -m
sslteach.assignments grade --jobs J`` runs): the reference values once, then the
submissions ``--jobs`` at a time. Prints the time of the reference step, the median and
largest seconds per submission (wall time of its own grading, kernel start to report),
the wall time of the whole run, and the time for 100 submissions: measured when ``--n``
is at least 100, else the run's time per submission times 100 (a projection, said so).
Kernels get one BLAS thread each (``OPENBLAS_NUM_THREADS=1``), as in ``grade``.

``--execute`` times what ``nbgrader autograde`` runs instead: each chapter's released
instructor copy executed whole, cell by cell, in a fresh kernel with one BLAS thread
(every chapter when no ``--chapter`` is given); it prints the whole chapter's seconds and
its slowest cell, named by its ``grade_id`` and first line.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sslteach_grader.grading import Grader
from sslteach_grader.kernel import Kernel
from sslteach_grader.release import release_notebooks

ROOT = Path(__file__).resolve().parents[1]


CHAPTERS = (
    "00_foundations",
    "01_spectral_clustering",
    "02_cluster_kernels",
    "03_spectral_kernel_learning",
    "04_semi_supervised_ksc",
    "05_comparison",
)


def execute_chapters(chapters) -> None:
    """Execute each chapter's released instructor copy whole; print its time and slowest cell."""
    import nbformat
    from nbclient import NotebookClient

    os.environ["OPENBLAS_NUM_THREADS"] = "1"  # the kernels inherit it
    print("chapter | whole instructor copy | slowest cell")
    for chapter in chapters:
        tmp = Path(tempfile.mkdtemp(prefix="bench-exec-"))
        try:
            instructor = release_notebooks([ROOT / "notebooks" / f"{chapter}.ipynb"], tmp / "hw")[0][0][1]
            nb = nbformat.read(str(instructor), as_version=4)
            client = NotebookClient(
                nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp)}}
            )
            times = []
            start = time.perf_counter()
            with client.setup_kernel():
                for i, cell in enumerate(nb.cells):
                    if cell.cell_type != "code":
                        continue
                    t0 = time.perf_counter()
                    client.execute_cell(cell, i)
                    gid = cell.metadata.get("nbgrader", {}).get("grade_id") or "no grade_id"
                    first = next((ln for ln in cell.source.split("\n") if ln.strip()), "")
                    times.append((time.perf_counter() - t0, f"{gid}: {first.strip()[:50]}"))
            whole = time.perf_counter() - start
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        slow, name = max(times)
        print(f"{chapter} | {whole:.0f} s | {slow:.1f} s ({name})", flush=True)


_KERNEL_CPU = []  # each kernel's CPU seconds, read (from outside, as the cost test does) before it closes


def _count_kernels() -> None:
    close = Kernel.close

    def counted(self):
        _KERNEL_CPU.append(self.cpu_seconds())
        close(self)

    Kernel.close = counted


def _cpu() -> float:
    """CPU seconds of this process and of every kernel closed so far."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + sum(_KERNEL_CPU)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--execute", action="store_true", help="time the released instructor copies executed whole"
    )
    ap.add_argument("--chapter", action="append", help="a chapter's notebook name (repeatable)")
    ap.add_argument("--n", type=int, default=20, help="submissions to grade (half right, half untouched)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-sandbox", action="store_true")
    args = ap.parse_args(argv)
    if args.execute:
        execute_chapters(args.chapter or CHAPTERS)
        return 0
    args.chapter = (args.chapter or ["01_spectral_clustering"])[-1]
    if args.n < 2 or args.jobs < 1:
        raise SystemExit("--n must be at least 2 and --jobs at least 1")
    tmp = Path(tempfile.mkdtemp(prefix="bench-grade-"))
    try:
        [(student, instructor, _)], _ = release_notebooks(
            [ROOT / "notebooks" / f"{args.chapter}.ipynb"], tmp / "hw"
        )
        subs = []
        for k in range(args.n):
            source = instructor
            target = tmp / "submitted" / f"s{k:03d}" / source.name
            target.parent.mkdir(parents=True)
            shutil.copy(source, target)
            subs.append(target)
        _count_kernels()
        grader = Grader(student, instructor=instructor, sandbox=not args.no_sandbox, seed=0)
        t0 = time.perf_counter()
        grader.reference([grader.seed])
        t_ref = time.perf_counter() - t0

        def one(path):
            start = time.perf_counter()
            report = grader.grade(path, name=path.parent.name)
            return time.perf_counter() - start, report

        start, cpu0 = time.perf_counter(), _cpu()
        with ThreadPoolExecutor(args.jobs) as pool:
            done = list(pool.map(one, subs))
        wall, cpu = time.perf_counter() - start, _cpu() - cpu0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    secs = [d for d, _ in done]
    right = [r.score == r.max_auto for _, r in done]
    print(f"chapter {args.chapter}: {args.n} submissions, --jobs {args.jobs}, sandbox {not args.no_sandbox}")
    print(f"  reference values (once per run): {t_ref:.1f} s")
    print(f"  per submission: median {statistics.median(secs):.2f} s, largest {max(secs):.2f} s")
    print(f"  whole run: {wall:.1f} s ({wall / args.n:.2f} s per submission)")
    print(f"  CPU time (the grader and its kernels): {cpu / args.n:.2f} s per submission")
    label = "measured" if args.n >= 100 else "projected from this run"
    print(f"  100 submissions: {t_ref + wall / args.n * 100:.0f} s ({label}, reference step included)")
    print(f"  grades: instructor copies with full marks {sum(right)}/{len(right)}")
    for k, (_, r) in enumerate(done):  # say why a copy did not get the grade it should
        for row in r.rows():
            if row["kind"] == "auto" and row["status"] != "passed":
                print(f"  submission {k}: {row['label']} {row['status']}: {row['message']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
