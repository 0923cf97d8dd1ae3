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
