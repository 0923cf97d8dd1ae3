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

    .. math::

       A(S, k, y) = \frac{\langle K, yy^\top\rangle_F}{\lVert K\rVert_F\,\lVert yy^\top\rVert_F}
       = \frac{y^\top K y}{m\,\lVert K\rVert_F},

    the alignment of Cristianini, Shawe-Taylor & Kandola (2001) (eq. ``eq:alignment`` of
    Chapter 1): the Frobenius cosine between :math:`K` and :math:`yy^\top` (whose norm
    is :math:`m`).

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Symmetric kernel matrix; finite and not the zero matrix.
    y : array-like of shape (m,)
        A labelling: one label in {-1, +1} per row of ``K``.

    Returns
    -------
    A : float
        The alignment :math:`A(S, k, y)`.

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square 2-D numeric matrix or is the zero
        matrix, or if ``y`` does not hold one label in {-1, +1} per row of ``K``.

    Notes
    -----
    Cost :math:`O(m^2)` time (one matrix-vector product and the Frobenius norm); memory
    :math:`O(m)` beyond ``K`` (plus a float64 copy of ``K`` when it has another dtype).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.relaxation import alignment
    >>> K = np.array([[2.0, 1.0, 0.0, 0.0],
    ...               [1.0, 2.0, 0.0, 0.0],
    ...               [0.0, 0.0, 2.0, 1.0],
    ...               [0.0, 0.0, 1.0, 2.0]])  # two blocks; ||K||_F = sqrt(20)
    >>> round(alignment(K, [1, 1, -1, -1]), 4)  # 12 / (4 sqrt(20))
    0.6708
    >>> round(alignment(K, [1, -1, 1, -1]), 4)  # 4 / (4 sqrt(20))
    0.2236
    """
    K = _kernel(K)
    y = _labels(y, K.shape[0])
    return float(y @ K @ y / (K.shape[0] * _fro(K)))


def total_alignment(K):
    r"""Total alignment :math:`T(S,k)`: the alignment of the labelling that puts every point in one class.

    .. math::

       T(S,k) = A(S,k,\mathbf 1) = \frac{\mathbf 1^\top K\mathbf 1}{m\lVert K\rVert_F}
       = \frac{\sum_{i,j} K_{ij}}{m\lVert K\rVert_F} .

    It does not depend on a labelling, and it ties the alignment (:func:`alignment`) to the
    cut cost (:func:`cut_cost`): :math:`A(S,k,y) = T(S,k) - 2\,C(S,k,y)` for every
    :math:`y` (eq. ``eq:cut-alignment`` of Chapter 1, after Cristianini, Shawe-Taylor &
    Kandola, 2001), so maximising the one and minimising the other pick the same labelling.

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Symmetric kernel matrix; finite and not the zero matrix.

    Returns
    -------
    T : float
        The total alignment :math:`T(S, k)`.

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square 2-D numeric matrix or is the zero
        matrix.

    Notes
    -----
    Cost :math:`O(m^2)` time (a sum and the Frobenius norm); no extra memory beyond a
    float64 copy of ``K`` when it has another dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.relaxation import alignment, cut_cost, total_alignment
    >>> K = np.array([[2.0, 1.0, 0.0, 0.0],
    ...               [1.0, 2.0, 0.0, 0.0],
    ...               [0.0, 0.0, 2.0, 1.0],
    ...               [0.0, 0.0, 1.0, 2.0]])
    >>> round(total_alignment(K), 4)  # 12 / (4 sqrt(20))
    0.6708
    >>> y = [1, -1, 1, -1]
    >>> bool(np.isclose(alignment(K, y), total_alignment(K) - 2 * cut_cost(K, y)))
    True
    """
    K = _kernel(K)
    return float(K.sum() / (K.shape[0] * _fro(K)))


def cut_cost(K, y):
    r"""Cut cost :math:`\sum_{i,j:\,y_i\ne y_j} K_{ij} / (m\lVert K\rVert_F)` (ordered pairs).

    .. math::

       C(S, k, y) = \frac{\sum_{i,j:\,y_i\ne y_j} K_{ij}}{m\,\lVert K\rVert_F}
       = \frac{T - A}{2} = \frac{y^\top L y}{2m\lVert K\rVert_F},
       \qquad L = D - K,\quad D = \operatorname{diag}(K\mathbf 1),

    the cut cost of Cristianini, Shawe-Taylor & Kandola (2001) (eqs. ``eq:cut-cost``,
    ``eq:cut-alignment`` and ``eq:cut-laplacian`` of Chapter 1), with :math:`T` the
    total alignment (:func:`total_alignment`) and :math:`A` the alignment
    (:func:`alignment`). The sum runs over ordered pairs, so each pair of points in
    different classes counts twice.

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Symmetric kernel matrix; finite and not the zero matrix.
    y : array-like of shape (m,)
        A labelling: one label in {-1, +1} per row of ``K``.

    Returns
    -------
    C : float
        The cut cost :math:`C(S, k, y)`.

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square 2-D numeric matrix or is the zero
        matrix, or if ``y`` does not hold one label in {-1, +1} per row of ``K``.

    Notes
    -----
    Cost :math:`O(m^2)` time (one matrix-vector product, a sum and the Frobenius norm);
    memory :math:`O(m)` beyond ``K`` (plus a float64 copy of ``K`` when it has another
    dtype).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.relaxation import cut_cost
    >>> K = np.array([[2.0, 1.0, 0.0, 0.0],
    ...               [1.0, 2.0, 0.0, 0.0],
    ...               [0.0, 0.0, 2.0, 1.0],
    ...               [0.0, 0.0, 1.0, 2.0]])
    >>> cut_cost(K, [1, 1, -1, -1])  # nothing between the blocks is cut
    0.0
    >>> round(cut_cost(K, [1, -1, 1, -1]), 4)  # K_01 + K_10 + K_23 + K_32 = 4, over 4 sqrt(20)
    0.2236
    """
    K = _kernel(K)
    y = _labels(y, K.shape[0])
    return float((K.sum() - y @ K @ y) / (2 * K.shape[0] * _fro(K)))


def flip_costs(K, y):
    r"""Change in :math:`y^\top K y / \lVert K\rVert_F` when each single label is flipped.

    .. math::

       \Delta_i = \frac{y^{(i)\top} K y^{(i)} - y^\top K y}{\lVert K\rVert_F}
       = \frac{-4\,y_i (Ky)_i + 4K_{ii}}{\lVert K\rVert_F},
       \qquad y^{(i)} = y - 2y_i e_i .

    Flipping :math:`y_i` changes :math:`y^\top K y` by :math:`-4 y_i (Ky)_i + 4K_{ii}`
    (each pair :math:`(i, j)` appears twice in the double sum). The paper's cost,
    :math:`2\sum_j y_j K_{ij}/\lVert K\rVert_F`, counts each pair once and drops the
    diagonal. Returned: the exact change, a vector of length m, in :math:`O(m^2)`.
    (The paper is Cristianini, Shawe-Taylor & Kandola, 2001; the book derives the exact
    change in Chapter 1, "The cost of one label".) Dividing
    :math:`\Delta_i` by :math:`m` gives the change of the alignment (:func:`alignment`).

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Symmetric kernel matrix; finite and not the zero matrix.
    y : array-like of shape (m,)
        A labelling: one label in {-1, +1} per row of ``K``.

    Returns
    -------
    delta : ndarray of shape (m,)
        ``delta[i]`` is :math:`\Delta_i`, the exact change when only :math:`y_i` is
        flipped. Negative entries are labels whose flip lowers :math:`y^\top K y`.

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square 2-D numeric matrix or is the zero
        matrix, or if ``y`` does not hold one label in {-1, +1} per row of ``K``.

    Notes
    -----
    Cost :math:`O(m^2)` time (one matrix-vector product for all m flips, instead of
    :math:`O(m^3)` for m recomputations); memory :math:`O(m)` beyond ``K``.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.relaxation import flip_costs
    >>> K = np.array([[2.0, 1.0, 0.0, 0.0],
    ...               [1.0, 2.0, 0.0, 0.0],
    ...               [0.0, 0.0, 2.0, 1.0],
    ...               [0.0, 0.0, 1.0, 2.0]])
    >>> np.round(flip_costs(K, [1, 1, -1, -1]), 4)  # y'Ky drops from 12 to 8: -4 / sqrt(20)
    array([-0.8944, -0.8944, -0.8944, -0.8944])
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

    The relaxed maximiser of the alignment: by the Courant–Fischer theorem,

    .. math::

       \max_{y \in \mathbb R^m,\ \lVert y\rVert^2 = m} y^\top K y = m\,\lambda_{\max}(K),
       \qquad\text{attained at } y = \sqrt m\, v_{\max},

    the relaxation (eq. ``eq:relaxation`` of Chapter 1) of the alignment of Cristianini,
    Shawe-Taylor & Kandola (2001) from :math:`\{-1,+1\}^m` to the sphere. Thresholding
    ``v`` (:func:`threshold_sweep`) gives a labelling back.

    Dense ``eigh`` for m <= :data:`DENSE_EIGEN_LIMIT` (2000), else ``scipy.sparse.linalg.eigsh``
    (Lanczos, a few matrix-vector products).

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Symmetric matrix (a kernel matrix); finite.

    Returns
    -------
    lam : float
        The largest eigenvalue :math:`\lambda_{\max}(K)`.
    v : ndarray of shape (m,)
        A unit eigenvector for ``lam``. Its sign, which the eigensolver leaves arbitrary,
        is fixed: the largest-magnitude entry is positive (the first of those equal to a
        relative 1e-9, so the sign does not depend on round-off).

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square 2-D numeric matrix.

    Notes
    -----
    Cost: dense, :math:`O(m^3)` time and :math:`O(m^2)` memory (all eigenpairs); above
    the limit, each Lanczos step is one :math:`O(m^2)` matrix-vector product, with
    :math:`O(m)` memory per Lanczos vector.

    When :math:`\lambda_{\max}` is a multiple eigenvalue, ``v`` is one vector of its
    eigenspace, the one the solver returns (it may differ between LAPACK builds).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> from sslteach.relaxation import top_eigenvector
    >>> X = np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]])
    >>> K = rbf_kernel(X, sigma=1.0)
    >>> lam, v = top_eigenvector(K)
    >>> round(lam, 4), round(float(np.linalg.norm(v)), 6)
    (2.6382, 1.0)
    >>> bool(np.allclose(K @ v, lam * v))
    True
    >>> np.round(np.abs(v), 3)
    array([0.463, 0.508, 0.468, 0.332, 0.341, 0.287])
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

    The relaxed minimiser of the cut cost over balanced labellings:

    .. math::

       \min_{y \in \mathbb R^m,\ \lVert y\rVert^2 = m,\ \mathbf 1^\top y = 0} y^\top L y
       = m\,\lambda, \qquad L = D - K,\quad D = \operatorname{diag}(K\mathbf 1),

    the relaxation (eq. ``eq:cut-relaxed`` of Chapter 1) of the cut cost of Cristianini,
    Shawe-Taylor & Kandola (2001), attained at :math:`y = \sqrt m\, v`.
    :math:`L\mathbf 1 = 0` always, so minimising :math:`y^\top L y` over
    :math:`\lVert y\rVert^2 = m`, :math:`\sum_i y_i = 0` is solved by the eigenvector of
    the smallest eigenvalue of :math:`L` restricted to :math:`\mathbf 1^\perp`
    (for a kernel with non-negative entries, the smallest non-zero eigenvalue of a
    connected graph's Laplacian: the Fiedler vector). Computed as the smallest
    eigenpair of :math:`L + c\,\mathbf 1\mathbf 1^\top/m` with :math:`c` above the spectrum.

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Symmetric kernel matrix (the weights of the graph whose Laplacian is :math:`L`);
        finite.

    Returns
    -------
    lam : float
        :math:`\lambda`, the smallest eigenvalue of :math:`L` on :math:`\mathbf 1^\perp`.
    v : ndarray of shape (m,)
        Its eigenvector: unit length, entries summing to 0 (to round-off), and sign-fixed
        (the largest-magnitude entry is positive, the first of those equal to a relative
        1e-9).

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square 2-D numeric matrix.

    Notes
    -----
    Cost: one (m, m) matrix for the shifted Laplacian, then as :func:`top_eigenvector`:
    dense (m <= 2000), :math:`O(m^3)` time and :math:`O(m^2)` memory; above, Lanczos
    steps of one :math:`O(m^2)` matrix-vector product each.

    When :math:`\lambda` is a multiple eigenvalue, ``v`` is one vector of its eigenspace,
    the one the solver returns.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> from sslteach.relaxation import fiedler_vector
    >>> X = np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]])
    >>> K = rbf_kernel(X, sigma=1.0)
    >>> lam, v = fiedler_vector(K)
    >>> L = np.diag(K.sum(axis=1)) - K
    >>> round(lam, 4), round(float(np.linalg.eigvalsh(L)[1]), 4)  # second smallest of L
    (0.1523, 0.1523)
    >>> bool(np.allclose(L @ v, lam * v)), bool(abs(v.sum()) < 1e-12)
    (True, True)
    >>> bool(np.all(v[:3] * v[0] > 0) and np.all(v[3:] * v[0] < 0))  # splits {0, 1, 2} | {3, 4, 5}
    True
    """
    K = _kernel(K)
    if K.shape[0] < 2:
        raise ValueError(
            "The Fiedler vector needs at least 2 points: with one there is no non-zero vector "
            "orthogonal to 1 (and no cut)."
        )
    lam, v = _extreme_eigenpair(_laplacian_on_complement(K), "SA")
    return float(lam), _orient(v - v.mean())


def alignment_upper_bound(K):
    r"""Courant–Fischer bound :math:`\lambda_{\max}(K)/\lVert K\rVert_F \ge A(S,k,y)` for all ``y``.

    .. math::

       A(S,k,y) \;\le\; \max_{y'\in\{-1,+1\}^m} A(S,k,y') \;\le\;
       \frac{\lambda_{\max}(K)}{\lVert K\rVert_F}
       \qquad\text{for every } y\in\{-1,+1\}^m,

    eq. ``eq:alignment-bound`` of Chapter 1, after Cristianini, Shawe-Taylor & Kandola
    (2001): relaxing the labelling to the sphere :math:`\lVert y\rVert^2 = m` can only
    raise the maximum, which is then :math:`m\lambda_{\max}(K)`
    (:func:`top_eigenvector`). It needs no labels; the paper proposes choosing kernel
    parameters by maximising it.

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Symmetric kernel matrix; finite and not the zero matrix.

    Returns
    -------
    bound : float
        :math:`\lambda_{\max}(K)/\lVert K\rVert_F`.

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square 2-D numeric matrix or is the zero
        matrix.

    Notes
    -----
    Cost that of :func:`top_eigenvector`: :math:`O(m^3)` time and :math:`O(m^2)` memory
    for m <= 2000, Lanczos above.

    Examples
    --------
    >>> import itertools
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> from sslteach.relaxation import alignment, alignment_upper_bound
    >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
    >>> bound = alignment_upper_bound(K)
    >>> best = max(alignment(K, y) for y in itertools.product([-1, 1], repeat=6))
    >>> round(float(bound), 4), round(best, 4)  # the bound, and the best of all 64 labellings
    (0.7199, 0.7162)
    """
    K = _kernel(K)
    return top_eigenvector(K)[0] / _fro(K)


def cut_cost_lower_bound(K):
    r"""Bound :math:`\lambda_2/(2\lVert K\rVert_F) \le C(S,k,y)` for every balanced ``y``.

    .. math::

       C(S,k,y) = \frac{y^\top L y}{2m\lVert K\rVert_F} \;\ge\; \frac{\lambda_2}{2\lVert K\rVert_F}
       \qquad\text{for every } y\in\{-1,+1\}^m \text{ with } \textstyle\sum_i y_i = 0,

    eq. ``eq:cut-bound`` of Chapter 1, after Cristianini, Shawe-Taylor & Kandola (2001).

    Balanced means :math:`\sum_i y_i = 0`.

    :math:`\lambda_2` is the smallest eigenvalue of :math:`L = D - K` on
    :math:`\mathbf 1^\perp` (see :func:`fiedler_vector`).
    For odd m no labelling is balanced, and the bound constrains nothing.

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Symmetric kernel matrix; finite and not the zero matrix.

    Returns
    -------
    bound : float
        :math:`\lambda_2/(2\lVert K\rVert_F)`.

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square 2-D numeric matrix or is the zero
        matrix.

    Notes
    -----
    Cost that of :func:`fiedler_vector`: :math:`O(m^3)` time and :math:`O(m^2)` memory
    for m <= 2000, Lanczos above.

    Examples
    --------
    >>> import itertools
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> from sslteach.relaxation import cut_cost, cut_cost_lower_bound
    >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
    >>> balanced = [y for y in itertools.product([-1, 1], repeat=6) if sum(y) == 0]
    >>> best = min(cut_cost(K, y) for y in balanced)
    >>> len(balanced), round(float(cut_cost_lower_bound(K)), 5), round(best, 5)
    (20, 0.02078, 0.02222)
    """
    K = _kernel(K)
    return fiedler_vector(K)[0] / (2 * _fro(K))


def threshold_sweep(K, v, criterion="alignment", K_eval=None):
    r"""Score every threshold of a relaxed labelling ``v`` and return the best labelling.

    With :math:`\pi` the order of the points by decreasing :math:`v` and
    :math:`i = 1, \dots, m-1`,

    .. math::

       y^{(i)}_{\pi_s} = \begin{cases} +1 & s \le i,\\ -1 & s > i,\end{cases}
       \qquad
       \hat\imath = \arg\max_i A(S, k_{\mathrm{eval}}, y^{(i)})
       \quad\text{or}\quad
       \hat\imath = \arg\min_i C(S, k_{\mathrm{eval}}, y^{(i)}),

    the discretisation of Cristianini, Shawe-Taylor & Kandola (2001), computed with the
    rank-one update of eq. ``eq:sweep-update`` of Chapter 1.

    Points are sorted by ``v`` in decreasing order; threshold ``i`` (1..m-1) labels the
    ``i`` largest entries +1 and the rest -1. Its alignment or cut cost is measured on
    ``K_eval`` (default ``K``; pass :math:`K_P = K + C_0 zz^\top` for the transductive
    variant). Round-off never decides: entries of ``v`` within 1e-9 of each other (relative
    to ``max |v|``) keep their index order, and the best threshold is the first whose score is
    within 1e-9 (relative) of the best (``sslteach._decisions``).

    Consecutive thresholds differ in one label, so each threshold's score follows from
    the previous one by an :math:`O(m)` update (derived in Chapter 1, "From the eigenvector
    back to labels"). Total cost :math:`O(m^2)` (one pass over the rows of ``K``) and
    :math:`O(m)` extra memory, not the :math:`O(m^3)` of recomputing :math:`y^\top K y`
    for every threshold. ``K_eval`` must be symmetric.

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Only used when ``K_eval`` is None (it is then the evaluation matrix, and must be
        symmetric); otherwise only checked to be square with the shape of ``K_eval``.
    v : array-like of shape (m,)
        Relaxed labelling (an eigenvector, e.g. from :func:`top_eigenvector` or
        :func:`fiedler_vector`); finite.
    criterion : {"alignment", "cut"}, default "alignment"
        Maximise the alignment or minimise the cut cost.
    K_eval : array-like of shape (m, m), optional
        The symmetric matrix on which every threshold is scored, e.g.
        :math:`K_P = K + C_0 zz^\top`; default ``K``.

    Returns
    -------
    sweep : sklearn.utils.Bunch
        The result, with the fields:

        scores : ndarray of shape (m - 1,)
            The alignment or cut cost of threshold i at index i - 1.
        thresholds : ndarray of shape (m - 1,)
            The threshold numbers 1, ..., m - 1.
        best : int
            The best threshold number (the first within 1e-9 of the best score).
        y : ndarray of shape (m,)
            Its labelling (+1.0 or -1.0 per point), in the original point order.
        order : ndarray of shape (m,)
            The indices sorting ``v`` decreasingly (entries tied to round-off in index
            order).

    Raises
    ------
    ValueError
        If ``criterion`` is not "alignment" or "cut"; if ``K`` or ``K_eval`` is not a
        finite square matrix (the evaluation matrix also symmetric), or they differ in
        shape; if ``v`` is not finite or does not have one entry per point; if
        m < 2; or if the evaluation matrix is zero.

    Notes
    -----
    Time :math:`O(m^2)` (one pass over the rows of the evaluation matrix) and memory
    :math:`O(m)` beyond it, as derived above.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> from sslteach.relaxation import alignment, threshold_sweep
    >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
    >>> v = np.array([0.9, 0.8, 0.5, -0.6, -0.7, -0.75])  # a relaxed labelling
    >>> res = threshold_sweep(K, v)
    >>> np.round(res.scores, 4)
    array([0.4354, 0.4435, 0.6717, 0.4447, 0.4631])
    >>> res.best, res.y
    (3, array([ 1.,  1.,  1., -1., -1., -1.]))
    >>> bool(np.isclose(res.scores[res.best - 1], alignment(K, res.y)))
    True
    >>> threshold_sweep(K, v, "cut").best  # the same threshold: A = T - 2C
    3
    """
    if criterion not in ("alignment", "cut"):
        raise ValueError(f"criterion must be 'alignment' or 'cut'; got {criterion!r}.")
    Ke = _kernel(K) if K_eval is None else check_square(K_eval, name="K_eval", symmetric=True)
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
        raise ValueError(
            f"{'K' if K_eval is None else 'K_eval'} is the zero matrix; the criteria are undefined."
        )
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

    With :math:`K` the preprocessed kernel, :math:`v` its relaxed labelling,
    :math:`y^{(i)}` the labelling that puts the i largest entries of :math:`v` on the +1
    side (:func:`threshold_sweep`) and :math:`\mu` = ``min_cluster_size``, the clustering
    is :math:`y^{(\hat\imath)}` with

    .. math::

       \hat\imath = \arg\max_{\mu \le i \le m - \mu} A(S, k_{\mathrm{eval}}, y^{(i)})
       \quad\text{or}\quad
       \hat\imath = \arg\min_{\mu \le i \le m - \mu} C(S, k_{\mathrm{eval}}, y^{(i)}),

       K_{\mathrm{eval}} = K \ \text{or}\ K_P = K + C_0\,zz^\top,

    the alignment and cut-cost algorithms of Cristianini, Shawe-Taylor & Kandola (2001)
    (eqs. ``eq:alignment``, ``eq:cut-cost`` and ``eq:sweep-update`` of Chapter 1).

    Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

    Parameters
    ----------
    kernel : {"linear", "rbf", "precomputed"}, default "linear"
        The kernel: :math:`x^\top x'`, the Gaussian kernel below, or ``"precomputed"``:
        ``X`` is itself the symmetric (m, m) kernel matrix.
    sigma : float, default 1.0
        Bandwidth of the Gaussian kernel :math:`\exp(-\lVert x-x'\rVert^2/(2\sigma^2))`
        (``kernel="rbf"`` only); > 0.
    normalize : bool, default True
        First preprocessing step: normalise in feature space,
        :math:`K_{ij}/\sqrt{K_{ii}K_{jj}}` (:func:`sslteach.kernels.normalize_kernel`).
    center : bool, default True
        Second step: centre in feature space, :math:`JKJ`
        (:func:`sslteach.kernels.center_kernel`). Applied in that order (the paper's
        "normalise ... then centre").
    criterion : {"alignment", "cut"}, default "alignment"
        Maximise the alignment (top eigenvector of ``K``) or minimise the cut cost
        (Fiedler vector of :math:`L = D - K`).
    C0 : float, default 1.0
        Weight of the labels in :math:`K_P` (transductive variant only); > 0.
    min_cluster_size : int, default 1
        Only thresholds with at least this many points on each side are considered
        (1 = all m-1 thresholds, the paper's sweep); at most m // 2.

    Attributes
    ----------
    labels_ : ndarray of shape (m,)
        0/1 cluster codes, 1 for the +1 side (the largest entries of the eigenvector);
        with labels given, the two classes of ``y`` (transduction), the sides oriented to
        agree with most known labels.
    transduction_ : ndarray of shape (m,)
        The same array as ``labels_``.
    classes_ : ndarray of shape (2,)
        The two classes of ``y``, sorted; set only when ``y`` is given.
    kernel_matrix_ : ndarray of shape (m, m)
        The preprocessed kernel :math:`K`.
    eigenvalue_ : float
        The eigenvalue of the relaxed solution: :math:`\lambda_{\max}(K)` for
        ``"alignment"``, the smallest eigenvalue of :math:`L` on :math:`\mathbf 1^\perp`
        for ``"cut"``.
    eigenvector_ : ndarray of shape (m,)
        The relaxed labelling :math:`v` (unit length, sign-fixed).
    sweep_ : sklearn.utils.Bunch
        The result of :func:`threshold_sweep` over all m - 1 thresholds (its ``best``
        ignores ``min_cluster_size``).
    threshold_ : int
        The chosen threshold number :math:`\hat\imath`: that many points are on the +1
        side.
    bound_ : float
        The spectral bound on ``kernel_matrix_``: :math:`\lambda_{\max}/\lVert K\rVert_F`
        (upper, on the alignment) for ``"alignment"``, :math:`\lambda/(2\lVert K\rVert_F)`
        (lower, on the cut cost of balanced labellings) for ``"cut"``.
    n_features_in_ : int
        The number of columns of ``X`` seen by :meth:`fit`.

    Notes
    -----
    Cost: the kernel :math:`O(m^2 d)` time (:math:`O(m^2)` for preprocessing), the
    eigenvector :math:`O(m^3)` (dense for m <= 2000, Lanczos above), the sweep
    :math:`O(m^2)`; memory a few (m, m) arrays.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``; ``y``, when given,
    holds two classes, so the checks pass two): all pass but ``check_estimators_dtypes``,
    whose integer data has an all-zero row: it has no direction, so the default
    ``normalize=True`` of the linear kernel is undefined there (refused with a ValueError
    that says so).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.relaxation import SpectralAlignmentClustering
    >>> X = np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]])
    >>> est = SpectralAlignmentClustering(kernel="rbf", sigma=1.0).fit(X)
    >>> est.labels_ == est.labels_[0]  # two clusters: {0, 1, 2} and {3, 4, 5}
    array([ True,  True,  True, False, False, False])
    >>> est.threshold_, round(float(est.bound_), 4)
    (3, 0.9708)

    With one labelled point per class (-1 marks the unlabelled ones):

    >>> est.fit(X, np.array([5, -1, -1, -1, -1, 7])).labels_
    array([5, 5, 5, 7, 7, 7])
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
        r"""Cluster ``X`` (or the kernel matrix ``X`` when ``kernel="precomputed"``).

        Builds and preprocesses the kernel :math:`K`, computes the relaxed labelling
        :math:`v` (:func:`top_eigenvector` or :func:`fiedler_vector`) and chooses

        .. math::

           \hat\imath = \arg\max_{\mu \le i \le m - \mu} A(S, k_{\mathrm{eval}}, y^{(i)})
           \quad\text{or}\quad
           \hat\imath = \arg\min_{\mu \le i \le m - \mu} C(S, k_{\mathrm{eval}}, y^{(i)}),

        with :math:`y^{(i)}` the thresholds of :func:`threshold_sweep`,
        :math:`\mu` = ``min_cluster_size`` and :math:`K_{\mathrm{eval}} = K`, or
        :math:`K_P = K + C_0 zz^\top` when ``y`` is given (Cristianini, Shawe-Taylor &
        Kandola, 2001). Ties to round-off go to the first threshold.

        ``y`` (optional): one entry per point, -1 for unlabelled and two class labels
        otherwise (at least one labelled point of each class).

        Derived in :doc:`/notebooks/01_spectral_clustering` (Chapter 1).

        Parameters
        ----------
        X : array-like of shape (m, d), or (m, m) when ``kernel="precomputed"``
            The points (finite, at least 2), or their symmetric kernel matrix.
        y : array-like of shape (m,), optional
            -1 for unlabelled points and two numeric class labels otherwise, at least one
            labelled point of each class: the transductive variant.

        Returns
        -------
        self : SpectralAlignmentClustering
            The fitted estimator (``labels_`` and the other attributes set).

        Raises
        ------
        ValueError
            If ``X`` is not finite and numeric with at least 2 rows (a precomputed kernel
            must also be square and symmetric); if ``normalize=True`` meets a kernel
            with a diagonal entry <= 0 (an all-zero row with the linear kernel); if ``y``
            does not have one entry per point with labelled points of exactly two
            classes; if ``min_cluster_size`` exceeds m // 2; or if a parameter is out of
            its range (scikit-learn's ``InvalidParameterError``, a ``ValueError``).

        Notes
        -----
        Cost: the kernel :math:`O(m^2 d)` time, the eigenvector :math:`O(m^3)` (dense for
        m <= 2000, Lanczos above), the sweep :math:`O(m^2)`; memory a few (m, m) arrays.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.kernels import rbf_kernel
        >>> from sslteach.relaxation import SpectralAlignmentClustering
        >>> K = rbf_kernel(np.array([[0.0], [0.4], [1.0], [3.0], [3.5], [4.1]]), sigma=1.0)
        >>> est = SpectralAlignmentClustering(kernel="precomputed", criterion="cut").fit(K)
        >>> est.kernel_matrix_.shape, est.sweep_.scores.shape, est.threshold_
        ((6, 6), (5,), 3)
        >>> SpectralAlignmentClustering(kernel="precomputed", min_cluster_size=4).fit(K)
        Traceback (most recent call last):
            ...
        ValueError: min_cluster_size must be in [1, m // 2 = 3]; got 4.
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
