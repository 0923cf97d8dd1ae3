"""Independent formulations the tests compare the library with (not a test module)."""

import itertools

import numpy as np
import scipy.stats


def sign_flip_p(d):
    """Two-sided p of Wilcoxon's signed-rank statistic by listing every sign pattern (integer d:
    zeros dropped, tied |d| given their mean rank, p = 2 x the smaller tail, at most 1).

    >>> sign_flip_p([3, -1, 2])  # rank sum 5 of 6: 2 of the 8 sign patterns reach 5 or more
    0.5
    """
    d = np.asarray(d, dtype=np.int64)
    d = d[d != 0]
    if d.size == 0:
        return 1.0
    ranks = scipy.stats.rankdata(np.abs(d))  # halves at most: exact in floats
    observed = ranks[d > 0].sum()
    t = np.array(list(itertools.product([0, 1], repeat=d.size))) @ ranks
    return float(min(1.0, 2 * min(np.mean(t <= observed), np.mean(t >= observed))))
