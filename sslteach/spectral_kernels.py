r"""Spectral kernels learnt by a linear program: Liu, Qian, Cui & Liu (2009), Chapter 3.

The method (Table 1 of the paper), one function per step:

1. the k-NN graph W of eq. (2) (:func:`sslteach.graphs.knn_graph`);
2. the m smallest eigenpairs :math:`(\lambda_t, v_t)` of the normalised Laplacian
   :math:`\mathcal L = I - D^{-1/2}WD^{-1/2}`, eigenvalues equal to 1 skipped
   (:func:`laplacian_eigenpairs`);
3. the weights :math:`\mu` of the kernel :math:`K = \sum_t \mu_t v_tv_t^\top` (eq. (9))
   from the linear program (14) (:func:`tsk_constraint_matrix`, :func:`tsk_linear_program`,
   :func:`solve_tsk`, :func:`clean_weights`);
4. labels by eq. (5), :math:`\arg\max_k \sum_{y_j=k}K_{ij}` (:func:`tsk_scores`), and for
   new points by the Nyström extension (17)–(19) (:class:`TransductiveSpectralKernel`).

:func:`loo_select_beta` chooses :math:`\beta` from the labelled points; the baselines of
the paper's Table 3 are :func:`harmonic_function`, :func:`consistency_method` and
:func:`regularized_spectral_kernel`. Equation numbers are the paper's. Labels follow
scikit-learn's semi-supervised convention: one entry per point, ``-1`` for unlabelled.
Public functions validate their input once (bad input raises a ValueError that says what
to do; an LP not solved to optimality, a RuntimeError naming the solver's status); the
private cores (``_eigenpairs``, ``_margins``, ``_solve_lp``, ...) they share with the
estimator do not.

Everything here is derived in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3).

References
----------
Liu, W., Qian, B., Cui, J. & Liu, J. (2009). Spectral kernel learning for semi-supervised
classification. *IJCAI*, 1150–1155.

Zhou, D., Bousquet, O., Lal, T. N., Weston, J. & Schölkopf, B. (2004). Learning with local
and global consistency. *NIPS 16*, 321–328.

Zhu, X., Ghahramani, Z. & Lafferty, J. (2003). Semi-supervised learning using Gaussian
fields and harmonic functions. *ICML*, 912–919.
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
from .graphs import _check_graph, _check_n_neighbors, _degree_normalized, _knn_graph_and_h

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
r"""LP weights below ``MU_TOL`` times the largest are zeroed (see :func:`clean_weights`).

The decay constraints of eq. (8) make the zeroed entries a tail with
:math:`\mu_{t+1} \le \mu_t/\eta`, so no score of eq. (5) moves by more than a relative
:math:`\mathrm{MU\_TOL}\,\eta/(\eta - 1)` (2e-4 for :math:`\eta = 2`). The value is set by
the solvers: on Chapter 3's 960 UCI problems Clarabel leaves entries up to 2.9e-6 of the
largest where HiGHS has exact zeros; 1e-6 split their supports in 5 of the 960, 1e-4 in none.
"""


def _exact_distances(x, Y):
    """||x - y_j|| for each row of Y, by differences (no |x|^2 + |y|^2 - 2x'y cancellation)."""
    diff = Y - x
    return np.sqrt(np.einsum("ij,ij->i", diff, diff))


def _eigenpairs(W, m, exclude_one=True, tol=1e-7, random_state=0):
    """Core of :func:`laplacian_eigenpairs` (``W`` checked, ``1 <= m < n``)."""
    n = W.shape[0]
    S, deg = _degree_normalized(W, isolated="raise")
    if n <= DENSE_EIGEN_LIMIT:
        lam, vec = np.linalg.eigh(np.eye(n) - S.toarray())
    else:
        v0 = np.random.default_rng(random_state).uniform(0.5, 1.5, n) * np.sqrt(deg)
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
        for col, c in enumerate(np.lexsort((first, -sizes))[:z]):
            u = np.where(comp == c, np.sqrt(deg), 0.0)
            vec[:, col] = u / np.linalg.norm(u)
    keep = np.abs(lam - 1.0) > _ONE_TOL if exclude_one else np.ones(lam.size, bool)
    lam, vec = lam[keep], vec[:, keep]
    if lam.size < m:
        raise ValueError(
            f"Only {lam.size} eigenvalues different from 1 were found; ask for fewer n_components (got {m})."
        )
    return lam[:m].copy(), np.ascontiguousarray(vec[:, :m])


def laplacian_eigenpairs(W, n_components, *, exclude_one=True, tol=1e-7, random_state=0):
    r"""The ``n_components`` smallest eigenpairs of :math:`\mathcal L = I - D^{-1/2}WD^{-1/2}`.

    .. math::

        \mathcal L\,v_t = \lambda_t v_t, \qquad
        0 = \lambda_1 \le \lambda_2 \le \dots \le \lambda_m \le 2, \qquad \lambda_t \ne 1,

    Step 2 of Table 1: the eigenvectors are the basic kernels :math:`v_tv_t^\top` of eq. (9),
    the eigenvalues the costs of the LP (14). :math:`\mathcal L` is that of
    :func:`sslteach.graphs.normalized_laplacian` (the same code).

    Parameters
    ----------
    W : sparse matrix or array of shape (n, n)
        Symmetric, non-negative weights with no isolated vertex (e.g. ``knn_graph``).
    n_components : int
        m, with 1 <= m < n.
    exclude_one : bool, default True
        Skip eigenvalues equal to 1 (to 1e-8): the extension (17) divides by :math:`1 - \lambda_t`.
    tol : float, default 1e-7
        Stopping tolerance of ``eigsh`` (residual :math:`\le` ``tol`` :math:`\cdot|s|`); on
        ``benchmarks/bench_tsk.py`` (n = 50,000) 8–17% faster than 1e-9 with the same LP
        weights and labels. Ignored by the dense path.
    random_state : int, default 0
        Seeds ``eigsh``'s start vector. Ignored by the dense path.

    Returns
    -------
    eigvals : ndarray of shape (m,)
        Ascending, in [0, 2]; one exact 0 per connected component.
    eigvecs : ndarray of shape (n, m)
        Orthonormal columns, each with its largest-magnitude entry positive (ties to
        round-off: the first). For eigenvalue 0, the components' vectors :math:`D^{1/2}\mathbf 1_C`,
        normalised, largest component first (LAPACK's basis of that eigenspace would depend on
        the BLAS kernel).

    Notes
    -----
    **Cost.** Up to ``DENSE_EIGEN_LIMIT`` (2000) points a dense ``eigh``: time
    :math:`O(n^3)`, memory :math:`O(n^2)`. Above, ``eigsh`` (Lanczos) for the largest
    eigenvalues of the sparse :math:`S = D^{-1/2}WD^{-1/2}` (:math:`\lambda = 1 - s`), no
    factorisation: :math:`O(nk + nm)` per step, a few hundred steps at n = 50,000, memory
    :math:`O(n(k + m))`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs
    >>> X, y, y_true = make_two_clouds()  # 2 x 20 points, 2 labelled in each cloud
    >>> W = knn_graph(X, 6)
    >>> lam, V = laplacian_eigenpairs(W, 5)
    >>> np.round(lam, 3)
    array([0.   , 0.011, 0.143, 0.2  , 0.366])
    >>> bool(np.allclose(V.T @ V, np.eye(5)))
    True

    On a connected graph the first eigenvector is :math:`D^{1/2}\mathbf 1`, normalised:

    >>> d = np.asarray(W.sum(axis=1)).ravel()
    >>> bool(np.allclose(V[:, 0], np.sqrt(d) / np.linalg.norm(np.sqrt(d))))
    True

    Moved apart, the clouds are two components, hence two eigenvalues exactly 0:

    >>> X[20:, 0] += 2
    >>> laplacian_eigenpairs(knn_graph(X, 6), 3)[0][:2]
    array([0., 0.])
    """
    W = _check_graph(W)
    n = W.shape[0]
    m = check_int(n_components, "n_components", low=1, high=n - 1, high_hint=f"The graph has {n} vertices.")
    return _eigenpairs(W, m, exclude_one, check_positive(tol, "tol"), random_state)


def _margins(VL, codes, n_classes):
    """T of eq. (13) from the labelled rows ``VL`` and their class codes (no n^2 x m matrix):
    with s_c the sums of the rows of class c and s the sum of all rows,
    sum_j e_ij v_jt = (s_{y_i} - v_i) - (s - s_{y_i})."""
    class_sums = np.zeros((n_classes, VL.shape[1]))
    np.add.at(class_sums, codes, VL)
    same = class_sums[codes] - VL  # same label, j != i
    diff = VL.sum(axis=0) - class_sums[codes]
    return VL * (same - diff)


def tsk_constraint_matrix(eigvecs, y):
    r"""The l x m margin matrix T of the LP, eq. (13).

    .. math::

        T_{it} = v_{it}\sum_{j=1}^n e_{ij}\,v_{jt}, \qquad
        e_{ij} = \begin{cases}
            +1 & y_i = y_j,\ i \ne j,\\
            -1 & y_i \ne y_j,\\
            0 & j \text{ unlabelled, or } j = i,
        \end{cases}

    for each labelled point i and eigenvector :math:`v_t`, so that
    :math:`(T\mu)_i = \sum_j e_{ij}K_{ij}` for :math:`K = \sum_t \mu_t v_tv_t^\top`: the
    margin of i in the hinge loss (11) and the constraint :math:`T\mu \ge \mathbf 1 - \xi` of (14).

    Parameters
    ----------
    eigvecs : array-like of shape (n, m)
        :math:`v_1, \dots, v_m` as columns (from :func:`laplacian_eigenpairs`).
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points.

    Returns
    -------
    T : ndarray of shape (l, m)
        One row per labelled point, in their order in ``y``.

    Notes
    -----
    **Cost.** Time :math:`O(lm)`, memory :math:`O(lm + cm)` for c classes, plus
    :math:`O(n)` to read ``y``; the paper's :math:`n^2\times m` matrix M is never formed.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, tsk_constraint_matrix
    >>> X, y, _ = make_two_clouds()
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> T = tsk_constraint_matrix(V, y)

    The same matrix from the indicator :math:`e_{ij}` over the labelled pairs; quadratic in
    each eigenvector, so the eigensolver's signs do not matter:

    >>> lab = np.flatnonzero(y != -1)
    >>> E = np.where(y[lab, None] == y[None, lab], 1.0, -1.0) - np.eye(lab.size)
    >>> bool(np.allclose(T, V[lab] * (E @ V[lab]))), bool(np.allclose(tsk_constraint_matrix(-V, y), T))
    (True, True)
    """
    V = check_data(eigvecs, name="eigvecs")
    _, labeled, classes, codes = check_labels(y, V.shape[0], who=_WHO)
    return _margins(V[labeled], codes, classes.size)


def _check_spectrum(eigvals, eigvecs):
    lam = check_vector(eigvals, "eigvals", allow_empty=True)
    V = check_data(eigvecs, name="eigvecs")
    if lam.size != V.shape[1]:
        raise ValueError(
            f"eigvals has shape {lam.shape} but eigvecs has {V.shape[1]} columns; "
            "pass one eigenvalue per column."
        )
    if lam.size and (lam.min() < -1e-8 or lam.max() > 2 + 1e-8):
        raise ValueError(
            f"eigvals must be eigenvalues of a normalised Laplacian, in [0, 2]; got values in "
            f"[{lam.min():.3g}, {lam.max():.3g}]. Compute them with laplacian_eigenpairs."
        )
    return lam, V


def _check_lp(eigvals, eigvecs, y, eta, beta):
    """The LP's inputs checked once: (lam, V, y, labeled, classes, codes, eta, beta);
    ``beta="auto"`` is n / l (the entries of T shrink like l / n, so a fixed beta lets
    mu = 0 win as n grows)."""
    lam, V = _check_spectrum(eigvals, eigvecs)
    y, labeled, classes, codes = check_labels(y, V.shape[0], min_classes=2, who=_WHO_LP)
    eta = check_positive(eta, "eta")
    if eta < 1:
        raise ValueError(f"eta is the decay factor of eq. (8) and must be >= 1; got {eta}.")
    auto = isinstance(beta, str) and beta == "auto"
    beta = labeled.size / labeled.sum() if auto else check_positive(beta, "beta")
    return lam, V, y, labeled, classes, codes, eta, float(beta)


def _check_solver(solver):
    if solver == "scipy":
        return solver
    import cvxpy as cp

    if not isinstance(solver, str) or solver not in cp.installed_solvers():
        raise ValueError(
            f"solver must be 'scipy' or one of cvxpy's installed solvers {cp.installed_solvers()}; "
            f"got {solver!r}."
        )
    return solver


def _lp_problem(lam, T, eta, beta):
    """The LP (14) as a cvxpy problem, with its variables mu and xi."""
    import cvxpy as cp

    l, m = T.shape
    mu = cp.Variable(m, nonneg=True, name="mu")
    xi = cp.Variable(l, nonneg=True, name="xi")
    constraints = [T @ mu >= 1 - xi]
    if m > 1:
        constraints.append(mu[:-1] >= eta * mu[1:])
    return cp.Problem(cp.Minimize(lam @ mu + beta * cp.sum(xi)), constraints), mu, xi


def tsk_linear_program(eigvals, eigvecs, y, *, eta=2.0, beta="auto"):
    r"""The linear program (14) as a cvxpy ``Problem``, with its variables, not solved.

    .. math::

        \min_{\mu,\xi}\ \lambda^\top\mu + \beta\,\mathbf 1^\top\xi
        \quad\text{s.t.}\quad T\mu \ge \mathbf 1 - \xi,\quad
        \mu_t \ge \eta\,\mu_{t+1}\ (t < m),\quad \mu \ge 0,\quad \xi \ge 0,

    with T of eq. (13): the smoothness :math:`\operatorname{tr}(\mathcal LK) = \lambda^\top\mu`
    of eq. (10), :math:`\beta` times the hinge loss (11), and the decay :math:`\Gamma\mu \ge 0`
    of eq. (8). There to be read, or solved by another cvxpy solver; :func:`solve_tsk` solves it.

    Parameters
    ----------
    eigvals : array-like of shape (m,)
        :math:`\lambda_1, \dots, \lambda_m`, in [0, 2].
    eigvecs : array-like of shape (n, m)
        The matching eigenvectors as columns.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points; at least two classes.
    eta : float, default 2.0
        :math:`\eta \ge 1`, the decay factor of eq. (8).
    beta : float or "auto", default "auto"
        :math:`\beta > 0`, the weight of the hinge loss; ``"auto"`` is n / l.

    Returns
    -------
    problem : cvxpy.Problem
    mu : cvxpy.Variable of shape (m,)
    xi : cvxpy.Variable of shape (l,)
        One slack per labelled point, in the order of ``y``.

    Notes
    -----
    **Cost.** T: time and memory :math:`O(lm)`. The LP has m + l variables and
    l + m - 1 inequality rows, independent of n; cvxpy's compilation dominates on small LPs.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import (
    ...     laplacian_eigenpairs, solve_tsk, tsk_constraint_matrix, tsk_linear_program)
    >>> X, y, _ = make_two_clouds()
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> problem, mu, xi = tsk_linear_program(lam, V, y)
    >>> mu.shape, xi.shape, problem.is_dcp()
    ((5,), (4,), True)

    The weights of :func:`solve_tsk`, with the smallest slacks they allow, are feasible:

    >>> mu.value = solve_tsk(lam, V, y)
    >>> xi.value = np.maximum(0, 1 - tsk_constraint_matrix(V, y) @ mu.value)
    >>> all(bool(c.value()) for c in problem.constraints), round(float(problem.objective.value), 1)
    (True, 11.5)
    """
    lam, V, _, labeled, classes, codes, eta, beta = _check_lp(eigvals, eigvecs, y, eta, beta)
    return _lp_problem(lam, _margins(V[labeled], codes, classes.size), eta, beta)


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
    return res.x[:m]


def _clean_weights(mu, T, tol=MU_TOL):
    """Core of :func:`clean_weights`."""
    mu = np.maximum(mu, 0.0)
    if mu.size == 0 or T.size == 0 or float((T @ mu).max()) < 1e-3:
        return np.zeros_like(mu)
    return np.where(mu < tol * mu.max(), 0.0, mu)


def _solve_lp(lam, T, eta, beta, solver):
    """Core of :func:`solve_tsk`: the cleaned LP weights from checked inputs."""
    if solver == "scipy":
        return _clean_weights(_solve_tsk_scipy(lam, T, eta, beta), T)
    problem, mu, _ = _lp_problem(lam, T, eta, beta)
    problem.solve(solver=solver)
    if problem.status != "optimal" or mu.value is None:
        raise RuntimeError(
            f"The TSK linear program was not solved to optimality: solver {solver} returned status "
            f"{problem.status!r}. Try solver='CLARABEL' or check eigvals/eigvecs."
        )
    return _clean_weights(np.asarray(mu.value, dtype=np.float64), T)


def clean_weights(mu, T, *, tol=MU_TOL):
    r"""Zero the LP weights that are solver noise, so that no decision rests on it.

    .. math::

        \mu \leftarrow \max(\mu, 0), \qquad
        \mu_t \leftarrow
        \begin{cases}
            0 & \text{if } \max_i (T\mu)_i < 10^{-3},\\
            0 & \text{if } \mu_t < \mathrm{tol}\cdot\max_s\mu_s,\\
            \mu_t & \text{otherwise.}
        \end{cases}

    When the optimum of (14) is :math:`\mu = 0` solvers return small positive entries
    instead (1e-14 from HiGHS, up to 1e-5 from Clarabel when :math:`\lambda_1 = 0` makes
    :math:`\mu_1` free). A genuine optimum :math:`\mu \ne 0` has an active hinge constraint,
    :math:`T_i\mu = 1` (else scaling :math:`\mu` would lower the objective), hence the first
    rule; the second drops a tail that moves no score by more than a relative
    ``tol`` :math:`\eta/(\eta-1)` and keeps the decay constraints satisfied.

    Parameters
    ----------
    mu : array-like of shape (m,)
        A solver's weights (negative round-off is clipped to 0).
    T : array-like of shape (l, m)
        The margin matrix of eq. (13) of the same LP.
    tol : float, default MU_TOL
        Entries below ``tol`` times the largest become 0.

    Returns
    -------
    mu : ndarray of shape (m,)
        Non-negative; all 0 when the LP chose no kernel.

    Notes
    -----
    **Cost.** Time :math:`O(lm)` (the product :math:`T\mu`), memory :math:`O(l + m)`.

    Examples
    --------
    >>> from sslteach.spectral_kernels import clean_weights
    >>> T = [[0.5, 0.2, 0.1], [0.4, -0.1, 0.3]]
    >>> clean_weights([3e-13, 1e-14, -1e-16], T)  # no margin near 1: mu = 0
    array([0., 0., 0.])
    >>> clean_weights([4.0, 2.0, 1e-9], T)  # a kernel; 1e-9 < 1e-4 x 4 is dropped
    array([4., 2., 0.])
    """
    mu = check_vector(mu, "mu", allow_empty=True)
    T = check_data(T, name="T", min_samples=0) if np.size(T) else np.zeros((0, mu.size))
    if T.shape[1] != mu.size:
        raise ValueError(
            f"T has {T.shape[1]} columns but mu has {mu.size} entries; pass one weight per column."
        )
    return _clean_weights(mu, T, tol)


def solve_tsk(eigvals, eigvecs, y, *, eta=2.0, beta="auto", solver="scipy"):
    r"""Solve the LP (14) and return the spectral weights ``mu``, cleaned.

    The LP of :func:`tsk_linear_program` solved by ``scipy.optimize.linprog(method="highs")``
    (``solver="scipy"``, the module's one solver default: HiGHS without cvxpy's compilation,
    several times faster in the leave-one-out loop of :func:`loo_select_beta`) or by a
    cvxpy solver (``"HIGHS"``, ``"CLARABEL"``). The weights then pass through
    :func:`clean_weights`, so the support of ``mu`` is the same for every solver and BLAS kernel.

    Parameters
    ----------
    eigvals, eigvecs, y, eta, beta
        As in :func:`tsk_linear_program`.
    solver : str, default "scipy"
        ``"scipy"``, or an installed cvxpy solver's name.

    Returns
    -------
    mu : ndarray of shape (m,)
        Non-negative, :math:`\mu_t \ge \eta\mu_{t+1}`; all 0 when the LP chooses no kernel.

    Notes
    -----
    **Cost.** T in :math:`O(lm)`; an LP of m + l variables and l + m - 1 rows,
    independent of n, which HiGHS solves in milliseconds for l and m in the tens.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, solve_tsk
    >>> X, y, _ = make_two_clouds()
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> mu = solve_tsk(lam, V, y)  # beta = n / l = 10
    >>> np.round(mu), round(float(mu[0] / mu[1]), 3)  # the decay (8) is active
    (array([417., 209.,   0.,   0.,   0.]), 2.0)
    >>> solve_tsk(lam, V, y, beta=0.1)  # the hinge loss pays for no eigenvector
    array([0., 0., 0., 0., 0.])
    """
    lam, V, _, labeled, classes, codes, eta, beta = _check_lp(eigvals, eigvecs, y, eta, beta)
    T = _margins(V[labeled], codes, classes.size)
    return _solve_lp(lam, T, eta, beta, _check_solver(solver))


def _weighted_class_sums(VL, codes, n_classes, mu):
    """diag(mu) V_L^T Y_L: the scores of eq. (5) are V @ this, O(lmc)."""
    return (VL.T @ one_hot(codes, n_classes)) * mu[:, None]


def tsk_scores(eigvecs, mu, y):
    r"""Class scores of eq. (5), :math:`F_{ik} = \sum_{y_j=k}K_{ij}`, without forming K.

    .. math::

        F_{ik} = \sum_{y_j = k} K_{ij} = \sum_{t=1}^m \mu_t\,v_{it} \sum_{y_j = k} v_{jt},
        \qquad F = \bar V\,\mathrm{diag}(\mu)\,\bar V_L^\top Y_L,

    with :math:`K = \sum_t \mu_t v_tv_t^\top` (eq. (9)), :math:`\bar V_L` the labelled rows
    and :math:`Y_L` their one-hot labels; eq. (5) labels i by :math:`\arg\max_k F_{ik}`.

    Parameters
    ----------
    eigvecs : array-like of shape (n, m)
    mu : array-like of shape (m,)
        The spectral weights, e.g. from :func:`solve_tsk`.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points.

    Returns
    -------
    classes : ndarray of shape (c,)
        The sorted classes of the labelled points.
    F : ndarray of shape (n, c)

    Notes
    -----
    **Cost.** Time :math:`O(nmc)`, memory :math:`O(nc)`; the n x n kernel is never formed.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, solve_tsk, tsk_scores
    >>> X, y, y_true = make_two_clouds()
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> mu = solve_tsk(lam, V, y)
    >>> classes, F = tsk_scores(V, mu, y)
    >>> float(np.mean(classes[F.argmax(axis=1)] == y_true))
    1.0
    >>> K = (V * mu) @ V.T  # the same scores from the kernel matrix
    >>> bool(np.allclose(F[:, 1], K[:, y == 1].sum(axis=1)))
    True
    """
    V = check_data(eigvecs, name="eigvecs")
    _, labeled, classes, codes = check_labels(y, V.shape[0], who=_WHO)
    mu = check_vector(mu, "mu", allow_empty=True)
    if mu.shape != (V.shape[1],):
        m = V.shape[1]
        raise ValueError(f"mu must be 1-D with one weight per eigenvector ({m}); got shape {mu.shape}.")
    return classes, V @ _weighted_class_sums(V[labeled], codes, classes.size, mu)


def loo_select_beta(eigvals, eigvecs, y, betas, *, eta=2.0, solver="scipy"):
    r"""Choose beta by leave-one-out accuracy of eq. (5) on the labelled points only.

    .. math::

        \hat\beta \in \arg\max_{\beta}\ \frac{1}{\lvert\mathcal F\rvert}\sum_{i\in\mathcal F}
        \Big[\arg\max_k \sum_{y_j = k,\ j \ne i} K^{(-i)}_{\beta,ij} = y_i\Big],

    where :math:`K^{(-i)}_\beta` has the weights of the LP (14) solved at :math:`\beta`
    without i's label. No unlabelled point's label is used. Ties go to the smallest tied
    beta (the smoothest kernel), whatever the order of ``betas``. The folds
    :math:`\mathcal F` are the labelled points whose class has another labelled point.

    Parameters
    ----------
    eigvals, eigvecs, y, eta
        As in :func:`tsk_linear_program`.
    betas : array-like of float
        The candidates, positive.
    solver : str, default "scipy"
        As in :func:`solve_tsk`.

    Returns
    -------
    beta : float
    accuracy : ndarray of shape (len(betas),)
        The fraction of the folds classified right, per beta.

    Notes
    -----
    **Cost.** ``len(betas) * l`` LPs of l - 1 hinge rows and m weights, each after
    :math:`O(lm)` to rebuild T; memory :math:`O(n + lm)`.

    Examples
    --------
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import laplacian_eigenpairs, loo_select_beta
    >>> X, y, _ = make_two_clouds(n_labeled=3)
    >>> lam, V = laplacian_eigenpairs(knn_graph(X, 6), 5)
    >>> loo_select_beta(lam, V, y, [1.0, 10.0, 100.0])
    (1.0, array([1., 1., 1.]))
    """
    lam, V, y, labeled, classes, codes, eta, _ = _check_lp(eigvals, eigvecs, y, eta, 1.0)
    betas = check_vector(betas, "betas", low=0, strict_low=True)
    solver = _check_solver(solver)
    idx = np.flatnonzero(labeled)
    counts = np.bincount(codes, minlength=classes.size)
    folds = [f for f in range(idx.size) if counts[codes[f]] > 1]
    if not folds:
        raise ValueError(
            "Every class has a single labelled point, so leaving one out leaves its class without "
            "labels and no fold can be scored; label at least two points of some class, or choose "
            "beta without leave-one-out (beta='auto' is n / l)."
        )
    VL = V[idx]
    acc = np.zeros(betas.size)
    for b, beta in enumerate(betas):
        right = 0
        for f in folds:  # every class keeps a labelled point, so the classes stay the same
            rest = np.arange(idx.size) != f
            mu = _solve_lp(lam, _margins(VL[rest], codes[rest], classes.size), eta, beta, solver)
            score = VL[f] @ _weighted_class_sums(VL[rest], codes[rest], classes.size, mu)  # row i of eq. (5)
            right += argmax_rows(score[None, :])[0] == codes[f]
        acc[b] = right / len(folds)
    ascending = np.argsort(betas, kind="stable")  # ties go to the smallest beta
    return float(betas[ascending[first_best(acc[ascending])]]), acc


def regularized_spectral_kernel(eigvals, eigvecs, alpha):
    r"""The regularised spectral kernel of eq. (4).

    .. math::

        K^r = V\Theta V^\top, \qquad
        \Theta = \mathrm{diag}(\theta_1, \dots, \theta_m), \qquad
        \theta_i = \frac{1-\alpha}{1 - \alpha + \alpha\lambda_i}.

    With all n eigenpairs this is :math:`(1-\alpha)(I - \alpha S)^{-1}`, so :math:`K^rC` is
    the consistency method's :math:`F^*` (:func:`consistency_method`); with the m smallest,
    its best rank-m part.

    Parameters
    ----------
    eigvals : array-like of shape (m,)
        Eigenvalues of :math:`\mathcal L`, in [0, 2].
    eigvecs : array-like of shape (n, m)
        The matching orthonormal eigenvectors.
    alpha : float
        In (0, 1).

    Returns
    -------
    K : ndarray of shape (n, n)
        Symmetric positive semi-definite.

    Notes
    -----
    **Cost.** Time :math:`O(n^2m)`, memory :math:`O(n^2)`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph, normalized_laplacian
    >>> from sslteach.spectral_kernels import regularized_spectral_kernel
    >>> X, _, _ = make_two_clouds()
    >>> L = normalized_laplacian(knn_graph(X, 6)).toarray()
    >>> lam_all, V_all = np.linalg.eigh(L)
    >>> K = regularized_spectral_kernel(lam_all, V_all, 0.9)
    >>> bool(np.allclose(K, 0.1 * np.linalg.inv(np.eye(40) - 0.9 * (np.eye(40) - L))))
    True
    """
    lam, V = _check_spectrum(eigvals, eigvecs)
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must lie in (0, 1); got {alpha}.")
    theta = (1 - alpha) / (1 - alpha + alpha * lam)
    return (V * theta) @ V.T


def harmonic_function(W, y):
    r"""The harmonic function of Zhu, Ghahramani & Lafferty (2003), the paper's Table 3 baseline.

    .. math::

        F_L = Y_L, \qquad F_U = (D_{UU} - W_{UU})^{-1} W_{UL} Y_L, \qquad
        f(x_i) = \arg\max_k F_{ik},

    with L the labelled and U the unlabelled points, :math:`Y_L` one-hot and
    :math:`D_{ii} = \sum_j W_{ij}`: the minimiser of
    :math:`\tfrac12\sum_{ij}W_{ij}\lVert F_i - F_j\rVert^2` with the labelled rows fixed
    (undefined, hence refused, on a component without a labelled point).

    Parameters
    ----------
    W : sparse matrix or array of shape (n, n)
        Symmetric, non-negative weights.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points.

    Returns
    -------
    labels : ndarray of shape (n,)
        The row-wise argmax of ``F`` (ties to round-off: the first class).
    F : ndarray of shape (n, c)
        Columns in the order of the sorted classes.

    Notes
    -----
    **Cost.** One sparse LU (SuperLU) of the (n - l) x (n - l) matrix
    :math:`D_{UU} - W_{UU}` and c solves; at worst :math:`O((n-l)^3)` time and
    :math:`O((n-l)^2)` memory, far less for a k-NN graph's fill-in.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph
    >>> from sslteach.spectral_kernels import harmonic_function
    >>> X, y, y_true = make_two_clouds()
    >>> labels, F = harmonic_function(knn_graph(X, 6), y)
    >>> float(np.mean(labels == y_true)), bool(np.allclose(F.sum(axis=1), 1.0))
    (1.0, True)
    """
    W = sp.csr_matrix(_check_graph(W))
    _, labeled, classes, codes = check_labels(y, W.shape[0], who=_WHO)
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
        F[U] = np.asarray(spsolve(A, W[U][:, labeled] @ YL)).reshape(-1, classes.size)
    return classes[argmax_rows(F)], F


def consistency_method(W, y, alpha=0.99):
    r"""The consistency method of Zhou et al. (2004), eq. (3), the paper's Table 3 baseline.

    .. math::

        F^* = (1-\alpha)(I - \alpha S)^{-1} C, \qquad S = D^{-1/2}WD^{-1/2}, \qquad
        f(x_i) = \arg\max_k F^*_{ik},

    with :math:`C_{ik} = 1` if i is labelled with class k. By eq. (4), :math:`F^* = K^rC`
    for the regularised spectral kernel with all n eigenpairs (:func:`regularized_spectral_kernel`).

    Parameters
    ----------
    W : sparse matrix or array of shape (n, n)
        Symmetric, non-negative weights with no isolated vertex.
    y : array-like of shape (n,)
        One label per point, ``-1`` for unlabelled points.
    alpha : float, default 0.99
        In (0, 1); 0.99 as in the paper's WebKB experiments.

    Returns
    -------
    labels : ndarray of shape (n,)
        The row-wise argmax of ``F`` (ties to round-off: the first class).
    F : ndarray of shape (n, c)

    Notes
    -----
    **Cost.** One sparse LU of the n x n :math:`I - \alpha S` and c solves; at worst
    :math:`O(n^3)` time and :math:`O(n^2)` memory.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.graphs import knn_graph, normalized_laplacian
    >>> from sslteach.spectral_kernels import consistency_method, regularized_spectral_kernel
    >>> X, y, y_true = make_two_clouds()
    >>> W = knn_graph(X, 6)
    >>> labels, F = consistency_method(W, y)
    >>> float(np.mean(labels == y_true))
    1.0
    >>> lam_all, V_all = np.linalg.eigh(normalized_laplacian(W).toarray())  # eq. (4)
    >>> C = (y[:, None] == np.array([0, 1])).astype(float)
    >>> bool(np.allclose(F, regularized_spectral_kernel(lam_all, V_all, 0.99) @ C))
    True
    """
    W = _check_graph(W)
    _, labeled, classes, codes = check_labels(y, W.shape[0], who=_WHO)
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
    r"""Semi-supervised classification with the transductive spectral kernel (TSK).

    ``fit(X, y)``, ``y = -1`` for unlabelled points, runs Table 1 of the paper (the steps
    of the module docstring) and labels every training point by eq. (5); ``predict``
    labels new points by eq. (19) through the Nyström extension (17)–(18).

    Parameters
    ----------
    n_neighbors : int, default 6
        k of the k-NN graph, eq. (2).
    n_components : int, default 10
        m, the number of eigenvectors (< n).
    eta : float, default 2.0
        Decay factor of eq. (8), >= 1.
    beta : float or "auto", default "auto"
        Weight of the hinge loss (11); "auto" is n / l, the scale Chapter 3 derives (a fixed
        beta such as 1 gives mu = 0 once n / l is large). The value used is ``beta_``.
    solver : {"scipy", "HIGHS", "CLARABEL"}, default "scipy"
        As in :func:`solve_tsk`.

    Attributes
    ----------
    classes_ : ndarray of shape (c,)
        The class labels, sorted.
    eigvals_, eigvecs_ : ndarray of shape (m,) and (n, m)
        :math:`\lambda` and :math:`\bar V` from :func:`laplacian_eigenpairs`.
    mu_ : ndarray of shape (m,)
        The learnt weights (:func:`solve_tsk`).
    embedding_ : ndarray of shape (n, m)
        :math:`\bar V\,\mathrm{diag}(\mu)^{1/2}`, so ``K = embedding_ @ embedding_.T``.
    kernel_ : ndarray of shape (n, n)
        The TSK of eq. (9), PSD since :math:`\mu \ge 0` (Theorem 1); formed on each access,
        refused above ``KERNEL_LIMIT`` = 20000 points (use ``embedding_``).
    scores_ : ndarray of shape (n, c)
        :math:`\sum_{y_j=k} K_{ij}`, eq. (5).
    transduction_ : ndarray of shape (n,)
        Eq. (5) on every training point (ties to round-off: the first class).
    n_components_graph_ : int
        Connected components of the graph.
    beta_ : float
        The beta used.
    neighbors_ : sklearn.neighbors.NearestNeighbors
        The index over the training points, built once for :meth:`induced_weights`.
    X_fit_, W_, degrees_, h_, labeled_ : ndarray, csr_matrix, ndarray, ndarray, ndarray
        Training points, the graph of eq. (2), its degrees, each point's k-th neighbour
        distance :math:`h(x_i)`, the labelled mask.
    n_features_in_ : int
        d, the number of features seen in ``fit``.

    Warns
    -----
    UserWarning
        In ``fit``, if the graph is disconnected (components without labels get no signal)
        or the LP chooses :math:`\mu = 0` (every score 0, every point the first class):
        increase ``n_neighbors`` or ``beta``.

    Notes
    -----
    **Cost of** ``fit``: the graph (a k-d tree, about :math:`O(nk\log n)` in few dimensions;
    brute force :math:`O(n^2d)` above 15), the eigenpairs (dense :math:`O(n^3)` up to 2000
    points, else Lanczos steps of :math:`O(n(k + m))`), an LP of size l + m independent of
    n, :math:`O(nmc)` for the scores; memory :math:`O(n(k + m))`. **Of** ``predict`` on s
    points: :meth:`induced_weights`, then :math:`O(\mathrm{nnz}(W_x)\,m + smc)`.
    ``benchmarks/bench_tsk.py`` compares ``fit`` with scikit-learn's ``LabelSpreading``.

    scikit-learn's estimator checks (``tests/test_estimator_checks.py``) pass but two:
    ``check_classifiers_classes`` passes string labels (labels must be numbers, since -1
    marks unlabelled points), and ``check_estimators_nan_inf`` fits 10 points, fewer than
    the default ``n_components`` + 1.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_two_clouds
    >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
    >>> X, y, y_true = make_two_clouds()
    >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
    >>> float(clf.beta_), np.round(clf.mu_), float(np.mean(clf.transduction_ == y_true))
    (10.0, array([417., 209.,   0.,   0.,   0.]), 1.0)
    >>> K = clf.kernel_  # eq. (5) from the kernel matrix
    >>> bool(np.allclose(K[:, y == 0].sum(axis=1), clf.scores_[:, 0]))
    True
    >>> clf.predict([[0.0, 0.0], [2.0, 0.0], [-0.5, 0.5], [2.5, -0.5]])
    array([0, 1, 0, 1])
    >>> np.round(clf.decision_function([[0.0, 0.0], [2.0, 0.0]]), 1)  # F_x1 - F_x0
    array([-18.8,  19.6])
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
        """Learn the TSK on ``X`` (n >= 3 points) and label every training point (Table 1).

        ``y``: one numeric label per point, ``-1`` for unlabelled, at least two classes labelled.
        Returns ``self``.
        """
        X, y = validate_fit_data(self, X, y, min_samples=3)
        n = X.shape[0]
        y, labeled, classes, codes = check_labels(y, n, min_classes=2, who=_WHO_LP)
        hint = f"There are {n} points."
        m = check_int(self.n_components, "n_components", low=1, high=n - 1, high_hint=hint)
        self.beta_ = beta = n / labeled.sum() if self.beta == "auto" else float(self.beta)
        W, h = _knn_graph_and_h(X, _check_n_neighbors(self.n_neighbors, n))
        ncomp, _ = connected_components(W, directed=False)
        self.n_components_graph_ = int(ncomp)
        if ncomp > 1:
            warn_caller(
                f"The {self.n_neighbors}-NN graph has {ncomp} connected components, so the zero "
                "eigenvalue is repeated and components without labels get no signal; increase "
                "n_neighbors or join the components (sslteach.graphs.join_components)."
            )
        lam, V = _eigenpairs(W, m)
        mu = _solve_lp(lam, _margins(V[labeled], codes, classes.size), self.eta, beta, self.solver)
        if not np.any(mu > 0):
            warn_caller(
                f"The LP chose mu = 0 (at beta={beta:g} the hinge loss does not pay for any "
                "eigenvector), so every score is 0 and every point gets the first class. T shrinks "
                "like l/n: increase beta (e.g. to n/l)."
            )
        self.X_fit_, self.W_, self.h_ = X, W, h
        self.neighbors_ = NearestNeighbors().fit(X)
        self.degrees_ = np.asarray(W.sum(axis=1)).ravel()
        self.classes_, self.labeled_ = classes, labeled
        self.eigvals_, self.eigvecs_, self.mu_ = lam, V, mu
        self.embedding_ = V * np.sqrt(mu)
        self._class_loadings = _weighted_class_sums(V[labeled], codes, classes.size, mu)
        self.scores_ = V @ self._class_loadings
        self.transduction_ = classes[argmax_rows(self.scores_)]
        return self

    @property
    def kernel_(self):
        """The TSK on the training points, ``embedding_ @ embedding_.T`` (see the class's Attributes)."""
        check_is_fitted(self, "mu_")
        n = self.eigvecs_.shape[0]
        if n > self.KERNEL_LIMIT:
            raise ValueError(
                f"kernel_ would be a dense {n} x {n} matrix; use embedding_ (K = embedding_ @ embedding_.T) "
                "or scores_ instead."
            )
        return self.embedding_ @ self.embedding_.T

    def induced_weights(self, X):
        r"""Eq. (2) weights :math:`W_{x,i}` between new points and the training points, as eq. (17) needs.

        .. math::

            W_{x,i} = \exp\left(-\frac{\lVert x - x_i\rVert^2}{\max\{h(x)^2, h(x_i)^2\}}\right)
            \quad\text{if}\quad \lVert x - x_i\rVert \le \max\{h(x), h(x_i)\},\ \text{else } 0,

        with the training ``h_`` and :math:`h(x)` the new point's k-th distance among the training
        points: at least k edges per row, weights in :math:`[e^{-1}, 1]`. Candidates come from one
        radius query; every deciding distance is recomputed exactly, as in ``knn_graph``.
        **Cost.** A k-neighbour and a radius query on ``neighbors_`` (about :math:`O(s(k + r)\log n)`
        for r candidates per point in few dimensions, brute force :math:`O(snd)`), then
        :math:`O(rd)` per point; memory :math:`O(sr)`. The radius is the largest h, so on data of
        uneven density r can exceed k by far.

        Parameters
        ----------
        X : array-like of shape (s, d)

        Returns
        -------
        Wx : scipy.sparse.csr_matrix of shape (s, n)

        Examples
        --------
        >>> from sslteach.datasets import make_two_clouds
        >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
        >>> X, y, _ = make_two_clouds()
        >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
        >>> clf.induced_weights([[0.0, 0.0], [2.0, 0.0]]).getnnz(axis=1).tolist()
        [9, 11]
        """
        check_is_fitted(self, "mu_")
        return self._induced_weights(validate_fit_data(self, X, reset=False))

    def _induced_weights(self, X):
        k = self.n_neighbors
        nn = self.neighbors_
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
        r"""The Nyström extension of eq. (18): the spectral representation of new points.

        .. math::

            \bar V_{x,t} = \frac{1}{1-\lambda_t}\sum_{i=1}^n
            \frac{W_{x,i}}{\sqrt{D_{xx}D_{ii}}}\,v_{it}, \qquad D_{xx} = \sum_i W_{x,i},

        from the weights ``Wx`` (s x n, non-negative, rows with a positive sum, e.g.
        :meth:`induced_weights`); the kernel with a training point is then
        :math:`K(x, x_j) = \bar V_x\,\mathrm{diag}(\mu)\,\bar V_j^\top`, eq. (16). Eigenvalues 1,
        where (18) divides by zero, were skipped in ``fit``. **Cost.** Time
        :math:`O(\mathrm{nnz}(W_x)\,m + sm)`, memory :math:`O(\mathrm{nnz}(W_x) + sm)`.

        Parameters
        ----------
        Wx : sparse matrix or array of shape (s, n)

        Returns
        -------
        Vx : ndarray of shape (s, m)

        Examples
        --------
        >>> import numpy as np
        >>> from sslteach.datasets import make_two_clouds
        >>> from sslteach.spectral_kernels import TransductiveSpectralKernel
        >>> X, y, _ = make_two_clouds()
        >>> clf = TransductiveSpectralKernel(n_components=5).fit(X, y)
        >>> X_new = np.array([[0.0, 0.0], [2.0, 0.0]])
        >>> K_new = (clf.extend(clf.induced_weights(X_new)) * clf.mu_) @ clf.eigvecs_.T  # eq. (16)
        >>> F = np.column_stack([K_new[:, y == 0].sum(axis=1), K_new[:, y == 1].sum(axis=1)])
        >>> bool(np.allclose(F[:, 1] - F[:, 0], clf.decision_function(X_new)))  # eq. (19)
        True
        >>> bool(np.allclose(clf.extend(clf.W_[:3]), clf.eigvecs_[:3]))  # a training row: itself
        True
        """
        check_is_fitted(self, "mu_")
        Wx = sp.csr_matrix(check_data(Wx, name="Wx", accept_sparse=True))
        if Wx.shape[1] != self.degrees_.size:
            raise ValueError(
                f"Wx must have one column per training point ({self.degrees_.size}); got shape {Wx.shape}."
            )
        if Wx.nnz and Wx.data.min() < 0:
            raise ValueError("Wx holds negative weights; pass the similarities of induced_weights (>= 0).")
        if np.any(np.asarray(Wx.sum(axis=1)).ravel() <= 0):
            raise ValueError("A new point has no edge to the training points; it cannot be extended.")
        return self._extend(Wx)

    def _extend(self, Wx):
        dx = np.asarray(Wx.sum(axis=1)).ravel()
        wx = sp.diags(1 / np.sqrt(dx)) @ Wx @ sp.diags(1 / np.sqrt(self.degrees_))
        return np.asarray(wx @ self.eigvecs_) / (1.0 - self.eigvals_)

    def _scores(self, X):
        check_is_fitted(self, "mu_")
        X = validate_fit_data(self, X, reset=False)
        return self._extend(self._induced_weights(X)) @ self._class_loadings

    def decision_function(self, X):
        r"""Class scores of new points, :math:`F_{xk} = \sum_{y_j=k} K(x, x_j)`, eq. (19): (s, c), or
        for two classes (s,), the second class's score minus the first's. Cost as :meth:`predict`.
        """
        F = self._scores(X)
        return F[:, 1] - F[:, 0] if F.shape[1] == 2 else F

    def predict(self, X):
        r"""Labels of new points by eq. (19), :math:`\arg\max_k \sum_{y_j = k} K(x, x_j)` (ties: the
        first class). **Cost.** :meth:`induced_weights`, then :math:`O(\mathrm{nnz}(W_x)\,m + smc)`.
        """
        F = self._scores(X)
        return self.classes_[argmax_rows(F)]
