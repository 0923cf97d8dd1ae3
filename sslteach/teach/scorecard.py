"""The book's reproduction scorecard: verdicts for a paper's numbers and the tables that show them.

Every chapter's reproduction page compares the numbers a paper reports with ours. The
comparisons live in ``scripts/results/chN.json`` under ``paper_numbers``, one entry per
(paper number, reading)::

    {"source": "Table 1", "row": "HCK, single", "column": "COIL2, 10",
     "paper": 67.85, "paper_sd": null, "book": 67.86, "book_sd": null,
     "unit": "percent", "reading": "paper's protocol", "verdict": "reproduced"}

A verdict is never typed: :func:`verdict` computes it from the two numbers by the book's
rule, and the tests check that every stored verdict equals it. This module reads those
files (:func:`load_results`), checks entries (:func:`check_entries`) and renders them
(:func:`paper_numbers_table`, :func:`verdict_counts`, :func:`best_verdicts`); each of those
takes a list of ``paper_numbers`` entries and raises :func:`check_entries`' ValueError when
one breaks the format.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from numbers import Real
from pathlib import Path

import pandas as pd

__all__ = [
    "VERDICTS",
    "best_verdicts",
    "UNITS",
    "verdict",
    "check_entries",
    "load_results",
    "paper_numbers_table",
    "verdict_counts",
]

#: The four verdicts, best first.
VERDICTS = ("reproduced", "close", "not reproduced", "not attempted")

#: Units of a paper number and the tolerances (reproduced, close) used when the paper
#: gives no standard deviation: points for percentages, absolute for error rates in
#: [0, 1], and whole counts (exact to reproduce) for counts such as a threshold index.
UNITS = {"percent": (1.0, 3.0), "error rate": (0.01, 0.03), "count": (0.0, 3.0)}

_KEYS = ("source", "row", "column", "paper", "paper_sd", "book", "book_sd", "unit", "reading", "verdict")

# Papers print two decimals and we store full precision: a difference equal to the
# tolerance must not fail by a floating-point hair.
_SLACK = 1e-9


def _number(value, name, *, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number{' or None' if allow_none else ''}, got {value!r}")
    return float(value)


def verdict(paper, book, *, paper_sd=None, unit="percent"):
    """The verdict on one paper number: reproduced, close, not reproduced or not attempted.

    With :math:`d = |\\text{book} - \\text{paper}|`: *reproduced* when :math:`d` is at most
    the paper's standard deviation (when the paper gives one) or else the unit's
    tolerance (1 point for percentages, 0.01 for error rates, exact for counts); *close*
    when :math:`d` is at most twice the paper's sd or else 3 points / 0.03 / 3 counts;
    *not reproduced* beyond; *not attempted* when ``book`` is None. This is the rule of
    the book's style guide, used by every chapter's reproduction page.

    Parameters
    ----------
    paper : float
        The number the paper reports.
    book : float or None
        Our number under one reading of the paper; None when not attempted.
    paper_sd : float or None, default None
        The paper's standard deviation for this number, when it reports one.
    unit : {"percent", "error rate", "count"}, default "percent"
        What the number measures; it sets the tolerances when ``paper_sd`` is None.

    Returns
    -------
    verdict : str
        One of :data:`VERDICTS`.

    Raises
    ------
    ValueError
        If a number is not finite, ``paper_sd`` is negative, or ``unit`` is unknown.

    Examples
    --------
    >>> verdict(67.85, 67.86)
    'reproduced'
    >>> verdict(0.22, 0.232, paper_sd=0.02, unit="error rate")
    'reproduced'
    >>> verdict(79.65, 77.31)
    'close'
    >>> verdict(316, 289, unit="count")
    'not reproduced'
    >>> verdict(71.28, None)
    'not attempted'
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {sorted(UNITS)}, got {unit!r}")
    paper = _number(paper, "paper")
    book = _number(book, "book", allow_none=True)
    paper_sd = _number(paper_sd, "paper_sd", allow_none=True)
    if paper_sd is not None and paper_sd < 0:
        raise ValueError(f"paper_sd must be non-negative, got {paper_sd}")
    if book is None:
        return "not attempted"
    near, far = (paper_sd, 2 * paper_sd) if paper_sd is not None else UNITS[unit]
    d = abs(book - paper)
    if d <= near + _SLACK:
        return "reproduced"
    if d <= far + _SLACK:
        return "close"
    return "not reproduced"


def check_entries(entries):
    """Check a list of ``paper_numbers`` entries; return them as a list of dicts.

    Each entry must have exactly the keys of the book's format (``source``, ``row``,
    ``column``, ``paper``, ``paper_sd``, ``book``, ``book_sd``, ``unit``, ``reading``,
    ``verdict``), a non-empty ``reading``, and the verdict that :func:`verdict` computes
    from its numbers; no (source, row, column, reading) appears twice.

    Parameters
    ----------
    entries : list of dict
        The ``paper_numbers`` list of a results file.

    Returns
    -------
    entries : list of dict
        The same entries.

    Raises
    ------
    ValueError
        Naming the first entry that breaks a rule and what to fix.

    Examples
    --------
    >>> e = {"source": "Table 1", "row": "linear", "column": "USPS, 10", "paper": 72.82,
    ...      "paper_sd": None, "book": 72.82, "book_sd": None, "unit": "percent",
    ...      "reading": "paper's protocol", "verdict": "reproduced"}
    >>> len(check_entries([e]))
    1
    >>> check_entries([{**e, "verdict": "close"}])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: entry 0 (...): verdict 'close' but the numbers give 'reproduced'; compute verdicts ...
    """
    if not isinstance(entries, list) or not entries:
        raise ValueError("paper_numbers must be a non-empty list of entries")
    seen = set()
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            raise ValueError(f"entry {i} is not a dict")
        if set(e) != set(_KEYS):
            missing, extra = set(_KEYS) - set(e), set(e) - set(_KEYS)
            raise ValueError(
                f"entry {i}: keys must be {list(_KEYS)}; missing {sorted(missing)}, extra {sorted(extra)}"
            )
        where = f"entry {i} ({e['source']} / {e['row']} / {e['column']} / {e['reading']})"
        if not isinstance(e["reading"], str) or not e["reading"].strip():
            raise ValueError(f"{where}: name the reading (or, when not attempted, why)")
        if e["verdict"] not in VERDICTS:
            raise ValueError(f"{where}: verdict {e['verdict']!r} is not one of {VERDICTS}")
        try:
            want = verdict(e["paper"], e["book"], paper_sd=e["paper_sd"], unit=e["unit"])
            _number(e["book_sd"], "book_sd", allow_none=True)
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None
        if e["verdict"] != want:
            raise ValueError(
                f"{where}: verdict {e['verdict']!r} but the numbers give {want!r}; "
                "compute verdicts with sslteach.teach.scorecard.verdict"
            )
        key = (e["source"], e["row"], e["column"], e["reading"])
        if key in seen:
            raise ValueError(f"{where}: appears twice; give each reading its own name")
        seen.add(key)
    return entries


def _results_dir():
    """``scripts/results`` of the repository (above the working directory, or holding this
    module), else the copy an installed wheel carries as ``sslteach/results``."""
    here = Path(__file__).resolve().parents[2]
    for folder in (Path.cwd(), *Path.cwd().parents, here):
        candidate = folder / "scripts" / "results"
        if candidate.is_dir():
            return candidate
    packaged = resources.files("sslteach") / "results"
    return packaged if packaged.is_dir() else None


def load_results(name):
    """Read a committed results file, ``scripts/results/<name>.json``.

    The file is looked up in the repository that holds the working directory (a
    notebook runs in ``notebooks/``); an installed ``sslteach`` (Colab, Binder) carries
    a copy of the same files as ``sslteach.results``.

    Parameters
    ----------
    name : str
        The file's stem, e.g. ``"ch2"``.

    Returns
    -------
    results : dict
        The parsed JSON. When it has ``paper_numbers``, they are checked with
        :func:`check_entries`.

    Raises
    ------
    ValueError
        If the name is not a plain file stem, the file cannot be found, or its
        ``paper_numbers`` break the format.

    Examples
    --------
    >>> load_results("../setup")
    Traceback (most recent call last):
    ...
    ValueError: name must be a file stem such as 'ch2', got '../setup'
    """
    if not isinstance(name, str) or not name.replace("_", "").isalnum():
        raise ValueError(f"name must be a file stem such as 'ch2', got {name!r}")
    folder = _results_dir()
    path = None if folder is None else folder / f"{name}.json"
    if path is None or not path.is_file():
        raise ValueError(
            f"results file {name}.json not found: run from a clone of the repository "
            "(scripts/results/) or install sslteach from it"
        )
    results = json.loads(path.read_text())
    if "paper_numbers" in results:
        check_entries(results["paper_numbers"])
    return results


def _fmt(value, sd, unit):
    if value is None:
        return "—"
    digits = 0 if unit == "count" else (3 if unit == "error rate" else 2)
    text = f"{value:.{digits}f}"
    return text if sd is None else f"{text} ± {sd:.{digits}f}"


def paper_numbers_table(entries, *, reading=None):
    """The paper's numbers beside ours, one row per entry, with the verdict.

    Parameters
    ----------
    reading : str or None, default None
        Show only the entries of this reading (a ValueError if none has it).

    Returns
    -------
    table : pandas.DataFrame
        Columns ``source``, ``row``, ``column``, ``reading``, ``paper``, ``this book``,
        ``verdict``; numbers formatted as strings (mean ± sd where given, 2 decimals for
        percentages, 3 for error rates, none for counts).

    Examples
    --------
    >>> e = {"source": "Table 1", "row": "linear", "column": "USPS, 10", "paper": 72.82,
    ...      "paper_sd": None, "book": 72.82, "book_sd": None, "unit": "percent",
    ...      "reading": "paper's protocol", "verdict": "reproduced"}
    >>> paper_numbers_table([e])[["paper", "this book", "verdict"]].iloc[0].tolist()
    ['72.82', '72.82', 'reproduced']
    """
    check_entries(entries)
    if reading is not None:
        entries = [e for e in entries if e["reading"] == reading]
        if not entries:
            raise ValueError(f"no entry has reading {reading!r}")
    rows = [
        {
            "source": e["source"],
            "row": e["row"],
            "column": e["column"],
            "reading": e["reading"],
            "paper": _fmt(e["paper"], e["paper_sd"], e["unit"]),
            "this book": _fmt(e["book"], e["book_sd"], e["unit"]),
            "verdict": e["verdict"],
        }
        for e in entries
    ]
    return pd.DataFrame(rows, columns=["source", "row", "column", "reading", "paper", "this book", "verdict"])


def verdict_counts(entries):
    """How many of the paper's numbers each reading reproduces: a reading × verdict count table.

    Returns
    -------
    counts : pandas.DataFrame
        One row per reading (in order of first appearance), one column per verdict in
        the order of :data:`VERDICTS`, and a ``total`` column.

    Examples
    --------
    >>> base = {"source": "T", "row": "r", "paper": 70.0, "paper_sd": None, "book_sd": None,
    ...         "unit": "percent", "reading": "plain"}
    >>> es = [{**base, "column": "a", "book": 70.5, "verdict": "reproduced"},
    ...       {**base, "column": "b", "book": 75.0, "verdict": "not reproduced"}]
    >>> verdict_counts(es).loc["plain"].tolist()
    [1, 0, 1, 0, 2]
    """
    check_entries(entries)
    readings = list(dict.fromkeys(e["reading"] for e in entries))
    counts = pd.DataFrame(0, index=pd.Index(readings, name="reading"), columns=list(VERDICTS))
    for e in entries:
        counts.loc[e["reading"], e["verdict"]] += 1
    counts["total"] = counts.sum(axis=1)
    return counts


def best_verdicts(entries):
    """Each paper number's best verdict over the readings tried.

    A paper number is identified by its ``(source, row, column)``; the verdicts rank
    reproduced > close > not reproduced > not attempted.

    Returns
    -------
    best : dict
        ``{(source, row, column): verdict}``, in order of first appearance.

    Examples
    --------
    >>> base = {"source": "T", "row": "r", "column": "a", "paper": 70.0, "paper_sd": None,
    ...         "book_sd": None, "unit": "percent"}
    >>> es = [{**base, "book": 75.0, "reading": "one", "verdict": "not reproduced"},
    ...       {**base, "book": 71.5, "reading": "two", "verdict": "close"}]
    >>> best_verdicts(es)
    {('T', 'r', 'a'): 'close'}
    """
    check_entries(entries)
    rank = {"reproduced": 0, "close": 1, "not reproduced": 2, "not attempted": 3}
    best = {}
    for e in entries:
        key = (e["source"], e["row"], e["column"])
        if key not in best or rank[e["verdict"]] < rank[best[key]]:
            best[key] = e["verdict"]
    return best
