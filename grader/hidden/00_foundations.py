"""Hidden tests of the Foundations chapter's exercises (notebooks/00_foundations.ipynb), one section per exercise.

The format is described in sslteach_grader.specs; book/authoring.md shows how to write one.
"""

import numpy as np

from sslteach_grader import Case, same


# %% ch0-ex-closure
# Sizes from 1 to 40, the visible check's 30 x 30 PSD sum and product among them, so that no answer can
# depend on the size it is given.
def _rbf(X):
    return np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 2)


def cases(rng):
    A = rng.standard_normal((7, 7))
    F = rng.standard_normal((6, 2))
    x, z = rng.standard_normal(5), rng.standard_normal(5)
    X30, X12 = rng.standard_normal((30, 3)), rng.standard_normal((12, 2))
    B40 = rng.standard_normal((40, 40))
    out = [Case("smallest_eigenvalue", A + A.T, name="smallest_eigenvalue, an indefinite A"),
           Case("smallest_eigenvalue", F @ F.T + 0.5 * np.eye(6), name="smallest_eigenvalue, a PD A"),
           Case("smallest_eigenvalue", np.diag(rng.uniform(-3, 3, 4)), name="smallest_eigenvalue, diagonal"),
           Case("smallest_eigenvalue", _rbf(X30) + X30 @ X30.T + np.eye(30), name="smallest_eigenvalue, 30 x 30 PD sum"),
           Case("smallest_eigenvalue", _rbf(X30) * (X30 @ X30.T) - 0.5 * np.eye(30),
                name="smallest_eigenvalue, 30 x 30 product minus I / 2"),
           Case("smallest_eigenvalue", _rbf(X12) - 0.3 * np.eye(12), name="smallest_eigenvalue, 12 x 12"),
           Case("smallest_eigenvalue", B40 + B40.T, name="smallest_eigenvalue, 40 x 40 indefinite"),
           Case("smallest_eigenvalue", np.array([[rng.uniform(-2, 2)]]), name="smallest_eigenvalue, 1 x 1"),
           Case("hadamard_rank_one", x, z, name="hadamard_rank_one, n = 5"),
           Case("hadamard_rank_one", rng.standard_normal(3), np.ones(3), name="hadamard_rank_one, z = 1")]
    for n in (1, 2, 30):
        out.append(Case("hadamard_rank_one", rng.standard_normal(n), rng.standard_normal(n),
                        name=f"hadamard_rank_one, n = {n}"))
    return out


# %% ch0-ex-center-test
# "without forming J": no identity matrix, and not the library's or scikit-learn's centering
forbid = ["numpy.eye", "numpy.identity", "sslteach.kernels.center_kernel", "sslteach.kernels._double_center",
          "sklearn.preprocessing.KernelCenterer"]


def cases(rng):
    out = []
    for m, n in ((1, 6), (5, 9), (8, 4)):
        Xtr, Xte = rng.standard_normal((n, 3)) + rng.uniform(-3, 3, 3), rng.standard_normal((m, 3))
        Ktr = np.exp(-((Xtr[:, None] - Xtr[None]) ** 2).sum(-1) / 2)
        Kte = np.exp(-((Xte[:, None] - Xtr[None]) ** 2).sum(-1) / 2)
        out.append(Case("center_test_kernel", Kte, Ktr, name=f"Gaussian kernel, m = {m}, n = {n}"))
    Xtr, Xte = rng.standard_normal((6, 2)) + 2, rng.standard_normal((3, 2))
    out.append(Case("center_test_kernel", Xte @ Xtr.T, Xtr @ Xtr.T, name="linear kernel"))
    return out


# %% ch0-ex-bipartite
def cases(rng):
    return [Case("cycle_graph", int(n), name=f"n = {n}") for n in (3, 4, rng.integers(5, 12))]


def compare(case, got, want):  # sparse or dense: compared as the dense matrix each stands for
    def dense(a):
        return a.toarray() if hasattr(a, "toarray") else a

    return same(dense(got), dense(want), what="the weight matrix")


# %% ch0-ex-mutual-knn
def cases(rng):
    out = []
    for n, k in ((30, 3), (45, 6)):
        X = rng.standard_normal((n, 2)) * np.array([1.0, 0.4])
        out.append(Case("mutual_knn_graph", X, k, name=f"n = {n}, k = {k}"))
    return out


def compare(case, got, want):  # sparse or dense: compared as the dense matrix each stands for
    def dense(a):
        return a.toarray() if hasattr(a, "toarray") else a

    return same(dense(got), dense(want), what="the weight matrix")


# %% ch0-ex-mds-eigs
# The statement's rule is relative to the largest *magnitude*: the scaled cases fail an absolute tolerance
# (1e-12 x B counts nothing, 1e10 x B counts its round-off), the negative-dominant ones a tolerance relative to
# the largest eigenvalue; every count but the last sits a factor 100 or more away from its threshold. The 400 equal
# eigenvalues fail a tolerance relative to the sum of the magnitudes (which counts 400, a factor 4 off).
def _mds(X):
    D = ((X[:, None] - X[None]) ** 2).sum(-1)
    J = np.eye(len(X)) - 1.0 / len(X)
    return -0.5 * J @ D @ J


def _rotated(rng, eigenvalues):
    Q = np.linalg.qr(rng.standard_normal((len(eigenvalues), len(eigenvalues))))[0]
    return (Q * np.asarray(eigenvalues)) @ Q.T


def cases(rng):
    F = rng.standard_normal((9, 4))
    G = rng.standard_normal((6, 2))
    shape = [3.0, -2.0, 1.0, 1e-12, 0.0]
    return [Case("numerical_rank", _mds(rng.standard_normal((8, 3))), name="MDS kernel, 8 points in R^3"),
            Case("numerical_rank", _mds(rng.standard_normal((4, 6))), name="MDS kernel, 4 points in R^6"),
            Case("numerical_rank", F @ np.diag([3.0, -2.0, 1.0, -0.5]) @ F.T, name="indefinite, rank 4"),
            Case("numerical_rank", G @ G.T, name="PSD, rank 2"),
            Case("numerical_rank", np.diag([1.0, 1e-4, -0.5, 0.0]), tol=1e-3, name="diagonal, tol = 1e-3"),
            Case("numerical_rank", 1e10 * _rotated(rng, shape), name="eigenvalues 1e10 x (3, -2, 1, 1e-12, 0)"),
            Case("numerical_rank", 1e-12 * _rotated(rng, shape), name="eigenvalues 1e-12 x (3, -2, 1, 1e-12, 0)"),
            Case("numerical_rank", _rotated(rng, [-1.0, 1e-4, 1e-8, 0.0]), tol=1e-6,
                 name="eigenvalues (-1, 1e-4, 1e-8, 0), tol = 1e-6"),
            Case("numerical_rank", _rotated(rng, [-2.0, -1.0, -1e-12, 0.0]),
                 name="eigenvalues (-2, -1, -1e-12, 0)"),
            Case("numerical_rank", _rotated(rng, [1.0] * 400 + [1e-6, 0.0]), tol=1e-8,
                 name="eigenvalues (1 [400 times], 1e-6, 0), tol = 1e-8"),
            Case("numerical_rank", _spread(rng), tol=1e-6, name="100 u u' + 5e-6 v v', n = 400, tol = 1e-6"),
            # "exceeds", not "reaches": 1 is exactly 0.25 x 4 (powers of two, a diagonal matrix: every
            # eigensolver returns them exactly), so counting it (>=) is wrong
            Case("numerical_rank", np.diag([4.0, 1.0, 0.5]), tol=0.25,
                 name="eigenvalues (4, 1, 0.5), tol = 0.25: 1 equals tol x 4, which it does not exceed")]


def _spread(rng, n=400):
    """100 u u' + 5e-6 v v' with u = (1, ..., 1) / sqrt(n): its largest entry (0.25) is n times smaller than
    its largest eigenvalue (100), so a tolerance relative to the largest entry counts 5e-6 (20 times above
    1e-6 x 0.25) where the statement's rule does not (20 times below 1e-6 x 100)."""
    u = np.full(n, 1 / np.sqrt(n))
    v = rng.standard_normal(n)
    v -= (v @ u) * u
    v /= np.linalg.norm(v)
    return 100.0 * np.outer(u, u) + 5e-6 * np.outer(v, v)
