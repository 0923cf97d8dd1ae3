"""Lecture slides from the method pages: one reveal.js deck and one PDF handout per plan.

Usage: ``python scripts/make_slides.py [--out _build/html/slides] [--only STEM] [--no-pdf]``

A deck is written from a *plan*, ``slides/<stem>.yml``, and from the page it teaches,
``notebooks/<stem>.ipynb``. The plan holds what a slide adds to the page (its title, a few
bullets, the speaker notes, the questions for the room); everything else is pulled from the
page by a stable name, so the deck never drifts from the book:

* ``figure: fig-ch1-picture``: the stored PNG of the code cell whose
  ``metadata.mystnb.figure.name`` it is, with the book's number ("Figure 1.1") under it and
  the page's caption added to the speaker notes;
* ``equations: [eq:alignment, ...]``: the LaTeX of the labelled display equation in the
  page's Markdown, typeset with the book's number, ``\\tag{1.2}``;
* ``code: <cell id>`` (with ``lines: [first, last]``): the source of a code cell, where the
  code is the point;
* ``section:``: the page's ``##``/``###`` heading the slide belongs to (shown above the
  title, linked to the page's section); ``exercises: [label, ...]``: the book's exercises,
  "Exercise 1.2", linked.

The page's *Learning objectives* and the core rows of its *Lecture plan* become the second
and third slides when the page has them. Plan text is Markdown with ``$...$`` maths and the
book's roles (``{eq}`eq:kp```, ``{numref}`fig-ch1-picture```), converted by
``sslteach.teach.myst`` with the book's numbers. A slide's keys, in the order it shows them:
``section``, ``title``, ``question`` (a question for the room: the slide shows it large, the
notes hold the answer), ``lead`` (one sentence), ``equations``, ``math`` (unnumbered LaTeX),
``exercises`` (labels, or ``label: what it asks``), ``bullets``, ``code``, ``figure`` (beside
the text, above or below it, or alone: ``layout: side|stack|full``, ``height:`` in px,
``crop: [top, bottom]`` a band of it, as fractions of its height), and
``notes`` (required on every slide: what the lecturer says).

The build fails, naming the plan and the name, when the page no longer has a figure,
equation, code cell, section or exercise that a plan asks for. reveal.js comes from
``node_modules`` (``npm ci`` at the repository's root); MathJax is the book's own copy in
``_static/mathjax`` (sphinx-mathjax-offline), copied beside the decks when the site is not
there. No font or script is loaded from the network. Each deck's handout,
``<stem>.pdf``, is reveal.js's ``?print-pdf`` view printed by headless Chromium (Playwright);
``--no-pdf`` skips it. ``python tests/check_slides.py`` then checks the decks as a viewer
sees them.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import html
import json
import re
import shutil
import sys
from pathlib import Path

import yaml
from jinja2 import ChainableUndefined, Environment, FileSystemLoader
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sslteach.teach import myst  # noqa: E402

PLANS = ROOT / "slides"
REVEAL = ROOT / "node_modules" / "reveal.js"
WIDTH, HEIGHT = 1280, 720
# what is copied from node_modules/reveal.js into <out>/lib/reveal (license included)
REVEAL_FILES = {
    "LICENSE": "LICENSE", "dist/reset.css": "reset.css", "dist/reveal.css": "reveal.css",
    "dist/reveal.js": "reveal.js", "dist/theme/white.css": "theme/white.css",
    "dist/theme/fonts/source-sans-pro": "theme/fonts/source-sans-pro",
    "plugin/notes/notes.js": "plugin/notes.js", "plugin/highlight/highlight.js": "plugin/highlight.js",
    "plugin/highlight/monokai.css": "plugin/monokai.css",
}
SLIDE_KEYS = {"title", "section", "lead", "equations", "math", "bullets", "figure", "layout",
              "height", "crop", "code", "lines", "exercises", "question", "notes"}
# the box a figure fills (px on the 1280 x 720 slide), by layout; a plan's height: overrides
# the box's height. Figures are 100-dpi PNGs: scaled up to fill the box, at most 2x.
FIGURE_BOX = {"full": (1240, 555), "stack": (1240, 400), "side": (720, 555)}
MAX_UPSCALE = 2.0


class PlanError(ValueError):
    """A plan asks for something its page does not have (or is malformed)."""


# --------------------------------------------------------------------------- the page


@dataclasses.dataclass
class Page:
    stem: str
    docname: str
    markdown: list  # the Markdown cells' sources, in order
    figures: dict  # figure name -> (png bytes, caption, alt)
    code: dict  # cell id -> (source, text output)
    headings: list  # (level, text) of ## and ### headings, in order
    equations: dict  # label -> LaTeX body


def _src(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def display_equations(text):
    """``{label: body}`` of the labelled ``$$ ... $$ (label)`` equations of one Markdown text.

    ``$$`` are paired in order (an unlabelled display equation in a proof is skipped); the
    label is the ``(name)`` right after the closing ``$$``.
    """
    out = {}
    marks = [m.start() for m in re.finditer(r"\$\$", text)]
    for start, end in zip(marks[::2], marks[1::2]):
        tail = text[end + 2:].split("\n", 1)[0]
        label = re.fullmatch(r"\s*\((?P<label>[^()\s]+)\)\s*", tail)
        if label:
            out[label.group("label")] = text[start + 2:end].strip("\n")
    return out


def load_page(stem, root=ROOT):
    path = root / "notebooks" / f"{stem}.ipynb"
    if not path.exists():
        raise PlanError(f"slides/{stem}.yml: there is no page notebooks/{stem}.ipynb")
    nb = json.loads(path.read_text())
    page = Page(stem, f"notebooks/{stem}", [], {}, {}, [], {})
    for cell in nb["cells"]:
        src = _src(cell)
        if cell.get("cell_type") == "markdown":
            page.markdown.append(src)
            page.equations.update(display_equations(src))
            fence = None
            for line in src.split("\n"):
                f = re.match(r"^\s*(`{3,}|~{3,}|:{3,})", line)
                if f:  # no headings inside fenced blocks (exercise statements, examples)
                    fence = None if fence and f.group(1) == fence else (fence or f.group(1))
                    continue
                h = re.match(r"^(#{2,3})\s+(.+?)\s*$", line)
                if h and not fence:
                    page.headings.append((len(h.group(1)), h.group(2)))
            continue
        if cell.get("cell_type") != "code":
            continue
        text = "".join("".join(o.get("text", "")) for o in cell.get("outputs", [])
                       if o.get("output_type") == "stream")
        page.code[cell.get("id")] = (src, text)
        meta = cell.get("metadata", {}).get("mystnb") or {}
        fig = meta.get("figure")
        if isinstance(fig, dict) and fig.get("name"):
            png = next((o["data"]["image/png"] for o in cell.get("outputs", [])
                        if "image/png" in o.get("data", {})), None)
            alt = (meta.get("image") or {}).get("alt", "")
            page.figures[fig["name"]] = (
                base64.b64decode("".join(png) if isinstance(png, list) else png) if png else None,
                fig.get("caption", ""), alt)
    return page


def admonition(page, title):
    """The body lines of the page's ```` ```{admonition} <title> ```` block, or None."""
    for text in page.markdown:
        head = r"^(?P<f>`{3,}|:{3,})\{admonition\}\s*" + re.escape(title)
        m = re.search(head + r"[^\n]*\n(?P<body>.*?)^(?P=f)\s*$", text, re.M | re.S)
        if m:
            return [x for x in m.group("body").split("\n") if not re.match(r"^\s*:\w+:", x)]
    return None


def norm(heading):
    """A heading reduced for matching: no 'Going further:', no markup, letters and digits."""
    h = html.unescape(re.sub(r"<[^>]+>", "", heading))  # tags first: "&lt;" in maths is text
    h = re.sub(r"^\s*going further\s*:\s*", "", h, flags=re.I)
    return re.sub(r"[^a-z0-9]", "", h.lower().replace("\\", " "))


def section_anchors(html_root, docname):
    """``{norm(heading): id}`` of the built page's sections, or {} when the site is not built."""
    path = Path(html_root) / f"{docname}.html" if html_root else None
    if not path or not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(r'<section id="([^"]+)">\s*<h[23]>(.*?)<a class="headerlink"', text, re.S):
        out.setdefault(norm(m.group(2)), m.group(1))
    return out


# --------------------------------------------------------------------------- Markdown


def _math(content, opts):
    if opts.get("display_mode"):
        return "\\[" + html.escape(content) + "\\]"
    return "\\(" + html.escape(content) + "\\)"


# allow_digits as the book's parser (myst dmath_allow_digits); False also misreads a text that starts
# with "$" and ends with a digit (the plugin reads the character before position 0 as the last)
MD = MarkdownIt("commonmark").use(dollarmath_plugin, renderer=_math, allow_digits=True)


class Renderer:
    """Plan text to HTML: the book's roles first (sslteach.teach.myst), then Markdown + maths."""

    def __init__(self, numbers, stem):
        # links from <site>/slides/<stem>.html: to the book's pages, relative to the site
        self.numbers = dataclasses.replace(numbers, site="../", docname=f"slides/{stem}")
        self.conv = myst._Converter(self.numbers)

    def inline(self, text):
        out = MD.renderInline(self.conv.inline(str(text).strip()))
        return out

    def block(self, text):
        return MD.render(self.conv.inline(str(text).strip()))


# --------------------------------------------------------------------------- a deck


def _where(plan_name, i, slide):
    return f"{plan_name}, slide {i} ('{slide.get('title') or slide.get('question', '')[:40]}')"


def build_deck(plan, plan_name, page, numbers, out, html_root=None):
    """Render one deck: returns (html, {figure file: png bytes}, stats). Raises PlanError."""
    r = Renderer(numbers, page.stem)
    anchors = section_anchors(html_root, page.docname)
    headings = {norm(t): t for _, t in page.headings}
    order = [norm(t) for _, t in page.headings]
    slides, files, last_section = [], {}, -1
    stats = {"slides": 0, "notes": 0, "equations": 0, "figures": 0, "code": 0, "questions": 0}
    notes_log = []

    def figure(name, where, crop=None):
        if name not in page.figures:
            raise PlanError(f"{where}: the page {page.docname} has no figure named {name!r} "
                            f"(its figures: {', '.join(page.figures) or 'none'})")
        png, caption, alt = page.figures[name]
        if png is None:
            raise PlanError(f"{where}: figure {name!r} has no stored PNG: execute the page")
        number = numbers.targets.get(name, ("", "Figure"))[1]
        if crop:  # a band of the figure, [top, bottom] as fractions of its height
            import io

            from PIL import Image

            top, bottom = crop
            if not 0 <= top < bottom <= 1:
                raise PlanError(f"{where}: crop is [top, bottom], fractions with 0 <= top < bottom <= 1")
            im = Image.open(io.BytesIO(png))
            buf = io.BytesIO()
            im.crop((0, round(top * im.height), im.width, round(bottom * im.height))).save(buf, "PNG")
            png, name = buf.getvalue(), f"{name}-{round(100 * top)}-{round(100 * bottom)}"
        files[f"{page.stem}/{name}.png"] = png
        w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        stats["figures"] += 1
        return {"src": f"{page.stem}/{name}.png", "alt": alt or caption, "number": number,
                "caption": r.inline(caption), "aspect": w / h, "size": (w, h)}

    for i, s in enumerate(plan.get("slides") or [], start=1):
        where = _where(plan_name, i, s)
        if not isinstance(s, dict):
            raise PlanError(f"{plan_name}, slide {i}: a slide is a mapping (title:, notes:, ...)")
        unknown = set(s) - SLIDE_KEYS
        if unknown:
            raise PlanError(f"{where}: unknown key(s) {sorted(unknown)}; a slide has {sorted(SLIDE_KEYS)}")
        if not s.get("notes"):
            raise PlanError(f"{where}: no speaker notes (notes:); every slide says what the lecturer says")
        for key in ("title", "lead", "question", "bullets"):
            for text in s.get(key) if isinstance(s.get(key), list) else [s.get(key) or ""]:
                ctrl = re.search(r"[\x00-\x08\x0b-\x1f]|\$[^$]*[\t\n][^$]*\$", str(text))
                if ctrl:  # "$\rho$" in double quotes: YAML read \r as a carriage return
                    raise PlanError(f"{where}: {key} has a control character (a YAML escape such as \\r, "
                                    "\\t, \\b, \\a in double quotes): write \"$\\\\rho$\" there")
                bad = re.search(r"\$[^$]*\\\\[A-Za-z][^$]*\$", str(text))
                if bad:
                    raise PlanError(f"{where}: {key} has a doubled backslash in '{bad.group(0)}': in YAML, "
                                    "write \\\\ only inside double quotes (\"$\\\\mu$\"), else $\\mu$")
        slide = {"title": r.inline(s.get("title", "")),
                 "kind": "question" if s.get("question") else "content"}
        if s.get("section"):
            key = norm(s["section"])
            if key not in headings:
                raise PlanError(f"{where}: the page {page.docname} has no section {s['section']!r}; "
                                f"its sections: {'; '.join(t for _, t in page.headings)}")
            pos = order.index(key)
            if pos < last_section:
                notes_log.append(f"note: {where}: section {s['section']!r} comes before the "
                                 "previous slide's on the page")
            last_section = pos
            if norm(headings[key]) != norm(s.get("title", "")):  # no kicker that repeats the title
                slide["section"] = r.inline(headings[key])
            if anchors and key not in anchors:
                raise PlanError(f"{where}: the built page {page.docname}.html has no section "
                                f"{s['section']!r} to link to")
            slide["section_href"] = (f"../{page.docname}.html#{anchors[key]}" if key in anchors
                                     else f"../{page.docname}.html")
        if s.get("lead"):
            slide["lead"] = r.inline(s["lead"])
        eqs = []
        for label in s.get("equations") or []:
            if label not in page.equations:
                raise PlanError(f"{where}: the page {page.docname} has no labelled equation {label!r} "
                                f"(its labels: {', '.join(page.equations) or 'none'})")
            number = numbers.equations.get(label, (None, None))[1]
            tag = f"\\tag{{{number}}}" if number else ""
            eqs.append(html.escape(f"\\[{page.equations[label]}{tag}\\]"))
            stats["equations"] += 1
        for latex in s.get("math") or []:
            eqs.append(html.escape(f"\\[{latex}\\]"))
        slide["equations"] = eqs
        slide["bullets"] = [r.inline(b) for b in s.get("bullets") or []]
        notes = [r.block(s["notes"])]
        if s.get("figure"):
            fig = figure(s["figure"], where, s.get("crop"))
            text = slide["bullets"] or eqs or s.get("lead") or s.get("code")
            layout = s.get("layout") or ("full" if not text else "stack" if fig["aspect"] > 1.6 else "side")
            if layout not in ("side", "stack", "full"):
                raise PlanError(f"{where}: layout is side, stack or full, not {layout!r}")
            bw, bh = FIGURE_BOX[layout]
            w, h = fig["size"]
            scale = min(bw / w, int(s.get("height") or bh) / h, MAX_UPSCALE)
            fig["style"] = f"width:{round(w * scale)}px;height:{round(h * scale)}px"
            slide["figure"], slide["layout"] = fig, layout
            notes.append(f"<p><em>{fig['number']}.</em> {fig['caption']}</p>")
        if s.get("code"):
            cid = str(s["code"])
            if cid not in page.code:
                raise PlanError(f"{where}: the page {page.docname} has no code cell with id {cid!r}")
            src = page.code[cid][0].rstrip("\n").split("\n")
            if s.get("lines"):
                a, b = s["lines"]
                src = src[a - 1:b]
            slide["code"] = html.escape("\n".join(src))
            stats["code"] += 1
        exercises = []
        for item in s.get("exercises") or []:
            label, what = next(iter(item.items())) if isinstance(item, dict) else (item, "")
            if label not in numbers.targets or numbers.targets[label][0] != page.docname:
                raise PlanError(f"{where}: the page {page.docname} has no exercise {label!r}")
            exercises.append({"number": numbers.targets[label][1], "label": label, "what": r.inline(what),
                              "href": f"../{page.docname}.html#{label}"})
        slide["exercises"] = exercises
        if s.get("question"):
            slide["question"] = r.inline(s["question"])
            stats["questions"] += 1
        slide["notes"] = "\n".join(notes)
        stats["notes"] += 1
        slides.append(slide)

    # the page's objectives and lecture plan, when it has them (taken from the page, not the plan)
    front = []
    goals = admonition(page, "Learning objectives") if plan.get("objectives", True) else None
    if goals:
        items = []  # one item per "- ", with its wrapped (indented) lines joined to it
        for x in goals:
            if re.match(r"^\s*[-*] ", x):
                items.append(x.lstrip()[2:].strip())
            elif items and x.strip() and x[:1].isspace():
                items[-1] += " " + x.strip()
        items = [r.inline(x) for x in items]
        lead = next((r.inline(x) for x in goals if x.strip() and not re.match(r"^\s*[-*] ", x)), "")
        front.append({"title": "Learning objectives", "kind": "objectives", "lead": lead, "bullets": items,
                      "equations": [], "exercises": [],
                      "notes": "<p>What the students can do after this lecture; come back to "
                               "this list at the end.</p>"})
    agenda = admonition(page, "Lecture plan") if plan.get("agenda", True) else None
    if agenda:
        rows = [[c.strip() for c in x.strip().strip("|").split("|")] for x in agenda
                if x.strip().startswith("|") and not re.match(r"^\s*\|[-\s|:]+\|\s*$", x)]
        core = [row for row in rows[1:] if len(row) >= 3 and row[2].lower() == "core"]
        if core:
            total = sum(int(m) for m, *_ in core if m.isdigit())
            front.append({"title": f"Today: {total} minutes", "kind": "agenda", "equations": [],
                          "exercises": [], "bullets": [],
                          "agenda": [(m, r.inline(sec)) for m, sec, *_ in core],
                          "notes": "<p>The core of the lecture plan on the chapter's page; the "
                                   "other sections are for reading or the lab.</p>"})
    page_title = next((m.group(1) for t in page.markdown
                       for m in [re.search(r"^#\s+(.+)$", t, re.M)] if m), page.stem)
    meta = {
        "title": r.inline(plan.get("title") or page_title),
        "subtitle": r.inline(plan.get("subtitle", "")),
        "page_href": f"../{page.docname}.html",
        "stem": page.stem,
        "notes": r.block(plan.get("notes", "")),
    }
    stats["slides"] = 1 + len(front) + len(slides)
    stats["notes"] += 1 + len(front)
    return meta, front + slides, files, stats, notes_log


def render(meta, slides, mathjax, template_dir=PLANS):
    env = Environment(loader=FileSystemLoader(str(template_dir)), autoescape=False,
                      undefined=ChainableUndefined, keep_trailing_newline=True)
    return env.get_template("deck.html.j2").render(meta=meta, slides=slides, mathjax=mathjax,
                                                   width=WIDTH, height=HEIGHT)


# --------------------------------------------------------------------------- assets and PDF


def copy_assets(out, reveal=REVEAL, plans=PLANS):
    """reveal.js (from node_modules), the deck's CSS and MathJax; returns MathJax's URL."""
    if not (reveal / "dist" / "reveal.js").exists():
        raise SystemExit(f"ERROR: {reveal}/dist/reveal.js not found: run `npm ci` at the "
                         "repository's root (package.json pins reveal.js)")
    lib = out / "lib" / "reveal"
    for rel, to in REVEAL_FILES.items():
        src, dst = reveal / rel, lib / to
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            shutil.copy2(src, dst)
    shutil.copy2(plans / "deck.css", out / "deck.css")
    site_mathjax = out.parent / "_static" / "mathjax" / "tex-svg.js"
    if site_mathjax.exists():
        return "../_static/mathjax/tex-svg.js"
    import importlib.util

    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("ERROR: no MathJax: build the site first (jupyter-book build .) or "
                         "pip install -r requirements.txt (sphinx-mathjax-offline ships MathJax)")
    src = Path(list(spec.submodule_search_locations)[0]) / "static" / "mathjax"
    shutil.copytree(src, out / "lib" / "mathjax", dirs_exist_ok=True)
    return "lib/mathjax/tex-svg.js"


def print_pdfs(decks, chromium=None):
    """Each deck's ``?print-pdf`` view through headless Chromium into ``<deck>.pdf``."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests"))
    from check_site import find_chromium

    chromium = chromium or find_chromium()
    if chromium is None:
        raise SystemExit("ERROR: Chromium not found (apt-get install chromium); --no-pdf skips the handouts")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                   else route.abort())
        for deck in decks:
            page.goto(deck.as_uri() + "?print-pdf", wait_until="load")
            page.wait_for_function("window.Reveal && Reveal.isReady() && window.deckMathDone === true",
                                   timeout=60_000)
            page.pdf(path=str(deck.with_suffix(".pdf")), width=f"{WIDTH}px", height=f"{HEIGHT}px",
                     print_background=True, prefer_css_page_size=True)
            print(f"handout: {deck.with_suffix('.pdf')}")
        browser.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "html" / "slides")
    parser.add_argument("--only", action="append", default=[], help="only this plan's stem")
    parser.add_argument("--no-pdf", action="store_true", help="skip the PDF handouts")
    args = parser.parse_args(argv)
    plans = sorted(PLANS.glob("*.yml"))
    if args.only:
        plans = [p for p in plans if p.stem in args.only]
    if not plans:
        raise SystemExit(f"ERROR: no plan slides/<stem>.yml{' for ' + str(args.only) if args.only else ''}")
    numbers = myst.book_numbers(ROOT)
    args.out.mkdir(parents=True, exist_ok=True)
    mathjax = copy_assets(args.out)
    errors, decks = [], []
    for plan_path in plans:
        name = f"slides/{plan_path.name}"
        try:
            plan = yaml.safe_load(plan_path.read_text())
            if not isinstance(plan, dict) or not plan.get("page"):
                raise PlanError(f"{name}: a plan is a mapping with page: <notebook stem> and slides:")
            page = load_page(plan["page"])
            meta, slides, files, stats, log = build_deck(plan, name, page, numbers, args.out,
                                                         html_root=args.out.parent)
        except (PlanError, ValueError, yaml.YAMLError) as err:
            errors.append(f"{name}: {err}" if not str(err).startswith(name) else str(err))
            continue
        for line in log:
            print(line)
        for rel, png in files.items():
            (args.out / rel).parent.mkdir(parents=True, exist_ok=True)
            (args.out / rel).write_bytes(png)
        deck = args.out / f"{plan['page']}.html"
        deck.write_text(render(meta, slides, mathjax), encoding="utf-8")
        decks.append(deck)
        print(f"deck: {deck.relative_to(args.out.parent)}: {stats['slides']} slides, "
              f"{stats['notes']} with notes, "
              f"{stats['equations']} equations, {stats['figures']} figures, {stats['code']} code, "
              f"{stats['questions']} questions for the room")
    if errors:
        for e in errors:
            print("ERROR:", e)
        return 1
    if not args.no_pdf:
        print_pdfs(decks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
