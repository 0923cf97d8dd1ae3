r"""Kernel spectral clustering and its semi-supervised form (Alzate & Suykens, 2012), and LapSVM.

Chapter 4 of the book. The pieces:

* :func:`kernel_spectral_clustering`: the core model (Sect. II), the eigenproblem (3)
  :math:`D^{-1}M_D\Omega\alpha = \lambda\alpha` solved through an equivalent symmetric one.
* :func:`semi_ksc_system` and :func:`solve_semi_ksc`: the dual linear system (8) and the
  bias (9), assembled in :math:`O(M^2)` from the diagonal and rank-one structure of
  :math:`\gamma D^{-1} - \rho A` and :math:`M_S` (never a dense M x M product).
* :class:`SemiSupervisedKSC`: the classifier (projections (10), out-of-sample model (11),
  localised solution (15)), with :func:`fisher_criterion`, :func:`ssf_criterion` (16)-(17)
  and :func:`select_semi_ksc`, the grid search on validation data.
* :class:`OneVsRestSemiKSC`: the multi-class extension the paper leaves to future work.
* :class:`LapSVM`: the Laplacian SVM of Belkin, Niyogi & Sindhwani (2006), the paper's
  baseline, through its dual QP (cvxpy).

Kernels follow the paper (and LS-SVMlab): :math:`K(x, z) = \exp(-\lVert x - z\rVert^2/\sigma^2)`,
called ``sigma2`` here. In the book's convention (:func:`sslteach.kernels.rbf_kernel`) this
is ``sigma = sqrt(sigma2 / 2)``.

Labels: the low-level functions take the paper's ``y`` in {-1, 0, +1} (0 = unlabelled); the
estimators take scikit-learn's (-1 = unlabelled, any two class labels).
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import cvxpy as cp
import numpy as np
import scipy.linalg
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.neighbors import kneighbors_graph
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._decisions import argmax_rows, first_best, orient_columns
from ._validation import (
    check_data,
    check_indices,
    check_int,
    check_labels,
    check_positive,
    check_square,
    validate_fit_data,
)
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
    "evaluate_protocol",
]

#: reciprocal condition number below which eq. (8) is refused as numerically singular
RCOND_LIMIT = 1e-12


def ksc_kernel(X, Y=None, *, sigma2):
    r"""The paper's RBF kernel :math:`\exp(-\lVert x_i - y_j\rVert^2/\sigma^2)`.

    Equal to :func:`sslteach.kernels.rbf_kernel` with ``sigma = sqrt(sigma2 / 2)``.
    Time :math:`O(npd)`, one (n, p) array.
    """
    sigma2 = check_positive(sigma2, "sigma2")
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
    r"""Core binary/multiway kernel spectral clustering, Sect. II of Alzate & Suykens (2012).

    Solves the dual eigenproblem (3) with :math:`V = D^{-1}`,
    :math:`D^{-1}M_D\Omega\alpha = \lambda\alpha`, for the :math:`n_e = k - 1` largest
    eigenvalues. :math:`D^{-1}M_D = D^{-1/2}(I - uu^T)D^{-1/2}` with
    :math:`u = D^{-1/2}1/\lVert D^{-1/2}1\rVert`, so with :math:`P = I - uu^T` the
    eigenvectors are :math:`\alpha = D^{-1/2}z` for the top eigenvectors :math:`z` of the
    symmetric matrix :math:`P D^{-1/2}\Omega D^{-1/2} P` (the same non-zero eigenvalues).

    Parameters
    ----------
    Omega : array of shape (N, N)
        Symmetric kernel matrix with non-negative entries.
    n_clusters : int
        k >= 2; the model has k - 1 projections.

    Returns
    -------
    Bunch with ``eigvals`` (k-1,), descending; ``alpha`` (N, k-1), unit-norm columns with
    the largest-magnitude entry positive; ``b`` (k-1,), the biases
    :math:`b_l = -1^TD^{-1}\Omega\alpha^{(l)}/1^TD^{-1}1`; ``e`` (N, k-1), the projections
    :math:`M_D\Omega\alpha^{(l)}`; ``codebook`` (k, k-1) in {-1, +1}, the k most frequent
    sign patterns of ``e``; ``labels`` (N,), the index of the nearest codeword (Hamming
    distance, ties to the more frequent one).

    Notes
    -----
    A dense ``eigh``: time :math:`O(N^3)`, memory a few N x N arrays (the training sets of
    the paper have N = 600).
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
            f"rho must be in (0, 1] (Sect. III-C: a larger rho can flip the sign of alpha on the "
            f"labelled points); got {rho}."
        )
    return gamma, rho


def _semi_ksc_parts(Omega, y, gamma, rho):
    r"""g = diag(gamma D^{-1} - rho A), c = 1^T g and Omega g, all in O(M^2)."""
    deg = _degrees(Omega)
    g = gamma / deg - rho * (y != 0)
    c = g.sum()
    if abs(c) <= 1e-12 * np.abs(g).sum():
        raise ValueError(
            f"c = 1^T(gamma D^-1 - rho A)1 is zero (to round-off: |c| <= 1e-12 sum|g|) for "
            f"gamma = {gamma}, rho = {rho}: the centering matrix M_S of eq. (8) is undefined. "
            "Change rho slightly."
        )
    return g, c


def semi_ksc_system(Omega, y, *, gamma=1.0, rho):
    r"""The matrix and right-hand side of the dual linear system, eq. (8) of Alzate & Suykens (2012).

    .. math:: \bigl(I_M - (\gamma D^{-1} - \rho A) M_S\Omega\bigr)\alpha = \rho M_S^T y,
       \qquad M_S = I_M - \tfrac1c 1_M 1_M^T(\gamma D^{-1} - \rho A).

    With :math:`g = \mathrm{diag}(\gamma D^{-1} - \rho A)` and :math:`c = 1^Tg` this is
    :math:`H = I - \mathrm{diag}(g)\Omega + \tfrac1c g(\Omega g)^T` and
    :math:`r = \rho(y - \tfrac{1^Ty}{c}g)`: a row scaling, one matrix-vector product and a
    rank-one update.

    Parameters
    ----------
    Omega : array of shape (M, M)
        Symmetric kernel matrix with non-negative entries over all M training points
        (unlabelled and labelled, in any order).
    y : array of shape (M,)
        +1 or -1 for labelled points, 0 for unlabelled.
    gamma : float, default 1.0
    rho : float in (0, 1]

    Returns
    -------
    H : ndarray (M, M), r : ndarray (M,)

    Notes
    -----
    Time :math:`O(M^2)`, memory one M x M array besides ``Omega``. :math:`M_S` and
    :math:`\gamma D^{-1} - \rho A` are never formed.
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

    .. math:: b = -\tfrac1c\bigl(1^T(\gamma D^{-1} - \rho A)\Omega\alpha + \rho 1^T y\bigr)

    The training projections (10) are then ``Omega @ alpha + b``.

    Parameters are as in :func:`semi_ksc_system`. With ``return_info=True`` a third value,
    a Bunch with ``c``, ``rcond`` (LAPACK's estimate of the reciprocal condition number in
    the 1-norm) and ``g`` (the diagonal of :math:`\gamma D^{-1} - \rho A`), is returned.

    Raises
    ------
    ValueError
        When c = 0, or when the system is singular or ill-conditioned (rcond below
        ``RCOND_LIMIT``); the message names gamma, rho and c.

    Notes
    -----
    Assembly :math:`O(M^2)`, an in-place LU factorisation :math:`\tfrac23 M^3` and a
    condition estimate :math:`O(M^2)`: peak memory ``Omega`` plus one M x M array.
    """
    Omega = check_square(Omega, name="Omega", symmetric=True)
    y = _check_ksc_labels(y, Omega.shape[0])
    gamma, rho = _check_gamma_rho(gamma, rho)
    g, c = _semi_ksc_parts(Omega, y, gamma, rho)
    alpha, rcond = _solve_assembled(*_assemble(Omega, g, c, y, rho), gamma, rho, c)
    b = -(g @ (Omega @ alpha) + rho * y.sum()) / c
    if return_info:
        return alpha, b, Bunch(c=c, rcond=rcond, g=g)
    return alpha, b


def _max_row_sum(H, block=1024):
    """max row sum of |H|, in row blocks (no M x M temporary)."""
    return max(np.abs(H[i : i + block]).sum(axis=1).max() for i in range(0, H.shape[0], block))


def _solve_assembled(H, r, gamma, rho, c):
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
    r"""The binary Fisher criterion, eq. (16), of an out-of-sample solution :math:`\hat\alpha`.

    Clusters :math:`\mathcal A_\pm` are the signs of ``alpha_hat`` (0 counts as +). The paper
    uses :math:`\zeta_\pm` both for the cluster weights (its footnote 3:
    :math:`|\mathcal A_\pm|/N_v`) and for the cluster variances; our reading weights the
    variances too:

    .. math:: s_B = \sum_\pm w_\pm(\hat\mu_\pm - \hat\mu)^2,\quad
       s_W = \sum_\pm w_\pm \hat\sigma^2_\pm,\quad w_\pm = |\mathcal A_\pm|/N_v,

    so that :math:`s_B + s_W` is the variance of :math:`\hat\alpha` and
    :math:`F = s_B/(s_B + s_W)` is the share of it explained by the split, in [0, 1].
    F is 0 when one cluster is empty or :math:`\hat\alpha` is constant. Time O(N_v).
    """
    a = np.asarray(alpha_hat, dtype=float).ravel()
    if a.size == 0 or not np.all(np.isfinite(a)):
        raise ValueError("alpha_hat must be a non-empty finite vector.")
    pos = a >= 0
    if pos.all() or not pos.any():
        return 0.0
    mu = a.mean()
    s_b = s_w = 0.0
    for part in (a[pos], a[~pos]):
        w = part.size / a.size
        s_b += w * (part.mean() - mu) ** 2
        s_w += w * part.var()
    total = s_b + s_w
    return float(s_b / total) if total > 0 else 0.0


def ssf_criterion(alpha_hat_val, e_labeled, y_labeled, *, eta_u=0.25):
    r"""The semi-supervised Fisher criterion, eq. (17).

    .. math:: \mathrm{SSF} = \eta_U F(\hat\alpha_{val})
       + (1 - \eta_U)\,\mathrm{accuracy}(\mathrm{sign}(e_L), y_L),

    with F from :func:`fisher_criterion`, ``e_labeled`` the projections of the labelled
    training points and ``y_labeled`` their labels in {-1, +1}.
    """
    eta_u = float(eta_u)
    if not 0.0 <= eta_u <= 1.0:
        raise ValueError(f"eta_u must be in [0, 1]; got {eta_u}.")
    e = np.asarray(e_labeled, dtype=float).ravel()
    yl = np.asarray(y_labeled).ravel()
    if e.shape != yl.shape or e.size == 0:
        raise ValueError("e_labeled and y_labeled must be non-empty and of the same length.")
    acc = float(np.mean(np.where(e >= 0, 1, -1) == yl))
    return eta_u * fisher_criterion(alpha_hat_val) + (1.0 - eta_u) * acc


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

    With :math:`\theta(x) = [K(x_1, x), \dots, K(x_n, x)]^T` over the training points this is
    eq. (11) of Alzate & Suykens (2012) (``alpha_`` of shape (n,)) or one column per class
    (shape (n, C)); for LapSVM it is :math:`f(x)`. Time O(p n d) for p points.
    """

    def _kernel(self, X):
        check_is_fitted(self, "alpha_")
        X = validate_fit_data(self, X, reset=False)
        return ksc_kernel(X, self.X_fit_, sigma2=self.sigma2)

    def decision_function(self, X):
        r"""The projections :math:`\hat e(x) = \theta(x)^T\alpha + b`, shape (p,): positive means
        ``classes_[1]``."""
        return self._kernel(X) @ self.alpha_ + self.b_


_KSC_PARAMETERS = {
    "sigma2": [Interval(Real, 0, None, closed="neither")],
    "rho": [Interval(Real, 0, 1, closed="right")],
    "gamma": [Interval(Real, 0, None, closed="neither")],
}


class SemiSupervisedKSC(ClassifierMixin, _KernelExpansion, BaseEstimator):
    r"""Semi-supervised binary kernel spectral clustering (Alzate & Suykens, 2012).

    ``fit(X, y)`` (``y = -1`` for unlabelled points, labelled points of two classes) solves
    the dual system (8) on all rows of X with the RBF kernel
    :math:`\exp(-\lVert x - z\rVert^2/\sigma^2)`; the second class of ``classes_`` is the
    positive one.

    Parameters
    ----------
    sigma2 : float, default 1.0
        :math:`\sigma^2` of the kernel.
    rho : float in (0, 1], default 0.5
    gamma : float, default 1.0
        The paper fixes it to 1 (Sect. III-C).

    Attributes
    ----------
    classes_, X_fit_, alpha_ (M,), b_ (float), c_ (float), rcond_ (float),
    e_ (M,) the training projections (10), transduction_ (M,) the class of sign(e).

    Notes
    -----
    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``, as a binary
    classifier): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers,
    since -1 marks unlabelled points (scikit-learn gives its own semi-supervised
    estimators numeric labels in that check).
    """

    _parameter_constraints: dict = dict(_KSC_PARAMETERS)

    def __init__(self, sigma2=1.0, rho=0.5, gamma=1.0):
        self.sigma2 = sigma2
        self.rho = rho
        self.gamma = gamma

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_fit_data(self, X, y, min_samples=2)
        self.classes_, yp = _binary_labels(y, X.shape[0])
        Omega = ksc_kernel(X, sigma2=self.sigma2)
        self.alpha_, self.b_, info = solve_semi_ksc(
            Omega, yp, gamma=self.gamma, rho=self.rho, return_info=True
        )
        self.c_, self.rcond_ = info.c, info.rcond
        self.X_fit_ = X
        self.y_paper_ = yp
        self.e_ = Omega @ self.alpha_ + self.b_
        self.transduction_ = self.classes_[(self.e_ >= 0).astype(int)]
        return self

    def predict(self, X):
        """The class of sign(decision_function(X)): ``classes_[1]`` where it is >= 0."""
        check_is_fitted(self, "alpha_")
        return self.classes_[(self.decision_function(X) >= 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only: OneVsRestSemiKSC for more classes
        return tags

    def alpha_hat(self, X):
        r"""The localised out-of-sample solution (15).

        :math:`\hat\alpha = \gamma D_{val}^{-1}(\Omega_{val}\alpha + b1)`, degrees taken over the
        training points.
        """
        K = self._kernel(X)
        return self.gamma * (K @ self.alpha_ + self.b_) / K.sum(axis=1)


def select_semi_ksc(X, y, X_val, *, sigma2_grid, rho_grid, gamma=1.0, eta_u=0.25):
    r"""Grid search of (sigma2, rho) maximising the SSF criterion (17) on validation data.

    For each :math:`\sigma^2` the training and validation kernels are formed once (from
    squared distances computed once); for each :math:`\rho` the system (8) is solved and
    scored by :func:`ssf_criterion` with :math:`\hat\alpha_{val}` of eq. (15) and the training
    projections of the labelled points. Grid points where the system is singular score
    ``nan`` and are skipped. Scores within a relative 1e-9 of the best count as tied, and
    ties go to the first grid point (in the order given).
    ``X_val`` carries no labels (footnote 2 of the paper).

    Returns
    -------
    Bunch with ``sigma2``, ``rho``, ``score`` (the best), ``scores`` (len(sigma2_grid),
    len(rho_grid)) and ``estimator``, a :class:`SemiSupervisedKSC` fitted at the best point.
    """
    X = check_data(X, name="X", min_samples=2)
    X_val = check_data(X_val, name="X_val")
    classes, yp = _binary_labels(y, X.shape[0])
    sigma2_grid = [check_positive(s, "sigma2") for s in np.atleast_1d(sigma2_grid)]
    rho_grid = [float(r) for r in np.atleast_1d(rho_grid)]
    for r in rho_grid:
        _check_gamma_rho(gamma, r)
    scores = _ssf_grid(
        squared_distances(X), squared_distances(X_val, X), yp, sigma2_grid, rho_grid, gamma, eta_u
    )
    i, j = np.unravel_index(first_best(scores), scores.shape)
    est = SemiSupervisedKSC(sigma2=sigma2_grid[i], rho=rho_grid[j], gamma=gamma).fit(X, y)
    return Bunch(sigma2=sigma2_grid[i], rho=rho_grid[j], score=scores[i, j], scores=scores, estimator=est)


def _solve_fast(Omega, yp, gamma, rho):
    """solve_semi_ksc without re-validating Omega and y (for grid searches)."""
    g, c = _semi_ksc_parts(Omega, yp, gamma, rho)
    alpha, _ = _solve_assembled(*_assemble(Omega, g, c, yp, rho), gamma, rho, c)
    return alpha, -(g @ (Omega @ alpha) + rho * yp.sum()) / c


def _ssf_grid(D2, D2_val, yp, sigma2_grid, rho_grid, gamma, eta_u):
    labeled = yp != 0
    scores = np.full((len(sigma2_grid), len(rho_grid)), np.nan)
    for i, s2 in enumerate(sigma2_grid):
        Omega, Kval = np.exp(-D2 / s2), np.exp(-D2_val / s2)
        dval = Kval.sum(axis=1)
        for j, r in enumerate(rho_grid):
            try:
                alpha, b = _solve_fast(Omega, yp, gamma, r)
            except ValueError:
                continue
            a_hat = gamma * (Kval @ alpha + b) / dval
            scores[i, j] = ssf_criterion(a_hat, Omega[labeled] @ alpha + b, yp[labeled], eta_u=eta_u)
    if np.all(np.isnan(scores)):
        raise ValueError("The system (8) was singular at every grid point; widen the grids.")
    return scores


class OneVsRestSemiKSC(ClassifierMixin, _KernelExpansion, BaseEstimator):
    r"""Multi-class Semi-KSC by one-vs-rest (the paper's future work, Sect. V).

    One binary :class:`SemiSupervisedKSC` per class (that class +1, the other labelled
    points -1, all on the same kernel), sharing :math:`\sigma^2` and :math:`\rho`; a point
    goes to the class whose projection :math:`\hat e^{(c)}(x)` is largest. The kernel
    matrix is computed once. Each binary problem needs labels of its class and of another.

    Attributes
    ----------
    classes_, alpha_ (M, C), b_ (C,), e_ (M, C), transduction_ (M,)

    Notes
    -----
    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers,
    since -1 marks unlabelled points (scikit-learn gives its own semi-supervised
    estimators numeric labels in that check).
    """

    _parameter_constraints: dict = dict(_KSC_PARAMETERS)

    def __init__(self, sigma2=1.0, rho=0.5, gamma=1.0):
        self.sigma2 = sigma2
        self.rho = rho
        self.gamma = gamma

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_fit_data(self, X, y, min_samples=2)
        y, labeled, self.classes_, _ = check_labels(y, X.shape[0], min_classes=2, who="OneVsRestSemiKSC")
        gamma, rho = _check_gamma_rho(self.gamma, self.rho)
        Omega = ksc_kernel(X, sigma2=self.sigma2)
        # A (the labelled points) is the same for every class, so g, c and the matrix of
        # eq. (8) are too: one LU factorisation, one right-hand side per class.
        Y = np.column_stack([np.where(labeled, np.where(y == cls, 1.0, -1.0), 0.0) for cls in self.classes_])
        g, c = _semi_ksc_parts(Omega, Y[:, 0], gamma, rho)
        H, _ = _assemble(Omega, g, c, Y[:, 0], rho)
        R = rho * (Y - np.outer(g / c, Y.sum(axis=0)))
        self.alpha_, _ = _solve_assembled(H, R, gamma, rho, c)
        self.b_ = -(g @ (Omega @ self.alpha_) + rho * Y.sum(axis=0)) / c
        self.X_fit_ = X
        self.e_ = Omega @ self.alpha_ + self.b_
        self.transduction_ = self.classes_[argmax_rows(self.e_)]
        return self

    def decision_function(self, X):
        """Projections :math:`\\hat e^{(c)}(x)`, shape (p, C); for two classes, as in
        scikit-learn, shape (p,): the second class's minus the first's."""
        E = self._kernel(X) @ self.alpha_ + self.b_
        return E[:, 1] - E[:, 0] if E.shape[1] == 2 else E

    def predict(self, X):
        """The class of the largest projection, ties to the first class."""
        E = self._kernel(X) @ self.alpha_ + self.b_  # checks that the model is fitted
        return self.classes_[argmax_rows(E)]


# ----------------------------------------------------------------------------------------
# LapSVM (Belkin, Niyogi & Sindhwani, 2006)
# ----------------------------------------------------------------------------------------


def _knn_laplacian(X, n_neighbors):
    """L = D - W of the symmetrised binary k-NN graph (sparse)."""
    W = kneighbors_graph(X, n_neighbors, mode="connectivity", include_self=False)
    W = W.maximum(W.T)
    return sp.csr_matrix(sp.diags(np.asarray(W.sum(axis=1)).ravel()) - W)


class LapSVM(ClassifierMixin, _KernelExpansion, BaseEstimator):
    r"""Laplacian SVM (Belkin, Niyogi & Sindhwani, 2006, Sect. 4.2), solved through its dual QP.

    Minimises over :math:`f(x) = \sum_i \alpha_i K(x_i, x) + b`

    .. math:: \frac1l\sum_{i\le l}\max(0, 1 - y_i f(x_i)) + \gamma_A\alpha^TK\alpha
       + \frac{\gamma_I}{n^2}\alpha^TKLK\alpha,

    with :math:`L = D - W` of the binary, symmetrised k-NN graph over all n points. The
    dual is :math:`\max_\beta 1^T\beta - \frac12\beta^TQ\beta` subject to
    :math:`0\le\beta_i\le 1/l`, :math:`y^T\beta = 0`, where
    :math:`Q = YJK(2\gamma_AI + 2\frac{\gamma_I}{n^2}LK)^{-1}J^TY`, and then
    :math:`\alpha = (2\gamma_AI + 2\frac{\gamma_I}{n^2}LK)^{-1}J^TY\beta`; b comes from the
    free support vectors (:math:`y_if(x_i) = 1`), or the middle of its feasible interval.

    Parameters
    ----------
    sigma2 : float, default 1.0
        RBF kernel :math:`\exp(-\lVert x - z\rVert^2/\sigma^2)` (the chapter's convention).
    gamma_A, gamma_I : float
        Ambient and intrinsic regularisation.
    n_neighbors : int, default 6
    solver : str, default "CLARABEL"

    Attributes
    ----------
    classes_, alpha_ (n,), b_, beta_ (l,), dual_objective_, primal_objective_, transduction_ (n,)

    Notes
    -----
    Time :math:`O(n^3)` for the linear solve with n right-hand sides reduced to l, plus a
    QP in l variables; memory a few n x n arrays.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``, as a binary
    classifier): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers,
    since -1 marks unlabelled points (scikit-learn gives its own semi-supervised
    estimators numeric labels in that check).
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
        """The class of sign(decision_function(X)): ``classes_[1]`` where it is >= 0."""
        check_is_fitted(self, "alpha_")
        return self.classes_[(self.decision_function(X) >= 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only: OneVsRestSemiKSC for more classes
        return tags


def _lapsvm_solve(K, L, yp, gA, gI, solver="CLARABEL"):
    """The dual QP of LapSVM for a kernel matrix K, a sparse Laplacian L and labels yp in {-1, 0, +1}."""
    n = K.shape[0]
    lab = np.flatnonzero(yp != 0)
    yl = yp[lab]
    l_ = lab.size
    H = (2.0 * gI / n**2) * (L @ K)
    H.flat[:: n + 1] += 2.0 * gA
    JY = np.zeros((n, l_))
    JY[lab, np.arange(l_)] = yl
    G = np.linalg.solve(H, JY)  # alpha = G beta
    Q = K[lab] @ G * yl[:, None]
    Q = (Q + Q.T) / 2.0
    beta = cp.Variable(l_)
    prob = cp.Problem(
        cp.Maximize(cp.sum(beta) - 0.5 * cp.quad_form(beta, cp.psd_wrap(Q))),
        [beta >= 0, beta <= 1.0 / l_, yl @ beta == 0],
    )
    if solver not in cp.installed_solvers():
        raise ValueError(
            f"solver must be one of cvxpy's installed solvers {cp.installed_solvers()}; got {solver!r}."
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


# ----------------------------------------------------------------------------------------
# the paper's protocol (Sect. IV-B), shared by Chapter 4 and scripts/reproduce_ch4.py
# ----------------------------------------------------------------------------------------


def evaluate_protocol(
    X,
    y,
    labeled,
    *,
    sigma2_factors=(0.1, 0.25, 0.5, 1.0, 2.0, 4.0),
    rho_grid=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    gamma_A_grid=(1e-6, 1e-4, 1e-2, 1.0),
    gamma_I=1.0,
    n_unlabeled=600,
    n_val=600,
    eta_u=0.25,
    lapsvm=True,
    random_state=0,
):
    r"""One randomisation of Table I of Alzate & Suykens (2012): Semi-KSC and LapSVM.

    The labelled points ``labeled`` (indices into X) plus ``n_unlabeled`` points drawn at
    random from the rest form the training set; ``n_val`` further points form the
    validation set. :math:`\sigma^2` ranges over ``sigma2_factors`` times the median
    squared distance between training points (the same grid for both methods).

    * Semi-KSC: (sigma2, rho) maximise SSF (17) with weight ``eta_u`` on the unlabelled
      validation points (:func:`select_semi_ksc`); gamma = 1.
    * LapSVM: (sigma2, gamma_A) maximise the accuracy on the *labelled* validation points
      (the paper's protocol for its baseline); gamma_I and k = 6 fixed.

    Both are then evaluated on every point of X (the paper's "full data set"); the error
    is the fraction misclassified.

    Returns
    -------
    Bunch with ``semi_ksc`` and ``lapsvm`` errors (nan when ``lapsvm=False``), the chosen
    parameters ``semi_ksc_params`` and ``lapsvm_params``, and fit times of the selected
    models ``semi_ksc_time`` and ``lapsvm_time`` (seconds: the solve alone, kernel given).
    """
    import time

    X = check_data(X, name="X")
    y = check_labels(y, X.shape[0], unlabeled=None, n_classes=2, who="The protocol of Table I")[0]
    labeled = check_indices(labeled, X.shape[0])
    rng = np.random.default_rng(random_state)
    rest = np.setdiff1d(np.arange(X.shape[0]), labeled)
    perm = rng.permutation(rest)
    train_u, val = perm[:n_unlabeled], perm[n_unlabeled : n_unlabeled + n_val]
    if val.size == 0:
        raise ValueError("No point is left for validation; lower n_unlabeled.")
    train = np.r_[train_u, labeled]  # the paper's order: unlabelled, then labelled
    y_train = np.r_[np.full(train_u.size, -1), y[labeled]]
    classes, yp = _binary_labels(y_train, train.size)
    Xt = X[train]
    # squared distances once; every kernel of the grids is exp(-D2 / sigma2)
    D2 = squared_distances(Xt)
    D2_val = squared_distances(X[val], Xt)
    D2_all = squared_distances(X, Xt)
    med = float(np.median(D2))
    grid = [f * med for f in sigma2_factors]
    scores = _ssf_grid(D2, D2_val, yp, grid, list(rho_grid), 1.0, eta_u)
    i, j = np.unravel_index(first_best(scores), scores.shape)
    t0 = time.perf_counter()
    alpha, b = _solve_fast(np.exp(-D2 / grid[i]), yp, 1.0, rho_grid[j])
    t_ksc = time.perf_counter() - t0
    pred = classes[(np.exp(-D2_all / grid[i]) @ alpha + b >= 0).astype(int)]
    out = Bunch(
        semi_ksc=float(np.mean(pred != y)),
        semi_ksc_params={"sigma2/median": sigma2_factors[i], "rho": rho_grid[j]},
        semi_ksc_time=t_ksc,
        lapsvm=np.nan,
        lapsvm_params=None,
        lapsvm_time=np.nan,
    )
    if lapsvm:
        L = _knn_laplacian(Xt, 6)
        yv = np.where(y[val] == classes[1], 1.0, -1.0)
        best = (-1.0, None)
        for s2, f in zip(grid, sigma2_factors, strict=True):
            K, Kv = np.exp(-D2 / s2), np.exp(-D2_val / s2)
            for ga in gamma_A_grid:
                sol = _lapsvm_solve(K, L, yp, ga, gamma_I)
                acc = float(np.mean(np.where(Kv @ sol.alpha + sol.b >= 0, 1.0, -1.0) == yv))
                if acc > best[0]:
                    best = (acc, (s2, f, ga, sol))
        s2, f, ga, sol = best[1]
        t0 = time.perf_counter()
        _lapsvm_solve(np.exp(-D2 / s2), L, yp, ga, gamma_I)
        out.lapsvm_time = time.perf_counter() - t0
        pred = classes[(np.exp(-D2_all / s2) @ sol.alpha + sol.b >= 0).astype(int)]
        out.lapsvm = float(np.mean(pred != y))
        out.lapsvm_params = {"sigma2/median": f, "gamma_A": ga}
    return out
