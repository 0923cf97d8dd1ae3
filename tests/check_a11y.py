"""Accessibility check of the built book: every page in Chromium, axe-core and a keyboard walk.

Usage: ``python tests/check_a11y.py [_build/html] [more.html or folders ...] [--report-only]``

Every HTML page under the folders given (the built site by default; ``_static``, ``_sources``
and other ``_`` folders skipped, and the one-line redirect ``index.html``) and every HTML file
given is opened in headless Chromium (Playwright driving the system Chromium, as
``tests/check_site.py`` does) at 1,280 px, offline: a request that leaves the machine is
refused and reported. A page of the book's theme is checked twice, in its light and its dark
theme; a page without the theme's colour switch (a slide deck) once. Each time, after MathJax:

* **axe-core** (``node_modules/axe-core``, installed by ``npm ci`` from the repository's
  ``package.json`` and ``package-lock.json``) with the WCAG 2.0 and 2.1 A and AA rules, on the
  page as it loads and again with every fold opened (code cells, solutions, dropdowns), so
  that what a reader unfolds is checked too. A violation counts once per element.
* **images**: every ``<img>`` needs an ``alt`` text; a decorative image says so with
  ``alt=""``. An ``alt`` that is the image's file name (what Sphinx writes for a figure
  without one) counts as none.
* **structure**: one ``h1``; no heading level skipped (an ``h2`` followed by an ``h4``); every
  table has header cells (``th``); every equation MathJax typeset carries its assistive
  MathML (what a screen reader reads) or a spoken label.
* **keyboard** (light theme, folds closed): Tab through the page from the top. Every link,
  button, fold toggle and form field on show must be reached, and each must look different
  when focused (outline, shadow, border, background, colour or underline) and be on show
  (not transparent, not outside the page) while it has the focus.

It fails on any serious or critical axe-core violation, any ``<img>`` without ``alt``, any
structure or keyboard problem, and any request to the network; ``--report-only`` prints the
same and exits 0. Without Chromium, Playwright or ``node_modules/axe-core`` it says what to
install and fails (``--require-browser``) or exits 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_site import find_chromium  # noqa: E402  (the same Chromium as the browser check)

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING = ("serious", "critical")
WIDTH = 1280

# The page is ready: MathJax typeset, images loaded, the theme's scripts ran.
READY_JS = r"""
async () => {
  for (let i = 0; i < 100 && document.readyState !== "complete"; i++)
    await new Promise((r) => setTimeout(r, 50));
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await Promise.all([...document.images].map(
    (im) => im.complete ? null : new Promise((r) => { im.onload = im.onerror = r; })));
  await new Promise((r) => setTimeout(r, 100));
  // let every CSS transition and animation (a fold opening, a fade-in) finish: a half-faded
  // text would be measured at the wrong contrast, more often the busier the machine
  for (let i = 0; i < 50 && document.getAnimations().some((a) => a.playState === "running"); i++)
    await Promise.race([Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))),
                        new Promise((r) => setTimeout(r, 200))]);
  return {theme: document.documentElement.dataset.theme || null,
          switch: !!document.querySelector(".theme-switch-button")};
}
"""

# Unfold everything a reader can unfold: <details> (code cells, sidebar sections, dropdowns)
# and sphinx-togglebutton's admonitions.
OPEN_FOLDS_JS = r"""
async () => {
  let n = 0;
  document.querySelectorAll("details:not([open])").forEach((d) => { d.open = true; n++; });
  document.querySelectorAll(".toggle-hidden button.toggle-button").forEach((b) => { b.click(); n++; });
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await new Promise((r) => setTimeout(r, 300));
  // let every CSS transition and animation (a fold opening, a fade-in) finish: a half-faded
  // text would be measured at the wrong contrast, more often the busier the machine
  for (let i = 0; i < 50 && document.getAnimations().some((a) => a.playState === "running"); i++)
    await Promise.race([Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))),
                        new Promise((r) => setTimeout(r, 200))]);
  return n;
}
"""

AXE_JS = r"""
async (tags) => {
  const r = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                     resultTypes: ["violations"], elementRef: true});
  // an element found again after the folds are opened is the same element: one key each
  window.__a11yKey = window.__a11yKey || new Map();
  const key = (el) => {
    if (!el) return null;
    if (!window.__a11yKey.has(el)) window.__a11yKey.set(el, window.__a11yKey.size);
    return window.__a11yKey.get(el);
  };
  return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({key: key(n.element), target: n.target.join(" "),
                                html: n.html.slice(0, 160),
                                summary: (n.failureSummary || "").slice(0, 300)}))}));
}
"""

STRUCTURE_JS = r"""
() => {
  const where = (el) => {
    const fig = el.closest("figure[id], .cell[id], section[id]");
    return fig ? "#" + fig.id : "";
  };
  // no alt, or the file's name as alt (what Sphinx writes for a figure without one)
  const noalt = [...document.querySelectorAll("img")].filter((im) => {
    const alt = im.getAttribute("alt");
    return alt === null || (alt !== "" && (alt === im.getAttribute("src")
      || /^[^\s]*\.(png|jpe?g|gif|svg|webp)$/i.test(alt.trim())));
  }).map(
    (im) => (im.getAttribute("src") || "").slice(0, 40) + " " + where(im));
  const rendered = (el) => {
    for (let a = el; a; a = a.parentElement)
      if (getComputedStyle(a).display === "none" || a.hidden || a.getAttribute("aria-hidden") === "true")
        return false;
    return true;
  };
  // what a screen reader's heading list shows: the print-only copy of the title is not
  const heads = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].filter(rendered);
  const h1 = heads.filter((h) => h.tagName === "H1").length;
  const skips = [];
  let last = 0;
  for (const h of heads) {
    const lv = +h.tagName[1];
    if (last && lv > last + 1)
      skips.push(`h${last} -> h${lv} "${h.textContent.replace("#", "").trim().slice(0, 50)}"`);
    last = lv;
  }
  // data tables (a layout table says so with role="presentation" and needs no headers)
  const tables = [...document.querySelectorAll("table")].filter(
    (t) => !["presentation", "none"].includes(t.getAttribute("role")));
  const noth = tables.filter((t) => !t.querySelector("th")).map(
    (t) => (t.id ? "#" + t.id : where(t)) || t.className);
  // equations: MathJax's assistive MathML (or a spoken label) is what a screen reader reads
  // a deck's speaker notes (aside.notes) are never shown to the audience or a screen reader
  const maths = [...document.querySelectorAll("mjx-container")].filter((m) => !m.closest("aside.notes"));
  const mute = maths.filter((m) => !m.querySelector("mjx-assistive-mml math")
    && !m.getAttribute("aria-label")).length;
  return {noalt, images: document.images.length, h1, skips, tables: tables.length, noth,
          math: maths.length, mute};
}
"""

# Tab through the page. Before the first Tab, every interactive element on show is numbered and
# its look recorded; each focused element is then compared with its unfocused look.
KEYBOARD_JS_PREPARE = r"""
() => {
  const LOOK = ["outlineStyle", "outlineWidth", "outlineColor", "boxShadow", "backgroundColor",
                "borderTopColor", "borderBottomColor", "borderBottomWidth", "color",
                "textDecorationLine"];
  window.__a11yLook = (el) => {
    const s = getComputedStyle(el);
    return LOOK.map((k) => s[k]).join("|");
  };
  const shown = (el) => {
    if (el.getClientRects().length === 0) return false;
    for (let a = el; a; a = a.parentElement) {
      if (a.tagName === "DETAILS" && !a.open && !(a.firstElementChild && a.firstElementChild.contains(el)))
        return false;
      const s = getComputedStyle(a);
      if (s.visibility === "hidden" || s.display === "none") return false;
    }
    return true;
  };
  window.__a11yShown = shown;
  const sel = "a[href], button, summary, input:not([type=hidden]), select, textarea, [tabindex]";
  const els = [...document.querySelectorAll(sel)].filter(
    (el) => shown(el) && !el.disabled && el.getAttribute("tabindex") !== "-1"
      && !el.closest("[inert], [aria-hidden=true]"));
  window.__a11yLooks = new Map();
  els.forEach((el, i) => { el.dataset.a11yI = i; window.__a11yLooks.set(el, window.__a11yLook(el)); });
  if (document.activeElement) document.activeElement.blur();
  window.scrollTo(0, 0);
  return els.length;
}
"""

KEYBOARD_JS_STEP = r"""
() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  // the control's box with its children's (a sidebar toggle draws its chevron in a child)
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const e of [el, ...el.querySelectorAll("*")].slice(0, 50)) {
    for (const r of e.getClientRects()) {
      if (r.width === 0 && r.height === 0) continue;
      x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top);
      x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
    }
  }
  let opacity = 1;
  for (let a = el; a; a = a.parentElement) opacity *= +getComputedStyle(a).opacity;
  const before = window.__a11yLooks.get(el);
  const name = (el.getAttribute("aria-label") || el.textContent || el.getAttribute("title") || "")
    .replace(/\s+/g, " ").trim().slice(0, 40);
  const cls = typeof el.className === "string" && el.className.trim()
    ? "." + el.className.trim().split(/\s+/).slice(0, 2).join(".") : "";
  return {i: el.dataset.a11yI === undefined ? null : +el.dataset.a11yI,
          what: `${el.tagName.toLowerCase()}${cls} "${name}"`,
          box: x0 < x1 && y0 < y1 ? [x0, y0, x1 - x0, y1 - y0] : null,
          seen: x0 < x1 && opacity > 0.1 && window.__a11yShown(el)
                && y1 > 0 && y0 < innerHeight && x1 > 0 && x0 < innerWidth,
          marked: before === undefined || window.__a11yLook(el) !== before};
}
"""

KEYBOARD_JS_MISSED = r"""
(reached) => {
  const got = new Set(reached);
  return [...document.querySelectorAll("[data-a11y-i]")].filter(
    (el) => !got.has(+el.dataset.a11yI) && window.__a11yShown(el)).map((el) => {
      const name = (el.getAttribute("aria-label") || el.textContent || "").replace(/\s+/g, " ").trim();
      return `${el.tagName.toLowerCase()} "${name.slice(0, 40)}"`;
    });
}
"""


def site_pages(paths):
    """The HTML pages to check: files as given, folders searched (``_`` folders skipped)."""
    pages = []
    for p in map(Path, paths):
        if p.is_file():
            pages.append(p.resolve())
            continue
        for f in sorted(p.rglob("*.html")):
            rel = f.relative_to(p)
            if any(part.startswith("_") for part in rel.parts[:-1]):
                continue
            text = f.read_text(encoding="utf-8", errors="replace")
            if len(text) < 400 and 'http-equiv="Refresh"' in text:
                continue  # the root index.html: a redirect to the first page
            pages.append(f.resolve())
    return pages


def focus_drawn(page):
    """Whether the page looks different with the control focused and unfocused (pixels).

    For controls whose own style does not change: the theme may draw the ring on a child (the
    sidebar's chevron) or around an ancestor (a solution's title bar), so the whole view is
    compared.
    """
    focused = page.screenshot(animations="disabled")
    # blur keeps Chromium's place in the Tab order: the next Tab goes on from this control
    page.evaluate("() => document.activeElement.blur()")
    plain = page.screenshot(animations="disabled")
    return focused != plain


def keyboard_walk(page, limit=3000):
    """Tab from the top of the page; problems: unreached, unmarked or hidden focus."""
    total = page.evaluate(KEYBOARD_JS_PREPARE)
    page.mouse.move(0, 0)
    reached, unmarked, hidden, first, nothing = [], [], [], None, 0
    for _ in range(limit):
        page.keyboard.press("Tab")
        step = page.evaluate(KEYBOARD_JS_STEP)
        if step is None:  # focus left the page (after its last control), or it has none
            nothing += 1
            if reached or nothing > 2:
                break
            continue
        key = step["i"] if step["i"] is not None else step["what"]
        if key == first:
            break
        if first is None:
            first = key
        if step["i"] is not None:
            reached.append(step["i"])
        if not step["seen"] or not step["marked"]:
            page.wait_for_timeout(300)  # a transition (the skip link slides in)
            step = page.evaluate(KEYBOARD_JS_STEP)
        if not step["seen"]:
            hidden.append(step["what"])
        elif not step["marked"] and not focus_drawn(page):
            unmarked.append(step["what"])
    missed = page.evaluate(KEYBOARD_JS_MISSED, reached)
    return {"total": total, "reached": len(set(reached)), "missed": missed, "unmarked": unmarked,
            "hidden": hidden}


def check_file(page, path, label, first=True, keyboard=True, timings=None):
    """axe-core (as loaded, then unfolded) on one page in one theme; in the ``first`` theme also
    its images, structure and (``keyboard``) the keyboard walk, which do not change with it."""
    t = [time.perf_counter()]
    page.goto(path.as_uri(), wait_until="load")
    ready = page.evaluate(READY_JS)
    page.add_script_tag(path=str(AXE))
    t.append(time.perf_counter())
    found = {}
    for v in page.evaluate(AXE_JS, TAGS):
        for n in v["nodes"]:
            found[(v["id"], n["key"] if n["key"] is not None else n["target"])] = (v, n)
    t.append(time.perf_counter())
    structure = page.evaluate(STRUCTURE_JS) if first else None
    walk = keyboard_walk(page) if first and keyboard else None
    t.append(time.perf_counter())
    page.evaluate(OPEN_FOLDS_JS)
    for v in page.evaluate(AXE_JS, TAGS):
        for n in v["nodes"]:
            found.setdefault((v["id"], n["key"] if n["key"] is not None else n["target"]), (v, n))
    if first:
        unfolded = page.evaluate(STRUCTURE_JS)  # headings and tables with every fold open
        unfolded["noalt"] = sorted(set(structure["noalt"]) | set(unfolded["noalt"]))
        structure = unfolded
    t.append(time.perf_counter())
    if timings is not None:
        for k, a, b in zip(("load", "axe", "keyboard", "unfolded"), t, t[1:]):
            timings[k] = timings.get(k, 0) + b - a
    return {"label": label, "theme": ready["theme"], "switch": ready["switch"],
            "violations": list(found.values()), "structure": structure, "keyboard": walk}


def problems_of(rel, res):
    """The failing findings of one page in one theme, as lines."""
    out = []
    tag = f"{rel} [{res['label']}]"
    by_rule = {}
    for v, n in res["violations"]:
        if v["impact"] in FAILING:
            by_rule.setdefault((v["id"], v["impact"], v["help"]), []).append(n)
    for (rule, impact, help_), nodes in sorted(by_rule.items()):
        out.append(f"{tag}: {impact} {rule} ({help_}) on {len(nodes)} element(s), e.g. "
                   f"{nodes[0]['target']}: {nodes[0]['html'][:100]!r}")
    s = res["structure"] or {"noalt": [], "h1": 1, "skips": [], "noth": [], "mute": 0}
    if s["noalt"]:
        out.append(f"{tag}: {len(s['noalt'])} <img> without alt text (none, or the file's name), "
                   f"e.g. {s['noalt'][0]}")
    if s["h1"] != 1:
        out.append(f"{tag}: {s['h1']} h1 headings (one is due)")
    if s["skips"]:
        out.append(f"{tag}: heading level skipped: {'; '.join(s['skips'][:3])}")
    if s["mute"]:
        out.append(f"{tag}: {s['mute']} of {s['math']} equations without assistive MathML or a label")
    if s["noth"]:
        out.append(f"{tag}: {len(s['noth'])} table(s) without header cells, e.g. {s['noth'][0]}")
    k = res["keyboard"]
    if k:
        if k["missed"]:
            out.append(f"{tag}: {len(k['missed'])} of {k['total']} controls not reached by Tab, "
                       f"e.g. {', '.join(k['missed'][:3])}")
        if k["unmarked"]:
            out.append(f"{tag}: {len(k['unmarked'])} focused controls look unfocused, e.g. "
                       f"{', '.join(sorted(set(k['unmarked']))[:3])}")
        if k["hidden"]:
            out.append(f"{tag}: {len(k['hidden'])} focused controls not on show, e.g. "
                       f"{', '.join(sorted(set(k['hidden']))[:3])}")
    return out


def run(paths, keyboard=True, themes=("light", "dark"), quiet=False):
    """Check every page under ``paths``: ``(problems, results)``, results per (page, theme)."""
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    pages = site_pages(paths)
    bases = [Path(p).resolve() for p in paths]

    def rel_of(f):
        for b in bases:
            if b.is_dir() and f.is_relative_to(b):
                return str(f.relative_to(b))
        return f.name

    problems, results, network, themeless, timings = [], [], [], set(), {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for theme in themes:
            context = browser.new_context(viewport={"width": WIDTH, "height": 900}, color_scheme=theme)
            context.add_init_script(
                f"try {{ localStorage.setItem('mode', '{theme}'); "
                f"localStorage.setItem('theme', '{theme}'); }} catch (e) {{}}")

            def route(r):
                url = r.request.url
                if url.startswith(("file:", "data:", "blob:", "about:")):
                    r.continue_()
                else:
                    network.append(url)
                    r.abort()

            context.route("**/*", route)
            page = context.new_page()
            for f in pages:
                rel = rel_of(f)
                first = theme == themes[0]
                if not first and rel in themeless:
                    continue  # no colour switch (a slide deck): checked once
                res = check_file(page, f, theme, first=first, keyboard=keyboard, timings=timings)
                if res["switch"] and res["theme"] != theme:
                    problems.append(f"{rel} [{theme}]: the page shows the {res['theme']} theme")
                if not res["switch"]:
                    res["label"] = "no theme switch"
                    themeless.add(rel)
                res["page"] = rel
                results.append(res)
                mine = problems_of(rel, res)
                problems += mine
                if not quiet:
                    counts = Counter(v["impact"] for v, _ in res["violations"])
                    s, k = res["structure"], res["keyboard"]
                    print(f"{'FAIL' if mine else 'ok  '} {rel} [{res['label']}]: axe "
                          + (", ".join(f"{c} {i}" for i, c in sorted(counts.items())) or "clean")
                          + (f"; images {s['images']}, without alt {len(s['noalt'])}; "
                             f"equations {s['math']}, without MathML {s['mute']}" if s else "")
                          + (f"; keyboard {k['reached']}/{k['total']} reached" if k else ""))
            context.close()
        browser.close()
    for url in sorted(set(network)):
        problems.append(f"request to the network refused: {url}")
    if not quiet:
        print("time (s): " + ", ".join(f"{k} {v:.0f}" for k, v in timings.items()))
    return problems, results


def summary(results):
    """Violations by rule, impact and theme, counted per element."""
    table = Counter()
    for res in results:
        for v, _ in res["violations"]:
            table[(v["id"], v["impact"], res["label"])] += 1
    themes = sorted({r["label"] for r in results})
    lines = [f"{'rule':40s} {'impact':9s} " + " ".join(f"{t:>8s}" for t in themes)]
    for rule, impact in sorted({(r, i) for r, i, _ in table}, key=lambda x: (x[1], x[0])):
        lines.append(f"{rule:40s} {impact:9s} " + " ".join(f"{table[(rule, impact, t)]:8d}" for t in themes))
    if not table:
        lines.append("(no violation of any impact)")
    structure = [r["structure"] for r in results if r["structure"]]
    lines.append(f"<img> without alt text: {sum(len(s['noalt']) for s in structure)} of "
                 f"{sum(s['images'] for s in structure)}; equations without assistive MathML: "
                 f"{sum(s['mute'] for s in structure)} of {sum(s['math'] for s in structure)}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=[str(ROOT / "_build" / "html")],
                        help="the built site and any other HTML files or folders (slide decks)")
    parser.add_argument("--require-browser", action="store_true", help="fail (not skip) without the tools")
    parser.add_argument("--report-only", action="store_true", help="print the findings, exit 0")
    parser.add_argument("--no-keyboard", action="store_true", help="skip the keyboard walk")
    parser.add_argument("--json", help="write every finding to this file")
    args = parser.parse_args(argv)
    missing = []
    if find_chromium() is None:
        missing.append("Chromium (apt-get install chromium)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing.append("Playwright (pip install playwright; it drives the system Chromium)")
    if not AXE.exists():
        missing.append("axe-core (npm ci, in the repository: package.json and package-lock.json)")
    if missing:
        print(("ERROR: " if args.require_browser else "SKIPPED: ") + "the accessibility check needs "
              + "; ".join(missing))
        return 1 if args.require_browser else 0
    for p in args.paths:
        if not Path(p).exists():
            print(f"ERROR: {p} not found (build the book first: jupyter-book build .)")
            return 1
    problems, results = run(args.paths, keyboard=not args.no_keyboard)
    print(summary(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    for line in problems:
        print("  -", line)
    bad = {line.split(" [")[0].split(":")[0] for line in problems}
    print(f"{len({r['page'] for r in results}) - len(bad)} pages passed, {len(bad)} failed "
          f"(WCAG 2.1 A and AA rules of axe-core {axe_version()}: serious and critical fail)")
    return 0 if args.report_only or not problems else 1


def axe_version():
    try:
        return json.loads((AXE.parent / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "?"


if __name__ == "__main__":
    sys.exit(main())
