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
"""

from __future__ import annotations

import numpy as np
import scipy.stats
from sklearn.utils import Bunch

__all__ = ["holm", "bootstrap_mean_ci", "block_table", "paired_claims", "selection_report", "fmt_away"]


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


def bootstrap_mean_ci(d, *, n_resamples=10000, level=0.95, seed=0):
    """Mean of ``d`` and scipy's percentile bootstrap interval for it (resampling the entries of ``d``)."""
    d = np.asarray(d, dtype=float)
    if d.ndim != 1 or d.size < 2 or not np.all(np.isfinite(d)):
        raise ValueError("Give at least two finite paired differences.")
    if np.all(d == d[0]):
        return float(d[0]), float(d[0]), float(d[0])
    res = scipy.stats.bootstrap(
        (d,),
        np.mean,
        n_resamples=n_resamples,
        confidence_level=level,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    return float(d.mean()), float(res.confidence_interval.low), float(res.confidence_interval.high)


def block_table(parts, methods, n_labeled, sets):
    """Mean accuracy per set (rows) and method (columns) for one label count.

    ``parts`` is comparison.json's ``parts``.

    Methods without a result on some set of that label count are dropped (and returned in
    ``dropped``) so that every row is complete.
    """
    keep = [m for m in methods if all(m in parts[f"{s}/{n_labeled}"]["accuracy"] for s in sets)]
    S = np.array([[np.mean(parts[f"{s}/{n_labeled}"]["accuracy"][m]) for m in keep] for s in sets])
    return Bunch(scores=S, methods=keep, sets=list(sets), dropped=[m for m in methods if m not in keep])


def paired_claims(parts, claims, *, seed=0):
    """Test each claim ``(block, method, reference)`` over the splits of its block.

    Returns one Bunch per claim: ``block``, ``method``, ``reference``, ``mean`` (method minus
    reference, points), ``low``/``high`` (95% bootstrap interval), ``wins``/``losses``, ``p``
    (two-sided paired Wilcoxon; 1 if all differences are zero) and ``p_holm`` (Holm over
    all the claims given).
    """
    out = []
    for block, method, reference in claims:
        part = parts[block]
        d = np.asarray(part["accuracy"][method]) - np.asarray(part["accuracy"][reference])
        p = 1.0 if np.all(d == 0) else float(scipy.stats.wilcoxon(d).pvalue)
        mean, low, high = bootstrap_mean_ci(d, seed=seed)
        out.append(
            Bunch(
                block=block,
                method=method,
                reference=reference,
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
