"""TransductiveSpectralKernel.fit against scikit-learn's LabelSpreading(kernel="knn").

    python benchmarks/bench_tsk.py [--n 50000] [--large 200000]

Both fit the same data (two overlapping Gaussian classes, 20 labelled points) in the
same run: TSK builds the k-NN graph of eq. (2), finds the 10 smallest eigenpairs of the
normalised Laplacian with ``eigsh``, solves the LP (14) and classifies every point by
eq. (5); LabelSpreading builds a 0/1 k-NN graph and iterates until its tolerance (1e-3)
is met, at most 30 times (6 times on these data).
Both use k = 6. The neighbour search is the same kind of work in both, so the ratio
depends on the dimension: the eigensolver is a fixed extra cost that weighs more when
the neighbour search is cheap (few dimensions). Times are the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.sparse.csgraph import connected_components
from sklearn.semi_supervised import LabelSpreading

from sslteach import datasets
from sslteach.graphs import _knn_graph_and_h
from sslteach.spectral_kernels import TransductiveSpectralKernel, laplacian_eigenpairs, solve_tsk


def make_data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.standard_normal((n, d))
    X[:, 0] += 3.0 * y
    return X, y, datasets.ssl_split(y, 20, random_state=seed)


def best(make, X, y_train, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = make().fit(X, y_train)
        times.append(time.perf_counter() - t)
    return min(times), out


def stages(X, y_train):
    """Wall time of each step of Table 1 (one run)."""
    t0 = time.perf_counter()
    W, _ = _knn_graph_and_h(X, 6)
    t1 = time.perf_counter()
    lam, V = laplacian_eigenpairs(W, 10)
    t2 = time.perf_counter()
    solve_tsk(lam, V, y_train, beta=X.shape[0] / 20)
    t3 = time.perf_counter()
    return {"graph": t1 - t0, "eigsh": t2 - t1, "LP": t3 - t2, "components": connected_components(W)[0]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--dims", type=int, nargs="+", default=[50, 5])
    parser.add_argument("--large", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    print(f"n = {args.n}, k = 6, m = 10, 20 labels; best of {args.repeat}")
    beta = args.n / 20  # T shrinks like l/n; with beta = 1 the LP returns mu = 0 at this size
    print(f"beta = n / l = {beta:g}")
    for d in args.dims:
        X, y, y_train = make_data(args.n, d)
        t_tsk, tsk = best(
            lambda: TransductiveSpectralKernel(n_neighbors=6, n_components=10, beta=beta),
            X,
            y_train,
            args.repeat,
        )
        t_ls, ls = best(lambda: LabelSpreading(kernel="knn", n_neighbors=6), X, y_train, args.repeat)
        acc_tsk = (tsk.transduction_ == y).mean()
        acc_ls = (ls.transduction_ == y).mean()
        st = stages(X, y_train)
        print(
            f"  d = {d:3d}: TSK {t_tsk:6.2f} s (accuracy {acc_tsk:.3f}), LabelSpreading {t_ls:6.2f} s "
            f"(accuracy {acc_ls:.3f}), ratio TSK/LS = {t_tsk / t_ls:.2f}"
        )
        print(
            f"           TSK stages: graph {st['graph']:.2f} s, eigsh {st['eigsh']:.2f} s, "
            f"LP {st['LP']:.3f} s"
        )

    if args.large:
        X, y, y_train = make_data(args.large, 5)
        beta = args.large / 20
        t0 = time.perf_counter()
        model = TransductiveSpectralKernel(n_neighbors=6, n_components=10, beta=beta).fit(X, y_train)
        t = time.perf_counter() - t0
        print(
            f"n = {args.large}, d = 5: TSK fit {t:.1f} s (one run), "
            f"accuracy {(model.transduction_ == y).mean():.3f}"
        )


if __name__ == "__main__":
    main()
