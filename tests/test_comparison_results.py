"""The committed results of Chapter 5 (scripts/results/comparison.json and scaling.json).

The chapter renders these files; the checks below recompute what can be recomputed cheaply
from the data (the majority rows, every split's size) and check that every choice recorded
follows the one selection rule (the chosen setting has the most correct held-out labels).
"""

import json
from pathlib import Path

import numpy as np
import pytest

from sslteach.datasets import load_ssl_benchmark
from sslteach.protocols.baselines import BASELINES
from sslteach.protocols.comparison import GRID_SIZE
from sslteach.protocols.comparison import METHODS as CHAPTER_METHODS

# the comparison's methods, then the baselines added for issue 32 (as scripts/reproduce_ch5.py)
METHODS = {**CHAPTER_METHODS, **BASELINES}

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "scripts" / "results"
SETS = ["digit1", "usps", "coil2", "bci", "g241c", "g241n", "text"]

# Cells the full run leaves empty, each with the reason the chapter gives.
NOT_RUN = {
    ("SelfTraining (SVC)", "text/100"): "one model selection (31 self-training runs on 1500 points in 1500 "
    "dimensions) took over an hour; see the cost section",
}


@pytest.fixture(scope="module")
def comparison():
    return json.loads((RESULTS / "comparison.json").read_text())


def test_every_method_set_and_label_count_is_there(comparison):
    assert {(e["method"], e["block"]) for e in comparison["not_run"]} == set(NOT_RUN)
    assert [m["name"] for m in comparison["methods"]] == list(METHODS)
    assert comparison["sets"] == SETS and comparison["labels"] == [10, 100]
    for lab in (10, 100):
        for s in SETS:
            part = comparison["parts"][f"{s}/{lab}"]
            assert part["splits"] == list(range(12)), f"{s}/{lab}: not the 12 official splits"
            for m in METHODS:
                if (m, f"{s}/{lab}") in NOT_RUN:
                    assert m not in part["accuracy"]
                    continue
                acc = part["accuracy"].get(m)
                assert acc is not None and len(acc) == 12, f"{m} has no result on {s}/{lab}"
                assert all(0 <= a <= 100 for a in acc)


def test_recorded_choices_follow_the_rule(comparison):
    for key, part in comparison["parts"].items():
        for m, params in part["params"].items():
            grid = list(METHODS[m].grid)
            assert len(grid) <= GRID_SIZE
            for split, p in enumerate(params):
                counts = part["cv_correct"][m][split]
                assert p in grid, f"{m} on {key}: a setting outside its grid"
                assert len(counts) == len(grid)
                if len(grid) > 1:
                    assert counts[grid.index(p)] == max(counts), (
                        f"{m} on {key}, split {split}: not the best CV count"
                    )
                    assert part["n_tied"][m][split] == counts.count(max(counts))


def test_oracle_accuracies_contain_the_chosen_setting(comparison):
    """setting_accuracy (every setting's test accuracy, rerun with all labels: the oracle's view)
    gives back the stored accuracy of the chosen setting, run by run.

    Not to the last label everywhere: the selection ran with OpenBLAS's Haswell kernels and the
    rerun with the machine's default, and 5 of the 2184 runs moved (TSK on COIL2 with 10
    labels, LabelSpreading on Text with 100). So at least 99% of the runs must agree exactly,
    and every run must have one value per setting.
    """
    runs = agree = 0
    for key, part in comparison["parts"].items():
        assert set(BASELINES) <= set(part["setting_accuracy"]), (
            f"{key}: the baselines' oracle view is missing"
        )
        for m, per_setting in part["setting_accuracy"].items():
            grid = list(METHODS[m].grid)
            assert len(per_setting) == 12
            for split, p in enumerate(part["params"][m]):
                assert len(per_setting[split]) == len(grid)
                runs += 1
                agree += per_setting[split][grid.index(p)] == pytest.approx(
                    part["accuracy"][m][split], abs=1e-9
                )
    assert agree >= 0.99 * runs, f"the rerun gives the stored accuracy in only {agree} of {runs} runs"


@pytest.mark.parametrize("name", SETS)
def test_majority_rows_recomputed_from_the_data(comparison, name):
    for lab in (10, 100):
        part = comparison["parts"][f"{name}/{lab}"]
        for split in range(12):
            b = load_ssl_benchmark(name, split, lab)
            truth = b.y[b.unlabeled]
            guess = np.bincount(b.y[b.labeled]).argmax()
            assert part["accuracy"]["majority (labelled)"][split] == pytest.approx(
                100 * np.mean(truth == guess)
            )
            assert part["unlabelled_majority"][split] == pytest.approx(
                100 * np.bincount(truth).max() / truth.size
            )
            assert part["n"] == b.y.size


def test_scaling_results():
    """scaling.json (scripts/scaling_ch5.py): per-component CPU times that add up to each run,
    every stop explained by a rule whose arithmetic holds on the stored numbers, and slopes
    recomputed over windows that never straddle the eigensolver switch."""
    S = json.loads((RESULTS / "scaling.json").read_text())
    rules = S["rules"]
    sizes = sorted({n for r in S["runs"].values() for n in r["n"]})
    for m, r in S["runs"].items():
        n, cpu = r["n"], r["cpu_seconds"]
        assert len(n) >= 3 and n == sorted(n), f"{m}: fewer than three sizes"
        assert len(cpu) == len(n) == len(r["peak_mb"]) == len(r["wall_seconds"])
        total = np.sum([v for v in r["components"].values()], axis=0)
        assert all(len(v) == len(n) for v in r["components"].values())
        # the components (the rest as "other") add up to the run's CPU time
        assert total == pytest.approx(cpu, rel=1e-6, abs=1e-6), f"{m}: components do not add up"
        assert min(min(v) for v in r["components"].values()) >= 0
        stop = r["stopped"]
        if stop is None:
            assert n[-1] == sizes[-1], f"{m}: stopped before the largest size without a reason"
            continue
        nxt = sizes[sizes.index(n[-1]) + 1] if n[-1] != sizes[-1] else None
        ratio = nxt / n[-1] if nxt else None
        if stop.startswith("memory rule"):
            assert r["peak_mb"][-1] * ratio**2 / 1024 > rules["mem_gb"], f"{m}: {stop}"
        elif stop.startswith("time rule"):
            p = S["stated"][m]["exponent"]
            assert cpu[-1] * ratio**p > rules["cap_cpu_seconds"], f"{m}: {stop}"
            assert r["peak_mb"][-1] * ratio**2 / 1024 <= rules["mem_gb"]
        else:
            assert any(k in stop for k in ("CPU limit", "killed after", "CPU seconds")), stop
    for m, windows in S["windows"].items():
        n = np.array(S["runs"][m]["n"], float)
        t = np.array(S["runs"][m]["cpu_seconds"])
        for w in windows:
            i = int(np.flatnonzero(n == w["sizes"][0])[0])
            nn, tt = n[i : i + 3], t[i : i + 3]
            assert nn[-1] == w["sizes"][1] and np.all(tt >= 0.05)
            assert w["slope"] == pytest.approx(np.polyfit(np.log(nn), np.log(tt), 1)[0])
            if m in S["eigen_switch"]:
                assert np.all(nn <= S["switch_n"]) or np.all(nn > S["switch_n"]), (
                    f"{m}: a window straddles the eigensolver switch"
                )


LINEAR = "linear SVM (labelled only)"


@pytest.mark.parametrize("block", ["bci/10", "bci/100", "text/10"])
def test_linear_svm_row_recomputed(comparison, block):
    """The linear SVM row, added last, rerun from the data: every split's choice (the CV counts
    of all six settings) and accuracy equal the stored ones exactly."""
    from sslteach.protocols.comparison import SetCache, exact_embedding, select_and_transduce

    name, lab = block.split("/")
    part = comparison["parts"][block]
    cache = None
    for split in range(12):
        b = load_ssl_benchmark(name, split, int(lab))
        if cache is None:
            cache = SetCache(exact_embedding(b.X))
        r = select_and_transduce(METHODS[LINEAR], cache, b.y_train)
        acc = 100 * float(np.mean(r.transduction[b.unlabeled] == b.y[b.unlabeled]))
        assert r.cv_correct == part["cv_correct"][LINEAR][split], f"{block}, split {split}"
        assert r.params == part["params"][LINEAR][split]
        assert acc == part["accuracy"][LINEAR][split]
        assert r.one_class == part["one_class"][LINEAR][split]


# The three tables that print Chapter 5's single-set claims, the cell of each, and the list
# (declared in the cell "eba1ff61") whose claims it prints, in order.
CLAIM_TABLES = {
    "tab-ch5-claims": ("eba1ff61", "CLAIMS"),
    "tab-ch5-lapsvm-grid": ("ch5-lapsvm-grid", "GRID_CLAIMS"),
    "tab-ch5-linear-svm": ("ch5-linear-svm", "LIN_CLAIMS"),
}


def _markdown_table(cell, name):
    """The rows (dicts by column header) of the table labelled ``name`` in a cell's outputs."""
    for o in cell["outputs"]:
        md = "".join(o.get("data", {}).get("text/markdown", ""))
        if f":name: {name}\n" in md:
            lines = [x.strip() for x in md.splitlines() if x.startswith("|")]
            header = [h.strip() for h in lines[0].strip("|").split("|")]
            rows = [[v.strip() for v in x.strip("|").split("|")] for x in lines[2:]]
            return [dict(zip(header, row, strict=True)) for row in rows]
    raise AssertionError(f"no table {name} in the outputs of cell {cell.get('id')}")


def _notebook_single_set_claims():
    """Every single-set claim Chapter 5 declares (CLAIMS, GRID_CLAIMS and LIN_CLAIMS in the cell
    "eba1ff61"), evaluated from the notebook's own source, and the stored table printing each list."""
    import ast

    nb = json.loads((ROOT / "notebooks" / "05_comparison.ipynb").read_text())
    cells = {c.get("id"): c for c in nb["cells"]}
    src = "".join(cells["eba1ff61"]["source"])
    assigns = {
        n.targets[0].id: n.value
        for n in ast.parse(src).body
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
    }
    names = {
        "YARD": "SVC (labelled only)",
        "BLOCKS": [f"{s}/{lab}" for lab in (10, 100) for s in SETS],
    }
    for key in ("GRID_ROW", "LIN", "CLAIMS", "GRID_CLAIMS", "LIN_CLAIMS"):
        names[key] = eval(compile(ast.Expression(assigns[key]), key, "eval"), names)  # noqa: S307
    return {
        name: (names[key], _markdown_table(cells[cid], name)) for name, (cid, key) in CLAIM_TABLES.items()
    }


def _exact_signed_rank_p(d):
    """Two-sided p of Wilcoxon's signed-rank statistic by enumerating every sign pattern:
    zero differences dropped, tied |d| given their mean rank (no normal approximation).
    ``d`` holds integers (differences of correct points), so equal differences tie exactly."""
    import itertools

    import scipy.stats

    d = np.asarray(d, dtype=np.int64)
    d = d[d != 0]
    if d.size == 0:
        return 1.0
    ranks = scipy.stats.rankdata(np.abs(d))  # integers and halves: exact
    observed = ranks[d > 0].sum()
    signs = np.array(list(itertools.product([0, 1], repeat=d.size)))
    t = signs @ ranks
    return min(1.0, 2 * min(np.mean(t >= observed), np.mean(t <= observed)))


def _counts(part, method):
    """The correct points behind a block's stored accuracies (%), 100 k / (n - l), as integers."""
    u = part["n"] - part["n_labeled"]
    x = np.asarray(part["accuracy"][method]) * u / 100
    assert np.all(np.abs(x - np.rint(x)) < 1e-9), f"{method}: not whole counts of {u} points"
    return np.rint(x).astype(np.int64)


def _holm_by_hand(p):
    """Holm's step-down: sort, multiply the j-th smallest (from 0) by (m - j), keep the running
    maximum, cap at 1."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - j) * p[i]))
        out[i] = running
    return out


def _printed_as(printed, x):
    """Whether ``printed`` (e-notation, as many mantissa digits as the page chose) is ``x`` rounded."""
    digits = len(printed.split("e")[0].split(".")[1]) if "." in printed else 0
    return printed == f"{x:.{digits}e}"


def test_single_set_claims_holm_once_across_the_chapter(comparison):
    """Chapter 5's single-set claims (14 against SVC, 14 for the gamma_I grid, 18 for the linear
    SVM) are one Holm family of 46: exact sign-flip p-values on the differences of correct
    points and Holm's step-down written out here, over all 46 at once, give the p-values of
    set_level.paired_claims and every raw p, Holm p and verdict printed in the three tables.
    A Holm correction per table prints other values on this data (checked below), so it fails
    here; so does a test on the float accuracies, which loses ties (g241c with 100 labels, the
    linear SVM against SVC: raw p 0.00244 and "not shown" on the floats, 0.00195 and "worse"
    on the counts)."""
    from sslteach.protocols.set_level import paired_claims

    tables = _notebook_single_set_claims()
    sizes = {name: len(claims) for name, (claims, _) in tables.items()}
    assert sizes == {"tab-ch5-claims": 14, "tab-ch5-lapsvm-grid": 14, "tab-ch5-linear-svm": 18}
    family = [c for claims, _ in tables.values() for c in claims]
    assert len(set(family)) == len(family) == 46
    parts = comparison["parts"]
    # differences of correct points: a tie is a tie (the float accuracies' differences can
    # differ in their last bit where the counts are equal)
    diffs = [_counts(parts[b], m) - _counts(parts[b], ref) for b, m, ref in family]
    unlabelled = [parts[b]["n"] - parts[b]["n_labeled"] for b, _, _ in family]
    p = [_exact_signed_rank_p(d) for d in diffs]
    holm = _holm_by_hand(p)
    got = paired_claims(parts, family, seed=0)
    for c, pi, hi, d, u in zip(got, p, holm, diffs, unlabelled, strict=True):
        assert c.p == pytest.approx(pi, rel=1e-12), (c.block, c.method, c.reference)
        assert c.p_holm == pytest.approx(hi, rel=1e-12), (c.block, c.method, c.reference)
        assert c.mean == pytest.approx(100 * d.mean() / u)
    k = 0
    per_table_differs = False
    for name, (claims, rows) in tables.items():
        assert len(rows) == len(claims), name
        alone = _holm_by_hand(p[k : k + len(claims)])  # Holm within this table only
        for (block, _, _), row, pi, hi, ai, d in zip(
            claims, rows, p[k:], holm[k:], alone, diffs[k:], strict=False
        ):
            first = next(iter(row.values()))
            assert first == block or first.startswith(f"{block}, "), (name, first, block)
            assert _printed_as(row["raw p"], pi), (name, first, row["raw p"], pi)
            assert _printed_as(row["Holm p"], hi), (name, first, row["Holm p"], hi)
            verdict = ("better" if d.mean() > 0 else "worse") if hi < 0.05 else "not shown"
            assert row["verdict"] == verdict, (name, first, row["verdict"], hi)
            per_table_differs |= not _printed_as(row["Holm p"], ai)
        k += len(claims)
    assert k == len(family)
    assert per_table_differs, "a Holm correction per table would print the same values: the test cannot tell"
