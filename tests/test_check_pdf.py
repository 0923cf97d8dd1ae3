"""The PDF checker itself must be able to fail: feed it synthetic text, logs and pixels."""

import importlib.util
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location("check_pdf", Path(__file__).with_name("check_pdf.py"))
check_pdf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_pdf)


def test_raw_markers_are_found_with_their_page():
    pages = ["Typeset text, K = JKJ.", "see Section ?? and $$x$$", "\\begin{split} and {doc}`x`"]
    found = check_pdf.raw_markers(pages)
    assert not [f for f in found if f.startswith("page 1:")]
    assert {f.split(":")[0] + ":" + f.split(":")[1] for f in found} == {
        "page 2: unresolved reference (??)",
        "page 2: raw $$",
        "page 3: raw \\begin{...}",
        "page 3: raw MyST role",
    }


def test_log_problems():
    log = (
        "Missing character: There is no \u29f5 (U+29F5) in font [latinmodern-math.otf]!\n"
        "LaTeX Warning: Reference `x' on page 3 undefined on input line 12.\n"
        "Overfull \\hbox (44.5pt too wide) in paragraph at lines 10--10\n"
        "Overfull \\hbox (12.0pt too wide) detected at line 20\n"
    )
    found = check_pdf.log_problems(log, max_overfull=40)
    assert len(found) == 3 and "44.5pt too wide at line 10" in found[-1]
    assert check_pdf.log_problems("Overfull \\hbox (12.0pt too wide) detected at line 20\n", 40) == []


def test_ink_and_ppm_reader(tmp_path):
    page = np.full((20, 10, 3), 255, np.uint8)
    assert check_pdf.ink(page) == (0.0, 0.0)
    page[:4] = (0, 0, 0)  # a black band: ink, no colour
    page[4:6] = (31, 119, 180)  # a blue band: ink and colour
    assert check_pdf.ink(page) == (0.3, 0.1)
    ppm = tmp_path / "page.ppm"
    ppm.write_bytes(b"P6\n# pdftoppm\n10 20\n255\n" + page.tobytes())
    assert np.array_equal(check_pdf.read_ppm(ppm), page)


def test_titles_of_every_toc_page():
    titles = check_pdf.toc_titles()
    assert titles["notebooks/00_foundations"].startswith("Foundations")
    assert titles["book/api/ksc"] == "sslteach.ksc" and len(titles) >= 10
    assert check_pdf.normalise("FOUNDATIONS:\n  ker\ufb01nels \u2019s") == "foundations: kerfinels 's"


def test_output_placeholders_are_raw_markers():
    found = check_pdf.raw_markers(["Every number", "<IPython.core.display.HTML object>\nmore",
                                   "<Figure size 640x480 with 2 Axes>"])
    assert [f.split(":")[0] for f in found] == ["page 2", "page 3"]
    assert all("output placeholder" in f for f in found)


def test_blank_and_header_only_pages():
    head = "Spectral and kernel methods for semi-supervised learning"
    body = "A page of text, long enough to be a page of the book and not a blank one."
    pages = [
        "Title page",
        f"{head}\n3\nChapter 1: X\n{body}",
        f"{head}\n4\nChapter 1: X",  # header only
        "",  # blank
        "Part II\nChapters\n19",  # a part page
        f"{head}\n7\nChapter 1: X\n{body}",
        f"{head}\n8\nChapter 1: X",  # header only, but a figure
        "iv",
    ]
    assert check_pdf.blank_pages(pages, image_pages={7}) == [3, 4, 8]
    # a long table repeats its rows on many pages: in the body of a page they are text
    rows = "\n".join(f"sigma^2 = 6; centre only; {n} rows   10" for n in (683, 699, 700, 701))
    table = [f"{head}\n{n}\nChapter 1: X\n{rows}\n{head}\n{n}" for n in range(10, 14)]
    assert check_pdf.blank_pages(["Title", *table]) == []
    # the index's last page may hold a single entry: not a blank page
    index = [f"{head}\nS\nsigma() (SetCache method), 364\n{body}\nIndex\n{n}" for n in (396, 397)]
    last = f"{head}\nX\nX (SetCache attribute), 364\nIndex 398"
    assert check_pdf.blank_pages(["Title", *index, last, f"{head}\nX\nIndex 399"]) == [5]
    # the contents' last page may hold only its last entries (as pdftotext reads it)
    contents = f"{head}\nPython Module Index\n\nIndex\n\n389\n390\n\niv"
    others = [f"{head}\n{n}\nChapter 1: X\n{body}" for n in (1, 2)]
    assert check_pdf.blank_pages(["Title", contents, *others, "iv"]) == [5]
    assert check_pdf.blank_pages(["Title", f"{head}\nIndex\nGlossary\n\niv", *others]) == [2]


def test_latex_chapter_numbers_are_found():
    pages = ["Chapter 8. Chapter 5: Which method when?\ntext", "CHAPTER\n\nEIGHT\n\nChapter 5: Which",
             "as in\nChapter 2. The method\nChapter 5: Which method",
             "Chapter 8. Chapter 5: Which method when?"]
    found = check_pdf.latex_chapter_numbers(pages)
    assert [f.split(":")[0] for f in found] == ["page 1", "page 2", "page 4"], found
