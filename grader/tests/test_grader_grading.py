"""Release and grading end to end, on a small assignment of three exercises built here.

``double(x)`` (a chapter variable, fixed and drawn cases), ``solve2(A, b)`` (``numpy.linalg.solve``
required, ``inv`` forbidden) and ``pairsum(x)`` (a stated O(n) cost), plus an open question. Every
submission is graded without the sandbox (a fresh machine has no bubblewrap); the sandbox's own
guarantees are checked where bwrap runs.
"""

import csv
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from sslteach_grader.grading import Grader
from sslteach_grader.kernel import sandbox_problem
from sslteach_grader.release import release_notebooks
from sslteach_grader.reports import GRADEBOOK_COLUMNS

ROOT = Path(__file__).resolve().parents[2]
SANDBOX = sandbox_problem()
needs_bwrap = pytest.mark.skipif(bool(SANDBOX), reason=f"{SANDBOX} to run the sandbox tests")

TESTS = '''"""Hidden tests of the small assignment."""
import numpy as np

from sslteach_grader import Case

# %% ch9-ex-double
def cases(rng):
    return [Case("double", 1.5, name="x = 1.5"), Case("double", rng.standard_normal(4), name="a vector")]

# %% ch9-ex-solve
forbid = ["numpy.linalg.inv", "numpy.linalg.pinv"]
require = ["numpy.linalg.solve"]

def cases(rng):
    A = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    return [Case("solve2", A, rng.standard_normal(3), name="3 x 3")]

# %% ch9-ex-pairsum
def cases(rng):
    return [Case("pairsum", np.arange(4.0), name="0, 1, 2, 3"), Case("pairsum", rng.standard_normal(9))]

cost = dict(function="pairsum", sizes=(1000, 4000), max_exponent=1.4, timeout=60.0,
            make=lambda n, rng: (rng.standard_normal(n),))
'''
SOLUTIONS = {
    "ch9-ex-double": "def double(x):\n    return SCALE * x",
    "ch9-ex-solve": "def solve2(A, b):\n    return np.linalg.solve(A, b)",
    "ch9-ex-pairsum": "def pairsum(x):\n    return float(x.sum() ** 2 - (x**2).sum()) / 2",
}


def _master():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [md("# A small assignment"), code("import numpy as np"), code("SCALE = 2.0")]
    statements = {
        "ch9-ex-double": "Write `double(x)`, `SCALE` times `x`.",
        "ch9-ex-solve": "Write `solve2(A, b)` with `numpy.linalg.solve`, not an inverse.",
        "ch9-ex-pairsum": "Write `pairsum(x)`, the sum of $x_i x_j$ over $i < j$, in $O(n)$.",
    }
    for label, text in statements.items():
        cells.append(md(f"```{{exercise}}\n:label: {label}\n{text}\n```"))
        cells.append(md(f"```{{solution-start}} {label}\n:class: dropdown\n```"))
        cells.append(code(SOLUTIONS[label]))
        cells[-1].metadata["tags"] = ["solution"]
        cells.append(md("```{solution-end}\n```"))
        fn = SOLUTIONS[label].split("(")[0][4:]
        cells.append(code(f'assert callable({fn}), "define {fn}"'))
        cells[-1].metadata["tags"] = ["check"]
    cells.append(md("```{exercise}\n:label: ch9-ex-open\nWhy is the sum symmetric?\n```"))
    nb = nbformat.v4.new_notebook(cells=cells)
    for i, c in enumerate(nb.cells):
        c["id"] = f"c{i}"
    return nb


@pytest.fixture(scope="module")
def hw(tmp_path_factory):
    root = tmp_path_factory.mktemp("hw")
    nbformat.write(_master(), str(root / "small.ipynb"))
    (root / "small_tests.py").write_text(TESTS)
    release_notebooks([root / "small.ipynb"], root / "out", tests=[root / "small_tests.py"], seed=11)
    return root


def _submit(hw, student, answers=None, edit=None, added=()):
    nb = nbformat.read(str(hw / "out" / "student" / "small.ipynb"), as_version=4)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if answers and gid.endswith("-code") and gid[:-5] in answers:
            cell.source = answers[gid[:-5]]
    if edit:
        edit(nb)
    for k, src in enumerate(added):
        nb.cells.insert(3 + k, nbformat.v4.new_code_cell(src))
    target = hw / "submitted" / student / "hw9" / "small.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(target))
    return target


@pytest.fixture(scope="module")
def grader(hw):
    return Grader(hw / "out" / "student" / "small.ipynb", sandbox=False, timeout=20)


def _auto(report):
    return {r.label: r for r in report.exercises if r.kind == "auto"}


def test_the_instructor_copy_earns_everything_and_the_student_copy_nothing(hw, grader):
    full = grader.grade(hw / "out" / "instructor" / "small.ipynb")
    assert full.score == full.max_auto == 3, [(r.label, r.message) for r in full.exercises]
    empty = grader.grade(hw / "out" / "student" / "small.ipynb")
    assert empty.score == 0 and all(r.status == "unanswered" for r in _auto(empty).values())
    assert {r.status for r in empty.exercises if r.kind == "manual"} == {"unanswered"}
    assert full.seed == empty.seed == 11  # the seed recorded at release


def test_a_wrong_value_a_ruled_out_name_and_a_slow_answer_each_fail_with_a_message(hw, grader):
    sub = _submit(
        hw,
        "mallory",
        {
            "ch9-ex-double": "def double(x):\n    return SCALE + x",
            "ch9-ex-solve": "from numpy.linalg import inv as _i\ndef solve2(A, b):\n    return _i(A) @ b",
            "ch9-ex-pairsum": "def pairsum(x):\n"
            "    return sum(x[i] * x[j] for i in range(len(x)) for j in range(i))",
        },
    )
    report = _auto(grader.grade(sub))
    assert report["ch9-ex-double"].message.startswith("x = 1.5: the value is 3.5, which is wrong")
    assert "numpy.linalg.inv" in report["ch9-ex-solve"].message
    slow = report["ch9-ex-pairsum"]
    reference = grader._refs[grader.seed, "cost", "ch9-ex-pairsum"][1]
    assert slow.status == "failed" and "too slow" in slow.message, (slow.status, slow.message, reference)


def test_answers_in_other_styles_pass_helpers_defined_by_exec_included(hw, grader):
    sub = _submit(
        hw,
        "alice",
        {
            "ch9-ex-double": "def double(x):\n    return _times(x)",
            "ch9-ex-solve": "import numpy.linalg as la\ndef solve2(A, b):\n    return la.solve(A, b)",
            "ch9-ex-pairsum": "def pairsum(x):\n    s = q = 0.0\n    for v in x:\n"
            "        s, q = s + v, q + v * v\n"
            "    return (s * s - q) / 2",
        },
        added=[
            'exec("def _times(x):\\n    return SCALE * x", globals())',
            "for k, v in {'_unused': 1}.items():\n    globals()[k] = v",
        ],
    )
    report = grader.grade(sub)
    assert report.score == 3, [(r.label, r.message) for r in report.exercises]


def test_locked_cells_edited_or_copied_score_zero_and_chapter_cells_run_as_released(hw, grader):
    def edit(nb):
        by = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in nb.cells}
        by["ch9-ex-double-check"].source = "pass"
        copy = nbformat.from_dict(json.loads(json.dumps(by["ch9-ex-solve-check"])))
        nb.cells.append(copy)
        by["given-2"].source = "SCALE = 3.0"  # the chapter's variable, changed

    sub = _submit(hw, "trudy", SOLUTIONS, edit=edit)
    report = grader.grade(sub)
    auto = _auto(report)
    assert auto["ch9-ex-double"].status == "tampered" and "was edited" in auto["ch9-ex-double"].message
    assert auto["ch9-ex-solve"].status == "tampered" and "appears 2 times" in auto["ch9-ex-solve"].message
    assert auto["ch9-ex-pairsum"].status == "passed"
    assert any("given-2 was edited; the released cell ran instead" in p for p in report.problems)


def test_a_looping_cell_is_interrupted_and_a_crash_is_reported(hw):
    grader = Grader(hw / "out" / "student" / "small.ipynb", sandbox=False, timeout=3)
    sub = _submit(
        hw,
        "eve",
        {
            "ch9-ex-double": "while True:\n    pass",
            "ch9-ex-solve": SOLUTIONS["ch9-ex-solve"],
            "ch9-ex-pairsum": "import os\nos._exit(1)",
        },
    )
    auto = _auto(grader.grade(sub))
    assert "interrupted" in auto["ch9-ex-double"].message
    assert all(r.points == 0 and "died" in r.message for r in auto.values() if r.label != "ch9-ex-double")


def test_many_seeds_in_one_run_and_a_seed_given_at_grading(hw, grader):
    reports = grader.grade_seeds(hw / "out" / "instructor" / "small.ipynb", range(5))
    assert [r.seed for r in reports] == list(range(5)) and all(r.score == 3 for r in reports)
    again = Grader(hw / "out" / "student" / "small.ipynb", sandbox=False, seed=4)
    assert (
        again.seed == 4
        and again.spec(4, "ch9-ex-double").cases[1]["args"][0].tolist()
        == grader.spec(4, "ch9-ex-double").cases[1]["args"][0].tolist()
    )


def canvas_import(path):
    """Read a gradebook as Canvas's grade import does: the student columns (one of Student, ID or SIS
    User ID, with SIS Login ID and Section), then one column of numbers (or blanks) per assignment."""
    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], rows[1:]
    assert {"SIS Login ID", "Section"} <= set(header) and {"Student", "ID", "SIS User ID"} & set(header)
    assignments = [h for h in header if h not in GRADEBOOK_COLUMNS]
    grades = {}
    for row in body:
        assert len(row) == len(header)
        record = dict(zip(header, row, strict=True))
        assert record["SIS Login ID"], "a row without a student"
        grades[record["SIS Login ID"]] = {a: float(record[a]) if record[a] else None for a in assignments}
    return grades


def test_the_command_writes_a_gradebook_canvas_reads_feedback_and_a_regrade_keeps_the_name(hw, tmp_path):
    bob = _submit(hw, "bob", SOLUTIONS)
    carol = _submit(hw, "carol", {"ch9-ex-double": SOLUTIONS["ch9-ex-double"]})
    broken = hw / "submitted" / "dave" / "hw9" / "small.ipynb"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("{not a notebook")
    book, feedback = tmp_path / "grades.csv", tmp_path / "feedback"
    cmd = [
        sys.executable,
        "-m",
        "sslteach.assignments",
        "grade",
        "--reference",
        str(hw / "out/student/small.ipynb"),
        "--no-sandbox",
        "--gradebook",
        str(book),
        "--feedback",
        str(feedback),
        "--assignment",
        "hw9",
        "--csv",
        str(tmp_path / "details.csv"),
        "--timeout",
        "60",
    ]
    res = subprocess.run([*cmd, str(bob), str(carol), str(broken)], capture_output=True, text=True)
    assert res.returncode == 1 and "could not be read" in res.stderr, res.stderr[-2000:]
    assert canvas_import(book) == {"bob": {"hw9": 3.0}, "carol": {"hw9": 1.0}, "dave": {"hw9": 0.0}}
    text = (feedback / "carol.md").read_text()
    assert "1 of 3 points" in text and "| ch9-ex-solve (code) | unanswered | 0 of 1 |" in text
    details = list(csv.DictReader(open(tmp_path / "details.csv")))
    assert {d["seed"] for d in details} == {"11"} and {d["student"] for d in details} == {
        "bob",
        "carol",
        "dave",
    }
    # carol resubmits; her regrade, alone, updates her row and keeps everyone else's
    _submit(hw, "carol", SOLUTIONS)
    res = subprocess.run([*cmd, str(carol)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    assert canvas_import(book) == {"bob": {"hw9": 3.0}, "carol": {"hw9": 3.0}, "dave": {"hw9": 0.0}}


def test_bad_input_gets_a_clear_error(hw, tmp_path):
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "sslteach_grader", *map(str, args)], capture_output=True, text=True
        )

    res = run(
        "grade", hw / "out/instructor/small.ipynb", "--reference", tmp_path / "none.ipynb", "--no-sandbox",
        "--student", "bob",
    )
    assert res.returncode == 2 and "does not exist: pass the student copy" in res.stderr
    res = run(
        "grade",
        hw / "out/instructor/small.ipynb",
        "--reference",
        hw / "out/student/small.ipynb",
        "--no-sandbox",
        "--jobs",
        "0",
    )
    assert res.returncode == 2 and "--jobs at least 1" in res.stderr
    ref = ("--reference", hw / "out/student/small.ipynb", "--no-sandbox")
    res = run("grade", hw / "out/instructor/small.ipynb", *ref)  # whose? not in nbgrader's layout
    assert res.returncode == 2 and "pass --student NAME" in res.stderr
    subs = [tmp_path / "carol" / "one.ipynb", tmp_path / "carol" / "two.ipynb", tmp_path / "dave" / "x.ipynb"]
    for sub in subs:
        sub.parent.mkdir(exist_ok=True)
        sub.write_bytes((hw / "out/student/small.ipynb").read_bytes())
    res = run("grade", *subs, *ref)
    assert res.returncode == 2 and "several submissions would belong to carol" in res.stderr
    res = run("release", hw / "small.ipynb", "--tests", hw / "small_tests.py", "--out", hw / "out")
    assert res.returncode == 2 and "pass --force to overwrite them" in res.stderr


@needs_bwrap
def test_in_the_sandbox_a_submission_reads_no_instructor_file_and_has_no_network(hw):
    grader = Grader(hw / "out" / "student" / "small.ipynb", sandbox=True, timeout=60)
    probe = (
        "import json, pathlib, socket, sslteach\n"
        "def _readable(p):\n    try:\n        pathlib.Path(p).read_bytes()\n        return True\n"
        "    except OSError:\n        return False\n"
        "def _online():\n    try:\n        socket.create_connection(('1.1.1.1', 53), timeout=2)\n"
        "        return True\n"
        "    except OSError:\n        return False\n"
        f"SEEN = [_readable({str(hw / 'out/instructor/small.ipynb')!r}),\n"
        f"        _readable({str(hw / 'small_tests.py')!r}),\n"
        f"        _readable({str(ROOT / 'notebooks/00_foundations.ipynb')!r}), _online()]\n"
        "from sslteach.teach import scorecard\nRESULTS = bool(scorecard.load_results('comparison'))\n"
        "def double(x):\n    assert SEEN == [False] * 4 and RESULTS, SEEN\n    return SCALE * x"
    )
    report = _auto(grader.grade(_submit(hw, "oscar", {**SOLUTIONS, "ch9-ex-double": probe})))
    assert report["ch9-ex-double"].status == "passed", report["ch9-ex-double"].message


def test_nbgrader_autograde_agrees_on_the_instructor_copy_and_the_untouched_one(hw, grader, tmp_path):
    """The copies also grade through nbgrader (book/grading.md, "Using nbgrader instead"): its
    autograde, with the repository's nbgrader_config.py, gives the instructor copy every point of
    the check cells and the untouched student copy none, as our grader does with its tests."""
    import os
    import shutil

    from nbgrader.api import Gradebook

    (tmp_path / "nbgrader_config.py").write_text(
        'c = get_config()\nc.CourseDirectory.course_id = "sslteach"\n'
        + (ROOT / "nbgrader_config.py").read_text()
    )
    (tmp_path / "source" / "hw9").mkdir(parents=True)
    shutil.copy(hw / "out" / "instructor" / "small.ipynb", tmp_path / "source" / "hw9")
    for student, copy in (("alice", "instructor"), ("bob", "student")):
        (tmp_path / "submitted" / student / "hw9").mkdir(parents=True)
        shutil.copy(hw / "out" / copy / "small.ipynb", tmp_path / "submitted" / student / "hw9")
    nbgrader = Path(sys.executable).with_name("nbgrader")
    env = {**os.environ, "PATH": os.pathsep.join([str(nbgrader.parent), os.environ.get("PATH", "")])}
    for args in (["generate_assignment", "hw9", "--force"], ["autograde", "hw9", "--create", "--force"]):
        res = subprocess.run([str(nbgrader), *args], cwd=tmp_path, capture_output=True, text=True,
                             timeout=600, env=env)
        assert res.returncode == 0, res.stderr[-3000:]
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gb:
        scores = {s: gb.find_submission("hw9", s).score for s in ("alice", "bob")}
        possible = gb.find_assignment("hw9").max_score
    ours = {s: grader.grade(hw / "out" / c / "small.ipynb").score for s, c in (("alice", "instructor"),
                                                                               ("bob", "student"))}
    # 4 points: the three check cells and the open question, graded by hand in both
    assert possible == 4 and scores == {"alice": 3, "bob": 0} and ours == scores, (scores, ours, possible)
