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
