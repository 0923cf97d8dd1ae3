"""Browser check of the built book: open every page in headless Chromium and look at it.

Usage: ``python tests/check_site.py [_build/html] [--screenshot notebooks/00_foundations.html]``

For the index and every page listed in ``_toc.yml`` it fails when

* the page is missing (a chapter that did not build);
* maths is shown as raw TeX: a Sphinx ``math`` element that MathJax did not typeset
  (no ``mjx-container`` inside), or ``$...$`` / ``\\(`` / ``\\[`` left in the visible text;
* a notebook cell shows an error output (a traceback);
* an image is broken: its file is missing or empty (``data:`` URIs must decode);
* numbering is not per chapter (``check_numbers``, read from the HTML without a browser):
  a chapter page's figure, table, theorem, exercise or equation number is not "c.n" with c
  its chapter (Foundations 0, a reproduction page or the scorecard continuing its chapter),
  a chapter's numbers do not run 1, 2, ... in reading order, Chapter 3's method page does
  not open with Figure 3.1, or a labelled item's number differs from the reader notebooks'.

The DOM is read after MathJax ran (``--dump-dom`` with a virtual time budget). Without
Chromium the browser checks are skipped (the numbering check still runs) with a message
saying how to install it; with ``--require-browser`` (used by CI) a missing browser is an error.

**The reader's view** (``--reader-view report``, the default, or ``fail``; needs Playwright,
driving the same Chromium): every chapter page is laid out at 1,280 px (``--width``) and
measured as a reader sees it:

* code and output blocks (typeset tables included) wider than the text column
  (``scrollWidth > clientWidth``: the reader has to scroll sideways);
* clipped display equations: the equation and its number do not fit the box, so the box
  cuts it (or makes it scroll) and the number is drawn over it;
* figures shown below 3/4 of their natural size, and figures without a caption;
* whether the setup cell (the notebook's first code cell, ``find_spec("sslteach")``) is on
  show.

``report`` prints the counts per page and in total and never fails; ``fail`` fails a page
with any wide block, clipped equation, small or uncaptioned figure or setup cell on show.
"""

from __future__ import annotations

import argparse
import base64
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=10000",
]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def toc_pages():
    """Every file named in _toc.yml, as the .html path Jupyter Book writes."""
    files = re.findall(r"(?:root|file):\s*(\S+)", (ROOT / "_toc.yml").read_text())
    return [f + ".html" for f in files]


class PageScan(HTMLParser):
    """Collect math elements, visible text, error outputs and images from a DOM."""

    SKIP = {"script", "style", "pre", "code", "mjx-container", "mjx-assistive-mml", "textarea"}

    def __init__(self):
        super().__init__()
        self.stack = []  # (tag, is_math, has_mjx, skip)
        self.math_total = 0
        self.math_untypeset = []
        self.text = []
        self.errors = 0
        self.images = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        is_math = "math" in classes and tag in ("div", "span")
        if is_math:
            self.math_total += 1
        if tag == "mjx-container":
            for i in range(len(self.stack) - 1, -1, -1):
                if self.stack[i][1]:
                    self.stack[i][2] = True
                    break
        if ("output" in classes and "error" in classes) or "traceback" in classes:
            self.errors += 1
        if tag == "img":
            self.images.append(a.get("src", ""))
        skip = tag in self.SKIP or bool(self.stack and self.stack[-1][3])
        if tag in ("img", "br", "hr", "meta", "link", "input"):
            return
        self.stack.append([tag, is_math, False, skip, []])

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for entry in self.stack[i:][::-1]:
                    if entry[1] and not entry[2]:
                        self.math_untypeset.append("".join(entry[4])[:80])
                del self.stack[i:]
                return

    def handle_data(self, data):
        for entry in self.stack:
            if entry[1]:
                entry[4].append(data)
        if not (self.stack and self.stack[-1][3]):
            self.text.append(data)


RAW_TEX = re.compile(r"\$\$|\\\(|\\\[|\$[^$\n]{0,80}\\[A-Za-z]+[^$\n]{0,80}\$")


def check_page(chromium, html_root, rel, profile):
    path = html_root / rel
    if not path.exists():
        return [f"{rel}: missing (the page was not built)"], 0
    dom = subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", path.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    if "</html>" not in dom:
        return [f"{rel}: Chromium returned no DOM"], 0
    scan = PageScan()
    scan.feed(dom)
    problems = []
    if scan.math_untypeset:
        problems.append(
            f"{rel}: {len(scan.math_untypeset)} of {scan.math_total} math elements not typeset "
            f"by MathJax, e.g. {scan.math_untypeset[0]!r}"
        )
    text = " ".join(scan.text)
    raw = RAW_TEX.search(text)
    if raw:
        problems.append(f"{rel}: raw TeX in the visible text: {raw.group(0)[:80]!r}")
    if scan.errors:
        problems.append(f"{rel}: {scan.errors} error output(s) in notebook cells")
    for src in scan.images:
        if src.startswith("data:"):
            try:
                if not base64.b64decode(src.split(",", 1)[1], validate=False):
                    problems.append(f"{rel}: empty inline image")
            except Exception:  # noqa: BLE001
                problems.append(f"{rel}: undecodable inline image")
            continue
        if re.match(r"^[a-z]+://", src):
            problems.append(f"{rel}: image loaded from the network: {src}")
            continue
        target = (path.parent / src.split("#")[0].split("?")[0]).resolve()
        if not target.exists() or target.stat().st_size == 0:
            problems.append(f"{rel}: broken image {src}")
    return problems, scan.math_total


# The numbers Sphinx writes: captions of figures, tables, theorems and exercises, equation numbers.
CAPTION_NUMBER = re.compile(r'<span class="caption-number">([A-Z][a-z]+) ([0-9.]+) </span>')
EQUATION_NO = re.compile(r'<span class="eqno">\(([0-9.]+)\)<a class="headerlink" href="#(equation-[^"]+)"')


def page_numbers(html):
    """``[(kind, number, position)]`` of one page's numbered items, in page order ("eq" for equations)."""
    found = [(m.group(1), m.group(2), m.start()) for m in CAPTION_NUMBER.finditer(html)]
    found += [("eq", m.group(1), m.start()) for m in EQUATION_NO.finditer(html)]
    return sorted(found, key=lambda x: x[2])


def check_numbers(html_root, chapters=None, numbers=None, pages=None, first=None):
    """Per-chapter numbering of the built site (no browser needed): a list of problems.

    ``chapters`` maps docnames to the book's chapter numbers (``sslteach.teach.myst.toc_chapters``:
    Foundations 0, Chapters 1-5, a reproduction page or the scorecard with its chapter),
    ``pages`` are the toc's pages in reading order. It fails when

    * a number on a chapter page is not "c.n" with c the page's chapter ("Figure 17",
      "(12)", "Exercise 2.3" on a Chapter 3 page: numbering is global again, or shifted);
    * a chapter's numbers of one kind do not run 1, 2, ... over its pages in reading order;
    * a page outside the chapters numbers something (the book numbers only chapters' items);
    * a labelled item's number differs from the reader notebooks' (``numbers``, from
      ``sslteach.teach.myst.book_numbers``): the two numberings must agree;
    * ``first`` (``{page: (kind, number)}``) is not the page's first item of that kind, e.g.
      the first figure of Chapter 3's method page must be Figure 3.1 (so the check cannot pass
      on pages where it finds nothing).
    """
    if chapters is None or numbers is None or pages is None:
        sys.path.insert(0, str(ROOT))
        from sslteach.teach import myst

        chapters = myst.toc_chapters(ROOT) if chapters is None else chapters
        numbers = myst.book_numbers(ROOT) if numbers is None else numbers
        pages = myst.toc_docnames(ROOT) if pages is None else pages
    if first is None:
        first = {"notebooks/03_spectral_kernel_learning": ("Figure", "3.1"),
                 "notebooks/00_foundations": ("eq", "0.1")}
    problems, count = [], {}
    for doc in pages:
        path = Path(html_root) / f"{doc}.html"
        if not path.exists():
            continue  # check_page reports missing pages
        html = path.read_text(encoding="utf-8")
        items = page_numbers(html)
        chapter = chapters.get(doc)
        if chapter is None:
            if items:
                problems.append(f"{doc}.html: {len(items)} numbered items outside the chapters, "
                                f"e.g. {items[0][0]} {items[0][1]}")
            continue
        for kind, number, _ in items:
            m = re.fullmatch(r"(\d+)\.(\d+)", number)
            if not m or int(m.group(1)) != chapter:
                problems.append(f"{doc}.html: {kind} {number} on a page of chapter {chapter} "
                                f"(numbers are per chapter: {chapter}.1, {chapter}.2, ...)")
                continue
            expected = count.get((chapter, kind), 0) + 1
            count[(chapter, kind)] = int(m.group(2))
            if int(m.group(2)) != expected:
                problems.append(f"{doc}.html: {kind} {number} where {chapter}.{expected} was due "
                                "(a chapter's numbers run 1, 2, ... over its pages in reading order)")
        if doc in first:
            kind, want = first[doc]
            got = next((n for k, n, _ in items if k == kind), None)
            if got != want:
                problems.append(f"{doc}.html: the first {kind} is {got}, not {want}")
        # the reader notebooks' numbers (sslteach.teach.myst) for this page's labels
        for label, (ldoc, text) in numbers.targets.items():
            m = re.fullmatch(r"([A-Z][a-z]+) ([0-9.]+)", text)
            if ldoc != doc or not m:
                continue
            at = html.find(f'id="{label}"')
            shown = CAPTION_NUMBER.search(html, at) if at >= 0 else None
            if not shown or (shown.group(1), shown.group(2)) != (m.group(1), m.group(2)):
                site = f"{shown.group(1)} {shown.group(2)}" if shown else "nothing"
                problems.append(f"{doc}.html: {label} is {site} on the site, {text} in the reader notebooks")
        site_eqs = {m.group(2): m.group(1) for m in EQUATION_NO.finditer(html)}
        for label, (ldoc, number) in numbers.equations.items():
            anchor = "equation-" + re.sub(r"[^\w-]+", "-", label.lower()).strip("-")
            if ldoc == doc and site_eqs.get(anchor) != str(number):
                problems.append(f"{doc}.html: equation {label} is ({site_eqs.get(anchor)}) on the site, "
                                f"({number}) in the reader notebooks")
    if not count:
        problems.append("no numbered item found on any chapter page")
    return problems


# Run in the page after MathJax: every number the reader view reports comes from here.
MEASURE_JS = r"""
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  await Promise.all([...document.images].map(
    (im) => im.complete ? null : new Promise((r) => { im.onload = im.onerror = r; })));
  const shown = (el) => {
    if (!el || el.getClientRects().length === 0) return false;
    for (let a = el; a; a = a.parentElement) {
      if (a.tagName === "DETAILS" && !a.open && !(a.firstElementChild && a.firstElementChild.contains(el)))
        return false;
      if (getComputedStyle(a).visibility === "hidden") return false;
    }
    return true;
  };
  const article = document.querySelector("article.bd-article") || document.querySelector("main");
  const pad = getComputedStyle(article);
  const column = article.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
  // code input and printed output blocks, and HTML outputs (DataFrames)
  // typeset tables (show_table's MyST output) scroll in the theme's container when too wide
  const blocks = [...article.querySelectorAll(
    ".cell .cell_input pre, .cell .cell_output pre, .cell .cell_output .text_html, " +
    ".cell .cell_output .output_html, .cell .cell_output table:not(.text_html table)")]
    .filter(shown);
  const wide = blocks.filter((b) => {
    const box = b.tagName === "TABLE" ? (b.closest(".pst-scrollable-table-container") || b) : b;
    return box.scrollWidth > box.clientWidth + 1 || b.getBoundingClientRect().width > column + 1;
  });
  // display equations: Sphinx's div.math, content (and number) against the box
  const eqs = [...article.querySelectorAll("div.math")].filter(shown);
  const clipped = [];
  for (const d of eqs) {
    const mjx = d.querySelector("mjx-container");
    if (!mjx) continue;
    const math = mjx.querySelector("mjx-math") || mjx;
    const no = d.querySelector(".eqno");
    const need = math.getBoundingClientRect().width + (no ? no.getBoundingClientRect().width : 0);
    const box = d.getBoundingClientRect().width;
    if (need > box + 1 || d.scrollWidth > d.clientWidth + 1 || mjx.scrollWidth > mjx.clientWidth + 1) {
      // the box cuts the equation (scrolling or not) and the number floats over it
      clipped.push(no ? no.textContent.replace("#", "").trim() : "unnumbered");
    }
  }
  // figures: images in cell outputs and figure directives
  const imgs = [...article.querySelectorAll(".cell_output img, figure img")].filter(shown);
  const small = [], nocap = [];
  for (const im of imgs) {
    if (!im.naturalWidth) continue;
    const ratio = im.getBoundingClientRect().width / im.naturalWidth;
    if (ratio < 0.75) small.push(Math.round(ratio * 100) / 100);
    const fig = im.closest("figure");
    if (!(fig && fig.querySelector("figcaption"))) nocap.push(im.getAttribute("src").slice(-20));
  }
  // the setup cell
  const setup = [...article.querySelectorAll(".cell")].find(
    (c) => (c.querySelector(".cell_input") || c).textContent.includes('find_spec("sslteach")'));
  const setupShown = !!setup && shown(setup.querySelector(".cell_input pre") || setup);
  return {column, blocks: blocks.length, wide: wide.length, eqs: eqs.length, clipped,
          imgs: imgs.length, small, nocap: nocap.length, setup: !!setup, setupShown,
          pageScroll: document.documentElement.scrollWidth > document.documentElement.clientWidth};
}
"""


def reader_view(chromium, html_root, pages, width, strict):
    """Measure ``pages`` in Chromium at ``width`` px (see the module docstring); problems if strict."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("reader view: SKIPPED (needs Playwright: pip install playwright; it drives the system "
              "Chromium)")
        return ["reader view: Playwright missing"] if strict else []
    problems, total = [], {}
    print(f"reader view at {width} px: wide blocks / code+output blocks, display equations wider than "
          "their box (clipped), figures below 3/4 natural size / figures, uncaptioned, setup cell")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": width, "height": 900})
        for rel in pages:
            path = html_root / rel
            if not path.exists():
                continue
            page.goto(path.as_uri(), wait_until="load")
            m = page.evaluate(MEASURE_JS)
            for key in ("blocks", "wide", "eqs", "imgs", "nocap"):
                total[key] = total.get(key, 0) + m[key]
            total["clipped"] = total.get("clipped", 0) + len(m["clipped"])
            total["small"] = total.get("small", 0) + len(m["small"])
            total["setup"] = total.get("setup", 0) + int(m["setupShown"])
            print(f"  {rel}: column {m['column']} px; wide blocks {m['wide']}/{m['blocks']}; "
                  f"clipped equations {len(m['clipped'])}/{m['eqs']}"
                  f"{' ' + ' '.join(m['clipped'][:8]) if m['clipped'] else ''}; "
                  f"small figures {len(m['small'])}/{m['imgs']}"
                  f"{' ' + str(sorted(m['small'])[:6]) if m['small'] else ''}; "
                  f"uncaptioned {m['nocap']}; setup cell {'SHOWN' if m['setupShown'] else 'hidden'}"
                  f"{'; PAGE SCROLLS SIDEWAYS' if m['pageScroll'] else ''}")
            bad = []
            if m["wide"]:
                bad.append(f"{m['wide']} code/output blocks wider than the column")
            if m["clipped"]:
                bad.append(f"{len(m['clipped'])} clipped equations")
            if m["small"]:
                bad.append(f"{len(m['small'])} figures below 3/4 of their size")
            if m["nocap"]:
                bad.append(f"{m['nocap']} figures without caption")
            if m["setupShown"]:
                bad.append("the setup cell is on show")
            if strict and bad:
                problems.append(f"{rel}: reader view: " + ", ".join(bad))
        browser.close()
    print(f"reader view total over {len(pages)} chapter pages: wide blocks {total.get('wide', 0)}/"
          f"{total.get('blocks', 0)}; clipped equations "
          f"{total.get('clipped', 0)}/{total.get('eqs', 0)}; "
          f"small figures {total.get('small', 0)}/{total.get('imgs', 0)}; "
          f"uncaptioned figures {total.get('nocap', 0)}; setup cell on show on {total.get('setup', 0)} pages")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("html", nargs="?", default=str(ROOT / "_build" / "html"))
    parser.add_argument(
        "--screenshot", action="append", default=[], help="page to save as PNG in _build/screenshots"
    )
    parser.add_argument("--require-browser", action="store_true", help="fail (not skip) without Chromium")
    parser.add_argument("--reader-view", choices=("off", "report", "fail"), default="report",
                        help="measure chapter pages as a reader sees them (needs Playwright)")
    parser.add_argument("--width", type=int, default=1280, help="viewport width for --reader-view")
    parser.add_argument("--only", action="append", default=[], help="measure only these pages")
    args = parser.parse_args(argv)
    html_root = Path(args.html).resolve()
    if not (html_root / "index.html").exists():
        print(f"ERROR: {html_root}/index.html not found; build the book first (jupyter-book build .)")
        return 1
    # per-chapter numbering: read from the HTML, no browser needed
    failures = check_numbers(html_root)
    print(f"{'FAIL' if failures else 'ok  '} numbering per chapter (Figure 3.1, (3.4), Exercise 3.2 "
          "and the reader notebooks' numbers)")
    chromium = find_chromium()
    if chromium is None:
        msg = (
            "Chromium not found: browser check of the site skipped. Install it with "
            "`apt-get install chromium` (Debian/Ubuntu, as root) and run "
            "`python tests/check_site.py` again."
        )
        print(("ERROR: " if args.require_browser else "SKIPPED: ") + msg)
        for f in failures:
            print("  -", f)
        return 1 if args.require_browser or failures else 0
    pages = ["index.html", *toc_pages()]
    with tempfile.TemporaryDirectory() as profile:
        for rel in pages:
            problems, n_math = check_page(chromium, html_root, rel, profile)
            failures += problems
            print(f"{'FAIL' if problems else 'ok  '} {rel} ({n_math} math elements)")
        shots = html_root.parent / "screenshots"
        for rel in args.screenshot:
            shots.mkdir(exist_ok=True)
            out = shots / (Path(rel).stem + ".png")
            subprocess.run(
                [
                    chromium,
                    *FLAGS,
                    f"--user-data-dir={profile}",
                    "--window-size=1280,2400",
                    f"--screenshot={out}",
                    (html_root / rel).as_uri(),
                ],
                capture_output=True,
                timeout=120,
            )
            print(f"screenshot: {out}")
    if args.reader_view != "off":
        chapters = [p for p in toc_pages() if p.startswith("notebooks/")]
        chapters = [p for p in chapters if not args.only or p in args.only]
        failures += reader_view(chromium, html_root, chapters, args.width, args.reader_view == "fail")
    for f in failures:
        print("  -", f)
    print(
        f"{len(pages) - len({f.split(':')[0] for f in failures})} passed, "
        f"{len({f.split(':')[0] for f in failures})} failed"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
