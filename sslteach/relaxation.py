r"""Eigenvectors as relaxed labellings: Cristianini, Shawe-Taylor & Kandola (2001).

For a kernel matrix :math:`K` on :math:`m` points and a labelling
:math:`y\in\{-1,+1\}^m`:

* alignment :math:`A(S,k,y) = y^\top K y / (m\lVert K\rVert_F)`;
* cut cost :math:`C(S,k,y) = \sum_{y_i\ne y_j} K_{ij} / (m\lVert K\rVert_F)`
  (ordered pairs), with :math:`C = (T - A)/2`, :math:`T = \mathbf 1^\top K\mathbf 1/(m\lVert K\rVert_F)`;
* relaxing :math:`y` to the sphere :math:`\lVert y\rVert^2 = m` gives
  :math:`A \le \lambda_{\max}(K)/\lVert K\rVert_F` and, over balanced labellings
  (:math:`\sum_i y_i = 0`), :math:`C \ge \lambda_2(L)/(2\lVert K\rVert_F)` with
  :math:`L = D - K`.

:func:`threshold_sweep` discretises a relaxed solution by every threshold in
:math:`O(m^2)` total; :class:`SpectralAlignmentClustering` is the whole pipeline.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.sparse.linalg import eigsh
from sklearn.base import BaseEstimator, ClusterMixin, _fit_context
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils._tags import ClassifierTags

from ._decisions import first_best, orient_columns, stable_order
from ._validation import check_data, check_labels, check_square, validate_fit_data
from .kernels import center_kernel, linear_kernel, normalize_kernel, rbf_kernel

__all__ = [
    "alignment",
    "cut_cost",
    "total_alignment",
    "alignment_upper_bound",
    "cut_cost_lower_bound",
    "flip_costs",
    "top_eigenvector",
    "fiedler_vector",
    "threshold_sweep",
    "SpectralAlignmentClustering",
]

#: Below this size eigenvectors come from a dense ``eigh``; above, from ``eigsh``.
DENSE_EIGEN_LIMIT = 1000


def _kernel(K):
    return check_square(K, name="K", symmetric=True)


def _labels(y, m):
    """A full labelling in {-1, +1}, one entry per row of K."""
    return check_labels(y, m, unlabeled=None, values=(-1, 1))[0].astype(np.float64)


def _fro(K):
    f = np.linalg.norm(K)
    if f == 0:
        raise ValueError(
            "K is the zero matrix; alignment and cut cost are undefined (division by ||K||_F = 0)."
        )
    return f


def alignment(K, y):
    r"""Alignment of ``K`` with the labelling ``y``: :math:`y^\top K y / (m \lVert K\rVert_F)`.

    The Frobenius cosine between :math:`K` and :math:`yy^\top` (whose norm is :math:`m`).
    Cost :math:`O(m^2)`.
    """
    K = _kernel(K)
    y = _labels(y, K.shape[0])
    return float(y @ K @ y / (K.shape[0] * _fro(K)))


def total_alignment(K):
    r""":math:`T(S,k) = A(S,k,\mathbf 1) = \mathbf 1^\top K\mathbf 1/(m\lVert K\rVert_F)`."""
    K = _kernel(K)
    return float(K.sum() / (K.shape[0] * _fro(K)))


def cut_cost(K, y):
    r"""Cut cost :math:`\sum_{i,j:\,y_i\ne y_j} K_{ij} / (m\lVert K\rVert_F)` (ordered pairs).

    Equals :math:`(T - A)/2` and :math:`y^\top L y / (2m\lVert K\rVert_F)`, :math:`L = D - K`.
    Cost :math:`O(m^2)`.
    """
    K = _kernel(K)
    y = _labels(y, K.shape[0])
    return float((K.sum() - y @ K @ y) / (2 * K.shape[0] * _fro(K)))


def flip_costs(K, y):
    r"""Change in :math:`y^\top K y / \lVert K\rVert_F` when each single label is flipped.

    Flipping :math:`y_i` changes :math:`y^\top K y` by :math:`-4 y_i (Ky)_i + 4K_{ii}`
    (each pair :math:`(i, j)` appears twice in the double sum). The paper's cost,
    :math:`2\sum_j y_j K_{ij}/\lVert K\rVert_F`, counts each pair once and drops the
    diagonal. Returned: the exact change, a vector of length m, in :math:`O(m^2)`.
    """
    K = _kernel(K)
    y = _labels(y, K.shape[0])
    return (-4 * y * (K @ y) + 4 * np.diag(K)) / _fro(K)


def _extreme_eigenpair(A, which):
    """Largest ('LA') or smallest ('SA') eigenpair of a symmetric matrix."""
    m = A.shape[0]
    if m <= DENSE_EIGEN_LIMIT:
        w, V = np.linalg.eigh(A)
        i = -1 if which == "LA" else 0
        return w[i], V[:, i]
    v0 = np.ones(m) / np.sqrt(m) + np.linspace(-1e-3, 1e-3, m)  # deterministic start
    w, V = eigsh(A, k=1, which=which, v0=v0, tol=1e-10)
    return w[0], V[:, 0]


def _orient(v):
    """Fix the arbitrary sign of an eigenvector: its largest-magnitude entry is positive
    (the first of those equal to round-off)."""
    return orient_columns(v)


def top_eigenvector(K):
    r""":math:`(\lambda_{\max}, v_{\max})` of ``K``, with ``v`` of unit length, sign-fixed.

    Dense ``eigh`` for m <= :data:`DENSE_EIGEN_LIMIT`, else ``scipy.sparse.linalg.eigsh``
    (Lanczos, a few matrix-vector products).
    """
    K = _kernel(K)
    lam, v = _extreme_eigenpair(K, "LA")
    return float(lam), _orient(v)


def _laplacian_on_complement(K):
    """L = D - K shifted so that the constant vector is no longer its smallest eigenvector."""
    d = K.sum(axis=1)
    L = -K  # new array
    L[np.diag_indices_from(L)] += d
    shift = 2 * np.abs(L).sum(axis=1).max() + 1.0  # above every eigenvalue (Gershgorin)
    L += shift / K.shape[0]  # + shift * (1/m) 11': moves the eigenvalue of 1 from 0 to shift
    return L


def fiedler_vector(K):
    r"""Smallest eigenpair of :math:`L = D - K` on the complement of :math:`\mathbf 1`.

    :math:`L\mathbf 1 = 0` always, so minimising :math:`y^\top L y` over
    :math:`\lVert y\rVert^2 = m`, :math:`\sum_i y_i = 0` is solved by the eigenvector of
    the smallest eigenvalue of :math:`L` restricted to :math:`\mathbf 1^\perp`
    (for a kernel with non-negative entries, the smallest non-zero eigenvalue of a
    connected graph's Laplacian: the Fiedler vector). Computed as the smallest
    eigenpair of :math:`L + c\,\mathbf 1\mathbf 1^\top/m` with :math:`c` above the spectrum.
    """
    K = _kernel(K)
    lam, v = _extreme_eigenpair(_laplacian_on_complement(K), "SA")
    return float(lam), _orient(v - v.mean())


def alignment_upper_bound(K):
    r"""Courant–Fischer bound :math:`\lambda_{\max}(K)/\lVert K\rVert_F \ge A(S,k,y)` for all ``y``."""
    K = _kernel(K)
    return top_eigenvector(K)[0] / _fro(K)


def cut_cost_lower_bound(K):
    r"""Bound :math:`\lambda_2/(2\lVert K\rVert_F) \le C(S,k,y)` for every balanced ``y``.

    Balanced means :math:`\sum_i y_i = 0`.

    :math:`\lambda_2` is the smallest eigenvalue of :math:`L = D - K` on
    :math:`\mathbf 1^\perp` (see :func:`fiedler_vector`).
    """
    K = _kernel(K)
    return fiedler_vector(K)[0] / (2 * _fro(K))


def threshold_sweep(K, v, criterion="alignment", K_eval=None):
    r"""Score every threshold of a relaxed labelling ``v`` and return the best labelling.

    Points are sorted by ``v`` in decreasing order; threshold ``i`` (1..m-1) labels the
    ``i`` largest entries +1 and the rest -1. Its alignment or cut cost is measured on
    ``K_eval`` (default ``K``; pass :math:`K_P = K + C_0 zz^\top` for the transductive
    variant). Round-off never decides: entries of ``v`` within 1e-9 of each other (relative
    to max |v|) keep their index order, and the best threshold is the first whose score is
    within 1e-9 (relative) of the best (``sslteach._decisions``).

    Each threshold moves one point from -1 to +1, :math:`y' = y + 2e_p`, so
    :math:`y'^\top K y' = y^\top K y + 4(Ky)_p + 4K_{pp}`, and :math:`(Ky)_p` follows
    from a running sum of the rows already moved. Total cost :math:`O(m^2)` (one pass
    over the rows of ``K``) and :math:`O(m)` extra memory, not the :math:`O(m^3)` of
    recomputing :math:`y^\top K y` for every threshold. ``K_eval`` must be symmetric.

    Parameters
    ----------
    K : array-like (m, m)
        Only used when ``K_eval`` is None (it is then the evaluation matrix).
    v : array-like (m,)
        Relaxed labelling (an eigenvector).
    criterion : {"alignment", "cut"}
        Maximise the alignment or minimise the cut cost.
    K_eval : array-like (m, m), optional

    Returns
    -------
    Bunch with ``scores`` (m-1,) (score of threshold i at index i-1), ``thresholds``
    (1..m-1), ``best`` (the threshold number), ``y`` (its labelling, in the original
    point order), ``order`` (indices sorting ``v`` decreasingly).
    """
    if criterion not in ("alignment", "cut"):
        raise ValueError(f"criterion must be 'alignment' or 'cut'; got {criterion!r}.")
    Ke = _kernel(K if K_eval is None else K_eval)
    m = Ke.shape[0]
    if K_eval is not None:
        K0 = check_square(K, name="K")
        if K0.shape != Ke.shape:
            raise ValueError(
                f"K_eval has shape {Ke.shape} but K has {K0.shape}; both are over the same points."
            )
    v = check_data(np.asarray(v, dtype=float).reshape(-1, 1), name="v")[:, 0]
    if v.shape[0] != m:
        raise ValueError(f"v has {v.shape[0]} entries but K is {m} x {m}; pass one value per point.")
    if m < 2:
        raise ValueError("A threshold sweep needs at least 2 points.")
    order = stable_order(v)  # entries equal to round-off keep their index order
    rowsum = Ke.sum(axis=1)
    total = rowsum.sum()
    # Moving point p_t to the +1 side: y_t = y_{t-1} + 2 e_{p_t}, hence
    # y_t'Ky_t = y_{t-1}'Ky_{t-1} + 4 (K y_{t-1})_{p_t} + 4 K_{p_t p_t}, with
    # (K y_{t-1})_{p_t} = 2 c_t - rowsum_{p_t} and c_t = sum_{s<t} K[p_t, p_s].
    # c_t comes from one running sum of the rows already moved: O(m) per threshold.
    c = np.empty(m - 1)
    moved = np.zeros(m)
    for t in range(m - 1):
        p = order[t]
        c[t] = moved[p]
        moved += Ke[p]
    p = order[: m - 1]
    quad = total + np.cumsum(4 * (2 * c - rowsum[p]) + 4 * Ke[p, p])  # y = -1 gives y'Ky = 1'K1
    denom = m * np.linalg.norm(Ke)
    if denom == 0:
        raise ValueError("K_eval is the zero matrix; the criteria are undefined.")
    scores = quad / denom if criterion == "alignment" else (total - quad) / (2 * denom)
    best = first_best(scores, maximize=criterion == "alignment") + 1
    y = -np.ones(m)
    y[order[:best]] = 1.0
    return Bunch(scores=scores, thresholds=np.arange(1, m), best=best, y=y, order=order)


class SpectralAlignmentClustering(ClusterMixin, BaseEstimator):
    r"""Two-way clustering by a relaxed alignment or cut cost (Cristianini et al., 2001).

    Pipeline: kernel matrix → (optional) normalisation in feature space → (optional)
    centering → relaxed labelling (top eigenvector of ``K`` for ``criterion="alignment"``,
    Fiedler vector of :math:`L = D - K` for ``"cut"``) → :func:`threshold_sweep`. With
    labels (``y`` with -1 for unlabelled points) the transductive variant measures every
    threshold on :math:`K_P = K + C_0 zz^\top`, :math:`z` the known labels as ±1 and 0
    elsewhere, while the eigenvector still comes from ``K``.

    Parameters
    ----------
    kernel : {"linear", "rbf", "precomputed"}
    sigma : float
        Bandwidth of the Gaussian kernel :math:`\exp(-\lVert x-x'\rVert^2/(2\sigma^2))`.
    normalize, center : bool
        Preprocessing, applied in that order (the paper's "normalise ... then centre").
    criterion : {"alignment", "cut"}
    C0 : float
        Weight of the labels in :math:`K_P` (transductive variant only).
    min_cluster_size : int
        Only thresholds with at least this many points on each side are considered
        (1 = all m-1 thresholds, the paper's sweep).

    Attributes
    ----------
    labels_ : ndarray (m,)
        0/1 cluster codes; with labels given, the two classes of ``y`` (transduction).
    kernel_matrix_, eigenvalue_, eigenvector_, sweep_, threshold_, bound_
        The preprocessed kernel, the relaxed solution, the sweep result, the chosen
        threshold number and the spectral bound (upper for alignment, lower for cut).

    Notes
    -----
    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``; ``y``, when given,
    holds two classes, so the checks pass two): all pass but ``check_estimators_dtypes``,
    whose integer data has an all-zero row: it has no direction, so the default
    ``normalize=True`` of the linear kernel is undefined there (refused with a ValueError
    that says so).
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions({"linear", "rbf", "precomputed"})],
        "sigma": [Interval(Real, 0, None, closed="neither")],
        "normalize": ["boolean"],
        "center": ["boolean"],
        "criterion": [StrOptions({"alignment", "cut"})],
        "C0": [Interval(Real, 0, None, closed="neither")],
        "min_cluster_size": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        kernel="linear",
        sigma=1.0,
        normalize=True,
        center=True,
        criterion="alignment",
        C0=1.0,
        min_cluster_size=1,
    ):
        self.kernel = kernel
        self.sigma = sigma
        self.normalize = normalize
        self.center = center
        self.criterion = criterion
        self.C0 = C0
        self.min_cluster_size = min_cluster_size

    def _kernel_matrix(self, X):
        X = validate_fit_data(self, X, min_samples=2)
        if self.kernel == "precomputed":
            K = check_square(X, name="X (precomputed kernel)", symmetric=True)
        elif self.kernel == "linear":
            K = linear_kernel(X)
        else:
            K = rbf_kernel(X, sigma=self.sigma)
        if self.normalize:
            K = normalize_kernel(K)
        if self.center:
            K = center_kernel(K)
        return K

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Cluster ``X`` (or the kernel matrix ``X`` when ``kernel="precomputed"``).

        ``y`` (optional): one entry per point, -1 for unlabelled and two class labels
        otherwise (at least one labelled point of each class).
        """
        K = self._kernel_matrix(X)
        m = K.shape[0]
        z = None
        if y is not None:
            y, labeled, self.classes_, _ = check_labels(
                y, m, n_classes=2, who="SpectralAlignmentClustering's transductive variant"
            )
            z = np.where(labeled, np.where(y == self.classes_[1], 1.0, -1.0), 0.0)
        if self.criterion == "alignment":
            lam, v = top_eigenvector(K)
            self.bound_ = lam / np.linalg.norm(K)
        else:
            lam, v = fiedler_vector(K)
            self.bound_ = lam / (2 * np.linalg.norm(K))
        K_eval = None
        if z is not None:
            K_eval = K + float(self.C0) * np.outer(z, z)
        sweep = threshold_sweep(K, v, self.criterion, K_eval=K_eval)
        mcs = self.min_cluster_size
        if not 1 <= mcs <= m // 2:
            raise ValueError(
                f"min_cluster_size must be in [1, m // 2 = {m // 2}]; got {self.min_cluster_size!r}."
            )
        allowed = (sweep.thresholds >= mcs) & (sweep.thresholds <= m - mcs)
        masked = np.where(allowed, sweep.scores, -np.inf if self.criterion == "alignment" else np.inf)
        best = first_best(masked, maximize=self.criterion == "alignment") + 1
        ylab = -np.ones(m)
        ylab[sweep.order[:best]] = 1.0
        self.kernel_matrix_ = K
        self.eigenvalue_, self.eigenvector_ = lam, v
        self.sweep_ = sweep
        self.threshold_ = best
        if z is None:
            self.labels_ = (ylab > 0).astype(np.int64)
        else:
            # orient the two sides so that they agree with most known labels
            if np.sum(z * ylab) < 0:
                ylab = -ylab
            self.labels_ = np.where(ylab > 0, self.classes_[1], self.classes_[0])
        self.transduction_ = self.labels_
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        # y, when given, holds labels of two classes (the transductive variant): scikit-learn's
        # checks then pass two classes, as to a binary classifier
        tags.classifier_tags = ClassifierTags(multi_class=False)
        return tags
