"""Chapter 5: wall time of one transductive run of every method as n grows.

One run = everything a method does for one labelled set, from the points to the labels, at
one fixed setting (no model selection): ``METHODS[name].transduce(SetCache(X), params, y)``
with a fresh cache, so kernels, graphs and eigenvectors are included. Data: ``make_g241c``
(two Gaussians in 241 dimensions) with n = 250, 500, ..., up to 10^5, 10 labelled points.
A method moves to the next n only while its last run took under ``--cap`` seconds and its
dense (n, n) arrays fit (``DENSE_LIMIT``); the page says where each one stopped and why.

    OPENBLAS_NUM_THREADS=1 python scripts/scaling_ch5.py          # about 10 minutes, one core
    OPENBLAS_NUM_THREADS=1 python scripts/scaling_ch5.py --sizes 250 500 1000 --out /tmp/s.json

Writes ``scripts/results/scaling.json``. Times are one run each, on one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SIZES = [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 100000]

#: One setting per method: the middle of its grid in the comparison (or its first entry).
SETTINGS = {
    "majority (labelled)": {},
    "SVC (labelled only)": {"s": 1.0, "C": 1.0},
    "LabelPropagation": {"k": 10},
    "LabelSpreading": {"k": 10, "alpha": 0.2},
    "SelfTraining (SVC)": {"s": 1.0, "C": 1.0},
    "alignment + K_P": {"s": 1.0, "C0": 1.0},
    "cut cost + K_P": {"s": 1.0, "C0": 1.0},
    "HCK + SVM": {"linkage": "average", "C": 1.0},
    "TSK": {"k": 6, "m": 10},
    "TSK + SVM": {"k": 6, "m": 10},
    "Semi-KSC": {"s": 0.5, "rho": 1.0},
    "LapSVM": {"s": 2.0, "gamma_A": 1e-2},
}

#: The largest n for methods that hold dense (n, n) float64 arrays (several at once: about
#: 2 GB each at 16000, so 8000 is the last size that fits in a few GB with room to spare).
DENSE = {"alignment + K_P", "cut cost + K_P", "HCK + SVM", "Semi-KSC", "LapSVM"}
DENSE_LIMIT = 8000

#: The cost in n the book states for one run (time), from the methods' docstrings and chapters.
STATED = {
    "majority (labelled)": ("O(n)", 1),
    "SVC (labelled only)": ("O(n l d) to predict", 1),
    "LabelPropagation": ("O(n^2 d) k-NN search + O(nk) per iteration", 2),
    "LabelSpreading": ("O(n^2 d) k-NN search + O(nk) per iteration", 2),
    "SelfTraining (SVC)": (
        "O(nld) if no point passes the threshold; else an SVM on up to n points per round",
        3,
    ),
    "alignment + K_P": (
        "O(n^2 d) kernel, O(n^2) sweep; eigenvector O(n^3) dense up to 2000, Lanczos above",
        2,
    ),
    "cut cost + K_P": (
        "O(n^2 d) kernel, O(n^2) sweep; eigenvector O(n^3) dense up to 2000, Lanczos above",
        2,
    ),
    "HCK + SVM": ("O(n^2 d) distances and linkage, O(n^2) kernel", 2),
    "TSK": ("O(n^2 d) brute k-NN, Lanczos O(n(k+m)) per step", 2),
    "TSK + SVM": ("O(n^2 d) brute k-NN, Lanczos O(n(k+m)) per step", 2),
    "Semi-KSC": ("O(n^3) linear system", 3),
    "LapSVM": ("O(n^3) linear system", 3),
}


def fitted_slope(n, t, *, min_seconds=0.01, last=4):
    """Least-squares slope of log t on log n over the last ``last`` runs that took at least
    ``min_seconds`` (shorter runs measure overheads, not growth); None with fewer than 3."""
    n, t = np.asarray(n, float), np.asarray(t, float)
    keep = t >= min_seconds
    n, t = n[keep][-last:], t[keep][-last:]
    if n.size < 3:
        return None
    return float(np.polyfit(np.log(n), np.log(t), 1)[0])


def main(argv=None):
    from sslteach.datasets import make_g241c, ssl_split
    from sslteach.kernels import squared_distances
    from sslteach.protocols.comparison import METHODS, SetCache

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="+", type=int, default=SIZES)
    ap.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    ap.add_argument("--cap", type=float, default=15.0, help="stop a method after a run longer than this (s)")
    ap.add_argument("--out", type=Path, default=ROOT / "scripts" / "results" / "scaling.json")
    args = ap.parse_args(argv)

    runs = {m: {"n": [], "seconds": [], "stopped": None} for m in args.methods}
    for n in args.sizes:
        X, y = make_g241c(n, random_state=0)
        y_train = ssl_split(y, 10, random_state=0)
        sub = np.random.default_rng(0).choice(n, size=min(n, 2000), replace=False)
        D2 = squared_distances(X[sub])
        median = float(np.median(D2[np.triu_indices_from(D2, 1)]))
        for m in args.methods:
            r = runs[m]
            if r["stopped"]:
                continue
            if m in DENSE and n > DENSE_LIMIT:
                r["stopped"] = f"n = {n}: dense (n, n) arrays of {8 * n * n / 1e9:.1f} GB each"
                continue
            cache = SetCache(X, median_sq_distance=median)
            t = time.perf_counter()
            METHODS[m].transduce(cache, SETTINGS[m], y_train)
            dt = time.perf_counter() - t
            r["n"].append(n)
            r["seconds"].append(dt)
            print(f"{m:22s} n = {n:6d}: {dt:8.3f} s", flush=True)
            if dt > args.cap and n != args.sizes[-1]:
                r["stopped"] = f"after n = {n}: one run took {dt:.0f} s (cap {args.cap:.0f} s)"
    result = {
        "data": "sslteach.datasets.make_g241c(n, 241 features, random_state=0), "
        "10 labels (ssl_split, random_state=0)",
        "settings": SETTINGS,
        "stated": {m: {"cost": STATED[m][0], "exponent": STATED[m][1]} for m in args.methods},
        "runs": runs,
        "slopes": {m: fitted_slope(runs[m]["n"], runs[m]["seconds"]) for m in args.methods},
        "cap_seconds": args.cap,
        "dense_limit": DENSE_LIMIT,
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
            "cpu_count": os.cpu_count(),
        },
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
