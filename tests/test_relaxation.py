"""sslteach.relaxation against brute force: every threshold, every labelling for small m."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import DataConversionWarning

from sslteach.kernels import center_kernel, linear_kernel, normalize_kernel, rbf_kernel
from sslteach.relaxation import (
    SpectralAlignmentClustering,
    alignment,
    alignment_upper_bound,
    cut_cost,
    cut_cost_lower_bound,
    fiedler_vector,
    flip_costs,
    threshold_sweep,
    top_eigenvector,
    total_alignment,
)


def random_kernel(seed, m, kind="rbf"):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, 3))
    K = rbf_kernel(X, sigma=1.0) if kind == "rbf" else linear_kernel(X)
    return K, rng


def brute_sweep(K_eval, v, criterion):
    m = len(v)
    order = np.argsort(-v, kind="stable")
    out = []
    for i in range(1, m):
        y = -np.ones(m)
        y[order[:i]] = 1
        out.append(alignment(K_eval, y) if criterion == "alignment" else cut_cost(K_eval, y))
    return np.array(out)


@pytest.mark.parametrize("criterion", ["alignment", "cut"])
@pytest.mark.parametrize("seed", range(4))
def test_threshold_sweep_equals_brute_force(criterion, seed):
    K, rng = random_kernel(seed, 40)
    K = center_kernel(normalize_kernel(K)) if seed % 2 else K
    v = rng.standard_normal(40)
    res = threshold_sweep(K, v, criterion)
    assert np.allclose(res.scores, brute_sweep(K, v, criterion), rtol=0, atol=1e-9)
    pick = np.argmax if criterion == "alignment" else np.argmin
    assert res.best == pick(res.scores) + 1
    assert np.sum(res.y == 1) == res.best


@pytest.mark.parametrize("criterion", ["alignment", "cut"])
def test_threshold_sweep_with_K_eval(criterion):
    K, rng = random_kernel(7, 30)
    z = np.zeros(30)
    z[:6] = rng.choice([-1.0, 1.0], 6)
    KP = K + 1.0 * np.outer(z, z)
    v = top_eigenvector(K)[1]
    res = threshold_sweep(K, v, criterion, K_eval=KP)
    assert np.allclose(res.scores, brute_sweep(KP, v, criterion), atol=1e-9)


@given(st.integers(2, 12), st.integers(0, 10_000))
def test_relaxation_bounds_hold_for_every_labelling(m, seed):
    K, _ = random_kernel(seed, m, kind="rbf" if seed % 2 else "linear")
    K = center_kernel(normalize_kernel(K)) if seed % 3 == 0 else K
    if np.linalg.norm(K) < 1e-12:
        return
    upper = alignment_upper_bound(K)
    lower = cut_cost_lower_bound(K)
    for bits in itertools.product([-1.0, 1.0], repeat=m):
        y = np.array(bits)
        assert alignment(K, y) <= upper + 1e-10
        if y.sum() == 0:
            assert cut_cost(K, y) >= lower - 1e-10


def test_bounds_are_attained_by_relaxed_solutions():
    K, _ = random_kernel(3, 25)
    lam, v = top_eigenvector(K)
    y = np.sqrt(25) * v  # on the sphere ||y||^2 = m: the relaxation attains the bound
    assert y @ K @ y / (25 * np.linalg.norm(K)) == pytest.approx(alignment_upper_bound(K))
    lam2, f = fiedler_vector(K)
    L = np.diag(K.sum(1)) - K
    assert abs(f.sum()) < 1e-10 and f @ L @ f == pytest.approx(lam2)
    w = np.linalg.eigvalsh(L)
    assert lam2 == pytest.approx(w[1])  # rbf kernel, connected: the Fiedler value


def test_cut_cost_identities_and_flip_cost():
    for seed in range(5):
        K, rng = random_kernel(seed, 20)
        y = rng.choice([-1.0, 1.0], 20)
        A, C, T = alignment(K, y), cut_cost(K, y), total_alignment(K)
        assert C == pytest.approx((T - A) / 2)
        L = np.diag(K.sum(1)) - K
        assert C == pytest.approx(y @ L @ y / (2 * 20 * np.linalg.norm(K)))
        diff = sum(K[i, j] for i in range(20) for j in range(20) if y[i] != y[j])
        assert C == pytest.approx(diff / (20 * np.linalg.norm(K)))
        costs = flip_costs(K, y)
        for i in range(20):
            y2 = y.copy()
            y2[i] = -y2[i]
            change = (y2 @ K @ y2 - y @ K @ y) / np.linalg.norm(K)
            assert costs[i] == pytest.approx(change)


def test_eigsh_path_matches_dense(monkeypatch):
    import sslteach.relaxation as rel

    K, _ = random_kernel(11, 120)
    dense = top_eigenvector(K), fiedler_vector(K)
    monkeypatch.setattr(rel, "DENSE_EIGEN_LIMIT", 10)
    sparse = top_eigenvector(K), fiedler_vector(K)
    for (l1, v1), (l2, v2) in zip(dense, sparse):
        assert l1 == pytest.approx(l2, rel=1e-8)
        assert abs(abs(v1 @ v2) - 1) < 1e-8


def test_estimator_separates_two_clouds_and_uses_labels():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.standard_normal((40, 2)), rng.standard_normal((40, 2)) + 6])
    truth = np.r_[np.zeros(40), np.ones(40)]
    for criterion in ("alignment", "cut"):
        est = SpectralAlignmentClustering(
            kernel="rbf", sigma=2.0, criterion=criterion, min_cluster_size=5
        ).fit(X)
        acc = np.mean(est.labels_ == truth)
        assert max(acc, 1 - acc) == 1.0
    y = np.full(80, -1)
    y[[0, 1, 45, 46]] = [7, 7, 9, 9]
    est = SpectralAlignmentClustering(kernel="rbf", sigma=2.0, criterion="cut", min_cluster_size=5).fit(X, y)
    assert set(est.transduction_) == {7, 9}
    assert np.all(est.transduction_[:40] == 7) and np.all(est.transduction_[40:] == 9)


@pytest.mark.parametrize(
    "K,y,match",
    [
        (np.ones((3, 4)), np.ones(3), "square"),
        (np.array([[1.0, 2.0], [0.0, 1.0]]), np.ones(2), "symmetric"),
        (np.eye(3), np.array([0, 1, 1]), r"\{-1, \+1\}"),
        (np.eye(3), np.ones(4), "length 3"),
        (np.zeros((3, 3)), np.ones(3), "zero matrix"),
    ],
)
def test_bad_input(K, y, match):
    with pytest.raises(ValueError, match=match):
        alignment(K, y)


def test_bad_sweep_and_estimator_input():
    K, _ = random_kernel(0, 5)
    with pytest.raises(ValueError, match="one value per point"):
        threshold_sweep(K, np.ones(4))
    with pytest.raises(ValueError, match="criterion"):
        threshold_sweep(K, np.ones(5), "ratio")
    # an eigenvector returned as a column (m, 1) or row (1, m) is the same relaxed labelling
    v = np.array([0.9, -0.2, 0.4, -0.7, 0.1])
    for shaped in (v[:, None], v[None, :]):
        assert np.array_equal(threshold_sweep(K, shaped).y, threshold_sweep(K, v).y)
    # the messages name the matrix that is wrong
    with pytest.raises(ValueError, match="K_eval must be symmetric"):
        threshold_sweep(K, v, K_eval=K + np.triu(np.ones((5, 5)), 1))
    with pytest.raises(ValueError, match="K_eval has shape"):
        threshold_sweep(K, v, K_eval=K[:4, :4])
    with pytest.raises(ValueError, match="K_eval is the zero matrix"):
        threshold_sweep(K, v, K_eval=np.zeros((5, 5)))
    X = np.random.default_rng(0).standard_normal((10, 2))
    with pytest.raises(ValueError, match="exactly two classes"):
        SpectralAlignmentClustering().fit(X, np.r_[np.zeros(3), -np.ones(7)])
    with pytest.raises(ValueError, match="kernel"):
        SpectralAlignmentClustering(kernel="poly").fit(X)


def test_degenerate_inputs_are_refused_not_decided_by_round_off():
    from sslteach.relaxation import SpectralAlignmentClustering, cut_cost_lower_bound, fiedler_vector

    for X, kw in ((np.full((5, 3), 0.3), {"kernel": "rbf"}), (np.ones((3, 2)), {})):
        with pytest.raises(ValueError, match="nothing to cluster"):
            SpectralAlignmentClustering(**kw).fit(X)
    for fn in (fiedler_vector, cut_cost_lower_bound):
        with pytest.raises(ValueError, match="at least 2 points"):
            fn(np.array([[1.0]]))


def test_threshold_sweep_docstring_leaves_the_update_to_the_exercise():
    # Chapter 1's sweep exercise asks the student to derive the running update; the reference
    # page states what the sweep computes and its cost, and cites the chapter for the update
    doc = threshold_sweep.__doc__
    assert "O(m^2)" in doc and "Chapter 1" in doc
    for formula in ("4(Ky)_p", "4K_{pp}", "L_{pp}", "2L_{:,p}", "y + 2e_p"):
        assert formula not in doc, formula


@pytest.mark.parametrize("f", [alignment, cut_cost, flip_costs])
def test_column_labels_are_raveled_with_a_warning_at_the_callers_line(f):
    """Labels shaped (m, 1) are used as (m,), with scikit-learn's DataConversionWarning, and the
    warning names this file (the caller), so Python's once-per-location rule shows it once per
    calling line, not once per session for every caller."""
    K, rng = random_kernel(11, 8)
    y = np.where(rng.random(8) < 0.5, 1, -1)
    y[:2] = [1, -1]
    with pytest.warns(DataConversionWarning, match="column-vector y") as caught:
        got = f(K, y[:, None])
    assert np.array_equal(got, f(K, y))
    assert [w.filename for w in caught] == [__file__]


def test_flip_costs_by_recomputation_on_a_kernel_without_unit_diagonal():
    """Delta_i = (y^(i)' K y^(i) - y' K y) / ||K||_F recomputed for every flip, on a linear
    kernel (the rbf kernels above have K_ii = 1, where 4 K_ii and 4 / K_ii agree)."""
    rng = np.random.default_rng(5)
    K = linear_kernel(rng.standard_normal((7, 3)) * 2.0)
    y = np.array([1, -1, 1, 1, -1, -1, 1.0])
    want = []
    for i in range(7):
        z = y.copy()
        z[i] = -z[i]
        want.append((z @ K @ z - y @ K @ y) / np.linalg.norm(K))
    assert np.allclose(flip_costs(K, y), want)


def test_estimator_builds_the_documented_kernel_and_pins_its_defaults():
    X = np.random.default_rng(6).standard_normal((9, 2))
    assert SpectralAlignmentClustering().get_params() == {
        "kernel": "linear",
        "sigma": 1.0,
        "normalize": True,
        "center": True,
        "criterion": "alignment",
        "C0": 1.0,
        "min_cluster_size": 1,
    }
    K_lin = center_kernel(normalize_kernel(linear_kernel(X)))
    assert np.allclose(SpectralAlignmentClustering().fit(X).kernel_matrix_, K_lin)
    K_rbf = center_kernel(normalize_kernel(rbf_kernel(X, sigma=0.7)))
    assert np.allclose(SpectralAlignmentClustering(kernel="rbf", sigma=0.7).fit(X).kernel_matrix_, K_rbf)
    K = rbf_kernel(X, sigma=0.7)
    est = SpectralAlignmentClustering(kernel="precomputed", normalize=False, center=False).fit(K)
    assert np.allclose(est.kernel_matrix_, K)
    two = SpectralAlignmentClustering(kernel="rbf").fit(X[:2])  # two points: one per side
    assert sorted(two.labels_.tolist()) == [0, 1]


def test_fiedler_vector_of_two_points():
    a = 0.3
    lam, v = fiedler_vector(np.array([[1.0, a], [a, 1.0]]))  # L = [[a, -a], [-a, a]]
    assert np.isclose(lam, 2 * a) and np.allclose(np.abs(v), np.sqrt(0.5)) and np.isclose(v.sum(), 0)
