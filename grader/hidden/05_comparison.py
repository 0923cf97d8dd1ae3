"""Hidden tests of Chapter 5's exercises (notebooks/05_comparison.ipynb), one section per exercise.

The format is described in sslteach_grader.specs; book/authoring.md shows how to write one.
"""

import numpy as np

from sslteach_grader import Case, same


# %% ch5-ex-nemenyi-cd
# k beyond Demšar's table (k <= 10) and both of its alpha levels: a typed table of q cannot pass.
forbid = ["sslteach.protocols.comparison"]


def cases(rng):
    return [Case("nemenyi_cd", k, N, alpha, name=f"k = {k}, N = {N}, alpha = {alpha}")
            for k, N, alpha in ((3, 14, 0.05), (int(rng.integers(4, 10)), 30, 0.10), (9, 7, 0.05),
                                (int(rng.integers(11, 25)), 20, 0.05), (12, 40, 0.01))]


# %% ch5-ex-holm
# The worked example needs the running maximum: its largest p-value, 0.04, is adjusted to 0.06, not 1 x 0.04.
# the comparison's Holm and the set-level protocol's own
forbid = ["sslteach.protocols.comparison", "sslteach.protocols.set_level.holm"]


def cases(rng):
    p = rng.uniform(0, 0.2, 7)
    p[3] = p[5]
    return [Case("holm", p, name="seven p-values with a tie"), Case("holm", rng.uniform(0, 1, 3), name="three p-values"),
            Case("holm", rng.permutation([0.01, 0.04, 0.03, 0.005]), name="the worked example, shuffled")]


# %% ch5-ex-one-nn
import types

# the tables' own 1-NN row, and the library's other nearest-point code (cluster_kernels._assign with the
# labelled points as k-means centres)
forbid = ["sslteach.protocols.baselines", "sslteach.cluster_kernels", "sslteach.graphs", "sslteach.kernels",
          "sslteach.ksc", "sslteach.relaxation", "sslteach.spectral_kernels"]


def cases(rng):
    out = []
    for n in (15, 30):
        X = rng.standard_normal((n, 3))
        y = np.full(n, -1)
        lab = rng.choice(n, 5, replace=False)
        y[lab] = rng.integers(0, 2, 5)
        y[lab[:2]] = [0, 1]
        out.append(Case("one_nn_method.transduce", types.SimpleNamespace(X=X), {}, y, name=f"n = {n}, 5 labels"))
    # far from the origin, where |x|^2 + |z|^2 - 2 x'z in float32 mislabels points (44 of 300 at
    # an offset of 1000); in float64 its error, about 1e-9, is far below the gaps between distances here
    X = rng.standard_normal((300, 3)) + 1000.0
    y = np.full(300, -1)
    lab = rng.choice(300, 10, replace=False)
    y[lab] = np.arange(10) % 2
    out.append(Case("one_nn_method.transduce", types.SimpleNamespace(X=X), {}, y, name="n = 300, 10 labels, far from 0"))
    # the same points with other labels, next: an answer that remembers its result for the points but not the
    # labels fails here
    y2 = np.full(300, -1)
    y2[lab[::-1]] = np.arange(10) % 2
    out.append(Case("one_nn_method.transduce", types.SimpleNamespace(X=X), {}, y2, name="the same points, other labels"))
    # where the Euclidean nearest labelled point is not the city-block (first) or the
    # Chebyshev (second) one
    for pts in ([[0.0, 0.0], [3.0, 0.0], [2.0, 2.0]], [[0.0, 0.0], [2.9, 0.0], [2.1, 2.1]]):
        out.append(Case("one_nn_method.transduce", types.SimpleNamespace(X=np.array(pts)), {}, np.array([-1, 0, 1]),
                        name=f"points {pts}, labels (unlabelled, 0, 1)"))
    # the Method itself: at most GRID_SIZE (6) settings, the comparison's rule, and one_nn's values. The grid
    # must be a plain tuple or list (its type's name is read), and its settings are counted in a copy of it
    # (grid * 1 is a plain tuple or list of every setting it holds), not by its len(), which a subclass can fake.
    out.append(Case("one_nn_method.grid.__class__.__name__.__str__", name="one_nn_method's grid", meta="grid type"))
    out.append(Case("one_nn_method.grid.__mul__", 1, name="one_nn_method's grid", meta="grid"))
    out.append(Case("one_nn_method.transduce", *out[0]["args"], name="one_nn_method.transduce, n = 15", meta="transduce"))
    return out


def compare(case, got, want):
    if case["meta"] == "grid type":
        return None if got in ("tuple", "list") else (
            f"one_nn_method's grid must be a plain tuple or list of settings (it is a {got}): the grader "
            "counts the settings in it")
    if case["meta"] == "grid":
        if not isinstance(got, list):
            return "one_nn_method's grid must be a plain tuple or list of settings"
        return None if 1 <= len(got) <= 6 else (
            f"one_nn_method's grid has {len(got)} settings; the comparison allows 1 to compare.GRID_SIZE = 6")
    return same(got, want)
