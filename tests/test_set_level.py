"""Chapter 5's claim-level statistics (sslteach.protocols.set_level) against independent formulations."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
import scipy
import scipy.stats
from oracles import sign_flip_p

from sslteach.protocols.comparison import average_ranks, friedman_test
from sslteach.protocols.set_level import (
    block_counts,
    block_table,
    bootstrap_mean_ci,
    correct_counts,
    fmt_away,
    holm,
    paired_claims,
    selection_report,
)

SCIPY_PERMUTES_TIES = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 15)


def _accuracy(k, u):
    """The stored accuracy (%) of k correct points of u, computed as scripts/reproduce_ch5.py does."""
    return 100 * float(np.mean(np.arange(u) < k))




def _holm_by_rejection(p, alpha):
    """Holm's procedure as a rejection rule: reject H_(1..k) while p_(j) <= alpha / (m - j + 1)."""
    order = np.argsort(p, kind="stable")
    reject = np.zeros(len(p), bool)
    for j, i in enumerate(order):
        if p[i] > alpha / (len(p) - j):
            break
        reject[i] = True
    return reject


@pytest.mark.parametrize("seed", range(5))
def test_holm_rejects_exactly_where_the_step_down_rule_does(seed):
    p = np.random.default_rng(seed).uniform(0, 0.2, 9) ** 2
    adj = holm(p)
    for alpha in np.linspace(0.001, 0.2, 60):
        assert np.array_equal(adj <= alpha, _holm_by_rejection(p, alpha))
    assert np.all(adj >= p) and np.all(adj <= 1)


def test_holm_matches_the_comparisons_wilcoxon_holm():
    from sslteach.protocols.comparison import wilcoxon_holm

    S = np.random.default_rng(1).integers(-20, 21, size=(12, 5)) + [0, 5, -3, 10, 1]
    out = wilcoxon_holm(S, list("abcde"), "a")
    assert np.allclose(holm([o.p for o in out]), [o.p_holm for o in out])


def test_holm_refuses_bad_input():
    with pytest.raises(ValueError, match="p-values"):
        holm([0.1, 1.5])


def test_bootstrap_interval_against_a_hand_rolled_percentile_bootstrap():
    d = np.array([3.1, -0.4, 2.2, 5.0, 1.7, 0.3, 2.8, -1.1, 4.4, 1.0, 2.5, 0.9])
    mean, low, high = bootstrap_mean_ci(d, n_resamples=20000, seed=0)
    rng = np.random.default_rng(123)
    means = d[rng.integers(0, d.size, (200000, d.size))].mean(axis=1)
    assert mean == pytest.approx(d.mean())
    assert low == pytest.approx(np.percentile(means, 2.5), abs=0.05)
    assert high == pytest.approx(np.percentile(means, 97.5), abs=0.05)
    assert bootstrap_mean_ci(d, seed=0) == bootstrap_mean_ci(d, seed=0)  # fixed seed, same interval
    assert bootstrap_mean_ci(np.full(5, 2.0)) == (2.0, 2.0, 2.0)


def test_bootstrap_of_counts_is_the_bootstrap_of_their_points():
    """Integer differences (correct points) resample to the same interval as the same differences in
    percentage points, scaled exactly; a hand-rolled percentile bootstrap of the sums agrees."""
    u = 1400
    d = np.array([-14, -4, -24, -7, -11, -6, -7, -10, 3, -16, -4, 2])
    got = bootstrap_mean_ci(d, seed=0, scale=Fraction(100, u))
    as_points = bootstrap_mean_ci(d * 100 / u, seed=0)
    assert got == pytest.approx(as_points, rel=1e-12, abs=1e-12)
    assert got[0] == float(Fraction(100 * int(d.sum()), u * d.size)), "the mean, exact then rounded once"
    sums = d[np.random.default_rng(7).integers(0, d.size, (100000, d.size))].sum(axis=1)
    lo, hi = np.percentile(sums, [2.5, 97.5]) * 100 / (u * d.size)
    assert got[1] == pytest.approx(lo, abs=0.02) and got[2] == pytest.approx(hi, abs=0.02)
    assert bootstrap_mean_ci(np.full(4, 3), scale=Fraction(1, 3)) == (1.0, 1.0, 1.0)


def test_correct_counts():
    for u in (390, 1400, 1490):
        k = np.array([0, 1, 7, u // 3, u - 1, u])
        assert correct_counts([_accuracy(x, u) for x in k], u).tolist() == k.tolist()
    with pytest.raises(ValueError, match="not a whole number"):
        correct_counts([_accuracy(207, 390)], 1400)  # a wrong number of unlabelled points
    with pytest.raises(ValueError, match="not a whole number"):
        correct_counts([53.3], 390)
    with pytest.raises(ValueError, match="positive integer"):
        correct_counts([50.0], 0)
    with pytest.raises(ValueError, match="finite"):
        correct_counts([np.nan], 100)


def _parts():
    rng = np.random.default_rng(2)
    parts = {}
    for s, lab in itertools.product(["a", "b", "c"], [10, 100]):
        n = {"a": 400, "b": 1500, "c": 1500}[s]
        u = n - lab
        k = {m: rng.integers(u // 2, 9 * u // 10, 12) for m in ("x", "y", "z")}
        acc = {m: [_accuracy(v, u) for v in k[m]] for m in k}
        parts[f"{s}/{lab}"] = {
            "n": n,
            "n_labeled": lab,
            "splits": list(range(12)),
            "accuracy": acc,
            "n_tied": {m: list(rng.integers(1, 4, 12)) for m in acc},
            "setting_accuracy": {m: [[a, a + 1.0, a - 2.0] for a in acc[m]] for m in acc},
            "params": {m: [{"g": 0}] * 12 for m in acc},
        }
    del parts["c/100"]["accuracy"]["z"]
    return parts


def test_paired_claims_against_the_enumeration_scipy_and_holm():
    parts = _parts()
    claims = [("a/10", "x", "y"), ("b/100", "z", "x"), ("c/10", "y", "z")]
    out = paired_claims(parts, claims)
    ps = []
    for (block, m, r), o in zip(claims, out, strict=True):
        part = parts[block]
        u = part["n"] - part["n_labeled"]
        k = {v: np.rint(np.asarray(part["accuracy"][v]) * u / 100).astype(int) for v in (m, r)}
        d = k[m] - k[r]
        ps.append(sign_flip_p(d))
        assert o.p == pytest.approx(ps[-1], rel=1e-12)
        if SCIPY_PERMUTES_TIES:
            assert o.p == pytest.approx(scipy.stats.wilcoxon(d).pvalue, rel=1e-12)
        assert o.differences.tolist() == d.tolist() and o.mean == pytest.approx(100 * d.mean() / u)
        assert o.low <= o.mean <= o.high and o.wins + o.losses == int(np.sum(d != 0))
    assert np.allclose([o.p_holm for o in out], holm(ps))


def _g241c_part():
    """g241c with 100 labels (1400 unlabelled points), linear SVM and SVC: the counts of Chapter 5's
    differences, -14, -4, ..., stored as float accuracies the way the comparison's script stores them."""
    d = np.array([-14, -4, -24, -7, -11, -6, -7, -10, 3, -16, -4, 2])
    ref = 1000 + 7 * np.arange(12)
    acc = {"linear": [_accuracy(k, 1400) for k in ref + d], "SVC": [_accuracy(k, 1400) for k in ref]}
    return d, {"n": 1500, "n_labeled": 100, "splits": list(range(12)), "accuracy": acc}


def test_paired_claims_keep_a_tie_the_floats_lose():
    """Two equal differences, -4 and -4 correct points, are -0.2857142857142918 and
    -0.2857142857142776 as differences of the stored floats: a test on the floats ranks them
    apart (p 0.00244 = 5/2048), a test on the counts ties them (p 0.00195 = 4/2048). Holm's
    multiplier 25, this claim's in Chapter 5's family of 46, puts 0.05 between the two."""
    d, part = _g241c_part()
    float_d = np.subtract(part["accuracy"]["linear"], part["accuracy"]["SVC"])
    assert float_d[1] != float_d[10] and d[1] == d[10], "the example needs last-bit noise"
    (got,) = paired_claims({"g241c/100": part}, [("g241c/100", "linear", "SVC")])
    assert got.p == sign_flip_p(d) == 4 / 2**11, "the tie of the two -4 (and the two -7) is kept"
    float_p = scipy.stats.wilcoxon(float_d, method="exact").pvalue  # no ties among the floats
    assert float_p == 5 / 2**11 != got.p, "the floats rank the tied differences apart"
    assert 25 * got.p < 0.05 < 25 * float_p, "the tie decides a Holm verdict"


def test_block_table_means_are_exact():
    """Two methods with equal correct points over a block's splits, spread differently, tie in the
    block's mean (their float means differ in the last bit), and so in the ranks."""
    u, n_splits = 390, 3
    ks = {"p": [200, 200, 205], "q": [200, 205, 200], "r": [150, 150, 150]}
    floats = {m: [_accuracy(k, u) for k in v] for m, v in ks.items()}
    assert np.mean(floats["p"]) != np.mean(floats["q"]), "the example needs last-bit noise"
    part = {"n": 400, "n_labeled": 10, "splits": list(range(n_splits)), "accuracy": floats}
    T = block_table({"s/10": part, "t/10": part}, ["p", "q", "r"], 10, ["s", "t"])
    _, R = average_ranks(T.exact)
    assert R.tolist() == [[1.5, 1.5, 3.0]] * 2, "equal means tie"
    assert T.counts.tolist() == [[605, 605, 450]] * 2
    assert T.exact[0].tolist() == [Fraction(100 * 605, 3 * u)] * 2 + [Fraction(100 * 450, 3 * u)]
    assert T.scores[0, 0] == T.scores[0, 1] == pytest.approx(np.mean(floats["p"]), rel=1e-14)
    assert friedman_test(T.exact).chi2 == pytest.approx(12 * 2 / 12 * (2 * 1.5**2 + 9 - 12))
    assert block_counts(part, "q").tolist() == ks["q"]


def test_block_table_drops_incomplete_methods():
    parts = _parts()
    T = block_table(parts, ["x", "y", "z"], 100, ["a", "b", "c"])
    assert T.methods == ["x", "y"] and T.dropped == ["z"]
    assert T.scores[2, 1] == pytest.approx(np.mean(parts["c/100"]["accuracy"]["y"]))


def test_selection_report_counts_ties_and_the_oracle_gap():
    parts = _parts()
    grid = [{"g": 0}, {"g": 1}, {"g": 2}]
    r = selection_report(parts, "x", grid, 10)
    ties = [t for k in ("a/10", "b/10", "c/10") for t in parts[k]["n_tied"]["x"]]
    assert (
        r.runs == 36 and r.all_tied == sum(t == 3 for t in ties) and r.some_tied == sum(t > 1 for t in ties)
    )
    assert r.oracle_gap == pytest.approx(1.0) and r.oracle_runs == 36 and r.rerun_differs == 0
    parts["a/10"]["params"]["x"] = [{"g": 1}] * 12  # the best setting chosen: no gap on a/10's runs
    parts["a/10"]["accuracy"]["x"] = [a + 1.0 for a in parts["a/10"]["accuracy"]["x"]]
    parts["b/10"]["accuracy"]["x"][0] += 0.5  # a stored accuracy the rerun does not give
    r = selection_report(parts, "x", grid, 10)
    assert r.oracle_gap == pytest.approx(2 / 3) and r.rerun_differs == 1


def test_fmt_away_leaves_rounding_edges():
    assert fmt_away(0.0625, 3) == "0.0625" and fmt_away(96.625, 2) == "96.625"
    assert fmt_away(87.36) == "87.4" and fmt_away(-0.04, sign=True) == "-0.0"
    assert fmt_away(2.5, 0) == "2.5"
