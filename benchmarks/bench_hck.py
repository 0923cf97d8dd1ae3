"""The hierarchical cluster kernel at n = 10,000: wall time and peak memory.

    python benchmarks/bench_hck.py [--n 10000] [--d 50]

Runs ``hierarchical_cluster_kernel`` (Euclidean distances, each linkage, squared
cophenetic distances) on n points in d dimensions and reports the wall time and the
peak memory in units of one n x n float64 array, measured two ways: ``tracemalloc``
(numpy's and scipy's Python-visible allocations) and the growth of the process's
maximum resident set size (``resource.getrusage``), which also sees C-level buffers.
The input X is allocated before measuring.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
import tracemalloc

import numpy as np

from sslteach.cluster_kernels import hierarchical_cluster_kernel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--d", type=int, default=50)
    parser.add_argument("--linkages", nargs="+", default=["average", "single", "complete"])
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    X = rng.standard_normal((args.n, args.d)) + 3.0 * rng.integers(0, 4, args.n)[:, None]
    unit = args.n * args.n * 8
    if len(args.linkages) > 1:
        print(f"n = {args.n}, d = {args.d}; one n x n float64 array = {unit / 2**20:.0f} MiB")
    if len(args.linkages) > 1:  # one process per linkage, so that max RSS is per run
        for linkage in args.linkages:
            cmd = [sys.executable, __file__, "--n", str(args.n), "--d", str(args.d), "--linkages", linkage]
            print(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()[-1])
        return
    linkage = args.linkages[0]
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    tracemalloc.start()
    t = time.perf_counter()
    K = hierarchical_cluster_kernel(X, linkage)
    elapsed = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(
        f"  {linkage:8s}: {elapsed:5.1f} s, peak traced {peak / unit:.2f} arrays, "
        f"max RSS growth {max(rss1 - rss0, 0) / unit:.2f} arrays; K[0, :3] = {np.round(K[0, :3], 3)}"
    )


if __name__ == "__main__":
    main()
