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

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import eigsh, spsolve
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.neighbors import NearestNeighbors
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._decisions import DENSE_EIGEN_LIMIT, argmax_rows, first_best, orient_columns
from ._validation import (
    check_data,
    check_int,
    check_labels,
    check_positive,
    check_vector,
    one_hot,
    validate_fit_data,
    warn_caller,
)
from .graphs import _check_graph, _degree_normalized, _knn_graph_and_h


def _exact_distances(x, Y):
    """||x - y_j|| for each row of Y, by differences (no |x|^2 + |y|^2 - 2x'y cancellation)."""
    diff = Y - x
    return np.sqrt(np.einsum("ij,ij->i", diff, diff))

__all__ = [
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


_ONE_TOL = 1e-8  # |lambda - 1| below this counts as an eigenvalue equal to 1

_WHO = "This method"
_WHO_LP = "The LP of Liu et al. (14), whose hinge loss needs differently labelled pairs,"

MU_TOL = 1e-4
r"""LP weights are zeroed below this tolerance (see :func:`clean_weights`), relative to the largest.

After the LP, eq. (14) of Liu et al. (2009), :func:`clean_weights` sets every weight
:math:`\mu_t < \mathrm{MU\_TOL}\cdot\max_s\mu_s` to 0. The decay constraints of eq. (8) make
the zeroed entries a tail with :math:`\mu_{t+1} \le \mu_t/\eta`, so zeroing them changes no
score of eq. (5) by more than a relative :math:`\mathrm{MU\_TOL}\,\eta/(\eta - 1)` (2e-4 for
:math:`\eta = 2`). The value is set by the solvers: on Chapter 3's 960 UCI problems (two
scalings, :math:`v_1` kept or dropped, 20 draws, three values of beta) Clarabel's
interior-point answers leave entries up to 2.9e-6 of the largest where HiGHS has exact
zeros; 1e-6 split their supports in 5 of the 960, 1e-4 in none. Used by :func:`solve_tsk`,
hence by :func:`loo_select_beta` and :class:`TransductiveSpectralKernel`.

Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).
"""


def laplacian_eigenpairs(W, n_components, *, exclude_one=True, tol=1e-7, random_state=0):
    r"""The ``n_components`` smallest eigenpairs of :math:`\mathcal L = I - D^{-1/2}WD^{-1/2}`.

    .. math::

        \mathcal L\,v_t = \lambda_t v_t, \qquad
        0 = \lambda_1 \le \lambda_2 \le \dots \le \lambda_m \le 2, \qquad \lambda_t \ne 1,

    Step 2 of Table 1 of Liu et al. (2009): the normalised Laplacian
    :math:`\mathcal L = D^{-1/2}(D - W)D^{-1/2} = I - S` of Section 3 of Liu et al. (2009),
    with :math:`D_{ii} = \sum_j W_{ij}`. The eigenvectors :math:`\bar V = [v_1, \dots, v_m]`
    are the basic kernels :math:`v_tv_t^\top` of the transductive spectral kernel, eq. (9)
    of Liu et al. (2009), and the eigenvalues :math:`\lambda = (\lambda_1, \dots, \lambda_m)`
    are the costs of the LP, eq. (14) of Liu et al. (2009).

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    W : sparse matrix or array of shape (n, n)
        Symmetric, non-negative weights with no isolated vertex, e.g. the k-NN graph of
        eq. (2) of Liu et al. (2009) from :func:`sslteach.graphs.knn_graph`.
    n_components : int
        m, the number of eigenpairs, with 1 <= m < n.
    exclude_one : bool, default True
        Skip eigenvalues equal to 1 (to 1e-8): the out-of-sample formula, eq. (17) of
        Liu et al. (2009), divides by :math:`1 - \lambda_t` (Step 2 of the paper's Table 1).
    tol : float, default 1e-7
        Stopping tolerance of ``eigsh``: every returned pair has residual
        :math:`\lVert Sv - sv\rVert \le` ``tol`` :math:`\cdot|s|`, so each eigenvalue is
        within about ``tol`` and the span of eigenvectors of a well-separated group within
        ``tol`` / gap. On the data of ``benchmarks/bench_tsk.py`` (n = 50,000) it takes about
        8% (d = 5) and 17% (d = 50) less time than 1e-9 and leaves the LP's weights and the
        transduction unchanged. Ignored by the dense path.
    random_state : int, default 0
        Seeds the start vector of ``eigsh``. Ignored by the dense path.

    Returns
    -------
    eigvals : ndarray of shape (m,)
        :math:`\lambda_1 \le \dots \le \lambda_m`, ascending, in [0, 2]; the first c (one
        per connected component) exactly 0.
    eigvecs : ndarray of shape (n, m)
        :math:`\bar V`: orthonormal columns, each signed so that its largest-magnitude entry
        is positive (ties to round-off: the first of them). For eigenvalue 0 they are the
        components' vectors :math:`D^{1/2}\mathbf 1_C`, normalised (largest component
        first), not an arbitrary basis of that eigenspace.

    Raises
    ------
    ValueError
        If ``W`` is not square, symmetric and finite, has a negative weight or an isolated
        vertex (degree 0, where :math:`D^{-1/2}` is undefined), if ``n_components`` is not
        an integer in [1, n - 1], or if fewer than m eigenvalues different from 1 are found.

    See Also
    --------
    sslteach.graphs.normalized_laplacian : The matrix :math:`\mathcal L` itself.
    solve_tsk : The spectral weights :math:`\mu` from these eigenpairs.

    Notes
    -----
    **Cost.** Up to ``DENSE_EIGEN_LIMIT`` (2000) points: the dense :math:`\mathcal L` and a
    full ``eigh``, time :math:`O(n^3)`, memory :math:`O(n^2)`. Above: ``eigsh`` (Lanczos)
    on the sparse :math:`S`, memory :math:`O(n(k + m))` for a k-NN graph (the graph plus
    :math:`O(m)` Lanczos vectors), time :math:`O(nk + nm)` per Lanczos step (one product
    with :math:`S` and the orthogonalisation), a few hundred steps at n = 50,000. The
    connected components cost :math:`O(n + \mathrm{nnz})`.

    Up to ``DENSE_EIGEN_LIMIT`` points a dense ``eigh``. Above, ``eigsh`` finds the
    *largest* eigenvalues of :math:`S = D^{-1/2}WD^{-1/2}` (:math:`\lambda = 1 - s`), which
    needs only sparse products with :math:`S` (no factorisation), :math:`O(\mathrm{nnz})` each.
    A disconnected graph has one zero eigenvalue per component; LAPACK would return any
    basis of that eigenspace (a different one for each BLAS kernel), so the basis of the
    component vectors is returned instead.

    Examples
    --------
    Two clusters of 20 points in the plane, joined by the k-NN graph of eq. (2):

    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> W = knn_graph(X, 6)
    >>> lam, V = laplacian_eigenpairs(W, 5)
    >>> lam.shape, V.shape
    ((5,), (40, 5))
    >>> np.round(lam, 3)
    array([0.   , 0.011, 0.143, 0.2  , 0.366])
    >>> bool(np.allclose(V.T @ V, np.eye(5)))
    True

    On a connected graph the first eigenvector is :math:`D^{1/2}\mathbf 1`, normalised:

    >>> d = np.asarray(W.sum(axis=1)).ravel()
    >>> bool(np.allclose(np.abs(V[:, 0]), np.sqrt(d) / np.linalg.norm(np.sqrt(d))))
    True

    Moved apart, the clusters are two components, hence two eigenvalues exactly 0:

    >>> X_far = X.copy()
    >>> X_far[20:, 0] += 2
    >>> laplacian_eigenpairs(knn_graph(X_far, 6), 3)[0][:2]
    array([0., 0.])
    """
    W = _check_graph(W)
    n = W.shape[0]
    m = check_int(n_components, "n_components", low=1, high=n - 1, high_hint=f"The graph has {n} vertices.")
    tol = check_positive(tol, "tol")
    S, deg = _degree_normalized(W, isolated="raise")
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
    r"""The l x m margin matrix T of the TSK's linear program, eq. (13) of Liu et al. (2009).

    .. math::

        T_{it} = v_{it}\sum_{j=1}^n e_{ij}\,v_{jt}, \qquad
        e_{ij} = \begin{cases}
            +1 & y_i = y_j,\ i \ne j \ \ (\text{the set } \mathcal S),\\
            -1 & y_i \ne y_j \ \ (\text{the set } \mathcal D),\\
            0 & \text{otherwise (} j \text{ unlabelled, or } j = i\text{)},
        \end{cases}

    for each labelled point i (rows) and eigenvector :math:`v_t` (columns), so that
    :math:`(T\mu)_i = \sum_j e_{ij}K_{ij}` for :math:`K = \sum_t \mu_t v_tv_t^\top`: the
    margin of point i in the hinge loss of eq. (11) and the constraint
    :math:`T\mu \ge \mathbf 1 - \xi` of eq. (14) of Liu et al. (2009).

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    eigvecs : array-like of shape (n, m)
        The eigenvectors :math:`v_1, \dots, v_m` as columns (from
        :func:`laplacian_eigenpairs`).
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points.

    Returns
    -------
    T : ndarray of shape (l, m)
        One row per labelled point, in the order of the labelled points in ``y``.

    Raises
    ------
    ValueError
        If ``eigvecs`` is not a finite 2-D array, or ``y`` does not hold one numeric label
        per row of ``eigvecs`` with at least one labelled point.

    Notes
    -----
    **Cost.** Time :math:`O(lm)` and memory :math:`O(lm + cm)` for c classes, besides
    reading ``y`` (:math:`O(n)`). T is built from the labelled rows only: with
    :math:`s_{c,t}` the sum of :math:`v_{jt}` over labelled points of class :math:`c` and
    :math:`s_t` over all labelled points,
    :math:`\sum_j e_{ij}v_{jt} = (s_{y_i,t} - v_{it}) - (s_t - s_{y_i,t})`. The
    :math:`n^2\times m` matrix :math:`M` of the paper is never formed.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, tsk_constraint_matrix
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> T = tsk_constraint_matrix(V, y)
    >>> T.shape
    (4, 5)

    The same matrix from the indicator :math:`e_{ij}` over the labelled pairs:

    >>> lab = np.flatnonzero(y != -1)
    >>> E = np.where(y[lab, None] == y[None, lab], 1.0, -1.0) - np.eye(lab.size)
    >>> bool(np.allclose(T, V[lab] * (E @ V[lab])))
    True

    Each column is quadratic in its eigenvector, so an eigensolver's choice of signs does
    not matter:

    >>> bool(np.allclose(tsk_constraint_matrix(-V, y), T))
    True
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
    lam = check_vector(eigvals, "eigvals", allow_empty=True)
    V = check_data(eigvecs, name="eigvecs")
    if lam.ndim != 1 or lam.size != V.shape[1]:
        raise ValueError(
            f"eigvals has shape {lam.shape} but eigvecs has {V.shape[1]} columns; "
            "pass one eigenvalue per column."
        )
    if not np.all(np.isfinite(lam)):
        raise ValueError("eigvals contains NaN or infinity.")
    if lam.size and (lam.min() < -1e-8 or lam.max() > 2 + 1e-8):
        raise ValueError(
            f"eigvals must be eigenvalues of a normalised Laplacian, in [0, 2]; got values in "
            f"[{lam.min():.3g}, {lam.max():.3g}]. Compute them with laplacian_eigenpairs."
        )
    return lam, V


def _check_eta_beta(eta, beta, labeled=None):
    """eta >= 1 and beta > 0; ``beta="auto"`` is n / l, the chapter's scale (the entries of
    T shrink like l / n, so a fixed beta lets mu = 0 win as n grows)."""
    eta = check_positive(eta, "eta")
    if eta < 1:
        raise ValueError(f"eta is the decay factor of eq. (8) and must be >= 1; got {eta}.")
    if isinstance(beta, str) and beta == "auto":
        return eta, float(labeled.size / labeled.sum())
    return eta, check_positive(beta, "beta")


def tsk_linear_program(eigvals, eigvecs, y, *, eta=2.0, beta="auto"):
    r"""The linear program of eq. (14) of Liu et al. (2009) as a cvxpy ``Problem``, with its variables.

    .. math::

        \min_{\mu,\xi}\ \lambda^\top\mu + \beta\,\mathbf 1^\top\xi
        \quad\text{s.t.}\quad T\mu \ge \mathbf 1 - \xi,\quad
        \mu_t \ge \eta\,\mu_{t+1}\ (t < m),\quad \mu \ge 0,\quad \xi \ge 0,

    with T of eq. (13) (:func:`tsk_constraint_matrix`). The objective is the smoothness
    :math:`\operatorname{tr}(\mathcal LK) = \lambda^\top\mu` of eq. (10) plus
    :math:`\beta` times the hinge loss of eq. (11), the second constraint is the decay
    :math:`\Gamma\mu \ge 0` of eq. (8) of Liu et al. (2009). The problem is formulated, not
    solved: it is there to be read (or solved by another cvxpy solver); :func:`solve_tsk`
    solves it.

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    eigvals : array-like of shape (m,)
        :math:`\lambda_1, \dots, \lambda_m`, the costs of the weights.
    eigvecs : array-like of shape (n, m)
        The matching eigenvectors as columns (from :func:`laplacian_eigenpairs`).
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points; at least two classes.
    eta : float, default 2.0
        :math:`\eta \ge 1`, the decay factor of eq. (8).
    beta : float or "auto", default "auto"
        :math:`\beta > 0`, the weight of the hinge loss; ``"auto"`` is n / l (points over
        labelled points).

    Returns
    -------
    problem : cvxpy.Problem
        The LP, not yet solved.
    mu : cvxpy.Variable of shape (m,)
        The spectral weights :math:`\mu` (non-negative).
    xi : cvxpy.Variable of shape (l,)
        The slacks :math:`\xi` (non-negative), one per labelled point in the order of ``y``.

    Raises
    ------
    ValueError
        If ``eigvals`` does not hold one value in [0, 2] per column of ``eigvecs``, if
        the labelled points are of fewer than two classes (the hinge loss needs
        differently labelled pairs), if ``eta`` < 1 or ``beta`` <= 0.
    ModuleNotFoundError
        If cvxpy is not installed.

    Notes
    -----
    **Cost.** T takes time and memory :math:`O(lm)`; the LP has m + l variables and
    l + m - 1 inequality rows (besides the bounds), independent of n. Solving it through
    cvxpy adds a compilation step that dominates on small LPs.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import (
    ...     laplacian_eigenpairs, solve_tsk, tsk_constraint_matrix, tsk_linear_program)
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> problem, mu, xi = tsk_linear_program(lam, V, y)
    >>> mu.shape, xi.shape
    ((5,), (4,))
    >>> problem.is_dcp(), len(problem.constraints)
    (True, 2)

    The weights of :func:`solve_tsk`, with the smallest slacks they allow, are feasible:

    >>> mu.value = solve_tsk(lam, V, y)
    >>> xi.value = np.maximum(0, 1 - tsk_constraint_matrix(V, y) @ mu.value)
    >>> all(bool(c.value()) for c in problem.constraints)
    True
    >>> round(float(problem.objective.value), 1)
    11.5
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

    .. math::

        \mu \leftarrow \max(\mu, 0), \qquad
        \mu_t \leftarrow
        \begin{cases}
            0 & \text{if } \max_i (T\mu)_i < 10^{-3},\\
            0 & \text{if } \mu_t < \mathrm{tol}\cdot\max_s\mu_s,\\
            \mu_t & \text{otherwise,}
        \end{cases}

    applied to a solution of the LP, eq. (14) of Liu et al. (2009), with T of eq. (13).

    When the LP's optimum is :math:`\mu = 0` a solver returns small positive entries
    instead: 1e-14 to 1e-12 from HiGHS, up to 1e-5 from an interior-point solver such as
    Clarabel when the first eigenvalue is 0 (its weight then costs nothing and moves the
    objective only at the solver's tolerance). A genuine optimum :math:`\mu \ne 0` has a
    hinge constraint active, :math:`T_i\mu = 1` for some labelled i (otherwise scaling
    :math:`\mu` up or down would lower the objective, unless the objective is flat along it, which
    happens only at the critical :math:`\beta^*` itself). The rule:

    * if :math:`\max_i T_i\mu < 10^{-3}` (no margin within a thousandth of 1), the answer
      is :math:`\mu = 0`: no kernel, every score of eq. (5) is 0;
    * otherwise entries below ``tol`` times :math:`\max_t\mu_t` are set to 0 (a tail
      that changes no score by more than a relative ``tol`` :math:`\eta/(\eta-1)`).

    The order and decay constraints stay satisfied (only a tail of entries already below
    the threshold becomes 0). ``tol`` defaults to :data:`MU_TOL` = 1e-4.

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    mu : array-like of shape (m,)
        A solver's weights :math:`\mu` (negative round-off is clipped to 0).
    T : array-like of shape (l, m)
        The margin matrix of eq. (13) (:func:`tsk_constraint_matrix`) of the same LP.
    tol : float, default MU_TOL
        Relative threshold: entries below ``tol`` times the largest become 0.

    Returns
    -------
    mu : ndarray of shape (m,)
        The cleaned weights (float64, non-negative); all 0 when the LP chose no kernel.

    Raises
    ------
    ValueError
        If ``T`` does not have one column per entry of ``mu`` (from the product
        :math:`T\mu`).

    Notes
    -----
    **Cost.** Time :math:`O(lm)` (the product :math:`T\mu`), memory :math:`O(l + m)`
    besides float64 copies of the inputs.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.spectral_kernels import clean_weights
    >>> T = np.array([[0.5, 0.2, 0.1], [0.4, -0.1, 0.3]])

    No margin within a thousandth of 1: the optimum is :math:`\mu = 0`, and the solver's
    tiny entries are noise.

    >>> clean_weights([3e-13, 1e-14, -1e-16], T)
    array([0., 0., 0.])

    A genuine kernel keeps its weights; an entry below 1e-4 of the largest is dropped:

    >>> clean_weights([4.0, 2.0, 1e-9], T)
    array([4., 2., 0.])
    """
    mu = np.maximum(check_vector(mu, "mu", allow_empty=True), 0.0)
    T = check_data(T, name="T", min_samples=0) if np.size(T) else np.zeros((0, mu.size))
    if T.shape[1] != mu.size:
        raise ValueError(
            f"T has {T.shape[1]} columns but mu has {mu.size} entries; pass one weight per column."
        )
    if mu.size == 0 or T.size == 0 or float((T @ mu).max()) < 1e-3:
        return np.zeros_like(mu)
    return np.where(mu < tol * mu.max(), 0.0, mu)


def solve_tsk(eigvals, eigvecs, y, *, eta=2.0, beta="auto", solver="scipy"):
    r"""Solve the LP of eq. (14) of Liu et al. (2009) and return the spectral weights ``mu``.

    .. math::

        \mu^\star = \arg\min_{\mu \ge 0,\ \xi \ge 0}\ \lambda^\top\mu + \beta\,\mathbf 1^\top\xi
        \quad\text{s.t.}\quad T\mu \ge \mathbf 1 - \xi,\quad \mu_t \ge \eta\,\mu_{t+1},

    the weights of the transductive spectral kernel :math:`K = \sum_t \mu_t v_tv_t^\top`,
    eq. (9), under the decay constraints of eq. (8) and the hinge loss of eq. (11) of
    Liu et al. (2009); T is eq. (13) (:func:`tsk_constraint_matrix`).

    ``solver`` is ``"scipy"`` (the default, the one solver default of the module) for
    ``scipy.optimize.linprog(method="highs")``, or a cvxpy solver name (``"HIGHS"``,
    ``"CLARABEL"``) for the same LP through :func:`tsk_linear_program`; ``"scipy"`` is the
    same HiGHS solver without cvxpy's compilation, several times faster on the small LPs
    of a leave-one-out loop (:func:`loo_select_beta`). ``beta="auto"`` is n / l.

    The solver's weights pass through :func:`clean_weights`: an optimum at round-off
    distance from :math:`\mu = 0` is returned as exactly 0, and entries below
    :data:`MU_TOL` times the largest are zeroed, so the support of ``mu`` (and every
    decision taken from it) is the same for every solver and BLAS kernel.

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    eigvals : array-like of shape (m,)
        :math:`\lambda_1, \dots, \lambda_m`, e.g. from :func:`laplacian_eigenpairs`.
    eigvecs : array-like of shape (n, m)
        The matching eigenvectors as columns.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points; at least two classes.
    eta : float, default 2.0
        :math:`\eta \ge 1`, the decay factor of eq. (8).
    beta : float or "auto", default "auto"
        :math:`\beta > 0`, the weight of the hinge loss; ``"auto"`` is n / l (points over
        labelled points).
    solver : str, default "scipy"
        ``"scipy"``, or the name of an installed cvxpy solver (``"HIGHS"``,
        ``"CLARABEL"``, ...).

    Returns
    -------
    mu : ndarray of shape (m,)
        The weights, non-negative, with :math:`\mu_t \ge \eta\mu_{t+1}`, cleaned by
        :func:`clean_weights`; all 0 when the LP chooses no kernel.

    Raises
    ------
    ValueError
        If ``eigvals`` does not hold one value in [0, 2] per column of ``eigvecs``, if the
        labelled points are of fewer than two classes, if ``eta`` < 1 or ``beta`` <= 0, or
        if ``solver`` is neither ``"scipy"`` nor an installed cvxpy solver.
    RuntimeError
        Naming the solver status, when the solver does not report an optimal solution.

    See Also
    --------
    tsk_linear_program : The same LP as a cvxpy problem.
    loo_select_beta : A choice of ``beta`` from the labelled points.

    Notes
    -----
    **Cost.** T takes time and memory :math:`O(lm)` (plus :math:`O(n)` to read ``y``).
    The LP has m + l variables and l + m - 1 inequality rows, independent of n; HiGHS
    solves it in milliseconds for l and m in the tens (its worst case is exponential in
    the size for the simplex, polynomial for interior-point methods).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, solve_tsk
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> mu = solve_tsk(lam, V, y)  # beta = n / l = 10
    >>> np.round(mu)
    array([417., 209.,   0.,   0.,   0.])

    The decay constraint of eq. (8) is active between the two weights:

    >>> round(float(mu[0] / mu[1]), 3)
    2.0

    With too small a ``beta`` the hinge loss does not pay for any eigenvector: no kernel.

    >>> solve_tsk(lam, V, y, beta=0.1)
    array([0., 0., 0., 0., 0.])
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

    .. math::

        F_{ik} = \sum_{y_j = k} K_{ij}
               = \sum_{t=1}^m \mu_t\,v_{it} \sum_{y_j = k} v_{jt}, \qquad
        F = \bar V\,\mathrm{diag}(\mu)\,\bar V_L^\top Y_L,

    the scores of the classifier of eq. (5) of Liu et al. (2009),
    :math:`f(x_i) = \arg\max_k F_{ik}`, with the kernel :math:`K = \sum_t \mu_t v_tv_t^\top`
    of eq. (9); :math:`\bar V_L` holds the labelled rows of :math:`\bar V` and :math:`Y_L`
    their one-hot labels.

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    eigvecs : array-like of shape (n, m)
        :math:`\bar V`, the eigenvectors as columns.
    mu : array-like of shape (m,)
        The spectral weights, e.g. from :func:`solve_tsk`.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points.

    Returns
    -------
    classes : ndarray of shape (c,)
        The sorted classes of the labelled points.
    F : ndarray of shape (n, c)
        ``F[i, k]`` is the score of point i for ``classes[k]``.

    Raises
    ------
    ValueError
        If ``mu`` does not hold one weight per column of ``eigvecs``, if ``eigvecs`` is not
        a finite 2-D array, or if ``y`` does not hold one numeric label per row with at
        least one labelled point.

    Notes
    -----
    **Cost.** :math:`F = \bar V\,\mathrm{diag}(\mu)\,\bar V_L^\top Y_L` costs time
    :math:`O(nmc)` (plus :math:`O(lmc)` for the class sums) and memory :math:`O(nc)`; the
    n x n kernel is never formed. :class:`TransductiveSpectralKernel` takes the argmax with
    ties to round-off broken towards the first class.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, solve_tsk, tsk_scores
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> y_true = np.repeat([0, 1], 20)
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> mu = solve_tsk(lam, V, y)
    >>> classes, F = tsk_scores(V, mu, y)
    >>> classes, F.shape
    (array([0, 1]), (40, 2))
    >>> float(np.mean(classes[F.argmax(axis=1)] == y_true))
    1.0

    The same scores from the kernel matrix itself:

    >>> K = (V * mu) @ V.T
    >>> bool(np.allclose(F[:, 1], K[:, y == 1].sum(axis=1)))
    True
    """
    V = check_data(eigvecs, name="eigvecs")
    labeled, classes, codes = check_labels(y, V.shape[0], who=_WHO)[1:]
    mu = check_vector(mu, "mu", allow_empty=True)
    if mu.shape != (V.shape[1],):
        m = V.shape[1]
        raise ValueError(f"mu must be 1-D with one weight per eigenvector ({m}); got shape {mu.shape}.")
    loadings = (V[labeled].T @ one_hot(codes, classes.size)) * mu[:, None]
    return classes, V @ loadings


def loo_select_beta(eigvals, eigvecs, y, betas, *, eta=2.0, solver="scipy"):
    r"""Choose beta by leave-one-out accuracy of eq. (5) on the labelled points only.

    .. math::

        \operatorname{acc}(\beta) = \frac{1}{\lvert\mathcal F\rvert}\sum_{i\in\mathcal F}
        \Big[\arg\max_k \sum_{y_j = k,\ j \ne i} K^{(-i)}_{\beta,ij} = y_i\Big], \qquad
        \hat\beta \in \arg\max_{\beta}\ \operatorname{acc}(\beta),

    where :math:`K^{(-i)}_\beta = \sum_t \mu_t v_tv_t^\top` has the weights of the LP,
    eq. (14) of Liu et al. (2009), solved at :math:`\beta` without the label of i, and
    :math:`\mathcal F` is the set of folds.

    For each beta and each labelled point i, the LP (14) is solved without i's label and
    i is classified by eq. (5) with the resulting kernel. No unlabelled point's label is
    used. Ties go to the smallest tied beta (the smoothest kernel), in whatever order
    ``betas`` is given. A fold in which i's class has no other labelled point is skipped
    (it could not be predicted right); if every fold would be skipped (one labelled point
    per class), there is nothing to choose by and a ``ValueError`` says so.

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    eigvals : array-like of shape (m,)
        :math:`\lambda_1, \dots, \lambda_m`, e.g. from :func:`laplacian_eigenpairs`.
    eigvecs : array-like of shape (n, m)
        The matching eigenvectors as columns.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points; at least two classes.
    betas : array-like of float
        The candidate values of :math:`\beta`, positive, smallest first.
    eta : float, default 2.0
        :math:`\eta \ge 1`, the decay factor of eq. (8).
    solver : str, default "scipy"
        Passed to :func:`solve_tsk`.

    Returns
    -------
    beta : float
        The chosen value.
    accuracy : ndarray of shape (len(betas),)
        Leave-one-out accuracy per beta, the fraction of the folds classified right.

    Raises
    ------
    ValueError
        If ``betas`` is empty or holds a value that is not a positive finite number, if
        ``eigvals`` does not hold one value in [0, 2] per column of ``eigvecs``, if the
        labelled points are of fewer than two classes or of one point each, or if
        ``eta`` < 1.
    RuntimeError
        If an LP is not solved to optimality (see :func:`solve_tsk`).

    Notes
    -----
    **Cost.** ``len(betas) * l`` LPs with l - 1 hinge rows and m weights each; each fold
    also costs :math:`O(n + lm)` to relabel and rebuild T, so the time is
    ``len(betas) * l`` times (:math:`O(n + lm)` plus one LP), and the memory
    :math:`O(n + lm)`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, loo_select_beta
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 2, 20, 21, 22]] = [0, 0, 0, 1, 1, 1]
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> beta, acc = loo_select_beta(lam, V, y, [1.0, 10.0, 100.0])
    >>> beta
    1.0
    >>> acc
    array([1., 1., 1.])
    """
    lam, V = _check_spectrum(eigvals, eigvecs)
    y, labeled, classes, codes = check_labels(y, V.shape[0], min_classes=2, who=_WHO_LP)
    betas = check_vector(betas, "betas", low=0, strict_low=True)
    idx = np.flatnonzero(labeled)
    counts = np.bincount(codes, minlength=classes.size)
    folds = [i for i, c in zip(idx, codes) if counts[c] > 1]
    if not folds:
        raise ValueError(
            "Every class has a single labelled point, so leaving one out leaves its class without "
            "labels and no fold can be scored; label at least two points of some class, or choose "
            "beta without leave-one-out (beta='auto' is n / l)."
        )
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
    ascending = np.argsort(betas, kind="stable")  # ties go to the smallest beta
    return float(betas[ascending[first_best(acc[ascending])]]), acc


def regularized_spectral_kernel(eigvals, eigvecs, alpha):
    r"""The regularised spectral kernel of eq. (4) of Liu et al. (2009).

    .. math::

        K^r = V\Theta V^\top, \qquad
        \Theta = \mathrm{diag}(\theta_1, \dots, \theta_m), \qquad
        \theta_i = \frac{1-\alpha}{1 - \alpha + \alpha\lambda_i}.

    With all n eigenpairs this is :math:`(1-\alpha)(I - \alpha S)^{-1}
    = (I + \tfrac{\alpha}{1-\alpha}\mathcal L)^{-1}`, so that :math:`K^rC` is the consistency
    method's :math:`F^*`, eq. (3) of Liu et al. (2009) (:func:`consistency_method`); with
    the m smallest it is its best rank-m part (the largest :math:`\theta`).

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    eigvals : array-like of shape (m,)
        Eigenvalues :math:`\lambda_i` of :math:`\mathcal L` (in [0, 2]).
    eigvecs : array-like of shape (n, m)
        The matching orthonormal eigenvectors as columns.
    alpha : float
        :math:`\alpha`, in (0, 1).

    Returns
    -------
    K : ndarray of shape (n, n)
        :math:`K^r`, symmetric positive semi-definite.

    Raises
    ------
    ValueError
        If ``alpha`` is not in (0, 1), or ``eigvals`` does not hold one value in [0, 2]
        (a normalised Laplacian's) per column of ``eigvecs``.

    Notes
    -----
    **Cost.** Time :math:`O(n^2m)`, memory :math:`O(n^2)` (the dense kernel).

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph, normalized_laplacian
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, regularized_spectral_kernel
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> W = knn_graph(X, 6)

    With all 40 eigenpairs, the closed form of eq. (4):

    >>> L = normalized_laplacian(W).toarray()
    >>> lam_all, V_all = np.linalg.eigh(L)
    >>> K = regularized_spectral_kernel(lam_all, V_all, 0.9)
    >>> K.shape
    (40, 40)
    >>> bool(np.allclose(K, 0.1 * np.linalg.inv(np.eye(40) - 0.9 * (np.eye(40) - L))))
    True

    With the 5 smallest, a kernel of rank 5:

    >>> lam, V = laplacian_eigenpairs(W, 5)
    >>> int(np.linalg.matrix_rank(regularized_spectral_kernel(lam, V, 0.9)))
    5
    """
    lam, V = _check_spectrum(eigvals, eigvecs)
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must lie in (0, 1); got {alpha}.")
    theta = (1 - alpha) / (1 - alpha + alpha * lam)
    return (V * theta) @ V.T


def harmonic_function(W, y):
    r"""Zhu, Ghahramani & Lafferty (2003): :math:`f_U = (D_{UU} - W_{UU})^{-1} W_{UL} Y_L`.

    .. math::

        F_L = Y_L, \qquad F_U = (D_{UU} - W_{UU})^{-1} W_{UL} Y_L, \qquad
        f(x_i) = \arg\max_k F_{ik},

    with L the labelled and U the unlabelled points, :math:`Y_L` the one-hot labels and
    :math:`D_{ii} = \sum_j W_{ij}`: the harmonic function, the minimiser of
    :math:`\tfrac12\sum_{ij}W_{ij}\lVert F_i - F_j\rVert^2` with the labelled rows fixed,
    whose every unlabelled row is the weighted average of its neighbours' rows. It is the
    "harmonic" baseline of Liu et al. (2009) (their Table 3), run here on the same graph,
    e.g. the k-NN graph of eq. (2) of Liu et al. (2009); the labels are those of eq. (1).

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    W : sparse matrix or array of shape (n, n)
        Symmetric, non-negative weights.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points.

    Returns
    -------
    labels : ndarray of shape (n,)
        The argmax of each row of ``F`` (ties to round-off go to the first class); the
        labelled points keep their labels.
    F : ndarray of shape (n, c)
        Class scores, columns in the order of the sorted classes (rows of labelled points
        are one-hot).

    Raises
    ------
    ValueError
        If ``W`` is not square, symmetric and finite, if ``y`` is not one numeric label per
        point with at least one labelled point, or if a connected component of the graph
        has no labelled point (the harmonic function is undefined there).

    See Also
    --------
    consistency_method : The other baseline of Liu et al. (2009).

    Notes
    -----
    **Cost.** One sparse LU factorisation (SuperLU, through ``spsolve``) of the
    (n - l) x (n - l) matrix :math:`D_{UU} - W_{UU}`, which has :math:`O(nk)` non-zeros
    for a k-NN graph, then c triangular solves; time and memory depend on the fill-in,
    at worst :math:`O((n-l)^3)` time and :math:`O((n-l)^2)` memory. The connected
    components add :math:`O(n + \mathrm{nnz})`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import harmonic_function
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> y_true = np.repeat([0, 1], 20)
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    >>> labels, F = harmonic_function(knn_graph(X, 6), y)
    >>> F.shape
    (40, 2)
    >>> float(np.mean(labels == y_true))
    1.0

    On a connected graph every row of ``F`` is a probability vector over the classes:

    >>> bool(np.allclose(F.sum(axis=1), 1.0)), bool(F.min() >= 0)
    (True, True)
    """
    W = sp.csr_matrix(_check_graph(W))
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
    r"""The consistency method of Zhou et al. (2004): :math:`F = (1-\alpha)(I - \alpha S)^{-1} C`.

    .. math::

        F^* = (1-\alpha)(I - \alpha S)^{-1} C, \qquad S = D^{-1/2}WD^{-1/2}, \qquad
        f(x_i) = \arg\max_k F^*_{ik},

    eq. (3) of Liu et al. (2009), labels by eq. (1); :math:`C_{ik} = 1` if point i is
    labelled with class k, 0 otherwise. By eq. (4) of Liu et al. (2009)
    :math:`F^* = K^rC`, the regularised spectral kernel with all n eigenpairs
    (:func:`regularized_spectral_kernel`). It is the "consistency" baseline of their
    Table 3.

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

    Parameters
    ----------
    W : sparse matrix or array of shape (n, n)
        Symmetric, non-negative weights with no isolated vertex.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points.
    alpha : float, default 0.99
        :math:`\alpha`, in (0, 1); 0.99 is the value of the WebKB experiments of Liu et al.
        (2009).

    Returns
    -------
    labels : ndarray of shape (n,)
        The argmax of each row of ``F`` (ties to round-off go to the first class).
    F : ndarray of shape (n, c)
        :math:`F^*`, columns in the order of the sorted classes.

    Raises
    ------
    ValueError
        If ``W`` is not square, symmetric and finite, has a negative weight or an isolated
        vertex, if ``alpha`` is not in (0, 1), or if ``y`` is not one numeric label per
        point with at least one labelled point.

    See Also
    --------
    harmonic_function : The other baseline of Liu et al. (2009).

    Notes
    -----
    **Cost.** One sparse LU factorisation (SuperLU, through ``spsolve``) of the n x n
    matrix :math:`I - \alpha S`, which has :math:`O(nk)` non-zeros for a k-NN graph,
    then c triangular solves; time and memory depend on the fill-in, at worst
    :math:`O(n^3)` time and :math:`O(n^2)` memory.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.graphs import knn_graph, normalized_laplacian
    >>> from sslteach.spectral_kernels import consistency_method, regularized_spectral_kernel
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> y_true = np.repeat([0, 1], 20)
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    >>> W = knn_graph(X, 6)
    >>> labels, F = consistency_method(W, y)
    >>> F.shape
    (40, 2)
    >>> float(np.mean(labels == y_true))
    1.0

    The same scores from the regularised spectral kernel, eq. (4):

    >>> lam_all, V_all = np.linalg.eigh(normalized_laplacian(W).toarray())
    >>> C = (y[:, None] == np.array([0, 1])).astype(float)
    >>> bool(np.allclose(F, regularized_spectral_kernel(lam_all, V_all, 0.99) @ C))
    True
    """
    W = sp.csr_matrix(_check_graph(W))
    labeled, classes, codes = check_labels(y, W.shape[0], who=_WHO)[1:]
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must lie in (0, 1); got {alpha}.")
    S, _ = _degree_normalized(W, isolated="raise")
    C = np.zeros((W.shape[0], classes.size))
    C[labeled] = one_hot(codes, classes.size)
    A = (sp.identity(W.shape[0]) - alpha * S).tocsc()
    F = (1 - alpha) * np.asarray(spsolve(A, C)).reshape(-1, classes.size)
    return classes[argmax_rows(F)], F


class TransductiveSpectralKernel(ClassifierMixin, BaseEstimator):
    """Semi-supervised classification with a transductive spectral kernel (Liu et al., 2009).

    .. math::

        K = \\sum_{t=1}^m \\mu_t v_tv_t^\\top = \\bar V\\bar U\\bar V^\\top, \\qquad
        f(x_i) = \\arg\\max_{1\\le k\\le c} \\sum_{y_j = k} K_{ij}, \\qquad
        f(x) = \\arg\\max_{1\\le k\\le c} \\sum_{y_j = k} \\bar V_x\\bar U\\bar V_j^\\top,

    the transductive spectral kernel of eq. (9), with the weights
    :math:`\\bar U = \\mathrm{diag}(\\mu)` of the linear program, eq. (14) of Liu et al.
    (2009); training points are labelled by eq. (5), new points by eq. (19) with the
    Nyström extension :math:`\\bar V_x` of eqs. (17)–(18).

    ``fit(X, y)`` with ``y = -1`` for unlabelled points runs Table 1 of the paper: the k-NN
    graph of eq. (2), the m smallest eigenpairs of the normalised Laplacian (eigenvalues
    equal to 1 skipped), the LP (14), and eq. (5) on every training point.

    Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

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
    classes_ : ndarray of shape (c,)
        The class labels, sorted.
    eigvals_ : ndarray of shape (m,)
        :math:`\\lambda_1 \\le \\dots \\le \\lambda_m`, from :func:`laplacian_eigenpairs`.
    eigvecs_ : ndarray of shape (n, m)
        :math:`\\bar V`, the matching eigenvectors as columns.
    mu_ : ndarray of shape (m,)
        The learned spectral weights :math:`\\mu` (see :func:`solve_tsk`).
    embedding_ : ndarray of shape (n, m)
        :math:`\\bar V\\bar U^{1/2}`, so ``K = embedding_ @ embedding_.T``.
    kernel_ : ndarray of shape (n, n)
        The TSK (formed on each access; for n <= ``KERNEL_LIMIT`` = 20000).
    scores_ : ndarray of shape (n, c)
        :math:`\\sum_{y_j=k} K_{ij}`, the scores of eq. (5).
    transduction_ : ndarray of shape (n,)
        Eq. (5) on every training point.
    n_components_graph_ : int
        The number of connected components of the graph.
    beta_ : float
        The beta used (n / l when ``beta="auto"``).
    neighbors_ : sklearn.neighbors.NearestNeighbors
        The index over the training points, reused by :meth:`induced_weights` (so
        ``predict`` does not rebuild the index).
    X_fit_ : ndarray of shape (n, d)
        The training points.
    W_ : scipy.sparse.csr_matrix of shape (n, n)
        The k-NN graph of eq. (2).
    degrees_ : ndarray of shape (n,)
        The degrees :math:`D_{ii} = \\sum_j W_{ij}`.
    h_ : ndarray of shape (n,)
        :math:`h(x_i)`, the distance of each training point to its k-th neighbour.
    labeled_ : ndarray of bool, shape (n,)
        Which training points are labelled.
    n_features_in_ : int
        d, the number of features seen in ``fit``.

    Notes
    -----
    **Cost of** ``fit``. The k-NN graph: a k-d tree query, about :math:`O(nk\\log n)` in few
    dimensions, brute force :math:`O(n^2d)` time and :math:`O(nk)` memory above 15. The
    eigenpairs: ``eigsh`` on the sparse :math:`S`, each Lanczos step one :math:`O(nk)`
    product plus :math:`O(n\\,\\mathrm{ncv})` orthogonalisation, a few hundred steps at
    n = 50,000 (up to ``DENSE_EIGEN_LIMIT`` = 2000 points a dense ``eigh`` instead,
    :math:`O(n^3)` time and :math:`O(n^2)` memory). The LP: l + m variables, independent
    of n (T costs :math:`O(lm)`). Eq. (5): :math:`O(nmc)`.
    Memory :math:`O(n(k + m))`; the n x n kernel is formed only when ``kernel_`` is read.
    **Cost of** ``predict`` on s new points: :meth:`induced_weights` (two neighbour
    queries), :meth:`extend` in :math:`O(\\mathrm{nnz}(W_x)\\,m)` and the scores in
    :math:`O(smc)`. ``benchmarks/bench_tsk.py`` compares ``fit`` with scikit-learn's ``LabelSpreading``.

    **scikit-learn's estimator checks** (``tests/test_estimator_checks.py``): all pass but
    ``check_classifiers_classes``, which passes string labels: labels must be numbers,
    since -1 marks unlabelled points (scikit-learn gives its own semi-supervised
    estimators numeric labels in that check).
    And ``check_estimators_nan_inf``: it fits 10 points, and the default n_components=10
    eigenvectors need at least 11 (n_components < n is refused with a ValueError).

    Examples
    --------
    Two clusters of 20 points, two labelled points in each:

    >>> import numpy as np
    >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
    >>> y_true = np.repeat([0, 1], 20)
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
    >>> float(clf.beta_)  # n / l
    10.0
    >>> np.round(clf.mu_)
    array([417., 209.,   0.,   0.,   0.])
    >>> float(np.mean(clf.transduction_ == y_true))
    1.0

    New points, by the Nyström extension:

    >>> clf.predict([[0.0, 0.0], [2.0, 0.0]])
    array([0, 1])
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
        r"""Learn the TSK on ``X`` and label every training point (Table 1 of Liu et al., 2009).

        .. math::

            \min_{\mu,\xi}\ \lambda^\top\mu + \beta\,\mathbf 1^\top\xi
            \ \ \text{s.t.}\ \ T\mu \ge \mathbf 1 - \xi,\ \mu_t \ge \eta\,\mu_{t+1},\
            \mu, \xi \ge 0, \qquad
            f(x_i) = \arg\max_{k} \sum_{y_j = k} K_{ij},

        Steps 1–4 of Table 1: the k-NN graph of eq. (2), the m smallest eigenpairs of
        :math:`\mathcal L = I - D^{-1/2}WD^{-1/2}` (eigenvalues equal to 1 skipped), the
        weights of the LP, eq. (14) of Liu et al. (2009), and the label of every training
        point by eq. (5), ties to round-off broken towards the first class.

        Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

        Parameters
        ----------
        X : array-like of shape (n, d)
            All training points, labelled and unlabelled; finite and numeric, n >= 3.
        y : array-like of shape (n,)
            One numeric label per point, ``-1`` for unlabelled points; labelled points of
            at least two classes.

        Returns
        -------
        self : TransductiveSpectralKernel
            The fitted estimator.

        Raises
        ------
        ValueError
            If ``X`` or ``y`` is invalid (fewer than 3 points, NaN or infinity, non-numeric
            or continuous labels, fewer than two labelled classes), if a parameter is
            invalid (scikit-learn's ``InvalidParameterError``), or if ``n_components`` is
            not below n.
        RuntimeError
            If the LP is not solved to optimality.

        Warns
        -----
        UserWarning
            If the k-NN graph is disconnected (components without labels get no signal),
            or if the LP chooses :math:`\mu = 0` (every score 0, every point the first
            class): increase ``beta``.

        Notes
        -----
        **Cost.** See the class's Notes: about :math:`O(nk\log n)` for the graph in few
        dimensions, the eigenpairs (dense :math:`O(n^3)` up to 2000 points, else Lanczos
        steps of :math:`O(n(k + m))` each), an LP of size l + m, :math:`O(nmc)` for the
        scores; memory :math:`O(n(k + m))`.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
        >>> rng = np.random.default_rng(0)
        >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
        >>> y = np.full(40, -1)
        >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
        >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
        >>> clf.n_components_graph_, clf.eigvecs_.shape, clf.scores_.shape
        (1, (40, 5), (40, 2))

        Too small a ``beta``: the LP chooses no kernel, and says so.

        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     clf0 = TransductiveSpectralKernel(n_components=5, beta=0.1).fit(X, y)
        >>> print(caught[0].message)  # doctest: +ELLIPSIS
        The LP chose mu = 0 (at beta=0.1 the hinge loss does not pay for any eigenvector)...
        >>> clf0.mu_
        array([0., 0., 0., 0., 0.])
        """
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
            warn_caller(
                f"The {self.n_neighbors}-NN graph has {ncomp} connected components, so the zero "
                "eigenvalue is repeated and components without labels get no signal; increase "
                "n_neighbors or join the components (sslteach.graphs.join_components).",
            )
        lam, V = laplacian_eigenpairs(W, self.n_components)
        y = np.asarray(y)
        mu = solve_tsk(lam, V, y, eta=self.eta, beta=beta, solver=self.solver)
        if not np.any(mu > 0):
            warn_caller(
                f"The LP chose mu = 0 (at beta={beta:g} the hinge loss does not pay for any "
                "eigenvector), so every score is 0 and every point gets the first class. T shrinks "
                "like l/n: increase beta (e.g. to n/l).",
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
        r"""The transductive spectral kernel on the training points, eq. (9) of Liu et al. (2009).

        .. math::

            K = \sum_{t=1}^m \mu_t v_tv_t^\top = (\bar V\bar U^{1/2})(\bar V\bar U^{1/2})^\top,

        i.e. ``embedding_ @ embedding_.T``; positive semi-definite since :math:`\mu \ge 0`
        (Theorem 1 of Liu et al., 2009).

        Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

        Returns
        -------
        K : ndarray of shape (n, n)
            The kernel matrix, formed anew on each access.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If n > ``KERNEL_LIMIT`` (20000): use ``embedding_`` or ``scores_`` instead.

        Notes
        -----
        **Cost.** Time :math:`O(n^2m)` and memory :math:`O(n^2)` on every access.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
        >>> rng = np.random.default_rng(0)
        >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
        >>> y = np.full(40, -1)
        >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
        >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
        >>> K = clf.kernel_
        >>> K.shape, bool(np.allclose(K, K.T))
        ((40, 40), True)
        >>> bool(np.allclose(K[:, y == 0].sum(axis=1), clf.scores_[:, 0]))
        True
        """
        check_is_fitted(self, "mu_")
        n = self.eigvecs_.shape[0]
        if n > self.KERNEL_LIMIT:
            raise ValueError(
                f"kernel_ would be a dense {n} x {n} matrix; use embedding_ (K = embedding_ @ embedding_.T) "
                "or scores_ instead."
            )
        return self.embedding_ @ self.embedding_.T

    def induced_weights(self, X):
        r"""Eq. (2) weights between new points and the training points (sparse, s x n).

        .. math::

            W_{x,i} = \exp\left(-\frac{\lVert x - x_i\rVert^2}{\max\{h(x)^2, h(x_i)^2\}}\right)
            \quad\text{if}\quad \lVert x - x_i\rVert \le \max\{h(x), h(x_i)\},
            \qquad W_{x,i} = 0 \ \text{otherwise},

        the inductive weights :math:`W_{x,i} = W(x, x_i)` of eq. (17) of Liu et al. (2009),
        computed like the graph of eq. (2), with :math:`h(x_i)` of the training graph kept
        (``h_``).

        The new point's h is its k-th neighbour distance among the training points; an edge
        exists when the distance is at most max(h(x), h(x_i)). Candidates come from one
        radius query; every distance that decides (h(x), and each edge's inclusion and
        weight) is then recomputed exactly, coordinate by coordinate, as in
        :func:`sslteach.graphs.knn_graph`, so the weights do not depend on the BLAS kernel.

        Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

        Parameters
        ----------
        X : array-like of shape (s, d)
            New points, with the features of the training points.

        Returns
        -------
        Wx : scipy.sparse.csr_matrix of shape (s, n)
            ``Wx[a, i]`` is :math:`W_{x_a,i}`; every row has at least k edges (its k
            nearest training points), each of weight in :math:`[e^{-1}, 1]` up to round-off.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If ``X`` is not a finite numeric 2-D array with ``n_features_in_`` columns.

        Notes
        -----
        **Cost.** A k-nearest-neighbour query and a radius query on the index
        ``neighbors_`` (a tree in few dimensions: roughly :math:`O(s(k + r)\log n)` for r
        candidates per point; brute force :math:`O(snd)` time), then :math:`O(rd)` per
        point for the exact distances; memory :math:`O(sr)`. The radius is the largest
        h, so on data of uneven density r can exceed k by far.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
        >>> rng = np.random.default_rng(0)
        >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
        >>> y = np.full(40, -1)
        >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
        >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
        >>> Wx = clf.induced_weights([[0.0, 0.0], [2.0, 0.0]])
        >>> Wx.shape
        (2, 40)
        >>> Wx.getnnz(axis=1).tolist()
        [9, 11]
        >>> bool(Wx.data.min() > 0.36), bool(Wx.data.max() <= 1.0)
        (True, True)
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
        r"""The spectral representation of new points: the Nyström extension, eq. (18) of Liu et al. (2009).

        .. math::

            \bar V_{x,t} = \frac{1}{1-\lambda_t}\sum_{i=1}^n
            \frac{W_{x,i}}{\sqrt{D_{xx}D_{ii}}}\,v_{it}, \qquad
            \bar V_x = w_x^\top\bar V(I-\bar\Lambda)^{-1},

        eqs. (17)–(18) of Liu et al. (2009), with :math:`D_{xx} = \sum_i W_{x,i}`,
        :math:`w_x = [W_{x,i}/\sqrt{D_{xx}D_{ii}}]_i` and
        :math:`\bar\Lambda = \mathrm{diag}(\lambda_1, \dots, \lambda_m)`, from the induced
        weights ``Wx`` (s x n) of new points. The kernel between a new point and a training
        point is then :math:`K(x, x_j) = \bar V_x\bar U\bar V_j^\top`, eq. (16); eigenvalues
        equal to 1, where the formula divides by zero, were excluded in ``fit``.

        Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

        Parameters
        ----------
        Wx : sparse matrix or array of shape (s, n)
            Weights between s new points and the n training points, e.g. from
            :meth:`induced_weights`; every row must have a positive sum.

        Returns
        -------
        Vx : ndarray of shape (s, m)
            Row a is :math:`\bar V_x` of the a-th new point.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If a row of ``Wx`` has no positive weight (:math:`D_{xx} = 0`), or ``Wx`` does
            not have n columns.

        Notes
        -----
        **Cost.** Time :math:`O(\mathrm{nnz}(W_x)\,m + sm)`, memory
        :math:`O(\mathrm{nnz}(W_x) + sm)`.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
        >>> rng = np.random.default_rng(0)
        >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
        >>> y = np.full(40, -1)
        >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
        >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
        >>> X_new = np.array([[0.0, 0.0], [2.0, 0.0]])
        >>> Vx = clf.extend(clf.induced_weights(X_new))
        >>> Vx.shape
        (2, 5)

        The kernel of eq. (16) between the new and the training points gives the scores of
        eq. (19):

        >>> K_new = (Vx * clf.mu_) @ clf.eigvecs_.T
        >>> scores = np.column_stack([K_new[:, y == 0].sum(axis=1), K_new[:, y == 1].sum(axis=1)])
        >>> bool(np.allclose(scores[:, 1] - scores[:, 0], clf.decision_function(X_new)))
        True
        >>> clf.extend(np.zeros((1, 40)))
        Traceback (most recent call last):
            ...
        ValueError: A new point has no edge to the training points; it cannot be extended.
        """
        check_is_fitted(self, "mu_")
        Wx = sp.csr_matrix(check_data(Wx, name="Wx", accept_sparse=True))
        if Wx.shape[1] != self.degrees_.size:
            raise ValueError(
                f"Wx must have one column per training point ({self.degrees_.size}); got shape {Wx.shape}."
            )
        if Wx.nnz and Wx.data.min() < 0:
            raise ValueError("Wx holds negative weights; pass the similarities of induced_weights (>= 0).")
        dx = np.asarray(Wx.sum(axis=1)).ravel()
        if np.any(dx <= 0):
            raise ValueError("A new point has no edge to the training points; it cannot be extended.")
        wx = sp.diags(1 / np.sqrt(dx)) @ Wx @ sp.diags(1 / np.sqrt(self.degrees_))
        return np.asarray(wx @ self.eigvecs_) / (1.0 - self.eigvals_)

    def _scores(self, X):
        check_is_fitted(self, "mu_")
        return self.extend(self.induced_weights(X)) @ self._class_loadings

    def decision_function(self, X):
        r"""Class scores of new points, :math:`\sum_{y_j=k} K(x, x_j)`, eq. (19) of Liu et al. (2009).

        .. math::

            F_{xk} = \sum_{y_j = k} K(x, x_j) = \sum_{y_j = k} \bar V_x\bar U\bar V_j^\top,

        with :math:`\bar V_x` the Nyström extension of eq. (18) (:meth:`extend`) and
        :math:`\bar U = \mathrm{diag}(\mu)`: the scores whose argmax is eq. (19) of Liu et al.
        (2009). Shape (s, c), or for two classes, as in scikit-learn, shape (s,): the second
        class's score minus the first's (positive means ``classes_[1]``).

        Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

        Parameters
        ----------
        X : array-like of shape (s, d)
            New points, with the features of the training points.

        Returns
        -------
        scores : ndarray of shape (s,) or (s, c)
            :math:`F_{x,1} - F_{x,0}` for two classes, else :math:`F_{xk}` with columns in
            the order of ``classes_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If ``X`` is not a finite numeric 2-D array with ``n_features_in_`` columns.

        Notes
        -----
        **Cost.** :meth:`induced_weights`, then :meth:`extend` in
        :math:`O(\mathrm{nnz}(W_x)\,m)` and the scores in :math:`O(smc)` (the class sums
        of the labelled rows are kept from ``fit``); memory :math:`O(\mathrm{nnz}(W_x) + sm)`.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
        >>> rng = np.random.default_rng(0)
        >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
        >>> y = np.full(40, -1)
        >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
        >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
        >>> np.round(clf.decision_function([[0.0, 0.0], [2.0, 0.0]]), 1)
        array([-18.8,  19.6])
        """
        F = self._scores(X)
        return F[:, 1] - F[:, 0] if F.shape[1] == 2 else F

    def predict(self, X):
        r"""Labels of new points by eq. (19) of Liu et al. (2009).

        .. math::

            f(x) = \arg\max_{1\le k\le c} \sum_{y_j = k} K(x, x_j)
                 = \arg\max_{1\le k\le c} \sum_{y_j = k} \bar V_x\bar U\bar V_j^\top,

        with :math:`\bar V_x = w_x^\top\bar V(I-\bar\Lambda)^{-1}`, the Nyström extension of
        eqs. (17)–(18), from the weights of eq. (2) between x and the training points
        (:meth:`induced_weights`). Ties to round-off go to the first class.

        Derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

        Parameters
        ----------
        X : array-like of shape (s, d)
            New points, with the features of the training points.

        Returns
        -------
        labels : ndarray of shape (s,)
            Values from ``classes_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If ``X`` is not a finite numeric 2-D array with ``n_features_in_`` columns.

        Notes
        -----
        **Cost.** As :meth:`decision_function`: the two neighbour queries of
        :meth:`induced_weights`, :math:`O(\mathrm{nnz}(W_x)\,m)` for :meth:`extend` and
        :math:`O(smc)` for the scores.

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
        >>> rng = np.random.default_rng(0)
        >>> X = np.vstack([rng.normal(0, 0.5, (20, 2)), rng.normal(0, 0.5, (20, 2)) + [2, 0]])
        >>> y = np.full(40, -1)
        >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
        >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
        >>> clf.predict([[0.0, 0.0], [2.0, 0.0], [-0.5, 0.5], [2.5, -0.5]])
        array([0, 1, 0, 1])
        """
        F = self._scores(X)
        return self.classes_[argmax_rows(F)]
