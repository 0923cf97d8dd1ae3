"""sslteach.protocols.comparison: each cached method against its estimator, the selection rule against a
scripted method, and the statistics against scipy and Demšar's (2006) tables."""

import functools
import itertools
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")
import matplotlib.axes
import matplotlib.pyplot
import numpy as np
import pytest
import scipy
import scipy.sparse as sp
import scipy.stats
from oracles import sign_flip_p
from sklearn.svm import SVC

from sslteach.cluster_kernels import DataDependentSVC, hierarchical_cluster_kernel
from sslteach.datasets import make_g241c, ssl_split
from sslteach.ksc import LapSVM, SemiSupervisedKSC
from sslteach.protocols import comparison as compare
from sslteach.protocols.comparison import METHODS, Method, SetCache
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
        # average linkage is DataDependentSVC's own kernel="hck" (the paper's kernel)
        kernel = (
            "hck"
            if linkage == "average"
            else functools.partial(hierarchical_cluster_kernel, linkage="single")
        )
        want = DataDependentSVC(kernel=kernel, C=C).fit(cache.X, y).transduction_
        assert np.array_equal(METHODS["HCK + SVM"].transduce(cache, {"linkage": linkage, "C": C}, y), want)


def test_ksc_rows_use_the_papers_sigma2(data):
    cache, _, labels = data
    for y in labels:
        # Alzate & Suykens write exp(-d^2 / sigma2): their sigma2 is 2 sigma^2 = 2 s m
        for s, rho in ((0.5, 1.0), (1.0, 0.1)):
            want = SemiSupervisedKSC(sigma2=2 * s * cache.median_sq_distance, rho=rho).fit(cache.X, y)
            got = METHODS["Semi-KSC"].transduce(cache, {"s": s, "rho": rho}, y)
            assert np.array_equal(got, want.transduction_), f"Semi-KSC differs at s={s}, rho={rho}"
        for s, gamma_A in ((2.0, 1e-2), (0.5, 1e-4)):
            s2 = 2 * s * cache.median_sq_distance
            want = LapSVM(sigma2=s2, gamma_A=gamma_A, gamma_I=1.0, n_neighbors=6).fit(cache.X, y)
            got = METHODS["LapSVM"].transduce(cache, {"s": s, "gamma_A": gamma_A}, y)
            assert np.array_equal(got, want.transduction_), f"LapSVM differs at s={s}, gamma_A={gamma_A}"


def test_lapsvm_gamma_grid_equals_the_estimator(data):
    """The gamma_I grid's cached path (kernel, graph and LU of S once per set) gives LapSVM.fit's labels."""
    cache, _, labels = data
    for y, p in itertools.product(labels, METHODS["LapSVM (gamma_I grid)"].grid):
        s2 = 2 * p["s"] * cache.median_sq_distance
        want = LapSVM(sigma2=s2, gamma_A=p["gamma_A"], gamma_I=p["gamma_I"], n_neighbors=6).fit(cache.X, y)
        got = METHODS["LapSVM (gamma_I grid)"].transduce(cache, p, y)
        assert np.array_equal(got, want.transduction_), f"LapSVM (gamma_I grid) differs at {p}"


def test_lapsvm_factor_refuses_a_singular_system(data):
    cache, _, _ = data
    with pytest.raises(ValueError, match="ill-conditioned"):
        compare._lapsvm_factor(cache, 1.0, 1e-300, 1e6)


def test_every_method_labels_every_point(data):
    cache, _, labels = data
    for m, y in itertools.product(METHODS.values(), labels):
        assert 1 <= len(m.grid) <= compare.GRID_SIZE, f"{m.name} tries {len(m.grid)} settings"
        for p in (m.grid[0], m.grid[-1]):
            pred = np.asarray(m.transduce(cache, p, y))
            assert pred.shape == y.shape, f"{m.name} {p}: one label per point"
            assert pred.dtype.kind in "iu", f"{m.name} {p}: integer labels, got {pred.dtype}"
            assert set(np.unique(pred)) <= {0, 1}, f"{m.name} {p}: labels outside {{0, 1}}"


def _sq_dist(A):
    return np.array([[np.sum((a - b) ** 2) for b in A] for a in A])


def test_exact_embedding_keeps_inner_products():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 200)) * (rng.random((30, 200)) < 0.1)
    G = X @ X.T
    for given in (X, sp.csr_matrix(X)):
        Z = compare.exact_embedding(given)
        assert isinstance(Z, np.ndarray) and Z.shape[0] == 30 and Z.shape[1] <= 30
        assert np.linalg.norm(Z @ Z.T - G) <= 1e-8 * np.linalg.norm(G), "Z Z' must equal X X'"
        D = _sq_dist(X)
        assert np.linalg.norm(_sq_dist(Z) - D) <= 1e-8 * np.linalg.norm(D), "squared distances change"
    narrow = rng.standard_normal((30, 5))
    assert np.array_equal(compare.exact_embedding(narrow), narrow), "a narrow dense X is returned as is"


def test_cv_folds():
    y = np.full(50, -1)
    y[:12] = [0] * 6 + [1] * 6
    y = y[np.random.default_rng(3).permutation(50)]  # labelled points scattered among the others
    lab = np.flatnonzero(y >= 0)
    folds = compare.cv_folds(y)
    assert len(folds) == 5
    held = np.concatenate([h for _, h in folds])
    assert sorted(held.tolist()) == lab.tolist(), "the held-out parts partition the labelled points"
    for keep, h in folds:
        assert sorted(set(keep) | set(h)) == lab.tolist() and not set(keep) & set(h)
        assert set(y[h]) == {0, 1}, "stratified folds hold both classes when each has >= 5 labels"
        assert abs(np.sum(y[h] == 0) - np.sum(y[h] == 1)) <= 1, "stratified: classes in proportion"
    again = compare.cv_folds(y)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(folds, again, strict=True)), "deterministic"
    y[lab] = [0] + [1] * 11  # one label of class 0: plain k-fold
    folds2 = compare.cv_folds(y)
    assert sorted(np.concatenate([h for _, h in folds2]).tolist()) == lab.tolist()
    assert sorted(len(h) for _, h in folds2) == [2, 2, 2, 3, 3], "plain 5-fold on 12 labels"
    assert sum(0 in set(y[h]) for _, h in folds2) == 1
    assert [f[1].tolist() for f in folds2] == [f[1].tolist() for f in compare.cv_folds(y)]
    three = np.full(10, -1)
    three[[1, 4, 7]] = [0, 1, 1]
    assert len(compare.cv_folds(three)) == 3, "never more folds than labels"
    with pytest.raises(ValueError, match="at least 2 labelled"):
        compare.cv_folds(np.r_[0, np.full(9, -1)])


def _scripted(answers, calls):
    """A method whose setting i answers answers[i](y_given) and logs (i, y_given) for each run."""

    def transduce(cache, p, y):
        calls.append((p["i"], np.array(y)))
        return answers[p["i"]](y)

    return Method("scripted", "test", tuple({"i": i} for i in range(len(answers))), transduce)


@pytest.fixture(scope="module")
def scripted_set():
    X, y = make_g241c(60, 3, random_state=1)
    y_train = np.full(60, -1)
    lab = np.r_[np.flatnonzero(y == 0)[:5], np.flatnonzero(y == 1)[:5]]
    y_train[lab] = y[lab]
    return SetCache(X), y, y_train


def test_selection_picks_most_correct_held_out_labels(scripted_set):
    cache, y, y_train = scripted_set
    calls = []
    answers = [lambda t: 1 - y, lambda t: np.zeros(60, dtype=int), lambda t: y.copy()]
    # setting 0 is always wrong, 1 says class 0 everywhere (half right), 2 is right
    r = compare.select_and_transduce(_scripted(answers, calls), cache, y_train)
    assert r.cv_correct == [0, 5, 10] and r.index == 2 and r.params == {"i": 2}
    assert np.array_equal(r.transduction, y) and not r.one_class and r.n_tied == 1
    cv_calls = [c for c in calls[:-1]]
    assert len(cv_calls) == 15 and calls[-1][0] == 2, "5 folds per setting, then one run of the winner"
    for _, given in cv_calls:
        assert np.sum(given >= 0) == 8 and np.all(given[given >= 0] == y_train[given >= 0])
    assert np.array_equal(calls[-1][1], y_train), "the final run sees every label"


def test_selection_ties(scripted_set):
    cache, y, y_train = scripted_set
    unl = y_train < 0
    right_one_class = lambda t: np.where(unl, 0, y)  # noqa: E731 (right on the labelled points only)
    right_also_one_class = lambda t: np.where(unl, 1, y)  # noqa: E731
    wrong = lambda t: 1 - y  # noqa: E731
    calls = []
    r = compare.select_and_transduce(
        _scripted([wrong, right_one_class, lambda t: y.copy(), lambda t: y], calls), cache, y_train
    )
    assert r.cv_correct == [0, 10, 10, 10] and r.n_tied == 3
    assert r.index == 2 and not r.one_class, "the first tied setting that is not one class"
    assert [c[0] for c in calls[-2:]] == [1, 2], (
        "tied settings are run in grid order until one is not one class"
    )
    r = compare.select_and_transduce(
        _scripted([wrong, right_one_class, right_also_one_class], []), cache, y_train
    )
    assert r.index == 1 and r.one_class and r.n_tied == 2, "all tied one class: the first tied"


def test_selection_one_class_fold_skips_the_method(scripted_set):
    cache, y, _ = scripted_set
    y1 = np.full(60, -1)
    idx = np.r_[np.flatnonzero(y == 0)[:5], np.flatnonzero(y == 1)[:1]]
    y1[idx] = y[idx]
    folds = compare.cv_folds(y1)
    n_two_class = sum(len(set(y1[keep])) == 2 for keep, _ in folds)
    assert n_two_class == len(folds) - 1
    calls = []
    r = compare.select_and_transduce(_scripted([lambda t: y.copy(), lambda t: 1 - y], calls), cache, y1)
    for _, given in calls:
        assert set(given[given >= 0]) == {0, 1}, "the method never runs on one labelled class"
    assert [c[0] for c in calls] == [0] * n_two_class + [1] * n_two_class + [0]
    # the one-class fold answers its class: the true method loses the held-out label of class 1
    want = [
        sum(len(h) if len(set(y1[k])) == 2 else int(np.sum(y1[h] == y1[k][0])) for k, h in folds),
        sum(0 if len(set(y1[k])) == 2 else int(np.sum(y1[h] == y1[k][0])) for k, h in folds),
    ]
    assert r.cv_correct == want and r.cv_correct[0] == 5


def test_selection_refuses_bad_input(scripted_set):
    cache, y, y_train = scripted_set
    with pytest.raises(ValueError, match="0 and 1"):
        compare.select_and_transduce("TSK", cache, np.where(y_train >= 0, y_train + 3, -1))
    with pytest.raises(ValueError, match="0 and 1"):
        compare.select_and_transduce("TSK", cache, np.where(y_train >= 0, 2 * y_train, -1))
    with pytest.raises(ValueError, match="Unknown method"):
        compare.select_and_transduce("nope", cache, y_train)
    with pytest.raises(ValueError, match="two classes"):
        compare.select_and_transduce("TSK", cache, np.where(y_train == 1, -1, y_train))


def _brute_ranks(S):
    """Rank 1 = highest score; a group of t tied scores shares the mean of its t positions."""
    return np.array(
        [[1 + np.sum(row > row[j]) + (np.sum(row == row[j]) - 1) / 2 for j in range(row.size)] for row in S]
    )


def test_ranks_and_friedman_against_scipy():
    rng = np.random.default_rng(0)
    S = rng.random((14, 6))
    T = np.round(S, 1)  # with ties
    assert any(np.unique(row).size < row.size for row in T)
    for A in (S, T):
        mean, R = compare.average_ranks(A)
        brute = _brute_ranks(A)
        assert np.allclose(R, brute) and np.allclose(mean, brute.mean(0)), "ranks differ from brute force"
    fr = compare.friedman_test(S)
    assert fr.chi2 == pytest.approx(scipy.stats.friedmanchisquare(*S.T).statistic, rel=1e-12)
    N, k = S.shape
    assert fr.F == pytest.approx((N - 1) * fr.chi2 / (N * (k - 1) - fr.chi2), rel=1e-12)
    assert fr.p_chi2 == pytest.approx(scipy.stats.chi2.sf(fr.chi2, k - 1), rel=1e-9)
    assert fr.p_F == pytest.approx(scipy.stats.f.sf(fr.F, k - 1, (k - 1) * (N - 1)), rel=1e-9)
    assert (fr.n_blocks, fr.n_methods) == (14, 6)
    # with ties: Demsar's formula on average ranks, no tie correction, so below scipy's
    Rt = _brute_ranks(T).mean(0)
    chi2_t = compare.friedman_test(T).chi2
    assert chi2_t == pytest.approx(12 * N / (k * (k + 1)) * (np.sum(Rt**2) - k * (k + 1) ** 2 / 4))
    assert chi2_t < scipy.stats.friedmanchisquare(*T.T).statistic
    for bad in ([[1.0, np.nan]], [[1.0, np.inf], [0.0, 1.0]], [1.0, 2.0], [[1.0], [2.0]]):
        with pytest.raises(ValueError, match="finite 2-D array"):
            compare.average_ranks(np.array(bad))
        with pytest.raises(ValueError, match="finite 2-D array"):
            compare.friedman_test(np.array(bad))


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
    # Demsar's q_0.05 are three-decimal studentised-range values / sqrt 2: equal to 1e-3
    for N in (7, 14, 84):
        cd = compare.nemenyi_critical_difference(k, N)
        assert cd / np.sqrt(k * (k + 1) / (6 * N)) == pytest.approx(q, abs=1e-3), f"q_0.05 for k={k}"


def test_nemenyi_bad_input():
    with pytest.raises(ValueError, match="n_methods"):
        compare.nemenyi_critical_difference(1, 10)
    with pytest.raises(ValueError, match="n_blocks"):
        compare.nemenyi_critical_difference(5, 0)
    for alpha in (1.5, 1.0, 0.0, -0.1):
        with pytest.raises(ValueError, match="alpha"):
            compare.nemenyi_critical_difference(5, 10, alpha=alpha)




SCIPY_PERMUTES_TIES = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 15)


def test_signed_rank_test_against_enumeration_and_scipy():
    rng = np.random.default_rng(0)
    for n in range(1, 14):
        for rep in range(6):
            d = rng.integers(-4, 5, n)  # small values: ties and zeros
            got = compare.signed_rank_test(d)
            assert got.pvalue == pytest.approx(sign_flip_p(d), rel=1e-12, abs=1e-15), d
            assert got.n == int(np.sum(d != 0))
            # scipy's permutation p for n <= 13 with ties or zeros (about 1 s each at n = 13)
            if rep == 0 and np.any(d) and SCIPY_PERMUTES_TIES:
                want = scipy.stats.wilcoxon(d)
                assert got.pvalue == pytest.approx(want.pvalue, rel=1e-12), d
                assert got.statistic == want.statistic, d
    # no ties, larger n: scipy's exact distribution (on the floats; distinct values, no ties)
    for n in (14, 25, 40):
        x = rng.standard_normal(n)
        got = compare.signed_rank_test([Fraction(v) for v in x])
        assert got.pvalue == pytest.approx(scipy.stats.wilcoxon(x, method="exact").pvalue, rel=1e-12)
    # every difference zero: no evidence; a float is taken only with an integer value
    assert compare.signed_rank_test([0, 0, 0]).pvalue == 1.0
    assert compare.signed_rank_test([3.0, -1.0, 2.0]).pvalue == compare.signed_rank_test([3, -1, 2]).pvalue
    with pytest.raises(ValueError, match="exact"):
        compare.signed_rank_test([0.5, 1.0])
    with pytest.raises(ValueError, match="1-D"):
        compare.signed_rank_test([[1, 2]])


def _accuracy(k, u):
    """The stored accuracy (%) of k correct points of u, computed as scripts/reproduce_ch5.py does."""
    return 100 * float(np.mean(np.arange(u) < k))


def test_float_accuracies_lose_a_tie_that_counts_keep():
    """Equal differences of correct points, -4 and -4, stored as float accuracies differ in the last
    bit (-0.2857142857142918 and -0.2857142857142776 points). The test on the counts keeps the
    tie; the floats lose it, and with it the verdict of Chapter 5's g241c claim."""
    u = 1400
    # g241c with 100 labels, linear SVM minus SVC: differences in correct points, split by split
    d = np.array([-14, -4, -24, -7, -11, -6, -7, -10, 3, -16, -4, 2])
    ref = 1000 + 7 * np.arange(12)
    acc_ref = [_accuracy(k, u) for k in ref]
    acc = [_accuracy(k, u) for k in ref + d]
    float_d = np.subtract(acc, acc_ref)
    assert d[1] == d[10] and float_d[1] != float_d[10], "the example needs last-bit noise"
    assert np.array_equal(np.rint(float_d * u / 100), d), "the floats are the counts, to round-off"
    counts = np.c_[ref + d, ref]  # correct points, method and reference
    out = compare.wilcoxon_holm(counts, ["linear", "SVC"], "SVC")[0]
    assert out.p == sign_flip_p(d) == 4 / 2**11, "the tie of the two -7 and the two -4 is kept"
    assert scipy.stats.wilcoxon(float_d, method="exact").pvalue != out.p, "the floats see no tie"
    # the same tie in a set's mean accuracy: exact fractions tie where float means do not
    means = np.array([[Fraction(100 * int(k), u) for k in ks] for ks in (ref + d, ref)]).T
    assert compare.wilcoxon_holm(means, ["linear", "SVC"], "SVC")[0].p == out.p
    with pytest.raises(ValueError, match="exact"):
        compare.wilcoxon_holm(np.c_[acc, acc_ref], ["linear", "SVC"], "SVC")


def test_ranks_tie_equal_exact_means():
    """Two methods with the same correct points in total over three splits, spread differently,
    have float mean accuracies that differ in the last bit; their exact means tie."""
    u = 390
    ka, kb, kc = [200, 200, 205], [200, 205, 200], [150, 150, 150]
    float_means = [np.mean([_accuracy(k, u) for k in ks]) for ks in (ka, kb, kc)]
    assert float_means[0] != float_means[1], "the example needs last-bit noise"
    exact = [[Fraction(100 * sum(ks), 3 * u) for ks in (ka, kb, kc)], [Fraction(1), Fraction(2), Fraction(3)]]
    mean, R = compare.average_ranks(exact)
    assert R[0].tolist() == [1.5, 1.5, 3.0] and R[1].tolist() == [3.0, 2.0, 1.0]
    assert mean.tolist() == pytest.approx([2.25, 1.75, 2.0])
    # float() rounds equal fractions to equal floats
    assert np.array_equal(R, _brute_ranks(np.array(exact, dtype=float)))
    assert compare.average_ranks([float_means, [1, 2, 3]])[1][0].tolist() != [1.5, 1.5, 3.0], "floats lose it"


@pytest.mark.parametrize("seed", [7, 0])
def test_wilcoxon_holm(seed):
    # seed 7: Holm's step-down is below Bonferroni; seed 0: it caps at 1 and lifts a p
    rng = np.random.default_rng(seed)
    a = rng.integers(600, 900, 12).astype(float)  # correct points on 12 splits
    S = np.c_[a, a + rng.integers(-2, 9, 12), a + rng.integers(-4, 5, 12), a + rng.integers(-3, 7, 12)]
    S[:3, 3] = np.nan  # three runs not made
    out = compare.wilcoxon_holm(S, ["a", "b", "c", "d"], "a")
    assert [o.method for o in out] == ["b", "c", "d"]
    d = S - S[:, [0]]
    assert all(np.unique(np.abs(d[3:, j])).size < 9 for j in (1, 2, 3)), "ties among the |d|"
    assert np.sum(d[:, 2] == 0) >= 2, "zero differences"
    ps = [sign_flip_p(d[:, j]) for j in (1, 2)] + [sign_flip_p(d[3:, 3])]
    assert [o.p for o in out] == pytest.approx(ps, rel=1e-12), "p values differ from the enumeration"
    if SCIPY_PERMUTES_TIES:
        want = [scipy.stats.wilcoxon(x).pvalue for x in (d[:, 1], d[:, 2], d[3:, 3])]
        assert [o.p for o in out] == pytest.approx(want, rel=1e-12), "p values differ from scipy's wilcoxon"
    counts = [(o.n_pairs, o.wins, o.losses, o.ties, o.median_difference) for o in out]
    want = [
        (
            int(np.sum(np.isfinite(d[:, j]))),
            int(np.nansum(d[:, j] > 0)),
            int(np.nansum(d[:, j] < 0)),
            int(np.sum(d[:, j] == 0)),
            float(np.nanmedian(d[:, j])),
        )
        for j in (1, 2, 3)
    ]
    assert counts == want and counts[2][0] == 9
    # Holm by hand: sort, multiply the i-th smallest by m - i, running max, cap at 1
    srt = sorted(range(3), key=lambda i: ps[i])
    raw = {i: (3 - rank) * ps[i] for rank, i in enumerate(srt)}
    want_holm = {}
    for rank, i in enumerate(srt):
        want_holm[i] = min(1.0, max([raw[j] for j in srt[: rank + 1]]))
    assert [o.p_holm for o in out] == pytest.approx([want_holm[i] for i in range(3)], rel=1e-12)
    assert all(out[i].p_holm <= out[j].p_holm for i, j in zip(srt, srt[1:])), "monotone"
    if seed == 7:
        assert want_holm[srt[1]] < min(1.0, 3 * ps[srt[1]]), "the example tells Holm from Bonferroni"
    else:
        assert max(raw.values()) > 1 and want_holm[srt[-1]] > raw[srt[-1]], "the example caps and lifts"
    with pytest.raises(ValueError, match="reference"):
        compare.wilcoxon_holm(S, ["a", "b", "c", "d"], "z")
    with pytest.raises(ValueError, match="one column per name"):
        compare.wilcoxon_holm(S, ["a", "b", "c"], "a")
    S[:, 3] = np.nan
    with pytest.raises(ValueError, match="no row"):
        compare.wilcoxon_holm(S, ["a", "b", "c", "d"], "a")
    same = compare.wilcoxon_holm(np.c_[a, a, a + 1], ["x", "y", "z"], "x")[0]
    assert same.p == 1.0 and same.ties == 12 and same.p_holm == 1.0


def test_plot_critical_difference_draws_every_name():
    ranks = [1.5, 2.0, 3.5, 3.0]
    ax = compare.plot_critical_difference(ranks, ["a", "b", "c", "d"], 1.0)
    assert isinstance(ax, matplotlib.axes.Axes)
    labels = [t.get_text() for t in ax.texts if "(" in t.get_text()]
    assert sorted(labels) == [f"{n} ({r:.2f})" for n, r in zip("abcd", ranks, strict=True)]
    assert [t.get_text() for t in ax.texts].count("CD = 1.00") == 1
    matplotlib.pyplot.close("all")


def test_plot_critical_difference_refuses_mismatched_names():
    with pytest.raises(ValueError, match="one name per method"):
        compare.plot_critical_difference([1.0, 2.0, 3.0], ["a", "b", "c", "d"], 1.0)


def test_setcache_refuses_bad_data():
    with pytest.raises(ValueError, match="duplicate"):
        SetCache(np.ones((10, 3)))
    X = np.r_[np.ones((7, 2)), np.eye(2), [[0.0, 0.0]]]  # 21 of 45 pairs coincide: fine
    D = _sq_dist(X)
    assert SetCache(X).median_sq_distance == pytest.approx(np.median(D[np.triu_indices(10, 1)]))
    assert SetCache(X).median_sq_distance == 1.0, "the median over the 45 pairs i < j"
    with pytest.raises(ValueError, match="NaN"):
        SetCache(np.r_[np.eye(3), [[np.nan, 0.0, 0.0]]])
    with pytest.raises(ValueError, match="1-D"):
        SetCache(np.arange(5.0))
    cache = SetCache(X, median_sq_distance=2.0)
    assert cache.sigma(0.5) == pytest.approx(1.0)


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
