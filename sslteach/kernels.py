r"""Kernels as similarities, and the two centerings the book uses everywhere (Chapter 0).

One centering matrix, :math:`J = I - \frac1n\mathbf 1\mathbf 1^\top`, never formed:
:func:`center_kernel` and :func:`mds_kernel` compute
:math:`JKJ = K - \mathbf r\mathbf 1^\top - \mathbf 1\mathbf c^\top + g\,\mathbf 1\mathbf 1^\top`
from the row means :math:`\mathbf r`, column means :math:`\mathbf c` and grand mean
:math:`g` in :math:`O(n^2)` instead of :math:`O(n^3)`. Derived in
:doc:`/notebooks/00_foundations`; the ``eq:...`` labels are that chapter's. Inputs are
finite numeric 2-D arrays; bad input raises a ValueError that says what to do.

**Bandwidths.** One name per convention, everywhere in ``sslteach``:

* ``sigma``: the book's width :math:`\sigma` of :math:`\exp(-\lVert x - z\rVert^2/(2\sigma^2))`,
  in the units of X (:func:`rbf_kernel`, ``SpectralAlignmentClustering``,
  ``cluster_kernels.rck_gaussian``);
* ``sigma2``: Alzate & Suykens' own :math:`\sigma^2` of :math:`\exp(-\lVert x - z\rVert^2/\sigma^2)`,
  i.e. the book's :math:`2\sigma^2` (``ksc``);
* ``s``: a multiplier of the median squared distance :math:`\bar m`, the book's
  :math:`\sigma^2 = s\,\bar m` (Chapter 5's protocol);
* scikit-learn's ``gamma`` is :math:`1/(2\sigma^2)` (in ``ksc``, ``gamma`` is the paper's
  regularisation constant, not a bandwidth).

References
----------
Cristianini, N., Shawe-Taylor, J. & Kandola, J. (2001). Spectral kernel methods for
clustering. *NIPS 14*, 649–655 (normalise, then centre).

Gower, J. C. (1966). Some distance properties of latent root and vector methods used in
multivariate analysis. *Biometrika* 53, 325–338 (classical MDS).
"""

from __future__ import annotations

import numpy as np
from scipy.linalg.blas import daxpy
from sklearn.metrics.pairwise import euclidean_distances

from ._validation import check_data, check_magnitude, check_positive, check_square

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
    r"""Linear kernel :math:`K_{ij} = x_i^\top y_j`, eq. ``eq:linear-kernel`` (feature map the identity).

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (p, d), optional
        Defaults to ``X`` (the Gram matrix, symmetric PSD).

    Returns
    -------
    K : ndarray of shape (n, p)

    Notes
    -----
    **Cost.** One matrix product, time :math:`O(npd)`, memory one (n, p) array.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import linear_kernel
    >>> linear_kernel(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]]))
    array([[1., 1., 0.],
           [1., 2., 2.],
           [0., 2., 4.]])
    """
    X, Y = _pair(X, Y)
    return X @ (X if Y is None else Y).T


def squared_distances(X, Y=None):
    r"""Squared Euclidean distances :math:`D_{ij} = \lVert x_i - y_j\rVert^2`, exact where it matters.

    .. math::

        D_{ij} = \lVert x_i\rVert^2 + \lVert y_j\rVert^2 - 2\,x_i^\top y_j

    (eq. ``eq:sqdist``) through BLAS (scikit-learn's ``euclidean_distances``), which loses
    the digits a distance shares with the norms. Hence the columns are first centred (a
    common offset then costs nothing), every entry below 1e-6 times
    :math:`\lVert x_i\rVert^2 + \max_j\lVert y_j\rVert^2` is recomputed from the differences
    (copies of a point are exactly 0 apart on every machine), negative round-off is clipped,
    and the diagonal is exactly 0 when ``Y`` is omitted.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (p, d), optional
        Defaults to ``X``.

    Returns
    -------
    D2 : ndarray of shape (n, p), >= 0

    Notes
    -----
    **Cost.** Time :math:`O(npd)` plus :math:`O(d)` per recomputed entry (few unless points
    nearly coincide); memory one (n, p) array and centred copies of the inputs (the
    recomputation runs over blocks of 1024 rows: no (n, p) boolean temporary).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import squared_distances
    >>> X = np.array([[0.0, 0.0], [3.0, 4.0]])
    >>> squared_distances(X)
    array([[ 0., 25.],
           [25.,  0.]])
    >>> bool(np.array_equal(squared_distances(X + 1e8), squared_distances(X)))  # offset: no effect
    True
    >>> P = np.array([[0.1, 0.7], [0.3, 0.2]])
    >>> np.diag(squared_distances(P, P.copy())).tolist()  # copies of a point: exactly 0
    [0.0, 0.0]
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
    r"""Gaussian kernel :math:`K_{ij} = \exp(-\lVert x_i - y_j\rVert^2/(2\sigma^2))`, eq. ``eq:rbf``.

    The book's single convention (see the module's table of bandwidths): scikit-learn's
    ``gamma`` is :math:`1/(2\sigma^2)`, Alzate & Suykens' :math:`\sigma^2` is :math:`2\sigma^2`.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (p, d), optional
        Defaults to ``X``.
    sigma : float
        The width :math:`\sigma > 0`, keyword-only, in the units of ``X`` (of the order of
        its distances, e.g. their median).

    Returns
    -------
    K : ndarray of shape (n, p)
        Entries in [0, 1]; without ``Y``, symmetric PSD with a unit diagonal.

    Notes
    -----
    **Cost.** That of :func:`squared_distances`; the exponential, in place, adds :math:`O(np)`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics.pairwise import rbf_kernel as sklearn_rbf
    >>> from sslteach.kernels import rbf_kernel
    >>> X = np.array([[0.0, 0.0], [3.0, 4.0]])
    >>> np.round(rbf_kernel(X, sigma=5.0), 4)  # exp(-25 / 50)
    array([[1.    , 0.6065],
           [0.6065, 1.    ]])
    >>> bool(np.allclose(rbf_kernel(X, sigma=5.0), sklearn_rbf(X, gamma=1 / (2 * 5.0**2))))
    True
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
    r"""Normalise in feature space: :math:`\tilde K_{ij} = K_{ij}/\sqrt{K_{ii}K_{jj}}`, eq. ``eq:normalize``.

    The Gram matrix of the unit vectors :math:`\phi(x)/\lVert\phi(x)\rVert`: unit diagonal,
    PSD when ``K`` is, the cosine similarity for the linear kernel. The first step of
    Cristianini et al.'s preprocessing ("normalise ..., then centre"); Chapter 3 applies it to
    the learnt spectral kernel too.

    Parameters
    ----------
    K : array-like of shape (n, n)
        A strictly positive diagonal (a point at the origin of feature space has no direction).

    Returns
    -------
    Kn : ndarray of shape (n, n)

    Notes
    -----
    **Cost.** Time :math:`O(n^2)` (two scaling passes), memory one (n, n) array.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import normalize_kernel
    >>> np.round(normalize_kernel(np.array([[4.0, 2.0], [2.0, 9.0]])), 4)  # 2 / sqrt(4 * 9)
    array([[1.    , 0.3333],
           [0.3333, 1.    ]])
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
    r"""Centre in feature space: :math:`K_c = JKJ`, eqs. ``eq:center`` and ``eq:center-fast``.

    .. math::

        (JKJ)_{ij} = K_{ij} - \bar K_{i\cdot} - \bar K_{\cdot j} + \bar K_{\cdot\cdot},

    the Gram matrix of the feature vectors minus their mean: zero row and column sums, PSD
    when ``K`` is. The second step of Cristianini et al.'s preprocessing.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Any finite square matrix (J is applied on both sides; symmetry not required).

    Returns
    -------
    Kc : ndarray of shape (n, n)

    Notes
    -----
    **Cost.** Time :math:`O(n^2)` (two matrix-vector products, two passes), memory one (n, n)
    array; J is never formed.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import center_kernel, linear_kernel
    >>> K = linear_kernel(np.array([[0.0, 1.0], [2.0, 0.0], [1.0, 3.0]]))
    >>> J = np.eye(3) - np.ones((3, 3)) / 3
    >>> bool(np.allclose(center_kernel(K), J @ K @ J))
    True
    """
    return _double_center(check_square(K, name="K", finite=False), 1.0, "K")


def _double_center(A, scale, name):
    """``scale * J A J`` in two passes over one new array, never forming J.

    With row means r, column means c and grand mean g, :math:`(JAJ)_{ij} = A_{ij} - r_i - (c_j - g)`:
    the means are two BLAS products, ``np.add.outer`` writes the scaled correction and
    ``daxpy`` adds ``scale * A`` in place. NaN or inf shows in the row means (no separate pass).
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
    check_magnitude(np.array([A.max(), A.min()]), name)  # two passes, no n x n temporary
    col = w @ A
    grand = row.mean()
    out = np.add.outer(-scale * row, -scale * (col - grand))
    daxpy(A.ravel(), out.ravel(), a=scale)  # out += scale * A, in place
    return out


def mds_kernel(M):
    r"""Classical MDS: the kernel :math:`K = -\tfrac12 JMJ` of a squared-distance matrix, eq. ``eq:mds``.

    .. math::

        K_{ij} = -\tfrac12\bigl(M_{ij} - \bar M_{i\cdot} - \bar M_{\cdot j} + \bar M_{\cdot\cdot}\bigr).

    If :math:`M_{ij} = \lVert x_i - x_j\rVert^2`, K is the Gram matrix of the centred points
    (Gower, 1966); PSD exactly when M is Euclidean (Schoenberg). Algorithm 1 of Bodó & Csató
    (step 3, Chapter 2) applies it to cophenetic distances.

    Parameters
    ----------
    M : array-like of shape (n, n)
        Non-negative with a zero diagonal (symmetry not checked).

    Returns
    -------
    K : ndarray of shape (n, n)
        Zero row and column sums.

    Notes
    -----
    **Cost.** Time :math:`O(n^2)`, memory one (n, n) array (the centering of
    :func:`center_kernel` with the factor -1/2 folded in).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import mds_kernel, squared_distances
    >>> mds_kernel(squared_distances(np.array([[1.0], [3.0]])))  # the Gram matrix of -1 and +1
    array([[ 1., -1.],
           [-1.,  1.]])
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
