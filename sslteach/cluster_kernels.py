r"""Hierarchical and reweighting cluster kernels (Bodó & Csató, 2010).

Chapter 2 of the book. A data-dependent kernel is built from labelled *and* unlabelled
points and then handed to any kernel machine:

* :func:`hierarchical_cluster_kernel` (HCK, Algorithm 1; gHCK, Algorithm 2 with
  ``metric="geodesic"``): cluster hierarchically, read the cophenetic (dendrogram)
  distances, and turn them into a kernel by classical MDS, :math:`K = -\tfrac12 JMJ`.
* :class:`HierarchicalClusterKernel`: the same with an out-of-sample extension (the
  paper's future work).
* :func:`membership_matrix` and the reweighting kernels :func:`rck_gaussian`,
  :func:`rck_dot`, :func:`rck_scaled` (eqs. 5-7), used as :math:`K = K_{rw}\circ K_b`;
  :func:`bagged_cluster_kernel` (Weston et al., 2006), which they generalise.
* :class:`DataDependentSVC`: any of these kernels over all points, an SVM on the
  labelled block.

Memberships follow the paper: ``U`` has one row per cluster and one column per point.
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
    r"""The (n, n) cophenetic distances of the dendrogram, and the linkage matrix.

    Steps 1 and 2 of Algorithm 1 of Bodó & Csató (2010) (Algorithm 2 with
    ``metric="geodesic"``), before any squaring: agglomerative clustering of all points
    with one of the linkages of eqs. (1)-(3),

    .. math::

        D_{\mathrm{single}}(C_1, C_2) &= \min_{x\in C_1,\,x'\in C_2} d(x, x'),\\
        D_{\mathrm{complete}}(C_1, C_2) &= \max_{x\in C_1,\,x'\in C_2} d(x, x'),\\
        D_{\mathrm{average}}(C_1, C_2) &= \frac{1}{\lvert C_1\rvert\,\lvert C_2\rvert}
        \sum_{x\in C_1}\sum_{x'\in C_2} d(x, x'),

    then the cophenetic distance

    .. math:: u_{ij} = h\bigl(\mathrm{lca}(i, j)\bigr),

    the height at which points i and j first share a cluster (the label of their lowest
    common ancestor, Sect. 3.3 of the paper). The three linkages merge at non-decreasing
    heights (eq. (4)), so u is an ultrametric:
    :math:`u_{ij}\le\max(u_{ik}, u_{kj})` for all i, j, k.

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2).

    Parameters
    ----------
    X : array-like of shape (n, d)
        All points, labelled and unlabelled alike (at least 2 rows, finite).
    linkage : {"single", "complete", "average"}, default "average"
        The linkage of eqs. (1)-(3) (the values of :data:`LINKAGES`). Centroid and median
        linkage are refused: their merge heights can decrease (inversions), and then u is
        not an ultrametric.
    metric : {"euclidean", "geodesic"}, default "euclidean"
        The point distance :math:`d`: Euclidean (Algorithm 1), or shortest-path lengths on
        the neighbourhood graph (Algorithm 2, :func:`sslteach.graphs.geodesic_distances`;
        disconnected components are joined, so every distance is finite).
    n_neighbors : int, optional
        ``metric="geodesic"`` only: the k of the k-NN graph (1 <= k < n).
    radius : float, optional
        ``metric="geodesic"`` only: the radius of the epsilon graph (> 0). With
        ``"geodesic"`` exactly one of ``n_neighbors`` and ``radius`` must be given.

    Returns
    -------
    U : ndarray of shape (n, n)
        The cophenetic distances :math:`u_{ij}`: symmetric, zero diagonal, an
        ultrametric (not squared).
    Z : ndarray of shape (n - 1, 4)
        scipy's linkage matrix (the two merged clusters, the merge height, the size of the
        new cluster), e.g. for ``scipy.cluster.hierarchy.dendrogram`` or ``fcluster``.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array with at least 2 rows, ``linkage`` is not in
        :data:`LINKAGES`, ``metric`` is neither ``"euclidean"`` nor ``"geodesic"``,
        ``n_neighbors`` or ``radius`` is given with ``"euclidean"``, or, with
        ``"geodesic"``, not exactly one of them is given (or it is out of range).

    See Also
    --------
    hierarchical_cluster_kernel : The kernel built from these distances.

    Notes
    -----
    Time :math:`O(n^2d)` for the Euclidean distances (:math:`O(n^2\log n + n\,\mathrm{nnz})`
    more for Dijkstra with ``"geodesic"``) plus :math:`O(n^2)` for scipy's ``linkage``
    (minimum spanning tree for single, nearest-neighbour chain for complete and average
    linkage) and ``cophenet``; no :math:`n^3` step. Peak memory about two (n, n) float64
    arrays.

    Examples
    --------
    Two clusters on a line, {0, 2} and {6, 8}:

    >>> import numpy as np
    >>> from sslteach.cluster_kernels import cophenetic_matrix
    >>> X = np.array([[0.0], [2.0], [6.0], [8.0]])
    >>> U, Z = cophenetic_matrix(X, "single")
    >>> np.round(U, 3)
    array([[0., 2., 4., 4.],
           [2., 0., 4., 4.],
           [4., 4., 0., 2.],
           [4., 4., 2., 0.]])
    >>> np.round(Z[:, 2], 3)  # the merge heights
    array([2., 2., 4.])

    The clusters merge at the closest (single), farthest (complete) or mean (average)
    distance of their points:

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
    r"""The hierarchical cluster kernel (HCK) of Bodó & Csató (2010), Algorithm 1 (and 2).

    1. Agglomerative clustering with single, complete or average linkage (eqs. 1-3) of all
       points (``scipy.cluster.hierarchy.linkage``). With ``metric="geodesic"`` the point
       distances are shortest paths on the k-NN (``n_neighbors``) or epsilon (``radius``)
       graph, disconnected components joined by :func:`sslteach.graphs.join_components`
       (gHCK, Algorithm 2).
    2. :math:`M_{ij}` = cophenetic distance :math:`u_{ij}` (``cophenet``), squared when
       ``squared=True`` (the paper's text: "M contains the squared distances"), plain when
       ``False`` (its Algorithm 1, step 2).
    3. :math:`K = -\tfrac12 JMJ` (:func:`sslteach.kernels.mds_kernel`, without forming J).

    In one formula,

    .. math::

        K = -\tfrac12\,JMJ,\qquad J = I - \tfrac1n\mathbf 1\mathbf 1^\top,\qquad
        M_{ij} = u_{ij}^2 \ (\text{or } u_{ij}),

    with :math:`u` the cophenetic distances of :func:`cophenetic_matrix`. Both choices of M
    give a PSD kernel: u is an ultrametric, an ultrametric space embeds isometrically in
    Euclidean space, and :math:`\sqrt u` is an ultrametric too.

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2); the MDS kernel
    :math:`-\tfrac12 JMJ` in :doc:`/notebooks/00_foundations`.

    Parameters
    ----------
    X : array-like of shape (n, d)
        All points, labelled and unlabelled alike (at least 2 rows, finite).
    linkage : {"single", "complete", "average"}, default "average"
        The linkage of eqs. (1)-(3) (see :data:`LINKAGES`).
    metric : {"euclidean", "geodesic"}, default "euclidean"
        Euclidean point distances (HCK, Algorithm 1) or geodesic ones (gHCK, Algorithm 2).
    n_neighbors : int, optional
        ``metric="geodesic"`` only: the k of the k-NN graph.
    radius : float, optional
        ``metric="geodesic"`` only: the radius of the epsilon graph. With ``"geodesic"``
        exactly one of ``n_neighbors`` and ``radius`` must be given.
    squared : bool, default True
        :math:`M = u\circ u` (the paper's text) when True, :math:`M = u` (its Algorithm 1)
        when False.

    Returns
    -------
    K : ndarray of shape (n, n)
        The kernel over all points: PSD, zero row sums, with
        :math:`K_{ii} + K_{jj} - 2K_{ij} = M_{ij}`.

    Raises
    ------
    ValueError
        As :func:`cophenetic_matrix`: bad ``X``, a linkage outside :data:`LINKAGES`, an
        unknown ``metric``, or ``n_neighbors``/``radius`` that do not fit the metric.

    See Also
    --------
    HierarchicalClusterKernel : The same kernel, extended to points not clustered.
    DataDependentSVC : An SVM on this kernel.

    Notes
    -----
    Time :math:`O(n^2 d)` (distances) + :math:`O(n^2)` (linkage, cophenet, centering); no
    :math:`n^3` step. Peak memory about two (n, n) float64 arrays (the squared cophenetic
    matrix and the kernel). With ``"geodesic"``, Dijkstra from every point adds
    :math:`O(n^2\log n + n\,\mathrm{nnz})` time.

    Examples
    --------
    Two clusters on a line; single linkage merges them at height 4, so :math:`M` holds
    :math:`2^2` within and :math:`4^2` across the clusters:

    >>> import numpy as np
    >>> from sslteach.cluster_kernels import cophenetic_matrix, hierarchical_cluster_kernel
    >>> X = np.array([[0.0], [2.0], [6.0], [8.0]])
    >>> K = hierarchical_cluster_kernel(X, "single")
    >>> np.round(K, 3)
    array([[ 4.5,  2.5, -3.5, -3.5],
           [ 2.5,  4.5, -3.5, -3.5],
           [-3.5, -3.5,  4.5,  2.5],
           [-3.5, -3.5,  2.5,  4.5]])
    >>> d = np.diag(K)
    >>> np.allclose(d[:, None] + d[None, :] - 2 * K, cophenetic_matrix(X, "single")[0] ** 2)
    True
    >>> bool(np.linalg.eigvalsh(K).min() > -1e-9)  # PSD
    True
    >>> np.round(hierarchical_cluster_kernel(X, "single", squared=False), 3)
    array([[ 1.25,  0.25, -0.75, -0.75],
           [ 0.25,  1.25, -0.75, -0.75],
           [-0.75, -0.75,  1.25,  0.25],
           [-0.75, -0.75,  0.25,  1.25]])

    gHCK on the 1-NN graph (its two components joined): on a line the geodesic
    distances are the Euclidean ones, so single linkage gives the same kernel:

    >>> K_geo = hierarchical_cluster_kernel(X, "single", metric="geodesic", n_neighbors=1)
    >>> np.allclose(K_geo, K)
    True
    """
    if not isinstance(squared, (bool, np.bool_)):
        raise ValueError(f"squared must be True or False; got {squared!r}.")
    U, _ = cophenetic_matrix(X, linkage, metric=metric, n_neighbors=n_neighbors, radius=radius)
    if squared:
        np.square(U, out=U)
    return mds_kernel(U)


class HierarchicalClusterKernel(TransformerMixin, BaseEstimator):
    r"""HCK with an out-of-sample extension (the future work of Bodó & Csató, 2010, Sect. 6).

    ``fit(X)`` clusters X and stores what the extension needs; ``kernel_`` is
    :func:`hierarchical_cluster_kernel` of X. ``transform(X_new)`` returns the kernel
    between new points and the training points **without re-clustering**:

    1. *Attach* each new point x to the dendrogram next to its nearest training point
       :math:`j^*` at the height :math:`h = d(x, j^*)`:
       :math:`u(x, i) = \max(h, u(j^*, i))`. The extended matrix is again an ultrametric
       (so the extended kernel stays PSD), and for single linkage it is exact whenever x
       does not bridge two training clusters below their merge height.
    2. Centre with the training statistics, Gower's formula for adding a point to a
       classical MDS: :math:`k(x, x_i) = -\tfrac12\bigl(m_i(x) - \bar m(x) - r_i + g\bigr)`,
       with :math:`m_i(x) = u(x,i)^2` (or :math:`u` when ``squared=False``), :math:`r` the
       row means of M and g its grand mean. At a training point it returns that point's
       row of ``kernel_``.

    In one formula, for a new point x with nearest training point :math:`j^*`,

    .. math::

        u(x, i) = \max\bigl(\lVert x - x_{j^*}\rVert,\ u_{j^*i}\bigr),\qquad
        k(x, x_i) = -\tfrac12\Bigl(m_i(x) - \tfrac1n\textstyle\sum_j m_j(x)
        - \tfrac1n\sum_j M_{ij} + \tfrac1{n^2}\sum_{j,l} M_{jl}\Bigr).

    Cost per new point :math:`O(nd)` (nearest neighbour) + :math:`O(n)`, against
    :math:`O(n^2 d)` to recluster everything.

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2, "Beyond the paper: an
    out-of-sample hierarchical cluster kernel").

    Parameters
    ----------
    linkage : {"single", "complete", "average"}, default "average"
        The linkage of eqs. (1)-(3) (see :data:`LINKAGES`). The point distances are
        Euclidean (HCK; there is no geodesic variant).
    squared : bool, default True
        :math:`M = u\circ u` (the paper's text) when True, :math:`M = u` (its Algorithm 1)
        when False, as in :func:`hierarchical_cluster_kernel`.

    Attributes
    ----------
    kernel_ : ndarray of shape (n, n)
        The HCK of the training points, :func:`hierarchical_cluster_kernel` of ``X_fit_``.
    cophenetic_ : ndarray of shape (n, n)
        The cophenetic distances u of the training points (not squared).
    linkage_matrix_ : ndarray of shape (n - 1, 4)
        scipy's linkage matrix of the training points.
    X_fit_ : ndarray of shape (n, d)
        The training points, searched for the nearest neighbour of a new point.
    row_means_ : ndarray of shape (n,)
        The row means r of M.
    grand_mean_ : float
        The grand mean g of M.
    n_features_in_ : int
        The number of features d seen by ``fit``.

    See Also
    --------
    hierarchical_cluster_kernel : The kernel of ``fit``, as a function.
    DataDependentSVC : Uses this extension to classify new points (``kernel="hck"``).

    Notes
    -----
    Cost of ``fit``: as :func:`hierarchical_cluster_kernel`, time :math:`O(n^2d)`, memory
    three (n, n) float64 arrays (``cophenetic_``, ``kernel_`` and M while centring). Cost
    of ``transform``: time :math:`O(pnd)` for p new points, memory :math:`O(n\min(p, 256))`
    besides the (p, n) result (new points are processed 256 at a time).

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import HierarchicalClusterKernel, hierarchical_cluster_kernel
    >>> X = np.array([[0.0], [2.0], [6.0], [8.0]])
    >>> hck = HierarchicalClusterKernel(linkage="single").fit(X)
    >>> np.allclose(hck.kernel_, hierarchical_cluster_kernel(X, "single"))
    True
    >>> np.round(hck.transform(np.array([[-2.0], [10.0]])), 3)  # one new point near each cluster
    array([[ 3.,  3., -3., -3.],
           [-3., -3.,  3.,  3.]])
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
        r"""Cluster X (all points, labelled or not: ``y`` is ignored) and store the kernel.

        Algorithm 1 of Bodó & Csató (2010) on the rows of X, :math:`K = -\tfrac12 JMJ` with
        :math:`M = u\circ u` (or u) the cophenetic distances, plus the statistics of
        :math:`M` that :meth:`transform` needs: the row means
        :math:`r_i = \tfrac1n\sum_j M_{ij}` and the grand mean
        :math:`g = \tfrac1{n^2}\sum_{i,j} M_{ij}`.

        Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2).

        Parameters
        ----------
        X : array-like of shape (n, d)
            The training points (at least 2 rows, finite).
        y : None
            Ignored; present for scikit-learn's API.

        Returns
        -------
        self : HierarchicalClusterKernel
            The fitted transformer (``kernel_``, ``cophenetic_``, ... set).

        Raises
        ------
        ValueError
            If ``X`` is not a finite 2-D numeric array with at least 2 rows, or the
            parameters are invalid (``linkage`` outside :data:`LINKAGES`).

        Notes
        -----
        Time :math:`O(n^2d + n^2)`, peak memory about three (n, n) float64 arrays.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.cluster_kernels import HierarchicalClusterKernel
        >>> X = np.array([[0.0], [2.0], [6.0], [8.0]])
        >>> hck = HierarchicalClusterKernel(linkage="average").fit(X)
        >>> hck.kernel_.shape, hck.linkage_matrix_.shape
        ((4, 4), (3, 4))
        >>> np.round(hck.row_means_, 3), round(hck.grand_mean_, 3)  # M = u**2, u = 2 or 6
        (array([19., 19., 19., 19.]), 19.0)
        """
        X = validate_fit_data(self, X, min_samples=2)
        self.cophenetic_, self.linkage_matrix_ = cophenetic_matrix(X, self.linkage)
        M = self.cophenetic_**2 if self.squared else self.cophenetic_.copy()
        self.row_means_ = M.mean(axis=1)
        self.grand_mean_ = float(self.row_means_.mean())
        self.kernel_ = mds_kernel(M)
        self.X_fit_ = X
        return self

    def transform(self, X):
        r"""The kernel between the rows of X and the training points, shape (p, n_train).

        The out-of-sample extension of the class docstring, without re-clustering: attach
        x next to its nearest training point :math:`j^*`,
        :math:`u(x, i) = \max(\lVert x - x_{j^*}\rVert, u_{j^*i})`, and centre with the
        training statistics (Gower's formula),

        .. math::

            k(x, x_i) = -\tfrac12\bigl(m_i(x) - \bar m(x) - r_i + g\bigr),\qquad
            m_i(x) = u(x, i)^2 \ (\text{or } u(x, i)),

        with :math:`\bar m(x)` the mean of :math:`m(x)` over the training points. A
        training point gets its row of ``kernel_``; a point equidistant from several
        training points attaches to the first of them. The paper leaves this to future
        work (Bodó & Csató, 2010, Sect. 6).

        Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2).

        Parameters
        ----------
        X : array-like of shape (p, d)
            New points, with the number of features seen by :meth:`fit`.

        Returns
        -------
        K_new : ndarray of shape (p, n_train)
            ``K_new[a, i]`` is :math:`k(x_a, x_i)` for the training point i. The extended u
            is again an ultrametric, so these are inner products
            :math:`\langle z_x - \bar z, z_i - \bar z\rangle` of Euclidean points with
            :math:`\lVert z_a - z_b\rVert^2 = M_{ab}`, centred at the training mean
            :math:`\bar z`: with ``kernel_`` they form part of a PSD Gram matrix.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If :meth:`fit` has not been called (a subclass of ``ValueError``).
        ValueError
            If ``X`` is not a finite 2-D array or has a different number of features.

        Notes
        -----
        Time :math:`O(pnd)` (nearest neighbours) + :math:`O(pn)`; memory the (p, n) result
        plus :math:`O(n\min(p, 256))` (new points are processed 256 at a time).

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.cluster_kernels import HierarchicalClusterKernel
        >>> X = np.array([[0.0], [2.0], [6.0], [8.0]])
        >>> hck = HierarchicalClusterKernel(linkage="single").fit(X)
        >>> np.round(hck.transform(np.array([[-1.0]])), 3)  # attached at height 1 next to 0
        array([[ 4.125,  2.625, -3.375, -3.375]])
        >>> np.allclose(hck.transform(X), hck.kernel_)  # training points: rows of kernel_
        True
        """
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

    scikit-learn's ``KMeans`` sums in parallel chunks and picks the nearest centre by an
    exact argmin, so a point equidistant to round-off from two centres can change cluster
    with the CPU and, through the next centres, change the whole clustering. Here a point
    goes to the first of the centres within a relative 1e-9 of its nearest, centres are
    plain means, and the best of ``n_init`` runs is the first whose inertia is within a
    relative 1e-9 of the lowest.

    Each run decreases the inertia

    .. math::

        \sum_{i=1}^n \lVert x_i - m_{c(i)}\rVert^2,\qquad
        c(i) = \arg\min_c \lVert x_i - m_c\rVert^2,\qquad
        m_c = \frac{1}{\lvert\{i : c(i) = c\}\rvert}\sum_{i : c(i) = c} x_i,

    alternating the two updates until the labels stop changing. It supplies the crisp
    memberships U of the reweighting kernels (Bodó & Csató, 2010, Sect. 4.1; see
    :func:`membership_matrix`) and the runs of :func:`bagged_cluster_kernel`.

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2), where it clusters for the
    reweighting and bagged kernels.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        A dense X that is mostly zeros (fewer than 10% non-zero entries, TF-IDF rows) is
        handled as a sparse matrix.
    n_clusters : int
        The number of clusters c, 1 <= c <= n.
    n_init : int, default 10
        Independent starts; the lowest inertia wins.
    init : {"k-means++", "random"}
        Seeding of Arthur & Vassilvitskii (2007), or ``n_clusters`` distinct rows at random.
    max_iter : int, default 300
        The largest number of Lloyd iterations per start.
    random_state : int, RandomState or None
        Seeds the starts (``sklearn.utils.check_random_state``).

    Returns
    -------
    labels : ndarray of shape (n,)
        The cluster of every point, in ``0, ..., n_clusters - 1``.
    centres : ndarray of shape (n_clusters, d)
        The cluster means of the best run (dense, also for sparse X).

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array or sparse matrix, ``n_clusters`` is not in
        [1, n], ``n_init`` or ``max_iter`` is below 1, or ``init`` is unknown.

    Notes
    -----
    Each iteration costs :math:`O(ncd)` time (one product with the centres; for sparse X
    :math:`O(c\,\mathrm{nnz})`) and :math:`O(nc)` memory, so in all
    :math:`O(\text{n\_init}\cdot\text{iterations}\cdot ncd)` time. An empty cluster takes
    the point farthest from its centre.

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
    if not sp.issparse(X) and np.count_nonzero(X) < 0.1 * X.size:
        X = sp.csr_matrix(X)  # mostly zeros (TF-IDF rows): sparse products are far cheaper
    n = X.shape[0]
    c = check_int(n_clusters, "n_clusters", low=1, high=n, high_hint=f"There are {n} points.")
    n_init = check_int(n_init, "n_init", low=1)
    max_iter = check_int(max_iter, "max_iter", low=1)
    if init not in ("k-means++", "random"):
        raise ValueError(f"init must be 'k-means++' or 'random'; got {init!r}.")
    rng = check_random_state(random_state)
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
    r"""Cluster-membership matrix U of shape (c, n) (one column per point), Sect. 4.1.

    The memberships from which Bodó & Csató (2010) build the reweighting kernels
    :func:`rck_gaussian`, :func:`rck_dot` and :func:`rck_scaled` (eqs. (5)-(7)): crisp

    .. math::

        U_{ci} = \begin{cases} 1 & \text{if point } i \text{ is in cluster } c,\\
        0 & \text{otherwise,}\end{cases}
        \qquad\text{or soft}\qquad
        U_{ci} = \frac{\exp(-\lVert z_i - m_c\rVert^2/2s^2)}
        {\sum_{c'}\exp(-\lVert z_i - m_{c'}\rVert^2/2s^2)},

    so that every column sums to 1 and :math:`U^\top U` is the same-cluster indicator for
    crisp memberships.

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2, "Reweighting kernels").

    Parameters
    ----------
    X : array-like of shape (n, d)
        All points, labelled and unlabelled alike (at least 2 rows, finite).
    method : {"kmeans", "hierarchical", "spectral"}
        ``"kmeans"``: :func:`kmeans` (k-means++, 10 restarts). ``"hierarchical"``: average
        linkage cut into ``n_clusters`` clusters (``fcluster``). ``"spectral"``: k-means on
        the spectral embedding (Ng, Jordan & Weiss) of the symmetrised ``n_neighbors``-NN
        graph with the book's adaptive weights, regularised as Qin & Rohe (2013) do with a
        small :math:`\tau` (1e-3 times the mean degree) spread over every pair,
        :math:`W + (\tau/n)\mathbf 1\mathbf 1^\top`, so that the graph is connected and
        the embedding is defined (on a disconnected graph the leading eigenvectors are any
        basis of the component indicators, which LAPACK chooses differently on different
        machines). Dense: :math:`O(n^3)`.
    n_clusters : int, default 2
        The number of clusters c, 1 <= c <= n (the paper's K).
    soft : bool, default False
        Crisp one-hot columns, or (``"kmeans"`` and ``"spectral"`` only) soft memberships
        :math:`u_{ci}\propto\exp(-\lVert z_i - m_c\rVert^2/2s^2)`, where z is the space the
        method clusters in, :math:`m_c` its centres and :math:`s^2` the mean squared
        distance of the points to their own centre (the E-step of a spherical Gaussian
        mixture at the k-means solution). Columns sum to 1 either way.
    n_neighbors : int, default 10
        ``"spectral"`` only: the k of the k-NN graph (1 <= k < n).
    random_state : int, RandomState or None
        Seeds the k-means starts of ``"kmeans"`` and ``"spectral"``.

    Returns
    -------
    U : ndarray of shape (n_clusters, n)
        Non-negative memberships, one column per point, each column summing to 1. The
        numbering of the clusters is arbitrary. A hierarchical cut can yield fewer than
        ``n_clusters`` clusters (when merge heights tie); the rows it leaves are zero.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array with at least 2 rows, ``n_clusters`` is not in
        [1, n], ``method`` is unknown, ``soft=True`` with ``"hierarchical"``, or
        ``n_neighbors`` is out of range for ``"spectral"``.

    Notes
    -----
    ``"kmeans"``: time :math:`O(\text{iterations}\cdot ncd)` for each of 10 starts, memory
    :math:`O(nc)` besides X. ``"hierarchical"``: time :math:`O(n^2d)`, memory about two
    (n, n) float64 arrays. ``"spectral"``: the k-NN graph (:math:`O(n^2d)` at most), a
    dense eigendecomposition, time :math:`O(n^3)` and memory a few (n, n) arrays, then
    k-means on the (n, c) embedding.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import membership_matrix
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> U = membership_matrix(X, "hierarchical", 2)
    >>> U.astype(int)
    array([[1, 1, 1, 0, 0, 0],
           [0, 0, 0, 1, 1, 1]])
    >>> U_sp = membership_matrix(X, "spectral", 2, n_neighbors=2, random_state=0)
    >>> (U_sp.T @ U_sp).astype(int)  # same-cluster indicator
    array([[1, 1, 1, 0, 0, 0],
           [1, 1, 1, 0, 0, 0],
           [1, 1, 1, 0, 0, 0],
           [0, 0, 0, 1, 1, 1],
           [0, 0, 0, 1, 1, 1],
           [0, 0, 0, 1, 1, 1]])

    Soft k-means memberships of 0, 1, 2, 3 in two clusters: the point 1 belongs mostly,
    not only, to the cluster {0, 1}.

    >>> U = membership_matrix(np.array([[0.0], [1.0], [2.0], [3.0]]), "kmeans", 2, soft=True, random_state=0)
    >>> np.allclose(U.sum(axis=0), 1.0)
    True
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
    labels, centres = kmeans(Z, c, n_init=10, random_state=rng.randint(2**31 - 1))
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
    r"""RCK1, eq. (5): :math:`\exp(-\lVert U_{\cdot i} - U_{\cdot j}\rVert^2/2\sigma^2)`.

    The first reweighting kernel of Bodó & Csató (2010),

    .. math::

        K_{rw,ij} = \exp\Bigl(-\frac{\lVert U_{\cdot i} - U_{\cdot j}\rVert^2}{2\sigma^2}\Bigr),

    used as :math:`K = K_{rw}\circ K_b` with a non-negative base kernel :math:`K_b`.
    PSD (a Gaussian kernel of the membership vectors), entries in (0, 1], unit diagonal;
    with crisp memberships it is 1 within a cluster and :math:`e^{-1/\sigma^2}` across
    clusters.

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2, "Reweighting kernels").

    Parameters
    ----------
    U : array-like of shape (c, n)
        Cluster memberships, one column per point (:func:`membership_matrix`), >= 0.
    sigma : float
        The bandwidth :math:`\sigma > 0`.

    Returns
    -------
    K_rw : ndarray of shape (n, n)
        The reweighting kernel, to be multiplied entrywise with a base kernel.

    Raises
    ------
    ValueError
        If ``U`` is not a finite 2-D array, has a negative entry, or ``sigma`` is not a
        finite positive number.

    Notes
    -----
    Time :math:`O(n^2c)`, memory one (n, n) float64 array (plus temporaries of that size
    inside :func:`sslteach.kernels.rbf_kernel`).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import rck_gaussian
    >>> U = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])  # clusters {0, 1}, {2, 3}
    >>> np.round(rck_gaussian(U, sigma=1.0), 3)  # exp(-1) across clusters
    array([[1.   , 1.   , 0.368, 0.368],
           [1.   , 1.   , 0.368, 0.368],
           [0.368, 0.368, 1.   , 1.   ],
           [0.368, 0.368, 1.   , 1.   ]])
    """
    return rbf_kernel(_check_U(U).T, sigma=sigma)


def rck_dot(U, alpha):
    r"""RCK2, eq. (6): :math:`U^\top U + \tfrac\alpha N\mathbf 1\mathbf 1^\top`, :math:`\alpha\in[0,1)`.

    PSD (a sum of two Gram matrices); crisp memberships give entries :math:`\alpha/N` (different
    clusters) and :math:`1 + \alpha/N` (same cluster).

    The second reweighting kernel of Bodó & Csató (2010), with N = n the number of points,

    .. math::

        K_{rw} = U^\top U + \frac{\alpha}{N}\mathbf 1\mathbf 1^\top,\qquad
        K_{rw,ij} = \sum_c U_{ci}U_{cj} + \frac{\alpha}{N},

    used as :math:`K = K_{rw}\circ K_b` with a non-negative base kernel :math:`K_b`
    (PSD by the Schur product theorem).

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2, "Reweighting kernels").

    Parameters
    ----------
    U : array-like of shape (c, n)
        Cluster memberships, one column per point (:func:`membership_matrix`), >= 0.
    alpha : float
        The floor :math:`\alpha\in[0, 1)` of eq. (6).

    Returns
    -------
    K_rw : ndarray of shape (n, n)
        The reweighting kernel, to be multiplied entrywise with a base kernel.

    Raises
    ------
    ValueError
        If ``U`` is not a finite 2-D array or has a negative entry, or ``alpha`` is not in
        [0, 1).

    Notes
    -----
    Time :math:`O(n^2c)` (the product :math:`U^\top U`), memory one (n, n) float64 array.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import rck_dot
    >>> from sslteach.kernels import rbf_kernel
    >>> U = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])  # clusters {0, 1}, {2, 3}
    >>> K_rw = rck_dot(U, alpha=0.5)  # alpha / N = 0.125
    >>> np.round(K_rw, 3)
    array([[1.125, 1.125, 0.125, 0.125],
           [1.125, 1.125, 0.125, 0.125],
           [0.125, 0.125, 1.125, 1.125],
           [0.125, 0.125, 1.125, 1.125]])
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
    r"""RCK3, eq. (7): :math:`\beta U^\top U + \tfrac1N\mathbf 1\mathbf 1^\top` with :math:`\beta > 0`.

    The third reweighting kernel of Bodó & Csató (2010), with N = n the number of points,

    .. math::

        K_{rw} = \beta\,U^\top U + \frac1N\mathbf 1\mathbf 1^\top,\qquad
        K_{rw,ij} = \beta\sum_c U_{ci}U_{cj} + \frac1N,

    used as :math:`K = K_{rw}\circ K_b` with a non-negative base kernel :math:`K_b`.
    PSD (a sum of two Gram matrices); crisp memberships give entries :math:`1/N`
    (different clusters) and :math:`\beta + 1/N` (same cluster).

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2, "Reweighting kernels").

    Parameters
    ----------
    U : array-like of shape (c, n)
        Cluster memberships, one column per point (:func:`membership_matrix`), >= 0.
    beta : float
        The weight :math:`\beta > 0` of the same-cluster term.

    Returns
    -------
    K_rw : ndarray of shape (n, n)
        The reweighting kernel, to be multiplied entrywise with a base kernel.

    Raises
    ------
    ValueError
        If ``U`` is not a finite 2-D array or has a negative entry, or ``beta`` is not a
        finite positive number.

    Notes
    -----
    Time :math:`O(n^2c)` (the product :math:`U^\top U`), memory one (n, n) float64 array.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import rck_scaled
    >>> U = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])  # clusters {0, 1}, {2, 3}
    >>> np.round(rck_scaled(U, beta=2.0), 3)  # 1 / N = 0.25
    array([[2.25, 2.25, 0.25, 0.25],
           [2.25, 2.25, 0.25, 0.25],
           [0.25, 0.25, 2.25, 2.25],
           [0.25, 0.25, 2.25, 2.25]])
    """
    U = _check_U(U)
    beta = check_positive(beta, "beta")
    K = U.T @ U
    K *= beta
    K += 1.0 / U.shape[1]
    return K


def bagged_cluster_kernel(X, n_clusters, n_runs=10, *, random_state=None):
    r"""The bagged cluster kernel of Weston et al. (2006): co-clustering frequencies.

    k-means is run ``n_runs`` times from different random initialisations (one start
    each); :math:`K_{ij}` is the fraction of runs that put i and j in the same cluster,
    :math:`K = \tfrac1T\sum_t U_t^\top U_t`: PSD, entries in [0, 1], unit diagonal. The
    paper multiplies it with a base kernel (:math:`K_{bag}\circ K_b`). Time
    :math:`O(T(ncd\,\text{iter} + n^2))`.

    In one formula, with :math:`c_t(i)` the cluster of point i in run t,

    .. math::

        K_{bag,ij} = \frac1T\sum_{t=1}^T \mathbb 1\bigl[c_t(i) = c_t(j)\bigr]
        = \frac1T\sum_{t=1}^T \bigl(U_t^\top U_t\bigr)_{ij},

    the average of crisp RCK2 kernels (:func:`rck_dot`) with :math:`\alpha = 0`: the
    ancestor that the reweighting kernels of Bodó & Csató (2010) generalise, and the
    "bagged" row of their Table 1 (:func:`table1_candidates`).

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2, "Reweighting kernels").

    Parameters
    ----------
    X : array-like of shape (n, d)
        All points, labelled and unlabelled alike (at least 2 rows, finite).
    n_clusters : int
        The number of clusters c of every k-means run, 1 <= c <= n.
    n_runs : int, default 10
        The number of runs T, each one start of :func:`kmeans` with ``init="random"``.
    random_state : int, RandomState or None
        Seeds the runs.

    Returns
    -------
    K_bag : ndarray of shape (n, n)
        Co-clustering frequencies: symmetric, PSD, entries in {0, 1/T, ..., 1}, unit
        diagonal.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array with at least 2 rows, ``n_runs`` is below 1 or
        ``n_clusters`` is not in [1, n].

    Notes
    -----
    Time :math:`O(T(ncd\cdot\text{iterations} + n^2))`; memory the (n, n) result plus
    :math:`O(n^2)` for one run's co-membership indicator and :math:`O(nc)` for k-means.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import bagged_cluster_kernel
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> K = bagged_cluster_kernel(X, 2, n_runs=10, random_state=0)
    >>> np.round(K, 2)  # every run finds the two clusters
    array([[1., 1., 1., 0., 0., 0.],
           [1., 1., 1., 0., 0., 0.],
           [1., 1., 1., 0., 0., 0.],
           [0., 0., 0., 1., 1., 1.],
           [0., 0., 0., 1., 1., 1.],
           [0., 0., 0., 1., 1., 1.]])
    """
    X = check_data(X, name="X", min_samples=2)
    T = check_int(n_runs, "n_runs", low=1)
    c = check_int(n_clusters, "n_clusters", low=1, high=X.shape[0])
    rng = check_random_state(random_state)
    K = np.zeros((X.shape[0], X.shape[0]))
    for _ in range(T):
        labels, _ = kmeans(X, c, n_init=1, init="random", random_state=rng.randint(2**31 - 1))
        K += labels[:, None] == labels[None, :]
    K /= T
    return K


# ----------------------------------------------------------------------------------------
# the estimator
# ----------------------------------------------------------------------------------------


class DataDependentSVC(ClassifierMixin, BaseEstimator):
    r"""An SVM on a data-dependent kernel computed over labelled *and* unlabelled points.

    ``fit(X, y)`` (``y = -1`` for unlabelled points) computes ``K = kernel(X)`` over all
    rows, fits ``SVC(kernel="precomputed", C=C)`` on the labelled block and classifies
    every row (``transduction_``). The method is transductive, as the paper says: to
    classify a new point, include it in X (unlabelled) and fit again (with
    ``kernel="hck"``, :meth:`predict` can also extend the kernel to new points).

    With L the labelled rows, the SVM's decision value for every row i is

    .. math::

        f(x_i) = \sum_{j\in L}\alpha_j y_j K_{ij} + b,\qquad
        \max_{0\le\alpha_j\le C,\ \sum_j\alpha_j y_j = 0}\ \sum_{j\in L}\alpha_j
        - \tfrac12\sum_{j,k\in L}\alpha_j\alpha_k y_j y_k K_{jk}

    (binary case, :math:`y_j = \pm1`; several classes are handled one against one by
    LIBSVM), where K is computed from all points: the protocol of Bodó & Csató (2010), with
    the kernels of their Algorithms 1 and 2 and eqs. (5)-(7).

    Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2).

    Parameters
    ----------
    kernel : "hck" or callable, default "hck"
        ``"hck"``: :func:`hierarchical_cluster_kernel` with average linkage, the paper's
        kernel; or a callable ``kernel(X) -> (n, n)`` PSD matrix, e.g.
        ``functools.partial(hierarchical_cluster_kernel, linkage="single", metric="geodesic",
        n_neighbors=7)`` (gHCK). Sparse X is accepted only with a callable that takes it.
    C : float, default 1.0
        The SVM's cost :math:`C > 0` (the box constraint of the dual).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels (the values of ``y`` other than -1), sorted.
    kernel_ : ndarray of shape (n, n)
        The kernel over all training rows.
    svc_ : sklearn.svm.SVC
        The SVM fitted on the labelled block ``kernel_[labeled_][:, labeled_]``.
    transduction_ : ndarray of shape (n,)
        The SVM's label for every training row (labelled rows included: they are not
        clamped to their given labels).
    decision_ : ndarray of shape (n,) or (n, n_classes)
        The SVM's decision values :math:`f(x_i)` for every training row, (n,) for two
        classes.
    labeled_ : ndarray of shape (l,)
        The indices of the labelled rows (``y != -1``).
    hck_ : HierarchicalClusterKernel
        With ``kernel="hck"`` only: the fitted kernel, used to classify new points.
    X_fit_ : ndarray or sparse matrix of shape (n, d)
        The training rows.
    n_features_in_ : int
        The number of features d seen by ``fit``.

    See Also
    --------
    HierarchicalClusterKernel : The out-of-sample extension behind ``kernel="hck"``.
    select_svm : Chooses the kernel's parameters and C on the labelled points.

    Notes
    -----
    Cost of ``fit``: the kernel's (:math:`O(n^2d)` time and about three (n, n) float64
    arrays for ``"hck"``), then the SVM on the l labelled rows (LIBSVM, roughly
    :math:`O(l^2)` to :math:`O(l^3)` time, :math:`O(l^2)` memory) and its decision values
    for all rows, :math:`O(nl)`.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers,
    since -1 marks unlabelled points (scikit-learn gives its own semi-supervised
    estimators numeric labels in that check).

    Examples
    --------
    Two clusters on a line with one label each (``-1``: unlabelled):

    >>> import functools
    >>> import numpy as np
    >>> from sslteach.cluster_kernels import DataDependentSVC, hierarchical_cluster_kernel
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> y = np.array([0, -1, -1, 1, -1, -1])
    >>> clf = DataDependentSVC(kernel="hck", C=1.0).fit(X, y)
    >>> clf.transduction_
    array([0, 0, 0, 1, 1, 1])
    >>> clf.labeled_, clf.kernel_.shape
    (array([0, 3]), (6, 6))
    >>> clf.predict(np.array([[-1.0], [13.0]]))  # new points, through the HCK extension
    array([0, 1])

    Any kernel of all points, here gHCK with single linkage:

    >>> ghck = functools.partial(
    ...     hierarchical_cluster_kernel, linkage="single", metric="geodesic", n_neighbors=2
    ... )
    >>> DataDependentSVC(kernel=ghck).fit(X, y).transduction_
    array([0, 0, 0, 1, 1, 1])
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
        r"""Compute the kernel over every row of X and fit the SVM on the labelled rows.

        :math:`K = \mathrm{kernel}(X)` over all n rows (labelled and unlabelled), the SVM
        dual of the class docstring on the labelled block :math:`K_{LL}`, then the decision
        values :math:`f(x_i) = \sum_{j\in L}\alpha_j y_j K_{ij} + b` and labels of every
        row (``decision_``, ``transduction_``).

        Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2).

        Parameters
        ----------
        X : array-like of shape (n, d)
            All points (at least 2 rows, finite); a sparse matrix only with a callable
            ``kernel`` that accepts it.
        y : array-like of shape (n,)
            Numeric class labels, -1 for an unlabelled point; at least two classes must
            be labelled.

        Returns
        -------
        self : DataDependentSVC
            The fitted classifier.

        Raises
        ------
        ValueError
            If ``X`` or ``y`` is invalid (not finite, wrong length, non-numeric labels, fewer
            than two labelled classes), a parameter is invalid, or ``kernel(X)`` does not
            return an (n, n) matrix.

        Notes
        -----
        Time: the kernel's (:math:`O(n^2d)` for ``"hck"``), the SVM on l labelled rows
        (roughly :math:`O(l^2)` to :math:`O(l^3)`) and :math:`O(nl)` decision values.
        Memory: the kernel's, about three (n, n) float64 arrays for ``"hck"``.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.cluster_kernels import DataDependentSVC
        >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
        >>> clf = DataDependentSVC().fit(X, [0, -1, -1, 1, -1, -1])
        >>> clf.classes_, clf.transduction_
        (array([0, 1]), array([0, 0, 0, 1, 1, 1]))
        >>> np.sign(clf.decision_).astype(int)  # negative: the first class
        array([-1, -1, -1,  1,  1,  1])
        """
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
        r"""The labels of the training rows (``transduction_``), or of new points with ``"hck"``.

        With ``kernel="hck"`` new rows are classified through the out-of-sample extension
        :meth:`HierarchicalClusterKernel.transform` (at a training row it gives that row of
        the kernel, so ``predict(X_train)`` is ``transduction_``). With a callable kernel,
        ``X``, when given, must be the very rows the model was fitted on (the kernel is
        defined on them only); anything else raises ``ValueError`` rather than returning
        labels that belong to other points.

        For a new point x (``kernel="hck"``) the SVM's decision value is

        .. math::

            f(x) = \sum_{j\in L}\alpha_j y_j\,k(x, x_j) + b,

        with :math:`k(x, x_j)` the out-of-sample HCK value (Gower's formula on the
        dendrogram extended by x); the paper itself is transductive (Bodó & Csató, 2010,
        leave the extension to future work).

        Derived in :doc:`/notebooks/02_cluster_kernels` (Chapter 2).

        Parameters
        ----------
        X : array-like of shape (p, d), optional
            None (the default) or the training rows: the labels ``transduction_``. New
            points: only with ``kernel="hck"``.

        Returns
        -------
        y_pred : ndarray of shape (n,) or (p,)
            A class label of ``classes_`` for every row.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If :meth:`fit` has not been called (a subclass of ``ValueError``).
        ValueError
            If ``X`` is not a finite 2-D array with the training number of features, or,
            with a callable kernel, ``X`` is not the training rows in their order.

        Notes
        -----
        Without new points: :math:`O(nd)` time for comparing X with the training rows.
        New points with ``"hck"``: time :math:`O(pnd)` for the extension and :math:`O(pl)`
        for the SVM, memory the (p, n) extended kernel.

        Examples
        --------
        >>> import functools
        >>> import numpy as np
        >>> from sslteach.cluster_kernels import DataDependentSVC, hierarchical_cluster_kernel
        >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
        >>> y = [0, -1, -1, 1, -1, -1]
        >>> DataDependentSVC().fit(X, y).predict(np.array([[-1.0], [5.0], [13.0]]))
        array([0, 0, 1])
        >>> clf = DataDependentSVC(functools.partial(hierarchical_cluster_kernel, linkage="single")).fit(X, y)
        >>> clf.predict(X)
        array([0, 0, 0, 1, 1, 1])
        >>> clf.predict(np.array([[5.0]]))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        ValueError: A data-dependent kernel is defined on the points it was computed from, ...
        """
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
