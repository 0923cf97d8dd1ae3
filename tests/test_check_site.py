"""The site checker itself must be able to fail: feed it synthetic pages."""

import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location("check_site", Path(__file__).with_name("check_site.py"))
check_site = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_site)


def scan(html):
    s = check_site.PageScan()
    s.feed(html)
    return s


def test_typeset_math_passes():
    s = scan(
        '<html><body><span class="math notranslate"><mjx-container>x</mjx-container></span></body></html>'
    )
    assert s.math_total == 1 and not s.math_untypeset
    assert not check_site.RAW_TEX.search(" ".join(s.text))


def test_untypeset_math_and_raw_tex_fail():
    s = scan(
        '<html><body><div class="math notranslate">\\[ K = JKJ \\]</div><p>$\\alpha$ raw</p></body></html>'
    )
    assert len(s.math_untypeset) == 1
    assert check_site.RAW_TEX.search(" ".join(s.text))


def test_error_output_and_images_are_seen():
    s = scan('<div class="cell_output"><div class="output error">Traceback</div></div><img src="x.png">')
    assert s.errors == 1 and s.images == ["x.png"]


def test_toc_pages_lists_every_chapter():
    pages = check_site.toc_pages()
    assert "book/intro.html" in pages and "notebooks/00_foundations.html" in pages


SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='400' height='100'%3E%3C/svg%3E"
PAGE = """<html><body><article class="bd-article" style="width:600px;padding:0">
<div class="cell"><div class="cell_input"><pre>{setup}</pre></div></div>
<div class="cell"><div class="cell_output"><pre style="overflow-x:auto">{line}</pre>
<img src="{svg}" style="width:{img}px"></div></div>
<div class="math" style="overflow-x:auto"><span class="eqno" style="float:right">(1)</span>
<mjx-container style="display:block"><mjx-math style="display:inline-block;width:{eq}px">x</mjx-math>
</mjx-container></div></article></body></html>"""


def test_reader_view_counts_wide_blocks_clipped_equations_small_figures_and_the_setup_cell(tmp_path):
    import pytest

    pytest.importorskip("playwright")
    chromium = check_site.find_chromium()
    if chromium is None:
        pytest.skip("no Chromium")
    bad = PAGE.format(setup='find_spec("sslteach")', line="x" * 300, svg=SVG, img=100, eq=900)
    good = PAGE.format(setup="import numpy", line="short", svg=SVG, img=400, eq=100)
    good = good.replace("<img", "<figure><img")
    good = good.replace('px"></div>', 'px"><figcaption>A.</figcaption></figure></div>')
    (tmp_path / "bad.html").write_text(bad)
    (tmp_path / "good.html").write_text(good)
    problems = check_site.reader_view(chromium, tmp_path, ["bad.html", "good.html"], 1280, strict=True)
    assert len(problems) == 1 and problems[0].startswith("bad.html"), problems
    for what in ("1 code/output blocks wider", "1 clipped equations", "1 figures below 3/4",
                 "1 figures without caption", "setup cell is on show"):
        assert what in problems[0], (what, problems[0])
    assert check_site.reader_view(chromium, tmp_path, ["bad.html"], 1280, strict=False) == []


def test_setup_and_check_cells_are_folded_on_the_site(tmp_path, capsys):
    """scripts/fold_cells.py --check: every setup cell and check cell is tagged hide-input."""
    import json
    import shutil

    spec = importlib.util.spec_from_file_location(
        "fold_cells", Path(__file__).parents[1] / "scripts" / "fold_cells.py")
    tag = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tag)
    assert tag.main(["--check"]) == 0, capsys.readouterr().out
    first = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))[0]
    shutil.copy(first, tmp_path / first.name)
    nb = json.loads((tmp_path / first.name).read_text())
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    cell["metadata"]["tags"] = []
    (tmp_path / first.name).write_text(json.dumps(nb))
    assert tag.main(["--check", "--notebooks", str(tmp_path)]) == 1
    assert "not tagged hide-input" in capsys.readouterr().out


def test_reader_view_counts_a_typeset_table_wider_than_the_column(tmp_path):
    """show_table's MyST tables are not DataFrames' .text_html: they are measured too."""
    import pytest

    pytest.importorskip("playwright")
    chromium = check_site.find_chromium()
    if chromium is None:
        pytest.skip("no Chromium")
    page = ('<html><body><article class="bd-article" style="width:688px">'
            '<div class="cell"><div class="cell_output">'
            '<div class="pst-scrollable-table-container" style="overflow-x:auto">'
            '<table style="width:{w}px"><tr><td>x</td></tr></table></div></div></div>'
            '</article></body></html>')
    (tmp_path / "wide.html").write_text(page.format(w=1200))
    (tmp_path / "fits.html").write_text(page.format(w=400))
    problems = check_site.reader_view(chromium, tmp_path, ["wide.html", "fits.html"], 1280, strict=True)
    assert problems == ["wide.html: reader view: 1 code/output blocks wider than the column"], problems


def numbered_page(*items):
    """A built page with these numbered items: ("Figure", "3.1", "fig-a") or ("eq", "3.1", "eq:x")."""
    html = []
    for kind, number, label in items:
        if kind == "eq":
            anchor = "equation-" + label.replace(":", "-")
            html.append(f'<div class="math"><span class="eqno">({number})<a class="headerlink" '
                        f'href="#{anchor}" title="Link to this equation">#</a></span></div>')
        else:
            html.append(f'<figure id="{label}"><figcaption><p><span class="caption-number">{kind} {number} '
                        '</span><span class="caption-text">A.</span></p></figcaption></figure>')
    return "<html><body>" + "\n".join(html) + "</body></html>"


def test_numbering_check_wants_per_chapter_numbers_that_agree_with_the_reader_notebooks(tmp_path):
    """check_numbers: a chapter's numbers are c.1, c.2, ... over its pages; anything else fails."""
    from sslteach.teach.myst import Numbers

    chapters = {"n/zero": 0, "n/three": 3, "n/three_more": 3}
    pages = ["intro", "n/zero", "n/three", "n/three_more"]
    numbers = Numbers(equations={"eq:x": ("n/zero", "0.1")},
                      targets={"fig-a": ("n/three", "Figure 3.1"), "tab-b": ("n/three_more", "Table 3.1")})
    first = {"n/three": ("Figure", "3.1")}

    def site(zero, three, more, intro=()):
        (tmp_path / "n").mkdir(exist_ok=True)
        for doc, items in (("intro", intro), ("n/zero", zero), ("n/three", three), ("n/three_more", more)):
            (tmp_path / f"{doc}.html").write_text(numbered_page(*items))
        return check_site.check_numbers(tmp_path, chapters, numbers, pages, first)

    good = site([("eq", "0.1", "eq:x"), ("eq", "0.2", "eq:y")],
                [("Figure", "3.1", "fig-a"), ("Exercise", "3.1", "ex-1")],
                [("Figure", "3.2", "fig-c"), ("Table", "3.1", "tab-b")])
    assert good == []
    # global numbering again: Chapter 3 opens with Figure 17
    bad = site([("eq", "1", "eq:x")], [("Figure", "17", "fig-a")], [("Figure", "18", "fig-c")])
    assert any("Figure 17 on a page of chapter 3" in p for p in bad), bad
    assert any("the first Figure is 17, not 3.1" in p for p in bad), bad
    assert any("eq:x is (1) on the site, (0.1) in the reader notebooks" in p for p in bad), bad
    # the reproduction page restarts its chapter's count instead of continuing it
    bad = site([("eq", "0.1", "eq:x")], [("Figure", "3.1", "fig-a")],
               [("Figure", "3.1", "fig-c"), ("Table", "3.1", "tab-b")])
    assert bad == ["n/three_more.html: Figure 3.1 where 3.2 was due (a chapter's numbers run 1, 2, ... "
                   "over its pages in reading order)"]
    # a number from the wrong chapter, a reader notebook that disagrees, front matter that numbers
    bad = site([("eq", "0.1", "eq:x")], [("Figure", "3.1", "fig-a"), ("Figure", "2.2", "fig-z")],
               [("Table", "3.2", "tab-b")], intro=[("Figure", "0.1", "fig-i")])
    assert any("Figure 2.2 on a page of chapter 3" in p for p in bad), bad
    assert any("tab-b is Table 3.2 on the site, Table 3.1 in the reader notebooks" in p for p in bad), bad
    assert any(p.startswith("intro.html: 1 numbered items outside the chapters") for p in bad), bad
    # nothing numbered at all cannot pass
    assert "no numbered item found on any chapter page" in site([], [], [])
