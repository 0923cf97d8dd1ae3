"""Speed of the shared primitives, as ratios measured in one run.

    python benchmarks/bench_primitives.py [--n 4000] [--repeat 3]

* ``center_kernel(K)`` against the explicit ``J @ K @ J`` (two O(n^3) products);
* ``mds_kernel(M)`` against the explicit ``-0.5 * J @ M @ J``;
* ``knn_graph(X, k)`` (eq. (2) of Liu et al., 2009) against scikit-learn's
  ``kneighbors_graph(X, k, mode="distance")``, which computes neighbours but no weights,
  so a ratio near 1 means the adaptive weights cost little beyond the neighbour search.

Each timing is the best of ``--repeat`` runs; results are checked for equality before
any ratio is printed. Timings depend on the machine; the ratios are the claim.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np
from sklearn.neighbors import kneighbors_graph

from sslteach.graphs import knn_graph
from sslteach.kernels import center_kernel, mds_kernel, rbf_kernel, squared_distances


def best_of(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, rng = args.n, np.random.default_rng(0)
    cpu = platform.processor() or platform.machine()
    print(f"machine: {cpu}, {os.cpu_count()} cores, numpy {np.__version__}")
    X = rng.standard_normal((n, args.d))

    def compare(name, explicit_name, explicit, fast):
        t_exp, A = best_of(explicit, args.repeat)
        t_fast, B = best_of(fast, args.repeat)
        err = np.abs(A - B).max() / np.abs(A).max()
        assert err < 1e-10, err
        print(
            f"{name + ',':<14} n={n}: explicit {explicit_name} {t_exp:.3f} s, {name} {t_fast:.4f} s, "
            f"ratio {t_exp / t_fast:.0f}x (relative difference {err:.1e})"
        )

    K = rbf_kernel(X, sigma=2.0)
    J = np.eye(n) - np.full((n, n), 1.0 / n)
    compare("center_kernel", "J@K@J", lambda: J @ K @ J, lambda: center_kernel(K))
    M = squared_distances(X)
    compare("mds_kernel", "-J@M@J/2", lambda: -0.5 * (J @ M @ J), lambda: mds_kernel(M))

    t_sk, G = best_of(lambda: kneighbors_graph(X, args.k, mode="distance"), args.repeat)
    t_ours, W = best_of(lambda: knn_graph(X, args.k), args.repeat)
    # same neighbourhoods: every k-NN edge of scikit-learn is an edge of ours
    Gs = G.maximum(G.T)
    assert (Gs != 0).astype(int).sum() == (W != 0).astype(int).sum()
    print(
        f"knn_graph,     n={n}, d={args.d}, k={args.k}: kneighbors_graph {t_sk:.4f} s, "
        f"knn_graph {t_ours:.4f} s, ratio knn_graph / kneighbors_graph {t_ours / t_sk:.2f}"
    )


if __name__ == "__main__":
    main()
