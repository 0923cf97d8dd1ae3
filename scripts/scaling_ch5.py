"""Chapter 5: the cost of one transductive run of every method as n grows, by component.

One run = everything a method does for one labelled set, from the points to the labels, at
one fixed setting (no model selection): ``transduce(SetCache(X), params, y)`` with a fresh
cache, so kernels, graphs, eigenvectors and solves are included. Data: ``make_g241c`` (two
Gaussians in 241 dimensions), n = 250, 500, ..., 10^5, 10 labelled points.

Each run is made in a forked child process, which reports

* its CPU time (one BLAS thread: the CPU time of the run, robust to other jobs on the machine)
  and its wall time;
* the CPU time of each *component*: the calls to the library's building blocks (kernel, k-NN
  graph, eigensolver, O(n^3) linear solve, QP, SVM fit and predict, ...; :data:`COMPONENTS`),
  timed where the method calls them, the rest as "other";
* its peak resident memory (``ru_maxrss`` of the child).

The rules that stop a method (the page prints which one stopped each):

* **memory**: the next size is not run if the peak memory measured at this size, times
  (next n / n)^2 (dense n x n arrays), would pass ``--mem-gb`` (4 GB: the machine is shared);
* **time**: the next size is not run if this run's CPU time times (next n / n)^p, p the
  stated exponent of the method (:data:`STATED`), would pass ``--cap`` (150 s);
* **CPU limit**: a run that has used ``--cpu-limit`` CPU seconds (300) is stopped by the
  kernel (``RLIMIT_CPU``) and recorded; a CPU limit, not a wall-clock one, so that other jobs
  on a shared machine do not stop a run (a run still going after ``--timeout`` wall seconds,
  3600, is killed as well);
* **budget**: no run starts once the study has used ``--budget`` CPU seconds (1800).

    OPENBLAS_NUM_THREADS=1 nice -n 19 python scripts/scaling_ch5.py      # about 14 CPU-minutes
    OPENBLAS_NUM_THREADS=1 python scripts/scaling_ch5.py --sizes 250 500 1000 --out /tmp/s.json

``--resume FILE`` takes the runs already recorded in an earlier output (same sizes, settings
and data) and makes only the missing ones; a run an earlier invocation lost to its wall-clock
limit is made again. The output lists which runs were taken over (``resumed``).

Writes ``scripts/results/scaling.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import signal
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SIZES = [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 100000]

#: One setting per method: the middle of its grid in the comparison (or its first entry).
SETTINGS = {
    "SVC (labelled only)": {"s": 1.0, "C": 1.0},
    "1-NN (labelled only)": {},
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
    "harmonic (Gaussian)": {"s": 0.5},
    "LapRLS": {"s": 2.0, "gamma_I": 1e4, "gamma_A": 1e-2},
}

#: The cost in n the book states for one run, and the exponent the time rule extrapolates with.
STATED = {
    "SVC (labelled only)": ("O(n l d) to predict", 1),
    "1-NN (labelled only)": ("O(n l d) distances to the labelled points", 1),
    "LabelPropagation": ("O(n^2 d) brute k-NN search + O(nk) per iteration", 2),
    "LabelSpreading": ("O(n^2 d) brute k-NN search + O(nk) per iteration", 2),
    "SelfTraining (SVC)": ("O(nld) if no point passes the threshold; else an SVM on up to n points", 3),
    "alignment + K_P": ("O(n^2 d) kernel; eigenvector O(n^3) dense eigh up to 2000, Lanczos above", 3),
    "cut cost + K_P": ("O(n^2 d) kernel; eigenvector O(n^3) dense eigh up to 2000, Lanczos above", 3),
    "HCK + SVM": ("O(n^2 d) distances, O(n^2) linkage and kernel", 2),
    "TSK": ("O(n^2 d) brute k-NN; eigenpairs dense eigh O(n^3) up to 2000, Lanczos above", 2),
    "TSK + SVM": ("O(n^2 d) brute k-NN; eigenpairs dense eigh O(n^3) up to 2000, Lanczos above", 2),
    "Semi-KSC": ("O(n^2 d) kernel, O(n^3) linear system", 3),
    "LapSVM": ("O(n^2 d) kernel, O(kn^2) LK, O(n^3) LU of S", 3),
    "harmonic (Gaussian)": ("O(n^2 d) dense graph, O(n^3) eigendecomposition", 3),
    "LapRLS": ("O(n^2 d) kernel, O(kn^2) LK, O(n^3) linear solve", 3),
}

#: Methods whose eigensolver switches from a dense eigh to Lanczos above 2000 points
#: (``DENSE_EIGEN_LIMIT``): no slope window straddles the switch.
EIGEN_SWITCH = {"alignment + K_P", "cut cost + K_P", "TSK", "TSK + SVM"}
SWITCH_N = 2000

#: The building blocks timed where the methods call them: (module, attribute, component).
#: A call inside another timed call counts for the outer one.
COMPONENTS = [
    ("sslteach.protocols.comparison", "rbf_kernel", "kernel"),
    ("sslteach.protocols.comparison", "normalize_kernel", "kernel"),
    ("sslteach.protocols.comparison", "center_kernel", "kernel"),
    ("sslteach.protocols.comparison", "top_eigenvector", "eigensolver"),
    ("sslteach.protocols.comparison", "fiedler_vector", "eigensolver"),
    ("sslteach.protocols.comparison", "threshold_sweep", "sweep"),
    ("sslteach.protocols.comparison", "hierarchical_cluster_kernel", "cluster kernel"),
    ("sslteach.protocols.comparison", "knn_graph", "k-NN graph"),
    ("sslteach.protocols.comparison", "laplacian_eigenpairs", "eigensolver"),
    ("sslteach.protocols.comparison", "solve_tsk", "TSK solve"),
    ("sslteach.protocols.comparison", "tsk_scores", "TSK solve"),
    ("sslteach.ksc", "ksc_kernel", "kernel"),
    ("sslteach.ksc", "_knn_laplacian", "k-NN graph"),
    ("sslteach.ksc", "_solve_dual", "O(n^3) linear solve"),
    ("scipy.linalg.lapack", "dgetrf", "O(n^3) linear solve"),
    ("scipy.linalg.lapack", "dgetrs", "solves for the labels"),
    ("cvxpy", "Problem.solve", "QP"),
    ("sslteach.protocols.baselines", "rbf_kernel", "kernel"),
    ("sslteach.protocols.baselines", "gaussian_laplacian", "dense graph"),
    ("sslteach.protocols.baselines", "knn_graph", "k-NN graph"),
    ("sslteach.protocols.baselines", "laprls_inverse", "O(n^3) linear solve"),
    ("scipy.linalg", "eigh", "eigensolver"),
    ("sklearn.svm", "SVC.fit", "SVM fit"),
    ("sklearn.svm", "SVC.predict", "SVM predict"),
    ("sklearn.svm", "SVC.predict_proba", "SVM predict"),
    ("sklearn.neighbors", "KNeighborsClassifier.predict", "neighbour search"),
    ("sklearn.semi_supervised._label_propagation", "LabelPropagation._build_graph", "k-NN graph"),
    ("sklearn.semi_supervised._label_propagation", "LabelSpreading._build_graph", "k-NN graph"),
]


class ComponentTimer:
    """CPU seconds per component; a timed call inside another timed call counts for the outer."""

    def __init__(self):
        self.seconds = {}
        self.depth = 0

    def wrap(self, fn, label):
        def timed(*args, **kwargs):
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[label] = self.seconds.get(label, 0.0) + time.process_time() - t
                self.depth -= 1

        return timed

    def install(self):
        import importlib

        for module, attr, label in COMPONENTS:
            owner = importlib.import_module(module)
            *path, name = attr.split(".")
            for p in path:
                owner = getattr(owner, p)
            setattr(owner, name, self.wrap(getattr(owner, name), label))


def one_run(method, X, y_train, params):
    """Run ``method`` once in this process with its components timed; a dict of the times."""
    from sslteach.protocols.baselines import BASELINES
    from sslteach.protocols.comparison import METHODS, SetCache

    timer = ComponentTimer()
    timer.install()
    median = one_run.median
    t_wall, t_cpu = time.perf_counter(), time.process_time()
    cache = SetCache(X, median_sq_distance=median)
    {**METHODS, **BASELINES}[method].transduce(cache, params, y_train)
    cpu = time.process_time() - t_cpu
    comps = dict(timer.seconds)
    comps["other"] = max(0.0, cpu - sum(comps.values()))
    return {"cpu": cpu, "wall": time.perf_counter() - t_wall, "components": comps}


def forked(method, X, y_train, params, timeout, cpu_limit):
    """:func:`one_run` in a forked child: its result, peak memory (MB), or why it ended."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        used = resource.getrusage(resource.RUSAGE_SELF)
        soft = int(np.ceil(used.ru_utime + used.ru_stime + cpu_limit))
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 10))
        try:
            out = one_run(method, X, y_train, params)
        except Exception as exc:  # reported, not raised: the parent records it
            out = {"error": f"{type(exc).__name__}: {exc}"}
        os.write(w, json.dumps(out).encode())
        os.close(w)
        os._exit(0)
    os.close(w)
    chunks, start = [], time.perf_counter()
    status = rusage = None
    killed = False
    while True:
        done, status, rusage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() - start > timeout:
            os.kill(pid, signal.SIGKILL)
            _, status, rusage = os.wait4(pid, 0)
            killed = True
            break
        time.sleep(0.02)
    while True:
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    cpu_used = rusage.ru_utime + rusage.ru_stime
    if killed:
        return {"error": f"killed after {timeout:.0f} s wall ({cpu_used:.0f} CPU s)", "cpu": cpu_used}
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        return {"error": f"stopped at the CPU limit of {cpu_limit:.0f} s", "cpu": cpu_used}
    out = json.loads(b"".join(chunks).decode() or '{"error": "no result"}')
    out["peak_mb"] = rusage.ru_maxrss / 1024  # KB on Linux
    out["child_cpu"] = rusage.ru_utime + rusage.ru_stime
    return out


def fitted_slope(n, t):
    """Least-squares slope of log t on log n."""
    return float(np.polyfit(np.log(np.asarray(n, float)), np.log(np.asarray(t, float)), 1)[0])


def slope_windows(method, n, t, *, min_seconds=0.05, width=3):
    """The slopes of log t on log n over every window of ``width`` consecutive sizes whose runs
    took at least ``min_seconds`` and that does not straddle the eigensolver switch (n <= 2000
    against n > 2000) for the methods that have one. A list of dicts (sizes, slope, regime)."""
    n, t = np.asarray(n, float), np.asarray(t, float)
    out = []
    for i in range(len(n) - width + 1):
        nn, tt = n[i : i + width], t[i : i + width]
        if np.any(tt < min_seconds):
            continue
        regime = "all"
        if method in EIGEN_SWITCH:
            if np.all(nn <= SWITCH_N):
                regime = "dense eigh"
            elif np.all(nn > SWITCH_N):
                regime = "Lanczos"
            else:
                continue
        out.append({"sizes": [int(nn[0]), int(nn[-1])], "slope": fitted_slope(nn, tt), "regime": regime})
    return out


def main(argv=None):
    from sslteach.datasets import make_g241c, ssl_split
    from sslteach.kernels import squared_distances

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="+", type=int, default=SIZES)
    ap.add_argument("--methods", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    ap.add_argument("--cap", type=float, default=150.0, help="predicted CPU seconds allowed")
    ap.add_argument("--mem-gb", type=float, default=4.0, help="predicted peak GB allowed")
    ap.add_argument("--cpu-limit", type=float, default=300.0, help="CPU seconds of one run")
    ap.add_argument("--timeout", type=float, default=3600.0, help="wall seconds before a run is killed")
    ap.add_argument("--resume", type=Path, help="an earlier output whose runs are taken over")
    ap.add_argument("--budget", type=float, default=1800.0, help="CPU seconds for the whole study")
    ap.add_argument("--out", type=Path, default=ROOT / "scripts" / "results" / "scaling.json")
    args = ap.parse_args(argv)

    runs = {
        m: {"n": [], "cpu_seconds": [], "wall_seconds": [], "peak_mb": [], "components": {}, "stopped": None}
        for m in args.methods
    }
    used = 0.0
    t0 = time.perf_counter()
    before = json.loads(args.resume.read_text())["runs"] if args.resume else {}
    resumed = []
    for i, n in enumerate(args.sizes):
        X, y = make_g241c(n, random_state=0)
        y_train = ssl_split(y, 10, random_state=0)
        sub = np.random.default_rng(0).choice(n, size=min(n, 2000), replace=False)
        D2 = squared_distances(X[sub])
        one_run.median = float(np.median(D2[np.triu_indices_from(D2, 1)]))
        for m in args.methods:
            r = runs[m]
            if r["stopped"]:
                continue
            if used > args.budget:
                r["stopped"] = f"n = {n} not run: the study had used its {args.budget:.0f} CPU seconds"
                continue
            old = before.get(m, {})
            if n in old.get("n", []):
                k = old["n"].index(n)
                out = {"cpu": old["cpu_seconds"][k], "wall": old["wall_seconds"][k],
                       "peak_mb": old["peak_mb"][k],
                       "components": {c: v[k] for c, v in old["components"].items() if v[k] > 0}}
                out["child_cpu"] = out["cpu"]
                resumed.append([m, n])
            else:
                out = forked(m, X, y_train, SETTINGS[m], args.timeout, args.cpu_limit)
            used += out.get("child_cpu", out.get("cpu", 0.0))
            if "error" in out:
                r["stopped"] = f"n = {n}: {out['error']}"
                print(f"{m:22s} n = {n:6d}: {out['error']}", flush=True)
                continue
            r["n"].append(n)
            r["cpu_seconds"].append(out["cpu"])
            r["wall_seconds"].append(out["wall"])
            r["peak_mb"].append(out["peak_mb"])
            for c, s in out["components"].items():
                r["components"].setdefault(c, [0.0] * (len(r["n"]) - 1)).append(s)
            for c in r["components"]:
                if len(r["components"][c]) < len(r["n"]):
                    r["components"][c].append(0.0)
            top = sorted(out["components"].items(), key=lambda kv: -kv[1])[:3]
            print(
                f"{m:22s} n = {n:6d}: {out['cpu']:8.3f} s CPU, {out['peak_mb']:7.0f} MB  "
                + ", ".join(f"{c} {s:.2f}" for c, s in top),
                flush=True,
            )
            if i + 1 < len(args.sizes):
                ratio = args.sizes[i + 1] / n
                mem_next = out["peak_mb"] * ratio**2 / 1024
                t_next = out["cpu"] * ratio ** STATED[m][1]
                nxt = args.sizes[i + 1]
                if mem_next > args.mem_gb:
                    r["stopped"] = (
                        f"memory rule: n = {nxt} not run ({out['peak_mb']:.1f} MB at n = {n}, "
                        f"x {ratio:g}^2 = {1024 * mem_next:.1f} MB > {1024 * args.mem_gb:.0f} MB)"
                    )
                elif t_next > args.cap:
                    r["stopped"] = (
                        f"time rule: n = {nxt} not run ({out['cpu']:.1f} s at n = {n}, x {ratio:g}^"
                        f"{STATED[m][1]} = {t_next:.0f} s > {args.cap:g} s)"
                    )
    result = {
        "data": "sslteach.datasets.make_g241c(n, 241 features, random_state=0), "
        "10 labels (ssl_split, random_state=0)",
        "settings": {m: SETTINGS[m] for m in args.methods},
        "stated": {m: {"cost": STATED[m][0], "exponent": STATED[m][1]} for m in args.methods},
        "runs": runs,
        "windows": {m: slope_windows(m, runs[m]["n"], runs[m]["cpu_seconds"]) for m in args.methods},
        "rules": {
            "cap_cpu_seconds": args.cap,
            "mem_gb": args.mem_gb,
            "cpu_limit_seconds": args.cpu_limit,
            "timeout_wall_seconds": args.timeout,
            "budget_cpu_seconds": args.budget,
        },
        "switch_n": SWITCH_N,
        "eigen_switch": sorted(EIGEN_SWITCH & set(args.methods)),
        "cpu_seconds_used": used,
        "resumed": resumed,
        "resumed_from": str(args.resume) if args.resume else None,
        "wall_seconds": time.perf_counter() - t0,
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
            "cpu_count": os.cpu_count(),
            "max_rss_parent_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        },
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
