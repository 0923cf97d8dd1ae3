"""Hidden tests of Chapter 2's exercises (notebooks/02_cluster_kernels.ipynb), one section per exercise.

The format is described in sslteach_grader.specs; book/authoring.md shows how to write one.
"""

import numpy as np

from sslteach_grader import Case, same


# %% ch2-ex-monotone
forbid = ["sslteach.cluster_kernels.hierarchical_cluster_kernel"]


def cases(rng):
    return [Case("monotone_hck", rng.standard_normal((12, 2)), link, f, name=f"{link} linkage, f = {f.__name__}")
            for link, f in (("single", np.sqrt), ("average", np.log1p), ("complete", np.square))]


# %% ch2-ex-inversion
# is_monotonic and the functions that walk the children for it (maxdists(Z) > Z[:, 2] is an answer),
# with the compiled module behind them
forbid = ["scipy.cluster.hierarchy.is_monotonic", "scipy.cluster.hierarchy.maxdists",
          "scipy.cluster.hierarchy.maxinconsts", "scipy.cluster.hierarchy.maxRstat", "scipy.cluster.hierarchy.cophenet",
          "scipy.cluster._hierarchy"]


def cases(rng):
    from scipy.cluster.hierarchy import linkage

    out = [Case("has_inversion", linkage(np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 1.8]]), "centroid"),
                name="three points, centroid linkage")]
    # rows out of height order, without an inversion (each merge above its children), and with one:
    # an answer that compares consecutive rows instead of merges and their children fails these
    out.append(Case("has_inversion", np.array([[0, 1, 5.0, 2], [2, 3, 1.0, 2], [4, 5, 6.0, 4]]),
                    name="rows not sorted by height, no inversion"))
    out.append(Case("has_inversion", np.array([[0, 1, 5.0, 2], [2, 3, 1.0, 2], [4, 5, 3.0, 4]]),
                    name="rows not sorted by height, an inversion at the root"))
    out.append(Case("has_inversion", np.array([[2, 3, 1.0, 2], [0, 1, 5.0, 2], [4, 5, 6.0, 4]]),
                    name="rows sorted, no inversion"))
    # a merge as high as its child is no inversion ("lower"): single linkage of 0, 1, 2 on a line (<= is wrong)
    out.append(Case("has_inversion", np.array([[0, 1, 1.0, 2], [2, 3, 1.0, 3]]),
                    name="two merges at the same height, no inversion"))
    for k in range(4):
        X = rng.standard_normal((12, 2))
        out.append(Case("has_inversion", linkage(X, "centroid"), name=f"centroid linkage, draw {k}"))
        out.append(Case("has_inversion", linkage(X, "single"), name=f"single linkage, draw {k}"))
    return out


# %% ch2-ex-minimax
# scikit-learn's single linkage too (the minimax distances can be read off AgglomerativeClustering's merges)
forbid = ["sslteach.cluster_kernels", "scipy.cluster", "sklearn.cluster"]


def cases(rng):
    return [Case("minimax_from_mst", rng.standard_normal((n, 2)), name=f"n = {n}") for n in (5, 17)]


# No cost test: an O(n^3) loop over stop-overs in numpy (Floyd-Warshall) is as fast as the model's O(n^2)
# walk written in Python at the sizes a grader can time (it grew like n^2.8, the walk like n^2.0 to n^2.7,
# from 400 to 800 on a loaded machine): the O(n^2) is graded by hand.


# %% ch2-ex-center
# (kernels._double_center is the library's own J M J without J)
forbid = ["sslteach.kernels.mds_kernel", "sslteach.kernels.center_kernel", "sslteach.kernels._double_center",
          "sklearn.preprocessing.KernelCenterer", "numpy.eye", "numpy.identity"]


def _sq(X):
    return ((X[:, None] - X[None]) ** 2).sum(-1)


def cases(rng):
    return [Case("double_center", _sq(rng.standard_normal((n, 3))), name=f"squared distances, n = {n}")
            for n in (4, 13, 21)]


# max_slowdown 8: at n = 1600 (20 MB arrays) a right answer with one more temporary than the model
# measured over 4 times the model on a loaded machine; J M J, O(n^3), about 18 times
cost = dict(function="double_center", sizes=(400, 1600), max_exponent=2.5, max_slowdown=8.0,
            make=lambda n, rng: (_sq(rng.standard_normal((n, 3))),))


# %% ch2-ex-schur-features
def cases(rng):
    return [Case("hadamard_features", rng.standard_normal((n, p)), rng.standard_normal((n, q)),
                 name=f"F {n}x{p}, G {n}x{q}") for n, p, q in ((5, 2, 3), (7, 4, 1), (6, 3, 2))]


def _columns_sorted(H):
    """H's columns in a canonical order (a column permutation of H gives the same matrix)."""
    key = np.round(H, 8)
    return H[:, np.lexsort(key[::-1])]


def compare(case, got, want):
    if hasattr(got, "toarray"):  # a scipy.sparse matrix: compared as the dense matrix it stands for
        got = got.toarray()
    try:
        got = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return same(got, want, what="the feature matrix")  # says why the value cannot be read
    if got.shape != np.shape(want):
        return f"the features must form an n x (p q) matrix {np.shape(want)}, got shape {got.shape}"
    gram = want @ want.T  # near-zero entries (cancellation) are judged on the Gram matrix's scale, so that
    # features returned in float32 (single precision: errors near 1e-7 of that scale) are not refused
    if not np.allclose(got @ got.T, gram, atol=1e-5 * max(1.0, float(np.abs(gram).max()))):
        return "the rows are not features of the Hadamard product A o B (their Gram matrix differs)"
    # the statement asks for the rows f_i (x) g_i: the pq products F[i, a] G[i, b], in any fixed order of (a, b)
    if not np.allclose(_columns_sorted(got), _columns_sorted(np.asarray(want, dtype=float))):
        return ("the rows have the right Gram matrix but are not f_i (x) g_i: row i must hold the p q products "
                "F[i, a] G[i, b]")
    return None


# %% ch2-ex-negative-base
def cases(rng):
    X = rng.standard_normal((9, 2))
    X = X - X.mean(0)
    Kb = X @ X.T
    Krw = rng.uniform(0.5, 4.0, (9, 9))
    # one pair where K_b < 0 and K_rw != 1 in every draw ((K_rw - 1) |K_b| is right
    # wherever K_b >= 0): the off-diagonal pair with the most negative K_b
    neg = np.unravel_index(np.argmin(Kb + np.diag(np.full(9, np.inf))), Kb.shape)
    Krw[neg], Krw[neg[::-1]] = 2.5, 2.5  # far from 1, where the two formulas differ by 3 |K_b|
    pairs = [(0, 1), (3, 7), (5, 5), (int(neg[0]), int(neg[1]))]
    return [Case("reweighting_gain", Kb, Krw, i, j, name=f"pair ({i}, {j})") for i, j in pairs]
