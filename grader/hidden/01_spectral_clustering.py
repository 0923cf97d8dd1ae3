"""Hidden tests of Chapter 1's exercises (notebooks/01_spectral_clustering.ipynb), one section per exercise.

The format is described in sslteach_grader.specs; book/authoring.md shows how to write one.
"""

import numpy as np

from sslteach_grader import Case


# %% ch1-ex-ideal-alignment
forbid = ["sslteach.relaxation"]


def cases(rng):
    y = np.where(rng.random(8) < 0.5, -1.0, 1.0)
    X = rng.standard_normal((15, 2))
    K_rbf = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 2)
    A = rng.standard_normal((6, 6))
    return [Case("alignment_ceiling_gap", np.outer(y, y), name="K = y y'"),
            Case("alignment_ceiling_gap", K_rbf, name="an RBF kernel"),
            Case("alignment_ceiling_gap", -np.outer(y, y), name="K = -y y'"),
            Case("alignment_ceiling_gap", A + A.T, name="an indefinite symmetric K"),
            Case("alignment_ceiling_gap", np.diag([1.0, -3.0 * rng.uniform(0.5, 2)]), name="K = diag(1, -c)"),
            # lambda_max < 0: the gap is 1 + |lambda_max| / ||K||_F, not 1 (lambda_max clipped at 0) or
            # 1 - |lambda_max| / ||K||_F (its absolute value)
            Case("alignment_ceiling_gap", -np.diag(rng.permutation([3.0, 2.0, 1.0])), name="K = -diag(3, 2, 1), shuffled")]


# %% ch1-ex-cut-bound-general
forbid = ["sslteach.relaxation"]


def _rbf(X):
    return np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 2)


def cases(rng):
    out = []
    for n in (8, 11):
        K = _rbf(rng.standard_normal((n, 2)))
        J = np.eye(n) - 1.0 / n
        h = n // 2
        two = np.zeros((n, n))
        two[:h, :h] = _rbf(rng.standard_normal((h, 2)))
        two[h:, h:] = _rbf(rng.standard_normal((n - h, 2)))
        out += [Case("cut_bound_bruteforce", K, name=f"non-negative kernel, n = {n}"),
                Case("cut_bound_bruteforce", J @ K @ J, name=f"centred kernel, n = {n}"),
                Case("cut_bound_bruteforce", two, name=f"two components, n = {n}")]
    return out


# %% ch1-ex-sweep-cut
forbid = ["sslteach.relaxation"]


def _rbf(X):
    return np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 2)


def cases(rng):
    return [Case("cut_sweep", _rbf(rng.standard_normal((n, 3))), rng.standard_normal(n), name=f"n = {n}")
            for n in (6, 23)]


cost = dict(function="cut_sweep", sizes=(500, 2000), max_exponent=2.4,
            make=lambda n, rng: (_rbf(rng.standard_normal((n, 3))), rng.standard_normal(n)))


# %% ch1-ex-kp-effect
# Lengths from 1 to 50, each with z'y < 0 and z'y > 0, so that an answer that depends on the length or on
# the sign of z'y fails.
def cases(rng):
    out = []
    for C0 in (0.5, 2.0, 3.7):
        y = np.where(rng.random(20) < 0.5, -1.0, 1.0)
        z = np.zeros(20)
        z[:6] = np.where(rng.random(6) < 0.5, -1.0, 1.0)
        out.append(Case("kp_gain", y, z, C0, name=f"C0 = {C0}"))
    for n in (1, 3, 7, 50):
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        for sign in (-1.0, 1.0):
            z = sign * y * rng.uniform(0.5, 2.0, n)  # z'y has the sign `sign`
            out.append(Case("kp_gain", y, z, 1.3, name=f"n = {n}, z'y {'<' if sign < 0 else '>'} 0"))
    return out


# %% ch1-ex-second-eigvec
forbid = ["sklearn.cluster", "scipy.cluster"]


def cases(rng):
    out = []
    for a, b in ((4.0, 2.0), (5.0, 1.5)):
        centres = np.array([(a, b), (a, -b), (-a, b), (-a, -b)])
        X = centres[np.repeat(np.arange(4), 30)] + 0.6 * rng.standard_normal((120, 2))
        X = X - X.mean(0)
        out.append(Case("four_way", X @ X.T, name=f"clouds at (+-{a}, +-{b})"))
    # the same kernel plus c I (same eigenvectors, same order): np.linalg.eig then returns its
    # eigenvalues unsorted about half the time, so an answer that takes eig's first two columns
    # fails one of these three with probability about 0.9
    for c in (30.0, 300.0, 3000.0):
        centres = np.array([(4.0, 2.0), (4.0, -2.0), (-4.0, 2.0), (-4.0, -2.0)])
        X = centres[np.repeat(np.arange(4), 30)] + 0.6 * rng.standard_normal((120, 2))
        X = X - X.mean(0)
        out.append(Case("four_way", X @ X.T + c * np.eye(120), name=f"clouds at (+-4, +-2), plus {c:g} I"))
    return out


def compare(case, got, want):
    from sklearn.metrics import adjusted_rand_score

    got = np.asarray(got).ravel()
    if got.shape != np.shape(want):
        return f"four_way must return one code per point ({np.size(want)}), got shape {got.shape}"
    if not set(np.unique(got).tolist()) <= {0, 1, 2, 3}:
        return "four_way must return codes in 0, 1, 2, 3"
    if adjusted_rand_score(want, got) < 0.99:
        return "the codes do not follow the signs of the top two eigenvectors"
    return None


# %% ch1-ex-normalize-why
def cases(rng):
    out = []
    for n, scale in ((40, 3.0), (60, 0.5)):
        y = rng.permutation(np.repeat([0, 1], n // 2))
        X = rng.standard_normal((n, 4)) * np.where(y == 0, scale, 1.0)[:, None]
        out += [Case("class_mean_norms", X, y, name=f"class_mean_norms, n = {n}"),
                Case("norm_threshold_accuracy", X, y, name=f"norm_threshold_accuracy, n = {n}")]
    # "all thresholds" include those with every point on one side: here no split beats calling
    # every point class 0 (labels 0 0 1 0 0 by norm: 0.8; without those thresholds, 0.6)
    u = rng.standard_normal(4)
    X = np.outer(np.arange(1.0, 6.0), u / np.linalg.norm(u))
    out.append(Case("norm_threshold_accuracy", X, np.array([0, 0, 1, 0, 0]),
                    name="norms 1 to 5, labels 0 0 1 0 0 (the best threshold puts every point in class 0)"))
    # tied norms with different labels: a threshold cannot split equal norms (splitting them gives 0.75)
    X = np.outer([1.0, 1.0, 2.0, 2.0], u / np.linalg.norm(u))
    out.append(Case("norm_threshold_accuracy", X, np.array([0, 1, 0, 1]),
                    name="norms 1 1 2 2, labels 0 1 0 1 (no threshold separates a tie: 0.5)"))
    return out
