"""Neighbourhood graphs, their normalised Laplacian, and geodesic distances (Chapter 0).

:func:`knn_graph` is the one k-NN graph builder of the package, :func:`normalized_laplacian`
the one normalised Laplacian (``spectral_kernels`` uses the same private code), and
:func:`geodesic_distances` with :func:`join_components` the ISOMAP distances of
Chapter 2. Derived in :doc:`/notebooks/00_foundations`; the ``eq:...`` labels are that
chapter's. Bad input raises a ValueError that says what to do.

References
----------
Liu, W., Qian, B., Cui, J. & Liu, J. (2009). Spectral kernel learning for semi-supervised
classification. *IJCAI*, 1150–1155 (eq. (2), the adaptive weights).

Hein, M. & Maier, M. (2007). Manifold denoising. *NIPS 19*, 561–568.

Chung, F. R. K. (1997). *Spectral Graph Theory*. AMS (Section 1.2, the normalised Laplacian).

von Luxburg, U. (2007). A tutorial on spectral clustering. *Statistics and Computing* 17,
395–416.

Tenenbaum, J. B., de Silva, V. & Langford, J. C. (2000). A global geometric framework for
nonlinear dimensionality reduction. *Science* 290, 2319–2323 (ISOMAP).

Bodó, Z. & Csató, L. (2010). Hierarchical and reweighting cluster kernels for
semi-supervised learning. *Int. J. of Computers, Communications & Control* 5(4), 469–476.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree, shortest_path
from scipy.spatial import cKDTree
from scipy.spatial.distance import cdist
from sklearn.neighbors import NearestNeighbors

from ._validation import check_data, check_int, check_positive, check_square

__all__ = ["knn_graph", "knn_connectivity", "normalized_laplacian", "geodesic_distances", "join_components"]


def _check_n_neighbors(n_neighbors, n):
    return check_int(
        n_neighbors,
        "n_neighbors",
        low=1,
        high=n - 1,
        high_hint=f"A point has at most n - 1 = {n - 1} neighbours; choose a smaller n_neighbors.",
    )


def _undirected(rows, cols, n):
    """Each undirected edge of the directed pairs (rows, cols) once, as (lo, hi) with lo < hi.

    Also returns the position in (rows, cols) of one directed copy of each edge, so values
    computed per directed edge can be reused. A sort and a neighbour comparison, about five
    times faster than ``np.unique`` on these int64 keys at n = 50,000.
    """
    key = np.minimum(rows, cols).astype(np.int64) * n + np.maximum(rows, cols)
    order = np.argsort(key, kind="stable")
    key = key[order]
    first = np.ones(key.size, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    key = key[first]
    return key // n, key % n, order[first]


def _row_distances(X, rows, cols):
    """Exact Euclidean distances ``||X[rows] - X[cols]||`` computed pair by pair."""
    out = np.empty(rows.size)
    step = max(1, 2**22 // max(1, X.shape[1]))
    for s in range(0, rows.size, step):
        diff = X[rows[s : s + step]] - X[cols[s : s + step]]
        out[s : s + step] = np.sqrt(np.einsum("ij,ij->i", diff, diff))
    return out


_TREE_MAX_DIM = 15  # scikit-learn's own switch from a k-d tree to brute force
# Distances equal in exact arithmetic (the same coordinates in another order) can differ
# in the last bit, depending on the summation order (and so on the CPU's SIMD width):
# within this relative tolerance of the k-th distance a point counts as tied with it.
_TIE_RTOL = 1e-12


def _neighbours(X, k):
    r"""The k nearest neighbours of every point but itself, sorted, and a radius query.

    Up to ``_TREE_MAX_DIM`` features a ``scipy.spatial.cKDTree`` (about twice as fast as
    scikit-learn's k-d tree on the same query); above, scikit-learn's brute force. The
    points are queried in the tree's leaf order (``tree.indices``), so consecutive queries
    visit the same leaves (about 10% faster at n = 50,000, d = 5), and the rows put back.
    Returns ``(dist, ind, within, slack)`` with ``within(i, r)`` the indices at distance
    <= r of x_i and ``slack`` (n,) a bound on the round-off of the query's *squared*
    distances from x_i: the tree subtracts coordinates (relative round-off), brute force
    uses :math:`\lVert x\rVert^2 + \lVert y\rVert^2 - 2x^\top y` through BLAS, whose
    error scales with the squared norms and depends on the BLAS kernel.
    """
    n = X.shape[0]
    if X.shape[1] <= _TREE_MAX_DIM:
        tree = cKDTree(X)
        leaf_order = tree.indices
        dist_l, ind_l = tree.query(X[leaf_order], k=min(k + 1, n))
        dist, ind = np.empty_like(dist_l), np.empty_like(ind_l)
        dist[leaf_order], ind[leaf_order] = dist_l, ind_l
        # drop each point itself; with more than k + 1 copies of x_i it may be absent: drop the last
        drop = ind == np.arange(n)[:, None]
        drop[~drop.any(axis=1), -1] = True
        keep = ~drop
        dist, ind = dist[keep].reshape(n, -1), ind[keep].reshape(n, -1)
        slack = 1e-9 * dist[:, -1] ** 2 + 1e-24
        return dist, ind, lambda i, r: np.asarray(tree.query_ball_point(X[i], r), dtype=np.intp), slack
    nn = NearestNeighbors(n_neighbors=min(k, n - 1), algorithm="brute").fit(X)
    dist, ind = nn.kneighbors()  # excludes each query point itself
    x2 = np.einsum("ij,ij->i", X, X)
    slack = 1e-10 * (x2 + x2.max()) + 1e-24

    def within(i, r):
        return nn.radius_neighbors(X[i : i + 1], radius=r, return_distance=False)[0]

    return dist, ind, within, slack


def _knn_edges(X, k):
    """Directed edges i -> j for every j with ||x_i - x_j|| <= h(x_i), j != i.

    Returns (rows, cols, dist, h) with dist the exact length of each edge and h the exact
    distance to the k-th neighbour. One k+1-neighbour query finds the k nearest neighbours;
    where the query's (k+1)-th squared distance is within its round-off bound of the k-th
    (a tie, or an order the query cannot be sure of), the point's neighbours are found
    again by a radius query and chosen by exact distances, so the graph does not depend on
    the BLAS kernel that computed the query's distances.
    """
    n = X.shape[0]
    dist, ind, within, slack = _neighbours(X, min(k + 1, n - 1))
    knn = ind[:, :k]
    rows = np.repeat(np.arange(n), k)
    cols = knn.ravel()
    # exact distance to the k-th neighbour (tree/brute distances carry round-off, and
    # brute force uses the |x|^2 + |y|^2 - 2x'y shortcut)
    edge_d = _row_distances(X, rows, cols)
    h = edge_d.reshape(n, k).max(axis=1)
    if ind.shape[1] > k:
        unsure = np.flatnonzero(dist[:, k] ** 2 - dist[:, k - 1] ** 2 <= 2 * slack)
        if unsure.size:
            keep = np.ones(rows.size, dtype=bool)
            extra_r, extra_c, extra_d = [], [], []
            for i in unsure:
                # every j with exact ||x_i - x_j|| <= h[i] is within this radius of the query
                r = np.sqrt(max(dist[i, k - 1], h[i]) ** 2 + 2 * slack[i])
                nbrs = np.setdiff1d(within(i, r), [i])
                d_i = _row_distances(X, np.full(nbrs.size, i), nbrs)
                h[i] = np.partition(d_i, k - 1)[k - 1]  # the exact k-th distance
                sel = d_i <= h[i] * (1.0 + _TIE_RTOL)  # ties to round-off are ties
                keep[i * k : (i + 1) * k] = False
                extra_r.append(np.full(int(sel.sum()), i))
                extra_c.append(nbrs[sel])
                extra_d.append(d_i[sel])
            rows = np.concatenate([rows[keep], *extra_r])
            cols = np.concatenate([cols[keep], *extra_c])
            edge_d = np.concatenate([edge_d[keep], *extra_d])
    return rows, cols, edge_d, h


_WEIGHTS = ("heat", "connectivity", "distance")


def knn_graph(X, n_neighbors, *, weights="heat"):
    r"""Symmetric k-NN graph with the adaptive Gaussian weights of eq. (2) of Liu et al. (2009).

    With :math:`h(x)` the distance from :math:`x` to its k-th nearest neighbour among the
    other points (eqs. ``eq:knn-weights``, and ``eq:tsk-graph`` of Chapter 3),

    .. math::

       W_{ij} = \exp\!\left(-\frac{\lVert x_i - x_j\rVert^2}{\max\{h(x_i)^2, h(x_j)^2\}}\right)
       \quad\text{if } i \ne j \text{ and } \lVert x_i - x_j\rVert \le \max\{h(x_i), h(x_j)\},

    and 0 otherwise: j among the k nearest of i, or i among those of j (every point has at
    least k neighbours), so every ``"heat"`` weight lies in :math:`[e^{-1}, 1]`. The same edges
    carry eq. (2) (Chapter 3), 1 (LapSVM's binary graph, Chapter 4) or their length (ISOMAP,
    :func:`geodesic_distances`).

    **Ties and duplicates.** Points at exactly the k-th distance are all neighbours, as the
    inequality says; distances within a relative 1e-12 of it (equal in exact arithmetic) count
    as tied, and every edge's distance is recomputed exactly, so the graph does not depend on
    the BLAS kernel or CPU. A point with k exact copies has :math:`h = 0`; its edges to them get
    the limit 1.

    Parameters
    ----------
    X : array-like of shape (n, d)
        At least 2 rows.
    n_neighbors : int
        k, with 1 <= k < n.
    weights : {"heat", "connectivity", "distance"}, default "heat"

    Returns
    -------
    W : scipy.sparse.csr_matrix of shape (n, n)
        Symmetric, zero diagonal, each edge stored as (i, j) and (j, i) (zero-length edges too).

    Notes
    -----
    **Cost.** One neighbour query (a k-d tree up to 15 features, about :math:`O(nk\log n)`;
    brute force above, :math:`O(n^2d)` in row blocks), :math:`O(nkd)` for the exact distances,
    and a radius query per point whose k-th distance is tied; memory :math:`O(nk)`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph
    >>> X = np.array([[0.0], [1.0], [2.0], [4.0]])  # k = 2: h = 2, 1, 2, 3
    >>> np.round(knn_graph(X, 2).toarray(), 4)  # exp(-1/4), exp(-1), exp(-4/9); x_2's 2nd distance tied
    array([[0.    , 0.7788, 0.3679, 0.    ],
           [0.7788, 0.    , 0.7788, 0.3679],
           [0.3679, 0.7788, 0.    , 0.6412],
           [0.    , 0.3679, 0.6412, 0.    ]])
    >>> float(knn_graph(np.array([[0.0], [0.0], [1.0]]), 1)[0, 1])  # copies: the limit 1
    1.0
    """
    if not isinstance(weights, str) or weights not in _WEIGHTS:
        raise ValueError(f"weights must be one of {_WEIGHTS}; got {weights!r}.")
    X = check_data(X, name="X", min_samples=2)
    return _knn_graph_and_h(X, _check_n_neighbors(n_neighbors, X.shape[0]), weights)[0]


def knn_connectivity(X, Y=None, *, n_neighbors=7):
    r"""scikit-learn's ``kernel="knn"`` graph, the same on every machine.

    Row i holds a 1 at :math:`x_i` itself and at its ``n_neighbors - 1`` nearest other
    points, as ``NearestNeighbors.kneighbors_graph`` of the fitted points gives it to
    ``LabelPropagation`` and ``LabelSpreading``. scikit-learn breaks distance ties by the
    order its threads meet the points, so on data with tied distances (integer pixels,
    duplicate documents) its graph, and the labels, change with the number of OpenMP threads.
    Here points tied at the last distance (within a relative 1e-12, as in :func:`knn_graph`)
    go in index order. Pass it as ``kernel=functools.partial(knn_connectivity,
    n_neighbors=k)``; only the transductive graph on ``X`` itself is defined.

    Parameters
    ----------
    X : array-like of shape (n, d)
        At least 2 rows.
    Y : None or X itself
        scikit-learn calls ``kernel(X, X)``.
    n_neighbors : int, default 7
        k, the row sums, with 1 <= k <= n.

    Returns
    -------
    G : scipy.sparse.csr_matrix of shape (n, n)
        0/1, k ones per row (not symmetric).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_connectivity
    >>> X = np.array([[0.0], [1.0], [2.0], [4.0]])  # x_1 is 1 from x_0 and from x_2: a tie
    >>> knn_connectivity(X, n_neighbors=2).toarray().astype(int)
    array([[1, 1, 0, 0],
           [1, 1, 0, 0],
           [0, 1, 1, 0],
           [0, 0, 1, 1]])
    """
    X = check_data(X, name="X", min_samples=2)
    if Y is not None and Y is not X and not (np.shape(Y) == X.shape and np.array_equal(Y, X)):
        raise ValueError(
            "knn_connectivity defines only the graph on X itself (kernel(X, X), as LabelSpreading's "
            "fit calls it); use transduction_ for the labels instead of predict on new points."
        )
    n = X.shape[0]
    k = check_int(n_neighbors, "n_neighbors", low=1)
    if k > n:
        raise ValueError(f"n_neighbors must be at most the number of points, {n}; got {k}.")
    rows, cols = np.arange(n), np.arange(n)
    if k > 1:
        r, c, d, h = _knn_edges(X, k - 1)
        tied = d >= h[r] / (1.0 + _TIE_RTOL)  # at the (k-1)-th distance, up to round-off
        order = np.lexsort((c, tied, r))
        r, c = r[order], c[order]
        start = np.searchsorted(r, np.arange(n))
        keep = np.arange(r.size) - start[r] < k - 1
        rows, cols = np.concatenate([rows, r[keep]]), np.concatenate([cols, c[keep]])
    return sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))


def _knn_graph_and_h(X, k, weights="heat"):
    """Core of ``knn_graph`` (``X`` checked, 1 <= k < n), with the exact k-th neighbour
    distances h (reused by out-of-sample extensions).
    """
    n = X.shape[0]
    rows, cols, edge_d, h = _knn_edges(X, k)
    lo, hi, first = _undirected(rows, cols, n)
    d = edge_d[first]  # ||x_i - x_j|| and ||x_j - x_i|| are the same float
    if weights == "distance":
        w = d
    elif weights == "connectivity":
        w = np.ones_like(d)
    else:
        den = np.maximum(h[lo], h[hi]) ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            w = np.where(den > 0, np.exp(-(d**2) / np.where(den > 0, den, 1.0)), 1.0)
    # built from (row, col) pairs so that zero-length edges (duplicates) stay stored edges
    W = sp.coo_matrix(
        (np.concatenate([w, w]), (np.concatenate([lo, hi]), np.concatenate([hi, lo]))), shape=(n, n)
    ).tocsr()
    return W, h


def _check_graph(W, name="W"):
    """``W`` as a finite, square, symmetric, non-negative float64 matrix (CSR if sparse)."""
    W = check_square(W, name=name, symmetric=True, accept_sparse=True)
    wmin = (W.data.min() if W.nnz else 0.0) if sp.issparse(W) else (W.min() if W.size else 0.0)
    if wmin < 0:
        raise ValueError(
            f"{name} must have non-negative weights (a similarity graph); got a minimum of "
            f"{wmin:.3g}. A signed matrix has no graph Laplacian with spectrum in [0, 2]."
        )
    return sp.csr_matrix(W) if sp.issparse(W) else W


def _degree_normalized(W, *, isolated="zero"):
    r"""The degrees :math:`d` and :math:`S = D^{-1/2}WD^{-1/2}` (CSR): the book's one normalisation.

    :math:`d_i = \sum_j W_{ij}` sums the whole row, a self-loop included (Chung; von Luxburg);
    :math:`\mathcal L = I - S`. A vertex of degree 0 gets a zero row and column
    (``isolated="zero"``) or is refused (``isolated="raise"``, for callers that divide by its
    degree). No validation (see :func:`_check_graph`). Time and memory :math:`O(\mathrm{nnz}(W))`.
    """
    W = sp.csr_matrix(W, dtype=np.float64)
    deg = np.asarray(W.sum(axis=1)).ravel()
    alone = deg <= 0
    if isolated == "raise" and alone.any():
        raise ValueError(
            f"W has {int(alone.sum())} isolated vertices (degree 0); the normalised Laplacian is "
            "undefined there. Increase n_neighbors or remove those outliers."
        )
    s = 1.0 / np.sqrt(np.where(alone, 1.0, deg))
    s[alone] = 0.0
    return (sp.diags(s) @ W @ sp.diags(s)).tocsr(), deg


def normalized_laplacian(W):
    r"""Normalised graph Laplacian :math:`\mathcal L = I - D^{-1/2} W D^{-1/2}` (``eq:normalized-laplacian``).

    .. math::

       \mathcal L_{ij} = \delta_{ij} - \frac{W_{ij}}{\sqrt{d_i d_j}}, \qquad d_i = \sum_j W_{ij},

    the degrees summing the whole row. **Self-loops** count in the degree and give
    :math:`\mathcal L_{ii} = 1 - W_{ii}/d_i`: Chung's definition (also von Luxburg's), under
    which :math:`f^\top\mathcal Lf = \tfrac12\sum_{ij}W_{ij}(f_i/\sqrt{d_i} - f_j/\sqrt{d_j})^2`
    holds for every symmetric :math:`W \ge 0` (``scipy.sparse.csgraph.laplacian(normed=True)``
    drops the diagonal instead; the two agree when it is zero, as for :func:`knn_graph`). The
    eigenvalues lie in [0, 2], 0 once per connected component; an isolated vertex gets a zero
    row and column (Chung's :math:`\mathcal L_{vv} = 0`), a component with eigenvalue 0.
    Chapter 3's spectral kernels are built on its eigenvectors.

    Parameters
    ----------
    W : array-like or sparse matrix of shape (n, n)
        Symmetric, non-negative.

    Returns
    -------
    L : ndarray, or scipy.sparse.csr_matrix when ``W`` is sparse

    Notes
    -----
    **Cost.** Time and memory :math:`O(\mathrm{nnz}(W))` (sparse), :math:`O(n^2)` (dense).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import normalized_laplacian
    >>> W = np.array([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 1.0, 0.0],
    ...               [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])  # a triangle, an isolated vertex
    >>> normalized_laplacian(W)
    array([[ 1. , -0.5, -0.5,  0. ],
           [-0.5,  1. , -0.5,  0. ],
           [-0.5, -0.5,  1. ,  0. ],
           [ 0. ,  0. ,  0. ,  0. ]])
    >>> int(np.sum(np.linalg.eigvalsh(normalized_laplacian(W)) < 1e-10))  # two components
    2

    A self-loop of weight 2 at vertex 0 of a path 0 - 1 - 2: :math:`d = (3, 2, 1)`,
    :math:`\mathcal L_{00} = 1 - 2/3`:

    >>> np.round(normalized_laplacian([[2.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), 4)
    array([[ 0.3333, -0.4082,  0.    ],
           [-0.4082,  1.    , -0.7071],
           [ 0.    , -0.7071,  1.    ]])
    """
    sparse = sp.issparse(W)
    S, deg = _degree_normalized(_check_graph(W))
    L = sp.diags((deg > 0).astype(np.float64)) - S
    return L.tocsr() if sparse else L.toarray()


def join_components(X, G):
    r"""Connect a disconnected distance graph by the shortest bridges (the book's rule, Chapter 2).

    Components are joined along a minimum spanning tree T of the complete graph on the
    components, two components at the distance of their closest pair,

    .. math::

       \delta(C_a, C_b) = \min_{i \in C_a,\ j \in C_b} \lVert x_i - x_j\rVert,

    each of the c - 1 tree edges adding a closest pair :math:`(i_{ab}, j_{ab})` as one edge of
    that length: single linkage, close to the rule of Yong & Jie (2005) cited by Bodó & Csató
    (Sect. 3.4); no geodesic becomes infinite, none is shortened more than needed. Two
    components sharing a point are joined by a stored zero-length edge. Among bridges equal
    to round-off (``pairwise_distances``), which one is chosen is not specified; its length is
    recomputed exactly.

    Parameters
    ----------
    X : array-like of shape (n, d)
        One row per vertex of ``G``.
    G : sparse matrix of shape (n, n)
        Symmetric; stored entries are edge lengths (a dense array's zeros are not edges).

    Returns
    -------
    G : scipy.sparse.csr_matrix of shape (n, n)
        Connected; the input (as CSR) plus the bridges in both directions.

    Notes
    -----
    **Cost.** Time :math:`O(n^2d)` at worst (distances in row blocks) plus :math:`O(c^2)` for
    the tree; memory :math:`O(nc)`.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from scipy.sparse.csgraph import connected_components
    >>> from sslteach.graphs import join_components
    >>> X = np.array([[0.0], [1.0], [5.0], [6.0]])
    >>> G = sp.csr_matrix(([1.0, 1.0, 1.0, 1.0], ([0, 1, 2, 3], [1, 0, 3, 2])), shape=(4, 4))
    >>> J = join_components(X, G)
    >>> connected_components(J, directed=False)[0], J.nnz, float(J[1, 2])  # the bridge x_1 - x_2
    (1, 6, 4.0)
    """
    G = sp.csr_matrix(check_square(G, name="G", symmetric=True, accept_sparse=True))
    if G.nnz and G.data.min() < 0:
        raise ValueError("G holds negative edge lengths; pass distances (>= 0).")
    X = check_data(X, name="X")
    if X.shape[0] != G.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but G has {G.shape[0]} vertices; pass one row per vertex.")
    n_comp, labels = connected_components(G, directed=False)
    if n_comp == 1:
        return G
    order = np.argsort(labels, kind="stable")
    starts = np.searchsorted(labels[order], np.arange(n_comp))
    # R[i, c] = distance from point i to the nearest point of component c
    # by differences (scipy's cdist), not the BLAS |x|^2 + |y|^2 - 2x'y shortcut, so that the
    # bridges chosen among (nearly) equal ones do not depend on the BLAS kernel
    n = X.shape[0]
    step = max(1, 2**22 // max(1, n))
    R = np.vstack(
        [np.minimum.reduceat(cdist(X[i : i + step], X)[:, order], starts, axis=1) for i in range(0, n, step)]
    )
    C = np.minimum.reduceat(R[order], starts, axis=0)  # component-to-component distances
    np.fill_diagonal(C, 0.0)
    # MST over components; tiny offset keeps zero-length bridges (duplicates) as edges
    T = minimum_spanning_tree(sp.csr_matrix(C + 1e-300 * (1 - np.eye(n_comp)))).tocoo()
    extra_r, extra_c, extra_w = [], [], []
    for a, b in zip(T.row, T.col, strict=False):
        in_a = np.flatnonzero(labels == a)
        i = in_a[np.argmin(R[in_a, b])]
        in_b = np.flatnonzero(labels == b)
        dij = np.sqrt(((X[in_b] - X[i]) ** 2).sum(axis=1))
        j = in_b[np.argmin(dij)]
        extra_r += [i, j]
        extra_c += [j, i]
        extra_w += [dij.min()] * 2
    G = G.tocoo()
    return sp.csr_matrix(
        (
            np.concatenate([G.data, extra_w]),
            (np.concatenate([G.row, extra_r]), np.concatenate([G.col, extra_c])),
        ),
        shape=G.shape,
    )


def geodesic_distances(X, n_neighbors=None, radius=None):
    r"""Shortest-path (geodesic) distances on the k-NN or :math:`\varepsilon` graph: ISOMAP's.

    .. math::

       D_{ij} = \min_{\text{paths } i = p_0, \dots, p_r = j \text{ in } G}
       \ \sum_{s=1}^{r} \lVert x_{p_{s-1}} - x_{p_s}\rVert,

    the construction of Bodó & Csató's Algorithm 2 (gHCK, Chapter 2): G joins each point to
    its k nearest neighbours (:func:`knn_graph` with ``weights="distance"``) or to every point
    within ``radius``, edges weighted by length; a disconnected G is first joined by
    :func:`join_components`, so every distance is finite. Copies of a point are 0 apart.

    Parameters
    ----------
    X : array-like of shape (n, d)
        At least 2 rows.
    n_neighbors : int, optional
        k, 1 <= k < n. Exactly one of ``n_neighbors`` and ``radius``.
    radius : float, optional
        > 0.

    Returns
    -------
    D : ndarray of shape (n, n)
        Symmetric, zero diagonal, never below the Euclidean distance.

    Notes
    -----
    **Cost.** Dijkstra from every source (``scipy.sparse.csgraph.shortest_path``),
    :math:`O(n^2\log n + n\,\mathrm{nnz})`, plus the graph and, when disconnected,
    :math:`O(n^2d)` for :func:`join_components`; memory the (n, n) result.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import geodesic_distances
    >>> U = np.array([[0.0, 0.0], [0.0, 1.0], [0.0, 2.0], [1.0, 2.0],
    ...               [2.0, 2.0], [2.0, 1.0], [2.0, 0.0]])  # unit steps along a U
    >>> float(geodesic_distances(U, n_neighbors=1)[0, 6]), float(np.linalg.norm(U[0] - U[6]))
    (6.0, 2.0)
    >>> geodesic_distances(np.array([[0.0], [1.0], [2.0], [5.0]]), radius=1.5)[3]  # x_3 joined
    array([5., 4., 3., 0.])
    """
    X = check_data(X, name="X", min_samples=2)
    n = X.shape[0]
    if (n_neighbors is None) == (radius is None):
        raise ValueError("Give exactly one of n_neighbors (k-NN graph) or radius (epsilon graph).")
    if n_neighbors is not None:
        G = _knn_graph_and_h(X, _check_n_neighbors(n_neighbors, n), "distance")[0]
    else:
        r = check_positive(radius, "radius")
        nbrs = NearestNeighbors().fit(X).radius_neighbors(radius=r, return_distance=False)
        rows = np.repeat(np.arange(n), [a.size for a in nbrs])
        cols = np.concatenate(nbrs) if n else np.empty(0, int)
        lo, hi, _ = _undirected(rows, cols, n)
        d = _row_distances(X, lo, hi)
        # built directly as CSR so that zero-length edges (duplicates) stay stored edges
        G = sp.csr_matrix(
            (np.concatenate([d, d]), (np.concatenate([lo, hi]), np.concatenate([hi, lo]))), shape=(n, n)
        )
    G = join_components(X, G)
    D = shortest_path(G, method="D", directed=False)
    np.fill_diagonal(D, 0.0)
    return D
