r"""Eigenvectors as relaxed labellings: Cristianini, Shawe-Taylor & Kandola (2001), Chapter 1.

For a kernel matrix :math:`K` on :math:`m` points and a labelling :math:`y\in\{-1,+1\}^m`:
the alignment :math:`A = y^\top Ky/(m\lVert K\rVert_F)` (:func:`alignment`), the cut cost
:math:`C = (T - A)/2` (:func:`cut_cost`, :func:`total_alignment`); relaxing :math:`y` to
the sphere :math:`\lVert y\rVert^2 = m` bounds them by eigenvalues
(:func:`alignment_upper_bound`, :func:`cut_cost_lower_bound`, from :func:`top_eigenvector`
and :func:`fiedler_vector`), and :func:`threshold_sweep` turns a relaxed solution back into
labels. :class:`SpectralAlignmentClustering` is the whole pipeline.

Everything here is derived in :doc:`/notebooks/01_spectral_clustering`; the ``eq:...``
labels are that chapter's. ``K`` is always a finite symmetric matrix, ``y`` one label in
{-1, +1} per row; bad input raises a ValueError that says what to do. Eigenpairs come from
a dense ``eigh`` up to ``DENSE_EIGEN_LIMIT`` (2000) points, :math:`O(m^3)` time and
:math:`O(m^2)` memory, else from ``eigsh`` (Lanczos steps of one :math:`O(m^2)` product).

References
----------
Cristianini, N., Shawe-Taylor, J. & Kandola, J. (2001). Spectral kernel methods for
clustering. *NIPS 14*, 649–655.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.sparse.linalg import eigsh
from sklearn.base import BaseEstimator, ClusterMixin, _fit_context
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils._tags import ClassifierTags

from ._decisions import DENSE_EIGEN_LIMIT, first_best, orient_columns, stable_order
from ._validation import check_labels, check_square, check_vector, validate_fit_data
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


def _check_kernel(K):
    return check_square(K, name="K", symmetric=True)


def _check_labelling(y, m):
    """A full labelling in {-1, +1}, one entry per row of K."""
    return check_labels(y, m, unlabeled=None, values=(-1, 1))[0].astype(np.float64)


def _frobenius_norm(K):
    f = np.linalg.norm(K)
    if f == 0:
        raise ValueError(
            "K is the zero matrix; alignment and cut cost are undefined (division by ||K||_F = 0)."
        )
    return f


def alignment(K, y):
    r"""The alignment :math:`A(S,k,y)`, eq. ``eq:alignment``.

    .. math::

       A(S, k, y) = \frac{\langle K, yy^\top\rangle_F}{\lVert K\rVert_F\,\lVert yy^\top\rVert_F}
       = \frac{y^\top K y}{m\,\lVert K\rVert_F},

    the Frobenius cosine between :math:`K` and :math:`yy^\top` (whose norm is :math:`m`).

    Parameters
    ----------
    K : array-like of shape (m, m), symmetric, not zero
    y : array-like of shape (m,), entries in {-1, +1}

    Returns
    -------
    A : float

    Notes
    -----
    **Cost.** :math:`O(m^2)` time, :math:`O(m)` memory beyond ``K``.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[2.0, 1.0, 0.0, 0.0], [1.0, 2.0, 0.0, 0.0],
    ...               [0.0, 0.0, 2.0, 1.0], [0.0, 0.0, 1.0, 2.0]])  # two blocks, ||K||_F = sqrt(20)
    >>> from sslteach.relaxation import alignment
    >>> round(alignment(K, [1, 1, -1, -1]), 4), round(alignment(K, [1, -1, 1, -1]), 4)  # 12, 4 / 4 sqrt(20)
    (0.6708, 0.2236)
    """
    K = _check_kernel(K)
    y = _check_labelling(y, K.shape[0])
    return float(y @ K @ y / (K.shape[0] * _frobenius_norm(K)))


def total_alignment(K):
    r"""The total alignment :math:`T(S,k) = A(S,k,\mathbf 1) = \mathbf 1^\top K\mathbf 1/(m\lVert K\rVert_F)`.

    It needs no labels and ties alignment and cut cost: :math:`A(S,k,y) = T(S,k) - 2\,C(S,k,y)`
    for every :math:`y` (eq. ``eq:cut-alignment``), so maximising the one and minimising the
    other pick the same labelling. **Cost.** :math:`O(m^2)` time.

    Parameters
    ----------
    K : array-like of shape (m, m), symmetric, not zero

    Returns
    -------
    T : float

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[2.0, 1.0, 0.0, 0.0], [1.0, 2.0, 0.0, 0.0],
    ...               [0.0, 0.0, 2.0, 1.0], [0.0, 0.0, 1.0, 2.0]])  # two blocks, ||K||_F = sqrt(20)
    >>> from sslteach.relaxation import alignment, cut_cost, total_alignment
    >>> y = [1, -1, 1, -1]
    >>> bool(np.isclose(alignment(K, y), total_alignment(K) - 2 * cut_cost(K, y)))
    True
    """
    K = _check_kernel(K)
    return float(K.sum() / (K.shape[0] * _frobenius_norm(K)))


def cut_cost(K, y):
    r"""The cut cost :math:`C(S,k,y)`, eqs. ``eq:cut-cost`` and ``eq:cut-laplacian``.

    .. math::

       C(S, k, y) = \frac{\sum_{i,j:\,y_i\ne y_j} K_{ij}}{m\,\lVert K\rVert_F}
       = \frac{T - A}{2} = \frac{y^\top L y}{2m\lVert K\rVert_F},
       \qquad L = D - K,\quad D = \operatorname{diag}(K\mathbf 1),

    over ordered pairs (each pair in different classes counts twice).

    Parameters
    ----------
    K : array-like of shape (m, m), symmetric, not zero
    y : array-like of shape (m,), entries in {-1, +1}

    Returns
    -------
    C : float

    Notes
    -----
    **Cost.** :math:`O(m^2)` time, :math:`O(m)` memory beyond ``K``.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[2.0, 1.0, 0.0, 0.0], [1.0, 2.0, 0.0, 0.0],
    ...               [0.0, 0.0, 2.0, 1.0], [0.0, 0.0, 1.0, 2.0]])  # two blocks, ||K||_F = sqrt(20)
    >>> from sslteach.relaxation import cut_cost
    >>> cut_cost(K, [1, 1, -1, -1]), round(cut_cost(K, [1, -1, 1, -1]), 4)  # 0, and 4 / (4 sqrt(20))
    (0.0, 0.2236)
    """
    K = _check_kernel(K)
    y = _check_labelling(y, K.shape[0])
    return float((K.sum() - y @ K @ y) / (2 * K.shape[0] * _frobenius_norm(K)))


def flip_costs(K, y):
    r"""The exact change of :math:`y^\top K y / \lVert K\rVert_F` when each single label is flipped.

    .. math::

       \Delta_i = \frac{y^{(i)\top} K y^{(i)} - y^\top K y}{\lVert K\rVert_F}
       = \frac{-4\,y_i (Ky)_i + 4K_{ii}}{\lVert K\rVert_F},
       \qquad y^{(i)} = y - 2y_i e_i

    (Chapter 1, "The cost of one label"; the paper's :math:`2\sum_j y_jK_{ij}/\lVert K\rVert_F`
    counts each pair once and drops the diagonal). :math:`\Delta_i/m` is the change of the
    alignment. **Cost.** :math:`O(m^2)` for all m flips (one product), not :math:`O(m^3)`.

    Parameters
    ----------
    K : array-like of shape (m, m), symmetric, not zero
    y : array-like of shape (m,), entries in {-1, +1}

    Returns
    -------
    delta : ndarray of shape (m,)
        Negative where a flip lowers :math:`y^\top Ky`.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[2.0, 1.0, 0.0, 0.0], [1.0, 2.0, 0.0, 0.0],
    ...               [0.0, 0.0, 2.0, 1.0], [0.0, 0.0, 1.0, 2.0]])  # two blocks, ||K||_F = sqrt(20)
    >>> from sslteach.relaxation import flip_costs
    >>> np.round(flip_costs(K, [1, 1, -1, -1]), 4)  # y'Ky drops from 12 to 8: -4 / sqrt(20)
    array([-0.8944, -0.8944, -0.8944, -0.8944])
    """
    K = _check_kernel(K)
    y = _check_labelling(y, K.shape[0])
    return (-4 * y * (K @ y) + 4 * np.diag(K)) / _frobenius_norm(K)


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


def top_eigenvector(K):
    r""":math:`(\lambda_{\max}, v_{\max})` of ``K``: the relaxed maximiser of the alignment.

    By Courant–Fischer (eq. ``eq:relaxation``),

    .. math::

       \max_{y \in \mathbb R^m,\ \lVert y\rVert^2 = m} y^\top K y = m\,\lambda_{\max}(K),
       \qquad\text{attained at } y = \sqrt m\, v_{\max};

    :func:`threshold_sweep` turns ``v`` back into labels. **Cost.** Dense ``eigh`` up to 2000
    points, :math:`O(m^3)` time and :math:`O(m^2)` memory; above, Lanczos steps of one
    :math:`O(m^2)` product each.

    Parameters
    ----------
    K : array-like of shape (m, m), symmetric

    Returns
    -------
    lam : float
    v : ndarray of shape (m,)
        Unit length; its largest-magnitude entry positive (the first of those equal to a
        relative 1e-9). For a multiple eigenvalue, the solver's vector of the eigenspace.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
    >>> from sslteach.relaxation import top_eigenvector
    >>> lam, v = top_eigenvector(K)
    >>> round(lam, 4), bool(np.allclose(K @ v, lam * v))
    (2.6382, True)
    """
    return _top_eigenpair(_check_kernel(K))


def _top_eigenpair(K):
    lam, v = _extreme_eigenpair(K, "LA")
    return float(lam), orient_columns(v)


def _laplacian_on_complement(K):
    """L = D - K shifted so that the constant vector is no longer its smallest eigenvector."""
    d = K.sum(axis=1)
    L = -K  # new array
    L[np.diag_indices_from(L)] += d
    shift = 2 * np.abs(L).sum(axis=1).max() + 1.0  # above every eigenvalue (Gershgorin)
    L += shift / K.shape[0]  # + shift * (1/m) 11': moves the eigenvalue of 1 from 0 to shift
    return L


def fiedler_vector(K):
    r"""Smallest eigenpair of :math:`L = D - K` on :math:`\mathbf 1^\perp`: the relaxed minimal cut.

    Over balanced labellings (eq. ``eq:cut-relaxed``),

    .. math::

       \min_{y \in \mathbb R^m,\ \lVert y\rVert^2 = m,\ \mathbf 1^\top y = 0} y^\top L y
       = m\,\lambda, \qquad\text{attained at } y = \sqrt m\, v .

    As :math:`L\mathbf 1 = 0`, this is the smallest eigenpair of :math:`L + c\,\mathbf 1\mathbf 1^\top/m`
    with :math:`c` above the spectrum (for :math:`K \ge 0` on a connected graph, the Fiedler
    vector). **Cost.** One (m, m) matrix, then as :func:`top_eigenvector`.

    Parameters
    ----------
    K : array-like of shape (m, m), symmetric, m >= 2

    Returns
    -------
    lam : float
    v : ndarray of shape (m,)
        Unit length, entries summing to 0, sign fixed as in :func:`top_eigenvector`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
    >>> from sslteach.relaxation import fiedler_vector
    >>> lam, v = fiedler_vector(K)
    >>> L = np.diag(K.sum(axis=1)) - K
    >>> round(lam, 4), round(float(np.linalg.eigvalsh(L)[1]), 4)  # second smallest of L
    (0.1523, 0.1523)
    >>> bool(np.allclose(L @ v, lam * v)), bool(abs(v.sum()) < 1e-12)
    (True, True)
    """
    K = _check_kernel(K)
    if K.shape[0] < 2:
        raise ValueError(
            "The Fiedler vector needs at least 2 points: with one there is no non-zero vector "
            "orthogonal to 1 (and no cut)."
        )
    return _fiedler_eigenpair(K)


def _fiedler_eigenpair(K):
    lam, v = _extreme_eigenpair(_laplacian_on_complement(K), "SA")
    return float(lam), orient_columns(v - v.mean())


def alignment_upper_bound(K):
    r"""The bound :math:`A(S,k,y) \le \lambda_{\max}(K)/\lVert K\rVert_F` for all y (``eq:alignment-bound``).

    Relaxing to the sphere can only raise the maximum (:func:`top_eigenvector`). It needs no
    labels; the paper chooses kernel parameters by maximising it. **Cost.** As
    :func:`top_eigenvector`.

    Parameters
    ----------
    K : array-like of shape (m, m), symmetric, not zero

    Returns
    -------
    bound : float

    Examples
    --------
    >>> import itertools
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
    >>> from sslteach.relaxation import alignment, alignment_upper_bound
    >>> best = max(alignment(K, y) for y in itertools.product([-1, 1], repeat=6))
    >>> round(float(alignment_upper_bound(K)), 4), round(best, 4)  # the bound; the best of 64
    (0.7199, 0.7162)
    """
    K = _check_kernel(K)
    return _top_eigenpair(K)[0] / _frobenius_norm(K)


def cut_cost_lower_bound(K):
    r"""The bound :math:`C(S,k,y) \ge \lambda_2/(2\lVert K\rVert_F)` for balanced y, eq. ``eq:cut-bound``.

    .. math::

       C(S,k,y) = \frac{y^\top L y}{2m\lVert K\rVert_F} \;\ge\; \frac{\lambda_2}{2\lVert K\rVert_F}
       \qquad\text{if } \textstyle\sum_i y_i = 0,

    with :math:`\lambda_2` from :func:`fiedler_vector`. For odd m no labelling is balanced.
    **Cost.** As :func:`fiedler_vector`.

    Parameters
    ----------
    K : array-like of shape (m, m), symmetric, not zero

    Returns
    -------
    bound : float

    Examples
    --------
    >>> import itertools
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
    >>> from sslteach.relaxation import cut_cost, cut_cost_lower_bound
    >>> balanced = [y for y in itertools.product([-1, 1], repeat=6) if sum(y) == 0]
    >>> round(float(cut_cost_lower_bound(K)), 5), round(min(cut_cost(K, y) for y in balanced), 5)
    (0.02078, 0.02222)
    """
    K = _check_kernel(K)
    if K.shape[0] < 2:
        raise ValueError("The cut cost bound needs at least 2 points (a cut).")
    return _fiedler_eigenpair(K)[0] / (2 * _frobenius_norm(K))


def threshold_sweep(K, v, criterion="alignment", K_eval=None):
    r"""Score every threshold of a relaxed labelling ``v`` and return the best labelling.

    With :math:`\pi` the points by decreasing :math:`v` and :math:`i = 1, \dots, m-1`,

    .. math::

       y^{(i)}_{\pi_s} = \begin{cases} +1 & s \le i,\\ -1 & s > i,\end{cases}
       \qquad
       \hat\imath = \arg\max_i A(S, k_{\mathrm{eval}}, y^{(i)})
       \ \text{ or }\ \arg\min_i C(S, k_{\mathrm{eval}}, y^{(i)}).

    Consecutive thresholds differ in one label, so each score follows from the last by the
    :math:`O(m)` update of eq. ``eq:sweep-update`` (derived in Chapter 1). Round-off never
    decides: entries of ``v`` within a relative 1e-9 keep their index order, and the first
    score within 1e-9 of the best wins (``sslteach._decisions``).

    Parameters
    ----------
    K : array-like of shape (m, m)
        The evaluation matrix when ``K_eval`` is None (then symmetric); else only its shape is used.
    v : array-like of shape (m,)
        The relaxed labelling, e.g. from :func:`top_eigenvector` or :func:`fiedler_vector`.
    criterion : {"alignment", "cut"}, default "alignment"
    K_eval : array-like of shape (m, m), optional
        Symmetric; e.g. :math:`K_P = K + C_0 zz^\top` for the transductive variant.

    Returns
    -------
    sweep : sklearn.utils.Bunch
        ``scores`` (m - 1,): threshold i's score at index i - 1; ``thresholds``: 1, ..., m - 1;
        ``best``: the chosen threshold; ``y``: its labelling (+1.0 / -1.0, original order);
        ``order``: the indices sorting ``v`` decreasingly.

    Notes
    -----
    **Cost.** Time :math:`O(m^2)` (one pass over the rows), memory :math:`O(m)` beyond the
    matrix, not the :math:`O(m^3)` of recomputing :math:`y^\top Ky` per threshold.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
    >>> from sslteach.relaxation import alignment, threshold_sweep
    >>> res = threshold_sweep(K, np.array([0.9, 0.8, 0.5, -0.6, -0.7, -0.75]))
    >>> np.round(res.scores, 4)
    array([0.4354, 0.4435, 0.6717, 0.4447, 0.4631])
    >>> res.best, res.y
    (3, array([ 1.,  1.,  1., -1., -1., -1.]))
    >>> bool(np.isclose(res.scores[res.best - 1], alignment(K, res.y)))
    True
    """
    if criterion not in ("alignment", "cut"):
        raise ValueError(f"criterion must be 'alignment' or 'cut'; got {criterion!r}.")
    Ke = _check_kernel(K) if K_eval is None else check_square(K_eval, name="K_eval", symmetric=True)
    m = Ke.shape[0]
    if K_eval is not None:
        K0 = check_square(K, name="K")
        if K0.shape != Ke.shape:
            raise ValueError(
                f"K_eval has shape {Ke.shape} but K has {K0.shape}; both are over the same points."
            )
    v = check_vector(np.ravel(v) if np.ndim(v) == 2 and 1 in np.shape(v) else v, "v")
    if v.shape[0] != m:
        raise ValueError(f"v has {v.shape[0]} entries but K is {m} x {m}; pass one value per point.")
    if m < 2:
        raise ValueError("A threshold sweep needs at least 2 points.")
    return _sweep_thresholds(Ke, v, criterion, "K" if K_eval is None else "K_eval")


def _sweep_thresholds(Ke, v, criterion, name="K"):
    m = Ke.shape[0]
    order = stable_order(v)  # entries equal to round-off keep their index order
    rowsum = Ke.sum(axis=1)
    total = rowsum.sum()
    # The update of eq. (sweep-update) of Chapter 1: c[t] = sum_{s<t} K[p_t, p_s] comes from
    # one running sum of the rows already moved, O(m) per threshold.
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
        raise ValueError(f"{name} is the zero matrix; the criteria are undefined.")
    scores = quad / denom if criterion == "alignment" else (total - quad) / (2 * denom)
    best = first_best(scores, maximize=criterion == "alignment") + 1
    y = -np.ones(m)
    y[order[:best]] = 1.0
    return Bunch(scores=scores, thresholds=np.arange(1, m), best=best, y=y, order=order)


class SpectralAlignmentClustering(ClusterMixin, BaseEstimator):
    r"""Two-way clustering by a relaxed alignment or cut cost (the pipeline of the module).

    Kernel → normalisation :math:`K_{ij}/\sqrt{K_{ii}K_{jj}}` → centering :math:`JKJ` (the
    paper's order) → relaxed labelling :math:`v` (:func:`top_eigenvector` of K for
    ``"alignment"``, :func:`fiedler_vector` of :math:`L = D - K` for ``"cut"``) → the best
    threshold :math:`\hat\imath` of :func:`threshold_sweep` among those with at least
    ``min_cluster_size`` points on each side. With labels (``y``, -1 for unlabelled, two
    classes) the thresholds are scored on :math:`K_P = K + C_0zz^\top`, :math:`z` the known
    labels as ±1 and 0 elsewhere; :math:`v` still comes from K.

    Parameters
    ----------
    kernel : {"linear", "rbf", "precomputed"}, default "linear"
        ``"precomputed"``: ``X`` is the symmetric (m, m) kernel matrix.
    sigma : float, default 1.0
        Gaussian width :math:`\sigma` of ``exp(-||x - x'||^2 / (2 sigma^2))`` (``"rbf"``), as in
        :func:`sslteach.kernels.rbf_kernel`.
    normalize, center : bool, default True
        The two preprocessing steps.
    criterion : {"alignment", "cut"}, default "alignment"
    C0 : float, default 1.0
        Weight of the labels in :math:`K_P`.
    min_cluster_size : int, default 1
        At most m // 2; 1 is the paper's full sweep.

    Attributes
    ----------
    labels_, transduction_ : ndarray of shape (m,)
        0/1 codes (1: the largest entries of ``v``); with ``y``, its two classes, the sides
        oriented to agree with most known labels.
    classes_ : ndarray of shape (2,)
        The classes of ``y`` (only when ``y`` is given).
    kernel_matrix_ : ndarray of shape (m, m)
        The preprocessed K.
    eigenvalue_, eigenvector_ : float, ndarray of shape (m,)
        The relaxed solution.
    sweep_ : sklearn.utils.Bunch
        :func:`threshold_sweep` over all thresholds (its ``best`` ignores ``min_cluster_size``).
    threshold_ : int
        :math:`\hat\imath`, the number of points on the +1 side.
    bound_ : float
        :math:`\lambda_{\max}/\lVert K\rVert_F` (alignment), :math:`\lambda/(2\lVert K\rVert_F)` (cut).
    n_features_in_ : int

    Notes
    -----
    **Cost.** The kernel :math:`O(m^2 d)`, the eigenvector :math:`O(m^3)` (Lanczos above 2000
    points), the sweep :math:`O(m^2)`; memory a few (m, m) arrays.

    scikit-learn's estimator checks (``tests/test_estimator_checks.py``) pass but
    ``check_estimators_dtypes``: its integer data has an all-zero row, for which the default
    ``normalize=True`` is undefined (refused with a ValueError that says so).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.relaxation import SpectralAlignmentClustering
    >>> X = np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]])
    >>> est = SpectralAlignmentClustering(kernel="rbf", sigma=1.0).fit(X)
    >>> est.labels_ == est.labels_[0], est.threshold_, round(float(est.bound_), 4)
    (array([ True,  True,  True, False, False, False]), 3, 0.9708)
    >>> est.fit(X, np.array([5, -1, -1, -1, -1, 7])).labels_  # one labelled point per class
    array([5, 5, 5, 7, 7, 7])
    >>> SpectralAlignmentClustering(kernel="rbf", min_cluster_size=4).fit(X)
    Traceback (most recent call last):
        ...
    ValueError: min_cluster_size must be in [1, m // 2 = 3]; got 4.
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
        before = float(np.abs(K).max())
        if self.center:
            K = center_kernel(K)
        scale = float(np.abs(K).max())
        if scale == 0 or (self.center and scale <= 1e-12 * before):
            one = (
                " With 1 feature(s), the normalised linear kernel maps every point to +1 or -1."
                if self.kernel == "linear" and self.normalize and X.shape[1] == 1
                else ""
            )
            raise ValueError(
                "The preprocessed kernel matrix is zero (to round-off): every point is the same "
                "point in feature space, so there is nothing to cluster." + one + " Check X for "
                "constant rows, or use normalize=False / center=False if they removed all structure."
            )
        return K

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Cluster ``X`` (the kernel matrix when ``kernel="precomputed"``); see the class.

        Parameters
        ----------
        X : array-like of shape (m, d), or (m, m) when ``kernel="precomputed"``
        y : array-like of shape (m,), optional
            -1 for unlabelled points, two numeric classes otherwise (the transductive variant).

        Returns
        -------
        self : SpectralAlignmentClustering
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
            lam, v = _top_eigenpair(K)
            self.bound_ = lam / np.linalg.norm(K)
        else:
            lam, v = _fiedler_eigenpair(K)
            self.bound_ = lam / (2 * np.linalg.norm(K))
        K_eval = None
        if z is not None:
            K_eval = K + float(self.C0) * np.outer(z, z)
        sweep = _sweep_thresholds(K if K_eval is None else K_eval, v, self.criterion)
        mcs = self.min_cluster_size
        if isinstance(mcs, bool) or not 1 <= mcs <= m // 2:
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
