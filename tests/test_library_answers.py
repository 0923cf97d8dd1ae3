"""The exercises' answers, the solutions' and the library's, against independent formulations.

The visible check cells of the exercises give feedback from properties and small worked
examples only (no expected values, no answer formulas); the grade comes from the hidden
tests, which call the student's functions outside the student's kernel. The independent
formulations that the check cells used to hold (a brute force, a closed form, an explicit
``J``, an LP written in cvxpy) live here, in ``REFERENCES``.

For every coding exercise whose answer exists in `sslteach`, ``LIBRARY_ANSWERS`` holds that
one-line answer. :func:`test_answers_agree_with_an_independent_formulation` runs the
chapter's cells the exercise needs (a def-use slice of the code cells before it), then the
library answer and the reference (which must pass, or fail where the one-liner is not a
right answer: ``LIBRARY_WRONG``), then the real solution and the reference (which must
pass). :func:`test_hidden_tests_forbid_the_library_answer` checks that the hidden test of
each exercise forbids what the one-liner calls, so that it cannot earn the grade (STYLE.md:
"a one-line call to the library must not pass").
"""

from pathlib import Path

import nbformat
import pytest
from sslteach_grader.exercises import parse_exercises
from sslteach_grader.kernel import Kernel
from sslteach_grader.release import book_tests
from sslteach_grader.slicing import defines as _defines
from sslteach_grader.slicing import uses as _uses
from sslteach_grader.specs import load_spec, read_tests, seed_rng, source_violation

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

# the sslteach function (or module) each one-line answer calls: the hidden test must forbid it
LIBRARY_CALLS: dict[str, str] = {
    "ch1-ex-ideal-alignment": "sslteach.relaxation.alignment_upper_bound",
    "ch1-ex-cut-bound-general": "sslteach.relaxation.cut_cost_lower_bound",
    "ch1-ex-sweep-cut": "sslteach.relaxation.threshold_sweep",
    "ch2-ex-monotone": "sslteach.cluster_kernels.hierarchical_cluster_kernel",
    "ch2-ex-minimax": "sslteach.cluster_kernels.cophenetic_matrix",
    "ch2-ex-center": "sslteach.kernels.mds_kernel",
    "ch3-ex-build-lp": "sslteach.spectral_kernels._solve_tsk_scipy",
    "ch3-ex-training-rows": "sslteach.spectral_kernels.TransductiveSpectralKernel.extend",
    "ch3-ex-smoothness": "sslteach.graphs.normalized_laplacian",
    "ch3-ex-dual": "sslteach.spectral_kernels.tsk_linear_program",
    "ch4-ex-bordered": "sslteach.ksc.solve_semi_ksc",
    "ch4-ex-ideal": "sslteach.ksc.solve_semi_ksc",
    "ch4-ex-fisher": "sslteach.ksc.fisher_criterion",
    "ch5-ex-nemenyi-cd": "sslteach.protocols.comparison.nemenyi_critical_difference",
}

# one-line answers that are not right answers: the reference must reject them
LIBRARY_WRONG = {
    "ch2-ex-monotone",  # the HCK itself, without the f the exercise applies
    "ch3-ex-smoothness",  # the trace formula, which needs a symmetric W
    "ch3-ex-training-rows",  # the fitted model's extension ignores the lam and V it is given
    "ch3-ex-dual",  # the primal's value only, not (value, p, q)
    "ch4-ex-fisher",  # the criterion of the split at 0, not the best threshold
}

# label -> a cell that checks the exercise's function against an independent formulation
REFERENCES: dict[str, str] = {
    "ch1-ex-ideal-alignment": """
y6 = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
A6 = np.random.default_rng(3).standard_normal((6, 6))
for K in (np.outer(y6, y6), -np.outer(y6, y6), np.diag([1.0, -3.0]), A6 + A6.T,
          kernels.rbf_kernel(np.random.default_rng(41).standard_normal((20, 2)), sigma=1.0)):
    want = 1 - np.linalg.eigvalsh(K)[-1] / np.sqrt(np.sum(K**2))  # 1 - lambda_max / ||K||_F
    assert np.isclose(alignment_ceiling_gap(K), want), (alignment_ceiling_gap(K), want)
""",
    "ch1-ex-cut-bound-general": """
from scipy.linalg import block_diag, null_space

bal = [np.array(b) for b in itertools.product([-1, 1], repeat=10) if sum(b) == 0]
B = null_space(np.ones((1, 10)))  # an orthonormal basis of the complement of 1
for seed in range(3):
    g = np.random.default_rng(seed)
    K_pos = kernels.rbf_kernel(g.standard_normal((10, 2)), sigma=1.0)
    K_two = block_diag(kernels.rbf_kernel(g.standard_normal((5, 2)), sigma=1.0),
                       kernels.rbf_kernel(g.standard_normal((5, 2)), sigma=1.0))
    for Kt in (K_pos, kernels.center_kernel(K_pos), K_two):
        Lt = np.diag(Kt.sum(1)) - Kt
        want = np.linalg.eigvalsh(B.T @ Lt @ B).min() / (2 * np.sqrt(np.sum(Kt**2)))
        assert np.isclose(cut_bound_bruteforce(Kt), want), (seed, cut_bound_bruteforce(Kt), want)
        cheapest = min(y @ Lt @ y for y in bal) / (2 * 10 * np.sqrt(np.sum(Kt**2)))
        assert cheapest >= want - 1e-12
""",
    "ch1-ex-sweep-cut": """
Kt = kernels.rbf_kernel(np.random.default_rng(51).standard_normal((30, 3)), sigma=1.5)
vt = np.random.default_rng(52).standard_normal(30)
order_t = np.argsort(-vt, kind="stable")
want = [2 * Kt[np.ix_(order_t[:i], order_t[i:])].sum() / (30 * np.sqrt(np.sum(Kt**2)))
        for i in range(1, 30)]  # brute force: the weight across each threshold
got = np.asarray(cut_sweep(Kt, vt), dtype=float)
assert got.shape == (29,) and np.allclose(got, want)
""",
    "ch2-ex-monotone": """
u_avg = squareform(sch.cophenet(sch.linkage(pdist(X_toy), method="average")))
J_toy = np.eye(len(X_toy)) - 1.0 / len(X_toy)
for f in (np.sqrt, np.log1p, lambda t: np.minimum(t, 1.0)):
    assert np.allclose(monotone_hck(X_toy, "average", f), -0.5 * J_toy @ f(u_avg) ** 2 @ J_toy)
""",
    "ch2-ex-minimax": """
for X_mm in (X_toy, X_m):
    want = squareform(pdist(X_mm))  # Floyd-Warshall in the (min, max) algebra
    for k in range(len(X_mm)):
        want = np.minimum(want, np.maximum(want[:, [k]], want[[k], :]))
    assert np.allclose(minimax_from_mst(X_mm), want)
""",
    "ch2-ex-center": """
for M_c in (u_small, u_m, u_m**2):
    J_c = np.eye(len(M_c)) - 1.0 / len(M_c)
    assert np.allclose(double_center(M_c), -0.5 * J_c @ M_c @ J_c)  # an explicit J
""",
    "ch3-ex-build-lp": """
import cvxpy as cp


def _optimum(lam_, T_, eta_, beta_):  # eq:tsk-lp-matrix in cvxpy, the decay as constraints
    mu_, xi_ = cp.Variable(lam_.size, nonneg=True), cp.Variable(T_.shape[0], nonneg=True)
    cons = [T_ @ mu_ >= 1 - xi_] + ([mu_[:-1] >= eta_ * mu_[1:]] if lam_.size > 1 else [])
    return cp.Problem(cp.Minimize(lam_ @ mu_ + beta_ * cp.sum(xi_)), cons).solve(solver="CLARABEL")


for lam_c, T_c, eta_c, beta_c in [(lam, T, 2.0, n / l), (lam, T, 1.5, 3.0), (lam[:1], T[:, :1], 2.0, 50.0),
                                  (np.array([0.0, 0.2, 0.5]), rng.standard_normal((5, 3)), 1.0, 2.0)]:
    mu_c = np.asarray(tsk_lp_by_hand(lam_c, T_c, eta_c, beta_c), dtype=float)
    assert mu_c.shape == lam_c.shape and np.all(mu_c >= -1e-9)
    assert np.all(mu_c[:-1] >= eta_c * mu_c[1:] - 1e-7 * max(1, mu_c.max()))
    value = lam_c @ mu_c + beta_c * np.maximum(0, 1 - T_c @ mu_c).sum()
    assert np.isclose(value, _optimum(lam_c, T_c, eta_c, beta_c), rtol=1e-6, atol=1e-6)
""",
    "ch3-ex-training-rows": """
rows_ = np.arange(0, n, 5)
S_dense = W.toarray() / np.sqrt(np.outer(d, d))
lam_r, V_r = np.array([0.1, 0.5, 1.7]), rng.standard_normal((n, 3))  # not eigenpairs of S
assert np.allclose(extend_rows(W, lam, V, rows_), V[rows_])
assert np.allclose(extend_rows(W, lam_r, V_r, rows_), S_dense[rows_] @ V_r / (1 - lam_r))
""",
    "ch3-ex-smoothness": """
def _double_sum_dense(W_, Phi_):  # over all n^2 pairs
    Wd = np.asarray(sp.csr_matrix(W_).todense())
    Z_ = Phi_ / np.sqrt(Wd.sum(axis=1))
    return 0.5 * float(np.sum(Wd * ((Z_[:, :, None] - Z_[:, None, :]) ** 2).sum(axis=0)))


Phi_rand = rng.standard_normal((4, n))
W_dir = sp.random(n, n, density=0.03, random_state=1, format="csr") + sp.eye(n, k=1) + sp.eye(n, k=1 - n)
for W_, Phi_ in ((W, Phi), (W, Phi_rand), (W_dir, Phi_rand)):
    assert np.isclose(smoothness_double_sum(W_, Phi_), _double_sum_dense(W_, Phi_))
""",
    "ch3-ex-dual": """
import cvxpy as cp

Gam_ = np.eye(m - 1, m) - 2.0 * np.eye(m - 1, m, k=1)
for beta_ in (0.5, 10.0, 200.0):
    mu_, xi_ = cp.Variable(m, nonneg=True), cp.Variable(l, nonneg=True)  # the primal, in cvxpy
    cons = [T @ mu_ >= 1 - xi_, Gam_ @ mu_ >= 0]
    primal = cp.Problem(cp.Minimize(lam @ mu_ + beta_ * cp.sum(xi_)), cons).solve(solver="CLARABEL")
    out = tsk_dual_value(lam, T, 2.0, beta_)
    assert isinstance(out, tuple) and len(out) == 3, "(value, p, q)"
    got, p_, q_ = float(out[0]), np.asarray(out[1], dtype=float), np.asarray(out[2], dtype=float)
    tol = 1e-7 * max(1.0, beta_)
    assert np.all(p_ >= -tol) and np.all(p_ <= beta_ + tol) and np.all(q_ >= -tol)
    assert np.all(T.T @ p_ + Gam_.T @ q_ <= lam + tol)
    assert np.isclose(p_.sum(), got, rtol=1e-6) and np.isclose(got, primal, rtol=1e-6, atol=1e-8)
""",
    "ch4-ex-bordered": """
for gamma_, rho_ in ((1.0, 0.9), (0.5, 0.3), (2.0, 0.7)):
    a_ref, b_ref, _, _ = semi_ksc_scratch(K3, yp3, gamma_, rho_)  # eqs. (semi-dual)-(semi-bias)
    a_bd, b_bd = semi_ksc_bordered(K3, yp3, gamma_, rho_)
    assert np.allclose(a_bd, a_ref, atol=1e-9 * np.abs(a_ref).max()), gamma_
    assert np.isclose(b_bd, b_ref, atol=1e-9 * max(1.0, abs(b_ref))), gamma_
""",
    "ch4-ex-ideal": """
def bordered_reference(sizes, pos, neg, rho):  # the KKT system in (alpha, b), solved
    K = scipy.linalg.block_diag(*[np.ones((s, s)) for s in sizes])
    y = np.zeros(len(K))
    y[pos], y[neg] = 1.0, -1.0
    n = len(K)
    g = 1.0 / K.sum(axis=1) - rho * (y != 0)
    B = np.block([[np.eye(n) - g[:, None] * K, -g[:, None]], [np.ones((1, n)), np.zeros((1, 1))]])
    assert np.linalg.cond(B) < 1e6
    sol = np.linalg.solve(B, np.r_[rho * y, 0.0])
    return sol[:n], sol[n]


for sizes, pos, neg, rho in [((7, 5, 6), [0], [7], 1.0), ((7, 5, 6), [0, 2, 3], [8, 9], 0.25),
                             ((4, 9, 3), [1], [4, 6, 10], 1.3)]:
    a_ref, b_ref = bordered_reference(sizes, pos, neg, rho)
    a_got, b_got = ideal_solution(*sizes)
    assert np.allclose(np.asarray(a_got, dtype=float), a_ref, atol=1e-10)
    assert abs(float(b_got) - b_ref) < 1e-10
""",
    "ch4-ex-fisher": """
for a_t in (model3.alpha_hat(X3[va3]), np.random.default_rng(0).standard_normal(25) + 1.0):
    brute = max(ksc.fisher_criterion(a_t - t) for t in np.sort(a_t)[1:])  # a split below each value
    assert np.isclose(fisher_by_threshold(a_t), brute), (fisher_by_threshold(a_t), brute)
""",
    "ch5-ex-nemenyi-cd": """
DEMSAR_Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102, 10: 3.164}
for k, q in DEMSAR_Q05.items():  # Demsar (2006), Table 5(a)
    for N in (7, 14, 30):
        assert abs(nemenyi_cd(k, N) - q * np.sqrt(k * (k + 1) / (6 * N))) < 2e-3, (k, N)
assert nemenyi_cd(5, 14, alpha=0.10) < nemenyi_cd(5, 14)
""",
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


@pytest.mark.parametrize("stem", sorted(LIBRARY_ANSWERS))
def test_answers_agree_with_an_independent_formulation(stem):
    nb = nbformat.read(str(ROOT / "notebooks" / f"{stem}.ipynb"), as_version=4)
    exercises = {e.label: e for e in parse_exercises(nb)}
    coding = {label for label, e in exercises.items() if e.code_cells}
    answers = LIBRARY_ANSWERS[stem]
    assert set(answers) <= coding, f"{stem}: not a coding exercise: {set(answers) - coding}"
    assert set(answers) <= set(REFERENCES), f"{stem}: no reference for {set(answers) - set(REFERENCES)}"
    run = nbformat.v4.new_notebook()
    expect = []  # (label, "ok" | "library" | "solution") per appended cell
    for label, answer in answers.items():
        e = exercises[label]
        solution = [nb.cells[i].source for i in e.code_cells]
        reference = REFERENCES[label].strip("\n")
        first = min(e.code_cells)
        context = needed_cells(nb.cells, first, solution + [reference, answer])
        run.cells += [nbformat.v4.new_code_cell(nb.cells[i].source) for i in context]
        expect += [(label, "ok")] * len(context)
        run.cells += [nbformat.v4.new_code_cell(answer), nbformat.v4.new_code_cell(reference)]
        expect += [(label, "ok"), (label, "library")]
        run.cells += [nbformat.v4.new_code_cell(s) for s in solution + [reference]]
        expect += [(label, "ok")] * len(solution) + [(label, "solution")]
    kernel = Kernel(sandbox=False)
    try:
        outcomes = [kernel.run(cell.source, 120) for cell in run.cells]
    finally:
        kernel.close()
    for (label, role), cell, (status, error) in zip(expect, run.cells, outcomes, strict=True):
        if role == "library" and label in LIBRARY_WRONG:
            assert status == "error", (
                f"{stem}: {label}: the one-liner {answers[label]!r}, not a right answer, "
                f"passes the reference ({status} {error[:200]})"
            )
        else:
            assert status == "ok", f"{stem}: {label}: {role} cell failed: {cell.source[:200]!r}: {error[:99]}"


@pytest.mark.parametrize("label", sorted(LIBRARY_CALLS))
def test_hidden_tests_forbid_the_library_answer(label):
    """The hidden test of each exercise forbids the sslteach function its one-liner calls."""
    stem = next(s for s, answers in LIBRARY_ANSWERS.items() if label in answers)
    tests = read_tests(book_tests(stem))
    assert label in tests, f"{stem}: {label} has no hidden test in grader/hidden/{stem}.py"
    spec = load_spec(label, tests[label], seed_rng(0, label))
    target = LIBRARY_CALLS[label]
    covered = [f for f in spec.forbid if target == f or target.startswith(f + ".")]
    if label in LIBRARY_WRONG:  # a wrong value fails the hidden test whether or not it is forbidden
        return
    assert covered, f"{label}: the hidden test forbids {spec.forbid}, not {target}, which the one-liner calls"
    # and the grader's source check finds the call in the one-liner, through the chapter's imports
    nb = nbformat.read(str(ROOT / "notebooks" / f"{stem}.ipynb"), as_version=4)
    chapter = [c.source for c in nb.cells if c.cell_type == "code"]
    assert source_violation(spec, [LIBRARY_ANSWERS[stem][label]], chapter), label
