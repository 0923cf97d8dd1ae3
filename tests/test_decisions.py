"""Decisions that do not depend on round-off (sslteach._decisions) and where sslteach uses them."""

import numpy as np
import pytest
import scipy.sparse as sp

from sslteach import graphs
from sslteach import relaxation as rx
from sslteach import spectral_kernels as sk
from sslteach._decisions import TIE_RTOL, argmax_rows, first_best, orient_columns, stable_order


def test_first_best_counts_round_off_as_a_tie_and_keeps_the_first():
    s = np.array([0.5, 0.7, 0.7 * (1 + 1e-13), 0.7 * (1 + 1e-6)])
    assert first_best(s) == 3  # a real difference is not a tie
    assert first_best(s[:3]) == 1  # 0.7 and 0.7 (1 + 1e-13) are tied: the first wins
    assert np.argmax(s[:3]) == 2  # where an exact argmax would follow the round-off
    assert first_best([3.0, 1.0, 1.0 + 1e-15], maximize=False) == 1
    assert first_best([np.nan, 2.0, np.nan, 2.0]) == 1
    assert first_best([-np.inf, 1.0, np.inf]) == 1  # infinities mark excluded candidates
    with pytest.raises(ValueError, match="nothing to choose"):
        first_best([np.nan, np.inf])


def test_argmax_rows_and_stable_order():
    F = np.array([[1.0, 1.0 + 1e-14, 0.0], [0.0, 0.0, 0.0], [1.0, 2.0, 2.0 - 1e-3], [-3.0, -1.0, -1.0]])
    assert argmax_rows(F).tolist() == [0, 0, 1, 1]
    v = np.array([0.3, 0.1 + 0.2, 0.5, -0.2])  # 0.1 + 0.2 = 0.30000000000000004
    assert stable_order(v).tolist() == [2, 0, 1, 3]
    assert np.argsort(-v, kind="stable").tolist() == [2, 1, 0, 3]  # the exact sort follows round-off
    assert stable_order(np.zeros(3)).tolist() == [0, 1, 2]


def test_orient_columns_fixes_the_sign_by_the_largest_entry_ties_to_the_first():
    V = np.array([[0.6, -0.5], [-0.8, 0.5 * (1 + 1e-12)], [0.0, 0.1]])
    W = orient_columns(V)
    assert W[:, 0].tolist() == [-0.6, 0.8, 0.0]  # largest |entry| is -0.8
    assert W[0, 1] > 0  # -0.5 and 0.5(1 + 1e-12) tie in magnitude: the first decides
    assert np.array_equal(orient_columns(-V), W)  # either sign of the input gives one answer
    assert TIE_RTOL == 1e-9


def _lp_problem(seed, n=80, m=8):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2)) + np.repeat([[0, 0], [3, 0]], n // 2, axis=0)
    y = np.full(n, -1)
    y[:5], y[n // 2 : n // 2 + 5] = 0, 1  # balanced labels: the constant eigenvector does not pay
    lam, V = sk.laplacian_eigenpairs(graphs.knn_graph(X, 6), m)
    return lam, V, y


def _critical_beta(lam, T, eta=2.0):
    """mu = 0 is optimal iff beta <= beta* (the cone's rays u_t = eta^(k-t), t <= k)."""
    best = np.inf
    for k in range(len(lam)):
        ray = eta ** (k - np.arange(k + 1))
        g = ray @ T.sum(axis=0)[: k + 1]
        if g > 0:
            best = min(best, (ray @ lam[: k + 1]) / g)
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lp_weights_at_round_off_are_zero_and_solvers_agree_on_the_support(seed):
    lam, V, y = _lp_problem(seed)
    T = sk.tsk_constraint_matrix(V, y)
    b_star = _critical_beta(lam, T)
    assert 0 < b_star < np.inf
    # below the critical beta the optimum is mu = 0: every path returns exact zeros
    for solver in ("scipy", "HIGHS", "CLARABEL"):
        assert not np.any(sk.solve_tsk(lam, V, y, beta=0.9 * b_star, solver=solver)), solver
    # above it: the same support from every solver, weights equal to solver tolerance
    mus = [sk.solve_tsk(lam, V, y, beta=1.5 * b_star, solver=s) for s in ("scipy", "HIGHS", "CLARABEL")]
    assert np.any(mus[0] > 0)
    for mu in mus[1:]:
        assert np.array_equal(mu > 0, mus[0] > 0)
        np.testing.assert_allclose(mu, mus[0], rtol=1e-5, atol=1e-9)
    # the rule itself: noise of 1e-13 on a zero optimum is zero; a tail below 1e-6 x max is zeroed
    assert not np.any(sk.clean_weights(np.full(8, 1e-13), T))
    mu = sk.clean_weights(np.array([2.0, 1.0, 1e-7, 1e-12, 0, 0, 0, 0]), T)
    assert mu.tolist() == [2.0, 1.0, 0.0, 0.0, 0, 0, 0, 0]


def test_zero_eigenvalue_is_exact_and_eigenvectors_have_a_fixed_sign():
    lam, V, _ = _lp_problem(1)
    assert lam[0] == 0.0
    assert np.all(V[np.argmax(np.abs(V), axis=0), np.arange(V.shape[1])] > 0)


def test_threshold_sweep_ties_in_v_keep_index_order():
    K = np.ones((4, 4)) + np.eye(4)
    v = np.array([0.5, 0.1 + 0.2, 0.3, -0.5])  # entries 1 and 2 equal to round-off
    sweep = rx.threshold_sweep(K, v)
    assert sweep.order.tolist() == [0, 1, 2, 3]


def test_knn_graph_with_blas_round_off_above_the_old_tolerance_is_exact():
    """Far from the origin the |x|^2 + |y|^2 - 2x'y query misjudges tied distances by more
    than a relative 1e-9; the graph must still be the exact eq. (2) graph."""
    rng = np.random.default_rng(0)
    X = 1e3 + rng.integers(0, 3, size=(120, 20)).astype(float)  # brute force (d > 15), many ties
    W = graphs.knn_graph(X, 5).toarray()
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    h = np.sort(D + np.diag(np.full(len(X), np.inf)), axis=1)[:, 4]
    reach = np.maximum(h[:, None], h[None, :])
    want = np.where((D <= reach) & ~np.eye(len(X), dtype=bool), np.exp(-(D**2) / reach**2), 0.0)
    assert sp.issparse(graphs.knn_graph(X, 5))
    np.testing.assert_allclose(W, want, rtol=1e-12, atol=0)


def test_zero_eigenspace_of_a_disconnected_graph_is_the_components_vectors():
    rng = np.random.default_rng(0)
    X = np.r_[rng.standard_normal((30, 2)), rng.standard_normal((50, 2)) + 50]
    X = np.r_[X, rng.standard_normal((30, 2)) - 50]
    W = graphs.knn_graph(X, 5)
    lam, V = sk.laplacian_eigenpairs(W, 6)
    assert lam[:3].tolist() == [0.0, 0.0, 0.0] and lam[3] > 0
    deg = np.asarray(W.sum(axis=1)).ravel()
    # largest component first (points 30-79), then the two of 30 by their first vertex
    for col, members in enumerate([np.arange(30, 80), np.arange(0, 30), np.arange(80, 110)]):
        u = np.zeros(110)
        u[members] = np.sqrt(deg[members])
        np.testing.assert_allclose(V[:, col], u / np.linalg.norm(u), atol=1e-15)
    np.testing.assert_allclose(V.T @ V, np.eye(6), atol=1e-12)


def test_fixed_prints_the_nearest_value_and_stays_off_rounding_edges():
    """Against exact arithmetic (fractions): the printed value is within half a last digit of
    the exact binary value, and that value is at least TIE_RTOL away from the rounding half."""
    from fractions import Fraction

    from sslteach._decisions import fixed

    rng = np.random.default_rng(0)
    xs = [*rng.uniform(-100, 100, 200), *(k / 16 for k in range(-40, 41)), *(k / 2000 for k in range(200))]
    lengthened = 0
    for x in xs:
        for d in (0, 1, 2, 3):
            s = fixed(x, d)
            used = len(s.split(".")[1]) if "." in s else 0
            assert d <= used <= d + 3, (x, d, s)
            lengthened += used > d
            q, exact = Fraction(1, 10**used), Fraction(x)
            assert abs(Fraction(s) - exact) <= q / 2, (x, d, s)
            nearest_half = (exact / q - Fraction(1, 2)).__round__() * q + q / 2
            assert abs(exact - nearest_half) > Fraction(TIE_RTOL) * max(abs(exact), q) * Fraction(99, 100)
    assert lengthened > 50  # k/16 and k/2000 land on edges: the test reaches the longer branch
    assert fixed(0.5, 2, sign=True) == "+0.50" and fixed(-1 / 16, 3) == "-0.0625"
    assert fixed(float("nan"), 2) == "nan"
