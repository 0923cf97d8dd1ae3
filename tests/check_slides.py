"""Check the lecture decks as a viewer sees them: every slide, in Chromium, offline.

Usage: ``python tests/check_slides.py [_build/html/slides] [--screenshots DIR] [--require-browser]``

Every ``*.html`` deck in the folder (``scripts/make_slides.py`` writes them) is opened in
headless Chromium at 1280 x 720 (Playwright, driving the system Chromium as
``tests/check_site.py`` does) with the network cut: every request that is not a local file
is aborted and reported. A deck fails when

* a request leaves the machine (a font, a script, a stylesheet from a CDN), a local file is
  missing, or the page raises a JavaScript error;
* reveal.js is not ready, or MathJax does not finish;
* on any slide: content reaches outside the slide (overflow: below its bottom or past its
  right edge, so the projector cuts it), a block is clipped (it scrolls inside itself), an
  equation is not typeset (raw TeX in the visible text, a MathJax error), a figure is not
  shown (not complete, ``naturalWidth`` 0) or is too small to read from the back of the room
  (under 40 % of the slide's height and under 60 % of its width), text is smaller than
  18 px, or the slide holds more than 90 words (a wall of text; 135 on the page's learning
  objectives);
* a slide has no speaker notes.

``--screenshots DIR`` saves every slide as ``DIR/<deck>-NN.png`` (1280 x 720). Without
Chromium or Playwright the check is skipped with the reason (``--require-browser``, used by
CI: an error).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1280, 720
MAX_WORDS = 90
MIN_FONT_PX = 18

_spec = importlib.util.spec_from_file_location("check_site", Path(__file__).with_name("check_site.py"))
_check_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_check_site)
find_chromium = _check_site.find_chromium

# Run on the current slide (after Reveal.slide(i)): what a viewer would see wrong on it.
MEASURE_JS = r"""
([maxWords, minFont, W, H]) => {
  const slide = Reveal.getCurrentSlide();
  const box = document.querySelector(".reveal .slides").getBoundingClientRect();
  const scale = box.width / W;
  const problems = [];
  const visible = (el) => {
    if (el.closest("aside.notes")) return false;
    const cs = getComputedStyle(el);
    return cs.display !== "none" && cs.visibility !== "hidden" && el.getClientRects().length > 0;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === "string"
    ? "." + el.className.trim().split(/\s+/)[0] : "");
  // 1. overflow: every element inside the slide's box (1 px slack)
  let worst = null;
  for (const el of slide.querySelectorAll("*")) {
    if (!visible(el) || el.closest("mjx-assistive-mml")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const over = Math.max(r.bottom - box.bottom, r.right - box.right, box.left - r.left, box.top - r.top);
    if (over > 1 && (!worst || over > worst[1])) worst = [el, over];
  }
  if (worst)
    problems.push(`content overflows the slide by ${Math.round(worst[1] / scale)} px (${name(worst[0])})`);
  // 2. clipped blocks: content wider or taller than its own box
  const blocks = "pre, code, .eq, mjx-container, .text, .body, figure, table, p, li";
  for (const el of slide.querySelectorAll(blocks)) {
    if (!visible(el)) continue;
    const cs = getComputedStyle(el);
    if ((el.scrollWidth > el.clientWidth + 1 && cs.overflowX !== "visible") ||
        (el.scrollHeight > el.clientHeight + 1 && cs.overflowY !== "visible")) {
      problems.push(`${name(el)} is clipped (its content scrolls inside it)`);
      break;
    }
  }
  // 3. maths: raw TeX left in the visible text, MathJax errors
  const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) {
    const p = walker.currentNode.parentElement;
    if (!p || p.closest("mjx-container, aside.notes, pre, code, script, style") || !visible(p)) continue;
    texts.push(walker.currentNode.nodeValue);
  }
  const text = texts.join(" ");
  const raw = text.match(/\\\(|\\\)|\\\[|\\\]|\$[^$]*\$|\\[A-Za-z]+\{?/);
  if (raw) problems.push(`raw TeX on the slide: ${JSON.stringify(raw[0].slice(0, 40))}`);
  const errors = slide.querySelectorAll("mjx-merror, [data-mjx-error]");
  if (errors.length) {
    const what = errors[0].getAttribute("data-mjx-error") || errors[0].textContent;
    problems.push(`${errors.length} MathJax error(s): ${JSON.stringify(what.slice(0, 60))}`);
  }
  const eqs = [...slide.querySelectorAll(".eq")].filter(visible);
  const untypeset = eqs.filter((e) => !e.querySelector("mjx-container"));
  if (untypeset.length) problems.push(`${untypeset.length} of ${eqs.length} equations not typeset`);
  // 4. figures: loaded, and large enough to read from the back of the room
  const imgs = [...slide.querySelectorAll("img")].filter(visible);
  for (const im of imgs) {
    const src = (im.getAttribute("src") || "").split("/").pop();
    if (!im.complete || im.naturalWidth === 0) { problems.push(`figure not shown: ${src}`); continue; }
    const r = im.getBoundingClientRect();
    if (r.height / scale < 0.4 * H && r.width / scale < 0.6 * W)
      problems.push(`figure too small: ${src} at ` +
                    `${Math.round(r.width / scale)} x ${Math.round(r.height / scale)} px`);
  }
  // 5. small text and walls of text
  let smallest = null;
  for (const el of slide.querySelectorAll("p, li, td, figcaption, h1, h2, h3, span, a, code")) {
    if (!visible(el) || el.closest("mjx-container") || !el.textContent.trim()) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < minFont && (!smallest || px < smallest[1])) smallest = [el, px];
  }
  if (smallest) problems.push(`text at ${smallest[1]} px (${name(smallest[0])}): below ${minFont} px`);
  const words = text.split(/\s+/).filter((w) => /[A-Za-z]{2,}/.test(w)).length;
  // the page's learning objectives (3-5 sentences, read out) may hold half as much again
  const most = slide.classList.contains("objectives") ? Math.round(1.5 * maxWords) : maxWords;
  if (words > most) problems.push(`${words} words on the slide (a wall of text; at most ${most})`);
  const notes = slide.querySelector("aside.notes");
  if (!notes || !notes.textContent.trim()) problems.push("no speaker notes");
  const title = (slide.querySelector("h1, h2, .question-text") || slide).textContent.trim().slice(0, 50);
  return {problems, title, equations: eqs.length, figures: imgs.length, words};
}
"""


def check_deck(page, deck, shots=None):
    """Problems of one deck (a list of strings) and a one-line summary."""
    blocked, missing, errors = [], [], []

    def route(r):
        url = r.request.url
        if url.startswith(("file:", "data:", "blob:", "about:")):
            return r.continue_()
        blocked.append(url)
        return r.abort()

    page.unroute("**/*")
    page.route("**/*", route)
    page.on("requestfailed", lambda req: missing.append(req.url) if req.url.startswith("file:") else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(deck.as_uri(), wait_until="load")
    problems = []
    try:
        page.wait_for_function("window.Reveal && Reveal.isReady()", timeout=20_000)
    except Exception:  # noqa: BLE001 (Playwright's TimeoutError)
        problems.append("reveal.js is not ready after 20 s")
    try:
        page.wait_for_function("window.deckMathDone === true", timeout=60_000)
    except Exception:  # noqa: BLE001
        problems.append("MathJax did not finish typesetting in 60 s")
    if problems:
        problems += [f"request blocked: {u}" for u in blocked]
        return [f"{deck.name}: {p}" for p in problems], "not ready"
    total = page.evaluate("Reveal.getTotalSlides()")
    n_eq = n_fig = 0
    for i in range(total):
        page.evaluate(f"Reveal.slide({i})")
        page.wait_for_timeout(30)
        m = page.evaluate(MEASURE_JS, [MAX_WORDS, MIN_FONT_PX, WIDTH, HEIGHT])
        n_eq += m["equations"]
        n_fig += m["figures"]
        for p in m["problems"]:
            problems.append(f"{deck.name}: slide {i + 1} ({m['title']!r}): {p}")
        if shots:
            page.screenshot(path=str(Path(shots) / f"{deck.stem}-{i + 1:02d}.png"))
    problems += [f"{deck.name}: a request left the machine (blocked): {u}" for u in dict.fromkeys(blocked)]
    problems += [f"{deck.name}: local file missing: {u}" for u in dict.fromkeys(missing)]
    problems += [f"{deck.name}: JavaScript error: {e}" for e in errors]
    return problems, f"{total} slides, {n_eq} equations, {n_fig} figures"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("slides", nargs="?", default=str(ROOT / "_build" / "html" / "slides"))
    parser.add_argument("--screenshots", help="save every slide as a PNG in this folder")
    parser.add_argument("--require-browser", action="store_true", help="fail (not skip) without Chromium")
    args = parser.parse_args(argv)
    folder = Path(args.slides).resolve()
    decks = sorted(folder.glob("*.html"))
    if not decks:
        print(f"ERROR: no deck in {folder}: run python scripts/make_slides.py first")
        return 1
    chromium = find_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        msg = ("Chromium or Playwright not found: the slides are not checked. Install Chromium "
               "(apt-get install chromium) and pip install -r requirements.txt.")
        print(("ERROR: " if args.require_browser else "SKIPPED: ") + msg)
        return 1 if args.require_browser else 0
    if args.screenshots:
        Path(args.screenshots).mkdir(parents=True, exist_ok=True)
    failures = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for deck in decks:
            context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
            problems, summary = check_deck(context.new_page(), deck, args.screenshots)
            context.close()
            failures += problems
            print(f"{'FAIL' if problems else 'ok  '} {deck.name}: {summary}")
        browser.close()
    for f in failures:
        print("  -", f)
    failed = len({f.split(":")[0] for f in failures})
    print(f"{len(decks) - failed} passed, {failed} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
