"""Hidden tests of my chapter 9 (keep this file private: it is the grade)."""

import numpy as np
from sslteach_grader import Case

# %% ch9-ex-normalize
# the statement rules out forming D
forbid = ["numpy.diag", "sslteach.graphs"]


def _weights(n, rng):
    W = rng.random((n, n))
    return W + W.T


def cases(rng):
    # fixed cases first: unequal degrees tell D^-1/2 W D^-1/2 from D^-1 W and from W / sum(W)
    fixed = [
        Case("normalize", np.array([[0.0, 2.0], [2.0, 0.0]]), name="two points, one edge"),
        Case("normalize", np.array([[1.0, 3.0], [3.0, 5.0]]), name="two points, unequal degrees"),
    ]
    drawn = [Case("normalize", _weights(n, rng), name=f"random weights, n = {n}") for n in (3, 10)]
    return fixed + drawn


# O(n^2): timed at n = 500, 1000 and 2000
cost = dict(
    function="normalize", sizes=(500, 2000), max_exponent=2.5, make=lambda n, rng: (_weights(n, rng),)
)
