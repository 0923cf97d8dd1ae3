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
    check_indices,
    check_int,
    check_labels,
    check_positive,
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
    "TABLE1_ROWS",
    "table1_candidates",
    "select_svm",
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

    :math:`u_{ij}` is the height at which points i and j first share a cluster (the label of
    their lowest common ancestor, Sect. 3.3 of the paper). Time :math:`O(n^2d)` for the
    distances plus :math:`O(n^2)` for scipy's linkage (nearest-neighbour chain) and
    ``cophenet``; peak memory about two (n, n) float64 arrays.
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

    Both choices of M give a PSD kernel: u is an ultrametric, an ultrametric space embeds
    isometrically in Euclidean space, and :math:`\sqrt u` is an ultrametric too.

    Returns
    -------
    K : ndarray of shape (n, n), PSD, with :math:`K_{ii} + K_{jj} - 2K_{ij} = M_{ij}`.

    Notes
    -----
    Time :math:`O(n^2 d)` (distances) + :math:`O(n^2)` (linkage, cophenet, centering); no
    :math:`n^3` step. Peak memory about two (n, n) float64 arrays (the squared cophenetic
    matrix and the kernel).
    """
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

    Cost per new point :math:`O(nd)` (nearest neighbour) + :math:`O(n)`, against
    :math:`O(n^2 d)` to recluster everything.

    Parameters
    ----------
    linkage : {"single", "complete", "average"}
    squared : bool, default True

    Attributes
    ----------
    kernel_ (n, n), cophenetic_ (n, n), linkage_matrix_, X_fit_, row_means_, grand_mean_

    Notes
    -----
    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass.
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
        """Cluster X (all points, labelled or not: ``y`` is ignored) and store the kernel."""
        X = validate_fit_data(self, X, min_samples=2)
        self.cophenetic_, self.linkage_matrix_ = cophenetic_matrix(X, self.linkage)
        M = self.cophenetic_**2 if self.squared else self.cophenetic_.copy()
        self.row_means_ = M.mean(axis=1)
        self.grand_mean_ = float(self.row_means_.mean())
        self.kernel_ = mds_kernel(M)
        self.X_fit_ = X
        return self

    def transform(self, X):
        """The kernel between the rows of X and the training points, shape (p, n_train)."""
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
    U = np.zeros((n_clusters, labels.size))
    U[labels, np.arange(labels.size)] = 1.0
    return U


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

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        A dense X that is mostly zeros (fewer than 10% non-zero entries, TF-IDF rows) is
        handled as a sparse matrix.
    n_clusters : int
    n_init : int, default 10
        Independent starts; the lowest inertia wins.
    init : {"k-means++", "random"}
        Seeding of Arthur & Vassilvitskii (2007), or ``n_clusters`` distinct rows at random.
    max_iter : int, default 300
    random_state : int, RandomState or None

    Returns
    -------
    labels : ndarray of shape (n,), centres : ndarray of shape (n_clusters, d)

    Notes
    -----
    Each iteration costs :math:`O(ncd)` time (one product with the centres) and
    :math:`O(nc)` memory. An empty cluster takes the point farthest from its centre.
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

    Parameters
    ----------
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
    soft : bool, default False
        Crisp one-hot columns, or (``"kmeans"`` and ``"spectral"`` only) soft memberships
        :math:`u_{ci}\propto\exp(-\lVert z_i - m_c\rVert^2/2s^2)`, where z is the space the
        method clusters in, :math:`m_c` its centres and :math:`s^2` the mean squared
        distance of the points to their own centre (the E-step of a spherical Gaussian
        mixture at the k-means solution). Columns sum to 1 either way.

    Returns
    -------
    U : ndarray of shape (n_clusters, n)
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

    PSD (a Gaussian kernel of the membership vectors), entries in (0, 1], unit diagonal.
    """
    return rbf_kernel(_check_U(U).T, sigma=sigma)


def rck_dot(U, alpha):
    r"""RCK2, eq. (6): :math:`U^\top U + \tfrac\alpha N\mathbf 1\mathbf 1^\top`, :math:`\alpha\in[0,1)`.

    PSD (a sum of two Gram matrices); crisp memberships give entries :math:`\alpha/N` (different
    clusters) and :math:`1 + \alpha/N` (same cluster).
    """
    U = _check_U(U)
    alpha = check_positive(alpha, "alpha", strict=False)
    if not 0.0 <= alpha < 1.0:
        raise ValueError(f"alpha must be in [0, 1) (eq. 6); got {alpha}.")
    K = U.T @ U
    K += alpha / U.shape[1]
    return K


def rck_scaled(U, beta):
    r"""RCK3, eq. (7): :math:`\beta U^\top U + \tfrac1N\mathbf 1\mathbf 1^\top` with :math:`\beta > 0`."""
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
    classify a new point, include it in X (unlabelled) and fit again.

    Parameters
    ----------
    kernel : "hck" or callable, default "hck"
        ``"hck"``: :func:`hierarchical_cluster_kernel` with average linkage, the paper's
        kernel; or a callable ``kernel(X) -> (n, n)`` PSD matrix, e.g.
        ``functools.partial(hierarchical_cluster_kernel, linkage="single", metric="geodesic",
        n_neighbors=7)`` (gHCK). Sparse X is accepted only with a callable that takes it.
    C : float, default 1.0

    Attributes
    ----------
    classes_, kernel_ (n, n), svc_, transduction_ (n,), decision_ (n,) or (n, c), labeled_,
    hck_ (the fitted HierarchicalClusterKernel, with kernel="hck" only)

    Notes
    -----
    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers,
    since -1 marks unlabelled points (scikit-learn gives its own semi-supervised
    estimators numeric labels in that check).
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
        """Compute the kernel over every row of X and fit the SVM on the labelled rows."""
        X, y = validate_fit_data(self, X, y, accept_sparse=callable(self.kernel), min_samples=2)
        y, lab, self.classes_, _ = check_labels(y, X.shape[0], min_classes=2, who="DataDependentSVC")
        if isinstance(self.kernel, str):  # "hck": the one kernel with an out-of-sample extension
            self.hck_ = HierarchicalClusterKernel(linkage="average").fit(X)
            K = self.hck_.kernel_
        else:
            K = np.asarray(self.kernel(X), dtype=float)
        if K.shape != (X.shape[0], X.shape[0]):
            raise ValueError(f"kernel(X) must return an ({X.shape[0]}, {X.shape[0]}) matrix; got {K.shape}.")
        self.kernel_ = K
        self.svc_ = SVC(kernel="precomputed", C=float(self.C)).fit(K[np.ix_(lab, lab)], y[lab])
        self.decision_ = self.svc_.decision_function(K[:, lab])
        self.transduction_ = self.svc_.predict(K[:, lab])
        self.labeled_ = np.flatnonzero(lab)
        self.X_fit_ = X
        return self

    def predict(self, X=None):
        """The labels of the training rows (``transduction_``), or of new points with ``"hck"``.

        With ``kernel="hck"`` new rows are classified through the out-of-sample extension
        :meth:`HierarchicalClusterKernel.transform` (at a training row it gives that row of
        the kernel, so ``predict(X_train)`` is ``transduction_``). With a callable kernel,
        ``X``, when given, must be the very rows the model was fitted on (the kernel is
        defined on them only); anything else raises ``ValueError`` rather than returning
        labels that belong to other points.
        """
        check_is_fitted(self, "transduction_")
        if X is not None:
            X = validate_fit_data(self, X, accept_sparse=True, reset=False)
            same = X.shape == self.X_fit_.shape and (
                (X != self.X_fit_).nnz == 0
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


# ----------------------------------------------------------------------------------------
# the protocol of Table 1, shared by Chapter 2 and scripts/reproduce_ch2.py
# ----------------------------------------------------------------------------------------

TABLE1_ROWS = (
    ["linear", "Gaussian", "bagged"]
    + [f"HCK, {k}" for k in LINKAGES]
    + [f"gHCK, {k}" for k in LINKAGES]
    + [f"RCK{i}, {m}" for i in (1, 2, 3) for m in ("k-means", "hierarchical", "spectral")]
)


def table1_candidates(
    X,
    *,
    n_neighbors=10,
    cluster_counts=(2, 10),
    sigma_factors=(0.25, 0.5, 1.0, 2.0, 4.0),
    n_runs=10,
    rck_sigma=1.0,
    rck_alpha=0.5,
    rck_beta=1.0,
    random_state=0,
):
    r"""Every kernel row of Table 1 of Bodó & Csató (2010) with its candidate parameters.

    All kernels are computed over every row of X (labelled and unlabelled), without labels:

    * ``linear``; ``Gaussian`` with :math:`\sigma` = ``sigma_factors`` times the median
      pairwise distance;
    * ``bagged``: :func:`bagged_cluster_kernel` (``n_runs`` k-means runs) for each of
      ``cluster_counts``, times the base kernel;
    * ``HCK``/``gHCK`` with each linkage (squared cophenetic distances; gHCK on the
      ``n_neighbors``-NN graph);
    * ``RCK1-3`` (eqs. 5-7 with the fixed ``rck_sigma``, ``rck_alpha``, ``rck_beta``) on the
      crisp memberships of k-means, an average-linkage cut and spectral clustering, for each
      of ``cluster_counts``, times the base kernel.

    The base kernel of the reweighted rows is the Gaussian with :math:`\sigma` = the median
    distance (non-negative, as Sect. 4 requires). Each kernel is divided by the mean of its
    diagonal so that one grid of SVM costs C suits all of them.

    Returns
    -------
    dict: row name -> list of (params dict, K) pairs
    """
    X = check_data(X, name="X", min_samples=2)
    rng = check_random_state(random_state)
    D2 = squared_distances(X)
    med = float(np.sqrt(np.median(D2[np.triu_indices(X.shape[0], 1)])))

    def scaled(K):
        K /= np.mean(np.diag(K))
        return K

    def gauss(s):
        return np.exp(D2 / (-2.0 * s * s))

    base = gauss(med)
    out = {"linear": [({}, scaled(X @ X.T))]}
    out["Gaussian"] = [({"sigma/median": f}, scaled(gauss(f * med))) for f in sigma_factors]
    out["bagged"] = [
        (
            {"clusters": c},
            scaled(bagged_cluster_kernel(X, c, n_runs, random_state=rng.randint(2**31 - 1)) * base),
        )
        for c in cluster_counts
    ]
    condensed = {
        "HCK": squareform(np.sqrt(D2), checks=False),
        "gHCK": squareform(geodesic_distances(X, n_neighbors=n_neighbors), checks=False),
    }
    trees = {}
    for name, dc in condensed.items():
        for k in LINKAGES:
            u, trees[(name, k)] = _cophenetic_from_condensed(dc, k)
            np.square(u, out=u)
            out[f"{name}, {k}"] = [({}, scaled(mds_kernel(u)))]
            del u
    del condensed
    rck = {
        1: lambda U: rck_gaussian(U, rck_sigma),
        2: lambda U: rck_dot(U, rck_alpha),
        3: lambda U: rck_scaled(U, rck_beta),
    }
    for method, label in (("kmeans", "k-means"), ("hierarchical", "hierarchical"), ("spectral", "spectral")):
        if method == "hierarchical":  # the average-linkage tree of the HCK row, cut (= membership_matrix)
            Z = trees[("HCK", "average")]
            Us = {c: _one_hot(sch.fcluster(Z, t=c, criterion="maxclust") - 1, c) for c in cluster_counts}
        else:
            Us = {
                c: membership_matrix(X, method, c, random_state=rng.randint(2**31 - 1))
                for c in cluster_counts
            }
        for i, f in rck.items():
            out[f"RCK{i}, {label}"] = [({"clusters": c}, scaled(f(U) * base)) for c, U in Us.items()]
    return out


def _cv_accuracy(K, y, C, folds):
    correct = 0
    for train, test in folds:
        classes = np.unique(y[train])
        if classes.size < 2:
            pred = np.full(test.size, classes[0])
        else:
            pred = (
                SVC(kernel="precomputed", C=C)
                .fit(K[np.ix_(train, train)], y[train])
                .predict(K[np.ix_(test, train)])
            )
        correct += int(np.sum(pred == y[test]))
    return correct / sum(t.size for _, t in folds)


def select_svm(candidates, y, labeled, *, Cs=(0.1, 1.0, 10.0, 100.0), n_folds=5, random_state=0):
    r"""Choose (kernel parameters, C) by cross-validation on the labelled points only.

    Leave-one-out when there are at most 20 labelled points, else stratified
    ``n_folds``-fold; a fold whose training part has one class predicts that class. Ties go
    to the first candidate and the smallest C. The chosen SVM is fitted on all labelled
    points and scored on the others: the test labels are used for that score only.

    Returns
    -------
    accuracy (float, on the points not in ``labeled``), params (dict, with ``"C"``)
    """
    from sklearn.model_selection import StratifiedKFold

    y = check_labels(y, np.shape(y)[0] if np.ndim(y) else 0, unlabeled=None, who="select_svm")[0]
    lab = check_indices(labeled, y.shape[0])
    yl = y[lab]
    if lab.size <= 20 or np.bincount(np.unique(yl, return_inverse=True)[1]).min() < n_folds:
        folds = [(np.delete(np.arange(lab.size), i), np.array([i])) for i in range(lab.size)]
    else:
        skf = StratifiedKFold(n_folds, shuffle=True, random_state=random_state)
        folds = list(skf.split(np.zeros(lab.size), yl))
    best = (-1.0, None, None, None)
    for params, K in candidates:
        KL = K[np.ix_(lab, lab)]
        for C in Cs:
            acc = _cv_accuracy(KL, yl, C, folds)
            if acc > best[0]:
                best = (acc, params, C, K)
    _, params, C, K = best
    rest = np.setdiff1d(np.arange(y.size), lab)
    pred = SVC(kernel="precomputed", C=C).fit(K[np.ix_(lab, lab)], yl).predict(K[np.ix_(rest, lab)])
    return float(np.mean(pred == y[rest])), {**params, "C": C}
