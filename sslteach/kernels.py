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
    r"""Linear kernel: the matrix of inner products of two sets of points.

    .. math:: K_{ij} = k_{\mathrm{lin}}(x_i, y_j) = x_i^\top y_j ,

    eq. ``eq:linear-kernel`` of the foundations chapter: the kernel whose feature map is
    the identity, :math:`\phi(x) = x`. It is the kernel of the Breast Cancer experiments
    (Figure 1) of Cristianini, Shawe-Taylor & Kandola (2001); the papers give it no
    numbered equation.

    Derived in :doc:`/notebooks/00_foundations` (Chapter 0, Foundations).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points :math:`x_1, \dots, x_n`, one per row. Must be finite and numeric.
    Y : array-like of shape (n_samples_Y, n_features), optional
        The points :math:`y_1, \dots, y_p`. Defaults to ``X``, which gives the (symmetric,
        positive semi-definite) Gram matrix of ``X``.

    Returns
    -------
    K : ndarray of shape (n_samples, n_samples_Y)
        ``K[i, j]`` is :math:`x_i^\top y_j` (float64).

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` is not a 2-D numeric array (a 1-D array, sparse input, NaN or
        infinity, no rows), or if ``X`` and ``Y`` have different numbers of features.

    See Also
    --------
    rbf_kernel : The book's Gaussian kernel.
    normalize_kernel : Turns the linear kernel into the cosine similarity.

    Notes
    -----
    Cost: one matrix product, time :math:`O(n p d)` (:math:`O(n^2 d)` when ``Y`` is
    omitted) and memory one (n, p) array, besides float64 copies of the inputs when they
    are of another type.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import linear_kernel
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    >>> np.round(linear_kernel(X), 3)
    array([[1., 1., 0.],
           [1., 2., 2.],
           [0., 2., 4.]])
    >>> linear_kernel(X, np.array([[1.0, 1.0]])).shape
    (3, 1)
    >>> linear_kernel(X, np.ones((2, 3)))
    Traceback (most recent call last):
        ...
    ValueError: X has 2 features but Y has 3; both must describe points in the same space.
    """
    X, Y = _pair(X, Y)
    return X @ (X if Y is None else Y).T


def squared_distances(X, Y=None):
    r"""Squared Euclidean distances :math:`\lVert x_i - y_j\rVert^2`, exact where it matters.

    .. math::

        D_{ij} = \lVert x_i - y_j\rVert^2
               = \lVert x_i\rVert^2 + \lVert y_j\rVert^2 - 2\,x_i^\top y_j ,

    the linear-kernel case of eq. ``eq:sqdist`` of the foundations chapter
    (:math:`D^{(2)} = \kappa\mathbf 1^\top + \mathbf 1\kappa^\top - 2K`); no paper of the
    book numbers it. These are the distances inside :func:`rbf_kernel`, the point
    distances fed to the linkages of Bodó & Csató (2010) (Chapter 2), and the median
    squared distance that scales the book's grid of :math:`\sigma^2` for Alzate & Suykens
    (2012) (Chapter 4).

    The fast route is the expansion on the right through BLAS (scikit-learn's
    ``euclidean_distances``), which loses the digits a distance shares with the norms: a
    common offset of 1e8 destroys every distance, and two copies of a point come out
    1e-16 times the squared norm apart, differently for each BLAS kernel. Hence:

    * the columns are first centred (by the mean of ``X``; distances do not change), which
      removes a common offset;
    * every entry below 1e-6 times :math:`\lVert x_i\rVert^2 + \max_j\lVert y_j\rVert^2`
      (where the shortcut may have lost more than six digits) is recomputed from the
      differences :math:`x_i - y_j`, so copies of a point are exactly 0 apart on every
      machine;
    * tiny negative round-off is clipped, and the diagonal is exactly zero when ``Y`` is
      omitted.

    Derived in :doc:`/notebooks/00_foundations` (Chapter 0, Foundations).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points :math:`x_i`, one per row; finite and numeric.
    Y : array-like of shape (n_samples_Y, n_features), optional
        The points :math:`y_j`. Defaults to ``X`` (then the result is symmetric with an
        exactly zero diagonal).

    Returns
    -------
    D2 : ndarray of shape (n_samples, n_samples_Y)
        ``D2[i, j]`` is :math:`\lVert x_i - y_j\rVert^2` (float64, >= 0).

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` is not a 2-D numeric array (a 1-D array, sparse input, NaN or
        infinity, no rows), or if ``X`` and ``Y`` have different numbers of features.

    See Also
    --------
    rbf_kernel : :math:`\exp(-D_{ij} / (2\sigma^2))`.
    mds_kernel : Turns a matrix of squared distances back into a kernel.

    Notes
    -----
    Cost: time :math:`O(n p d)` (one matrix product, plus :math:`O(d)` per recomputed
    entry, of which there are few unless many points nearly coincide); memory one
    (n, p) float64 array plus centred (n, d) and (p, d) copies of the inputs. The
    recomputation runs over blocks of 1024 rows, so it never allocates an (n, p)
    boolean temporary.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import squared_distances
    >>> X = np.array([[0.0, 0.0], [3.0, 4.0]])
    >>> np.round(squared_distances(X), 3)
    array([[ 0., 25.],
           [25.,  0.]])

    A common offset of 1e8 changes nothing, and copies of a point are exactly 0 apart:

    >>> bool(np.array_equal(squared_distances(X + 1e8), squared_distances(X)))
    True
    >>> P = np.array([[0.1, 0.7], [0.3, 0.2]])
    >>> np.diag(squared_distances(P, P.copy())).tolist()
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
    r"""Gaussian kernel :math:`\exp(-\lVert x_i - y_j\rVert^2 / (2\sigma^2))`.

    .. math::

        K_{ij} = k_\sigma(x_i, y_j)
               = \exp\!\left(-\frac{\lVert x_i - y_j\rVert^2}{2\sigma^2}\right),

    eq. ``eq:rbf`` of the foundations chapter. This is the book's single convention;
    every chapter converts its paper's parameter to it. scikit-learn's ``gamma`` equals
    :math:`1 / (2\sigma^2)`; Alzate & Suykens (2012) write
    :math:`\exp(-\lVert x - z\rVert^2 / \sigma^2)`, so their :math:`\sigma^2` is
    :math:`2\sigma^2` here (:func:`sslteach.ksc.ksc_kernel` takes theirs); eq. (5) of
    Bodó & Csató (2010) (RCK1, a Gaussian kernel of membership vectors) uses the same
    :math:`2\sigma^2` as the book.

    Derived in :doc:`/notebooks/00_foundations` (Chapter 0, Foundations).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points :math:`x_i`, one per row; finite and numeric.
    Y : array-like of shape (n_samples_Y, n_features), optional
        The points :math:`y_j`. Defaults to ``X``.
    sigma : float
        Bandwidth :math:`\sigma > 0`, keyword-only, in the units of ``X``; a value of the
        order of the distances in ``X`` (e.g. their median) gives an informative kernel.

    Returns
    -------
    K : ndarray of shape (n_samples, n_samples_Y)
        Entries in [0, 1] (0 only by underflow); when ``Y`` is omitted, symmetric
        positive semi-definite with an exactly unit diagonal.

    Raises
    ------
    ValueError
        If ``sigma`` is not a finite real number > 0, or so small that
        :math:`1 / (2\sigma^2)` overflows; or if ``X``/``Y`` are invalid (see
        :func:`squared_distances`).

    See Also
    --------
    squared_distances : The exact squared distances it exponentiates.
    sslteach.ksc.ksc_kernel : The same kernel in the parameterisation of Alzate & Suykens.

    Notes
    -----
    Cost: time :math:`O(n p d)` (the squared distances; the exponential adds
    :math:`O(np)`), memory one (n, p) array, exponentiated in place, plus the
    centred (n, d) and (p, d) copies made by :func:`squared_distances`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import rbf_kernel
    >>> X = np.array([[0.0, 0.0], [3.0, 4.0]])
    >>> np.round(rbf_kernel(X, sigma=5.0), 4)  # exp(-25 / 50) = exp(-1/2)
    array([[1.    , 0.6065],
           [0.6065, 1.    ]])

    scikit-learn's ``gamma`` is :math:`1 / (2\sigma^2)`:

    >>> from sklearn.metrics.pairwise import rbf_kernel as sklearn_rbf
    >>> bool(np.allclose(rbf_kernel(X, sigma=5.0), sklearn_rbf(X, gamma=1 / (2 * 5.0**2))))
    True
    >>> rbf_kernel(X, sigma=0)
    Traceback (most recent call last):
        ...
    ValueError: sigma must be finite and > 0; got 0.0.
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

    .. math::

        \tilde K_{ij} = \frac{K_{ij}}{\sqrt{K_{ii} K_{jj}}},
        \qquad \tilde K = S K S,\quad S = \operatorname{diag}(K_{ii}^{-1/2}),

    eq. ``eq:normalize`` of the foundations chapter. This is the Gram matrix of the unit
    vectors :math:`\phi(x)/\lVert\phi(x)\rVert` (the cosine of the angle between feature
    vectors), so the result has a unit diagonal and stays positive semi-definite when
    ``K`` is; for the linear kernel it is the cosine similarity. It is the first step
    ("normalise the input vectors in the kernel-defined feature space, then centre
    them") of the preprocessing of Cristianini, Shawe-Taylor & Kandola (2001), which
    gives it no equation number; Chapter 3 also applies it to the learnt spectral
    kernel of Liu, Qian, Cui & Liu (2009) before the SVM.

    Derived in :doc:`/notebooks/00_foundations` (Chapter 0, Foundations).

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        A kernel matrix with a strictly positive diagonal; finite. Symmetry is not
        checked (the formula is applied entrywise).

    Returns
    -------
    Kn : ndarray of shape (n_samples, n_samples)
        The normalised kernel :math:`\tilde K` (float64), with a unit diagonal up to
        round-off.

    Raises
    ------
    ValueError
        If a diagonal entry is <= 0 (a point mapped to the origin of feature space has
        no direction to normalise); or if ``K`` is not a finite, square, 2-D numeric
        matrix.

    See Also
    --------
    center_kernel : The second step of the preprocessing of Cristianini et al.

    Notes
    -----
    Cost: time :math:`O(n^2)` (two scaling passes; :math:`S` is never formed as a
    matrix), memory one new (n, n) array (plus a float64 copy of ``K`` when it is of
    another type).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import normalize_kernel
    >>> K = np.array([[4.0, 2.0], [2.0, 9.0]])
    >>> np.round(normalize_kernel(K), 4)  # 2 / sqrt(4 * 9) = 1/3
    array([[1.    , 0.3333],
           [0.3333, 1.    ]])
    >>> normalize_kernel(np.array([[1.0, 0.0], [0.0, 0.0]]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: normalize_kernel needs a positive diagonal, but K[i, i] <= 0 for i in [1]; ...
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

    Here :math:`J = I - \tfrac1n \mathbf 1\mathbf 1^\top` is the centering matrix, and

    .. math::

        K_c = JKJ, \qquad
        (JKJ)_{ij} = K_{ij} - \bar K_{i\cdot} - \bar K_{\cdot j} + \bar K_{\cdot\cdot},

    with row means :math:`\bar K_{i\cdot}`, column means :math:`\bar K_{\cdot j}` and grand
    mean :math:`\bar K_{\cdot\cdot}`: the Gram matrix of the feature vectors after their
    mean is subtracted (eqs. ``eq:center`` and ``eq:center-fast`` of the foundations
    chapter; the preprocessing formula of Cristianini, Shawe-Taylor & Kandola (2001),
    which gives it no equation number). A centred kernel has zero row and column sums.

    Derived in :doc:`/notebooks/00_foundations` (Chapter 0, Foundations).

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Any finite square matrix (symmetry is not required; :math:`J` is applied on both
        sides).

    Returns
    -------
    Kc : ndarray of shape (n_samples, n_samples)
        :math:`JKJ` (float64); symmetric positive semi-definite when ``K`` is.

    Raises
    ------
    ValueError
        If ``K`` is not a square 2-D numeric matrix, contains NaN or infinity, or has
        entries so large that their row means overflow.

    See Also
    --------
    mds_kernel : The same centering applied to squared distances, times -1/2.
    normalize_kernel : The step Cristianini et al. apply before centering.

    Notes
    -----
    Cost: time :math:`O(n^2)` (two matrix-vector products for the means, then two passes
    that write the result, instead of the :math:`O(n^3)` of forming :math:`J` and
    multiplying); memory one new (n, n) array, never :math:`J`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import center_kernel, linear_kernel
    >>> X = np.array([[1.0], [3.0]])  # centred points: -1 and +1
    >>> np.round(center_kernel(linear_kernel(X)), 3)
    array([[ 1., -1.],
           [-1.,  1.]])
    >>> X = np.array([[0.0, 1.0], [2.0, 0.0], [1.0, 3.0]])
    >>> K = linear_kernel(X)
    >>> J = np.eye(3) - np.ones((3, 3)) / 3
    >>> bool(np.allclose(center_kernel(K), J @ K @ J))
    True
    >>> bool(np.allclose(center_kernel(K).sum(axis=1), 0))
    True
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
    check_magnitude(np.array([A.max(), A.min()]), name)  # two passes, no n x n temporary
    col = w @ A
    grand = row.mean()
    out = np.add.outer(-scale * row, -scale * (col - grand))
    daxpy(A.ravel(), out.ravel(), a=scale)  # out += scale * A, in place
    return out


def mds_kernel(M):
    r"""Classical MDS: the kernel :math:`-\tfrac12 J M J` of a squared-distance matrix.

    .. math::

        K = -\tfrac12\, J M J, \qquad
        K_{ij} = -\tfrac12\bigl(M_{ij} - \bar M_{i\cdot} - \bar M_{\cdot j} + \bar M_{\cdot\cdot}\bigr),

    with :math:`J = I - \tfrac1n\mathbf 1\mathbf 1^\top`. If
    :math:`M_{ij} = \lVert x_i - x_j\rVert^2` then :math:`-\tfrac12 JMJ` is the Gram
    matrix of the centred points (eq. ``eq:mds`` of the foundations chapter; Torgerson
    1952, Gower 1966); Bodó & Csató (2010), Algorithm 1, step 3, apply it to cophenetic
    distances to build the hierarchical cluster kernel.

    Derived in :doc:`/notebooks/00_foundations` (Chapter 0, Foundations); used in
    :doc:`/notebooks/02_cluster_kernels` (Chapter 2).

    Parameters
    ----------
    M : array-like of shape (n_samples, n_samples)
        Symmetric, finite, non-negative, zero diagonal (a matrix of squared distances).
        Symmetry is not checked.

    Returns
    -------
    K : ndarray of shape (n_samples, n_samples)
        The centred Gram matrix (float64), with zero row and column sums. Positive
        semi-definite exactly when ``M`` is a Euclidean squared-distance matrix
        (Schoenberg's theorem).

    Raises
    ------
    ValueError
        If ``M`` is not square, not finite, has negative entries or a non-zero diagonal.

    See Also
    --------
    center_kernel : :math:`JKJ` for a kernel matrix.
    squared_distances : Squared Euclidean distances, the ``M`` of the theorem.

    Notes
    -----
    Cost: time :math:`O(n^2)`, memory one new (n, n) array (the centering of
    :func:`center_kernel` with the factor -1/2 folded into its update pass; :math:`J`
    is never formed).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.kernels import mds_kernel, squared_distances
    >>> X = np.array([[1.0], [3.0]])
    >>> np.round(mds_kernel(squared_distances(X)), 3)  # Gram matrix of -1 and +1
    array([[ 1., -1.],
           [-1.,  1.]])
    >>> mds_kernel(np.array([[0.0, -1.0], [-1.0, 0.0]]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: M must hold (squared) distances, which are >= 0, but it has negative entries; ...
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
