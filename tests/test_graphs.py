"""sslteach.graphs against a brute-force eq. (2), spectra and scikit-learn/scipy references."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.sparse.csgraph import connected_components

from sslteach import graphs
from sslteach.graphs import geodesic_distances, join_components, knn_graph, normalized_laplacian


def brute_force_eq2(X, k):
    """Eq. (2) of Liu et al. (2009) by a double loop over all pairs."""
    n = len(X)
    D = np.array([[np.linalg.norm(X[i] - X[j]) for j in range(n)] for i in range(n)])
    h = np.array([np.sort(np.delete(D[i], i))[k - 1] for i in range(n)])
    W = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            # equal distances can differ in the last bit (coordinates summed in another order):
            # within a relative 1e-12 of h they are ties, which eq. (2) includes
            if i != j and D[i, j] <= max(h[i], h[j]) * (1 + 1e-12):
                den = max(h[i], h[j]) ** 2
                W[i, j] = np.exp(-(D[i, j] ** 2) / den) if den > 0 else 1.0
    return W


@given(
    arrays(np.float64, st.tuples(st.integers(3, 25), st.integers(1, 4)), elements=st.floats(-10, 10)),
    st.integers(1, 6),
)
def test_knn_graph_equals_brute_force(X, k):
    k = min(k, len(X) - 1)
    W = knn_graph(X, k)
    assert sp.issparse(W)
    assert np.allclose(W.toarray(), brute_force_eq2(X, k), rtol=1e-10, atol=1e-12)


def test_knn_graph_random_continuous_inputs():
    rng = np.random.default_rng(0)
    for _trial in range(5):
        X = rng.standard_normal((40, 3))
        W = knn_graph(X, 5)
        assert np.allclose(W.toarray(), brute_force_eq2(X, 5), rtol=1e-12, atol=0)


def test_knn_graph_symmetric_zero_diagonal_and_laplacian_spectrum():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((120, 4))
    W = knn_graph(X, 6)
    assert abs(W - W.T).max() == 0
    assert np.all(W.diagonal() == 0)
    assert W.data.min() > 0 and W.data.max() <= 1
    lam = np.linalg.eigvalsh(normalized_laplacian(W).toarray())
    assert lam.min() >= -1e-10 and lam.max() <= 2 + 1e-10


def test_knn_graph_high_dimensional_uses_exact_distances():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((30, 200))
    assert np.allclose(knn_graph(X, 4).toarray(), brute_force_eq2(X, 4), rtol=1e-12)


def test_duplicated_rows_give_finite_weights():
    rng = np.random.default_rng(3)
    base = rng.standard_normal((10, 2))
    X = np.vstack([base, base, base, base[:3], base[:3]])  # some points have 4 copies
    for k in (1, 3, 5):
        W = knn_graph(X, k)
        assert np.all(np.isfinite(W.data))
        assert np.allclose(W.toarray(), brute_force_eq2(X, k))
    L = normalized_laplacian(knn_graph(X, 3))
    assert np.all(np.isfinite(L.toarray()))


def test_laplacian_zero_multiplicity_counts_components():
    rng = np.random.default_rng(4)
    X = np.vstack(
        [rng.standard_normal((30, 2)), rng.standard_normal((30, 2)) + 100, rng.standard_normal((30, 2)) - 100]
    )
    W = knn_graph(X, 4)
    n_comp, _ = connected_components(W, directed=False)
    lam = np.linalg.eigvalsh(normalized_laplacian(W).toarray())
    assert n_comp == 3
    assert np.sum(lam < 1e-9) == 3


def test_normalized_laplacian_matches_definition_dense_and_isolated_vertex():
    rng = np.random.default_rng(5)
    A = rng.random((6, 6))
    W = (A + A.T) / 2
    np.fill_diagonal(W, 0)
    W[5, :] = W[:, 5] = 0  # isolated vertex
    d = W.sum(axis=1)
    dinv = np.where(d > 0, 1 / np.sqrt(np.where(d > 0, d, 1)), 0)
    expected = np.diag((d > 0).astype(float)) - dinv[:, None] * W * dinv[None, :]
    L = normalized_laplacian(W)
    assert isinstance(L, np.ndarray) and np.allclose(L, expected)
    lam = np.linalg.eigvalsh(L)
    assert np.sum(np.abs(lam) < 1e-12) == 2  # the 5-vertex block and the isolated vertex


def chung_laplacian(W):
    """Chung (1997), Section 1.2, entry by entry: d_v = sum_u W_uv (loops included),
    L_vv = 1 - W_vv / d_v (0 if d_v = 0), L_uv = -W_uv / sqrt(d_u d_v) for u != v."""
    n = len(W)
    d = [sum(W[u][v] for u in range(n)) for v in range(n)]
    L = np.zeros((n, n))
    for u in range(n):
        for v in range(n):
            if u == v:
                L[u, v] = 1 - W[v][v] / d[v] if d[v] > 0 else 0.0
            elif W[u][v] != 0:
                L[u, v] = -W[u][v] / np.sqrt(d[u] * d[v])
    return L


def _graph_with_loops(seed, n=7):
    rng = np.random.default_rng(seed)
    A = rng.random((n, n)) * (rng.random((n, n)) < 0.5)
    W = (A + A.T) / 2
    np.fill_diagonal(W, rng.random(n) * (rng.random(n) < 0.6))  # self-loops on some vertices
    return W


@pytest.mark.parametrize("seed", range(6))
def test_normalized_laplacian_self_loops_follow_chung(seed):
    W = _graph_with_loops(seed)
    W[0, :] = W[:, 0] = 0  # an isolated vertex
    W[1, :] = W[:, 1] = 0
    W[1, 1] = 0.7  # a vertex whose only edge is its self-loop: L_11 = 0, its own component
    want = chung_laplacian(W.tolist())
    assert np.allclose(normalized_laplacian(W), want, atol=1e-14)
    assert np.allclose(normalized_laplacian(sp.csr_matrix(W)).toarray(), want, atol=1e-14)
    # the book's quadratic form eq:normalized-laplacian, with the degrees of the whole row
    d = W.sum(axis=1)
    f = np.random.default_rng(seed).standard_normal(len(W))
    g = np.where(d > 0, f / np.sqrt(np.where(d > 0, d, 1)), 0)
    quad = 0.5 * np.sum(W * (g[:, None] - g[None, :]) ** 2)
    assert np.isclose(f @ want @ f, quad)


def test_normalized_laplacian_self_loop_spectrum_and_scipy_without_loops():
    from scipy.sparse.csgraph import laplacian

    # a triangle with a unit loop at vertex 0: d = (3, 2, 2)
    W = np.array([[1.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    lam = np.linalg.eigvalsh(normalized_laplacian(W))
    assert np.allclose(lam, [0.0, 7 / 6, 1.5])  # not scipy's [0, 1.5, 1.5], which drops the loop
    W0 = W.copy()
    np.fill_diagonal(W0, 0)
    assert np.allclose(normalized_laplacian(W0), laplacian(W0, normed=True))


def floyd_warshall(G):
    n = G.shape[0]
    D = np.full((n, n), np.inf)
    np.fill_diagonal(D, 0)
    C = G.tocoo()
    for i, j, w in zip(C.row, C.col, C.data, strict=False):
        D[i, j] = min(D[i, j], w)
    for m in range(n):
        D = np.minimum(D, D[:, [m]] + D[[m], :])
    return D


def test_geodesic_distances_equal_floyd_warshall_on_knn_graph():
    rng = np.random.default_rng(6)
    t = np.sort(rng.uniform(0, 3 * np.pi, 60))
    X = np.c_[t * np.cos(t), t * np.sin(t)]  # a spiral: geodesic >> Euclidean
    from sklearn.neighbors import kneighbors_graph

    G = kneighbors_graph(X, 5, mode="distance")
    G = G.maximum(G.T)
    assert connected_components(G, directed=False)[0] == 1
    D = geodesic_distances(X, n_neighbors=5)
    assert np.allclose(D, floyd_warshall(G))
    E = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    assert np.all(D >= E - 1e-10)
    off = ~np.eye(60, dtype=bool)
    assert (D[off] / E[off]).max() > 2  # across the arms the path is much longer


def test_geodesic_disconnected_components_are_joined_by_documented_rule():
    rng = np.random.default_rng(7)
    A = rng.standard_normal((20, 2))
    B = rng.standard_normal((20, 2)) + [50, 0]
    X = np.vstack([A, B])
    D = geodesic_distances(X, n_neighbors=3)
    assert np.all(np.isfinite(D))
    assert np.allclose(D, D.T) and np.all(np.diag(D) == 0)
    # the bridge is the closest pair between the two clouds
    E = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    i, j = np.unravel_index(np.argmin(E[:20, 20:]), (20, 20))
    assert D[i, 20 + j] == pytest.approx(E[i, 20 + j])


def test_join_components_adds_c_minus_1_bridges():
    rng = np.random.default_rng(8)
    X = np.vstack([rng.standard_normal((5, 2)) + 20 * c for c in range(4)])
    block = np.ones((5, 5)) - np.eye(5)
    G = sp.csr_matrix(sp.block_diag([block] * 4))  # four connected components
    G2 = join_components(X, G)
    assert connected_components(G2, directed=False)[0] == 1
    assert G2.nnz == G.nnz + 2 * 3  # c - 1 = 3 bridges, stored both ways
    # with no edges at all every point is a component: n - 1 bridges (a spanning tree)
    T = join_components(X, sp.csr_matrix((20, 20)))
    assert T.nnz == 2 * 19 and connected_components(T, directed=False)[0] == 1
    # and that tree is the Euclidean minimum spanning tree
    from scipy.sparse.csgraph import minimum_spanning_tree

    E = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    assert T.sum() / 2 == pytest.approx(minimum_spanning_tree(E).sum())


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "X,k,match",
    [
        (np.ones((5, 2)), 5, "smaller n_neighbors"),
        (np.ones((5, 2)), 0, "n_neighbors"),
        (np.arange(5.0), 2, "reshape"),
        (np.array([[0.0, np.nan], [1.0, 1.0], [2.0, 2.0]]), 1, "NaN"),
        (np.array([[0.0, np.inf], [1.0, 1.0], [2.0, 2.0]]), 1, "NaN"),
        (np.ones((5, 2)), 2.5, "integer"),
    ],
)
def test_knn_graph_bad_input(X, k, match):
    with pytest.raises(ValueError, match=match):
        knn_graph(X, k)


def test_geodesic_bad_input():
    X = np.random.default_rng(0).standard_normal((6, 2))
    with pytest.raises(ValueError, match="exactly one"):
        geodesic_distances(X)
    with pytest.raises(ValueError, match="exactly one"):
        geodesic_distances(X, n_neighbors=2, radius=1.0)
    with pytest.raises(ValueError, match="radius"):
        geodesic_distances(X, radius=-1.0)
    with pytest.raises(ValueError, match="smaller n_neighbors"):
        geodesic_distances(X, n_neighbors=6)


def test_geodesic_radius_graph_and_duplicates():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [10.0, 0.0]])
    D = geodesic_distances(X, radius=1.0)
    assert D[0, 1] == 0 and D[0, 3] == pytest.approx(2.0)
    assert D[3, 4] == pytest.approx(8.0)  # joined by the closest pair
    assert np.all(np.isfinite(D))


def test_laplacian_bad_input():
    with pytest.raises(ValueError, match="symmetric"):
        normalized_laplacian(np.array([[0.0, 1.0], [0.0, 0.0]]))
    with pytest.raises(ValueError, match="non-negative"):
        normalized_laplacian(np.array([[0.0, -1.0], [-1.0, 0.0]]))
    with pytest.raises(ValueError, match="square"):
        normalized_laplacian(np.ones((2, 3)))


def test_join_components_bridges_do_not_depend_on_the_blas_kernel():
    """Equal-length bridges (the sides of a square) were chosen by the round-off of BLAS
    distances: 60 of 200 squares differed between two OpenBLAS kernels (found in review)."""
    import os
    import subprocess
    import sys

    probe = (
        "import numpy as np, scipy.sparse as sp\n"
        "from sslteach.graphs import join_components\n"
        "out = []\n"
        "for seed in range(200):\n"
        "    rng = np.random.default_rng(seed); c = rng.uniform(-50, 50, 2); s = rng.uniform(0.01, 3)\n"
        "    X = c + s * np.array([[0., 0.], [1., 0.], [0., 1.], [1., 1.]])\n"
        "    J = sp.triu(join_components(X, sp.csr_matrix((4, 4))))\n"
        "    out.append(sorted(zip(*[a.tolist() for a in J.nonzero()])))\n"
        "print(out)\n"
    )
    runs = []
    for kernel, threads in (("Haswell", "2"), ("Sandybridge", "1")):
        env = dict(os.environ, OPENBLAS_CORETYPE=kernel, OPENBLAS_NUM_THREADS=threads)
        cmd = [sys.executable, "-c", probe]
        res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        runs.append(res.stdout)
    assert runs[0] == runs[1], "join_components chose different bridges under two BLAS kernels"


# --- knn_connectivity: scikit-learn's knn kernel without its thread-dependent tie-breaking ---


def _knn_connectivity_by_brute_force(X, k):
    """Independent formulation: exact squared distances of integer points (no round-off), rank
    each row by (distance, index), the point itself first."""
    n = X.shape[0]
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    G = np.zeros((n, n))
    for i in range(n):
        others = sorted((D[i, j], j) for j in range(n) if j != i)
        G[i, i] = 1
        for _, j in others[: k - 1]:
            G[i, j] = 1
    return G


@pytest.mark.parametrize("k", [1, 2, 5, 8])
@pytest.mark.parametrize("d", [3, 40])  # a k-d tree below 16 features, brute force above
def test_knn_connectivity_ranks_ties_by_index(k, d):
    rng = np.random.default_rng(k + d)
    X = rng.integers(0, 3, size=(60, d)).astype(float)  # many tied distances, some duplicates
    X[7] = X[3]
    G = graphs.knn_connectivity(X, n_neighbors=k)
    np.testing.assert_array_equal(G.toarray(), _knn_connectivity_by_brute_force(X, k))


def test_knn_connectivity_is_scikit_learns_graph_where_nothing_ties():
    from sklearn.neighbors import NearestNeighbors

    X = np.random.default_rng(0).normal(size=(200, 5))
    ours = graphs.knn_connectivity(X, X, n_neighbors=7)
    theirs = NearestNeighbors(n_neighbors=7).fit(X).kneighbors_graph(X, 7, mode="connectivity")
    np.testing.assert_array_equal(ours.toarray(), theirs.toarray())


def test_knn_connectivity_serves_labelspreading_and_refuses_other_points():
    from functools import partial

    from sklearn.semi_supervised import LabelSpreading

    X = np.random.default_rng(1).normal(size=(50, 3))
    y = np.full(50, -1)
    y[:3], y[3:6] = 0, 1
    ours = LabelSpreading(kernel=partial(graphs.knn_connectivity, n_neighbors=7)).fit(X, y)
    theirs = LabelSpreading(kernel="knn", n_neighbors=7).fit(X, y)
    np.testing.assert_array_equal(ours.transduction_, theirs.transduction_)
    with pytest.raises(ValueError, match="only the graph on X itself"):
        graphs.knn_connectivity(X, X[:10])
    with pytest.raises(ValueError, match="at most the number of points"):
        graphs.knn_connectivity(X, n_neighbors=51)
