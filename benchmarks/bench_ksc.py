"""Assembling and solving the Semi-KSC system (8) against one ``numpy.linalg.solve``.

    python benchmarks/bench_ksc.py [--M 5000] [--repeat 3]

``solve_semi_ksc`` gets the kernel matrix Omega (M x M) and the labels; it assembles
H = I - diag(g) Omega + g (Omega g)^T / c in O(M^2), factorises H in place, estimates its
condition number and back-substitutes, then computes the bias (9). The reference is
``numpy.linalg.solve`` on one M x M matrix (a copy of H made beforehand, not timed). Times
are the best of ``--repeat``. Peak memory is traced with ``tracemalloc`` (numpy reports
its buffers to it) and given in units of one M x M float64 array; the input Omega is not
counted (it exists before the call).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from sslteach import datasets
from sslteach.ksc import ksc_kernel, semi_ksc_system, solve_semi_ksc


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--M", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    M = args.M
    X, y = datasets.make_gaussian_clouds("four", M, random_state=0)
    y = (y % 2).astype(int)
    y_train = datasets.ssl_split(y, 100, random_state=0)
    yp = np.where(y_train == -1, 0.0, np.where(y_train == 1, 1.0, -1.0))
    Omega = ksc_kernel(X, sigma2=2.0)
    H, r = semi_ksc_system(Omega, yp, rho=0.5)

    t_ksc = best(lambda: solve_semi_ksc(Omega, yp, rho=0.5), args.repeat)
    t_np = best(lambda: np.linalg.solve(H, r), args.repeat)
    unit = M * M * 8
    tracemalloc.start()
    solve_semi_ksc(Omega, yp, rho=0.5)
    _, peak_ksc = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tracemalloc.start()
    np.linalg.solve(H, r)
    _, peak_np = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    alpha, b = solve_semi_ksc(Omega, yp, rho=0.5)
    resid = np.abs(H @ alpha - r).max() / np.abs(r).max()
    print(f"M = {M}, 100 labels, sigma2 = 2, rho = 0.5; best of {args.repeat}")
    print(f"  solve_semi_ksc (assemble + LU + rcond + solve + bias): {t_ksc:.3f} s")
    print(f"  numpy.linalg.solve on one M x M matrix:                {t_np:.3f} s")
    print(f"  ratio: {t_ksc / t_np:.2f}")
    print(
        f"  peak memory traced beyond Omega, in M x M float64 arrays: solve_semi_ksc {peak_ksc / unit:.2f}, "
        f"numpy.linalg.solve {peak_np / unit:.2f} (its LAPACK copy is not traced)"
    )
    print(f"  relative residual of (8): {resid:.1e}")


if __name__ == "__main__":
    main()
