"""The book's chapters released as assignments: no solution and no hidden test leaks, the copies are
nbgrader's format, and a release checks every input before it writes anything."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from sslteach_grader.exercises import parse_exercises, source
from sslteach_grader.release import CODE_STUB, DEFAULT_TIMEOUT, GRADING_RULES, WRITTEN_STUB, release_notebooks

ROOT = Path(__file__).resolve().parents[2]
METHOD_PAGES = [
    "00_foundations",
    "01_spectral_clustering",
    "02_cluster_kernels",
    "03_spectral_kernel_learning",
    "04_semi_supervised_ksc",
    "05_comparison",
]


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    out = tmp_path_factory.mktemp("released")
    written, skipped = release_notebooks(sorted((ROOT / "notebooks").glob("0[0-5]*.ipynb")), out, seed=1)
    return out, written, skipped


def test_every_method_page_is_released_and_the_others_are_named(released):
    out, written, skipped = released
    assert [s.stem for s, _, _ in written] == METHOD_PAGES
    assert {p.stem for p in skipped} == {
        "01_spectral_clustering_reproduction",
        "02_cluster_kernels_reproduction",
        "03_spectral_kernel_learning_reproduction",
        "04_semi_supervised_ksc_reproduction",
        "05_scorecard",
    }
    assert all(t.is_file() for _, _, t in written)


@pytest.mark.parametrize("stem", METHOD_PAGES)
def test_the_student_copy_holds_no_solution_and_no_hidden_test(released, stem):
    out = released[0]
    master = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text())
    raw = (out / "student" / f"{stem}.ipynb").read_text()
    student = json.loads(raw)
    exercises = parse_exercises(master)
    solution = {i for e in exercises for i in e.solution_cells}
    public = {
        ln.strip()
        for i, c in enumerate(master["cells"])
        if i not in solution
        for ln in source(c).splitlines()
    }
    lines = {ln.strip() for c in student["cells"] for ln in source(c).splitlines()}
    for e in exercises:
        for i in e.code_cells:
            leaked = [
                ln.strip()
                for ln in source(master["cells"][i]).splitlines()
                if len(ln.strip()) >= 12 and ln.strip() not in public and ln.strip() in lines
            ]
            assert not leaked, (e.label, leaked)
        for j in e.checks:  # kept verbatim, locked
            kept = [c for c in student["cells"] if source(c) == source(master["cells"][j])]
            assert len(kept) == 1 and kept[0]["metadata"]["nbgrader"]["locked"]
    assert not re.search(r"hidden-test|# %% ch|def cases\(|red team", raw, re.I)
    assert source(student["cells"][1]) == GRADING_RULES and source(student["cells"][0]).startswith("# ")
    stubs = [c for c in student["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
    assert all(CODE_STUB in source(c) or source(c) == WRITTEN_STUB for c in stubs)
    instructor = json.loads((out / "instructor" / f"{stem}.ipynb").read_text())
    # the seed that draws the grading inputs stays with the instructor
    assert "seed" not in student["metadata"]["sslteach_assignment"]
    assert isinstance(instructor["metadata"]["sslteach_assignment"]["seed"], int)


@pytest.mark.parametrize("stem", METHOD_PAGES)
def test_the_copies_carry_valid_nbgrader_metadata(released, stem):
    from nbgrader.nbgraderformat import MetadataValidator

    for role in ("student", "instructor"):
        nb = nbformat.read(str(released[0] / role / f"{stem}.ipynb"), as_version=4)
        nbformat.validate(nb)
        MetadataValidator().validate_nb(nb)
        ids = [c.metadata["nbgrader"]["grade_id"] for c in nb.cells if "nbgrader" in c.metadata]
        assert len(ids) == len(set(ids))


def test_nbgrader_turns_the_instructor_copy_into_our_student_copy(released, tmp_path):
    """The repository's nbgrader_config.py, appended to quickstart's settings, makes
    ``nbgrader generate_assignment`` write exactly our student copy (hints and stubs)."""
    from traitlets.config import Config

    config = Config()
    exec((ROOT / "nbgrader_config.py").read_text(), {"get_config": lambda: config})
    assert config.ClearSolutions.code_stub == {"python": CODE_STUB}
    assert config.ClearSolutions.text_stub == WRITTEN_STUB and config.Execute.timeout == DEFAULT_TIMEOUT
    stem = "00_foundations"
    (tmp_path / "nbgrader_config.py").write_text(
        'c = get_config()\nc.CourseDirectory.course_id = "sslteach"\n'
        + (ROOT / "nbgrader_config.py").read_text()
    )
    (tmp_path / "source" / "hw").mkdir(parents=True)
    shutil.copy(released[0] / "instructor" / f"{stem}.ipynb", tmp_path / "source" / "hw")
    nbgrader = Path(sys.executable).with_name("nbgrader")
    path = os.pathsep.join([str(nbgrader.parent), os.environ.get("PATH", "")])  # nbgrader runs alembic
    res = subprocess.run(
        [str(nbgrader), "generate_assignment", "hw", "--force"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PATH": path},
    )
    assert res.returncode == 0, res.stderr[-3000:]
    theirs = nbformat.read(str(tmp_path / "release" / "hw" / f"{stem}.ipynb"), as_version=4)
    ours = nbformat.read(str(released[0] / "student" / f"{stem}.ipynb"), as_version=4)
    assert [c.source for c in theirs.cells] == [c.source for c in ours.cells]


def test_a_release_checks_every_input_before_writing_anything(tmp_path):
    bad = tmp_path / "bad.ipynb"
    nb = nbformat.read(str(ROOT / "notebooks" / "01_spectral_clustering.ipynb"), as_version=4)
    sol = next(c for c in nb.cells if "solution" in c.metadata.get("tags", []))
    sol.metadata["tags"] = []  # an untagged code cell inside a solution would leak into the copy
    nbformat.write(nb, str(bad))
    good = ROOT / "notebooks" / "00_foundations.ipynb"
    with pytest.raises(ValueError, match=r"without the tag 'solution'"):
        release_notebooks([good, bad], tmp_path / "out")
    assert not (tmp_path / "out").exists()
    with pytest.raises(ValueError, match="none of the notebooks has exercises"):
        release_notebooks([ROOT / "notebooks" / "05_scorecard.ipynb"], tmp_path / "out")
    tests = tmp_path / "mine.py"
    tests.write_text("# %% ch0-ex-nothing\ndef cases(rng):\n    return []\n")
    with pytest.raises(
        ValueError, match="ch0-ex-nothing, which no notebook has|does not name|no hidden test"
    ):
        release_notebooks([good], tmp_path / "out", tests=[tests])
    assert not (tmp_path / "out").exists()


def test_the_master_notebooks_hold_no_hidden_test_or_grader_comment():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        text = path.read_text()
        assert not re.search(r"hidden.test|red team|redteam|the grader", text, re.I), path.name


def test_the_authoring_guides_example_is_released_and_graded(tmp_path):
    """book/authoring.md's exercise, copied to a private folder, released with its tests file and
    graded: the solution earns the point; a mistake and a ruled-out route do not."""
    from sslteach_grader.grading import Grader

    private = tmp_path / "my-course"
    private.mkdir()
    shutil.copy(ROOT / "grader/examples/ch9_normalize.ipynb", private / "ch9.ipynb")
    shutil.copy(ROOT / "grader/examples/ch9_normalize_tests.py", private / "ch9_tests.py")
    guide = (ROOT / "book" / "authoring.md").read_text()
    cells = nbformat.read(str(private / "ch9.ipynb"), as_version=4).cells
    for cell in cells[2:]:  # the guide shows the exercise's cells as they are
        assert cell.source.strip() in guide, cell.source
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "sslteach.assignments",
            "release",
            str(private / "ch9.ipynb"),
            "--tests",
            str(private / "ch9_tests.py"),
            "--out",
            str(tmp_path / "hw9"),
        ],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    grader = Grader(tmp_path / "hw9" / "student" / "ch9.ipynb", sandbox=False)
    assert grader.grade(tmp_path / "hw9" / "instructor" / "ch9.ipynb").score == 1
    for answer, why in [
        ("def normalize(W):\n    return W / W.sum(axis=1)[:, None]", "two points, unequal degrees"),
        ("def normalize(W):\n    D = np.diag(W.sum(1) ** -0.5)\n    return D @ W @ D", "numpy.diag"),
    ]:
        nb = nbformat.read(str(tmp_path / "hw9" / "student" / "ch9.ipynb"), as_version=4)
        cell = next(
            c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "ch9-ex-normalize-code"
        )
        cell.source = answer
        nbformat.write(nb, str(tmp_path / "answer.ipynb"))
        [result] = grader.grade(tmp_path / "answer.ipynb").exercises
        assert result.points == 0 and why in result.message, result.message
