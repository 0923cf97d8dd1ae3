r"""Hierarchical and reweighting cluster kernels (Chapter 2).

Derived in :doc:`/notebooks/02_cluster_kernels`; equation, algorithm and section numbers are
those of Bodó & Csató (2010). A kernel built from labelled *and* unlabelled points, then
handed to any kernel machine (:class:`DataDependentSVC`):

* :func:`hierarchical_cluster_kernel` (HCK, Algorithm 1; gHCK, Algorithm 2): the cophenetic
  distances (:func:`cophenetic_matrix`) turned into a kernel by classical MDS;
  :class:`HierarchicalClusterKernel` extends it to new points.
* the reweighting kernels :func:`rck_gaussian`, :func:`rck_dot`, :func:`rck_scaled` (eqs.
  5-7) of memberships ``U`` (:func:`membership_matrix`, one row per cluster, one column per
  point), used as :math:`K_{rw}\circ K_b` with a non-negative base kernel :math:`K_b` (PSD
  by the Schur product theorem); :func:`bagged_cluster_kernel` (Weston et al.), which they
  generalise.

Table 1's protocol is :mod:`sslteach.protocols.ch2`. ``sigma`` is the book's bandwidth, as in
:func:`sslteach.kernels.rbf_kernel`: :math:`\exp(-d^2/(2\sigma^2))`.

References
----------
Bodó, Z. and Csató, L. (2010). Hierarchical and reweighting cluster kernels for
semi-supervised learning. *Int. J. of Computers, Communications & Control* 5(4), 469-476.

Weston, J., Leslie, C., Ie, E. and Noble, W. S. (2006). Semi-supervised protein
classification using cluster kernels. In *Semi-Supervised Learning* (Chapelle, Schölkopf
and Zien, eds.), MIT Press, 343-360.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.cluster.hierarchy as sch
import scipy.sparse as sp
from scipy.spatial.distance import squareform
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, _fit_context
from sklearn.svm import SVC
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._decisions import TIE_RTOL, first_best, orient_columns
from ._validation import (
    check_data,
    check_int,
    check_labels,
    check_positive,
    check_square,
    one_hot,
    validate_fit_data,
)
from .graphs import geodesic_distances, knn_graph
from .kernels import mds_kernel, rbf_kernel, squared_distances

__all__ = [
    "LINKAGES",
    "cophenetic_matrix",
    "hierarchical_cluster_kernel",
    "HierarchicalClusterKernel",
    "kmeans",
    "membership_matrix",
    "rck_gaussian",
    "rck_dot",
    "rck_scaled",
    "bagged_cluster_kernel",
    "DataDependentSVC",
]

#: the linkages of eqs. (1)-(3); each gives monotone merge heights, hence an ultrametric
LINKAGES = ("single", "complete", "average")


def _check_linkage(linkage):
    if linkage not in LINKAGES:
        raise ValueError(
            f"linkage must be one of {LINKAGES} (the ultrametric linkages of eqs. 1-3); got {linkage!r}. "
            "Centroid and median linkage can produce inversions, whose cophenetic distances are "
            "not ultrametric."
        )
    return linkage


def _condensed_distances(X, metric, n_neighbors, radius):
    """Condensed pairwise distances: Euclidean or geodesic (Algorithm 2)."""
    if metric == "euclidean":
        if n_neighbors is not None or radius is not None:
            raise ValueError("n_neighbors and radius apply to metric='geodesic' only.")
        D = squared_distances(X)  # BLAS (Gram-matrix trick, exact for near-copies): faster than pdist
        np.sqrt(D, out=D)
        out = squareform(D, checks=False)
        del D
        return out
    if metric == "geodesic":
        D = geodesic_distances(X, n_neighbors=n_neighbors, radius=radius)
        out = squareform(D, checks=False)
        del D
        return out
    raise ValueError(f"metric must be 'euclidean' or 'geodesic'; got {metric!r}.")


def cophenetic_matrix(X, linkage="average", *, metric="euclidean", n_neighbors=None, radius=None):
    r"""The (n, n) cophenetic distances of the dendrogram, and scipy's linkage matrix.

    Steps 1-2 of Algorithm 1 (Algorithm 2 with ``metric="geodesic"``), before any squaring:
    agglomerative clustering of all points with one of the linkages of eqs. (1)-(3),

    .. math::

        D_{\mathrm{single}}(C_1, C_2) &= \min_{x\in C_1,\,x'\in C_2} d(x, x'),\\
        D_{\mathrm{complete}}(C_1, C_2) &= \max_{x\in C_1,\,x'\in C_2} d(x, x'),\\
        D_{\mathrm{average}}(C_1, C_2) &= \frac{1}{\lvert C_1\rvert\,\lvert C_2\rvert}
        \sum_{x\in C_1}\sum_{x'\in C_2} d(x, x'),

    then :math:`u_{ij} = h(\mathrm{lca}(i, j))`, the height at which i and j first share a
    cluster (Sect. 3.3). These linkages merge at non-decreasing heights (eq. (4)), so u is an
    ultrametric, :math:`u_{ij}\le\max(u_{ik}, u_{kj})`; centroid and median linkage (inversions)
    are refused.

    The point distances d are Euclidean, or with ``metric="geodesic"`` shortest paths on
    the k-NN (``n_neighbors``) or epsilon (``radius``) graph, exactly one of them
    (:func:`sslteach.graphs.geodesic_distances`, components joined). Returns ``U`` (n, n), not
    squared, and ``Z`` (n - 1, 4) for scipy's ``dendrogram`` or ``fcluster``.

    Time :math:`O(n^2d)` (Dijkstra adds :math:`O(n^2\log n + n\,\mathrm{nnz})`) and
    :math:`O(n^2)` for scipy's ``linkage`` and ``cophenet``, no :math:`n^3` step; two (n, n) arrays.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import cophenetic_matrix
    >>> X = np.array([[0.0], [2.0], [6.0], [8.0]])  # clusters {0, 2} and {6, 8}
    >>> U, Z = cophenetic_matrix(X, "single")
    >>> np.round(U, 3)
    array([[0., 2., 4., 4.],
           [2., 0., 4., 4.],
           [4., 4., 0., 2.],
           [4., 4., 2., 0.]])
    >>> [round(float(cophenetic_matrix(X, k)[0][0, 3]), 3) for k in ("single", "complete", "average")]
    [4.0, 8.0, 6.0]
    >>> cophenetic_matrix(X, "centroid")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: linkage must be one of ('single', 'complete', 'average') ...
    """
    X = check_data(X, name="X", min_samples=2)
    _check_linkage(linkage)
    return _cophenetic_from_condensed(_condensed_distances(X, metric, n_neighbors, radius), linkage)


def _cophenetic_from_condensed(d, linkage):
    Z = sch.linkage(d, method=linkage)
    del d
    c = sch.cophenet(Z)
    U = squareform(c)
    del c
    return U, Z


def hierarchical_cluster_kernel(
    X, linkage="average", *, metric="euclidean", n_neighbors=None, radius=None, squared=True
):
    r"""The hierarchical cluster kernel (HCK), Algorithm 1 (gHCK, Algorithm 2).

    .. math::

        K = -\tfrac12\,JMJ,\qquad J = I - \tfrac1n\mathbf 1\mathbf 1^\top,\qquad
        M_{ij} = u_{ij}^2 \ (\text{or } u_{ij}),

    with u the cophenetic distances of :func:`cophenetic_matrix` (same ``linkage``,
    ``metric``, ``n_neighbors``, ``radius``), squared when ``squared`` (the paper's text: "M
    contains the squared distances"), plain otherwise (its Algorithm 1, step 2), and
    :math:`-\tfrac12 JMJ` the classical-MDS kernel (:func:`sslteach.kernels.mds_kernel`,
    derived in :doc:`/notebooks/00_foundations`). Both give a PSD kernel with zero row sums and
    :math:`K_{ii} + K_{jj} - 2K_{ij} = M_{ij}`: an ultrametric embeds isometrically in
    Euclidean space, and :math:`\sqrt u` is an ultrametric too. Time :math:`O(n^2 d + n^2)`, no
    :math:`n^3` step; peak memory about two (n, n) arrays.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import cophenetic_matrix, hierarchical_cluster_kernel
    >>> X = np.array([[0.0], [2.0], [6.0], [8.0]])
    >>> K = hierarchical_cluster_kernel(X, "single")  # M: 2**2 within, 4**2 across the clusters
    >>> np.round(K, 3)
    array([[ 4.5,  2.5, -3.5, -3.5],
           [ 2.5,  4.5, -3.5, -3.5],
           [-3.5, -3.5,  4.5,  2.5],
           [-3.5, -3.5,  2.5,  4.5]])
    >>> d = np.diag(K)
    >>> np.allclose(d[:, None] + d[None, :] - 2 * K, cophenetic_matrix(X, "single")[0] ** 2)
    True
    >>> np.round(hierarchical_cluster_kernel(X, "single", squared=False)[0], 3)
    array([ 1.25,  0.25, -0.75, -0.75])

    On a line geodesic distances are Euclidean, so gHCK (1-NN graph, components joined) with
    single linkage is the same kernel:

    >>> np.allclose(hierarchical_cluster_kernel(X, "single", metric="geodesic", n_neighbors=1), K)
    True
    """
    if not isinstance(squared, (bool, np.bool_)):
        raise ValueError(f"squared must be True or False; got {squared!r}.")
    U, _ = cophenetic_matrix(X, linkage, metric=metric, n_neighbors=n_neighbors, radius=radius)
    if squared:
        np.square(U, out=U)
    return mds_kernel(U)


class HierarchicalClusterKernel(TransformerMixin, BaseEstimator):
    r"""HCK with an out-of-sample extension (the paper's future work, Sect. 6).

    ``fit(X)`` clusters X (``kernel_`` is :func:`hierarchical_cluster_kernel` of X, with
    ``linkage`` and ``squared`` as there, Euclidean distances). ``transform(X_new)`` gives the
    kernel between new points and the training points **without re-clustering**: attach x to
    the dendrogram beside its nearest training point :math:`j^*` at the height of their
    distance, and centre with the training statistics (Gower's formula for adding a point to a
    classical MDS):

    .. math::

        u(x, i) = \max\bigl(\lVert x - x_{j^*}\rVert,\ u_{j^*i}\bigr),\qquad
        k(x, x_i) = -\tfrac12\bigl(m_i(x) - \bar m(x) - r_i + g\bigr),

    with :math:`m_i(x) = u(x, i)^2` (or :math:`u`), :math:`\bar m(x)` its mean over the training
    points, :math:`r_i = \tfrac1n\sum_j M_{ij}` and :math:`g = \tfrac1{n^2}\sum_{j,l}M_{jl}`.
    The extended u is again an ultrametric, so these are inner products of Euclidean points
    centred at the training mean and, with ``kernel_``, part of a PSD Gram matrix; for single
    linkage it is exact whenever x does not bridge two training clusters below their merge
    height. Equidistant nearest points: the first wins.

    Fitted attributes: ``kernel_``, ``cophenetic_`` (u, unsquared), ``linkage_matrix_``,
    ``X_fit_``, and ``row_means_``, ``grand_mean_`` (r and g above).

    Notes
    -----
    ``fit`` as :func:`hierarchical_cluster_kernel`; ``transform`` :math:`O(pnd)` for p points
    (re-clustering: :math:`O(n^2d)`), memory the result plus :math:`O(n\min(p, 256))`.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import HierarchicalClusterKernel, hierarchical_cluster_kernel
    >>> X = np.array([[0.0], [2.0], [6.0], [8.0]])
    >>> hck = HierarchicalClusterKernel(linkage="single").fit(X)
    >>> np.allclose(hck.kernel_, hierarchical_cluster_kernel(X, "single"))
    True
    >>> np.round(hck.transform(np.array([[-1.0], [10.0]])), 3)  # attached at heights 1 and 2
    array([[ 4.125,  2.625, -3.375, -3.375],
           [-3.   , -3.   ,  3.   ,  3.   ]])
    >>> np.allclose(hck.transform(X), hck.kernel_)  # training points: rows of kernel_
    True
    >>> np.round(HierarchicalClusterKernel("average").fit(X).row_means_, 3)  # M = u**2, u = 2 or 6
    array([19., 19., 19., 19.])
    """

    _parameter_constraints: dict = {
        "linkage": [StrOptions(set(LINKAGES))],
        "squared": ["boolean"],
    }

    def __init__(self, linkage="average", squared=True):
        self.linkage = linkage
        self.squared = squared

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Cluster X (``y`` is ignored) and store the kernel and the statistics :meth:`transform` needs."""
        X = validate_fit_data(self, X, min_samples=2)  # the linkage was checked by _fit_context
        self.cophenetic_, self.linkage_matrix_ = _cophenetic_from_condensed(
            _condensed_distances(X, "euclidean", None, None), self.linkage
        )
        M = self.cophenetic_**2 if self.squared else self.cophenetic_.copy()
        self.row_means_ = M.mean(axis=1)
        self.grand_mean_ = float(self.row_means_.mean())
        self.kernel_ = mds_kernel(M)
        self.X_fit_ = X
        return self

    def transform(self, X):
        """The kernel between the rows of X and the training points, shape (p, n_train) (class docstring)."""
        check_is_fitted(self, "kernel_")
        X = validate_fit_data(self, X, reset=False)
        out = np.empty((X.shape[0], self.X_fit_.shape[0]))
        for start in range(0, X.shape[0], 256):
            D2 = squared_distances(X[start : start + 256], self.X_fit_)
            j = np.argmin(D2, axis=1)
            h = np.sqrt(D2[np.arange(j.size), j])
            u = np.maximum(h[:, None], self.cophenetic_[j])
            m = u**2 if self.squared else u
            out[start : start + 256] = -0.5 * (
                m - m.mean(axis=1, keepdims=True) - self.row_means_[None, :] + self.grand_mean_
            )
        return out


# ----------------------------------------------------------------------------------------
# memberships and reweighting kernels
# ----------------------------------------------------------------------------------------


def _one_hot(labels, n_clusters):
    """Memberships (n_clusters, n): the transpose of :func:`sslteach._validation.one_hot`."""
    return np.ascontiguousarray(one_hot(labels, n_clusters).T)


def _assign(X, centres, x2):
    """Nearest centre of each row; distances within a relative TIE_RTOL count as tied (first centre)."""
    D2 = x2[:, None] + np.square(centres).sum(axis=1)[None, :] - 2.0 * (X @ centres.T)
    np.maximum(D2, 0.0, out=D2)
    tol = TIE_RTOL * (x2[:, None] + np.square(centres).sum(axis=1)[None, :])
    labels = np.argmax(D2 <= D2.min(axis=1, keepdims=True) + tol, axis=1)
    return labels, D2[np.arange(X.shape[0]), labels]


def _counts(labels, c):
    return np.maximum(np.bincount(labels, minlength=c), 1).astype(float)


def kmeans(X, n_clusters, *, n_init=10, init="k-means++", max_iter=300, random_state=None):
    r"""Lloyd's k-means whose result does not depend on the BLAS kernel or thread count.

    Each run decreases the inertia, alternating its two updates until the labels stop changing,

    .. math::

        \sum_{i=1}^n \lVert x_i - m_{c(i)}\rVert^2,\qquad
        c(i) = \arg\min_c \lVert x_i - m_c\rVert^2,\qquad
        m_c = \frac{1}{\lvert\{i : c(i) = c\}\rvert}\sum_{i : c(i) = c} x_i.

    scikit-learn's ``KMeans`` sums in parallel chunks and takes an exact argmin, so a point
    equidistant to round-off from two centres can change cluster with the CPU. Here a point
    goes to the first centre within a relative 1e-9 of its nearest, centres are plain means, an
    empty cluster takes the point farthest from its centre, and the best of ``n_init`` starts
    (k-means++ of Arthur & Vassilvitskii (2007), or ``init="random"``: distinct random rows) is
    the first within a relative 1e-9 of the lowest inertia. A dense X with fewer than 10%
    non-zero entries (TF-IDF rows) is handled as sparse. Returns ``labels`` (n,) and the dense
    ``centres`` (n_clusters, d). :math:`O(ncd)` time per iteration (:math:`O(c\,\mathrm{nnz})`
    sparse), :math:`O(nc)` memory.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import kmeans
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> labels, centres = kmeans(X, 2, random_state=0)
    >>> bool(labels[0] == labels[1] == labels[2] != labels[3] == labels[4] == labels[5])
    True
    >>> np.round(np.sort(centres.ravel()), 3)
    array([ 1., 11.])
    >>> kmeans(X, 7)
    Traceback (most recent call last):
        ...
    ValueError: n_clusters must be in [1, 6]; got 7. There are 6 points.
    """
    X = check_data(X, name="X", min_samples=1, accept_sparse=True)
    n = X.shape[0]
    c = check_int(n_clusters, "n_clusters", low=1, high=n, high_hint=f"There are {n} points.")
    n_init = check_int(n_init, "n_init", low=1)
    max_iter = check_int(max_iter, "max_iter", low=1)
    if init not in ("k-means++", "random"):
        raise ValueError(f"init must be 'k-means++' or 'random'; got {init!r}.")
    return _kmeans(X, c, n_init, init, max_iter, check_random_state(random_state))


def _kmeans(X, c, n_init, init, max_iter, rng):
    """:func:`kmeans` on checked inputs (callers inside the module validate once)."""
    if not sp.issparse(X) and np.count_nonzero(X) < 0.1 * X.size:
        X = sp.csr_matrix(X)  # mostly zeros (TF-IDF rows): sparse products are far cheaper
    n = X.shape[0]
    sparse = sp.issparse(X)
    x2 = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sparse else np.einsum("ij,ij->i", X, X)

    def rows(idx):
        R = X[idx]
        return R.toarray() if sparse else R

    def sq_to(i):  # squared distances of every row to row i
        return np.maximum(x2 + x2[i] - 2.0 * np.asarray(X @ rows([i])[0]).ravel(), 0.0)

    runs = []
    for _ in range(n_init):
        if init == "random":
            centres = rows(rng.choice(n, size=c, replace=False))
        else:
            idx = [rng.randint(n)]
            d2 = sq_to(idx[0])
            for _ in range(1, c):
                total = d2.sum()
                pick = rng.randint(n) if total <= 0 else np.searchsorted(np.cumsum(d2), rng.uniform(0, total))
                idx.append(min(int(pick), n - 1))
                d2 = np.minimum(d2, sq_to(idx[-1]))
            centres = rows(idx)
        labels = None
        for _ in range(max_iter):
            new, dist = _assign(X, centres, x2)
            if labels is not None and np.array_equal(new, labels):
                break
            labels = new
            counts = np.bincount(labels, minlength=c)
            for k in np.flatnonzero(counts == 0):  # an empty cluster takes the farthest point
                far = int(np.argmax(dist))
                labels[far], dist[far] = k, 0.0
            onehot = sp.csr_matrix((np.ones(n), (labels, np.arange(n))), shape=(c, n))
            sums = onehot @ X  # row sums per cluster (sparse products: no copy of X)
            centres = (sums.toarray() if sparse else np.asarray(sums)) / _counts(labels, c)[:, None]
        labels, dist = _assign(X, centres, x2)
        runs.append((float(dist.sum()), labels, centres))
    best = first_best([r[0] for r in runs], maximize=False)
    return runs[best][1], runs[best][2]


_SPECTRAL_TAU = 1e-3  # the regulariser tau, as a fraction of the mean degree


def _spectral_embedding(X, n_components, n_neighbors):
    """Rows of the top eigenvectors of the regularised S_tau (Qin & Rohe, 2013), unit length."""
    W = knn_graph(X, n_neighbors).toarray()
    n = W.shape[0]
    W += _SPECTRAL_TAU * W.sum() / n / n  # tau = 1e-3 x mean degree, spread over every pair
    s = 1.0 / np.sqrt(W.sum(axis=1))
    _, V = np.linalg.eigh(W * s[:, None] * s[None, :])
    Z = orient_columns(V[:, ::-1][:, :n_components])
    return Z / np.linalg.norm(Z, axis=1, keepdims=True)


def membership_matrix(X, method="kmeans", n_clusters=2, *, soft=False, n_neighbors=10, random_state=None):
    r"""Cluster-membership matrix U of shape (c, n), one column per point (Sect. 4.1).

    Crisp memberships :math:`U_{ci} = 1` if point i is in cluster c, else 0 (so :math:`U^\top U`
    is the same-cluster indicator), or soft ones, the E-step of a spherical Gaussian mixture at
    the k-means solution,

    .. math::

        U_{ci} = \frac{\exp(-\lVert z_i - m_c\rVert^2/2s^2)}
        {\sum_{c'}\exp(-\lVert z_i - m_{c'}\rVert^2/2s^2)},

    with z the space the method clusters in, :math:`m_c` its centres and :math:`s^2` the mean
    squared distance of the points to their own centre. Columns sum to 1.

    ``method``: ``"kmeans"`` (:func:`kmeans`, 10 starts); ``"hierarchical"``, an
    average-linkage cut into ``n_clusters`` (crisp only; tied merge heights can leave fewer
    clusters, whose rows are zero); or ``"spectral"``, k-means on the spectral embedding (Ng,
    Jordan & Weiss) of the symmetrised ``n_neighbors``-NN graph (the book's adaptive weights)
    regularised as Qin & Rohe (2013), :math:`W + (\tau/n)\mathbf 1\mathbf 1^\top` with
    :math:`\tau` = 1e-3 times the mean degree, so that the embedding is defined and the same on
    every machine. ``n_clusters`` is c, in [1, n]; ``random_state`` seeds the k-means starts.

    Cost: as :func:`kmeans`; ``"hierarchical"`` :math:`O(n^2d)`, two (n, n) arrays;
    ``"spectral"`` a dense eigendecomposition, :math:`O(n^3)`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import membership_matrix
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> membership_matrix(X, "hierarchical", 2).astype(int)
    array([[1, 1, 1, 0, 0, 0],
           [0, 0, 0, 1, 1, 1]])
    >>> U_sp = membership_matrix(X, "spectral", 2, n_neighbors=2, random_state=0)
    >>> (U_sp.T @ U_sp).astype(int)[0]  # same-cluster indicator
    array([1, 1, 1, 0, 0, 0])

    Soft memberships of 0, 1, 2, 3 in two clusters: the point 1 belongs mostly, not only, to
    {0, 1}:

    >>> U = membership_matrix(np.array([[0.0], [1.0], [2.0], [3.0]]), "kmeans", 2, soft=True, random_state=0)
    >>> np.round(np.sort(U[:, 1]), 3)
    array([0.018, 0.982])
    """
    X = check_data(X, name="X", min_samples=2)
    n = X.shape[0]
    c = check_int(n_clusters, "n_clusters", low=1, high=n, high_hint=f"There are {n} points.")
    rng = check_random_state(random_state)
    if method == "hierarchical":
        if soft:
            raise ValueError("A hierarchical cut is crisp; use soft=False (or method='kmeans'/'spectral').")
        Z = sch.linkage(_condensed_distances(X, "euclidean", None, None), method="average")
        labels = sch.fcluster(Z, t=c, criterion="maxclust") - 1
        return _one_hot(labels, max(c, labels.max() + 1))
    if method == "spectral":
        Z = _spectral_embedding(X, c, n_neighbors)
    elif method == "kmeans":
        Z = X
    else:
        raise ValueError(f"method must be 'kmeans', 'hierarchical' or 'spectral'; got {method!r}.")
    labels, centres = _kmeans(Z, c, 10, "k-means++", 300, check_random_state(rng.randint(2**31 - 1)))
    if not soft:
        return _one_hot(labels, c)
    D2 = squared_distances(Z, centres)
    s2 = max(float(D2[np.arange(n), labels].mean()), np.finfo(float).tiny)
    logits = -D2 / (2 * s2)
    logits -= logits.max(axis=1, keepdims=True)
    P = np.exp(logits)
    P /= P.sum(axis=1, keepdims=True)
    return P.T


def _check_U(U):
    U = check_data(U, name="U")
    if U.min() < 0:
        raise ValueError("U holds cluster memberships, which are >= 0.")
    return U


def rck_gaussian(U, sigma):
    r"""RCK1, eq. (5): :math:`K_{rw,ij} = \exp(-\lVert U_{\cdot i} - U_{\cdot j}\rVert^2/2\sigma^2)`.

    A Gaussian kernel of the membership columns (:func:`membership_matrix`, entries >= 0):
    PSD, entries in (0, 1], unit diagonal; crisp memberships give 1 within a cluster and
    :math:`e^{-1/\sigma^2}` across. ``sigma`` > 0. Time :math:`O(n^2c)`, one (n, n) array.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import rck_gaussian
    >>> U = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])  # clusters {0, 1}, {2, 3}
    >>> np.round(rck_gaussian(U, sigma=1.0)[0], 3)  # exp(-1) across clusters
    array([1.   , 1.   , 0.368, 0.368])
    """
    return rbf_kernel(_check_U(U).T, sigma=sigma)


def rck_dot(U, alpha):
    r"""RCK2, eq. (6): :math:`K_{rw} = U^\top U + \tfrac\alpha N\mathbf 1\mathbf 1^\top`, :math:`\alpha<1`.

    With N = n points and :math:`0\le\alpha<1`, :math:`K_{rw,ij} = \sum_c U_{ci}U_{cj} + \alpha/N`: PSD (a
    sum of two Gram matrices); crisp memberships give :math:`1 + \alpha/N` within a cluster and
    :math:`\alpha/N` across. Time :math:`O(n^2c)`, one (n, n) array.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import rck_dot
    >>> from sslteach.kernels import rbf_kernel
    >>> U = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])  # clusters {0, 1}, {2, 3}
    >>> K_rw = rck_dot(U, alpha=0.5)  # alpha / N = 0.125
    >>> np.round(K_rw[0], 3)
    array([1.125, 1.125, 0.125, 0.125])
    >>> K = K_rw * rbf_kernel(np.array([[0.0], [1.0], [2.0], [3.0]]), sigma=1.0)
    >>> bool(np.linalg.eigvalsh(K).min() > -1e-9)  # the Hadamard product stays PSD
    True
    >>> rck_dot(U, alpha=1.0)
    Traceback (most recent call last):
        ...
    ValueError: alpha must be in [0, 1) (eq. 6); got 1.0.
    """
    U = _check_U(U)
    alpha = check_positive(alpha, "alpha", strict=False)
    if not 0.0 <= alpha < 1.0:
        raise ValueError(f"alpha must be in [0, 1) (eq. 6); got {alpha}.")
    K = U.T @ U
    K += alpha / U.shape[1]
    return K


def rck_scaled(U, beta):
    r"""RCK3, eq. (7): :math:`K_{rw} = \beta\,U^\top U + \tfrac1N\mathbf 1\mathbf 1^\top`, :math:`\beta > 0`.

    PSD; crisp memberships give :math:`\beta + 1/N` within a cluster and :math:`1/N` across;
    :math:`O(n^2c)`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import rck_scaled
    >>> U = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])  # clusters {0, 1}, {2, 3}
    >>> np.round(rck_scaled(U, beta=2.0)[0], 3)  # 1 / N = 0.25
    array([2.25, 2.25, 0.25, 0.25])
    """
    U = _check_U(U)
    beta = check_positive(beta, "beta")
    K = U.T @ U
    K *= beta
    K += 1.0 / U.shape[1]
    return K


def bagged_cluster_kernel(X, n_clusters, n_runs=10, *, random_state=None):
    r"""The bagged cluster kernel (Weston et al.): co-clustering frequencies of T k-means runs.

    .. math::

        K_{bag,ij} = \frac1T\sum_{t=1}^T \mathbb 1\bigl[c_t(i) = c_t(j)\bigr]
        = \frac1T\sum_{t=1}^T \bigl(U_t^\top U_t\bigr)_{ij},

    with :math:`c_t(i)` the cluster of point i in run t, each run one random start of
    :func:`kmeans` (``n_runs`` = T >= 1, ``n_clusters`` in [1, n]): the average of crisp RCK2
    kernels with :math:`\alpha = 0`, which the reweighting kernels generalise, and the "bagged"
    row of Table 1 (times a base kernel). PSD, entries in {0, 1/T, ..., 1}, unit diagonal. Time
    :math:`O(T(ncd\cdot\text{iterations} + n^2))`, memory two (n, n) arrays.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import bagged_cluster_kernel
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> np.round(bagged_cluster_kernel(X, 2, n_runs=10, random_state=0)[[0, 5]], 2)  # every run finds them
    array([[1., 1., 1., 0., 0., 0.],
           [0., 0., 0., 1., 1., 1.]])
    """
    X = check_data(X, name="X", min_samples=2)
    T = check_int(n_runs, "n_runs", low=1)
    c = check_int(n_clusters, "n_clusters", low=1, high=X.shape[0])
    rng = check_random_state(random_state)
    K = np.zeros((X.shape[0], X.shape[0]))
    for _ in range(T):
        labels, _ = _kmeans(X, c, 1, "random", 300, check_random_state(rng.randint(2**31 - 1)))
        K += labels[:, None] == labels[None, :]
    K /= T
    return K


# ----------------------------------------------------------------------------------------
# the estimator
# ----------------------------------------------------------------------------------------


class DataDependentSVC(ClassifierMixin, BaseEstimator):
    r"""An SVM on a data-dependent kernel computed over labelled *and* unlabelled points.

    ``fit(X, y)`` (-1 = unlabelled) computes ``K = kernel(X)`` over all rows, fits
    ``SVC(kernel="precomputed", C=C)`` on the labelled block and labels every row
    (``transduction_``, labelled rows not clamped): with L the labelled rows,

    .. math::

        f(x_i) = \sum_{j\in L}\alpha_j y_j K_{ij} + b,\qquad
        \max_{0\le\alpha_j\le C,\ \sum_j\alpha_j y_j = 0}\ \sum_{j\in L}\alpha_j
        - \tfrac12\sum_{j,k\in L}\alpha_j\alpha_k y_j y_k K_{jk}

    (two classes; more are handled one against one by LIBSVM), the paper's protocol. The
    method is transductive: :meth:`predict` returns ``transduction_`` for the training rows;
    new points need ``kernel="hck"``, whose extension
    (:meth:`HierarchicalClusterKernel.transform`) gives :math:`f(x) = \sum_{j\in L}\alpha_j
    y_j k(x, x_j) + b`; with a callable kernel other rows are refused (add them to X as
    unlabelled and fit again).

    ``kernel``: ``"hck"`` (:func:`hierarchical_cluster_kernel`, average linkage) or a callable
    ``kernel(X) -> (n, n)`` such as gHCK (below; sparse X only with a callable that takes it);
    ``C`` > 0, the SVM's cost.
    Fitted attributes: ``classes_``, ``labeled_`` (indices), ``kernel_`` (n, n), ``svc_`` (fitted on
    the labelled block), ``transduction_``, ``decision_`` ((n,) for two classes), ``X_fit_``,
    and ``hck_`` with ``kernel="hck"``.

    Notes
    -----
    ``fit``: the kernel's cost, LIBSVM on l labelled rows (:math:`O(l^2)` to :math:`O(l^3)`)
    and :math:`O(nl)`; :meth:`predict` of p new points :math:`O(pnd + pl)`.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers, since -1
    marks unlabelled points (scikit-learn gives its own semi-supervised estimators numeric
    labels in that check).

    Examples
    --------
    >>> import functools
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import DataDependentSVC, hierarchical_cluster_kernel
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> y = np.array([0, -1, -1, 1, -1, -1])
    >>> clf = DataDependentSVC(kernel="hck", C=1.0).fit(X, y)
    >>> clf.transduction_, clf.labeled_, np.sign(clf.decision_).astype(int)
    (array([0, 0, 0, 1, 1, 1]), array([0, 3]), array([-1, -1, -1,  1,  1,  1]))
    >>> clf.predict(np.array([[-1.0], [5.0], [13.0]]))  # new points, through the HCK extension
    array([0, 0, 1])
    >>> ghck = functools.partial(
    ...     hierarchical_cluster_kernel, linkage="single", metric="geodesic", n_neighbors=2
    ... )
    >>> clf = DataDependentSVC(kernel=ghck).fit(X, y)
    >>> clf.predict(X)
    array([0, 0, 0, 1, 1, 1])
    >>> clf.predict(np.array([[5.0]]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: A data-dependent kernel is defined on the points it was computed from, ...
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions({"hck"}), callable],
        "C": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, kernel="hck", C=1.0):
        self.kernel = kernel
        self.C = C

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """The kernel over all rows of X, the SVM on the labelled ones (two classes or more), all labels."""
        X, y = validate_fit_data(self, X, y, accept_sparse=callable(self.kernel), min_samples=2)
        y, lab, self.classes_, _ = check_labels(y, X.shape[0], min_classes=2, who="DataDependentSVC")
        if isinstance(self.kernel, str):  # "hck": the one kernel with an out-of-sample extension
            self.hck_ = HierarchicalClusterKernel(linkage="average").fit(X)
            K = self.hck_.kernel_
        else:
            K = self.kernel(X)
            if np.shape(K) != (X.shape[0], X.shape[0]):
                raise ValueError(
                    f"kernel(X) must return an ({X.shape[0]}, {X.shape[0]}) matrix; got shape {np.shape(K)}."
                )
            K = check_square(K, name="the matrix returned by kernel(X)")
        self.kernel_ = K
        self.svc_ = SVC(kernel="precomputed", C=float(self.C)).fit(K[np.ix_(lab, lab)], y[lab])
        self.decision_ = self.svc_.decision_function(K[:, lab])
        self.transduction_ = self.svc_.predict(K[:, lab])
        self.labeled_ = np.flatnonzero(lab)
        self.X_fit_ = X
        return self

    def predict(self, X=None):
        """The labels of the training rows (X None or those rows), or of new points with ``"hck"``."""
        check_is_fitted(self, "transduction_")
        if X is not None:
            X = validate_fit_data(self, X, accept_sparse=callable(self.kernel), reset=False)
            same = X.shape == self.X_fit_.shape and (
                (sp.csr_matrix(X) != sp.csr_matrix(self.X_fit_)).nnz == 0
                if sp.issparse(X) or sp.issparse(self.X_fit_)
                else np.array_equal(X, self.X_fit_)
            )
            if not same and hasattr(self, "hck_"):
                return self.svc_.predict(self.hck_.transform(X)[:, self.labeled_])
            if not same:
                raise ValueError(
                    "A data-dependent kernel is defined on the points it was computed from, and X "
                    "is not those points (in that order): add the new points to X as unlabelled "
                    "(y = -1) and fit again, or use kernel='hck', which extends to new points."
                )
        return self.transduction_
