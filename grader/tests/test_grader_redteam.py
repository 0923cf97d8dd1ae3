"""Every chapter's exercises answered many ways (redteam_answers.py), graded on 20 seeds.

Right answers in other styles are never refused and plausible wrong answers never pass, on any
of the 20 seeds; the ruled-out routes the autograder can see (the source check, the values, the
cost, which is timed with the first seed) earn nothing, and those it cannot (``HAND_GRADED``)
pass it, as the guide says. The instructor copy
earns every point, the untouched copy none, and notebook-level tricks on Chapter 1 none.

Cost: per chapter, one kernel grades every answer set of the four tables in turn (the chapter's
cells run once, then each set's answer cells and its grading tests on the 20 seeds' inputs); the
instructor copy, the untouched copy and the tricks are graded as submissions. In the sandbox
when bwrap runs.
"""

import json
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest
from sslteach_grader.grading import Grader
from sslteach_grader.kernel import Kernel, sandbox_problem
from sslteach_grader.release import release_notebooks
from sslteach_grader.slicing import defines

sys.path.insert(0, str(Path(__file__).parent))
from redteam_answers import CORRECT, HAND_GRADED, SHORTCUTS, WRONG  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEEDS = list(range(20))
SANDBOX = not sandbox_problem()
TABLES = {"correct": CORRECT, "wrong": WRONG, "hand-graded": HAND_GRADED, "shortcut": SHORTCUTS}
STEMS = sorted(set().union(*TABLES.values()))
TRICK_STEM = "01_spectral_clustering"
TRICKS = {
    "custom_exc": "get_ipython().set_custom_exc((Exception,), lambda *a, **k: None)",
    "fake_allclose": "import numpy as np\nnp.allclose = lambda *a, **k: True\n"
    "np.isclose = lambda a, b, **k: True",
    "master_solutions": (  # the master notebook beside an editable install: outside the sandbox
        "import json, pathlib, sslteach\n"
        "_p = pathlib.Path(sslteach.__file__).parents[1] / 'notebooks' / '01_spectral_clustering.ipynb'\n"
        "for _c in json.loads(_p.read_text())['cells']:\n"
        "    if 'solution' in _c['metadata'].get('tags', []):\n"
        "        exec(''.join(_c['source']), globals())\n"
        + "".join(
            f"{f} = globals().get({f!r})\n"
            for f in (
                "alignment_ceiling_gap",
                "cut_bound_bruteforce",
                "cut_sweep",
                "kp_gain",
                "four_way",
                "class_mean_norms",
                "norm_threshold_accuracy",
            )
        )
    ),
}


def grade_sets(grader, sets, seeds):
    """``[{label: [why per seed]}]``: each answer set ``{label: source}`` graded in one kernel, in turn."""
    nb = nbformat.read(str(grader.ref_path), as_version=4)
    rows = grader._rows(nb, {})
    visible = {}  # label: the sources of its check cells, as released
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if m := re.fullmatch(r"(ch\d+-ex-[A-Za-z0-9-]+?)-check(-\d+)?", gid):
            visible.setdefault(m.group(1), []).append(cell.source)
    union = [
        dict(r, source="\n".join(s[_label(r)] for s in sets if _label(r) in s))
        if r["role"] == "answer"
        else r
        for r in rows
    ]
    kernel = Kernel(sandbox=grader.sandbox)
    try:
        # every chapter cell, not only those the answers need: the check cells use the chapter's names
        grader._run_cells(kernel, rows, [r for r in rows if r["role"] != "answer"])
        out, chapter = [], set().union(*(defines(r["source"]) for r in rows if r["role"] != "answer"))
        for answers in sets:
            mine = [
                dict(r, source=answers.get(_label(r), r["source"])) if r["role"] == "answer" else r
                for r in rows
            ]
            # what the earlier sets defined is gone: each set sees the chapter's names only
            earlier = sorted(set().union(*(defines(src) for src in union_sources(union))) - chapter)
            kernel.run(f"for _name in {earlier!r}:\n    globals().pop(_name, None)", 60)
            for label, source in answers.items():
                assert kernel.run(source, 60)[0] in ("ok", "error"), label
            verdict = {
                label: grader._precheck(mine, label, len(seeds)) or grader._judge(kernel, mine, label, seeds)
                for label in answers
            }
            # the student's own feedback: the exercise's visible check cells, run after the answer
            checks = {lab: [kernel.run(c, 60)[0] == "ok" for c in visible.get(lab, [])] for lab in answers}
            out.append((verdict, checks))
        return out
    finally:
        kernel.close()



def union_sources(rows):
    return [r["source"] for r in rows if r["role"] == "answer"]


def _label(row):
    return row["gid"][: -len("-code")] if row["gid"].endswith("-code") else None


def _sets(table, stem):
    rows = table.get(stem, {})
    return [
        {label: answers[k] for label, answers in rows.items() if k < len(answers)}
        for k in range(max((len(a) for a in rows.values()), default=0))
    ]


def _submission(path, target, added=(), duplicate_check=False):
    nb = nbformat.read(str(path), as_version=4)
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    for k, src in enumerate(added):
        nb.cells.insert(first + 1 + k, nbformat.v4.new_code_cell(src))
    if duplicate_check:
        check = next(
            c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id", "").endswith("-check")
        )
        nb.cells.append(nbformat.from_dict(json.loads(json.dumps(check))))
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(target))
    return target


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("redteam")
    release_notebooks([ROOT / "notebooks" / f"{s}.ipynb" for s in STEMS], root, seed=20261124)
    graders = {s: Grader(root / "student" / f"{s}.ipynb", sandbox=SANDBOX, timeout=120) for s in STEMS}
    for s, g in graders.items():
        g.ref_path = root / "student" / f"{s}.ipynb"
    jobs = [(s, "tables", None) for s in STEMS]
    jobs += [(s, "copy", root / role / f"{s}.ipynb") for s in STEMS for role in ("instructor", "student")]
    tricks = {
        name: _submission(root / "student" / f"{TRICK_STEM}.ipynb", root / "tricks" / f"{name}.ipynb", [src])
        for name, src in TRICKS.items()
        if SANDBOX or name != "master_solutions"
    }
    tricks["duplicated_check"] = _submission(
        root / "instructor" / f"{TRICK_STEM}.ipynb",
        root / "tricks" / "duplicated_check.ipynb",
        duplicate_check=True,
    )
    jobs += [(TRICK_STEM, f"trick {name}", path) for name, path in tricks.items()]

    def run(job):
        stem, kind, path = job
        graders[stem].reference(SEEDS)  # the reference values of every seed, once per chapter
        if path is not None:
            return [((stem, kind, path.parent.name), graders[stem].grade_seeds(path, SEEDS[:1]))]
        # every table's answer sets in one kernel, the ruled-out routes last
        sets = [
            (kind, k, answers)
            for kind, table in TABLES.items()
            for k, answers in enumerate(_sets(table, stem))
        ]
        verdicts = grade_sets(graders[stem], [answers for _, _, answers in sets], SEEDS)
        out = {}
        for (kind, _, _), (verdict, checks) in zip(sets, verdicts, strict=True):
            out.setdefault((stem, kind, None), []).append(verdict)
            out.setdefault((stem, f"{kind} checks", None), []).append(checks)
        return list(out.items())

    with ThreadPoolExecutor(2) as pool:
        return dict(
            pair for done in pool.map(run, sorted(jobs, key=lambda j: j[2] is not None)) for pair in done
        )


def _verdicts(graded, stem, kind):
    """``[(label, set number, [why per seed])]``."""
    return [
        (label, k, why)
        for k, verdict in enumerate(graded.get((stem, kind, None), []))
        for label, why in verdict.items()
    ]


@pytest.mark.parametrize("stem", STEMS)
def test_answers_of_every_kind_get_the_grade_they_deserve(graded, stem):
    rejected = {(lab, k): w for lab, k, why in _verdicts(graded, stem, "correct") for w in why if w}
    accepted = [(lab, k) for lab, k, why in _verdicts(graded, stem, "wrong") if not all(why)]
    caught = [(lab, k) for lab, k, why in _verdicts(graded, stem, "shortcut") if not why[0]]  # the cost seed
    hand = [(lab, k, why[0]) for lab, k, why in _verdicts(graded, stem, "hand-graded") if any(why)]
    print(
        f"{stem}: correct rejected {len(rejected)}, wrong accepted {len(accepted)} over {len(SEEDS)} seeds, "
        f"shortcuts accepted {len(caught)}, hand-graded routes refused {len(hand)}"
    )
    assert not rejected, rejected
    assert not accepted, accepted
    assert not caught, caught
    assert not hand, hand  # if one is refused now, move it to SHORTCUTS and drop it from the guide's list
    for lab, k, why in _verdicts(graded, stem, "wrong") + _verdicts(graded, stem, "shortcut"):
        assert why[0], (lab, k)  # a message that says what is wrong
    full, empty = graded[stem, "copy", "instructor"], graded[stem, "copy", "student"]
    assert all(r.score == r.max_auto > 0 for r in full), [
        e.message for r in full for e in r.exercises if e.message
    ]
    assert all(r.score == 0 for r in empty)


def test_notebook_level_tricks_earn_nothing(graded):
    tricks = {kind[6:]: r[0] for (stem, kind, _), r in graded.items() if kind.startswith("trick ")}
    if not SANDBOX:
        print(f"no sandbox here ({sandbox_problem()}): the master-notebook trick is not tried")
    assert set(tricks) >= {"custom_exc", "fake_allclose", "duplicated_check"}
    for name, report in tricks.items():
        expected = (
            report.max_auto - 1 if name == "duplicated_check" else 0
        )  # the copied check's exercise only
        assert report.score == expected, (name, [(e.label, e.status, e.message) for e in report.exercises])


@pytest.mark.parametrize("stem", STEMS)
def test_the_visible_checks_pass_every_right_answer_and_catch_wrong_ones(graded, stem):
    """The check cells a student runs are fair (every right answer of the table passes them) and
    not empty (in every chapter, plausible wrong answers fail them)."""

    def runs(kind):
        sets = graded.get((stem, f"{kind} checks", None), [])
        return [(lab, ok) for checks in sets for lab, ok in checks.items() if ok]

    refused = sorted({lab for lab, ok in runs("correct") if not all(ok)})
    assert not refused, f"a right answer fails its visible check: {refused}"
    tried = {lab for lab, _ in runs("wrong")}
    caught = {lab for lab, ok in runs("wrong") if not all(ok)}
    print(f"{stem}: the visible checks catch a wrong answer of {len(caught)} of the {len(tried)} exercises "
          f"with a check and a wrong answer in the table; not caught: {sorted(tried - caught)}")
    assert caught or not tried, f"{stem}: no visible check fails any wrong answer"
