r"""Kernels as similarities, and the two centerings the book uses everywhere.

The book has one Gaussian convention,

.. math:: k(x, y) = \exp\!\left(-\frac{\lVert x - y\rVert^2}{2\sigma^2}\right),

and one centering matrix :math:`J = I - \frac{1}{n}\mathbf 1 \mathbf 1^\top`.
:func:`center_kernel` and :func:`mds_kernel` apply :math:`J` on both sides without
ever forming it: :math:`J K J = K - \mathbf r \mathbf 1^\top - \mathbf 1 \mathbf c^\top
+ g\,\mathbf 1 \mathbf 1^\top` with row means :math:`\mathbf r`, column means
:math:`\mathbf c` and grand mean :math:`g`, which costs :math:`O(n^2)` time instead of
the :math:`O(n^3)` of two matrix products.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg.blas import daxpy
from sklearn.metrics.pairwise import euclidean_distances

from ._validation import check_data, check_positive, check_square

__all__ = [
    "linear_kernel",
    "rbf_kernel",
    "normalize_kernel",
    "center_kernel",
    "mds_kernel",
    "squared_distances",
]


def _pair(X, Y):
    X = check_data(X, name="X")
    if Y is None:
        return X, None
    Y = check_data(Y, name="Y")
    if Y.shape[1] != X.shape[1]:
        raise ValueError(
            f"X has {X.shape[1]} features but Y has {Y.shape[1]}; both must describe points "
            "in the same space."
        )
    return X, Y


def linear_kernel(X, Y=None):
    r"""Linear kernel :math:`K_{ij} = x_i^\top y_j`.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (p, d), optional
        Defaults to ``X``.

    Returns
    -------
    K : ndarray of shape (n, p)

    Notes
    -----
    Time :math:`O(n p d)`, memory one (n, p) array.
    """
    X, Y = _pair(X, Y)
    return X @ (X if Y is None else Y).T


def squared_distances(X, Y=None):
    r"""Squared Euclidean distances :math:`\lVert x_i - y_j\rVert^2`, exact where it matters.

    The fast route is :math:`\lVert x\rVert^2 + \lVert y\rVert^2 - 2x^\top y` through BLAS
    (scikit-learn's ``euclidean_distances``), which loses the digits a distance shares with
    the norms: a common offset of 1e8 destroys every distance, and two copies of a point
    come out 1e-16 times the squared norm apart, differently for each BLAS kernel. Hence:

    * the columns are first centred (by the mean of ``X``; distances do not change), which
      removes a common offset;
    * every entry below 1e-6 times :math:`\lVert x_i\rVert^2 + \max_j\lVert y_j\rVert^2`
      (where the shortcut may have lost more than six digits) is recomputed from the
      differences :math:`x_i - y_j`, so copies of a point are exactly 0 apart on every
      machine;
    * tiny negative round-off is clipped, and the diagonal is exactly zero when ``Y`` is
      omitted.

    Returns
    -------
    D2 : ndarray of shape (n, p)

    Notes
    -----
    Time :math:`O(npd)` (one matrix product, plus :math:`O(d)` per recomputed entry), memory
    one (n, p) array and an (n, d) copy.
    """
    X, Y = _pair(X, Y)
    mean = X.mean(axis=0)
    Xc = X - mean
    Yc = Xc if Y is None else Y - mean
    D2 = euclidean_distances(Xc, None if Y is None else Yc, squared=True)
    np.maximum(D2, 0.0, out=D2)
    x2 = np.einsum("ij,ij->i", Xc, Xc)
    y2 = x2 if Y is None else np.einsum("ij,ij->i", Yc, Yc)
    bound = 1e-6 * (x2 + y2.max())  # per row: covers 1e-6 (|x_i|^2 + |y_j|^2) for every j
    for start in range(0, D2.shape[0], 1024):  # row blocks: no n x p boolean temporary
        block = D2[start : start + 1024]
        i, j = np.nonzero(block <= bound[start : start + 1024, None])
        if i.size:
            diff = Xc[start + i] - Yc[j]
            block[i, j] = np.einsum("ij,ij->i", diff, diff)
    if Y is None:
        np.fill_diagonal(D2, 0.0)
    return D2


def rbf_kernel(X, Y=None, *, sigma):
    r"""Gaussian kernel :math:`\exp(-\lVert x_i - y_j\rVert^2 / (2\sigma^2))`.

    This is the book's single convention; scikit-learn's ``gamma`` equals
    :math:`1 / (2\sigma^2)`.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (p, d), optional
        Defaults to ``X``.
    sigma : float
        Bandwidth, > 0.

    Returns
    -------
    K : ndarray of shape (n, p), entries in (0, 1], unit diagonal when ``Y`` is None.

    Notes
    -----
    Time :math:`O(n p d)`, memory one (n, p) array (computed in place).
    """
    sigma = check_positive(sigma, "sigma")
    with np.errstate(over="ignore", under="ignore"):
        scale = np.float64(0.5) / sigma / sigma  # 1 / (2 sigma^2), checked below
    if not (np.isfinite(scale) and scale > 0):
        raise ValueError(
            f"sigma = {sigma!r} is out of range: 1 / (2 sigma^2) is {scale}; choose a bandwidth of the "
            "order of the distances in X (e.g. their median)."
        )
    K = squared_distances(X, Y)
    K *= -scale
    np.exp(K, out=K)
    return K


def normalize_kernel(K):
    r"""Normalise a kernel in feature space: :math:`K_{ij} / \sqrt{K_{ii} K_{jj}}`.

    This is the Gram matrix of the unit vectors :math:`\phi(x)/\lVert\phi(x)\rVert`
    (the cosine of the angle between feature vectors), so the result has a unit
    diagonal and stays positive semi-definite when ``K`` is.

    Parameters
    ----------
    K : array-like of shape (n, n)
        A kernel matrix with a strictly positive diagonal.

    Returns
    -------
    Kn : ndarray of shape (n, n)

    Raises
    ------
    ValueError
        If a diagonal entry is <= 0 (a point mapped to the origin of feature space has
        no direction to normalise).

    Notes
    -----
    Time :math:`O(n^2)`, memory one (n, n) array.
    """
    K = check_square(K, name="K")
    d = np.diag(K).copy()
    if np.any(d <= 0):
        bad = np.flatnonzero(d <= 0)
        raise ValueError(
            f"normalize_kernel needs a positive diagonal, but K[i, i] <= 0 for i in "
            f"{bad[:5].tolist()}{'...' if bad.size > 5 else ''}; such a point sits at the "
            "origin of feature space. Remove it (e.g. an all-zero row with a linear kernel) "
            "or add a constant to the kernel."
        )
    s = 1.0 / np.sqrt(d)
    Kn = K * s[:, None]
    Kn *= s[None, :]
    return Kn


def center_kernel(K):
    r"""Center a kernel in feature space: return :math:`J K J`.

    Here :math:`J = I - \tfrac1n \mathbf 1\mathbf 1^\top` is the centering matrix.

    :math:`(JKJ)_{ij} = K_{ij} - \bar K_{i\cdot} - \bar K_{\cdot j} + \bar K_{\cdot\cdot}`,
    i.e. the Gram matrix of the feature vectors after their mean is subtracted
    (eq. ``eq:center`` of the foundations chapter; the preprocessing formula of
    Cristianini, Shawe-Taylor & Kandola (2001)).

    Parameters
    ----------
    K : array-like of shape (n, n)
        Any square matrix (symmetry is not required; :math:`J` is applied on both sides).

    Returns
    -------
    Kc : ndarray of shape (n, n)

    Notes
    -----
    Time :math:`O(n^2)`: two matrix-vector products for the means, then two passes
    that write the result; memory: one new (n, n) array, never :math:`J`.
    """
    return _double_center(check_square(K, name="K", finite=False), 1.0, "K")


def _double_center(A, scale, name):
    r"""``scale * J A J`` in two passes over one new array, never forming :math:`J`.

    With row means :math:`r`, column means :math:`c` and grand mean :math:`g`,
    :math:`(JAJ)_{ij} = A_{ij} - r_i - (c_j - g)`. The means are two BLAS
    matrix-vector products; ``np.add.outer`` writes the scaled correction into the
    result and BLAS ``daxpy`` adds ``scale * A`` to it in place. NaN or inf in ``A``
    shows in the row means, which saves a separate finiteness pass.
    """
    n = A.shape[0]
    if n == 0:
        return np.zeros_like(A)
    A = np.ascontiguousarray(A)
    w = np.full(n, 1.0 / n)
    row = A @ w
    if not np.isfinite(row).all():
        check_square(A, name=name)  # raises the NaN/inf message
        raise ValueError(f"{name} has entries so large that their means overflow; rescale it.")
    col = w @ A
    grand = row.mean()
    out = np.add.outer(-scale * row, -scale * (col - grand))
    daxpy(A.ravel(), out.ravel(), a=scale)  # out += scale * A, in place
    return out


def mds_kernel(M):
    r"""Classical MDS: the kernel :math:`-\tfrac12 J M J` of a squared-distance matrix.

    If :math:`M_{ij} = \lVert x_i - x_j\rVert^2` then :math:`-\tfrac12 JMJ` is the Gram
    matrix of the centred points (eq. ``eq:mds`` of the foundations chapter); Bodó &
    Csató (2010), Algorithm 1, step 3, apply it to cophenetic distances.

    Parameters
    ----------
    M : array-like of shape (n, n)
        Symmetric, non-negative, zero diagonal (a matrix of squared distances).

    Returns
    -------
    K : ndarray of shape (n, n)
        Positive semi-definite exactly when ``M`` is a Euclidean squared-distance matrix
        (Schoenberg's theorem).

    Raises
    ------
    ValueError
        If ``M`` is not square, not finite, has negative entries or a non-zero diagonal.

    Notes
    -----
    Time :math:`O(n^2)`, memory one (n, n) array (the centering of
    :func:`center_kernel` with the factor -1/2 folded into its update pass).
    """
    M = check_square(M, name="M", finite=False)
    if M.size and not M.min() >= 0:  # also catches NaN
        check_square(M, name="M")
        raise ValueError(
            "M must hold (squared) distances, which are >= 0, but it has negative entries; "
            "pass squared distances, not a kernel or similarity matrix."
        )
    if M.size and np.abs(np.diag(M)).max() > 0:
        raise ValueError(
            "M must have a zero diagonal (the distance of a point to itself); "
            "set np.fill_diagonal(M, 0) if the non-zero values are round-off."
        )
    return _double_center(M, -0.5, "M")
