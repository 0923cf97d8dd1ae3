"""The committed results files and the scorecard's verdict rule.

Every ``scripts/results/chN.json`` lists the paper's numbers beside ours
(``paper_numbers``); each stored verdict must be the one the book's rule gives, checked
here against a second, independent statement of the rule.
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from oracles import sign_flip_p

from sslteach.teach import scorecard

ROOT = Path(__file__).resolve().parents[1]
RESULTS = sorted((ROOT / "scripts" / "results").glob("ch[0-9].json"))


def rule(paper, book, paper_sd, unit):
    """The STYLE.md rule, restated in exact arithmetic on the printed decimals."""
    if book is None:
        return "not attempted"
    d = abs(Fraction(str(book)) - Fraction(str(paper)))
    if paper_sd is not None:
        sd = Fraction(str(paper_sd))
        one, two = sd, 2 * sd
    else:
        cent = Fraction(1, 100)
        one, two = {"percent": (1, 3), "error rate": (cent, 3 * cent), "count": (0, 3)}[unit]
    # stored numbers carry full precision; allow the float hair the module allows
    hair = Fraction(1, 10**9)
    if d <= one + hair:
        return "reproduced"
    if d <= two + hair:
        return "close"
    return "not reproduced"


@pytest.mark.parametrize(
    "paper, book, sd, unit, want",
    [
        (67.85, 67.85, None, "percent", "reproduced"),
        (67.85, 68.85, None, "percent", "reproduced"),  # exactly 1 point
        (67.85, 68.86, None, "percent", "close"),
        (67.85, 70.85, None, "percent", "close"),  # exactly 3 points
        (67.85, 70.86, None, "percent", "not reproduced"),
        (85.56, 85.07, 0.67, "percent", "reproduced"),
        (85.56, 84.43, 0.67, "percent", "close"),  # 1.13 <= 2 x 0.67
        (85.56, 84.0, 0.67, "percent", "not reproduced"),  # 1.56 > 1.34 although < 3 points
        (0.22, 0.232, 0.02, "error rate", "reproduced"),
        (0.29, 0.335, 0.06, "error rate", "reproduced"),
        (0.28, 0.332, 0.02, "error rate", "not reproduced"),
        (0.30, 0.325, None, "error rate", "close"),
        (316, 316, None, "count", "reproduced"),
        (378, 377, None, "count", "close"),
        (316, 289, None, "count", "not reproduced"),
        (71.28, None, None, "percent", "not attempted"),
    ],
)
def test_verdict_rule(paper, book, sd, unit, want):
    assert scorecard.verdict(paper, book, paper_sd=sd, unit=unit) == want
    assert rule(paper, book, sd, unit) == want


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"paper": float("nan"), "book": 1.0}, "paper must be a finite number"),
        ({"paper": 1.0, "book": "1.0"}, "book must be a finite number or None"),
        ({"paper": 1.0, "book": 1.0, "paper_sd": -0.1}, "paper_sd must be non-negative"),
        ({"paper": 1.0, "book": 1.0, "unit": "points"}, "unit must be one of"),
    ],
)
def test_verdict_refuses_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        scorecard.verdict(**kwargs)


ENTRY = {"source": "Table 1", "row": "linear", "column": "USPS, 10", "paper": 72.82, "paper_sd": None,
         "book": 72.82, "book_sd": None, "unit": "percent", "reading": "paper's protocol",
         "verdict": "reproduced"}


@pytest.mark.parametrize(
    "entries, match",
    [
        ([], "non-empty list"),
        ([{**ENTRY, "verdict": "close"}], "numbers give 'reproduced'"),
        ([{k: v for k, v in ENTRY.items() if k != "unit"}], r"missing \['unit'\]"),
        ([{**ENTRY, "reading": " "}], "name the reading"),
        ([{**ENTRY, "verdict": "almost"}], "is not one of"),
        ([ENTRY, dict(ENTRY)], "appears twice"),
        ([{**ENTRY, "book": None, "verdict": "not attempted", "book_sd": float("inf")}], "book_sd"),
    ],
)
def test_check_entries_names_the_broken_entry(entries, match):
    with pytest.raises(ValueError, match=match):
        scorecard.check_entries(entries)


def test_tables_count_every_entry():
    es = [ENTRY, {**ENTRY, "column": "USPS, 100", "book": 80.0, "verdict": "not reproduced"},
          {**ENTRY, "reading": "sound protocol", "book": None, "verdict": "not attempted"}]
    counts = scorecard.verdict_counts(es)
    assert counts.loc["paper's protocol"].tolist() == [1, 0, 1, 0, 2]
    assert counts.loc["sound protocol"].tolist() == [0, 0, 0, 1, 1]
    table = scorecard.paper_numbers_table(es, reading="paper's protocol")
    assert table["this book"].tolist() == ["72.82", "80.00"]
    with pytest.raises(ValueError, match="no entry has reading"):
        scorecard.paper_numbers_table(es, reading="other")


def test_results_files_exist():
    assert RESULTS, "no scripts/results/chN.json found"


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: p.name)
def test_every_paper_number_has_the_rules_verdict(path):
    data = json.loads(path.read_text())
    assert "paper_numbers" in data, f"{path.name}: add the paper's numbers with verdicts (paper_numbers)"
    entries = scorecard.check_entries(data["paper_numbers"])
    for e in entries:
        assert e["verdict"] == rule(e["paper"], e["book"], e["paper_sd"], e["unit"]), e
    assert scorecard.load_results(path.stem) == data




def test_chapter2_paired_tests_are_exact_tests_on_counts():
    """ch2.json's paired comparisons (scripts/reproduce_ch2.py): every stored p-value and win
    count is the exact signed-rank test on the differences of correct points (accuracy x (1500 -
    l) / 100, integers), so equal differences tie. Recomputed here by listing the sign patterns."""
    import numpy as np

    R = json.loads((ROOT / "scripts" / "results" / "ch2.json").read_text())
    key = {"Gaussian": "Gaussian [sigma = median]"}
    ties = 0
    for c in R["comparisons"]:
        res = R["paper_protocol"] if c["protocol"] == "paper" else R["sound_protocol"]

        def name(r, c=c):
            if c["protocol"] == "sound":
                return r
            return f"{r} [c = 2]" if r.startswith("RCK") else key.get(r, r)

        u = 1500 - int(c["column"].split(", ")[1])
        k = []
        for r in (c["A"], c["B"]):
            x = np.asarray(res[name(r)][c["column"]]["acc"]) * u / 100
            assert np.all(np.abs(x - np.rint(x)) < 1e-9), (r, c["column"], "not whole counts")
            k.append(np.rint(x).astype(np.int64))
        d = k[0] - k[1]
        nz = np.abs(d[d != 0])
        ties += np.unique(nz).size < nz.size
        where = (c["protocol"], c["A"], c["B"], c["column"])
        assert c["p"] == round(sign_flip_p(d), 6), where  # stored to 6 decimals
        assert (c["wins A"], c["wins B"]) == (int(np.sum(d > 0)), int(np.sum(d < 0))), where
    assert ties > 100, "the comparisons have tied differences: the test can tell ties from none"


def _load_script(name):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _halves_p(d):
    """Two-sided exact p of Wilcoxon's signed-rank statistic by meeting in the middle: the sums
    of the (doubled, so integer) ranks of every sign pattern of each half, paired by sorting,
    count the patterns with T+ at or below, and at or above, the observed one (zeros dropped)."""
    import numpy as np
    import scipy.stats

    d = np.asarray(d, dtype=np.int64)
    d = d[d != 0]
    if d.size == 0:
        return 1.0
    r2 = np.rint(2 * scipy.stats.rankdata(np.abs(d))).astype(np.int64)
    t = int(r2[d > 0].sum())

    def sums(r):
        s = np.zeros(1, dtype=np.int64)
        for ri in r:
            s = np.concatenate([s, s + ri])
        return s

    h = d.size // 2
    a, b = np.sort(sums(r2[:h])), sums(r2[h:])
    le = int(np.searchsorted(a, t - b, side="right").sum())
    ge = int((a.size - np.searchsorted(a, t - b, side="left")).sum())
    return min(1.0, 2 * min(le, ge) / 2**d.size)


def _counts(rates, u):
    """Whole counts behind rates (%) of u points: 100 k / u, to 1e-9."""
    import numpy as np

    x = np.asarray(rates, dtype=float) * u / 100
    assert np.all(np.abs(x - np.rint(x)) < 1e-9), "not whole counts"
    return np.rint(x).astype(np.int64)


def test_halves_p_is_the_sign_flip_enumeration():
    import numpy as np

    rng = np.random.default_rng(0)
    for n in range(1, 12):
        d = rng.integers(-4, 5, size=n)
        assert _halves_p(d) == sign_flip_p(d), d


def test_chapter3_paired_tests_are_exact_tests_on_counts():
    """ch3.json's paired tests (scripts/reproduce_ch3.py): each stored p-value and win count is
    the exact signed-rank test on the differences of counts of points (correct on the n - 20
    unlabelled UCI points, misclassified on WebKB's 841 - l unlabelled or 210 held-out pages),
    recomputed here by enumeration; and the script recomputes the stored tests unchanged."""
    import numpy as np

    R = json.loads((ROOT / "scripts" / "results" / "ch3.json").read_text())
    ch3 = _load_script("reproduce_ch3")
    assert ch3.table3_tests(R["table3 draws"]) == R["paired tests"]
    cases = []  # (where, a, b, u, stored test)
    unlabelled = {"heart": 250, "ionosphere": 331, "sonar": 188, "wine": 158}
    for key, rec in R["table3 draws"].items():
        u = unlabelled[key.split("/")[1]]
        T = R["paired tests"]
        for v1 in ("kept", "dropped"):
            tsk = [d["TSK"] for d in rec[f"TSK draws, v1 {v1}, scipy"]]
            svm = [d["TSK+SVM"] for d in rec[f"TSK draws, v1 {v1}, scipy"]]
            t = T[f"{key}, v1 {v1}"]
            for other in ("harmonic", "consistency", "majority of labels"):
                cases.append((key, tsk, rec[other], u, t[f"TSK - {other}"]))
            cases.append((key, svm, tsk, u, t["TSK+SVM - TSK"]))
        kept, dropped = ([d["TSK"] for d in rec[f"TSK draws, v1 {v1}, scipy"]] for v1 in ("kept", "dropped"))
        cases.append((key, dropped, kept, u, T[f"{key}, v1 dropped - kept"]["TSK"]))
        cases.append(
            (key, rec["harmonic"], rec["consistency"], u, T[f"{key}, baselines"]["harmonic - consistency"])
        )
    for view in ("page", "link"):
        web = R["webkb"][view]
        assert ch3.webkb_tests(web["errors"]) == web["paired tests (other minus TSK error)"]
        for setting, block in web["errors"].items():
            for other in block:
                if other == "TSK":
                    continue
                for a, l in enumerate(R["webkb"]["l"]):
                    u = 841 - l if setting == "transductive" else 210
                    t = web["paired tests (other minus TSK error)"][setting][other][a]
                    cases.append((f"{view} {setting} {other} l={l}", block[other][a], block["TSK"][a], u, t))
        rsk = R["webkb rsk"][view]
        stored = rsk["paired tests (RSK on |1 - lambda| >= 0.1 minus TSK error)"]
        rsk_err = rsk["RSK on |1 - lambda| >= 0.1, inductive error"]
        assert ch3.rsk_tests(rsk_err, web["errors"]["inductive"]["TSK"]) == stored
        for a, l in enumerate(R["webkb"]["l"]):
            cases.append(
                (f"{view} RSK l={l}", rsk_err[a], web["errors"]["inductive"]["TSK"][a], 210, stored[a])
            )
    assert len(cases) == 160
    ties = 0
    for where, a, b, u, t in cases:
        d = _counts(a, u) - _counts(b, u)
        nz = np.abs(d[d != 0])
        ties += np.unique(nz).size < nz.size
        assert t["p"] == _halves_p(d), where
        assert (t["wins"], t["losses"]) == (int(np.sum(d > 0)), int(np.sum(d < 0))), where
    assert ties > 100, "the tests have tied differences: the test can tell ties from none"


def test_chapter3_paired_matches_scipy_without_ties_and_enumeration_with_ties():
    """scripts/reproduce_ch3.py's paired(): rates (%) of u points back to counts, then the exact
    test. Without ties or zeros it is scipy's exact Wilcoxon test on the count differences;
    with ties and zeros, the enumeration of sign patterns; a wrong u is refused."""
    import numpy as np
    import scipy.stats

    ch3 = _load_script("reproduce_ch3")
    rng = np.random.default_rng(1)
    u = 250
    for _ in range(5):
        d = rng.permutation(np.arange(1, 15)) * rng.choice([-1, 1], size=14)
        kb = rng.integers(60, 180, size=14)
        ka = kb + d
        t = ch3.paired(100.0 * (ka / u), 100.0 * (kb / u), u)
        want = scipy.stats.wilcoxon(d, method="exact").pvalue
        assert t["p"] == pytest.approx(want, rel=1e-12, abs=0)
        assert (t["wins"], t["losses"]) == (int(np.sum(d > 0)), int(np.sum(d < 0)))
    d = np.array([3, -3, 3, 0, 1, -1, 2, 2, -5, 0, 3])
    kb = np.arange(100, 100 + d.size)
    a, b = 100.0 * ((kb + d) / u), 100.0 * (kb / u)
    assert ch3.paired(a, b, u)["p"] == sign_flip_p(d)
    # the same differences as floats do not all tie
    assert np.unique(np.abs(np.subtract(a, b)[d != 0])).size > np.unique(np.abs(d[d != 0])).size
    with pytest.raises(ValueError, match="whole number"):
        ch3.paired(a, b, 251)


def test_chapter1_paired_test_is_exact_on_counts():
    """ch1.json's paired test (scripts/reproduce_ch1.py): the exact signed-rank test on the
    counts of correct points among the 546 unlabelled ones, behind percentages stored to 2
    decimals; recomputed by enumeration. Its conversion and test agree with scipy's exact test
    without ties and with the enumeration with ties, and refuse a wrong number of points."""
    import numpy as np
    import scipy.stats

    ch1 = _load_script("reproduce_ch1")
    R = json.loads((ROOT / "scripts" / "results" / "ch1.json").read_text())
    t = R["transduction_20_draws"][ch1.PAIRED_KEY]
    stored = t[ch1.WILCOXON_KEY]
    u = 546
    k = []
    for key in ("unlabelled points", "unsupervised labelling on the same unlabelled points"):
        v = np.asarray(t[key]["values"])
        c = np.rint(v * u / 100)
        assert np.all(np.abs(np.round(100 * c / u, 2) - v) < 1e-9), key
        k.append(c.astype(np.int64))
    d = k[0] - k[1]
    assert stored["p_value"] == _halves_p(d)
    assert (stored["transductive better in"], stored["equal in"]) == (int(np.sum(d > 0)), int(np.sum(d == 0)))
    assert ch1.recompute_test(json.loads(json.dumps(R))) == R

    rng = np.random.default_rng(2)
    for _ in range(5):
        dd = rng.permutation(np.arange(1, 13)) * rng.choice([-1, 1], size=12)
        kb = rng.integers(300, 500, size=12)
        a, b = (np.round(100 * kk / u, 2) for kk in (kb + dd, kb))
        got = ch1.paired_on_counts(a, b, u)["p_value"]
        assert got == pytest.approx(scipy.stats.wilcoxon(dd, method="exact").pvalue, rel=1e-12, abs=0)
    dd = np.array([2, -2, 2, 0, 1, 1, -4, 0])
    kb = np.arange(400, 400 + dd.size)
    a, b = (np.round(100 * kk / u, 2) for kk in (kb + dd, kb))
    assert ch1.paired_on_counts(a, b, u)["p_value"] == sign_flip_p(dd)
    with pytest.raises(ValueError, match="no count"):
        ch1.paired_on_counts(a, b, 547)
