"""threshold_sweep (O(m^2)) against recomputing each threshold's criterion (O(m^3)).

    python benchmarks/bench_relaxation.py [--m 4000]

The naive sweep forms each threshold's labelling and evaluates y'Ky with one
matrix-vector product per threshold (m - 1 of them). Both give identical scores
(checked) before the ratio is printed.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sslteach.kernels import center_kernel, normalize_kernel, rbf_kernel
from sslteach.relaxation import threshold_sweep, top_eigenvector


def naive_sweep(K, v, criterion):
    m = K.shape[0]
    order = np.argsort(-v, kind="stable")
    fro, total = np.linalg.norm(K), K.sum()
    scores = np.empty(m - 1)
    y = -np.ones(m)
    for i in range(1, m):
        y[order[i - 1]] = 1.0
        q = y @ (K @ y)
        scores[i - 1] = q / (m * fro) if criterion == "alignment" else (total - q) / (2 * m * fro)
    return scores


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=4000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    half = args.m // 2
    X = np.vstack([rng.standard_normal((half, 5)), rng.standard_normal((args.m - half, 5)) + 1.5])
    K = center_kernel(normalize_kernel(rbf_kernel(X, sigma=2.0)))
    v = top_eigenvector(K)[1]
    for criterion in ("alignment", "cut"):
        t0 = time.perf_counter()
        fast = threshold_sweep(K, v, criterion).scores
        t1 = time.perf_counter()
        slow = naive_sweep(K, v, criterion)
        t2 = time.perf_counter()
        err = np.abs(fast - slow).max() / np.abs(slow).max()
        assert err < 1e-9, err
        print(
            f"threshold_sweep m={args.m} ({criterion}): naive {t2 - t1:.2f} s, sweep {t1 - t0:.3f} s, "
            f"ratio {(t2 - t1) / (t1 - t0):.0f}x, max relative difference {err:.1e}"
        )


if __name__ == "__main__":
    main()
