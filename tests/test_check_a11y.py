"""The accessibility check must be able to fail: plant violations on tiny pages and see it fail."""

import importlib.util
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location("check_a11y", Path(__file__).with_name("check_a11y.py"))
check_a11y = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_a11y)

SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='40' height='20'%3E%3C/svg%3E"
PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>
<body><main><h1>{title}</h1><p>A page for the accessibility check.</p>{body}</main></body></html>"""


def browser_or_skip():
    pytest.importorskip("playwright", reason="needs Playwright (pip install playwright)")
    if check_a11y.find_chromium() is None:
        pytest.skip("needs Chromium (apt-get install chromium)")
    if not check_a11y.AXE.exists():
        pytest.skip("needs axe-core in node_modules: run `npm ci` in the repository")


def test_site_pages_skips_assets_and_the_redirect(tmp_path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "x.html").write_text("<html></html>")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "intro.html").write_text(PAGE.format(title="Intro", body=""))
    (tmp_path / "index.html").write_text('<meta http-equiv="Refresh" content="0; url=book/intro.html" />')
    extra = tmp_path / "deck.html"
    extra.write_text(PAGE.format(title="Deck", body=""))
    pages = check_a11y.site_pages([tmp_path / "book", extra])
    assert [p.name for p in pages] == ["intro.html", "deck.html"]
    assert [p.relative_to(tmp_path).as_posix() for p in check_a11y.site_pages([tmp_path])] == [
        "book/intro.html", "deck.html"]


def test_the_check_fails_on_each_planted_violation_and_passes_a_clean_page(tmp_path):
    browser_or_skip()
    pages = {
        "clean": '<figure><img src="{svg}" alt="An empty box."><figcaption>A box.</figcaption></figure>'
                 '<img src="{svg}" alt=""><table><tr><th>a</th></tr><tr><td>1</td></tr></table>',
        # serious (WCAG 1.4.3): light grey text on white
        "contrast": '<p style="color:#c8c8c8;background:#fff">Faint text nobody can read.</p>',
        # critical (WCAG 4.1.2): a button with no name
        "nameless": '<button type="button"><svg width="10" height="10"></svg></button>',
        "noalt": '<img src="{svg}">',
        "filename": '<img src="{svg}" alt="../_images/0f3a.png">',
        "skipped": "<h3>A third-level heading under the first</h3>",
        "network": '<img src="http://127.0.0.1:9/remote.png" alt="A remote picture.">',
    }
    files = []
    for name, body in pages.items():
        files.append(tmp_path / f"{name}.html")
        files[-1].write_text(PAGE.format(title=name, body=body.format(svg=SVG)))
    problems, results = check_a11y.run([str(f) for f in files], themes=("light", "dark"), quiet=True)
    text = "\n".join(problems)
    print(text)
    assert not [p for p in problems if p.startswith("clean.html")], text
    assert {r["label"] for r in results} == {"no theme switch"}  # no colour switch: checked once
    mine = {name: [p for p in problems if p.startswith(f"{name}.html")] for name in pages}
    assert any("serious color-contrast" in p for p in mine["contrast"]), text
    assert any("critical button-name" in p for p in mine["nameless"]), text
    assert ("noalt.html [no theme switch]: 1 <img> without alt text (none, or the file's name), e.g. "
            + SVG[:40] + " ") in mine["noalt"], text
    assert any("<img> without alt" in p for p in mine["filename"]), text
    assert any("heading level skipped: h1 -> h3" in p for p in mine["skipped"]), text
    assert "request to the network refused: http://127.0.0.1:9/remote.png" in problems, text
    # the command line exits 1 on them and 0 on the clean page
    assert check_a11y.main([str(files[0])]) == 0
    assert check_a11y.main([str(tmp_path / "noalt.html")]) == 1
    assert check_a11y.main([str(tmp_path / "noalt.html"), "--report-only"]) == 0


def test_keyboard_walk_finds_a_focus_nobody_sees(tmp_path):
    browser_or_skip()
    body = ('<p><a href="#a" class="ringless">A link</a> <a href="#b">Another link</a></p>'
            '<p><button type="button" class="ghost">Copy</button></p>'
            # no focus ring on one link; a button that stays transparent when focused
            '<style>a.ringless:focus { outline: none; } .ghost { opacity: 0; }</style>')
    page = tmp_path / "keys.html"
    page.write_text(PAGE.format(title="Keys", body=body))
    problems, results = check_a11y.run([str(page)], themes=("light",), quiet=True)
    assert results[0]["keyboard"]["reached"] == results[0]["keyboard"]["total"] == 3, results
    tag = "keys.html [no theme switch]: 1 focused controls"
    assert problems == [f'{tag} look unfocused, e.g. a.ringless "A link"',
                        f'{tag} not on show, e.g. button.ghost "Copy"'], problems
