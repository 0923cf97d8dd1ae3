"""sslteach.compare: each cached method against its estimator, the selection rule against a
scripted method, and the statistics against scipy and Demšar's (2006) tables."""

import functools
import itertools

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.stats
from sklearn.svm import SVC

from sslteach import compare
from sslteach.cluster_kernels import DataDependentSVC, hierarchical_cluster_kernel
from sslteach.compare import METHODS, Method, SetCache
from sslteach.datasets import make_g241c, ssl_split
from sslteach.ksc import LapSVM, SemiSupervisedKSC
from sslteach.relaxation import SpectralAlignmentClustering
from sslteach.spectral_kernels import TransductiveSpectralKernel


@pytest.fixture(scope="module")
def data():
    X, y = make_g241c(160, 12, random_state=0)
    return SetCache(X), y, [ssl_split(y, lab, random_state=seed) for lab, seed in ((6, 0), (12, 1), (20, 2))]


@pytest.mark.parametrize("criterion", ["alignment", "cut"])
@pytest.mark.parametrize("s", [0.25, 1.0, 4.0])
def test_alignment_rows_equal_the_estimator(data, criterion, s):
    cache, _, labels = data
    name = "alignment + K_P" if criterion == "alignment" else "cut cost + K_P"
    for y in labels:
        est = SpectralAlignmentClustering(kernel="rbf", sigma=cache.sigma(s), criterion=criterion, C0=1.0)
        want = est.fit(cache.X, y).transduction_
        assert np.array_equal(METHODS[name].transduce(cache, {"s": s, "C0": 1.0}, y), want)


@pytest.mark.parametrize(("k", "m"), [(6, 10), (10, 20)])
def test_tsk_rows_equal_the_estimator(data, k, m):
    cache, _, labels = data
    for y in labels:
        est = TransductiveSpectralKernel(n_neighbors=k, n_components=m).fit(cache.X, y)
        assert np.array_equal(METHODS["TSK"].transduce(cache, {"k": k, "m": m}, y), est.transduction_)
        lab = y >= 0
        K = est.kernel_
        svc = SVC(kernel="precomputed", C=1.0).fit(K[np.ix_(lab, lab)], y[lab])
        want = svc.predict(K[:, lab])
        assert np.array_equal(METHODS["TSK + SVM"].transduce(cache, {"k": k, "m": m}, y), want)


@pytest.mark.parametrize("linkage", ["average", "single"])
def test_hck_row_equals_the_estimator(data, linkage):
    cache, _, labels = data
    for y, C in itertools.product(labels, (0.1, 10.0)):
        kernel = functools.partial(hierarchical_cluster_kernel, linkage=linkage)
        want = DataDependentSVC(kernel=kernel, C=C).fit(cache.X, y).transduction_
        assert np.array_equal(METHODS["HCK + SVM"].transduce(cache, {"linkage": linkage, "C": C}, y), want)


def test_ksc_rows_use_the_papers_sigma2(data):
    cache, _, labels = data
    y = labels[1]
    s2 = 2 * 0.5 * cache.median_sq_distance  # Alzate & Suykens' sigma^2 = 2 sigma^2
    want = SemiSupervisedKSC(sigma2=s2, rho=1.0).fit(cache.X, y).transduction_
    assert np.array_equal(METHODS["Semi-KSC"].transduce(cache, {"s": 0.5, "rho": 1.0}, y), want)
    s2 = 2 * 2.0 * cache.median_sq_distance
    want = LapSVM(sigma2=s2, gamma_A=1e-2, gamma_I=1.0, n_neighbors=6).fit(cache.X, y).transduction_
    assert np.array_equal(METHODS["LapSVM"].transduce(cache, {"s": 2.0, "gamma_A": 1e-2}, y), want)


def test_every_method_labels_every_point(data):
    cache, _, labels = data
    y = labels[2]
    for m in METHODS.values():
        assert 1 <= len(m.grid) <= compare.GRID_SIZE
        pred = np.asarray(m.transduce(cache, m.grid[0], y))
        assert pred.shape == y.shape and set(np.unique(pred)) <= {0, 1}, m.name


def test_exact_embedding_keeps_inner_products():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 200)) * (rng.random((30, 200)) < 0.1)
    for given in (X, sp.csr_matrix(X)):
        Z = compare.exact_embedding(given)
        assert Z.shape[1] <= 30
        assert np.allclose(Z @ Z.T, X @ X.T, rtol=1e-8, atol=1e-8 * np.abs(X @ X.T).max())
    narrow = rng.standard_normal((30, 5))
    assert np.array_equal(compare.exact_embedding(narrow), narrow)


def test_cv_folds():
    y = np.full(50, -1)
    y[:12] = [0] * 6 + [1] * 6
    folds = compare.cv_folds(y)
    held = np.concatenate([h for _, h in folds])
    assert sorted(held.tolist()) == list(range(12))
    for keep, h in folds:
        assert set(keep) | set(h) == set(range(12)) and not set(keep) & set(h)
        assert set(y[h]) == {0, 1}, "stratified folds hold both classes when each has >= 5 labels"
    y[:12] = [0] + [1] * 11  # one label of class 0: plain folds
    folds2 = compare.cv_folds(y)
    assert sorted(np.concatenate([h for _, h in folds2]).tolist()) == list(range(12))
    assert [f[1].tolist() for f in folds2] == [f[1].tolist() for f in compare.cv_folds(y)]
    with pytest.raises(ValueError, match="at least 2 labelled"):
        compare.cv_folds(np.r_[0, np.full(9, -1)])


def _scripted(answers, calls):
    """A method whose setting i answers answers[i](y_train) and counts its runs."""

    def transduce(cache, p, y):
        calls.append(p["i"])
        return answers[p["i"]](y)

    return Method("scripted", "test", tuple({"i": i} for i in range(len(answers))), transduce)


def test_selection_rule():
    X, y = make_g241c(60, 3, random_state=1)
    cache = SetCache(X)
    y_train = np.full(60, -1)
    lab = np.r_[np.flatnonzero(y == 0)[:5], np.flatnonzero(y == 1)[:5]]
    y_train[lab] = y[lab]
    calls = []
    truth = lambda t: y.copy()  # noqa: E731
    wrong = lambda t: 1 - y  # noqa: E731
    one = lambda t: np.zeros(60, dtype=int)  # noqa: E731
    # setting 0 is always wrong, 1 collapses to one class (half right), 2 is right
    r = compare.select_and_transduce(_scripted([wrong, one, truth], calls), cache, y_train)
    assert r.index == 2 and r.cv_correct == [0, 5, 10] and not r.one_class
    # ties: settings 0 and 1 equally right, 0 is one class on the unlabelled points
    half_one = lambda t: np.where(y_train >= 0, y, 0)  # noqa: E731
    r = compare.select_and_transduce(_scripted([half_one, truth], calls), cache, y_train)
    assert r.cv_correct[0] == r.cv_correct[1] and r.index == 1 and r.n_tied == 2
    # a fold that kept one class predicts it without running the method
    y1 = np.full(60, -1)
    y1[[0, 1, 2, 3, 4, 59]] = [0, 0, 0, 0, 0, 1]
    calls.clear()
    r = compare.select_and_transduce(_scripted([truth, wrong], calls), cache, y1)
    runs_per_setting = calls.count(0) - (r.index == 0)
    assert runs_per_setting < 5, "the fold holding the only label of class 1 must not run the method"
    with pytest.raises(ValueError, match="0 and 1"):
        compare.select_and_transduce("TSK", cache, np.where(y_train >= 0, y_train + 3, -1))
    with pytest.raises(ValueError, match="Unknown method"):
        compare.select_and_transduce("nope", cache, y_train)


def test_ranks_and_friedman_against_scipy():
    rng = np.random.default_rng(0)
    S = rng.random((14, 6))
    mean, R = compare.average_ranks(S)
    brute = np.array(
        [[1 + np.sum(row > row[j]) + (np.sum(row == row[j]) - 1) / 2 for j in range(6)] for row in S]
    )
    assert np.allclose(R, brute) and np.allclose(mean, brute.mean(0))
    fr = compare.friedman_test(S)
    assert fr.chi2 == pytest.approx(scipy.stats.friedmanchisquare(*S.T).statistic)
    N, k = S.shape
    assert fr.F == pytest.approx((N - 1) * fr.chi2 / (N * (k - 1) - fr.chi2))
    T = np.round(S, 1)  # with ties: ours is not tie-corrected, so at most scipy's
    assert compare.friedman_test(T).chi2 <= scipy.stats.friedmanchisquare(*T.T).statistic + 1e-12
    with pytest.raises(ValueError):
        compare.average_ranks(np.array([[1.0, np.nan]]))


@pytest.mark.parametrize(
    ("k", "q"),
    [
        (2, 1.960),
        (3, 2.343),
        (4, 2.569),
        (5, 2.728),
        (6, 2.850),
        (7, 2.949),
        (8, 3.031),
        (9, 3.102),
        (10, 3.164),
    ],
)
def test_nemenyi_cd_matches_demsar_table(k, q):
    N = 14
    assert compare.nemenyi_critical_difference(k, N) == pytest.approx(
        q * np.sqrt(k * (k + 1) / (6 * N)), abs=2e-3
    )


def test_nemenyi_bad_input():
    with pytest.raises(ValueError):
        compare.nemenyi_critical_difference(1, 10)
    with pytest.raises(ValueError):
        compare.nemenyi_critical_difference(5, 10, alpha=1.5)


def test_wilcoxon_holm():
    rng = np.random.default_rng(1)
    S = rng.random((40, 4))
    S[:, 1] += 0.3
    S[:5, 3] = np.nan
    out = compare.wilcoxon_holm(S, ["a", "b", "c", "d"], "a")
    ps = [scipy.stats.wilcoxon(S[:, j] - S[:, 0]).pvalue for j in (1, 2)]
    ps.append(scipy.stats.wilcoxon(S[5:, 3] - S[5:, 0]).pvalue)
    assert [o.p for o in out] == pytest.approx(ps)
    assert out[2].n_pairs == 35 and out[0].wins + out[0].losses + out[0].ties == 40
    # Holm by hand: sort, multiply by m - rank, running max, cap at 1
    order = np.argsort(ps)
    want = np.empty(3)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (3 - rank) * ps[i]))
        want[i] = running
    assert [o.p_holm for o in out] == pytest.approx(want)
    with pytest.raises(ValueError, match="reference"):
        compare.wilcoxon_holm(S, ["a", "b", "c", "d"], "z")


def test_plot_critical_difference_draws_every_name():
    ax = compare.plot_critical_difference([1.5, 2.0, 3.5, 3.0], ["a", "b", "c", "d"], 1.0)
    labels = [t.get_text() for t in ax.texts]
    assert all(any(t.startswith(n + " (") for t in labels) for n in "abcd")


def test_setcache_refuses_duplicates():
    with pytest.raises(ValueError, match="duplicate"):
        SetCache(np.ones((10, 3)))


def test_critical_difference_groups():
    # ranks 1, 1.5 | 4, 4.2: two groups with CD 1; with CD 3.1, (1 .. 4) and (1.5 .. 4.2) overlap
    ax = compare.plot_critical_difference([1.0, 1.5, 4.0, 4.2], list("abcd"), 1.0)
    bars = [c for c in ax.collections if c.get_linewidth()[0] == 3]
    spans = sorted(tuple(np.round(seg[:, 0], 2)) for c in bars for seg in c.get_segments())
    assert spans == [(0.95, 1.55), (3.95, 4.25)], spans
    ax = compare.plot_critical_difference([1.0, 1.5, 4.0, 4.2], list("abcd"), 3.1)
    bars = [c for c in ax.collections if c.get_linewidth()[0] == 3]
    spans = sorted(tuple(np.round(seg[:, 0], 2)) for c in bars for seg in c.get_segments())
    assert spans == [(0.95, 4.05), (1.45, 4.25)], spans
