"""Browser check of the built book: open every page in headless Chromium and look at it.

Usage: ``python tests/check_site.py [_build/html] [--screenshot notebooks/00_foundations.html]``

For the index and every page listed in ``_toc.yml`` it fails when

* the page is missing (a chapter that did not build);
* maths is shown as raw TeX: a Sphinx ``math`` element that MathJax did not typeset
  (no ``mjx-container`` inside), or ``$...$`` / ``\\(`` / ``\\[`` left in the visible text;
* a notebook cell shows an error output (a traceback);
* an image is broken: its file is missing or empty (``data:`` URIs must decode).

The DOM is read after MathJax ran (``--dump-dom`` with a virtual time budget). Without
Chromium the check is skipped with exit code 0 and a message saying how to install it;
with ``--require-browser`` (used by CI) a missing browser is an error.
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


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("html", nargs="?", default=str(ROOT / "_build" / "html"))
    parser.add_argument(
        "--screenshot", action="append", default=[], help="page to save as PNG in _build/screenshots"
    )
    parser.add_argument("--require-browser", action="store_true", help="fail (not skip) without Chromium")
    args = parser.parse_args(argv)
    html_root = Path(args.html).resolve()
    chromium = find_chromium()
    if chromium is None:
        msg = (
            "Chromium not found: browser check of the site skipped. Install it with "
            "`apt-get install chromium` (Debian/Ubuntu, as root) and run "
            "`python tests/check_site.py` again."
        )
        print(("ERROR: " if args.require_browser else "SKIPPED: ") + msg)
        return 1 if args.require_browser else 0
    if not (html_root / "index.html").exists():
        print(f"ERROR: {html_root}/index.html not found; build the book first (jupyter-book build .)")
        return 1
    pages = ["index.html", *toc_pages()]
    failures = []
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
    for f in failures:
        print("  -", f)
    print(
        f"{len(pages) - len({f.split(':')[0] for f in failures})} passed, "
        f"{len({f.split(':')[0] for f in failures})} failed"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
