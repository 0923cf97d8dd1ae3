r"""Every method of the book under one protocol, and the statistics to compare them (Chapter 5).

Chapter 5 of the book runs every method of Chapters 1-4 and the baselines a reader would
otherwise pick (scikit-learn's ``SVC`` on the labelled points, ``LabelPropagation``,
``LabelSpreading``, ``SelfTrainingClassifier``, the labelled majority class) on the same
transductive task: given all n points and the labels of l of them, label the other n - l.

* :data:`METHODS`: one entry per method, each with its grid (at most :data:`GRID_SIZE`
  settings, the same budget for all) and a function ``transduce(cache, params, y_train)``
  returning a label for every point.
* :func:`select_and_transduce`: the one model-selection rule, which sees only the labelled
  points: :data:`N_FOLDS`-fold cross-validation on them, each fold a *transductive* run with
  that fold's labels hidden (:func:`cv_folds`).
* :class:`SetCache`: the work that does not depend on the labels (a kernel, its
  eigenvectors, a k-NN graph's Laplacian eigenpairs), computed once per data set and
  shared by every split and fold. The cached paths give the estimators' own answers
  (``tests/test_compare.py`` checks each against ``fit(X, y).transduction_``).
* :func:`average_ranks`, :func:`friedman_test`, :func:`nemenyi_critical_difference`,
  :func:`wilcoxon_holm` and :func:`plot_critical_difference`: the paired comparison of
  Demšar (2006); :func:`signed_rank_test`, the exact Wilcoxon test they rest on.

The tests take exact scores: counts of correct points (integers) or
:class:`fractions.Fraction`. An accuracy stored as a float, :math:`100k/u`, carries
round-off, so two equal paired differences can differ in their last bit and a test on the
floats sees no tie; on integers or fractions a tie is a tie on every machine.

One Gaussian width for every kernel method: :math:`k(x, z) = \exp(-\lVert x - z\rVert^2 /
(2\sigma^2))` with :math:`\sigma^2 = s\,\bar m`, :math:`\bar m` the median squared distance
between two points of the set, so the grids are in units of the data's own scale.

References
----------
Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. *JMLR* 7,
1-30.
"""

from __future__ import annotations

import math
import numbers
import statistics
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.stats
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.semi_supervised import LabelPropagation, LabelSpreading, SelfTrainingClassifier
from sklearn.svm import SVC
from sklearn.utils import Bunch

from .._decisions import argmax_rows, first_tied_not_one_class
from .._validation import check_data, check_int, check_labels, check_positive
from ..cluster_kernels import DataDependentSVC, hierarchical_cluster_kernel
from ..graphs import knn_connectivity, knn_graph
from ..kernels import center_kernel, normalize_kernel, rbf_kernel, squared_distances
from ..ksc import LapSVM, SemiSupervisedKSC, _knn_laplacian, ksc_kernel
from ..ksc import _lapsvm_dual as ksc_lapsvm_dual
from ..ksc import _lapsvm_factor as ksc_lapsvm_factor
from ..relaxation import fiedler_vector, threshold_sweep, top_eigenvector
from ..spectral_kernels import laplacian_eigenpairs, solve_tsk, tsk_scores

__all__ = [
    "GRID_SIZE",
    "N_FOLDS",
    "METHODS",
    "Method",
    "SetCache",
    "exact_embedding",
    "cv_folds",
    "select_and_transduce",
    "average_ranks",
    "friedman_test",
    "nemenyi_critical_difference",
    "signed_rank_test",
    "wilcoxon_holm",
    "plot_critical_difference",
]

#: The grid budget: every method tries at most this many settings.
GRID_SIZE = 6

#: Folds of the labelled-only cross-validation (:func:`cv_folds`).
N_FOLDS = 5


def exact_embedding(X):
    r"""Rows with the same inner products (so the same distances) in at most n dimensions.

    For a wide or sparse ``X`` (the Text set: 1500 x 11960), the eigendecomposition of the
    Gram matrix :math:`G = XX^\top = V\Lambda V^\top` gives :math:`Z = V\Lambda^{1/2}` with
    :math:`ZZ^\top = G`: every kernel of the book (Gaussian, linear, k-NN, dendrogram) sees
    the same points, and the kernels cost :math:`O(n^2\min(n, d))` instead of
    :math:`O(n^2 d)`. A dense ``X`` with d <= n is returned unchanged (as float64).

    Cost: :math:`O(n^2 d)` for G (:math:`O(n\cdot\mathrm{nnz})` sparse) and :math:`O(n^3)`
    for its eigenvectors; memory :math:`O(n^2)`.
    """
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
        G = (X @ X.T).toarray()
    else:
        X = check_data(X)
        if X.shape[1] <= X.shape[0]:
            return X
        G = X @ X.T
    lam, V = np.linalg.eigh((G + G.T) / 2)
    keep = lam > lam.max() * X.shape[0] * np.finfo(float).eps
    return V[:, keep] * np.sqrt(lam[keep])


class SetCache:
    r"""The label-independent work on one data set, computed once and shared.

    Parameters
    ----------
    X : array-like of shape (n, d)
        The points, dense (see :func:`exact_embedding` for a sparse set).
    median_sq_distance : float, optional
        :math:`\bar m` when already known (e.g. estimated on a subsample of a large set,
        where the (n, n) distances would not fit); computed from all pairs otherwise.

    Attributes
    ----------
    X : ndarray of shape (n, d)
    median_sq_distance : float
        :math:`\bar m`, the median of :math:`\lVert x_i - x_j\rVert^2` over the pairs
        i < j: the unit of every Gaussian width (:math:`\sigma^2 = s\bar m`).

    Notes
    -----
    Memory: a few (n, n) arrays per kernel setting in use; the squared distances,
    :math:`O(n^2 d)` time once.
    """

    def __init__(self, X, median_sq_distance=None):
        self.X = check_data(X, min_samples=3)
        if median_sq_distance is None:
            D2 = squared_distances(self.X)
            median_sq_distance = np.median(D2[np.triu_indices_from(D2, 1)])
        self.median_sq_distance = float(median_sq_distance)
        if not self.median_sq_distance > 0:
            raise ValueError("More than half of the pairs of points coincide; remove duplicate rows of X.")
        self._memo = {}

    def get(self, key, compute):
        """``compute()`` the first time ``key`` is asked for, the stored value afterwards."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def sigma(self, s):
        """The width :math:`\\sigma = \\sqrt{s\\bar m}` of grid value ``s``."""
        return float(np.sqrt(s * self.median_sq_distance))


@dataclass(frozen=True)
class Method:
    """A method of the comparison: its name, where the book derives it, its grid and its run."""

    name: str
    chapter: str
    grid: tuple
    transduce: Callable = field(repr=False)
    note: str = ""


def _labelled(y):
    lab = np.flatnonzero(y >= 0)
    return lab, y[lab]


def _majority(cache, params, y):
    lab, yl = _labelled(y)
    return np.full(y.size, np.bincount(yl).argmax())


def _svc(cache, p, y):
    lab, yl = _labelled(y)
    clf = SVC(kernel="rbf", gamma=1 / (2 * p["s"] * cache.median_sq_distance), C=p["C"])
    return clf.fit(cache.X[lab], yl).predict(cache.X)


def _knn_kernel(cache, k):
    """scikit-learn's ``kernel="knn"`` graph with ties in index order (``graphs.knn_connectivity``:
    scikit-learn's own depends on the thread count where distances tie, as on Text), once per k."""
    G = cache.get(("knn_connectivity", k), lambda: knn_connectivity(cache.X, n_neighbors=k))

    def kernel(X, Y):
        if X.shape != cache.X.shape or Y is not X:
            raise ValueError("the comparison's k-NN kernel is the graph on the set's own points")
        return G.copy()  # LabelPropagation scales the matrix it is given in place

    return kernel


def _label_propagation(cache, p, y):
    est = LabelPropagation(kernel=_knn_kernel(cache, p["k"]), max_iter=1000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "max_iter reached": the labels are still the argmax
        return est.fit(cache.X, y).transduction_


def _label_spreading(cache, p, y):
    est = LabelSpreading(kernel=_knn_kernel(cache, p["k"]), alpha=p["alpha"], max_iter=100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(cache.X, y).transduction_


def _self_training(cache, p, y):
    base = SVC(
        kernel="rbf",
        gamma=1 / (2 * p["s"] * cache.median_sq_distance),
        C=p["C"],
        probability=True,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Platt scaling on a handful of labels warns
        return SelfTrainingClassifier(base).fit(cache.X, y).predict(cache.X)


def _spectral_relaxation(cache, s, criterion):
    """Chapter 1's preprocessed kernel (normalised, centred) and its relaxed labelling."""

    def compute():
        K = center_kernel(normalize_kernel(rbf_kernel(cache.X, sigma=cache.sigma(s))))
        lam, v = top_eigenvector(K) if criterion == "alignment" else fiedler_vector(K)
        return K, v

    return cache.get(("relaxation", s, criterion), compute)


def _alignment_transduction(criterion):
    def run(cache, p, y):
        # SpectralAlignmentClustering(kernel="rbf", criterion=..., C0=...).fit(X, y), its
        # eigenvector cached: the sweep measured on K_P = K + C0 zz' (Chapter 1)
        K, v = _spectral_relaxation(cache, p["s"], criterion)
        z = np.where(y < 0, 0.0, np.where(y == 1, 1.0, -1.0))
        side = threshold_sweep(K, v, criterion, K_eval=K + p["C0"] * np.outer(z, z)).y
        return ((side if np.sum(z * side) >= 0 else -side) > 0).astype(np.int64)

    return run


def _hck_svm(cache, p, y):
    K = cache.get(("hck", p["linkage"]), lambda: hierarchical_cluster_kernel(cache.X, linkage=p["linkage"]))
    return DataDependentSVC(kernel=lambda X: K, C=p["C"]).fit(cache.X, y).transduction_


def _tsk_parts(cache, p, y):
    def compute():
        return laplacian_eigenpairs(knn_graph(cache.X, p["k"]), p["m"])

    lam, V = cache.get(("tsk", p["k"], p["m"]), compute)
    lab, yl = _labelled(y)
    mu = solve_tsk(lam, V, y, eta=2.0, beta=y.size / lab.size)
    return V, mu, lab, yl


def _tsk(cache, p, y):
    # TransductiveSpectralKernel(n_neighbors=k, n_components=m).fit(X, y).transduction_,
    # eq. (5) of Liu et al., its graph and eigenpairs cached
    V, mu, _, _ = _tsk_parts(cache, p, y)
    classes, scores = tsk_scores(V, mu, y)
    return classes[argmax_rows(scores)]


def _tsk_svm(cache, p, y):
    # an SVM on the learned kernel K = V diag(mu) V' (Liu et al., Sect. 5: "TSK+SVM")
    V, mu, lab, yl = _tsk_parts(cache, p, y)
    E = V * np.sqrt(mu)
    clf = SVC(kernel="precomputed", C=1.0).fit(E[lab] @ E[lab].T, yl)
    return clf.predict(E @ E[lab].T)


def _semi_ksc(cache, p, y):
    # Alzate & Suykens write exp(-d^2 / sigma2): their sigma2 is 2 sigma^2 = 2 s m
    est = SemiSupervisedKSC(sigma2=2 * p["s"] * cache.median_sq_distance, rho=p["rho"])
    return est.fit(cache.X, y).transduction_


def _lapsvm(cache, p, y):
    est = LapSVM(
        sigma2=2 * p["s"] * cache.median_sq_distance, gamma_A=p["gamma_A"], gamma_I=1.0, n_neighbors=6
    )
    return est.fit(cache.X, y).transduction_


def _lapsvm_factor(cache, s, gamma_A, gamma_I, n_neighbors=6):
    r"""LapSVM's label-independent work on a set, cached: the kernel, the k-NN Laplacian and the
    LU factors of :math:`S = 2\gamma_AI + 2\frac{\gamma_I}{n^2}LK` (the :math:`O(n^3)` step).

    The estimator's own factorisation (``sslteach.ksc._lapsvm_factor``, what
    :class:`sslteach.ksc.LapSVM` ``.fit`` calls), so a run from these factors gives the
    estimator's answer (``tests/test_compare.py``); a singular or ill-conditioned S is refused
    with the estimator's ValueError.
    """
    sigma2 = 2 * s * cache.median_sq_distance
    K = cache.get(("ksc_kernel", s), lambda: ksc_kernel(cache.X, sigma2=sigma2))
    L = cache.get(("knn_laplacian", n_neighbors), lambda: _knn_laplacian(cache.X, n_neighbors))

    def compute():
        return ksc_lapsvm_factor(K, L, gamma_A, gamma_I)

    lu, piv = cache.get(("lapsvm_lu", s, gamma_A, gamma_I, n_neighbors), compute)
    return K, L, lu, piv


def _lapsvm_from_factor(K, L, lu, piv, y, gamma_A, gamma_I):
    """LapSVM's transduction (labels 0/1) from :func:`_lapsvm_factor`: the estimator's own dual
    QP (``sslteach.ksc``) in the l labelled variables (``O(n^2 l)`` for the l solves)."""
    lab, yl01 = _labelled(y)
    yp = np.zeros(K.shape[0])
    yp[lab] = np.where(yl01 == 1, 1.0, -1.0)
    sol = ksc_lapsvm_dual(K, L, yp, gamma_A, gamma_I, lu, piv)
    return (sol.f >= 0).astype(np.int64)


def _lapsvm_gamma_grid(cache, p, y):
    # LapSVM(sigma2=2 s m, gamma_A, gamma_I, n_neighbors=6).fit(X, y).transduction_, with the
    # kernel, graph and LU of S cached per set (the labels enter only the l x l dual QP)
    K, L, lu, piv = _lapsvm_factor(cache, p["s"], p["gamma_A"], p["gamma_I"])
    return _lapsvm_from_factor(K, L, lu, piv, y, p["gamma_A"], p["gamma_I"])


def _grid(**axes):
    """The product of the axes, first axis slowest, as a tuple of dicts."""
    grids = [{}]
    for name, values in axes.items():
        grids = [{**g, name: v} for g in grids for v in values]
    return tuple(grids)


#: The methods, in the order of the book's tables: baselines, then Chapters 1-4.
METHODS = {
    m.name: m
    for m in [
        Method("majority (labelled)", "baseline", ({},), _majority, "the most frequent labelled class"),
        Method("SVC (labelled only)", "baseline", _grid(s=(0.25, 1.0, 4.0), C=(1.0, 100.0)), _svc),
        Method(
            "LabelPropagation", "baseline", _grid(k=(3, 5, 7, 10, 15, 20)), _label_propagation, "k-NN kernel"
        ),
        Method(
            "LabelSpreading",
            "baseline",
            _grid(k=(5, 10, 20), alpha=(0.2, 0.8)),
            _label_spreading,
            "k-NN kernel",
        ),
        Method(
            "SelfTraining (SVC)",
            "baseline",
            _grid(s=(0.25, 1.0, 4.0), C=(1.0, 100.0)),
            _self_training,
            "threshold 0.75",
        ),
        Method(
            "alignment + K_P",
            "1",
            _grid(s=(0.125, 0.25, 0.5, 1.0, 2.0, 4.0), C0=(1.0,)),
            _alignment_transduction("alignment"),
            "top eigenvector, sweep on K_P",
        ),
        Method(
            "cut cost + K_P",
            "1",
            _grid(s=(0.125, 0.25, 0.5, 1.0, 2.0, 4.0), C0=(1.0,)),
            _alignment_transduction("cut"),
            "Fiedler vector, sweep on K_P",
        ),
        Method("HCK + SVM", "2", _grid(linkage=("average", "single"), C=(0.1, 1.0, 10.0)), _hck_svm),
        Method("TSK", "3", _grid(k=(6, 10), m=(10, 20, 30)), _tsk, "eq. (5), beta = n/l, eta = 2"),
        Method("TSK + SVM", "3", _grid(k=(6, 10), m=(10, 20, 30)), _tsk_svm, "C = 1"),
        Method("Semi-KSC", "4", _grid(s=(0.1, 0.5, 1.0), rho=(0.1, 1.0)), _semi_ksc, "gamma = 1"),
        Method(
            "LapSVM", "4", _grid(s=(0.5, 2.0, 4.0), gamma_A=(1e-4, 1e-2)), _lapsvm, "gamma_I = 1, 6-NN graph"
        ),
        Method(
            "LapSVM (gamma_I grid)",
            "4",
            _grid(s=(0.5, 2.0), gamma_A=(1e-4,), gamma_I=(1.0, 100.0, 1e4)),
            _lapsvm_gamma_grid,
            "gamma_A = 1e-4, 6-NN graph",
        ),
    ]
}


def cv_folds(y_train, n_folds=N_FOLDS, *, random_state=0):
    """Folds of the labelled points for the labelled-only model selection.

    Stratified when every labelled class has at least ``n_folds`` points, plain shuffled
    k-fold otherwise (10 labels may hold a class only once); never more folds than labels.

    Returns
    -------
    folds : list of (ndarray, ndarray)
        For each fold, the indices (into all points) of the labelled points it keeps and
        of those it holds out.
    """
    y = np.asarray(y_train)
    lab = np.flatnonzero(y >= 0)
    if lab.size < 2:
        raise ValueError(f"Cross-validation needs at least 2 labelled points; got {lab.size}.")
    k = check_int(n_folds, "n_folds", low=2)
    k = min(k, lab.size)
    counts = np.bincount(y[lab])
    splitter = (
        StratifiedKFold(k, shuffle=True, random_state=random_state)
        if counts[counts > 0].min() >= k
        else KFold(k, shuffle=True, random_state=random_state)
    )
    return [(lab[tr], lab[te]) for tr, te in splitter.split(lab.reshape(-1, 1), y[lab])]


def _fold_predictions(method, cache, params, y, keep):
    y_fold = np.full_like(y, -1)
    y_fold[keep] = y[keep]
    present = np.unique(y[keep])
    if present.size < 2:  # a fold that kept one class: every method can only answer it
        return np.full(y.size, present[0])
    return method.transduce(cache, params, y_fold)


def select_and_transduce(method, cache, y_train, *, n_folds=N_FOLDS, random_state=0):
    r"""The comparison's one model-selection rule, then the transduction with all labels.

    Every setting of ``method.grid`` is scored by :math:`k`-fold cross-validation on the
    labelled points only (:func:`cv_folds`): each fold runs the method transductively on
    all n points with that fold's held-out labels hidden and counts how many of them it
    labels correctly. The setting with the most correct held-out labels wins; ties (equal
    integer counts) go to the first tied setting in grid order whose transduction does not
    put every unlabelled point in one class (the first tied setting if all do). A fold that
    kept labels of one class only predicts that class.

    Parameters
    ----------
    method : Method or str
        An entry (or a key) of :data:`METHODS`.
    cache : SetCache
        The data set.
    y_train : array-like of shape (n,)
        Class codes 0, 1, ... for labelled points and -1 for unlabelled ones (two classes
        labelled).

    Returns
    -------
    result : sklearn.utils.Bunch
        ``transduction`` (a label for every point), ``params`` (the chosen setting),
        ``index`` (its position in the grid), ``cv_correct`` (held-out labels right per
        setting), ``n_tied`` and ``one_class`` (whether the chosen transduction is one class).

    Notes
    -----
    Cost: ``len(grid) * n_folds + 1`` to ``len(grid) * (n_folds + 1)`` runs of the method.
    """
    if isinstance(method, str):
        if method not in METHODS:
            raise ValueError(f"Unknown method {method!r}; choose one of {list(METHODS)}.")
        method = METHODS[method]
    y, labeled, classes, _ = check_labels(y_train, cache.X.shape[0], n_classes=2, who="The comparison")
    y = np.asarray(y, dtype=np.int64)
    if not np.array_equal(classes, [0, 1]):
        raise ValueError(
            f"Code the two classes 0 and 1 (and -1 for unlabelled points); got {classes.tolist()}."
        )
    folds = cv_folds(y, n_folds, random_state=random_state) if len(method.grid) > 1 else []
    correct = np.array(
        [
            sum(
                int(np.sum(_fold_predictions(method, cache, p, y, keep)[held] == y[held]))
                for keep, held in folds
            )
            for p in method.grid
        ]
    )
    unl = ~labeled
    chosen, pred, n_tied = first_tied_not_one_class(
        correct, lambda i: np.asarray(method.transduce(cache, method.grid[i], y), dtype=np.int64), on=unl
    )
    return Bunch(
        transduction=pred,
        params=dict(method.grid[chosen]),
        index=int(chosen),
        cv_correct=correct.tolist(),
        n_tied=int(n_tied),
        one_class=bool(np.unique(pred[unl]).size == 1),
    )


def _real(x):
    """``x`` if it is a finite real number (an int, a Fraction or a float), else None."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return None
    return x if isinstance(x, numbers.Rational) or math.isfinite(x) else None


def _exact(x, what="score"):
    """``x`` as a :class:`~fractions.Fraction`: an int, a Fraction, or a float with an integer value."""
    if isinstance(x, numbers.Rational) and not isinstance(x, bool):
        return Fraction(x)
    if isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x) and float(x).is_integer():
        return Fraction(int(x))
    raise ValueError(
        f"Each {what} must be exact: an integer (a count of correct points) or a fractions.Fraction; "
        f"got {x!r}. A float accuracy 100*k/u carries round-off, and equal differences of two such "
        "floats can differ in their last bit; convert accuracies to counts first "
        "(sslteach.protocols.set_level.correct_counts), or pass Fraction(x) to take a float's "
        "binary value as exact."
    )


def _missing(x):
    """Whether ``x`` marks a run that was not made: None or a float NaN."""
    return x is None or (isinstance(x, float | np.floating) and math.isnan(x))


def _descending_ranks(row):
    """Ranks of the values of ``row`` (1 = largest), ties averaged, by exact comparisons."""
    code = {v: i for i, v in enumerate(sorted(set(row), reverse=True))}
    return scipy.stats.rankdata([code[v] for v in row])


def average_ranks(scores):
    """Ranks of the methods (columns) within each block (row), 1 = best, ties averaged.

    ``scores`` has shape (n_blocks, n_methods), higher is better; returns the mean rank of
    each method over the blocks (shape (n_methods,)) and the per-block ranks.

    The values are compared as given, exactly (ints, :class:`~fractions.Fraction` or floats;
    no arithmetic is done on them). Give exact scores, such as a block's mean accuracies as
    fractions or its counts of correct points summed over the splits, so that equal means
    tie: two float means of equal counts can differ in their last bit.
    """
    S = np.asarray(scores, dtype=object)
    if S.ndim != 2 or S.shape[1] < 2 or any(_real(v) is None for v in S.ravel()):
        raise ValueError(
            "scores must be a finite 2-D array, one row per block and one column per method (>= 2)."
        )
    R = np.vstack([_descending_ranks(list(row)) for row in S])
    return R.mean(axis=0), R


def friedman_test(scores):
    r"""Friedman's test that all methods (columns) rank alike over the blocks (rows).

    With N blocks, k methods and mean ranks :math:`R_j`,

    .. math::

        \chi^2_F = \frac{12N}{k(k+1)}\Bigl(\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Bigr),\qquad
        F_F = \frac{(N-1)\chi^2_F}{N(k-1) - \chi^2_F},

    :math:`\chi^2_F` with k - 1 degrees of freedom and Iman and Davenport's :math:`F_F`
    with (k - 1, (k - 1)(N - 1)), as Demšar (2006) recommends (ties get average ranks; no
    tie correction, so :math:`\chi^2_F` is at most scipy's tie-corrected statistic).

    Returns a Bunch with ``chi2``, ``p_chi2``, ``F``, ``p_F``, ``n_blocks``, ``n_methods``.
    """
    R_mean, _ = average_ranks(scores)
    N, k = np.asarray(scores, dtype=object).shape
    chi2 = 12 * N / (k * (k + 1)) * (np.sum(R_mean**2) - k * (k + 1) ** 2 / 4)
    denom = N * (k - 1) - chi2
    F = (N - 1) * chi2 / denom if denom > 0 else np.inf
    return Bunch(
        chi2=float(chi2),
        p_chi2=float(scipy.stats.chi2.sf(chi2, k - 1)),
        F=float(F),
        p_F=float(scipy.stats.f.sf(F, k - 1, (k - 1) * (N - 1))) if np.isfinite(F) else 0.0,
        n_blocks=int(N),
        n_methods=int(k),
    )


def nemenyi_critical_difference(n_methods, n_blocks, alpha=0.05):
    r"""Nemenyi's critical difference of mean ranks, :math:`q_\alpha\sqrt{k(k+1)/(6N)}`.

    :math:`q_\alpha` is the studentised range's upper :math:`\alpha` point for k groups
    and infinite degrees of freedom divided by :math:`\sqrt2` (Demšar, 2006, Table 5,
    rounds these to 2.343 for k = 3 and 3.164 for k = 10; his values are within 1e-3).
    Two methods whose mean ranks differ by more than the CD differ at level
    :math:`\alpha`, all pairs considered together.
    """
    k = check_int(n_methods, "n_methods", low=2)
    N = check_int(n_blocks, "n_blocks", low=1)
    check_positive(alpha, "alpha")
    if not alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha!r}.")
    q = scipy.stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    return float(q * np.sqrt(k * (k + 1) / (6 * N)))


def signed_rank_test(d):
    r"""Two-sided Wilcoxon signed-rank test of exact paired differences, with its exact p-value.

    Zero differences are dropped (Wilcoxon's convention, scipy's default
    ``zero_method="wilcox"``); the n others are ranked by :math:`|d_i|`, tied values sharing
    their mean rank, and :math:`T^+` is the sum of the ranks of the positive differences.
    Under the null hypothesis each of the :math:`2^n` sign patterns of the ranks is equally
    likely, and

    .. math::

        p = \min\bigl(1,\ 2\min(P(T^+\le t), P(T^+\ge t))\bigr)

    is counted exactly over them (a subset-sum count on the doubled ranks, which are
    integers). Without ties this is scipy's ``method="exact"``; with ties it is the
    permutation p-value that ``scipy.stats.wilcoxon`` gives for n <= 13 since scipy 1.15
    (older versions, and larger n, fall back to the normal approximation there). Here it is
    exact for every n, on every scipy.

    Parameters
    ----------
    d : array-like of shape (n,)
        Exact differences: integers (differences of counts of correct points) or
        :class:`fractions.Fraction`; a float is accepted only with an integer value.

    Returns
    -------
    result : sklearn.utils.Bunch
        ``statistic`` (:math:`\min(T^+, T^-)`, scipy's two-sided statistic), ``r_plus``
        (:math:`T^+`), ``n`` (non-zero differences) and ``pvalue`` (1 when every difference
        is zero).

    Notes
    -----
    Cost: :math:`O(n^3)` integer additions (n values of a count table of
    :math:`n(n+1) + 1` entries); n = 100 takes well under a second.
    """
    d = np.asarray(d, dtype=object)
    if d.ndim != 1:
        raise ValueError("Give the paired differences as a 1-D array.")
    nz = [x for x in (_exact(v, "difference") for v in d) if x != 0]
    n = len(nz)
    if n == 0:
        return Bunch(statistic=0.0, r_plus=0.0, n=0, pvalue=1.0)
    mags = sorted(abs(x) for x in nz)
    twice_rank = {}  # |d| -> twice its mean rank (an integer)
    i = 0
    while i < n:
        j = i
        while j + 1 < n and mags[j + 1] == mags[i]:
            j += 1
        twice_rank[mags[i]] = (i + 1) + (j + 1)
        i = j + 1
    r = [twice_rank[abs(x)] for x in nz]
    total = sum(r)  # n(n+1)
    observed = sum(ri for ri, x in zip(r, nz, strict=True) if x > 0)
    count = np.zeros(total + 1, dtype=object)  # sign patterns with each value of 2 T+
    count[0] = 1
    for ri in r:
        shifted = np.zeros_like(count)
        shifted[ri:] = count[: total + 1 - ri]
        count = count + shifted
    tail = min(sum(count[: observed + 1]), sum(count[observed:]))
    return Bunch(
        statistic=min(observed, total - observed) / 2,
        r_plus=observed / 2,
        n=n,
        pvalue=float(min(Fraction(1), Fraction(2 * int(tail), 2**n))),
    )


def wilcoxon_holm(scores, names, reference):
    """Paired Wilcoxon signed-rank tests of every method against ``reference``, Holm-corrected.

    ``scores`` has shape (n_pairs, n_methods) (here one row per data set, each a set's mean
    accuracy over its splits as a :class:`~fractions.Fraction`); each method is compared with
    the ``reference`` column on the rows where both are present (NaN or None marks a run
    that was not made) and they differ (zero differences dropped), two-sided, by
    :func:`signed_rank_test`. The scores must be exact (integers or fractions; a float only
    with an integer value), so that equal differences tie. Holm's step-down correction
    keeps the family-wise error at the level used.

    Returns a list of Bunches (one per other method): ``method``, ``n_pairs`` (rows used),
    ``wins``, ``losses``, ``ties``, ``median_difference`` (method minus reference), ``p``
    and ``p_holm``.
    """
    S = np.asarray(scores, dtype=object)
    names = list(names)
    if S.ndim != 2 or S.shape[1] != len(names):
        raise ValueError("scores must have one column per name.")
    if reference not in names:
        raise ValueError(f"reference {reference!r} is not one of the names.")

    r = names.index(reference)
    out = []
    for j, name in enumerate(names):
        if j == r:
            continue
        d = [
            _exact(a) - _exact(b)
            for a, b in zip(S[:, j], S[:, r], strict=True)
            if not (_missing(a) or _missing(b))
        ]
        if not d:
            raise ValueError(f"{name!r} and {reference!r} share no row with both scores to compare.")
        out.append(
            Bunch(
                method=name,
                n_pairs=len(d),
                wins=sum(x > 0 for x in d),
                losses=sum(x < 0 for x in d),
                ties=sum(x == 0 for x in d),
                median_difference=float(statistics.median(d)),
                p=signed_rank_test(d).pvalue,
            )
        )
    order = np.argsort([b.p for b in out], kind="stable")
    m, running = len(out), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * out[i].p))
        out[i].p_holm = running
    return out


def plot_critical_difference(mean_ranks, names, cd, *, ax=None, title=None):
    """Demšar's critical-difference diagram: mean ranks on an axis, the CD as a bar, and a
    thick line joining each maximal group of methods whose ranks differ by less than the CD."""
    import matplotlib.pyplot as plt

    r = np.asarray(mean_ranks, dtype=float).ravel()
    names = list(names)
    k = r.size
    if len(names) != k:
        raise ValueError(f"Give one name per method: {k} ranks but {len(names)} names.")
    order = np.argsort(r, kind="stable")
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 0.35 * k + 1.6))
    lo, hi = 1, k
    ax.set_xlim(lo - 0.5, hi + 0.5)
    ax.set_ylim(-(k // 2 + 2), 2.2)
    ax.hlines(0, lo, hi, color="k", lw=1)
    for t in range(lo, hi + 1):
        ax.vlines(t, 0, 0.15, color="k", lw=1)
        ax.text(t, 0.3, str(t), ha="center", va="bottom", fontsize=9)
    ax.hlines(1.4, lo, lo + cd, color="k", lw=2)
    ax.text(lo + cd / 2, 1.55, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)
    half = (k + 1) // 2
    for pos, j in enumerate(order):
        left = pos < half
        y = -(pos + 1) if left else -(k - pos)
        x_text = lo - 0.4 if left else hi + 0.4
        ax.plot([r[j], r[j], x_text], [0, y * 0.5 - 0.3, y * 0.5 - 0.3], color="0.3", lw=0.8)
        ax.text(
            x_text,
            y * 0.5 - 0.3,
            f"{names[j]} ({r[j]:.2f})",
            ha="right" if left else "left",
            va="center",
            fontsize=8,
        )
    # maximal groups of consecutive methods (by rank) whose ranks differ by less than the CD
    groups, last_end = [], -1
    for a in range(k):
        b = a
        while b + 1 < k and r[order[b + 1]] - r[order[a]] < cd:
            b += 1
        if b > a and b > last_end:
            groups.append((a, b))
            last_end = b
    for g, (a, b) in enumerate(groups):
        yb = -0.25 - 0.18 * g
        ax.hlines(yb, r[order[a]] - 0.05, r[order[b]] + 0.05, color="k", lw=3)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    return ax
