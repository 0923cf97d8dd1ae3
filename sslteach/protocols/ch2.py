r"""Chapter 2's protocol: the kernel rows of Table 1 and the labelled-only choice of an SVM.

Shared by :doc:`/notebooks/02_cluster_kernels_reproduction` and ``scripts/reproduce_ch2.py``.
:func:`table1_candidates` computes every implemented kernel row of Table 1 of Bodó & Csató
(2010) over all points, without labels; :func:`select_svm` chooses (kernel parameters, C)
by cross-validation on the labelled points only and scores the choice on the others. The
kernels themselves are :mod:`sslteach.cluster_kernels`; the tie rule is the one of Chapter 5
(:func:`sslteach.protocols.comparison.select_and_transduce`).

References
----------
Bodó, Z. and Csató, L. (2010). Hierarchical and reweighting cluster kernels for
semi-supervised learning. *Int. J. of Computers, Communications & Control* 5(4), 469-476.
"""

from __future__ import annotations

import numpy as np
import scipy.cluster.hierarchy as sch
from scipy.spatial.distance import squareform
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils import check_random_state

from .._decisions import first_tied_not_one_class
from .._validation import check_data, check_indices, check_labels, check_positive, check_square, check_vector
from ..cluster_kernels import (
    LINKAGES,
    _cophenetic_from_condensed,
    _one_hot,
    bagged_cluster_kernel,
    membership_matrix,
    rck_dot,
    rck_gaussian,
    rck_scaled,
)
from ..graphs import geodesic_distances
from ..kernels import mds_kernel, squared_distances

__all__ = ["TABLE1_ROWS", "table1_candidates", "select_svm"]

#: the 18 kernel rows of Table 1 that sslteach computes, in the paper's order; the keys of
#: :func:`table1_candidates` (the ISOMAP, neighbourhood, multi-type and LapSVM rows are not
#: implemented)
TABLE1_ROWS = (
    ["linear", "Gaussian", "bagged"]
    + [f"HCK, {k}" for k in LINKAGES]
    + [f"gHCK, {k}" for k in LINKAGES]
    + [f"RCK{i}, {m}" for i in (1, 2, 3) for m in ("k-means", "hierarchical", "spectral")]
)


def table1_candidates(
    X,
    *,
    n_neighbors=10,
    cluster_counts=(2, 10),
    sigma_factors=(0.25, 0.5, 1.0, 2.0, 4.0),
    n_runs=10,
    rck_sigma=1.0,
    rck_alpha=0.5,
    rck_beta=1.0,
    squared=True,
    unit_diagonal=True,
    random_state=0,
):
    r"""Every kernel row of Table 1 with its candidate parameters, over all rows of X, no labels.

    * ``linear``; ``Gaussian`` with :math:`\sigma` = ``sigma_factors`` times the median
      pairwise distance;
    * ``bagged``: :func:`~sslteach.cluster_kernels.bagged_cluster_kernel` (``n_runs``
      k-means runs) for each of ``cluster_counts``, times the base kernel;
    * ``HCK``/``gHCK`` with each linkage (cophenetic distances squared when ``squared``,
      plain otherwise; gHCK on the ``n_neighbors``-NN graph);
    * ``RCK1-3`` (eqs. 5-7 with the fixed ``rck_sigma``, ``rck_alpha``, ``rck_beta``) on the
      crisp memberships of k-means, an average-linkage cut and spectral clustering, for each
      of ``cluster_counts``, times the base kernel.

    With :math:`\mathrm{med}` the median of :math:`\lVert x_i - x_j\rVert` over the pairs
    :math:`i < j`, the base kernel of the reweighted rows (non-negative, as Sect. 4 requires)
    and the scaling are

    .. math::

        K_{b,ij} = \exp\Bigl(-\frac{\lVert x_i - x_j\rVert^2}{2\,\mathrm{med}^2}\Bigr),\qquad
        K = K_{rw}\circ K_b \ \text{(reweighted rows)},\qquad
        K \leftarrow \frac{K}{\tfrac1n\operatorname{tr}K}\ \text{(when unit\_diagonal)},

    so that one grid of SVM costs suits every kernel (the book's sound protocol);
    ``unit_diagonal=False, squared=False`` gives the raw kernels of the paper's own protocol
    (LIBSVM's C = 1 on them reproduces its linear and HCK rows).

    Parameters
    ----------
    X : array-like of shape (n, d)
        All points, labelled and unlabelled alike (at least 2 rows, finite).
    n_neighbors : int, default 10
        The k of the k-NN graph of gHCK and of spectral clustering.
    cluster_counts : tuple of int, default (2, 10)
        The candidate numbers of clusters c of the bagged and reweighted rows.
    sigma_factors : tuple of float, default (0.25, 0.5, 1.0, 2.0, 4.0)
        The widths :math:`\sigma` of the Gaussian row, as multiples of the median distance.
    n_runs : int, default 10
        The k-means runs T of the bagged kernel.
    rck_sigma, rck_alpha, rck_beta : float, default 1.0, 0.5, 1.0
        :math:`\sigma` of RCK1 (eq. (5)), :math:`\alpha` of RCK2 (eq. (6)), :math:`\beta` of
        RCK3 (eq. (7)).
    squared : bool, default True
        HCK/gHCK with :math:`M = u\circ u` (the paper's text) when True, :math:`M = u` (its
        Algorithm 1, step 2) when False.
    unit_diagonal : bool, default True
        Divide every kernel by the mean of its diagonal; False keeps the raw kernels.
    random_state : int, RandomState or None, default 0
        Seeds the k-means runs (bagged kernel, k-means and spectral memberships).

    Returns
    -------
    candidates : dict
        Maps each name of :data:`TABLE1_ROWS` to a list of ``(params, K)`` pairs, the input
        of :func:`select_svm`: ``params`` is ``{}``, ``{"sigma/median": f}`` or
        ``{"clusters": c}``, ``K`` an (n, n) ndarray.

    Raises
    ------
    ValueError
        If ``X`` is invalid, at least half the pairs of rows are identical (median distance
        0), ``n_neighbors`` or a cluster count is out of range, or an RCK parameter is invalid.

    Notes
    -----
    Time :math:`O(n^2d)` for the distances, :math:`O(n^2\log n + n\,\mathrm{nnz})` for the
    geodesic ones, :math:`O(n^2)` per linkage, one dense :math:`O(n^3)` eigendecomposition
    per cluster count (spectral memberships) and the k-means runs (:math:`O(ncd)` per
    iteration). Memory: ``7 + len(sigma_factors) + 10 * len(cluster_counts)`` (n, n) float64
    matrices, 32 with the defaults (about 580 MB at n = 1500), plus a few temporaries.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.protocols.ch2 import TABLE1_ROWS, table1_candidates
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(0.0, 0.5, (15, 2)), rng.normal(4.0, 0.5, (15, 2))]
    >>> candidates = table1_candidates(X, n_runs=3)
    >>> sorted(candidates) == sorted(TABLE1_ROWS)
    True
    >>> [params["sigma/median"] for params, _ in candidates["Gaussian"]]
    [0.25, 0.5, 1.0, 2.0, 4.0]
    >>> [params for params, _ in candidates["RCK2, spectral"]]
    [{'clusters': 2}, {'clusters': 10}]
    >>> params, K = candidates["HCK, average"][0]
    >>> params, K.shape, bool(np.isclose(np.mean(np.diag(K)), 1.0))
    ({}, (30, 30), True)
    """
    X = check_data(X, name="X", min_samples=2)
    for flag, name in ((squared, "squared"), (unit_diagonal, "unit_diagonal")):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False; got {flag!r}.")
    rng = check_random_state(random_state)
    D2 = squared_distances(X)
    sigma_factors = [float(f) for f in check_vector(sigma_factors, "sigma_factors", low=0, strict_low=True)]
    med = float(np.sqrt(np.median(D2[np.triu_indices(X.shape[0], 1)])))
    if med == 0:
        raise ValueError(
            "At least half the pairs of rows of X are identical (median distance 0), so the Gaussian "
            "kernels of Table 1, whose widths are multiples of that median, are undefined; remove "
            "duplicate rows (np.unique(X, axis=0))."
        )

    def scaled(K):
        if unit_diagonal:
            K /= np.mean(np.diag(K))
        return K

    def gauss(s):
        return np.exp(D2 / (-2.0 * s * s))

    base = gauss(med)
    out = {"linear": [({}, scaled(X @ X.T))]}
    out["Gaussian"] = [({"sigma/median": f}, scaled(gauss(f * med))) for f in sigma_factors]
    out["bagged"] = [
        (
            {"clusters": c},
            scaled(bagged_cluster_kernel(X, c, n_runs, random_state=rng.randint(2**31 - 1)) * base),
        )
        for c in cluster_counts
    ]
    tree = _hierarchical_rows(out, X, D2, n_neighbors, squared, scaled)
    rck = {
        1: lambda U: rck_gaussian(U, rck_sigma),
        2: lambda U: rck_dot(U, rck_alpha),
        3: lambda U: rck_scaled(U, rck_beta),
    }
    for method, label in (("kmeans", "k-means"), ("hierarchical", "hierarchical"), ("spectral", "spectral")):
        if method == "hierarchical":  # the average-linkage tree of the HCK row, cut (= membership_matrix)
            Us = {c: _one_hot(sch.fcluster(tree, t=c, criterion="maxclust") - 1, c) for c in cluster_counts}
        else:
            Us = {
                c: membership_matrix(X, method, c, random_state=rng.randint(2**31 - 1))
                for c in cluster_counts
            }
        for i, f in rck.items():
            out[f"RCK{i}, {label}"] = [({"clusters": c}, scaled(f(U) * base)) for c, U in Us.items()]
    return out


def _hierarchical_rows(out, X, D2, n_neighbors, squared, scaled):
    """The HCK and gHCK rows into ``out``; returns the average-linkage tree of HCK (for RCK)."""
    condensed = {
        "HCK": squareform(np.sqrt(D2), checks=False),
        "gHCK": squareform(geodesic_distances(X, n_neighbors=n_neighbors), checks=False),
    }
    trees = {}
    for name, dc in condensed.items():
        for k in LINKAGES:
            u, trees[(name, k)] = _cophenetic_from_condensed(dc, k)
            if squared:
                np.square(u, out=u)
            out[f"{name}, {k}"] = [({}, scaled(mds_kernel(u)))]
            del u
    return trees[("HCK", "average")]


def _cv_accuracy(K, y, C, folds):
    correct = 0
    for train, test in folds:
        classes = np.unique(y[train])
        if classes.size < 2:
            pred = np.full(test.size, classes[0])
        else:
            pred = (
                SVC(kernel="precomputed", C=C)
                .fit(K[np.ix_(train, train)], y[train])
                .predict(K[np.ix_(test, train)])
            )
        correct += int(np.sum(pred == y[test]))
    return correct / sum(t.size for _, t in folds)


def _folds(yl, n_folds, random_state):
    """Leave-one-out up to 20 labels (or a class with fewer than ``n_folds``), else stratified."""
    if yl.size <= 20 or np.bincount(np.unique(yl, return_inverse=True)[1]).min() < n_folds:
        return [(np.delete(np.arange(yl.size), i), np.array([i])) for i in range(yl.size)]
    skf = StratifiedKFold(n_folds, shuffle=True, random_state=random_state)
    return list(skf.split(np.zeros(yl.size), yl))


def select_svm(
    candidates, y, labeled, *, Cs=(1.0, 0.1, 10.0, 100.0), n_folds=5, random_state=0, return_prediction=False
):
    r"""Choose (kernel parameters, C) by cross-validation on the labelled points only.

    Leave-one-out when there are at most 20 labelled points (or a class has fewer than
    ``n_folds``), else stratified ``n_folds``-fold; a fold whose training part has one class
    predicts that class. With L the labelled points, :math:`F_1, \dots, F_m` its folds and
    :math:`\hat y^{(-f)}_{\theta, C}` the SVM (candidate :math:`\theta`, cost C) trained on
    :math:`L\setminus F_f`,

    .. math::

        s(\theta, C) = \frac1{\lvert L\rvert}\sum_{f=1}^m
        \sum_{i\in F_f}\mathbb 1\bigl[\hat y^{(-f)}_{\theta, C}(x_i) = y_i\bigr],\qquad
        \text{accuracy} = \frac{1}{n - \lvert L\rvert}\sum_{i\notin L}
        \mathbb 1\bigl[\hat y_{\hat\theta, \hat C}(x_i) = y_i\bigr].

    **Tie rule** (``sslteach._decisions.first_tied_not_one_class``, also Chapter 5's). Scores
    within a relative 1e-9 of the best are tied (they are multiples of 1/l, so a tie is an
    equality). With 10 labels ties are common, and many tied SVMs put every point in one
    class. In the order candidates as given, then ``Cs`` as given, the first tied SVM, fitted
    on all labelled points, that does *not* assign every unlabelled point to one class wins;
    else the first tied one. The rule sees predicted classes, never hidden labels; the labels
    of the unlabelled points only score the choice.

    Parameters
    ----------
    candidates : iterable of (dict, ndarray of shape (n, n))
        ``(params, K)`` pairs, e.g. one row of :func:`table1_candidates`.
    y : array-like of shape (n,)
        The true label of every point (no -1 marks).
    labeled : array-like of int or bool
        The indices of the labelled points, or a boolean mask of length n.
    Cs : tuple of float, default (1.0, 0.1, 10.0, 100.0)
        The candidate SVM costs, in the order the tie rule uses (LIBSVM's default first).
    n_folds : int, default 5
        The folds of the stratified cross-validation (more than 20 labelled points).
    random_state : int, RandomState or None, default 0
        Seeds the shuffling of the stratified folds.
    return_prediction : bool, default False
        Also return the predictions on the points not in ``labeled`` (increasing index order).

    Returns
    -------
    accuracy : float
        The accuracy of the chosen SVM on the points not in ``labeled``.
    params : dict
        The chosen ``params`` with ``"C"``, its labelled-only score ``"cv"`` and the number of
        tied candidates ``"tied"``.
    prediction : ndarray of shape (n - l,)
        Only with ``return_prediction``.

    Raises
    ------
    ValueError
        If ``y`` is invalid, ``labeled`` is empty, repeats an index, holds one class or every
        point, or a candidate kernel or C is invalid.

    Notes
    -----
    At most :math:`\lvert\text{candidates}\rvert\cdot\lvert\text{Cs}\rvert\cdot l` LIBSVM fits
    on at most l points (:math:`O(l^2)` to :math:`O(l^3)` each), then one fit and prediction,
    :math:`O((n - l)\,l)`, per tied candidate examined. Memory :math:`O(l^2)` besides the kernels.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.protocols.ch2 import select_svm, table1_candidates
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(0.0, 0.5, (15, 2)), rng.normal(4.0, 0.5, (15, 2))]
    >>> y = np.repeat([0, 1], 15)
    >>> candidates = table1_candidates(X, n_runs=3)
    >>> accuracy, params = select_svm(candidates["RCK2, k-means"], y, labeled=[0, 1, 15, 16])
    >>> type(accuracy).__name__, 0.0 <= accuracy <= 1.0, sorted(params)
    ('float', True, ['C', 'clusters', 'cv', 'tied'])
    """
    y = check_labels(y, np.shape(y)[0] if np.ndim(y) else 0, unlabeled=None, who="select_svm")[0]
    lab = check_indices(labeled, y.shape[0])
    if lab.size == y.size:
        raise ValueError(
            "Every point is labelled, so none is left to score the chosen SVM on; leave some out."
        )
    candidates = list(candidates)
    if not candidates:
        raise ValueError("candidates is empty; pass (params, K) pairs, e.g. a row of table1_candidates.")
    for _, K in candidates:
        check_square(K, name="each candidate kernel K")
        if K.shape[0] != y.size:
            raise ValueError(f"A candidate kernel is {K.shape}, but y has {y.size} points.")
    Cs = [check_positive(C, "each C in Cs") for C in np.atleast_1d(Cs)]
    if not Cs:
        raise ValueError("Cs is empty; pass at least one positive C.")
    yl = y[lab]
    if np.unique(yl).size < 2:
        raise ValueError(
            f"The labelled points (labeled) are all of class {yl[0]!r}; an SVM needs at least two "
            "classes among them."
        )
    folds = _folds(yl, n_folds, random_state)
    grid = [(params, C, K) for params, K in candidates for C in Cs]  # the stated order
    scores = [_cv_accuracy(K[np.ix_(lab, lab)], yl, C, folds) for _, C, K in grid]
    rest = np.setdiff1d(np.arange(y.size), lab)

    def predict(i):
        _, C, K = grid[i]
        return SVC(kernel="precomputed", C=C).fit(K[np.ix_(lab, lab)], yl).predict(K[np.ix_(rest, lab)])

    i, pred, n_tied = first_tied_not_one_class(scores, predict)
    params, C, _ = grid[i]
    out = (float(np.mean(pred == y[rest])), {**params, "C": C, "cv": float(scores[i]), "tied": n_tied})
    return (*out, pred) if return_prediction else out
