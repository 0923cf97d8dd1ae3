"""sslteach.kernels against independent formulations (explicit J @ K @ J, double loops)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sslteach.kernels import (
    center_kernel,
    linear_kernel,
    mds_kernel,
    normalize_kernel,
    rbf_kernel,
    squared_distances,
)

finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False)


def explicit_J(n):
    return np.eye(n) - np.ones((n, n)) / n


def rel_err(a, b):
    return np.abs(a - b).max() / max(np.abs(b).max(), 1e-300)


@given(
    arrays(np.float64, st.tuples(st.integers(1, 12), st.integers(1, 12)), elements=finite).filter(
        lambda A: A.shape[0] == A.shape[1]
    )
)
def test_center_kernel_equals_J_K_J(K):
    J = explicit_J(K.shape[0])
    expected = J @ K @ J
    got = center_kernel(K)
    assert np.allclose(got, expected, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(K).max()))


def test_center_kernel_relative_error_large():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 5))
    K = rbf_kernel(X, sigma=1.3)
    J = explicit_J(300)
    assert rel_err(center_kernel(K), J @ K @ J) < 1e-10


@given(arrays(np.float64, st.tuples(st.integers(2, 10), st.integers(1, 4)), elements=finite))
def test_mds_kernel_equals_minus_half_JMJ_and_recovers_centred_gram(X):
    M = squared_distances(X)
    J = explicit_J(X.shape[0])
    K = mds_kernel(M)
    scale = max(1.0, np.abs(M).max())
    assert np.allclose(K, -0.5 * J @ M @ J, atol=1e-10 * scale)
    # classical MDS: -1/2 J M J is the Gram matrix of the centred points
    Xc = X - X.mean(axis=0)
    assert np.allclose(K, Xc @ Xc.T, atol=1e-8 * scale)


def test_mds_and_center_agree_on_euclidean_data():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50, 3))
    assert np.allclose(mds_kernel(squared_distances(X)), center_kernel(linear_kernel(X)), atol=1e-10)


def test_center_kernel_allocates_one_result_and_leaves_input():
    K = np.arange(16.0).reshape(4, 4)
    before = K.copy()
    Kc = center_kernel(K)
    assert Kc is not K and np.array_equal(K, before)
    assert np.allclose(Kc.sum(axis=0), 0) and np.allclose(Kc.sum(axis=1), 0)


def test_rbf_double_loop_and_convention():
    rng = np.random.default_rng(2)
    X, Y = rng.standard_normal((7, 3)), rng.standard_normal((5, 3))
    sigma = 0.8
    K = rbf_kernel(X, Y, sigma=sigma)
    for i in range(7):
        for j in range(5):
            assert K[i, j] == pytest.approx(np.exp(-np.sum((X[i] - Y[j]) ** 2) / (2 * sigma**2)), rel=1e-12)
    assert np.array_equal(np.diag(rbf_kernel(X, sigma=sigma)), np.ones(7))


def test_linear_kernel_double_loop():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((6, 4))
    K = linear_kernel(X)
    assert np.allclose(K, [[np.dot(a, b) for b in X] for a in X])


@given(arrays(np.float64, st.tuples(st.integers(1, 8), st.integers(1, 4)), elements=finite))
def test_gram_matrices_are_psd(X):
    for K in (linear_kernel(X), rbf_kernel(X, sigma=1.0)):
        w = np.linalg.eigvalsh(K)
        assert w.min() >= -1e-8 * max(1.0, np.abs(w).max())


def test_normalize_kernel_double_loop_and_unit_diagonal():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((6, 3)) + 2
    K = linear_kernel(X)
    Kn = normalize_kernel(K)
    for i in range(6):
        for j in range(6):
            cos = X[i] @ X[j] / np.linalg.norm(X[i]) / np.linalg.norm(X[j])
            assert Kn[i, j] == pytest.approx(cos, rel=1e-12)
    assert np.allclose(np.diag(Kn), 1)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "X", [np.array([1.0, 2.0, 3.0]), np.array([[np.nan, 1.0]]), np.array([[np.inf, 1.0]])]
)
def test_bad_X_raises_with_advice(X):
    with pytest.raises(ValueError, match="reshape|NaN"):
        rbf_kernel(X, sigma=1.0)


@pytest.mark.parametrize("sigma", [0, -1.0, np.nan, np.inf, "1"])
def test_bad_sigma(sigma):
    with pytest.raises(ValueError, match="sigma"):
        rbf_kernel(np.eye(3), sigma=sigma)


def test_mismatched_features():
    with pytest.raises(ValueError, match="features"):
        linear_kernel(np.ones((3, 2)), np.ones((3, 4)))


def test_non_square_and_nan_kernels():
    with pytest.raises(ValueError, match="square"):
        center_kernel(np.ones((3, 4)))
    with pytest.raises(ValueError, match="NaN"):
        center_kernel(np.array([[1.0, np.nan], [np.nan, 1.0]]))
    with pytest.raises(ValueError, match="square"):
        mds_kernel(np.ones(4))


def test_mds_kernel_refuses_non_distances():
    with pytest.raises(ValueError, match="negative"):
        mds_kernel(-np.ones((3, 3)) + np.eye(3))
    with pytest.raises(ValueError, match="zero diagonal"):
        mds_kernel(np.ones((3, 3)))


def test_normalize_kernel_zero_diagonal():
    with pytest.raises(ValueError, match="positive diagonal"):
        normalize_kernel(linear_kernel(np.array([[0.0, 0.0], [1.0, 2.0]])))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_mds_and_center_refuse_nan_and_inf(bad):
    M = np.array([[0.0, 1.0, 4.0], [1.0, 0.0, 1.0], [4.0, 1.0, 0.0]])
    M[0, 2] = M[2, 0] = bad
    with pytest.raises(ValueError, match="NaN"):
        mds_kernel(M)
    with pytest.raises(ValueError, match="NaN"):
        center_kernel(M)


def test_squared_distances_survive_a_large_offset_and_copies_are_exactly_zero_apart():
    from scipy.spatial.distance import cdist

    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 5))
    X = np.r_[X, X[:20]]  # 20 exact copies
    for offset in (0.0, 1e6):
        Xo = X + offset  # representable exactly enough: offsets of 1e6 keep 1e-10 resolution
        D2 = squared_distances(Xo)
        np.testing.assert_allclose(D2, cdist(Xo, Xo, "sqeuclidean"), rtol=1e-8, atol=1e-8)
        assert np.all(D2[np.arange(200, 220), np.arange(20)] == 0.0)
        K = rbf_kernel(Xo, sigma=0.5)
        np.testing.assert_allclose(K, rbf_kernel(X, sigma=0.5), atol=1e-6)
    Y = X[:7] + 1e-9  # near-copies across two sets: recomputed from the differences
    want = cdist(Y, X, "sqeuclidean")
    np.testing.assert_allclose(squared_distances(Y, X), want, rtol=1e-6, atol=1e-20)
