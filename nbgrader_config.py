"""nbgrader settings for the book's chapters (book/grading.md, "Using nbgrader instead").

Append this file to the nbgrader_config.py of your course, after ``nbgrader quickstart``:

    nbgrader quickstart mycourse
    cat /path/to/this/repository/nbgrader_config.py >> mycourse/nbgrader_config.py

Later settings win, so these replace quickstart's. grader/tests/test_grader_book.py runs nbgrader's
generate_assignment with this file and checks that the literals below are the ones of
sslteach_grader.release (CODE_STUB, WRITTEN_STUB, DEFAULT_TIMEOUT).
"""

c = get_config()  # noqa: F821 (nbgrader defines get_config when it reads this file)

# --- Executing submissions (nbgrader autograde) -------------------------------------------
# nbgrader's default, 30 s per cell, interrupts cells of chapters 2 to 4, and every later
# cell that needs the interrupted one's variables then fails too. Their slowest cells take
# up to 61 s on a loaded 2-core machine with one BLAS thread per kernel (113 s with
# OpenBLAS's default threads); 300 s is five times the first. `python -m sslteach.assignments
# grade` uses the same default.
c.Execute.timeout = 300
# A cell past the limit is interrupted (KeyboardInterrupt) and the next cell runs; the
# interrupted cell's answer scores 0.
c.Execute.interrupt_on_timeout = True
_timed_out = "the cell ran past Execute.timeout (nbgrader_config.py) and was interrupted"
c.Execute.error_on_timeout = {
    "ename": "CellTimeoutError",
    "evalue": _timed_out,
    "traceback": [f"CellTimeoutError: {_timed_out}"],
}
# nbgrader raises when a cell's last outputs arrive more than iopub_timeout (4 s) after its
# reply, which on a loaded machine fails the whole notebook; wait longer, then go on (the
# cell's error, if any, is still taken from the kernel's reply).
c.Execute.iopub_timeout = 60
c.Execute.raise_on_iopub_timeout = False

# On a grader shared by several users or running several submissions at once, give each
# kernel one BLAS thread: start nbgrader with OPENBLAS_NUM_THREADS=1 in the environment
# (kernels inherit it), or uncomment this line. Results do not change; with more threads
# than free cores, OpenBLAS's threads wait on each other and cells run many times slower.
# import os; os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# --- Student copies (nbgrader generate_assignment) ----------------------------------------
# Our instructor copy puts the hint comments ("# The check cell below uses: cut_sweep(K, v)")
# above ### BEGIN SOLUTION, where nbgrader keeps them; these stubs replace the rest exactly as
# `python -m sslteach.assignments release` does, so nbgrader's student copy is ours.
c.ClearSolutions.code_stub = {"python": 'raise NotImplementedError("write your solution in this cell")'}
c.ClearSolutions.text_stub = (
    "**Your answer.** Write your derivation or explanation here (Markdown and LaTeX)."
)
# quickstart puts its example header notebook in front of every student notebook; the
# chapters start with their own setup cell. Delete this line to keep a header of your own.
c.IncludeHeaderFooter.header = ""
