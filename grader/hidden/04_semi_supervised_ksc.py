"""Hidden tests of Chapter 4's exercises (notebooks/04_semi_supervised_ksc.ipynb), one section per exercise.

The format is described in sslteach_grader.specs; book/authoring.md shows how to write one.
"""

import numpy as np

from sslteach_grader import Case, same


# %% ch4-ex-bordered
forbid = ["sslteach.ksc"]


def cases(rng):
    out = []
    for gamma, rho in ((1.0, 0.5), (0.4, 1.0), (2.5, 2.0)):
        X = rng.standard_normal((10, 2))
        K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 2)
        y = np.zeros(10)
        y[:2], y[5:7] = 1.0, -1.0
        out.append(Case("semi_ksc_bordered", K, y, gamma, rho, name=f"gamma = {gamma}, rho = {rho}"))
    return out


# %% ch4-ex-ideal
# "without solving a system": the library's solver, and every solver, factorisation and eigensolver of numpy
# and scipy, the LAPACK routines behind them, and the optimisers that take equality constraints (a system
# reduced by the blocks' symmetry and solved by one of them is still a solved system); building the kernel
# with scipy.linalg.block_diag is fine
forbid = ["sslteach.ksc", "numpy.linalg.solve", "numpy.linalg.lstsq", "numpy.linalg.inv", "numpy.linalg.pinv",
          "numpy.linalg.svd", "numpy.linalg.qr", "numpy.linalg.eig", "numpy.linalg.eigh", "numpy.linalg.eigvals",
          "numpy.linalg.eigvalsh", "numpy.linalg.cholesky", "numpy.linalg.tensorsolve", "numpy.linalg.tensorinv",
          "numpy.linalg.det", "numpy.linalg.slogdet", "numpy.linalg._umath_linalg",
          "scipy.linalg.solve", "scipy.linalg.lstsq", "scipy.linalg.inv", "scipy.linalg.pinv", "scipy.linalg.lu",
          "scipy.linalg.lu_factor", "scipy.linalg.lu_solve", "scipy.linalg.cho_factor", "scipy.linalg.cho_solve",
          "scipy.linalg.solve_triangular", "scipy.linalg.qr", "scipy.linalg.svd", "scipy.linalg.eigh",
          "scipy.linalg.eig", "scipy.linalg.ldl", "scipy.linalg.cholesky", "scipy.linalg.cho_solve_banded",
          "scipy.linalg.cholesky_banded", "scipy.linalg.solve_banded", "scipy.linalg.solveh_banded",
          "scipy.linalg.solve_toeplitz", "scipy.linalg.solve_circulant", "scipy.linalg.rq", "scipy.linalg.qr_multiply",
          "scipy.linalg.eigvals", "scipy.linalg.eigvalsh", "scipy.linalg.svdvals", "scipy.linalg.null_space",
          "scipy.linalg.orth", "scipy.linalg.eig_banded", "scipy.linalg.eigh_tridiagonal",
          "scipy.linalg.eigvalsh_tridiagonal", "scipy.linalg.det", "scipy.linalg.solve_sylvester",
          "scipy.linalg.solve_continuous_lyapunov", "scipy.linalg.solve_discrete_lyapunov",
          "scipy.linalg.solve_continuous_are", "scipy.linalg.solve_discrete_are", "scipy.linalg.schur",
          "scipy.linalg.qz", "scipy.linalg.ordqz", "scipy.linalg.hessenberg", "scipy.linalg.polar",
          "scipy.linalg.lapack", "scipy.linalg.blas", "scipy.sparse.linalg", "scipy.optimize",
          "highspy", "osqp", "scs", "clarabel", "cvxpy"]


def _kkt(sizes, pos, neg, rho):
    n = sum(sizes)
    K = np.zeros((n, n))
    start = 0
    for s in sizes:
        K[start:start + s, start:start + s] = 1.0
        start += s
    y = np.zeros(n)
    y[pos], y[neg] = 1.0, -1.0
    g = 1.0 / K.sum(axis=1) - rho * (y != 0)
    B = np.block([[np.eye(n) - g[:, None] * K, -g[:, None]], [np.ones((1, n)), np.zeros((1, 1))]])
    sol = np.linalg.solve(B, np.r_[rho * y, 0.0])
    return sol[:n], sol[n]


def cases(rng):
    out = []
    for sizes, pos, neg, rho in (((7, 5, 6), [0], [7], 1.0), ((7, 5, 6), [0, 2, 3], [8, 9], 0.25),
                                 ((4, 9, 3), [1], [4, 6, 10], 1.3)):
        out.append(Case("ideal_solution", *sizes, name=f"blocks {sizes}",
                        meta=[(pos, neg, rho, _kkt(sizes, pos, neg, rho))]))
    return out


def compare(case, got, want):
    if not isinstance(got, list) or len(got) != 2:
        return "ideal_solution must return (alpha, b)"
    a, b = np.asarray(got[0], float).ravel(), float(np.asarray(got[1]))
    if case["meta"] is None:  # the cost test's calls: the model solution's values
        return same([a, b], [np.asarray(want[0], float).ravel(), float(np.asarray(want[1]))], atol=1e-10)
    for pos, neg, rho, (a_ref, b_ref) in case["meta"]:
        if a.shape != a_ref.shape or not np.allclose(a, a_ref, atol=1e-10) or abs(b - b_ref) > 1e-10:
            return (f"(alpha, b) differs from the solution of the KKT system with gamma = 1, rho = {rho}, "
                    f"{len(pos)} label(s) +1 and {len(neg)} label(s) -1")
    return None


# "from your formula (without solving a system)": any solve of the (n + 1) x (n + 1) KKT system costs O(n^3)
# (about 2 s at n = 4000 with the system built), the formula O(n) (microseconds)
cost = dict(function="ideal_solution", sizes=(1000, 4000), max_exponent=1.5,
            make=lambda n, rng: (n // 3, n // 3, n - 2 * (n // 3)))


# %% ch4-ex-fisher
def cases(rng):
    return [Case("fisher_by_threshold", rng.standard_normal(n) + (np.arange(n) > n // 3) * 2.0, name=f"n = {n}")
            for n in (9, 40)] + [Case("fisher_by_threshold", np.full(6, 0.3), name="a constant vector (the statement: 0)"),
                                 Case("fisher_by_threshold", rng.integers(0, 4, 30) * 0.5, name="n = 30, four tied levels"),
                                 # the best split first or last
                                 Case("fisher_by_threshold", rng.permutation([0.0, 0.1, 0.2, 0.15, 10.0]),
                                      name="one value far above the others (the best split is the last)"),
                                 Case("fisher_by_threshold", rng.permutation([-10.0, 0.0, 0.1, 0.2, 0.15]),
                                      name="one value far below the others (the best split is the first)")]


# O(n log n), vectorised or a loop over the sorted values, grows like n^1.0-1.1 from 16000 to 64000; an
# O(n^2) loop over the thresholds like n^1.6 or more (its per-threshold overhead dilutes the n^2) and takes
# seconds at 64000, where an O(n log n) answer takes well under a second
cost = dict(function="fisher_by_threshold", sizes=(4000, 16000, 64000), max_exponent=1.25, timeout=20.0,
            make=lambda n, rng: (rng.standard_normal(n),))


# %% ch4-ex-saddle
# Badly scaled features (columns 1e8, 1 and 1e-8 apart): differencing the objective, at any step, loses the
# entries that mix a large and a small column (its round-off is eps |J| / h^2), the closed form keeps them.
# Labelled cases of n = 9 to 40 points (the visible check's n = 30 among them): the labels' term at every size.
forbid = ["scipy.differentiate", "scipy.optimize._numdiff"]


def cases(rng):
    out = []
    for gamma, rho in ((1.0, 0.5), (0.3, 1.5), (2.5, 1.0)):
        X = rng.uniform(0, 1, (9, 3))
        y = np.zeros(9)
        y[0], y[4] = 1.0, -1.0
        out.append(Case("primal_hessian", X, y, gamma, rho, name=f"gamma = {gamma}, rho = {rho}"))
    for scales, (gamma, rho) in (((1e8, 1.0, 1e-8), (1.0, 0.5)), ((1.0, 1e-7, 1e7), (0.3, 1.5)),
                                 ((1e-8, 1e8, 1.0), (2.5, 1.0))):
        X = rng.uniform(0.1, 1, (9, 3)) * np.array(scales)
        y = np.zeros(9)
        y[1], y[5] = 1.0, -1.0
        out.append(Case("primal_hessian", X, y, gamma, rho, name=f"features scaled {scales}, gamma = {gamma}"))
    for n, d, (gamma, rho) in ((10, 2, (1.0, 0.5)), (30, 3, (0.7, 1.2)), (40, 4, (2.0, 0.8))):
        X = rng.uniform(0, 1, (n, d))
        y = np.zeros(n)
        lab = rng.choice(n, 4, replace=False)
        y[lab] = [1.0, 1.0, -1.0, -1.0]
        out.append(Case("primal_hessian", X, y, gamma, rho, name=f"n = {n}, 4 labels, gamma = {gamma}, rho = {rho}"))
    # one large set, its size drawn now: an answer cannot switch to a wrong formula above a size it guesses
    n = int(rng.integers(1000, 1601))
    X = rng.uniform(0, 1, (n, 2))
    y = np.zeros(n)
    y[rng.choice(n, 6, replace=False)] = [1.0, 1.0, 1.0, -1.0, -1.0, -1.0]
    out.append(Case("primal_hessian", X, y, 0.8, 1.1, name=f"n = {n}, 6 labels, gamma = 0.8, rho = 1.1"))
    return out


# %% ch4-ex-lapsvm-svm
def cases(rng):
    return [Case("svm_equivalent_C", float(g), int(l), name=f"gamma_A = {g:.3g}, l = {l}")
            for g, l in ((rng.uniform(0.01, 1), 20), (rng.uniform(1, 5), 7),
                         (rng.uniform(0.01, 5), int(rng.integers(50, 5001))))]  # a size drawn now
