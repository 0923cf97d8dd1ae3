"""No chapter shows a number of its paper without a verdict, and the scorecard page shows the files.

A number of the paper is a decimal with two decimals in the paper's own text (its results
are printed that way: 79.65%, 0.48 ± 0.02). Every such number that a chapter's pages show
(markdown, or the text of a stored output) must be the ``paper`` value or the ``paper_sd``
of an entry of the chapter's ``paper_numbers``, which carries a verdict, unless it is one of
the few parameters listed in ALLOWED with the reason it is not a result.
"""

import json
import re
from pathlib import Path

import pytest

from sslteach.teach import scorecard

ROOT = Path(__file__).resolve().parents[1]
# The papers' numbers, extracted once from the papers' text (which is not in the repository)
# and committed; test_reported_numbers_are_the_papers_own re-extracts them where the papers are.
REPORTED = json.loads((ROOT / "tests" / "data" / "paper_two_decimal_numbers.json").read_text())["papers"]
PAPERS = ROOT.parent / "shared" / "papers"
PAPER_FILES = {int(ch): v["file"] for ch, v in REPORTED.items()}
# Two-decimal numbers of a paper that are settings, not results, with the reason.
ALLOWED = {
    2: {"2.85": "LIBSVM's version number"},
    3: {"0.99": "the consistency method's alpha, fixed by the paper"},
    4: {"0.08": "sigma^2 of the toy problem, chosen by the paper", "0.25": "eta_U of the SSF criterion"},
}
_TWO_DECIMALS = re.compile(r"(?<![\w.])\d+\.\d{2}(?![\d])")


def page_text(path):
    """The markdown and the text outputs (plain and HTML) of a notebook."""
    out = []
    for c in json.loads(Path(path).read_text())["cells"]:
        if c["cell_type"] == "markdown":
            out.append("".join(c["source"]))
        for o in c.get("outputs", []):
            data = o.get("data", {})
            out += [
                "".join(o.get("text", "")),
                "".join(data.get("text/plain", "")),
                "".join(data.get("text/html", "")),
            ]
    return "\n".join(out)


def extract_reported(paper_text):
    """The two-decimal numbers of a paper's text, in increasing order."""
    return sorted(set(_TWO_DECIMALS.findall(paper_text)), key=float)


def unverdicted_numbers(page, paper, entries, allowed=()):
    """The paper's two-decimal numbers that ``page`` shows and no entry covers with a verdict.

    ``paper`` is the paper's text, or the list of its numbers (:func:`extract_reported`).
    """
    covered = {
        f"{e[k]:.2f}"
        for e in entries
        if e.get("verdict") in scorecard.VERDICTS
        for k in ("paper", "paper_sd")
        if e.get(k) is not None
    }
    reported = set(_TWO_DECIMALS.findall(paper) if isinstance(paper, str) else paper)
    shown = set(_TWO_DECIMALS.findall(page))
    return sorted((shown & reported) - covered - set(allowed), key=float)


def _entry(paper, verdict="reproduced", sd=None):
    return {
        "source": "T",
        "row": "r",
        "column": "c",
        "paper": paper,
        "paper_sd": sd,
        "book": paper,
        "book_sd": None,
        "unit": "percent",
        "reading": "r",
        "verdict": verdict,
    }


def test_the_check_catches_a_number_without_an_entry():
    paper = "Table 1: 79.65 (0.67), 80.31; LIBSVM 2.85"
    page = "the paper reports 79.65 ± 0.67 and 80.31; we get 77.31"
    assert unverdicted_numbers(page, paper, [_entry(79.65, sd=0.67), _entry(80.31)]) == []
    assert unverdicted_numbers(page, paper, [_entry(79.65, sd=0.67)]) == ["80.31"]
    assert unverdicted_numbers(page, paper, [_entry(79.65), _entry(80.31)]) == ["0.67"]
    bad = _entry(80.31, verdict="looks fine")
    assert unverdicted_numbers(page, paper, [_entry(79.65, sd=0.67), bad]) == ["80.31"]
    assert unverdicted_numbers(page + " 2.85", paper, [_entry(79.65, sd=0.67), _entry(80.31)], {"2.85"}) == []


@pytest.mark.parametrize("chapter", sorted(PAPER_FILES))
def test_every_paper_number_a_chapter_shows_has_a_verdict(chapter):
    paper = REPORTED[str(chapter)]["numbers"]
    entries = scorecard.load_results(f"ch{chapter}")["paper_numbers"]
    scorecard.check_entries(entries)
    pages = sorted((ROOT / "notebooks").glob(f"0{chapter}_*.ipynb"))
    assert len(pages) == 2, pages
    missing = unverdicted_numbers(
        "\n".join(page_text(p) for p in pages), paper, entries, ALLOWED.get(chapter, {})
    )
    assert not missing, (
        f"Chapter {chapter} shows paper numbers with no verdict in ch{chapter}.json: {missing}"
    )


def test_scorecard_page_shows_the_files():
    text = page_text(ROOT / "notebooks" / "05_scorecard.ipynb")
    entries = [e for ch in range(1, 5) for e in scorecard.load_results(f"ch{ch}")["paper_numbers"]]
    totals = {v: sum(e["verdict"] == v for e in entries) for v in scorecard.VERDICTS}
    lines = f"all four papers: {len(entries)} entries;\n" + ", ".join(f"{n} {v}" for v, n in totals.items())
    assert lines in text, "the scorecard's stored totals differ from the results files: re-execute the page"
    for ch in range(1, 5):
        n = len(scorecard.load_results(f"ch{ch}")["paper_numbers"])
        assert f"Chapter {ch}, " in text and f" entries of {n}, every paper number" in text


@pytest.mark.skipif(not PAPERS.is_dir(), reason="the papers' text is not next to this checkout")
@pytest.mark.parametrize("chapter", sorted(PAPER_FILES))
def test_reported_numbers_are_the_papers_own(chapter):
    assert REPORTED[str(chapter)]["numbers"] == extract_reported((PAPERS / PAPER_FILES[chapter]).read_text())
