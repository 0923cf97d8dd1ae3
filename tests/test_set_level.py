"""Chapter 5's claim-level statistics (sslteach.protocols.set_level) against independent formulations."""

import itertools

import numpy as np
import pytest
import scipy.stats

from sslteach.protocols.set_level import (
    block_table,
    bootstrap_mean_ci,
    fmt_away,
    holm,
    paired_claims,
    selection_report,
)


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

    S = np.random.default_rng(1).normal(size=(15, 5)) + [0, 0.5, -0.3, 1.0, 0.1]
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


def _parts():
    rng = np.random.default_rng(2)
    parts = {}
    for s, lab in itertools.product(["a", "b", "c"], [10, 100]):
        acc = {m: list(rng.uniform(50, 90, 12)) for m in ("x", "y", "z")}
        parts[f"{s}/{lab}"] = {
            "n_labeled": lab,
            "accuracy": acc,
            "n_tied": {m: list(rng.integers(1, 4, 12)) for m in acc},
            "setting_accuracy": {m: [[a, a + 1.0, a - 2.0] for a in acc[m]] for m in acc},
            "params": {m: [{"g": 0}] * 12 for m in acc},
        }
    del parts["c/100"]["accuracy"]["z"]
    return parts


def test_paired_claims_against_scipy_and_holm():
    parts = _parts()
    claims = [("a/10", "x", "y"), ("b/100", "z", "x"), ("c/10", "y", "z")]
    out = paired_claims(parts, claims)
    ps = []
    for (block, m, r), o in zip(claims, out, strict=True):
        d = np.subtract(parts[block]["accuracy"][m], parts[block]["accuracy"][r])
        ps.append(scipy.stats.wilcoxon(d).pvalue)
        assert o.p == pytest.approx(ps[-1]) and o.mean == pytest.approx(d.mean())
        assert o.low <= o.mean <= o.high and o.wins + o.losses == 12
    assert np.allclose([o.p_holm for o in out], holm(ps))


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
