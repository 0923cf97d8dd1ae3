r"""Chapter 5's statistics at the level of the claims they support.

* A claim about methods *in general* is tested over data sets: one value per (set, label
  count) block (the mean over its splits), each label count on its own (the 10- and
  100-label blocks of one set are not independent), the majority row left out of the rank
  test (:func:`block_table`, then :func:`sslteach.protocols.comparison.friedman_test`).
* A claim about *one data set* is tested over that set's splits with a paired two-sided
  Wilcoxon signed-rank test (:func:`paired_claims`), Holm-corrected across all the claims
  made (:func:`holm`), each with the mean paired difference and a percentile bootstrap
  interval over the splits (:func:`bootstrap_mean_ci`, fixed seed).
* The selection itself: how often cross-validation tied every setting
  (:func:`selection_report`), and what the rule gave up against an *oracle* that picks the
  setting with the best test accuracy (reported, never used to select).

Every test runs on exact quantities. comparison.json stores accuracies as floats,
:math:`100k/u` for k of the u unlabelled points right, and two equal paired differences of
such floats can differ in their last bit, which a signed-rank test reads as two different
values. :func:`correct_counts` recovers the integers k (refusing a value that is not
:math:`100k/u` to within 1e-9), so that the tests compare integers, and the block means
are sums of integers (:class:`fractions.Fraction`): a tie is a tie on every machine.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import scipy.stats
from sklearn.utils import Bunch

from .comparison import signed_rank_test

__all__ = [
    "holm",
    "correct_counts",
    "block_counts",
    "bootstrap_mean_ci",
    "block_table",
    "paired_claims",
    "selection_report",
    "fmt_away",
]


def holm(pvalues):
    """Holm's step-down adjusted p-values, in the order given.

    :math:`\\tilde p_{(i)} = \\max_{j\\le i}\\min(1, (m-j+1)p_{(j)})`.
    """
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or p.size == 0 or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("Give a non-empty 1-D list of p-values in [0, 1].")
    order = np.argsort(p, kind="stable")
    adj = np.empty_like(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (p.size - rank) * p[i]))
        adj[i] = running
    return adj


def correct_counts(accuracy, n_unlabelled):
    """The counts of correct points behind accuracies (%) on ``n_unlabelled`` points.

    Each accuracy a is :math:`100k/u`; returns the integers :math:`k = au/100`, and raises a
    ValueError where :math:`au/100` is more than 1e-9 from an integer (the accuracy is not
    a count of u points: a wrong u, or a value that is not an accuracy of this block).
    """
    a = np.asarray(accuracy, dtype=float)
    u = int(n_unlabelled)
    if u < 1 or u != n_unlabelled:
        raise ValueError(f"n_unlabelled must be a positive integer; got {n_unlabelled!r}.")
    if a.ndim != 1 or not np.all(np.isfinite(a)):
        raise ValueError("Give a 1-D list of finite accuracies (%).")
    x = a * u / 100
    k = np.rint(x)
    off = np.abs(x - k)
    if np.any(off > 1e-9):
        i = int(np.argmax(off))
        raise ValueError(
            f"Accuracy {a[i]!r}% of {u} unlabelled points is {x[i]!r} points, not a whole number "
            "(to 1e-9): give the number of unlabelled points the accuracies were measured on."
        )
    return k.astype(np.int64)


def block_counts(part, method):
    """A block's counts of correct points of ``method``, one per split, from comparison.json.

    ``part`` is one entry of comparison.json's ``parts``; its unlabelled points number
    ``n - n_labeled`` in every split.
    """
    return correct_counts(part["accuracy"][method], part["n"] - part["n_labeled"])


def bootstrap_mean_ci(d, *, n_resamples=10000, level=0.95, seed=0, scale=1):
    """Mean of ``d`` and scipy's percentile bootstrap interval for it (resampling the entries of ``d``).

    All three are multiplied by ``scale`` (e.g. ``Fraction(100, u)``: counts of u points to
    percentage points). Integer ``d`` (differences of counts) are resampled exactly: the
    statistic is each resample's sum, an integer, so resamples with equal means are equal,
    and the mean and the interval's ends are rounded to floats once, after the exact
    scaling. The resamples are those of ``np.mean`` on the same ``d`` and seed.
    """
    d = np.asarray(d)
    if d.ndim != 1 or d.size < 2 or not np.all(np.isfinite(d)):
        raise ValueError("Give at least two finite paired differences.")
    if d.dtype.kind not in "iu":  # floats: as given
        if np.all(d == d[0]):
            return (float(d[0]) * scale,) * 3
        res = _bootstrap(d.astype(float), np.mean, n_resamples, level, seed)
        return tuple(float(v) * scale for v in (d.mean(), res.low, res.high))
    n, scale = d.size, Fraction(scale)
    if np.all(d == d[0]):
        return (float(int(d[0]) * scale),) * 3
    res = _bootstrap(d.astype(np.int64), _float_sum, n_resamples, level, seed)
    # a percentile falls on a resample's sum or between two (interpolated): exact as a float
    ends = [Fraction(float(v)) / n for v in (res.low, res.high)]
    return tuple(float(v * scale) for v in (Fraction(int(d.sum()), n), *ends))


def _float_sum(x, axis=-1):
    """The sum of integers, exact, as a float (scipy's quantiles want floats)."""
    return np.sum(x, axis=axis).astype(float)


def _bootstrap(d, statistic, n_resamples, level, seed):
    return scipy.stats.bootstrap(
        (d,),
        statistic,
        n_resamples=n_resamples,
        confidence_level=level,
        method="percentile",
        random_state=np.random.default_rng(seed),
    ).confidence_interval


def block_table(parts, methods, n_labeled, sets):
    """Mean accuracy per set (rows) and method (columns) for one label count.

    ``parts`` is comparison.json's ``parts``.

    Methods without a result on some set of that label count are dropped (and returned in
    ``dropped``) so that every row is complete. ``exact`` holds the means as
    :class:`~fractions.Fraction` (percent: 100 times the correct points summed over the
    splits over the unlabelled points summed over the splits), so that equal means are
    equal; ``scores`` the same rounded to floats (for display); ``counts`` the summed
    correct points (integers). Give ``exact`` to the rank and signed-rank tests.
    """
    keep = [m for m in methods if all(m in parts[f"{s}/{n_labeled}"]["accuracy"] for s in sets)]
    counts = np.zeros((len(sets), len(keep)), dtype=np.int64)
    exact = np.empty(counts.shape, dtype=object)
    for i, s in enumerate(sets):
        part = parts[f"{s}/{n_labeled}"]
        for j, m in enumerate(keep):
            k = block_counts(part, m)
            if k.size != len(part["splits"]):
                raise ValueError(
                    f"{m} has {k.size} results on {s}/{n_labeled}, not one per split ({len(part['splits'])})."
                )
            counts[i, j] = k.sum()
            exact[i, j] = Fraction(100 * int(k.sum()), k.size * (part["n"] - part["n_labeled"]))
    return Bunch(
        scores=exact.astype(float),
        exact=exact,
        counts=counts,
        methods=keep,
        sets=list(sets),
        dropped=[m for m in methods if m not in keep],
    )


def paired_claims(parts, claims, *, seed=0):
    """Test each claim ``(block, method, reference)`` over the splits of its block.

    The test runs on the counts of correct points (:func:`block_counts`), so that equal
    differences tie exactly. Returns one Bunch per claim: ``block``, ``method``,
    ``reference``, ``differences`` (method minus reference, correct points per split),
    ``mean`` (method minus reference, points), ``low``/``high`` (95% bootstrap interval),
    ``wins``/``losses``, ``p`` (two-sided paired Wilcoxon,
    :func:`~sslteach.protocols.comparison.signed_rank_test`; 1 if all differences are zero)
    and ``p_holm`` (Holm over all the claims given).
    """
    out = []
    for block, method, reference in claims:
        part = parts[block]
        d = block_counts(part, method) - block_counts(part, reference)
        p = signed_rank_test(d).pvalue
        u = part["n"] - part["n_labeled"]
        mean, low, high = bootstrap_mean_ci(d, seed=seed, scale=Fraction(100, u))
        out.append(
            Bunch(
                block=block,
                method=method,
                reference=reference,
                differences=d,
                mean=mean,
                low=low,
                high=high,
                wins=int(np.sum(d > 0)),
                losses=int(np.sum(d < 0)),
                p=p,
            )
        )
    for b, q in zip(out, holm([b.p for b in out]), strict=True):
        b.p_holm = float(q)
    return out


def selection_report(parts, method, grid, n_labeled=None):
    """Runs of ``method`` where cross-validation tied every setting of ``grid``, and the gap to the oracle.

    Returns ``runs``, ``all_tied`` (every setting tied), ``some_tied`` (more than one), and,
    where ``setting_accuracy`` is stored (every setting's test accuracy, rerun with all
    labels), ``oracle_gap`` (mean over runs of the best setting's test accuracy minus the
    chosen setting's, both from that rerun, points), ``oracle_gap_max``, ``oracle_runs`` and
    ``rerun_differs`` (runs whose rerun of the chosen setting differs from the stored
    accuracy by more than 1e-9: a method that does not reproduce to the last label).
    """
    grid = list(grid)
    runs = all_tied = some_tied = differs = 0
    gaps = []
    for part in parts.values():
        if (n_labeled is not None and part["n_labeled"] != n_labeled) or method not in part.get("n_tied", {}):
            continue
        for split, t in enumerate(part["n_tied"][method]):
            runs += 1
            all_tied += int(len(grid) > 1 and t == len(grid))
            some_tied += int(t > 1)
            if method in part.get("setting_accuracy", {}):
                acc = part["setting_accuracy"][method][split]
                chosen = acc[grid.index(part["params"][method][split])]
                gaps.append(max(acc) - chosen)
                differs += int(abs(chosen - part["accuracy"][method][split]) > 1e-9)
    return Bunch(
        runs=runs,
        all_tied=all_tied,
        some_tied=some_tied,
        oracle_gap=float(np.mean(gaps)) if gaps else None,
        oracle_gap_max=float(np.max(gaps)) if gaps else None,
        oracle_runs=len(gaps),
        rerun_differs=differs,
    )


def fmt_away(x, digits=1, *, sign=False):
    """``x`` with ``digits`` decimals, or more where that rounding would sit within 1e-9 of a tie.

    A printed number should not change with the last bit of round-off: where ``x`` is (to
    1e-9 relative) halfway between two ``digits``-decimal values, more decimals are printed
    (up to 12), so the text never quotes a value whose rounding is decided by noise.
    """
    x = float(x)
    for d in range(digits, 13):
        frac = abs(x) * 10**d % 1
        if abs(frac - 0.5) > 1e-9 * max(1.0, abs(x) * 10**d):
            break
    return f"{x:+.{d}f}" if sign else f"{x:.{d}f}"
