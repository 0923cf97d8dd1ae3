"""Hidden tests of Chapter 3's exercises (notebooks/03_spectral_kernel_learning.ipynb), one section per exercise.

The format is described in sslteach_grader.specs; book/authoring.md shows how to write one.
"""

import numpy as np

from sslteach_grader import Case


# %% ch3-ex-smoothness
forbid = ["sslteach.graphs", "sslteach.spectral_kernels"]


def cases(rng):
    import scipy.sparse as sp

    out = []
    for n, sym in ((12, True), (15, False)):
        W = sp.random(n, n, density=0.3, random_state=int(rng.integers(1 << 30)), format="csr")
        W = W + sp.eye(n) * 0.1
        if sym:
            W = W + W.T
        out.append(Case("smoothness_double_sum", W.tocsr(), rng.standard_normal((3, n)),
                        name=("a symmetric" if sym else "a non-symmetric") + f" W, n = {n}"))
    return out


def _sparse_case(n, rng):
    import scipy.sparse as sp

    W = sp.random(n, n, density=5.0 / n, random_state=int(rng.integers(1 << 30)), format="csr")
    # a ring too, so that no vertex has degree 0 (phi_i / sqrt(D_ii) is undefined there, and the
    # statement does not say what to do: correct rewrites of the sum give nan there)
    ring = sp.eye(n, k=1, format="csr") + sp.eye(n, k=1 - n, format="csr")
    return (W + W.T + ring + ring.T).tocsr(), rng.standard_normal((3, n))


# "a sum over the stored entries": a dense W (n^2 entries) grows as n^2, the stored entries as n
cost = dict(function="smoothness_double_sum", make=_sparse_case, sizes=(1000, 8000), max_exponent=1.5)


# %% ch3-ex-build-lp
# the statement asks for linprog: sslteach's LP, the other LP solvers and HiGHS's own interfaces are ruled out
forbid = ["sslteach.spectral_kernels", "cvxpy", "highspy", "clarabel", "osqp", "scs", "scipy.optimize.milp",
          "scipy.optimize._linprog_highs", "scipy.optimize._highspy"]
require = ["scipy.optimize.linprog"]


def cases(rng):
    out = []
    for l, m, eta, beta in ((6, 4, 2.0, 3.0), (5, 3, 1.5, 0.7), (4, 1, 2.0, 50.0), (6, 4, 1.5, 0.05), (6, 3, 2.0, 0.3)):
        lam = np.sort(rng.uniform(0, 0.9, m))
        T = rng.standard_normal((l, m))
        out.append(Case("tsk_lp_by_hand", lam, T, eta, beta, name=f"m = {m}, eta = {eta}, beta = {beta}"))
    # cases where the decay binds: only the last column of T is positive and beta is large, so
    # the optimum is mu = s (eta^(m-1), ..., eta, 1) with s > 0 (c = R^-1 mu = (0, ..., 0, s) != mu)
    for m in (2, 3, 4):
        l, eta = 5, float(rng.uniform(1.2, 3.0))
        lam = np.sort(rng.uniform(0, 0.05, m))
        T = np.zeros((l, m))
        T[:, -1] = rng.uniform(0.5, 2.0, l)
        out.append(Case("tsk_lp_by_hand", lam, T, eta, 100.0, name=f"m = {m}, eta = {eta:.4g}, beta = 100, decay binding"))
    return out


def compare(case, got, want):
    lam, T, eta, beta = case["args"]
    mu = np.asarray(got, dtype=float).ravel()
    if mu.shape != lam.shape:
        return f"tsk_lp_by_hand must return one weight per eigenvalue ({lam.size}), got shape {mu.shape}"
    if np.any(mu < -1e-8) or np.any(mu[:-1] < eta * mu[1:] - 1e-7 * max(1.0, mu.max())):
        return "the weights violate mu >= 0 or the decay mu_t >= eta mu_(t+1) (return mu = R c, not c)"
    value = lambda v: lam @ v + beta * np.maximum(0, 1 - T @ v).sum()  # noqa: E731
    if not np.isclose(value(mu), value(np.asarray(want)), rtol=1e-6, atol=1e-7):
        return "the weights are not optimal for the LP"
    return None


# %% ch3-ex-zero-mu
def cases(rng):
    # fixed: T'1 = (2, -1, 3) with l = 2 rows, so that g built from the column means (half of T'1) gives
    # twice the threshold on every seed
    out = [Case("critical_beta", np.array([0.1, 0.5, 0.8]), np.array([[1.0, -1.0, 2.0], [1.0, 0.0, 1.0]]), 2.0,
                name="lam = (0.1, 0.5, 0.8), T'1 = (2, -1, 3), eta = 2")]
    for eta in (1.5, 2.0):
        lam = np.sort(rng.uniform(0, 0.9, 5))
        out.append(Case("critical_beta", lam, rng.standard_normal((6, 5)), eta, name=f"eta = {eta}"))
        T = rng.standard_normal((6, 5))
        T[:, 0] = -np.abs(T[:, 0])  # g_1 < 0: the minimum is over later k, where the decay weights matter
        T[:, 1:] = np.abs(T[:, 1:])
        out.append(Case("critical_beta", lam, T, eta, name=f"eta = {eta}, first column sum negative"))
    out.append(Case("critical_beta", np.sort(rng.uniform(0, 0.9, 4)), -np.abs(rng.standard_normal((3, 4))), 2.0,
                    name="no g_k > 0"))
    # more draws with mixed-sign column sums, where the decay weights change the minimum
    for k, eta in enumerate((1.2, 1.5, 2.0, 3.0, 1.5, 2.5)):
        lam = np.sort(rng.uniform(0, 0.9, 6))
        T = rng.standard_normal((8, 6))
        T[:, : 1 + k % 3] = -np.abs(T[:, : 1 + k % 3])
        out.append(Case("critical_beta", lam, T, eta, name=f"eta = {eta}, draw {k} with {1 + k % 3} negative column(s)"))
    return out


# %% ch3-ex-training-rows
forbid = ["sslteach.spectral_kernels"]


def cases(rng):
    import scipy.sparse as sp

    n, m = 14, 3
    W = sp.random(n, n, density=0.4, random_state=int(rng.integers(1 << 30)), format="csr")
    W = (W + W.T + sp.eye(n) * 0.1).tocsr()
    lam = rng.uniform(0.1, 0.9, m)
    V = rng.standard_normal((n, m))
    # eigenvalues of the normalised Laplacian reach 2: 1 - lam changes sign (|1 - lam| is wrong)
    lam_big = np.array([rng.uniform(0.2, 0.8), rng.uniform(1.2, 1.9), rng.uniform(1.2, 1.9)])
    return [Case("extend_rows", W, lam, V, [0, 3, 7], name="three rows"),
            Case("extend_rows", W, lam, V, list(range(n)), name="every row"),
            Case("extend_rows", W, lam_big, V, [1, 5, 9], name="three rows, two lam above 1")]


# %% ch3-ex-q-eigs
# "without any eigensolver": numpy's and scipy's (np.roots finds a polynomial's roots as eigenvalues)
forbid = ["numpy.linalg.eig", "numpy.linalg.eigh", "numpy.linalg.eigvals", "numpy.linalg.eigvalsh", "numpy.linalg.svd",
          "numpy.linalg._umath_linalg", "numpy.roots", "scipy.linalg", "scipy.sparse.linalg"]


def cases(rng):
    return [Case("q_eigenvalues", rng.uniform(0, 0.9, m), rng.uniform(0, 2, m), name=f"m = {m}") for m in (1, 5)]


def _pair(m, rng):
    return rng.uniform(0, 0.9, m), rng.uniform(0, 2, m)


# "without any eigensolver": any eigensolver on the 2m x 2m matrix Q costs O(m^3) (about 3 s at m = 1000 on
# one core), the formula O(m log m) (microseconds)
cost = dict(function="q_eigenvalues", make=_pair, sizes=(250, 1000), max_exponent=1.5)


# %% ch3-ex-dual
# (p, q) is the solution of the dual LP the answer writes, not a solver's multipliers of the primal: linprog's
# (res.ineqlin.marginals and the like), HiGHS's own (highspy) and those of the other solvers are ruled out
forbid = ["sslteach.spectral_kernels", "cvxpy", "highspy", "clarabel", "osqp", "scs", "scipy.optimize._linprog_highs",
          "scipy.optimize._highspy", ".marginals", ".ineqlin", ".eqlin"]
require = ["scipy.optimize.linprog"]


def cases(rng):
    out = []
    for l, m, eta, beta in ((6, 4, 2.0, 3.0), (5, 3, 1.5, 0.7), (6, 4, 1.5, 0.2), (8, 5, 2.0, 6.0)):
        lam = np.sort(rng.uniform(0, 0.9, m))
        out.append(Case("tsk_dual_value", lam, rng.standard_normal((l, m)), eta, beta, name=f"eta = {eta}, beta = {beta}"))
    return out


def compare(case, got, want):
    lam, T, eta, beta = case["args"]
    if not isinstance(got, list) or len(got) != 3:
        return "tsk_dual_value must return (value, p, q)"
    value, p, q = float(np.asarray(got[0])), np.asarray(got[1], float).ravel(), np.asarray(got[2], float).ravel()
    l, m = T.shape
    if p.shape != (l,) or q.shape != (m - 1,):
        return f"p must have l = {l} entries and q m - 1 = {m - 1}; got {p.shape} and {q.shape}"
    Gam = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]
    tol = 1e-7
    if np.any(p < -tol) or np.any(p > beta + tol) or np.any(q < -tol) or np.any(T.T @ p + Gam.T @ q > lam + 1e-6):
        return "(p, q) is not dual-feasible"
    if not np.isclose(value, float(want[0]), rtol=1e-6, atol=1e-7) or not np.isclose(p.sum(), value, atol=1e-6):
        return "the value is not the LP's optimum"
    return None
