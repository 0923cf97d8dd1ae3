"""The slide builder and the slide checker must be able to fail: synthetic pages and decks.

The plan tests need neither a browser nor reveal.js. The checker tests build a small deck
from a synthetic page with ``scripts/make_slides.py``, check that it passes, then plant an
overflowing slide, a script from a CDN, raw TeX and a missing figure, and check that
``tests/check_slides.py`` fails on each, naming it. They skip, saying why, without Chromium,
Playwright or reveal.js (``npm ci`` at the repository's root).
"""

import base64
import importlib.util
import io
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


make_slides = _load("make_slides", ROOT / "scripts" / "make_slides.py")
check_slides = _load("check_slides", Path(__file__).with_name("check_slides.py"))
from sslteach.teach.myst import Numbers  # noqa: E402

DOC = "notebooks/toy"


def _png():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.8, 4), dpi=100)
    ax.plot([0, 1, 2], [0, 1, 0], "o-")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def _page(root):
    """A page with one section, one labelled equation, one figure and one code cell."""
    cells = [
        {"cell_type": "markdown", "id": "m1", "metadata": {},
         "source": "# A toy page\n\n## The toy section\n\n$$\nK_c = JKJ\n$$ (eq:toy)\n"},
        {"cell_type": "code", "id": "c1", "metadata": {"mystnb": {"figure": {
            "name": "fig-toy", "caption": "A toy figure."}}}, "execution_count": 1, "source": "plot()",
         "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"image/png": _png()}}]},
        {"cell_type": "code", "id": "c2", "metadata": {}, "execution_count": 2,
         "source": "K_c = K - K.mean(0) - K.mean(1)[:, None] + K.mean()", "outputs": []},
    ]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "notebooks").mkdir(parents=True, exist_ok=True)
    (root / "notebooks" / "toy.ipynb").write_text(json.dumps(nb))
    return make_slides.load_page("toy", root=root)


NUMBERS = Numbers(docname=DOC, equations={"eq:toy": (DOC, "9.1")},
                  targets={"fig-toy": (DOC, "Figure 9.1")}, site="")

PLAN = {"page": "toy", "slides": [
    {"title": "Centering", "section": "The toy section", "equations": ["eq:toy"],
     "bullets": ["$J = I - \\tfrac1n\\mathbf 1\\mathbf 1^\\top$"], "notes": "Say it."},
    {"title": "A figure", "figure": "fig-toy", "notes": "Show it."},
    {"title": "Code", "code": "c2", "notes": "Run it."},
    {"question": "Why $O(n^2)$?", "notes": "Three passes."},
]}


def _build(tmp_path, plan):
    page = _page(tmp_path / "book")
    return make_slides.build_deck(plan, "slides/toy.yml", page, NUMBERS, tmp_path / "out")


def test_a_good_plan_builds_with_the_pages_numbers(tmp_path):
    meta, slides, files, stats, _ = _build(tmp_path, PLAN)
    assert stats["slides"] == 5 and stats["notes"] == 5 and stats["questions"] == 1
    assert "\\tag{9.1}" in slides[0]["equations"][0] and "JKJ" in slides[0]["equations"][0]
    assert slides[1]["figure"]["number"] == "Figure 9.1" and "toy/fig-toy.png" in files
    assert "A toy figure." in slides[1]["notes"]  # the page's caption goes to the notes


def test_the_pages_objectives_and_lecture_plan_open_the_deck(tmp_path):
    page = _page(tmp_path / "book")
    page.markdown.insert(0, "```{admonition} Learning objectives\n:class: tip\nAfter this chapter you can\n"
                            "- derive $JKJ$\n- centre in $O(n^2)$ without\n  forming $J$\n```\n\n"
                            "```{admonition} Lecture plan (90 minutes)\n:class: note dropdown\n"
                            "| minutes | section | |\n|---|---|---|\n| 10 | The toy section | core |\n"
                            "| – | Going further: more | reading |\n```\n")
    _, slides, _, stats, _ = make_slides.build_deck(PLAN, "slides/toy.yml", page, NUMBERS, tmp_path)
    assert [s["title"] for s in slides[:2]] == ["Learning objectives", "Today: 10 minutes"]
    assert len(slides[0]["bullets"]) == 2 and slides[1]["agenda"] == [("10", "The toy section")]
    assert "without forming" in slides[0]["bullets"][1] and "\\(J\\)" in slides[0]["bullets"][1]  # wrapped
    assert stats["slides"] == 7 and stats["notes"] == 7


@pytest.mark.parametrize("change, message", [
    ({"equations": ["eq:gone"]}, "has no labelled equation 'eq:gone'"),
    ({"figure": "fig-gone"}, "has no figure named 'fig-gone'"),
    ({"code": "nope"}, "has no code cell with id 'nope'"),
    ({"section": "A section that was renamed"}, "has no section 'A section that was renamed'"),
    ({"notes": ""}, "no speaker notes"),
    ({"title": "$\\\\mu$"}, "doubled backslash"),
    ({"title": "$\rho$"}, "control character"),
])
def test_a_plan_that_asks_for_what_the_page_lacks_fails_naming_deck_and_label(tmp_path, change, message):
    plan = {"page": "toy", "slides": [{**PLAN["slides"][0], **change}]}
    with pytest.raises(make_slides.PlanError) as err:
        _build(tmp_path, plan)
    assert "slides/toy.yml, slide 1" in str(err.value) and message in str(err.value)


# --------------------------------------------------------------------------- in Chromium


@pytest.fixture(scope="module")
def browser_page():
    if not (make_slides.REVEAL / "dist" / "reveal.js").exists():
        pytest.skip("reveal.js missing: run `npm ci` at the repository's root")
    chromium = check_slides.find_chromium()
    if chromium is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright missing")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])

        def new_page():
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            return context.new_page()

        yield new_page
        browser.close()


@pytest.fixture(scope="module")
def deck_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "slides"
    out.mkdir()
    mathjax = make_slides.copy_assets(out)
    return out, mathjax


def _write_deck(tmp_path, deck_dir, plan, name, edit=None):
    out, mathjax = deck_dir
    meta, slides, files, _, _ = _build(tmp_path, plan)
    html = make_slides.render(meta, slides, mathjax)
    if edit:
        html = edit(html)
    for rel, png in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(png)
    path = out / f"{name}.html"
    path.write_text(html)
    return path


def test_the_clean_deck_passes(tmp_path, browser_page, deck_dir):
    deck = _write_deck(tmp_path, deck_dir, PLAN, "clean")
    problems, summary = check_slides.check_deck(browser_page(), deck)
    assert problems == [] and summary.startswith("5 slides, 1 equations, 1 figures")


def test_an_overflowing_slide_fails(tmp_path, browser_page, deck_dir):
    long = {"title": "Too much", "bullets": [f"point {i}" for i in range(30)], "notes": "x"}
    deck = _write_deck(tmp_path, deck_dir, {**PLAN, "slides": PLAN["slides"] + [long]}, "overflow")
    problems, _ = check_slides.check_deck(browser_page(), deck)
    assert any("slide 6 ('Too much')" in p and "overflows the slide" in p for p in problems), problems


def test_a_script_from_a_cdn_fails(tmp_path, browser_page, deck_dir):
    cdn = '<script src="https://cdn.jsdelivr.net/npm/mermaid@10/dist/mermaid.min.js"></script>'
    deck = _write_deck(tmp_path, deck_dir, PLAN, "cdn", edit=lambda h: h.replace("</head>", cdn + "</head>"))
    problems, _ = check_slides.check_deck(browser_page(), deck)
    assert any("left the machine" in p and "cdn.jsdelivr.net" in p for p in problems), problems


def test_raw_tex_and_a_missing_figure_fail(tmp_path, browser_page, deck_dir):
    def edit(html):
        html = html.replace("toy/fig-toy.png", "toy/missing.png")
        return html.replace("<h2>Code</h2>", "<h2>Code \\alpha_{raw}</h2>")
    deck = _write_deck(tmp_path, deck_dir, PLAN, "broken", edit=edit)
    problems, _ = check_slides.check_deck(browser_page(), deck)
    assert any("figure not shown: missing.png" in p for p in problems), problems
    assert any("raw TeX" in p and "alpha" in p for p in problems), problems


@pytest.mark.parametrize("text", ["$\\gamma$ is the eigenvalue 1", "with $\\gamma = 1$ and $n$",
                                  "$a$, not $b$: this"])
def test_every_dollar_pair_becomes_maths(text):
    """A text that starts with "$" and ends with a digit was left as raw TeX."""
    for html in (make_slides.MD.renderInline(text), make_slides.MD.render("- " + text)):
        assert "$" not in html and html.count('class="math inline"') == text.count("$") // 2, html


def test_a_heading_with_a_less_than_sign_keeps_its_words():
    built = 'The ideal kernel: <span class="math">\\(0&lt;\\rho\\le1\\)</span> why'
    assert make_slides.norm(built) == make_slides.norm("The ideal kernel: $0<\\rho\\le1$ why")
    assert make_slides.norm(built).endswith("why")
