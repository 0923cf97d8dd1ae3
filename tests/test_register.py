"""The book speaks to its reader about the methods, never about how the book was made.

Reader-facing text is every notebook's Markdown and printed output and every page of `book/`;
the changelog (`book/changelog.md`) is the one page that says what changed. The phrases below
are those of a book's own history (editions, audits, reviewers, withdrawn claims).
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HISTORY = re.compile(
    r"\b(first|second|this|the previous|an earlier) edition\b|\beditions? of (this|the) book\b|"
    r"\bwithdr[ae]wn?\b|\baudit(ed|s|ors?)?\b|\bred[- ]team|\b(an )?earlier (version|draft) of (this|the)\b|"
    r"\breviewers?\b|\brevised after\b|\bwe (first )?(claimed|wrote|reported) (that|earlier)\b",
    re.I,
)


def reader_texts():
    """``(where, text)`` for every piece of reader-facing text."""
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for i, cell in enumerate(json.loads(path.read_text())["cells"], start=1):
            where = f"{path.name} cell {i}"
            if cell["cell_type"] == "markdown":
                yield where, "".join(cell["source"])
            for out in cell.get("outputs", []):
                yield where, "".join(out.get("text", ""))
                for mime in ("text/plain", "text/markdown"):
                    yield where, "".join(out.get("data", {}).get(mime, ""))
    for path in sorted((ROOT / "book").glob("*.md")):
        if path.name != "changelog.md":
            yield path.name, path.read_text()


def history_phrases(texts):
    return [(where, m.group(0)) for where, text in texts for m in HISTORY.finditer(text)]


def test_no_reader_facing_text_tells_the_history_of_the_book():
    found = history_phrases(reader_texts())
    assert not found, f"move these to book/changelog.md or rewrite them for the reader: {found}"


@pytest.mark.parametrize(
    "text",
    ["The first edition printed 0.61.", "This claim was withdrawn.", "An audit of this chapter asked",
     "as red team 15 found", "an earlier version of this chapter", "a reviewer noted", "revised after a run"],
)
def test_the_scan_finds_a_planted_phrase(text):
    assert history_phrases([("planted", text)]), text


def test_the_scan_leaves_the_methods_words_alone():
    text = "The edit distance, an auditory cue, the editor's choice, a reviewed proof, a first version."
    assert history_phrases([("ok", text)]) == []
