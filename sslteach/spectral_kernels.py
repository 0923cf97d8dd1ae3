r"""Spectral kernels of the normalised graph Laplacian: Liu, Qian, Cui & Liu (2009), Chapter 3.

The transductive spectral kernel (TSK) keeps the eigenvectors :math:`v_1..v_m` of the
:math:`m` smallest eigenvalues of :math:`\mathcal L = I - D^{-1/2}WD^{-1/2}` and learns
their weights :math:`\mu` by the linear program (14)

.. math::  \min_{\mu,\xi}\ \lambda^\top\mu + \beta\,\mathbf 1^\top\xi \quad\text{s.t.}\quad
           T\mu \ge \mathbf 1 - \xi,\ \ \mu_t \ge \eta\,\mu_{t+1},\ \ \mu\ge0,\ \ \xi\ge0,

with :math:`T_{it} = v_{it}\sum_j e_{ij}v_{jt}` over the labelled pairs (:math:`e_{ij} = +1`
for the same label, :math:`-1` for different labels). The kernel is
:math:`K = \sum_t \mu_t v_tv_t^\top`; a point is classified by eq. (5),
:math:`\arg\max_k \sum_{y_j = k}K_{ij}`, and a new point by the Nyström extension (17)–(19).

Labels follow scikit-learn's semi-supervised convention: one entry per point, ``-1`` for
unlabelled, any other value a class.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import eigsh, spsolve
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.neighbors import NearestNeighbors
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._decisions import argmax_rows, first_best, orient_columns
from ._validation import (
    check_data,
    check_int,
    check_labels,
    check_positive,
    check_square,
    one_hot,
    validate_fit_data,
)
from .graphs import _knn_graph_and_h


def _exact_distances(x, Y):
    """||x - y_j|| for each row of Y, by differences (no |x|^2 + |y|^2 - 2x'y cancellation)."""
    diff = Y - x
    return np.sqrt(np.einsum("ij,ij->i", diff, diff))

__all__ = [
    "DENSE_EIGEN_LIMIT",
    "laplacian_eigenpairs",
    "tsk_constraint_matrix",
    "tsk_linear_program",
    "MU_TOL",
    "clean_weights",
    "solve_tsk",
    "tsk_scores",
    "loo_select_beta",
    "regularized_spectral_kernel",
    "harmonic_function",
    "consistency_method",
    "TransductiveSpectralKernel",
]

DENSE_EIGEN_LIMIT = 2000
"""Below this many points the eigenpairs come from a dense ``eigh``; above, from ``eigsh``."""

_ONE_TOL = 1e-8  # |lambda - 1| below this counts as an eigenvalue equal to 1

_WHO = "This method"
_WHO_LP = "The LP of Liu et al. (14), whose hinge loss needs differently labelled pairs,"

MU_TOL = 1e-6
"""LP weights are zeroed below this tolerance (see :func:`clean_weights`)."""


def _normalized_adjacency(W):
    """S = D^{-1/2} W D^{-1/2} (sparse) and the degrees, refusing negative weights and isolated vertices."""
    W = sp.csr_matrix(W)
    if W.nnz and W.data.min() < 0:
        raise ValueError("W must have non-negative weights (a similarity graph).")
    deg = np.asarray(W.sum(axis=1)).ravel()
    if np.any(deg <= 0):
        raise ValueError(
            f"W has {int(np.sum(deg <= 0))} isolated vertices (degree 0); the normalised Laplacian is "
            "undefined there. Increase n_neighbors or remove those outliers."
        )
    s = 1.0 / np.sqrt(deg)
    return sp.diags(s) @ W @ sp.diags(s), deg


def laplacian_eigenpairs(W, n_components, *, exclude_one=True, tol=1e-7, random_state=0):
    r"""The ``n_components`` smallest eigenpairs of :math:`\mathcal L = I - D^{-1/2}WD^{-1/2}`.

    Parameters
    ----------
    W : sparse matrix or array of shape (n, n)
        Symmetric, non-negative weights with no isolated vertex.
    n_components : int
        m, with 1 <= m < n.
    exclude_one : bool, default True
        Skip eigenvalues equal to 1 (to 1e-8): the out-of-sample formula (17) divides by
        :math:`1 - \lambda_t` (Step 2 of the paper's Table 1).
    tol : float, default 1e-7
        Stopping tolerance of ``eigsh``: every returned pair has residual
        :math:`\lVert Sv - sv\rVert \le` ``tol`` :math:`\cdot|s|`, so each eigenvalue is
        within about ``tol`` and the span of eigenvectors of a well-separated group within
        ``tol`` / gap. On the data of ``benchmarks/bench_tsk.py`` (n = 50,000) it takes about
        8% (d = 5) and 17% (d = 50) less time than 1e-9 and leaves the LP's weights and the
        transduction unchanged. Ignored by the dense path.
    random_state : int
        Seeds the start vector of ``eigsh``.

    Returns
    -------
    eigvals : ndarray of shape (m,), ascending, in [0, 2]; the first c (one per connected
        component) exactly 0.
    eigvecs : ndarray of shape (n, m), orthonormal columns, each signed so that its
        largest-magnitude entry is positive (ties to round-off: the first of them). For
        eigenvalue 0 they are the components' vectors :math:`D^{1/2}\mathbf 1_C`, normalised
        (largest component first), not an arbitrary basis of that eigenspace.

    Notes
    -----
    Up to ``DENSE_EIGEN_LIMIT`` points a dense ``eigh``. Above, ``eigsh`` finds the
    *largest* eigenvalues of :math:`S = D^{-1/2}WD^{-1/2}` (:math:`\lambda = 1 - s`), which
    needs only sparse products with :math:`S` (no factorisation), :math:`O(\mathrm{nnz})` each.
    A disconnected graph has one zero eigenvalue per component; LAPACK would return any
    basis of that eigenspace (a different one for each BLAS kernel), so the basis of the
    component vectors is returned instead.
    """
    W = check_square(W, name="W", symmetric=True, accept_sparse=True)
    n = W.shape[0]
    m = check_int(n_components, "n_components", low=1, high=n - 1, high_hint=f"The graph has {n} vertices.")
    tol = check_positive(tol, "tol")
    S, deg = _normalized_adjacency(W)
    if n <= DENSE_EIGEN_LIMIT:
        lam, vec = np.linalg.eigh(np.eye(n) - S.toarray())
    else:
        v0 = np.random.default_rng(random_state).uniform(0.5, 1.5, n) * np.sqrt(deg)
        S = S.tocsr()
        for k in (m, m + 20):  # an eigenvalue 1 among the m smallest is rare: retry only then
            val, vec = eigsh(S, k=min(n - 1, k), which="LA", tol=tol, v0=v0)
            order = np.argsort(-val)
            lam, vec = 1.0 - val[order], vec[:, order]
            if not exclude_one or np.sum(np.abs(lam - 1.0) > _ONE_TOL) >= m:
                break
    lam = np.clip(lam, 0.0, 2.0)
    vec = orient_columns(vec)
    # Eigenvalue 0 has one eigenvector per connected component: set it exactly, and on a
    # disconnected graph replace LAPACK's arbitrary basis of that eigenspace by the
    # components' own vectors D^{1/2} 1_C (largest component first, ties by first vertex).
    ncomp, comp = connected_components(W, directed=False)
    z = min(ncomp, lam.size)
    lam[:z] = 0.0
    if ncomp > 1:
        sizes = np.bincount(comp)
        first = np.full(ncomp, n)
        np.minimum.at(first, comp, np.arange(n))
        order = np.lexsort((first, -sizes))[:z]
        for col, c in enumerate(order):
            u = np.where(comp == c, np.sqrt(deg), 0.0)
            vec[:, col] = u / np.linalg.norm(u)
    keep = np.abs(lam - 1.0) > _ONE_TOL if exclude_one else np.ones(lam.size, bool)
    lam, vec = lam[keep], vec[:, keep]
    if lam.size < m:
        raise ValueError(
            f"Only {lam.size} eigenvalues different from 1 were found; ask for fewer n_components (got {m})."
        )
    return lam[:m].copy(), np.ascontiguousarray(vec[:, :m])


def tsk_constraint_matrix(eigvecs, y):
    r"""The l x m matrix T of eq. (13): :math:`T_{it} = v_{it}\sum_j e_{ij} v_{jt}` for labelled i.

    Built from the labelled rows only, in :math:`O(lm)`: with :math:`s_{c,t}` the sum of
    :math:`v_{jt}` over labelled points of class :math:`c` and :math:`s_t` over all labelled
    points, :math:`\sum_j e_{ij}v_{jt} = (s_{y_i,t} - v_{it}) - (s_t - s_{y_i,t})`. The
    :math:`n^2\times m` matrix :math:`M` of the paper is never formed.

    Rows follow the order of the labelled points in ``y``.
    """
    V = check_data(eigvecs, name="eigvecs")
    labeled, classes, codes = check_labels(y, V.shape[0], who=_WHO)[1:]
    VL = V[labeled]
    class_sums = np.zeros((classes.size, V.shape[1]))
    np.add.at(class_sums, codes, VL)
    same = class_sums[codes] - VL  # same label, j != i
    diff = VL.sum(axis=0) - class_sums[codes]
    return VL * (same - diff)


def _check_spectrum(eigvals, eigvecs):
    lam = np.asarray(eigvals, dtype=float)
    V = check_data(eigvecs, name="eigvecs")
    if lam.ndim != 1 or lam.size != V.shape[1]:
        raise ValueError(
            f"eigvals has shape {lam.shape} but eigvecs has {V.shape[1]} columns; "
            "pass one eigenvalue per column."
        )
    if not np.all(np.isfinite(lam)):
        raise ValueError("eigvals contains NaN or infinity.")
    return lam, V


def _check_eta_beta(eta, beta, labeled=None):
    """eta >= 1 and beta > 0; ``beta="auto"`` is n / l, the chapter's scale (the entries of
    T shrink like l / n, so a fixed beta lets mu = 0 win as n grows)."""
    eta = check_positive(eta, "eta")
    if eta < 1:
        raise ValueError(f"eta is the decay factor of eq. (8) and must be >= 1; got {eta}.")
    if isinstance(beta, str) and beta == "auto":
        return eta, labeled.size / labeled.sum()
    return eta, check_positive(beta, "beta")


def tsk_linear_program(eigvals, eigvecs, y, *, eta=2.0, beta="auto"):
    """The linear program (14) as a cvxpy ``Problem``, with its variables.

    Returns
    -------
    problem : cvxpy.Problem
    mu : cvxpy.Variable of shape (m,)
    xi : cvxpy.Variable of shape (l,)
    """
    import cvxpy as cp

    lam, V = _check_spectrum(eigvals, eigvecs)
    labeled = check_labels(y, V.shape[0], min_classes=2, who=_WHO_LP)[1]
    eta, beta = _check_eta_beta(eta, beta, labeled)
    T = tsk_constraint_matrix(V, y)
    m, l = V.shape[1], T.shape[0]
    mu = cp.Variable(m, nonneg=True, name="mu")
    xi = cp.Variable(l, nonneg=True, name="xi")
    constraints = [T @ mu >= 1 - xi]
    if m > 1:
        constraints.append(mu[:-1] >= eta * mu[1:])
    problem = cp.Problem(cp.Minimize(lam @ mu + beta * cp.sum(xi)), constraints)
    return problem, mu, xi


def _solve_tsk_scipy(lam, T, eta, beta):
    """The LP (14) for ``scipy.optimize.linprog`` (HiGHS): the same matrices, no cvxpy compilation."""
    from scipy.optimize import linprog

    l, m = T.shape
    c = np.r_[lam, np.full(l, beta)]
    # -T mu - xi <= -1 ;  -mu_t + eta mu_{t+1} <= 0
    G = sp.diags([-np.ones(m - 1), np.full(m - 1, eta)], [0, 1], shape=(m - 1, m))
    A = sp.vstack(
        [sp.hstack([-sp.csr_matrix(T), -sp.identity(l)]), sp.hstack([G, sp.csr_matrix((m - 1, l))])]
    )
    res = linprog(
        c, A_ub=A.tocsc(), b_ub=np.r_[-np.ones(l), np.zeros(m - 1)], bounds=(0, None), method="highs"
    )
    if res.status != 0:
        raise RuntimeError(
            f"The TSK linear program was not solved to optimality: scipy's linprog returned status "
            f"{res.status} ({res.message}). Try solver='CLARABEL' or check eigvals/eigvecs."
        )
    return np.maximum(res.x[:m], 0.0)


def clean_weights(mu, T, *, tol=MU_TOL):
    r"""Zero the LP weights that are solver noise, so that no decision rests on it.

    When the LP's optimum is :math:`\mu = 0` a solver returns small positive entries
    instead: 1e-14 to 1e-12 from HiGHS, up to 1e-5 from an interior-point solver such as
    Clarabel when the first eigenvalue is 0 (its weight then costs nothing and moves the
    objective only at the solver's tolerance). A genuine optimum :math:`\mu \ne 0` has a
    hinge constraint active, :math:`T_i\mu = 1` for some labelled i (otherwise scaling
    :math:`\mu` up would lower the objective, unless the objective is flat along it, which
    happens only at the critical :math:`\beta^*` itself). The rule:

    * if :math:`\max_i T_i\mu < 10^{-3}` (no margin within a thousandth of 1), the answer
      is :math:`\mu = 0`: no kernel, every score of eq. (5) is 0;
    * otherwise entries below ``tol`` times :math:`\max_t\mu_t` are set to 0 (they change
      no score by more than a relative ``tol``).

    The order and decay constraints stay satisfied (only a tail of entries already below
    the threshold becomes 0). ``tol`` defaults to :data:`MU_TOL` = 1e-6.
    """
    mu = np.maximum(np.asarray(mu, dtype=float), 0.0)
    T = np.asarray(T, dtype=float)
    if mu.size == 0 or T.size == 0 or float((T @ mu).max()) < 1e-3:
        return np.zeros_like(mu)
    return np.where(mu < tol * mu.max(), 0.0, mu)


def solve_tsk(eigvals, eigvecs, y, *, eta=2.0, beta="auto", solver="scipy"):
    r"""Solve the LP (14) and return the spectral weights ``mu`` (shape (m,)).

    ``solver`` is ``"scipy"`` (the default, the one solver default of the module) for
    ``scipy.optimize.linprog(method="highs")``, or a cvxpy solver name (``"HIGHS"``,
    ``"CLARABEL"``) for the same LP through :func:`tsk_linear_program`; ``"scipy"`` is the
    same HiGHS solver without cvxpy's compilation, several times faster on the small LPs
    of a leave-one-out loop (:func:`loo_select_beta`). ``beta="auto"`` is n / l.

    The solver's weights pass through :func:`clean_weights`: an optimum at round-off
    distance from :math:`\mu = 0` is returned as exactly 0, and entries below
    :data:`MU_TOL` times the largest are zeroed, so the support of ``mu`` (and every
    decision taken from it) is the same for every solver and BLAS kernel.

    Raises ``RuntimeError`` naming the solver status when the solver does not report an
    optimal solution.
    """
    if solver == "scipy":
        lam, V = _check_spectrum(eigvals, eigvecs)
        labeled = check_labels(y, V.shape[0], min_classes=2, who=_WHO_LP)[1]
        eta, beta = _check_eta_beta(eta, beta, labeled)
        T = tsk_constraint_matrix(V, y)
        return clean_weights(_solve_tsk_scipy(lam, T, eta, beta), T)
    import cvxpy as cp

    if not isinstance(solver, str) or solver not in cp.installed_solvers():
        raise ValueError(
            f"solver must be 'scipy' or one of cvxpy's installed solvers {cp.installed_solvers()}; "
            f"got {solver!r}."
        )
    problem, mu, _ = tsk_linear_program(eigvals, eigvecs, y, eta=eta, beta=beta)
    problem.solve(solver=solver)
    if problem.status != "optimal" or mu.value is None:
        raise RuntimeError(
            f"The TSK linear program was not solved to optimality: solver {solver} returned status "
            f"{problem.status!r}. Try solver='CLARABEL' or check eigvals/eigvecs."
        )
    return clean_weights(mu.value, tsk_constraint_matrix(_check_spectrum(eigvals, eigvecs)[1], y))


def tsk_scores(eigvecs, mu, y):
    r"""Class scores of eq. (5), :math:`F_{ik} = \sum_{y_j=k}K_{ij}`, without forming K.

    :math:`F = \bar V\,\mathrm{diag}(\mu)\,\bar V_L^\top Y_L` costs :math:`O(nmc)`.
    Returns ``(classes, F)`` with F of shape (n, c).
    """
    V = check_data(eigvecs, name="eigvecs")
    labeled, classes, codes = check_labels(y, V.shape[0], who=_WHO)[1:]
    mu = np.asarray(mu, dtype=float)
    if mu.shape != (V.shape[1],):
        m = V.shape[1]
        raise ValueError(f"mu must be 1-D with one weight per eigenvector ({m}); got shape {mu.shape}.")
    loadings = (V[labeled].T @ one_hot(codes, classes.size)) * mu[:, None]
    return classes, V @ loadings


def loo_select_beta(eigvals, eigvecs, y, betas, *, eta=2.0, solver="scipy"):
    r"""Choose beta by leave-one-out accuracy of eq. (5) on the labelled points only.

    For each beta and each labelled point i, the LP (14) is solved without i's label and
    i is classified by eq. (5) with the resulting kernel. No unlabelled point's label is
    used. Ties go to the smallest beta (the smoothest kernel). A fold in which i's class
    has no other labelled point is skipped (it could not be predicted right).

    Returns
    -------
    beta : float, the chosen value
    accuracy : ndarray of shape (len(betas),), leave-one-out accuracy per beta

    Notes
    -----
    ``len(betas) * l`` LPs with l - 1 hinge rows and m weights each.
    """
    lam, V = _check_spectrum(eigvals, eigvecs)
    y, labeled, classes, codes = check_labels(y, V.shape[0], min_classes=2, who=_WHO_LP)
    betas = np.asarray(betas, dtype=float).ravel()
    if betas.size == 0 or np.any(~np.isfinite(betas)) or np.any(betas <= 0):
        raise ValueError(f"betas must be a non-empty list of positive numbers; got {betas}.")
    idx = np.flatnonzero(labeled)
    counts = np.bincount(codes, minlength=classes.size)
    folds = [i for i, c in zip(idx, codes) if counts[c] > 1]
    acc = np.zeros(betas.size)
    for b, beta in enumerate(betas):
        right = 0
        for i in folds:
            y_i = y.copy()
            y_i[i] = -1
            if np.unique(y_i[y_i != -1]).size < 2:
                continue
            mu = solve_tsk(lam, V, y_i, eta=eta, beta=beta, solver=solver)
            lab = y_i != -1
            cl, c_i = np.unique(y_i[lab], return_inverse=True)
            scores_i = V[i] @ ((V[lab].T @ one_hot(c_i, cl.size)) * mu[:, None])  # row i of eq. (5)
            right += cl[argmax_rows(scores_i[None, :])[0]] == y[i]
        acc[b] = right / max(1, len(folds))
    return float(betas[first_best(acc)]), acc


def regularized_spectral_kernel(eigvals, eigvecs, alpha):
    r"""The regularised spectral kernel of eq. (4), :math:`K^r = V\Theta V^\top`,
    :math:`\theta_i = (1-\alpha)/(1 - \alpha + \alpha\lambda_i)`.

    With all n eigenpairs this is :math:`(1-\alpha)(I - \alpha S)^{-1}`; with the m smallest
    it is its best rank-m part (the largest :math:`\theta`).
    """
    lam, V = _check_spectrum(eigvals, eigvecs)
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must lie in (0, 1); got {alpha}.")
    theta = (1 - alpha) / (1 - alpha + alpha * lam)
    return (V * theta) @ V.T


def harmonic_function(W, y):
    r"""Zhu, Ghahramani & Lafferty (2003): :math:`f_U = (D_{UU} - W_{UU})^{-1} W_{UL} Y_L`.

    Returns
    -------
    labels : ndarray of shape (n,), the labelled points keep their labels
    F : ndarray of shape (n, c), class scores (rows of labelled points are one-hot)
    """
    W = sp.csr_matrix(check_square(W, name="W", symmetric=True, accept_sparse=True))
    labeled, classes, codes = check_labels(y, W.shape[0], who=_WHO)[1:]
    U = ~labeled
    ncomp, comp = connected_components(W, directed=False)
    if ncomp > 1 and not np.all(np.isin(comp, np.unique(comp[labeled]))):
        raise ValueError(
            "The graph has a connected component without any labelled point; the harmonic "
            "function is undefined there. Increase n_neighbors or join the components "
            "(sslteach.graphs.join_components)."
        )
    YL = one_hot(codes, classes.size)
    F = np.zeros((W.shape[0], classes.size))
    F[labeled] = YL
    if U.any():
        deg = np.asarray(W.sum(axis=1)).ravel()
        A = (sp.diags(deg[U]) - W[U][:, U]).tocsc()
        rhs = W[U][:, labeled] @ YL
        F[U] = np.asarray(spsolve(A, rhs)).reshape(-1, classes.size)
    return classes[argmax_rows(F)], F


def consistency_method(W, y, alpha=0.99):
    r"""Zhou et al. (2004), eq. (3): :math:`F = (1-\alpha)(I - \alpha S)^{-1} C`.

    Returns
    -------
    labels : ndarray of shape (n,)
    F : ndarray of shape (n, c)
    """
    W = sp.csr_matrix(check_square(W, name="W", symmetric=True, accept_sparse=True))
    labeled, classes, codes = check_labels(y, W.shape[0], who=_WHO)[1:]
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must lie in (0, 1); got {alpha}.")
    S, _ = _normalized_adjacency(W)
    C = np.zeros((W.shape[0], classes.size))
    C[labeled] = one_hot(codes, classes.size)
    A = (sp.identity(W.shape[0]) - alpha * S).tocsc()
    F = (1 - alpha) * np.asarray(spsolve(A, C)).reshape(-1, classes.size)
    return classes[argmax_rows(F)], F


class TransductiveSpectralKernel(ClassifierMixin, BaseEstimator):
    """Semi-supervised classification with a transductive spectral kernel (Liu et al., 2009).

    ``fit(X, y)`` with ``y = -1`` for unlabelled points runs Table 1 of the paper: the k-NN
    graph of eq. (2), the m smallest eigenpairs of the normalised Laplacian (eigenvalues
    equal to 1 skipped), the LP (14), and eq. (5) on every training point.

    Parameters
    ----------
    n_neighbors : int, default 6
        k of the k-NN graph, eq. (2).
    n_components : int, default 10
        m, the number of eigenvectors.
    eta : float, default 2.0
        Decay factor of eq. (8), >= 1.
    beta : float or "auto", default "auto"
        Weight of the hinge loss in eq. (11); "auto" is n / l (points over labelled points),
        the scale Chapter 3 derives: a fixed beta such as 1 gives mu = 0 once n / l is large.
        The value used is ``beta_``.
    solver : {"scipy", "HIGHS", "CLARABEL"}, default "scipy"
        ``"scipy"``: ``scipy.optimize.linprog(method="highs")``; otherwise a cvxpy solver
        (the same LP; see :func:`solve_tsk`).

    Attributes
    ----------
    classes_ : ndarray of the class labels
    eigvals_ : ndarray of shape (m,)
    eigvecs_ : ndarray of shape (n, m)
    mu_ : ndarray of shape (m,), the learned spectral weights
    embedding_ : ndarray of shape (n, m), :math:`\\bar V\\bar U^{1/2}`, so K = embedding_ @ embedding_.T
    kernel_ : ndarray of shape (n, n), the TSK (formed on first access; for n <= 20000)
    scores_ : ndarray of shape (n, c), :math:`\\sum_{y_j=k} K_{ij}`
    transduction_ : ndarray of shape (n,), eq. (5) on every training point
    n_components_graph_ : int, connected components of the graph
    beta_ : float, the beta used (n / l when ``beta="auto"``)
    neighbors_ : sklearn.neighbors.NearestNeighbors over the training points, reused by
        :meth:`induced_weights` (so ``predict`` does not rebuild the index)

    Notes
    -----
    **Cost of** ``fit``. The k-NN graph: a k-d tree query, about :math:`O(nk\\log n)` in few
    dimensions, brute force :math:`O(n^2d)` time and :math:`O(nk)` memory above 15. The
    eigenpairs: ``eigsh`` on the sparse :math:`S`, each Lanczos step one :math:`O(nk)`
    product plus :math:`O(n\\,\\mathrm{ncv})` orthogonalisation, a few hundred steps at
    n = 50,000. The LP: l + m variables, independent of n. Eq. (5): :math:`O(nmc)`.
    Memory :math:`O(n(k + m))`; the n x n kernel is formed only when ``kernel_`` is read.
    ``benchmarks/bench_tsk.py`` compares ``fit`` with scikit-learn's ``LabelSpreading``.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers,
    since -1 marks unlabelled points (scikit-learn gives its own semi-supervised
    estimators numeric labels in that check).
    And ``check_estimators_nan_inf``: it fits 10 points, and the default n_components=10
    eigenvectors need at least 11 (n_components < n is refused with a ValueError).
    """

    KERNEL_LIMIT = 20000

    _parameter_constraints: dict = {
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "eta": [Interval(Real, 1, None, closed="left")],
        "beta": [Interval(Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "solver": [StrOptions({"scipy", "HIGHS", "CLARABEL"})],
    }

    def __init__(self, n_neighbors=6, n_components=10, eta=2.0, beta="auto", solver="scipy"):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.eta = eta
        self.beta = beta
        self.solver = solver

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_fit_data(self, X, y, min_samples=3)
        n = X.shape[0]
        y, labeled, classes, codes = check_labels(y, n, min_classes=2, who=_WHO_LP)
        check_int(self.n_components, "n_components", low=1, high=n - 1, high_hint=f"There are {n} points.")
        beta = n / labeled.sum() if self.beta == "auto" else float(self.beta)
        self.beta_ = beta
        W, h = _knn_graph_and_h(X, self.n_neighbors)
        ncomp, _ = connected_components(W, directed=False)
        self.n_components_graph_ = int(ncomp)
        if ncomp > 1:
            warnings.warn(
                f"The {self.n_neighbors}-NN graph has {ncomp} connected components, so the zero "
                "eigenvalue is repeated and components without labels get no signal; increase "
                "n_neighbors or join the components (sslteach.graphs.join_components).",
                UserWarning,
                stacklevel=2,
            )
        lam, V = laplacian_eigenpairs(W, self.n_components)
        y = np.asarray(y)
        mu = solve_tsk(lam, V, y, eta=self.eta, beta=beta, solver=self.solver)
        if not np.any(mu > 0):
            warnings.warn(
                f"The LP chose mu = 0 (at beta={beta:g} the hinge loss does not pay for any "
                "eigenvector), so every score is 0 and every point gets the first class. T shrinks "
                "like l/n: increase beta (e.g. to n/l).",
                UserWarning,
                stacklevel=2,
            )
        self.X_fit_, self.W_ = X, W
        self.neighbors_ = NearestNeighbors().fit(X)
        self.degrees_ = np.asarray(W.sum(axis=1)).ravel()
        self.h_ = h
        self.classes_ = classes
        self.labeled_ = labeled
        self.eigvals_, self.eigvecs_, self.mu_ = lam, V, mu
        self.embedding_ = V * np.sqrt(mu)
        # class sums of the labelled rows: K[:, L] @ Y_L = V diag(mu) (V_L^T Y_L), O(n m c)
        self._class_loadings = (V[labeled].T @ one_hot(codes, classes.size)) * mu[:, None]
        self.scores_ = V @ self._class_loadings
        self.transduction_ = classes[argmax_rows(self.scores_)]
        return self

    @property
    def kernel_(self):
        check_is_fitted(self, "mu_")
        n = self.eigvecs_.shape[0]
        if n > self.KERNEL_LIMIT:
            raise ValueError(
                f"kernel_ would be a dense {n} x {n} matrix; use embedding_ (K = embedding_ @ embedding_.T) "
                "or scores_ instead."
            )
        return self.embedding_ @ self.embedding_.T

    def induced_weights(self, X):
        """Eq. (2) weights between new points and the training points (sparse, s x n).

        The new point's h is its k-th neighbour distance among the training points; an edge
        exists when the distance is at most max(h(x), h(x_i)). Candidates come from one
        radius query; every distance that decides (h(x), and each edge's inclusion and
        weight) is then recomputed exactly, coordinate by coordinate, as in
        :func:`sslteach.graphs.knn_graph`, so the weights do not depend on the BLAS kernel.
        """
        check_is_fitted(self, "mu_")
        X = validate_fit_data(self, X, reset=False)
        k = self.n_neighbors
        nn = self.neighbors_  # the index over the training points, built once in fit
        hx = nn.kneighbors(X, n_neighbors=k)[0][:, -1]
        # the query's distances carry round-off: widen the radius by a bound on it
        x2 = np.einsum("ij,ij->i", X, X)
        slack = 1e-10 * (x2.max() + np.einsum("ij,ij->i", self.X_fit_, self.X_fit_).max()) + 1e-24
        radius = np.sqrt(max(self.h_.max(), hx.max()) ** 2 + 2 * slack) * (1 + 1e-9)
        ind = nn.radius_neighbors(X, radius=radius, return_distance=False)
        rows, cols, vals = [], [], []
        for a, j in enumerate(ind):
            d = _exact_distances(X[a], self.X_fit_[j])
            h_a = np.partition(d, k - 1)[k - 1]  # exact k-th neighbour distance of the new point
            reach = np.maximum(h_a, self.h_[j])
            ok = d <= reach * (1.0 + 1e-12)  # ties to round-off are ties, as in knn_graph
            den = reach[ok] ** 2
            w = np.where(den > 0, np.exp(-(d[ok] ** 2) / np.where(den > 0, den, 1.0)), 1.0)
            rows.append(np.full(ok.sum(), a))
            cols.append(j[ok])
            vals.append(w)
        data = (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols)))
        return sp.csr_matrix(data, shape=(X.shape[0], len(self.h_)))

    def extend(self, Wx):
        r"""Eq. (18): the spectral representation :math:`\bar V_x = w_x^\top\bar V(I-\bar\Lambda)^{-1}`
        of new points, from their induced weights ``Wx`` (s x n)."""
        check_is_fitted(self, "mu_")
        Wx = sp.csr_matrix(Wx)
        dx = np.asarray(Wx.sum(axis=1)).ravel()
        if np.any(dx <= 0):
            raise ValueError("A new point has no edge to the training points; it cannot be extended.")
        wx = sp.diags(1 / np.sqrt(dx)) @ Wx @ sp.diags(1 / np.sqrt(self.degrees_))
        return np.asarray(wx @ self.eigvecs_) / (1.0 - self.eigvals_)

    def _scores(self, X):
        check_is_fitted(self, "mu_")
        return self.extend(self.induced_weights(X)) @ self._class_loadings

    def decision_function(self, X):
        """Class scores of eq. (19), :math:`\\sum_{y_j=k} K(x, x_j)`: shape (s, c), or for two
        classes, as in scikit-learn, shape (s,): the second class's score minus the first's
        (positive means ``classes_[1]``)."""
        F = self._scores(X)
        return F[:, 1] - F[:, 0] if F.shape[1] == 2 else F

    def predict(self, X):
        """Labels of new points by eq. (19)."""
        F = self._scores(X)
        return self.classes_[argmax_rows(F)]
