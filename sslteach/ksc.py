r"""Kernel spectral clustering and its semi-supervised form, and LapSVM (Chapter 4).

Derived in :doc:`/notebooks/04_semi_supervised_ksc`; equation numbers are those of Alzate &
Suykens (2012), Sect. numbers too unless said otherwise.

* :func:`kernel_spectral_clustering`: the core model (Sect. II), the eigenproblem (3)
  :math:`D^{-1}M_D\Omega\alpha = \lambda\alpha` solved through an equivalent symmetric one.
* :func:`semi_ksc_system` and :func:`solve_semi_ksc`: the dual linear system (8) and the
  bias (9), assembled in :math:`O(M^2)` from the diagonal and rank-one structure of
  :math:`\gamma D^{-1} - \rho A` and :math:`M_S` (never a dense M x M product).
* :class:`SemiSupervisedKSC`: the classifier (projections (10), out-of-sample model (11),
  localised solution (15)), with :func:`fisher_criterion`, :func:`ssf_criterion` (16)-(17)
  and :func:`select_semi_ksc`, the grid search on validation data.
* :class:`OneVsRestSemiKSC`: the multi-class extension the paper leaves to future work.
* :class:`LapSVM`: the Laplacian SVM (Belkin et al., 2006), the paper's baseline, through
  its dual QP (cvxpy).

Chapter 4's experiment (Sect. IV-B) is :func:`sslteach.protocols.ch4.evaluate_protocol`.

**Bandwidth.** ``sigma2`` is the paper's (and LS-SVMlab's) :math:`\sigma^2` in
:math:`K(x, z) = \exp(-\lVert x - z\rVert^2/\sigma^2)`, so twice the book's :math:`\sigma^2`
of :func:`sslteach.kernels.rbf_kernel`: ``sigma = sqrt(sigma2 / 2)``.

**Labels.** The low-level functions take the paper's ``y`` in {-1, 0, +1} (0 = unlabelled);
the estimators take scikit-learn's (-1 = unlabelled, any two numeric class labels; the
second of ``classes_`` is the paper's +1).

References
----------
Alzate, C. and Suykens, J. A. K. (2012). A semi-supervised formulation to binary kernel
spectral clustering. *IJCNN 2012*, 1-8.

Belkin, M., Niyogi, P. and Sindhwani, V. (2006). Manifold regularization: a geometric
framework for learning from labeled and unlabeled examples. *JMLR* 7, 2399-2434.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import cvxpy as cp
import numpy as np
import scipy.linalg
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._decisions import argmax_rows, first_best, orient_columns
from ._validation import (
    check_data,
    check_int,
    check_labels,
    check_positive,
    check_square,
    check_vector,
    validate_fit_data,
)
from .graphs import knn_graph
from .kernels import rbf_kernel, squared_distances

__all__ = [
    "ksc_kernel",
    "kernel_spectral_clustering",
    "semi_ksc_system",
    "solve_semi_ksc",
    "fisher_criterion",
    "ssf_criterion",
    "SemiSupervisedKSC",
    "select_semi_ksc",
    "OneVsRestSemiKSC",
    "LapSVM",
]

#: reciprocal condition number below which eq. (8) is refused as numerically singular
RCOND_LIMIT = 1e-12
#: relative size of c (|c| <= C_RTOL * sum|g_i|) below which c counts as zero and eq. (8) is refused:
#: the elimination divides by c, and near c = 0 with equal label counts per class (e.g. one label
#: each at rho = 1 on well-separated clusters) the bordered KKT system (7) is itself nearly singular
#: while eq. (8) can still look well conditioned. sqrt(machine epsilon), about 1.5e-8.
C_RTOL = float(np.sqrt(np.finfo(float).eps))


def ksc_kernel(X, Y=None, *, sigma2):
    r"""The paper's RBF kernel, :math:`\Omega_{ij} = \exp(-\lVert x_i - y_j\rVert^2/\sigma^2)`.

    A non-negative similarity, as kernel spectral clustering requires (Sect. II-B; no equation
    number). It is :func:`sslteach.kernels.rbf_kernel` with ``sigma = sqrt(sigma2 / 2)``.
    ``Y`` defaults to ``X`` (the symmetric training matrix, ones on the diagonal); ``sigma2``
    > 0 is keyword only. Returns an (n, p) array in [0, 1]; a ValueError for a bad ``sigma2``
    or data (as ``rbf_kernel``). Cost :math:`O(npd)` time, one (n, p) array.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.ksc import ksc_kernel
    >>> from sslteach.kernels import rbf_kernel
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    >>> np.round(ksc_kernel(X, sigma2=1.0), 3)
    array([[1.   , 0.368, 0.018],
           [0.368, 1.   , 0.007],
           [0.018, 0.007, 1.   ]])
    >>> bool(np.allclose(ksc_kernel(X, sigma2=2.0), rbf_kernel(X, sigma=1.0)))
    True
    """
    sigma2 = check_positive(sigma2, "sigma2")
    if not np.isfinite(1.0 / sigma2):
        raise ValueError(f"sigma2 = {sigma2!r} is so small that 1 / sigma2 overflows; use sigma2 >= 1e-300.")
    return rbf_kernel(X, Y, sigma=np.sqrt(sigma2 / 2.0))


# ----------------------------------------------------------------------------------------
# core KSC
# ----------------------------------------------------------------------------------------


def _degrees(Omega, name="Omega"):
    if Omega.size and Omega.min() < 0:
        raise ValueError(
            f"{name} has negative entries; kernel spectral clustering needs a non-negative "
            "similarity (e.g. the RBF kernel) so that the degrees are positive."
        )
    deg = Omega.sum(axis=1)
    if np.any(deg <= 0):
        raise ValueError(
            f"{name} has {int(np.sum(deg <= 0))} rows summing to 0 (degree 0); remove those points."
        )
    return deg


def kernel_spectral_clustering(Omega, n_clusters):
    r"""Core binary/multiway kernel spectral clustering (Sect. II).

    Solves the dual eigenproblem (3) with the weighting :math:`V = D^{-1}` (degrees
    :math:`d_i = \sum_j\Omega_{ij}`),

    .. math:: D^{-1}M_D\Omega\alpha^{(l)} = \lambda_l\alpha^{(l)}, \qquad
       M_D = I_N - \frac{1}{1_N^TD^{-1}1_N}1_N1_N^TD^{-1},

    for the :math:`k - 1` largest eigenvalues. :math:`D^{-1}M_D = D^{-1/2}(I - uu^T)D^{-1/2}`
    with :math:`u = D^{-1/2}1/\lVert D^{-1/2}1\rVert`, so :math:`\alpha = D^{-1/2}z` for the top
    eigenvectors :math:`z` of the symmetric :math:`P D^{-1/2}\Omega D^{-1/2} P`,
    :math:`P = I - uu^T`. Biases and training projections:

    .. math:: b_l = -\frac{1_N^TD^{-1}\Omega\alpha^{(l)}}{1_N^TD^{-1}1_N}, \qquad
       e^{(l)} = \Omega\alpha^{(l)} + b_l1_N = M_D\Omega\alpha^{(l)}.

    Decoding (Sect. II-C): the k most frequent sign patterns of the rows of :math:`e` (0
    counts as +1; equal counts in lexicographic order) are the codewords, and each point goes
    to the nearest (Hamming distance, ties to the more frequent); a UserWarning when fewer than
    k patterns occur.

    Parameters
    ----------
    Omega : array-like of shape (N, N)
        Symmetric, non-negative, no zero row (e.g. :func:`ksc_kernel`).
    n_clusters : int
        k, with 2 <= k <= N - 1.

    Returns
    -------
    result : Bunch
        ``eigvals`` (k-1,) descending; ``alpha`` (N, k-1), unit columns, largest-magnitude entry
        positive; ``b`` (k-1,); ``e`` (N, k-1); ``codebook`` (at most k, k-1) in {-1, +1},
        most frequent first; ``labels`` (N,), the row of ``codebook`` of each point.

    Notes
    -----
    A dense ``eigh``: time :math:`O(N^3)`, memory a few N x N arrays (the paper's N = 600);
    decoding :math:`O(Nk^2)`. With repeated eigenvalues among the top k - 1 (fewer clusters in
    the data than k) the eigenvectors, and so the labels, are not unique.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.ksc import ksc_kernel, kernel_spectral_clustering
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2, 0.5, (12, 2)), rng.normal(2, 0.5, (8, 2))])
    >>> Omega = ksc_kernel(X, sigma2=2.0)
    >>> res = kernel_spectral_clustering(Omega, n_clusters=2)
    >>> res.labels  # label 0: the more frequent sign pattern
    array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1])

    The eigenproblem and the projections as written above:

    >>> d = Omega.sum(axis=1)
    >>> M_D = np.eye(20) - np.outer(np.ones(20), 1 / d) / (1 / d).sum()
    >>> bool(np.allclose(M_D @ Omega @ res.alpha / d[:, None], res.eigvals * res.alpha))
    True
    >>> bool(np.allclose(res.e, M_D @ Omega @ res.alpha))
    True
    """
    Omega = check_square(Omega, name="Omega", symmetric=True)
    N = Omega.shape[0]
    k = check_int(n_clusters, "n_clusters", low=2, high=N - 1, high_hint=f"There are {N} points.")
    deg = _degrees(Omega)
    s = 1.0 / np.sqrt(deg)
    u = s / np.linalg.norm(s)
    B = Omega * s[:, None] * s[None, :]
    Bu = B @ u
    B -= np.outer(u, Bu) + np.outer(Bu, u) - (u @ Bu) * np.outer(u, u)  # P B P
    lam, Z = np.linalg.eigh(B)
    lam, Z = lam[::-1][: k - 1], Z[:, ::-1][:, : k - 1]
    alpha = Z * s[:, None]
    alpha /= np.linalg.norm(alpha, axis=0)
    alpha = orient_columns(alpha)
    dinv = 1.0 / deg
    OA = Omega @ alpha
    b = -(dinv @ OA) / dinv.sum()
    e = OA + b
    signs = np.where(e >= 0, 1, -1)
    patterns, inverse, counts = np.unique(signs, axis=0, return_inverse=True, return_counts=True)
    order = np.argsort(-counts, kind="stable")
    codebook = patterns[order[:k]]
    if codebook.shape[0] < k:
        warnings.warn(
            f"The {k - 1} eigenvectors give only {codebook.shape[0]} distinct sign patterns, so "
            f"{codebook.shape[0]} clusters rather than {k}: the data (or this kernel) do not "
            "separate that many groups. Ask for fewer clusters or change sigma2.",
            UserWarning,
            stacklevel=2,
        )
    hamming = (signs[:, None, :] != codebook[None, :, :]).sum(axis=2)
    labels = np.argmin(hamming, axis=1)
    return Bunch(eigvals=lam, alpha=alpha, b=b, e=e, codebook=codebook, labels=labels)


# ----------------------------------------------------------------------------------------
# Semi-KSC: the dual linear system (8)
# ----------------------------------------------------------------------------------------


def _check_ksc_labels(y, M):
    """The paper's labels: +1/-1 for labelled points, 0 for unlabelled ones."""
    return check_labels(
        y, M, unlabeled=0, values=(-1, 1), n_classes=2, who="Semi-KSC, a binary model,",
        hint=" Label at least one point with +1 and one with -1; for scikit-learn style labels "
        "use SemiSupervisedKSC.",
    )[0].astype(float)


def _check_gamma_rho(gamma, rho):
    gamma = check_positive(gamma, "gamma")
    rho = check_positive(rho, "rho")
    if rho > 1:
        raise ValueError(
            f"rho must be in (0, 1] (Sect. III-C: the paper restricts rho to this range, 'discouraging "
            f"a change of sign in alpha_L'); got {rho}."
        )
    return gamma, rho


def _semi_ksc_parts(Omega, y, gamma, rho):
    r"""g = diag(gamma D^{-1} - rho A), c = 1^T g and Omega g, all in O(M^2)."""
    deg = _degrees(Omega)
    g = gamma / deg - rho * (y != 0)
    c = g.sum()
    if abs(c) <= C_RTOL * np.abs(g).sum():
        raise ValueError(
            f"c = 1^T(gamma D^-1 - rho A)1 is zero (to working accuracy: |c| <= {C_RTOL:.1e} sum|g|, "
            f"c = {c:.3g}) for gamma = {gamma}, rho = {rho}: the centering matrix M_S of eq. (8) is "
            "undefined, and the KKT system (7) may be (nearly) singular too. Change rho."
        )
    return g, c


def semi_ksc_system(Omega, y, *, gamma=1.0, rho):
    r"""The matrix and right-hand side of the dual linear system (8).

    .. math:: \bigl(I_M - (\gamma D^{-1} - \rho A) M_S\Omega\bigr)\alpha = \rho M_S^T y,
       \qquad M_S = I_M - \tfrac1c 1_M 1_M^T(\gamma D^{-1} - \rho A),

    with :math:`D` the degrees, :math:`A` the diagonal 0/1 marks of the labelled points and
    :math:`c = 1_M^T(\gamma D^{-1} - \rho A)1_M`. With :math:`g = \mathrm{diag}(\gamma D^{-1}
    - \rho A)` (:math:`c = 1^Tg`) this is :math:`H = I - \mathrm{diag}(g)\Omega + \tfrac1c
    g(\Omega g)^T` and :math:`r = \rho(y - \tfrac{1^Ty}{c}g)`: a row scaling, one
    matrix-vector product and a rank-one update; :math:`M_S` is never formed.

    Parameters
    ----------
    Omega : array-like of shape (M, M)
        Symmetric kernel matrix, non-negative, no zero row, over all M training points.
    y : array-like of shape (M,)
        The paper's labels: +1 or -1 for labelled points (at least one each), 0 for the others.
    gamma : float, default 1.0
        :math:`\gamma > 0`, the weight of the clustering term (the paper's 1, Sect. III-C).
    rho : float in (0, 1]
        :math:`\rho`, the weight of the labelled term (keyword only).

    Returns
    -------
    H : ndarray of shape (M, M)
    r : ndarray of shape (M,)

    Raises
    ------
    ValueError
        For invalid inputs, or if c = 0 to working accuracy (:math:`|c| \le` ``C_RTOL``
        :math:`\sum_i|g_i|`, about 1.5e-8), where :math:`M_S` is undefined.

    Notes
    -----
    Time :math:`O(M^2)`, memory one M x M array besides ``Omega``.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.ksc import ksc_kernel, semi_ksc_system
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2, 0.5, (10, 2)), rng.normal(2, 0.5, (10, 2))])
    >>> y = np.zeros(20)
    >>> y[[0, 1, 10]] = -1, -1, 1  # 0 = unlabelled; 1'y != 0, so r has its rank-one part
    >>> Omega = ksc_kernel(X, sigma2=2.0)
    >>> H, r = semi_ksc_system(Omega, y, rho=0.5)

    The same as the dense matrices of eq. (8), formed here only for the check:

    >>> G = np.diag(1 / Omega.sum(axis=1) - 0.5 * (y != 0))  # gamma D^-1 - rho A
    >>> M_S = np.eye(20) - np.ones((20, 20)) @ G / np.trace(G)  # c = trace(G)
    >>> bool(np.allclose(H, np.eye(20) - G @ M_S @ Omega)), bool(np.allclose(r, 0.5 * M_S.T @ y))
    (True, True)
    """
    Omega = check_square(Omega, name="Omega", symmetric=True)
    y = _check_ksc_labels(y, Omega.shape[0])
    gamma, rho = _check_gamma_rho(gamma, rho)
    g, c = _semi_ksc_parts(Omega, y, gamma, rho)
    return _assemble(Omega, g, c, y, rho)


def _assemble(Omega, g, c, y, rho):
    Og = Omega @ g
    H = np.multiply(Omega, -g[:, None])
    gc = g / c
    for i in range(0, H.shape[0], 1024):  # rank one, (1/c) g (Omega g)^T, in row blocks
        H[i : i + 1024] += np.outer(gc[i : i + 1024], Og)
    H.flat[:: H.shape[0] + 1] += 1.0
    r = rho * (y - (y.sum() / c) * g)
    return H, r


def solve_semi_ksc(Omega, y, *, gamma=1.0, rho, return_info=False):
    r"""Solve eq. (8) for :math:`\alpha` and return the bias (9): ``(alpha, b)``.

    The system of :func:`semi_ksc_system` (same parameters) is solved by LU; the bias is

    .. math:: b = -\tfrac1c\bigl(1^T(\gamma D^{-1} - \rho A)\Omega\alpha + \rho 1^T y\bigr),

    and the training projections (10) are :math:`e = M_S\Omega\alpha - \tfrac\rho c
    1_M1_M^Ty = \Omega\alpha + b1_M`, whose signs are the binary memberships. :math:`\alpha`
    sums to 0 (the KKT condition :math:`1_M^T\alpha = 0` of eq. (7)). With ``return_info``
    also a Bunch with ``c``, ``rcond`` (LAPACK's reciprocal condition number of the matrix,
    1-norm) and ``g`` (the diagonal of :math:`\gamma D^{-1} - \rho A`).

    Raises
    ------
    ValueError
        As :func:`semi_ksc_system`, or when the system is singular or ill-conditioned (rcond
        below ``RCOND_LIMIT`` = 1e-12); the message names gamma, rho and c. The rule on c also
        catches the near-singular KKT system (7) of one label per class at :math:`\rho = 1` on
        well-separated clusters, where eq. (8) can still look well conditioned.

    Notes
    -----
    Assembly :math:`O(M^2)`, an in-place LU factorisation :math:`\tfrac23 M^3` and a condition
    estimate :math:`O(M^2)`: peak memory ``Omega`` plus one M x M array.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.ksc import ksc_kernel, semi_ksc_system, solve_semi_ksc
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2, 0.5, (10, 2)), rng.normal(2, 0.5, (10, 2))])
    >>> y = np.zeros(20)
    >>> y[0], y[10] = -1, 1  # one label per cloud
    >>> Omega = ksc_kernel(X, sigma2=2.0)
    >>> alpha, b, info = solve_semi_ksc(Omega, y, rho=0.5, return_info=True)
    >>> H, r = semi_ksc_system(Omega, y, rho=0.5)
    >>> bool(np.allclose(H @ alpha, r)), bool(np.isclose(alpha.sum(), 0.0, atol=1e-10))
    (True, True)
    >>> e = Omega @ alpha + b  # the projections (10) split the clouds as the labels do
    >>> bool(np.all(e[:10] < 0)), bool(np.all(e[10:] > 0)), bool(info.rcond > 1e-12)
    (True, True, True)
    >>> solve_semi_ksc(Omega, y, rho=1.5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: rho must be in (0, 1] (Sect. III-C: ...); got 1.5.
    """
    Omega = check_square(Omega, name="Omega", symmetric=True)
    y = _check_ksc_labels(y, Omega.shape[0])
    gamma, rho = _check_gamma_rho(gamma, rho)
    alpha, b, info = _solve_dual(Omega, y, gamma, rho)
    return (alpha, b, info) if return_info else (alpha, b)


def _solve_dual(Omega, y, gamma, rho):
    """alpha of eq. (8), b of eq. (9) and Bunch(c, rcond, g), the inputs already checked."""
    g, c = _semi_ksc_parts(Omega, y, gamma, rho)
    alpha, rcond = _lu_solve_or_refuse(*_assemble(Omega, g, c, y, rho), gamma, rho, c)
    b = -(g @ (Omega @ alpha) + rho * y.sum()) / c
    return alpha, b, Bunch(c=c, rcond=rcond, g=g)


def _max_row_sum(H, block=1024):
    """max row sum of |H|, in row blocks (no M x M temporary)."""
    return max(np.abs(H[i : i + block]).sum(axis=1).max() for i in range(0, H.shape[0], block))


def _lu_solve_or_refuse(H, r, gamma, rho, c):
    # LAPACK works in Fortran order: factorise A = H.T (a view, no copy) in place and solve
    # A^T alpha = r. The 1-norm of A is the largest row sum of |H|.
    A = H.T
    anorm = _max_row_sum(H)
    lu, piv, info = scipy.linalg.lapack.dgetrf(A, overwrite_a=True)
    rcond = 0.0
    if info == 0:
        rcond, _ = scipy.linalg.lapack.dgecon(lu, anorm, norm="1")
    if info != 0 or rcond < RCOND_LIMIT:
        raise ValueError(
            f"The Semi-KSC system (8) is singular or ill-conditioned (reciprocal condition number "
            f"below {RCOND_LIMIT:.0e}) for gamma = {gamma}, rho = {rho}, c = {c:.4g}. Choose another "
            "rho in (0, 1] or another kernel bandwidth."
        )
    alpha, _ = scipy.linalg.lapack.dgetrs(lu, piv, r, trans=1)
    return alpha, rcond


# ----------------------------------------------------------------------------------------
# model selection: eqs. (16) and (17)
# ----------------------------------------------------------------------------------------


def fisher_criterion(alpha_hat):
    r"""The binary Fisher criterion (16) of an out-of-sample solution :math:`\hat\alpha`.

    The clusters :math:`\mathcal A_\pm` are the signs of ``alpha_hat`` (0 counts as +). The
    paper writes :math:`\zeta_\pm` both for the cluster weights (footnote 3:
    :math:`|\mathcal A_\pm|/N_v`) and for the variances; our reading weights the variances too:

    .. math:: F = \frac{s_B}{s_B + s_W},\quad
       s_B = \sum_\pm w_\pm(\hat\mu_\pm - \hat\mu)^2,\quad
       s_W = \sum_\pm w_\pm \hat\sigma^2_\pm,\quad w_\pm = |\mathcal A_\pm|/N_v,

    with :math:`\hat\mu_\pm`, :math:`\hat\sigma^2_\pm` the mean and (population) variance on
    :math:`\mathcal A_\pm` and :math:`\hat\mu` the mean: :math:`s_B + s_W` is the variance of
    :math:`\hat\alpha`, so F, in [0, 1], is the share of it the split explains (large for a
    localised solution (15)); 0 when a cluster is empty or :math:`\hat\alpha` is constant. F is
    scale-free and computed on :math:`\hat\alpha/\max|\hat\alpha|`. ``alpha_hat`` of any shape
    is flattened; a ValueError if it is empty or not finite. Cost :math:`O(N_v)`.

    Examples
    --------
    >>> from sslteach.ksc import fisher_criterion
    >>> fisher_criterion([-1.0, -1.0, 1.0, 1.0])  # constant on each cluster
    1.0
    >>> round(fisher_criterion([-1.0, -0.5, 0.5, 1.0]), 3)
    0.9
    >>> fisher_criterion([1.0, 2.0, 3.0])  # one cluster only
    0.0
    """
    return _fisher(check_vector(np.ravel(alpha_hat) if np.ndim(alpha_hat) > 1 else alpha_hat, "alpha_hat"))


def _fisher(a):
    pos = a >= 0
    if pos.all() or not pos.any():
        return 0.0
    a = a / np.abs(a).max()  # F is scale-free; this keeps the squares finite (|alpha_hat| up to 1e308)
    mu = a.mean()
    s_b = s_w = 0.0
    for part in (a[pos], a[~pos]):
        w = part.size / a.size
        s_b += w * (part.mean() - mu) ** 2
        s_w += w * part.var()
    total = s_b + s_w
    return float(s_b / total) if total > 0 else 0.0


def ssf_criterion(alpha_hat_val, e_labeled, y_labeled, *, eta_u=0.25):
    r"""The semi-supervised Fisher criterion (17), in [0, 1], larger is better.

    .. math:: \mathrm{SSF} = \eta_U F(\hat\alpha_{val})
       + (1 - \eta_U)\,\mathrm{accuracy}(\mathrm{sign}(e_L), y_L),

    with F the Fisher criterion (16) of the out-of-sample solution (15) of the (unlabelled)
    validation points, ``e_labeled`` the projections (10) of the labelled training points (0
    counts as +1) and ``y_labeled`` their labels in {-1, +1}. The paper's
    :math:`\eta_U = 0.25` favours the accuracy. A ValueError if ``eta_u`` is not in [0, 1], if
    ``e_labeled`` and ``y_labeled`` are empty or of different lengths, or if
    ``alpha_hat_val`` is empty or not finite. Cost :math:`O(N_v + N_L)`.

    Examples
    --------
    >>> from sslteach.ksc import ssf_criterion
    >>> ssf_criterion([-1.0, -1.0, 1.0, 1.0], [-0.2, 0.3], [-1, 1])
    1.0
    >>> ssf_criterion([-1.0, -1.0, 1.0, 1.0], [0.2, 0.3], [-1, 1])  # 0.25 * 1 + 0.75 * 0.5
    0.625
    """
    eta_u = _check_eta_u(eta_u)
    e = check_vector(np.ravel(e_labeled) if np.ndim(e_labeled) > 1 else e_labeled, "e_labeled")
    yl = np.asarray(y_labeled).ravel()
    if e.shape != yl.shape or e.size == 0:
        raise ValueError("e_labeled and y_labeled must be non-empty and of the same length.")
    check_labels(yl, yl.size, unlabeled=None, values=(-1, 1), name="y_labeled")
    return _ssf(check_vector(np.ravel(alpha_hat_val), "alpha_hat_val"), e, yl, eta_u)


def _ssf(a_hat, e, yl, eta_u):
    return eta_u * _fisher(a_hat) + (1.0 - eta_u) * float(np.mean(np.where(e >= 0, 1, -1) == yl))


def _check_eta_u(eta_u):
    eta_u = check_positive(eta_u, "eta_u", strict=False)
    if eta_u > 1.0:
        raise ValueError(f"eta_u must be in [0, 1]; got {eta_u}.")
    return eta_u


# ----------------------------------------------------------------------------------------
# estimators
# ----------------------------------------------------------------------------------------


def _binary_labels(y, n, method="Semi-KSC"):
    """scikit-learn labels (-1 = unlabelled) -> y, classes_, paper labels in {-1, 0, +1}."""
    hint = " For more classes use OneVsRestSemiKSC." if method == "Semi-KSC" else ""
    y, labeled, classes, _ = check_labels(y, n, n_classes=2, who=f"{method}, a binary model,", hint=hint)
    yp = np.zeros(n)
    yp[labeled] = np.where(y[labeled] == classes[1], 1.0, -1.0)
    return classes, yp


class _KernelExpansion:
    r"""The out-of-sample model of the estimators below: :math:`\hat e(x) = \theta(x)^T\alpha + b`.

    :math:`\theta(x) = [K(x_1, x), \dots, K(x_M, x)]^T` over the training points: eq. (11)
    (``alpha_`` of shape (M,), or one column per class), for LapSVM its :math:`f(x)`.
    """

    def _kernel(self, X):
        check_is_fitted(self, "alpha_")
        X = validate_fit_data(self, X, reset=False)
        return ksc_kernel(X, self.X_fit_, sigma2=self.sigma2)

    def decision_function(self, X):
        r"""The projections :math:`\hat e(x) = \sum_{j=1}^{M}\alpha_jK(x_j, x) + b` of new points.

        The out-of-sample model (11) for :class:`SemiSupervisedKSC`, :math:`f(x)` for
        :class:`LapSVM`; at the training points, ``e_`` (10), resp. ``decision_train_``. Returns
        shape (p,): ``classes_[1]`` where >= 0. Cost :math:`O(pMd)` time, a (p, M) kernel matrix.
        """
        return self._kernel(X) @ self.alpha_ + self.b_


_KSC_PARAMETERS = {
    "sigma2": [Interval(Real, 0, None, closed="neither")],
    "rho": [Interval(Real, 0, 1, closed="right")],
    "gamma": [Interval(Real, 0, None, closed="neither")],
}


class SemiSupervisedKSC(ClassifierMixin, _KernelExpansion, BaseEstimator):
    r"""Semi-supervised binary kernel spectral clustering.

    ``fit(X, y)`` (-1 = unlabelled, labelled points of two classes) solves, with the kernel
    :func:`ksc_kernel` over all rows of X and the paper's labels :math:`y\in\{-1, 0, +1\}^M`,

    .. math:: \bigl(I_M - (\gamma D^{-1} - \rho A) M_S\Omega\bigr)\alpha = \rho M_S^T y,
       \qquad b = -\tfrac1c\bigl(1_M^T(\gamma D^{-1} - \rho A)\Omega\alpha + \rho 1_M^T y\bigr),

    eqs. (8) and (9) (:func:`solve_semi_ksc`); the training projections are
    :math:`e = \Omega\alpha + b1_M` (10), a new point gets :math:`\mathrm{sign}(\hat e(x))`,
    :math:`\hat e(x) = \theta(x)^T\alpha + b` (11), and :meth:`alpha_hat` is the localised
    solution (15) that model selection scores (:func:`select_semi_ksc`).

    Fitted attributes: ``classes_`` (sorted; ``classes_[1]`` is the paper's +1), ``X_fit_``,
    ``y_paper_`` (labels in {-1, 0, +1}), ``alpha_``, ``b_``, ``c_``, ``rcond_`` (as
    :func:`solve_semi_ksc`), ``e_`` (10) and ``transduction_`` (the class of its sign).

    Parameters
    ----------
    sigma2 : float, default 1.0
        The paper's :math:`\sigma^2 > 0` of :func:`ksc_kernel`.
    rho : float in (0, 1], default 0.5
        :math:`\rho`, the weight of the labelled term (Sect. III-C's range).
    gamma : float, default 1.0
        :math:`\gamma > 0`, the weight of the clustering term (the paper's 1).

    Notes
    -----
    ``fit``: the kernel in :math:`O(M^2d)`, then :func:`solve_semi_ksc`'s :math:`O(M^2)`
    assembly and :math:`\tfrac23M^3` LU; memory two M x M arrays. :meth:`predict`,
    :meth:`decision_function` and :meth:`alpha_hat`: :math:`O(pMd)` and a (p, M) kernel matrix.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``, as a binary
    classifier): all pass but ``check_classifiers_classes``, which passes string labels: labels
    must be numbers, since -1 marks unlabelled points (scikit-learn gives its own
    semi-supervised estimators numeric labels in that check).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.ksc import SemiSupervisedKSC, fisher_criterion
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2, 0.5, (10, 2)), rng.normal(2, 0.5, (10, 2))])
    >>> y = np.full(20, -1)
    >>> y[0], y[10] = 3, 7  # one label per cloud; 7 is the positive class
    >>> model = SemiSupervisedKSC(sigma2=2.0, rho=0.5).fit(X, y)
    >>> model.transduction_
    array([3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7])
    >>> model.predict([[-2.0, -2.0], [-1.5, -2.5], [2.0, 2.0]])
    array([3, 3, 7])
    >>> bool(np.isclose(model.alpha_.sum(), 0.0, atol=1e-10))  # 1^T alpha = 0, eq. (7)
    True
    >>> bool(np.allclose(model.decision_function(X), model.e_))  # (11) at the training points is (10)
    True
    >>> X_val = np.vstack([rng.normal(-2, 0.5, (5, 2)), rng.normal(2, 0.5, (5, 2))])
    >>> a_hat = model.alpha_hat(X_val)  # eq. (15): localised, nearly constant per cluster
    >>> np.sign(a_hat).astype(int).tolist(), bool(fisher_criterion(a_hat) > 0.9)
    ([-1, -1, -1, -1, -1, 1, 1, 1, 1, 1], True)
    """

    _parameter_constraints: dict = dict(_KSC_PARAMETERS)

    def __init__(self, sigma2=1.0, rho=0.5, gamma=1.0):
        self.sigma2 = sigma2
        self.rho = rho
        self.gamma = gamma

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        r"""Solve eqs. (8)-(10) on all rows of ``X`` (-1 in ``y`` = unlabelled; two numeric classes).

        A ValueError for invalid data or parameters, or when c = 0 or the system (8) is singular
        or ill-conditioned (the message names gamma, rho and c). Cost
        :math:`O(M^2d + \tfrac23M^3)`, memory two M x M arrays.
        """
        X, y = validate_fit_data(self, X, y, min_samples=2)
        self.classes_, yp = _binary_labels(y, X.shape[0])
        Omega = ksc_kernel(X, sigma2=self.sigma2)
        # the parameters were checked by _fit_context and Omega is a valid kernel: no re-validation
        self.alpha_, self.b_, info = _solve_dual(Omega, yp, float(self.gamma), float(self.rho))
        self.c_, self.rcond_ = info.c, info.rcond
        self.X_fit_ = X
        self.y_paper_ = yp
        self.e_ = Omega @ self.alpha_ + self.b_
        self.transduction_ = self.classes_[(self.e_ >= 0).astype(int)]
        return self

    def predict(self, X):
        r"""The class of the sign of :math:`\hat e(x)` (11); 0 gives ``classes_[1]``."""
        check_is_fitted(self, "alpha_")
        return self.classes_[(self.decision_function(X) >= 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only: OneVsRestSemiKSC for more classes
        return tags

    def alpha_hat(self, X):
        r"""The localised out-of-sample solution (15) of the points X.

        .. math:: \hat\alpha_{val} = \gamma D_{val}^{-1}(\Omega_{val}\alpha + b1_{N_v}),
           \qquad \deg(x) = \sum_{j=1}^M K(x, x_j),

        the KKT link :math:`\alpha = (\gamma D^{-1} - \rho A)e + \rho y` of eq. (7) applied to the
        out-of-sample projections (13) of unlabelled points. A ValueError when a point is so far
        from every training point that its degree underflows to 0. Cost :math:`O(N_vMd)`.
        """
        K = self._kernel(X)
        deg = K.sum(axis=1)
        if np.any(deg <= 0):
            far = np.flatnonzero(deg <= 0)
            raise ValueError(
                f"Rows {far[:5].tolist()} of X are so far from every training point that their kernel "
                "degrees underflow to 0, where eq. (15) of Alzate & Suykens (2012) divides by the degree; "
                "use a larger sigma2 or drop those points."
            )
        return self.gamma * (K @ self.alpha_ + self.b_) / deg


def select_semi_ksc(X, y, X_val, *, sigma2_grid, rho_grid, gamma=1.0, eta_u=0.25):
    r"""Grid search of (sigma2, rho) maximising the SSF criterion (17) on validation data.

    Each grid point solves (8)-(9) on X, y and is scored by :func:`ssf_criterion`,

    .. math:: \mathrm{SSF}(\sigma^2, \rho) = \eta_U F(\hat\alpha_{val})
       + (1 - \eta_U)\,\mathrm{accuracy}(\mathrm{sign}(e_L), y_L),
       \qquad \hat\alpha_{val} = \gamma D_{val}^{-1}(\Omega_{val}\alpha + b1_{N_v}),

    with F the Fisher criterion (16) of the localised solution (15) of the unlabelled
    ``X_val`` (footnote 2: no validation labels). Grid points where :func:`solve_semi_ksc`
    would refuse the system score ``nan`` and are skipped. Scores within a relative 1e-9 of the
    best are tied, and the first grid point (in the order given, sigma2 outer) wins.

    ``X``, ``y`` as :meth:`SemiSupervisedKSC.fit`; ``sigma2_grid`` (each > 0) and ``rho_grid``
    (each in (0, 1]); ``gamma`` fixed; ``eta_u`` in [0, 1]. Returns a Bunch: ``sigma2``, ``rho``,
    ``score``, ``scores`` (len(sigma2_grid), len(rho_grid)) and ``estimator``, fitted at the
    best point; a ValueError for invalid inputs or when (8) is singular at every grid point.

    Notes
    -----
    S values of :math:`\sigma^2`, R of :math:`\rho`: squared distances once,
    :math:`O((M^2 + MN_v)d)`; per :math:`\sigma^2` two kernels, :math:`O(M^2 + MN_v)`; per grid
    point an :math:`O(M^2)` assembly, a :math:`\tfrac23M^3` LU and :math:`O(MN_v)` for
    :math:`\hat\alpha_{val}`: :math:`O(SRM^3)` in all for :math:`N_v \lesssim M`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.ksc import select_semi_ksc
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2, 0.5, (10, 2)), rng.normal(2, 0.5, (10, 2))])
    >>> y = np.full(20, -1)
    >>> y[0], y[10] = 0, 1
    >>> X_val = np.vstack([rng.normal(-2, 0.5, (10, 2)), rng.normal(2, 0.5, (10, 2))])
    >>> sel = select_semi_ksc(X, y, X_val, sigma2_grid=[0.5, 2.0, 8.0], rho_grid=[0.25, 0.5, 1.0])
    >>> sel.sigma2, sel.rho, round(float(sel.score), 3), sel.scores.shape
    (2.0, 0.25, 1.0, (3, 3))
    >>> sel.estimator.predict([[-2.0, -2.0], [2.0, 2.0]])
    array([0, 1])
    """
    X = check_data(X, name="X", min_samples=2)
    X_val = check_data(X_val, name="X_val")
    if X_val.shape[1] != X.shape[1]:
        raise ValueError(f"X_val has {X_val.shape[1]} features but X has {X.shape[1]}.")
    classes, yp = _binary_labels(y, X.shape[0])
    sigma2_grid = [float(s) for s in check_vector(sigma2_grid, "sigma2_grid", low=0, strict_low=True)]
    rho_grid = [float(r) for r in check_vector(rho_grid, "rho_grid")]
    for r in rho_grid:
        _check_gamma_rho(gamma, r)
    eta_u = _check_eta_u(eta_u)
    D2, D2_val = squared_distances(X), squared_distances(X_val, X)
    scores = _ssf_grid(
        lambda s2: (np.exp(-D2 / s2), np.exp(-D2_val / s2)), sigma2_grid, yp, rho_grid, gamma, eta_u
    )
    i, j = np.unravel_index(first_best(scores), scores.shape)
    est = SemiSupervisedKSC(sigma2=sigma2_grid[i], rho=rho_grid[j], gamma=gamma).fit(X, y)
    return Bunch(sigma2=sigma2_grid[i], rho=rho_grid[j], score=scores[i, j], scores=scores, estimator=est)


def _ssf_grid(kernels_at, grid, yp, rho_grid, gamma, eta_u, on_solution=None):
    """SSF (17) at every (grid[i], rho_grid[j]); nan where eq. (8) is refused.

    ``kernels_at(grid[i])`` gives the training and validation kernels (Omega, K_val);
    ``on_solution(i, j, alpha, b)``, if given, sees every solution (Chapter 4's diagnostic).
    """
    labeled = yp != 0
    scores = np.full((len(grid), len(rho_grid)), np.nan)
    for i, s2 in enumerate(grid):
        Omega, Kval = kernels_at(s2)
        dval = Kval.sum(axis=1)
        if np.any(dval <= 0):
            raise ValueError(
                f"At sigma2 = {s2:g} some validation points are so far from every training point "
                "that their kernel degrees underflow to 0, where eq. (15) divides by the degree; use "
                "a larger sigma2 grid or drop those points."
            )
        for j, r in enumerate(rho_grid):
            try:
                alpha, b, _ = _solve_dual(Omega, yp, gamma, r)
            except ValueError:
                continue
            a_hat = gamma * (Kval @ alpha + b) / dval  # eq. (15)
            scores[i, j] = _ssf(a_hat, Omega[labeled] @ alpha + b, yp[labeled], eta_u)
            if on_solution is not None:
                on_solution(i, j, alpha, b)
    if np.all(np.isnan(scores)):
        raise ValueError("The system (8) was singular at every grid point; widen the grids.")
    return scores


class OneVsRestSemiKSC(ClassifierMixin, _KernelExpansion, BaseEstimator):
    r"""Multi-class Semi-KSC by one-vs-rest (the paper's future work, Sect. V).

    With :math:`y^{(c)}_i` = +1 for the labelled points of class c, -1 for the other labelled
    points and 0 for the rest, each column solves eqs. (8) and (9) on one kernel, and a point
    goes to the class of the largest out-of-sample projection (11):

    .. math:: \bigl(I_M - (\gamma D^{-1} - \rho A) M_S\Omega\bigr)\alpha^{(c)}
       = \rho M_S^T y^{(c)}, \qquad
       \hat y(x) = \arg\max_c\ \theta(x)^T\alpha^{(c)} + b^{(c)}

    (ties within a relative 1e-9 to the first class). :math:`A`, hence :math:`M_S`, c and the
    matrix, is the same for every class, so it is factorised once for the C right-hand sides.
    Parameters as :class:`SemiSupervisedKSC`; ``alpha_`` (M, C), ``b_`` (C,), ``e_`` (M, C)
    hold one column per class; :meth:`decision_function` returns (p, C), or for two classes,
    as scikit-learn, the second column minus the first.

    Notes
    -----
    ``fit``: the kernel :math:`O(M^2d)`, one assembly and one :math:`\tfrac23M^3` LU, then
    :math:`O(CM^2)` for the C right-hand sides. :meth:`predict` and
    :meth:`decision_function`: :math:`O(pM(d + C))` and a (p, M) kernel matrix.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers, since -1
    marks unlabelled points (scikit-learn gives its own semi-supervised estimators numeric
    labels in that check).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.ksc import OneVsRestSemiKSC
    >>> rng = np.random.default_rng(0)
    >>> centers = [(-2.0, 0.0), (2.0, 0.0), (0.0, 3.0)]
    >>> X = np.vstack([rng.normal(c, 0.4, (8, 2)) for c in centers])
    >>> y = np.full(24, -1)
    >>> y[[0, 8, 16]] = [5, 6, 7]
    >>> model = OneVsRestSemiKSC(sigma2=2.0, rho=0.5).fit(X, y)
    >>> model.transduction_.tolist()
    [5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7]
    >>> model.predict(centers), model.decision_function(centers).shape
    (array([5, 6, 7]), (3, 3))
    >>> bool(np.allclose(model.alpha_.sum(axis=0), 0.0, atol=1e-10))  # 1^T alpha = 0, eq. (7)
    True
    >>> binary = OneVsRestSemiKSC(sigma2=2.0, rho=0.5).fit(X[:16], y[:16])
    >>> (binary.decision_function(centers[:2]) > 0).tolist()
    [False, True]
    """

    _parameter_constraints: dict = dict(_KSC_PARAMETERS)

    def __init__(self, sigma2=1.0, rho=0.5, gamma=1.0):
        self.sigma2 = sigma2
        self.rho = rho
        self.gamma = gamma

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        r"""Solve eq. (8) once per class, with one LU factorisation; biases (9), projections (10).

        A ValueError for invalid data (one class only, non-numeric labels) or parameters, or when
        c = 0 or the system is singular. Cost :math:`O(M^2d + \tfrac23M^3 + CM^2)`.
        """
        X, y = validate_fit_data(self, X, y, min_samples=2)
        y, labeled, self.classes_, _ = check_labels(y, X.shape[0], min_classes=2, who="OneVsRestSemiKSC")
        gamma, rho = float(self.gamma), float(self.rho)  # checked by _fit_context
        Omega = ksc_kernel(X, sigma2=self.sigma2)
        # A (the labelled points) is the same for every class, so g, c and the matrix of
        # eq. (8) are too: one LU factorisation, one right-hand side per class.
        Y = np.column_stack([np.where(labeled, np.where(y == cls, 1.0, -1.0), 0.0) for cls in self.classes_])
        g, c = _semi_ksc_parts(Omega, Y[:, 0], gamma, rho)
        H, _ = _assemble(Omega, g, c, Y[:, 0], rho)
        R = rho * (Y - np.outer(g / c, Y.sum(axis=0)))
        self.alpha_, _ = _lu_solve_or_refuse(H, R, gamma, rho, c)
        self.b_ = -(g @ (Omega @ self.alpha_) + rho * Y.sum(axis=0)) / c
        self.X_fit_ = X
        self.e_ = Omega @ self.alpha_ + self.b_
        self.transduction_ = self.classes_[argmax_rows(self.e_)]
        return self

    def decision_function(self, X):
        r"""Projections (11) :math:`\hat e^{(c)}(x)`, (p, C); for two classes (p,), second minus first."""
        E = self._kernel(X) @ self.alpha_ + self.b_
        return E[:, 1] - E[:, 0] if E.shape[1] == 2 else E

    def predict(self, X):
        """The class of the largest projection (11); a relative 1e-9 is a tie, won by the first."""
        E = self._kernel(X) @ self.alpha_ + self.b_  # checks that the model is fitted
        return self.classes_[argmax_rows(E)]


# ----------------------------------------------------------------------------------------
# LapSVM (Belkin, Niyogi & Sindhwani, 2006)
# ----------------------------------------------------------------------------------------


def _knn_laplacian(X, n_neighbors):
    """L = D - W of the symmetrised binary k-NN graph (sparse), from the book's one k-NN builder
    (:func:`sslteach.graphs.knn_graph`, ties at the k-th distance included)."""
    W = knn_graph(X, n_neighbors, weights="connectivity")
    return sp.csr_matrix(sp.diags(np.asarray(W.sum(axis=1)).ravel()) - W)


class LapSVM(ClassifierMixin, _KernelExpansion, BaseEstimator):
    r"""Laplacian SVM (Belkin et al., 2006, Sect. 4.2), solved through its dual QP.

    Minimises over :math:`f(x) = \sum_i \alpha_i K(x_i, x) + b`

    .. math:: \frac1l\sum_{i\le l}\max(0, 1 - y_i f(x_i)) + \gamma_A\alpha^TK\alpha
       + \frac{\gamma_I}{n^2}\alpha^TKLK\alpha,

    with :math:`L = D - W` of the binary, symmetrised k-NN graph over all n points. With
    :math:`J = [I_l\ 0]` picking the l labelled points, :math:`Y` their labels :math:`\pm1` on
    a diagonal and :math:`S = 2\gamma_AI + 2\frac{\gamma_I}{n^2}LK`, the dual is
    :math:`\max_\beta 1^T\beta - \frac12\beta^TQ\beta` subject to :math:`0\le\beta_i\le 1/l`,
    :math:`y^T\beta = 0`, where :math:`Q = YJKS^{-1}J^TY`; then :math:`\alpha = S^{-1}J^TY\beta`
    and b comes from the free support vectors (:math:`y_if(x_i) = 1`), else the middle of its
    feasible interval. The baseline of Alzate & Suykens (Sect. IV), with their
    :math:`\gamma_I = 1` and k = 6.

    Fitted attributes: ``classes_`` (``classes_[1]`` where :math:`f(x) \ge 0`), ``alpha_``, ``b_``,
    ``beta_`` (clipped to :math:`[0, 1/l]`), ``dual_objective_`` and ``primal_objective_`` (equal
    to the solver's tolerance), ``decision_train_`` (:math:`f(x_i)`), ``transduction_``, ``lab_``
    and ``y_labeled_`` (the labelled points and their labels in {-1, +1}).

    Parameters
    ----------
    sigma2 : float, default 1.0
        The paper's :math:`\sigma^2 > 0` of :func:`ksc_kernel`.
    gamma_A, gamma_I : float, default 1e-2, 1.0
        The ambient (RKHS norm, > 0) and intrinsic (graph, >= 0) regularisation.
    n_neighbors : int, default 6
        k of the k-NN graph (:func:`sslteach.graphs.knn_graph`, binary, symmetrised, ties at the
        k-th distance included), in [1, n - 1].
    solver : str, default "CLARABEL"
        The cvxpy solver of the dual QP, one of ``cvxpy.installed_solvers()``.

    Notes
    -----
    ``fit``: the kernel :math:`O(n^2d)`, :math:`LK` :math:`O(kn^2)`, one
    :math:`\tfrac23n^3` LU of S solved for l right-hand sides (:math:`O(n^2l)`), Q in
    :math:`O(nl^2)` and an interior-point QP in l variables (:math:`O(l^3)` per iteration);
    memory a few n x n arrays. A ValueError when the QP fails (the message suggests a larger
    ``gamma_A`` or another solver), a UserWarning when it is solved only inaccurately.
    :meth:`predict` and :meth:`decision_function`: :math:`O(pnd)`.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``, as a binary
    classifier): all pass but ``check_classifiers_classes``, which passes string labels: labels
    must be numbers, since -1 marks unlabelled points (scikit-learn gives its own
    semi-supervised estimators numeric labels in that check).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.ksc import LapSVM
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2, 0.5, (10, 2)), rng.normal(2, 0.5, (10, 2))])
    >>> y = np.full(20, -1)
    >>> y[0], y[10] = 0, 1
    >>> model = LapSVM(sigma2=2.0, n_neighbors=3).fit(X, y)
    >>> model.transduction_
    array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    >>> model.predict([[-2.0, -2.0], [-1.5, -2.5], [2.0, 2.0]])
    array([0, 0, 1])
    >>> bool(np.all((model.beta_ >= 0) & (model.beta_ <= 1 / 2)))  # 0 <= beta <= 1/l
    True
    >>> bool(np.isclose(model.primal_objective_, model.dual_objective_, rtol=1e-4))
    True
    """

    _parameter_constraints: dict = {
        "sigma2": [Interval(Real, 0, None, closed="neither")],
        "gamma_A": [Interval(Real, 0, None, closed="neither")],
        "gamma_I": [Interval(Real, 0, None, closed="left")],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "solver": [StrOptions(set(cp.installed_solvers()))],
    }

    def __init__(self, sigma2=1.0, gamma_A=1e-2, gamma_I=1.0, n_neighbors=6, solver="CLARABEL"):
        self.sigma2 = sigma2
        self.gamma_A = gamma_A
        self.gamma_I = gamma_I
        self.n_neighbors = n_neighbors
        self.solver = solver

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Solve the dual QP on all rows of ``X`` (-1 in ``y`` = unlabelled; two numeric classes; n >= 3)."""
        X, y = validate_fit_data(self, X, y, min_samples=3)
        n = X.shape[0]
        self.classes_, yp = _binary_labels(y, n, "LapSVM")
        gA, gI = float(self.gamma_A), float(self.gamma_I)  # checked by _parameter_constraints
        k = check_int(self.n_neighbors, "n_neighbors", low=1, high=n - 1, high_hint=f"There are {n} points.")
        sol = _lapsvm_solve(ksc_kernel(X, sigma2=self.sigma2), _knn_laplacian(X, k), yp, gA, gI, self.solver)
        self.alpha_, self.b_, self.beta_ = sol.alpha, sol.b, sol.beta
        self.dual_objective_, self.primal_objective_ = sol.dual, sol.primal
        self.decision_train_ = sol.f
        self.lab_, self.y_labeled_ = sol.lab, sol.yl
        self.X_fit_ = X
        self.transduction_ = self.classes_[(sol.f >= 0).astype(int)]
        return self

    def predict(self, X):
        r"""The class of :math:`\mathrm{sign} f(x)`: ``classes_[1]`` where :math:`f(x) \ge 0`."""
        check_is_fitted(self, "alpha_")
        return self.classes_[(self.decision_function(X) >= 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only: OneVsRestSemiKSC for more classes
        return tags


def _lapsvm_solve(K, L, yp, gA, gI, solver="CLARABEL"):
    """The dual QP of LapSVM for a kernel matrix K, a sparse Laplacian L and labels yp in {-1, 0, +1}."""
    lu, piv = _lapsvm_factor(K, L, gA, gI)
    return _lapsvm_dual(K, L, yp, gA, gI, lu, piv, solver)


def _lapsvm_factor(K, L, gA, gI):
    """LU factors of S = 2 gamma_A I + (2 gamma_I / n^2) L K, the labels' no part of it (O(n^3)).

    A (nearly) singular S (gamma_A tiny against gamma_I L K, whose null space holds the constant
    vector) is refused, not solved to noise.
    """
    n = K.shape[0]
    S = (2.0 * gI / n**2) * (L @ K)
    S.flat[:: n + 1] += 2.0 * gA
    lu, piv, info = scipy.linalg.lapack.dgetrf(S)
    rcond = scipy.linalg.lapack.dgecon(lu, np.abs(S).sum(axis=0).max(), norm="1")[0] if info == 0 else 0.0
    if info != 0 or not rcond >= RCOND_LIMIT:
        raise ValueError(
            f"LapSVM's system 2 gamma_A I + 2 gamma_I / n^2 L K is singular or ill-conditioned "
            f"(reciprocal condition number below {RCOND_LIMIT:.0e}) for gamma_A = {gA:g}, "
            f"gamma_I = {gI:g}: use a larger gamma_A (about 1e-6 or more) or a smaller gamma_I."
        )
    return lu, piv


def _lapsvm_dual(K, L, yp, gA, gI, lu, piv, solver="CLARABEL"):
    """LapSVM's dual QP in the labelled variables, given :func:`_lapsvm_factor`'s LU of S."""
    n = K.shape[0]
    lab = np.flatnonzero(yp != 0)
    yl = yp[lab]
    l_ = lab.size
    JY = np.zeros((n, l_))
    JY[lab, np.arange(l_)] = yl
    G = scipy.linalg.lapack.dgetrs(lu, piv, JY)[0]  # alpha = G beta
    Q = K[lab] @ G * yl[:, None]
    Q = (Q + Q.T) / 2.0
    beta = cp.Variable(l_)
    prob = cp.Problem(
        cp.Maximize(cp.sum(beta) - 0.5 * cp.quad_form(beta, cp.psd_wrap(Q))),
        [beta >= 0, beta <= 1.0 / l_, yl @ beta == 0],
    )
    try:
        prob.solve(solver=solver)
    except cp.error.SolverError as exc:
        raise ValueError(
            f"The LapSVM dual QP failed in {solver} ({exc}). The problem is badly scaled for "
            f"gamma_A = {gA:g}, gamma_I = {gI:g}: use gamma_A of at least about 1e-6 or another solver."
        ) from exc
    if prob.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
        raise ValueError(f"The LapSVM dual QP ended with status {prob.status!r}.")
    if prob.status == cp.OPTIMAL_INACCURATE:
        warnings.warn("The LapSVM dual QP was solved inaccurately.", UserWarning, stacklevel=3)
    bt = np.clip(np.asarray(beta.value).ravel(), 0.0, 1.0 / l_)
    alpha = G @ bt
    b = _svm_bias(K[lab] @ alpha, yl, bt, 1.0 / l_)
    f = K @ alpha + b
    primal = (
        np.mean(np.maximum(0.0, 1.0 - yl * f[lab]))
        + gA * alpha @ K @ alpha
        + gI / n**2 * alpha @ (K @ (L @ (K @ alpha)))
    )
    return Bunch(
        alpha=alpha,
        b=b,
        beta=bt,
        f=f,
        lab=lab,
        yl=yl,
        dual=float(bt.sum() - 0.5 * bt @ Q @ bt),
        primal=float(primal),
    )


def _svm_bias(f0, y, beta, C, tol=1e-6):
    r"""b from the KKT conditions: mean over free SVs of :math:`y_i - f_0(x_i)`, else the
    middle of :math:`[\max_{lower}, \min_{upper}]` (as LIBSVM does)."""
    free = (beta > tol * C) & (beta < (1 - tol) * C)
    r = y - f0
    if free.any():
        return float(np.mean(r[free]))
    # beta = 0 needs y f >= 1, beta = C needs y f <= 1; as bounds on b:
    at0, atC = beta <= tol * C, ~(beta <= tol * C)
    lo = np.concatenate([r[at0 & (y > 0)], r[atC & (y < 0)]])
    hi = np.concatenate([r[at0 & (y < 0)], r[atC & (y > 0)]])
    lo_v = lo.max() if lo.size else -np.inf
    hi_v = hi.min() if hi.size else np.inf
    if np.isfinite(lo_v) and np.isfinite(hi_v):
        return float((lo_v + hi_v) / 2)
    return float(lo_v if np.isfinite(lo_v) else hi_v)
