r"""Chapter 4's protocol: one randomisation of Table I of Alzate & Suykens (2012).

Shared by :doc:`/notebooks/04_semi_supervised_ksc_reproduction` and
``scripts/reproduce_ch4.py``. The methods are :mod:`sslteach.ksc`'s; the Semi-KSC grid is
scored by the same routine as :func:`sslteach.ksc.select_semi_ksc` (SSF (17) of the
localised solution (15)), and every choice takes the first grid point within a relative
1e-9 of the best (``sslteach._decisions.first_best``).

References
----------
Alzate, C. and Suykens, J. A. K. (2012). A semi-supervised formulation to binary kernel
spectral clustering. *IJCNN 2012*, 1-8.

Belkin, M., Niyogi, P. and Sindhwani, V. (2006). Manifold regularization. *JMLR* 7,
2399-2434.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.utils import Bunch

from .._decisions import first_best
from .._validation import check_data, check_indices, check_int, check_labels, check_positive, check_vector
from ..kernels import squared_distances
from ..ksc import (
    _binary_labels,
    _check_eta_u,
    _check_gamma_rho,
    _knn_laplacian,
    _lapsvm_solve,
    _solve_dual,
    _ssf_grid,
)

__all__ = ["evaluate_protocol"]


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
    kernel="rbf",
    grid_errors=False,
    random_state=0,
):
    r"""One randomisation of Table I: Semi-KSC and LapSVM, chosen on validation points.

    The labelled points ``labeled`` (indices into X) plus ``n_unlabeled`` points drawn at
    random from the rest form the training set; ``n_val`` further points the validation set.
    :math:`\sigma^2` (the paper's ``sigma2`` of :math:`\exp(-d^2/\sigma^2)`) ranges over
    ``sigma2_factors`` times the median of the M x M squared distances between training
    points, zero diagonal included (the same grid for both methods).

    * Semi-KSC (eqs. (8)-(9), :math:`\gamma = 1`): :math:`(\sigma^2, \rho)` maximise
      SSF (17) with weight ``eta_u`` on the *unlabelled* validation points, as in
      :func:`sslteach.ksc.select_semi_ksc`; grid points whose system is refused are skipped.
    * LapSVM: :math:`(\sigma^2, \gamma_A)` maximise the accuracy on the *labelled*
      validation points (the paper's protocol for its baseline); :math:`\gamma_I` and the
      6-NN graph fixed.

    Both then classify every point of X by the sign of the out-of-sample model (11) (the
    paper's "full data set"); the error is the fraction misclassified. Ties: the first grid
    point (:math:`\sigma^2` the outer loop) within a relative 1e-9 of the best.

    Parameters
    ----------
    X : array-like of shape (n, n_features)
        The full data set.
    y : array-like of shape (n,)
        The labels of every point (numeric, exactly two classes, no -1).
    labeled : array-like of int, or boolean mask of shape (n,)
        The points whose labels the methods see (at least one of each class), order kept.
    sigma2_factors : sequence of float, default (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
        The grid of :math:`\sigma^2` as multiples of the median squared distance.
    rho_grid : sequence of float, default (0.1, 0.2, ..., 1.0)
        The grid of :math:`\rho`, each in (0, 1].
    gamma_A_grid : sequence of float, default (1e-6, 1e-4, 1e-2, 1.0)
        The grid of LapSVM's :math:`\gamma_A`.
    gamma_I : float, default 1.0
        LapSVM's :math:`\gamma_I`.
    n_unlabeled, n_val : int, default 600
        The unlabelled training points (the paper's N = 600) and the validation points
        (fewer if fewer are left).
    eta_u : float, default 0.25
        The weight :math:`\eta_U` of the Fisher term in SSF.
    lapsvm : bool, default True
        Run LapSVM too (its grid is by far the slower part).
    kernel : {"rbf", "cosine"}, default "rbf"
        ``"cosine"``: :math:`x^Tz/(\lVert x\rVert\lVert z\rVert)`, no bandwidth
        (``sigma2_factors`` ignored); it needs non-negative features (e.g. TF-IDF) and no
        zero row. Validation points orthogonal to every training point (degree 0, eq. (15)
        undefined) are left out of SSF.
    grid_errors : bool, default False
        Also return the error on all of X at *every* grid point (a diagnostic that uses
        every label, e.g. for an oracle; it never enters a choice).
    random_state : int or numpy.random.Generator, default 0
        Seeds the draw of the training and validation points.

    Returns
    -------
    result : Bunch
        ``semi_ksc`` (error rate), ``semi_ksc_params`` (``{"sigma2/median", "rho"}``),
        ``semi_ksc_time`` (seconds of the final solve, forming its kernel included);
        ``lapsvm``, ``lapsvm_params`` (``{"sigma2/median", "gamma_A"}``), ``lapsvm_time``
        (nan, None, nan when ``lapsvm=False``); with ``grid_errors``,
        ``semi_ksc_grid_errors`` (S, R) and ``lapsvm_grid_errors`` (S, G) or None (S = 1 for
        the cosine kernel, whose ``"sigma2/median"`` entries are None).

    Raises
    ------
    ValueError
        If ``X``, ``y`` or ``labeled`` is invalid, no point is left for validation, a grid
        value is out of range, the system (8) is singular at every Semi-KSC grid point, a
        LapSVM QP fails, ``kernel`` is unknown, or (cosine) X has a negative entry or a zero row.

    Notes
    -----
    With M = ``len(labeled) + n_unlabeled``, :math:`N_v` = ``n_val`` and grids of sizes S, R,
    G: distances :math:`O((M^2 + (N_v + n)M)d)`, the Semi-KSC grid :math:`O(SR(M^3 + MN_v))`,
    the LapSVM grid :math:`O(SG(M^3 + \text{QP in } l \text{ variables}))`, predictions
    :math:`O(nM)`; memory a few M x M arrays and the (n, M) distances to X. At the paper's
    sizes: seconds for Semi-KSC, much longer with LapSVM.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.protocols.ch4 import evaluate_protocol
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2, 0.5, (30, 2)), rng.normal(2, 0.5, (30, 2))])
    >>> y = np.repeat([0, 1], 30)
    >>> res = evaluate_protocol(X, y, [0, 30], sigma2_factors=(0.5, 1.0), rho_grid=(0.5, 1.0),
    ...                         n_unlabeled=20, n_val=20, lapsvm=False)
    >>> res.semi_ksc, res.semi_ksc_params, res.lapsvm
    (0.0, {'sigma2/median': 1.0, 'rho': 0.5}, nan)
    """
    X = check_data(X, name="X")
    y = check_labels(y, X.shape[0], unlabeled=None, n_classes=2, who="The protocol of Table I")[0]
    if np.any(y == -1):
        raise ValueError(
            "y holds the class -1, which marks unlabelled points in the training labels; recode the "
            "classes first, e.g. y = np.unique(y, return_inverse=True)[1]."
        )
    sigma2_factors = check_vector(sigma2_factors, "sigma2_factors", low=0, strict_low=True).tolist()
    rho_grid = [float(r) for r in check_vector(rho_grid, "rho_grid")]
    for r in rho_grid:
        _check_gamma_rho(1.0, r)
    gamma_A_grid = [float(g) for g in check_vector(gamma_A_grid, "gamma_A_grid", low=0, strict_low=True)]
    gamma_I = check_positive(gamma_I, "gamma_I", strict=False)
    labeled = check_indices(labeled, X.shape[0])
    n_unlabeled = check_int(n_unlabeled, "n_unlabeled", low=0)
    n_val = check_int(n_val, "n_val", low=1)
    eta_u = _check_eta_u(eta_u)
    if kernel not in ("rbf", "cosine"):
        raise ValueError(f'kernel must be "rbf" or "cosine", got {kernel!r}.')
    Xn = _unit_rows(X) if kernel == "cosine" else None
    train, val, y_train = _draw(X.shape[0], labeled, y, n_unlabeled, n_val, random_state)
    classes, yp = _binary_labels(y_train, train.size)
    setup = _Kernels(X, Xn, train, val, sigma2_factors)
    out = _semi_ksc(setup, y, classes, yp, rho_grid, eta_u, bool(grid_errors))
    out.update(lapsvm=np.nan, lapsvm_params=None, lapsvm_time=np.nan)
    if grid_errors:
        out.lapsvm_grid_errors = None
    if lapsvm:
        out.update(_lapsvm(setup, y, classes, yp, y[val], gamma_A_grid, gamma_I, bool(grid_errors)))
    return out


def _draw(n, labeled, y, n_unlabeled, n_val, random_state):
    """Training points (unlabelled, then labelled: the paper's order), validation points, labels."""
    rng = np.random.default_rng(random_state)
    perm = rng.permutation(np.setdiff1d(np.arange(n), labeled))
    train_u, val = perm[:n_unlabeled], perm[n_unlabeled : n_unlabeled + n_val]
    if val.size == 0:
        raise ValueError("No point is left for validation; lower n_unlabeled.")
    return np.r_[train_u, labeled], val, np.r_[np.full(train_u.size, -1), y[labeled]]


def _unit_rows(X):
    """X with rows of norm 1, for the cosine kernel (non-negative features, no zero row)."""
    if X.min() < 0:
        raise ValueError(
            "The cosine kernel needs non-negative features (a non-negative similarity, so that "
            "the degrees of Alzate & Suykens' D are positive); use kernel='rbf' for this X."
        )
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    if np.any(norms == 0):
        raise ValueError("X has a zero row, whose cosine with any point is undefined; drop it.")
    return X / norms[:, None]


class _Kernels:
    """The (training, validation, all-points) kernels at each grid value, from distances computed once."""

    def __init__(self, X, Xn, train, val, sigma2_factors):
        self.kernel = "rbf" if Xn is None else "cosine"
        if Xn is not None:
            Xtn = Xn[train]
            self.C, self.C_val, self.C_all = Xtn @ Xtn.T, Xn[val] @ Xtn.T, Xn @ Xtn.T
            self.X_graph = Xtn
            self.grid, self.factors = [None], [None]
        else:
            Xt = X[train]
            # squared distances once; every kernel of the grids is exp(-D2 / sigma2)
            self.D2, self.D2_val, self.D2_all = (
                squared_distances(Xt),
                squared_distances(X[val], Xt),
                squared_distances(X, Xt),
            )
            self.X_graph = Xt
            med = float(np.median(self.D2))
            self.grid, self.factors = [f * med for f in sigma2_factors], list(sigma2_factors)

    def train(self, s2):
        return self.C if self.kernel == "cosine" else np.exp(-self.D2 / s2)

    def val(self, s2):
        return self.C_val if self.kernel == "cosine" else np.exp(-self.D2_val / s2)

    def all(self, s2):
        return self.C_all if self.kernel == "cosine" else np.exp(-self.D2_all / s2)


def _semi_ksc(setup, y, classes, yp, rho_grid, eta_u, grid_errors):
    """The SSF grid search, the final timed solve and the error on all of X."""

    def kernels_at(s2):
        Kval = setup.val(s2)
        if setup.kernel == "cosine":  # a text sharing no term with any training point: no alpha_hat
            Kval = Kval[Kval.sum(axis=1) > 0]
        return setup.train(s2), Kval

    errs = np.full((len(setup.grid), len(rho_grid)), np.nan)
    K_all = {}

    def record(i, j, alpha, b):
        if i not in K_all:
            K_all.clear()
            K_all[i] = setup.all(setup.grid[i])
        errs[i, j] = np.mean(classes[(K_all[i] @ alpha + b >= 0).astype(int)] != y)

    scores = _ssf_grid(kernels_at, setup.grid, yp, rho_grid, 1.0, eta_u, record if grid_errors else None)
    i, j = np.unravel_index(first_best(scores), scores.shape)
    t0 = time.perf_counter()
    Omega = setup.train(setup.grid[i])  # timed: forming the kernel from the squared distances
    alpha, b, _ = _solve_dual(Omega, yp, 1.0, rho_grid[j])
    t_ksc = time.perf_counter() - t0
    pred = classes[(setup.all(setup.grid[i]) @ alpha + b >= 0).astype(int)]
    out = Bunch(
        semi_ksc=float(np.mean(pred != y)),
        semi_ksc_params={"sigma2/median": setup.factors[i], "rho": rho_grid[j]},
        semi_ksc_time=t_ksc,
    )
    if grid_errors:
        out.semi_ksc_grid_errors = errs
    return out


def _lapsvm(setup, y, classes, yp, y_val, gamma_A_grid, gamma_I, grid_errors):
    """LapSVM's grid by accuracy on the labelled validation points, the final timed solve, its error."""
    L = _knn_laplacian(setup.X_graph, 6)
    yv = np.where(y_val == classes[1], 1.0, -1.0)
    acc = np.full((len(setup.grid), len(gamma_A_grid)), np.nan)
    errs = np.full(acc.shape, np.nan)
    sols = {}
    for i, s2 in enumerate(setup.grid):
        K, Kv = setup.train(s2), setup.val(s2)
        K_all = setup.all(s2) if grid_errors else None
        for j, ga in enumerate(gamma_A_grid):
            sol = sols[i, j] = _lapsvm_solve(K, L, yp, ga, gamma_I)
            acc[i, j] = np.mean(np.where(Kv @ sol.alpha + sol.b >= 0, 1.0, -1.0) == yv)
            if grid_errors:
                errs[i, j] = np.mean(classes[(K_all @ sol.alpha + sol.b >= 0).astype(int)] != y)
    i, j = np.unravel_index(first_best(acc), acc.shape)
    s2, sol = setup.grid[i], sols[i, j]
    t0 = time.perf_counter()
    _lapsvm_solve(setup.train(s2), L, yp, gamma_A_grid[j], gamma_I)
    out = Bunch(lapsvm_time=time.perf_counter() - t0)
    pred = classes[(setup.all(s2) @ sol.alpha + sol.b >= 0).astype(int)]
    out.update(
        lapsvm=float(np.mean(pred != y)),
        lapsvm_params={"sigma2/median": setup.factors[i], "gamma_A": gamma_A_grid[j]},
    )
    if grid_errors:
        out.lapsvm_grid_errors = errs
    return out
