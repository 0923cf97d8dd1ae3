"""A coding exercise is not passed by calling the library function it asks the student to write.

STYLE.md: a check compares against values it computes independently, so that a one-line
call to the `sslteach` function an exercise asks for fails it. For every coding exercise
whose answer exists in `sslteach`, LIBRARY_ANSWERS holds that one-line answer; the test runs
the chapter's cells the exercise needs (a def-use slice of the code cells before it, so
seconds rather than the whole chapter), then the library answer and the check (which must
fail with an AssertionError), then the real solution and the check (which must pass).
"""

from pathlib import Path

import nbformat
import pytest

from sslteach import assignments as asg
from sslteach.teach.slicing import defines as _defines
from sslteach.teach.slicing import uses as _uses

ROOT = Path(__file__).resolve().parents[1]

# chapter stem -> {exercise label: a one-line answer that calls the sslteach function asked for}
LIBRARY_ANSWERS: dict[str, dict[str, str]] = {
    "01_spectral_clustering": {
        "ch1-ex-ideal-alignment": (
            "def alignment_ceiling_gap(K):\n    return 1 - relaxation.alignment_upper_bound(K)"
        ),
        "ch1-ex-cut-bound-general": "def cut_bound_bruteforce(K): return relaxation.cut_cost_lower_bound(K)",
        "ch1-ex-sweep-cut": 'def cut_sweep(K, v): return relaxation.threshold_sweep(K, v, "cut").scores',
    },
    "02_cluster_kernels": {
        "ch2-ex-monotone": (
            "def monotone_hck(X, linkage, f):\n    return ck.hierarchical_cluster_kernel(X, linkage)"
        ),
        "ch2-ex-minimax": 'def minimax_from_mst(X): return ck.cophenetic_matrix(X, "single")[0]',
        "ch2-ex-center": "def double_center(M): return kernels.mds_kernel(M)",
    },
    "03_spectral_kernel_learning": {
        "ch3-ex-build-lp": (
            "def tsk_lp_by_hand(lam, T, eta, beta):\n    return spk._solve_tsk_scipy(lam, T, eta, beta)"
        ),
        "ch3-ex-training-rows": "def extend_rows(W, lam, V, rows): return model.extend(W[rows])",
        "ch3-ex-smoothness": (
            "def smoothness_double_sum(W, Phi):\n"
            "    return float(np.trace(Phi @ graphs.normalized_laplacian(W).toarray() @ Phi.T))"
        ),
        "ch3-ex-dual": (
            "def tsk_dual_value(lam, T, eta, beta):\n"
            "    p = spk.tsk_linear_program(lam, V, y, eta=eta, beta=beta)[0]\n"
            "    p.solve()\n"
            "    return p.value"
        ),
    },
    "04_semi_supervised_ksc": {
        "ch4-ex-bordered": (
            "def semi_ksc_bordered(K, y, gamma, rho):\n"
            "    return ksc.solve_semi_ksc(K, y, gamma=gamma, rho=rho)"
        ),
        "ch4-ex-ideal": (
            "def ideal_solution(n1, n2, n3):\n"
            "    K = scipy.linalg.block_diag(np.ones((n1, n1)), np.ones((n2, n2)), np.ones((n3, n3)))\n"
            "    y = np.r_[1.0, np.zeros(n1 - 1), -1.0, np.zeros(n2 + n3 - 1)]\n"
            "    return ksc.solve_semi_ksc(K, y, rho=0.5)"
        ),
        "ch4-ex-fisher": "def fisher_by_threshold(a): return ksc.fisher_criterion(a)",
    },
    "05_comparison": {
        "ch5-ex-nemenyi-cd": (
            "def nemenyi_cd(k, N, alpha=0.05): return compare.nemenyi_critical_difference(k, N, alpha)"
        ),
    },
}




def needed_cells(cells, before, targets):
    """Indices of the code cells before ``before`` that the ``targets`` sources need, in order.

    A backward slice: walking back from ``before``, a cell is kept when it binds a name
    still needed (its most recent definition), which satisfies that name and adds the
    names the cell itself reads. The first code cell (setup and imports) is always kept.
    """
    need = set().union(*(_uses(t) for t in targets)) - set().union(*(_defines(t) for t in targets))
    first = next(j for j, d in enumerate(cells) if d.cell_type == "code")
    keep = []
    for i in range(before - 1, -1, -1):
        c = cells[i]
        if c.cell_type != "code" or "solution" in c.metadata.get("tags", []):
            continue
        bound = _defines(c.source)
        if bound & need or i == first:
            keep.append(i)
            need = (need - bound) | (_uses(c.source) - bound)
    return sorted(keep)


def test_slicer_follows_definitions_backwards():
    cells = [
        nbformat.v4.new_code_cell(s)
        for s in (
            "import numpy as np",
            "a = np.ones(3)",
            "b = 2",
            "plot(b)",
            "c = a + 1",
            "assert c.sum() == 6",
        )
    ]
    assert needed_cells(cells, 5, [cells[5].source]) == [0, 1, 4]


@pytest.mark.parametrize("stem", sorted(LIBRARY_ANSWERS) or [pytest.param("none", marks=pytest.mark.skip)])
def test_a_library_call_fails_every_coding_check(stem):
    nb = nbformat.read(str(ROOT / "notebooks" / f"{stem}.ipynb"), as_version=4)
    exercises = {e.label: e for e in asg.parse_exercises(nb)}
    coding = {label for label, e in exercises.items() if e.code_cells and e.checks}
    answers = LIBRARY_ANSWERS[stem]
    assert set(answers) <= coding, f"{stem}: not a coding exercise with a check: {set(answers) - coding}"
    run = nbformat.v4.new_notebook()
    expect = []  # (label, "fail" | "pass") per appended check cell
    for label, answer in answers.items():
        e = exercises[label]
        solution = [nb.cells[i].source for i in e.code_cells]
        checks = [nb.cells[i].source for i in e.checks]
        first = min(e.code_cells)
        context = needed_cells(nb.cells, first, solution + checks + [answer])
        run.cells += [nbformat.v4.new_code_cell(nb.cells[i].source) for i in context]
        expect += [(None, "pass")] * len(context)
        run.cells.append(nbformat.v4.new_code_cell(answer))
        expect.append((None, "pass"))
        run.cells += [nbformat.v4.new_code_cell(c) for c in checks]
        expect += [(label, "fail")] * len(checks)
        run.cells += [nbformat.v4.new_code_cell(s) for s in solution + checks]
        expect += [(None, "pass")] * len(solution) + [(label, "pass")] * len(checks)
    outcomes = asg._run(run, ROOT / "notebooks", timeout=120, kernel_name="python3")
    failed_checks = {}
    for (label, want), cell, out in zip(expect, run.cells, outcomes):
        if want == "pass":
            assert out.status == "ok", f"{stem}: cell failed: {cell.source[:200]!r}: {out.error}"
        else:
            failed_checks.setdefault(label, []).append(
                out.status == "error" and out.error.startswith("AssertionError")
            )
    for label, flags in failed_checks.items():
        assert any(flags), f"{stem}: {label}: the library call {answers[label]!r} passes the check"
