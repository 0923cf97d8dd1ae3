"""Check the printable book: the PDF that ``jupyter-book build . --builder pdflatex`` writes.

Usage: ``python tests/check_pdf.py [_build/latex/sslteach.pdf] [--out DIR]``

It fails when

* the PDF is missing, or has fewer than ``--min-pages`` pages (a chapter that fell out);
* the title of a page listed in ``_toc.yml`` (each chapter, each API module) is not in the
  PDF's text at least twice (the table of contents and the heading);
* the text shows LaTeX or MyST that was not typeset: ``??`` (an unresolved reference or
  citation), ``\\begin{``, ``$$``, a MyST role such as ``{doc}`...``` or a ``:::{`` fence;
* the LaTeX log (the ``.log`` beside the PDF) reports a glyph missing from a font (shown as
  nothing or a box in the PDF), an undefined reference or citation, or a line more than
  ``--max-overfull`` points wider than the text (a table or formula cut off);
* a page with display maths, or a page with a figure, renders blank: each is rendered to
  PNG with ``pdftoppm`` and must have enough ink, the figure page enough coloured pixels
  (the plots are in colour, the text is black). The maths page must use a maths font;
* a cell's output printed as a Python placeholder instead of its content
  (``<IPython.core.display.HTML object>``, ``<Figure size ...>``, a Styler object);
* a page is blank or shows only its running head and page number (and no image), beyond
  ``--max-blank`` (default 0; the title page and the part pages are not counted);
* LaTeX numbers the chapters itself ("CHAPTER EIGHT" headings, "Chapter 8." running heads):
  the site names chapters by their titles ("Chapter 5: ..."), so LaTeX's own count (which
  also counts Notation and the API reference) would contradict it.

Needs poppler-utils (``pdfinfo``, ``pdftotext``, ``pdffonts``, ``pdfimages``,
``pdftoppm``). Pixels are read with Pillow when it is installed, else from a PPM with numpy.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ("pdfinfo", "pdftotext", "pdffonts", "pdfimages", "pdftoppm")

# Text that must not survive into the PDF: LaTeX's mark for an unresolved \ref or \cite,
# LaTeX environments and display maths left as source, MyST roles and colon fences.
RAW_MARKERS = {
    "unresolved reference (??)": re.compile(r"\?\?"),
    "raw \\begin{...}": re.compile(r"\\begin\{"),
    "raw $$": re.compile(r"\$\$"),
    "raw MyST role": re.compile(
        r"\{(?:doc|ref|numref|eq|math|term|download|abbr|cite(?::[a-z]+)?|prf:[a-z]+)\}`"
    ),
    "raw MyST fence (:::{)": re.compile(r":::\{"),
    "output placeholder": re.compile(
        r"<IPython\.core\.display\.\w+ object>|<Figure size \d+x\d+ with \d+ Axes>"
        r"|<pandas\.io\.formats\.style\.Styler object"
    ),
}
# LaTeX's own chapter numbers: a heading "CHAPTER" over a number word, a running head "Chapter 8. ..."
LATEX_CHAPTER = re.compile(r"^CHAPTER\s*\n\s*\n?[A-Z]+\s*$|^Chapter \d+\. \S", re.M)
ROMAN_OR_DIGITS = re.compile(r"^(?:\d+|[ivxlc]+)$")
# an index entry and its pages: "sigma() (SetCache method), 364"
INDEX_ENTRY = re.compile(r"\S.*\S,\s+\d+(?:,\s*\d+)*")
LOG_PROBLEMS = {
    "missing glyph": re.compile(r"^Missing character: There is no .*$", re.M),
    "undefined reference": re.compile(r"^LaTeX Warning: (?:Reference|Citation) .* undefined.*$", re.M),
}
OVERFULL = re.compile(
    r"^Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\) (?:in paragraph at lines|detected at line) (\d+)", re.M
)
EQUATION_NUMBER = re.compile(r"\(\d+(?:\.\d+)?\)\s*$", re.M)  # "(31)" or "(3.1)" ending a line


def run(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def normalise(text: str) -> str:
    """Case-folded, ligatures and typographic quotes undone, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(text.split()).casefold()


def toc_titles(root: Path = ROOT) -> dict[str, str]:
    """The level-1 heading of every file in _toc.yml (a .md page or a notebook)."""
    files = re.findall(r"(?:root|file):\s*(\S+)", (root / "_toc.yml").read_text())
    titles = {}
    for name in files:
        md, nb = root / f"{name}.md", root / f"{name}.ipynb"
        if md.exists():
            lines = md.read_text().splitlines()
        else:
            cells = json.loads(nb.read_text())["cells"]
            lines = [
                line
                for c in cells
                if c["cell_type"] == "markdown"
                for line in "".join(c["source"]).splitlines()
            ]
        heading = next((line[2:].strip() for line in lines if line.startswith("# ")), None)
        if heading is None:
            raise ValueError(f"{name}: no level-1 heading")
        titles[name] = heading
    return titles


def raw_markers(pages: list[str]) -> list[str]:
    """'page N: what' for every marker of untypeset source in the pages' text."""
    found = []
    for number, text in enumerate(pages, 1):
        for what, pattern in RAW_MARKERS.items():
            for m in pattern.finditer(text):
                context = " ".join(text[max(m.start() - 40, 0) : m.end() + 40].split())
                found.append(f"page {number}: {what}: ...{context}...")
    return found


#: the last entries of the contents: a page of the contents holding only these is not blank
CONTENTS_TAIL = {"Python Module Index", "Index"}


def blank_pages(pages: list[str], image_pages: set[int] = frozenset()) -> list[int]:
    """Pages (1-based) with no text but running heads and page numbers, and no image.

    A running head is a line among the first or last three of a page that recurs there on
    several pages (the book's title, a chapter's or section's title, "CONTENTS"); lines in
    the body of a page count as text however often they recur (a long table repeats its
    labels). The first page (the title page) and part pages ("Part II") are not blank pages,
    nor is the index's last page holding a single entry ("X (SetCache attribute), 364"), nor
    the contents' last page holding only its last entries (the module index and the index).
    """
    lines = [[line.strip() for line in text.splitlines() if line.strip()] for text in pages]
    seen = {}
    for page in lines:
        for line in set(page[:3] + page[-3:]):
            seen[line] = seen.get(line, 0) + 1
    heads = {line for line, n in seen.items() if n >= 3}
    blank = []
    for number, page in enumerate(lines, 1):
        if number == 1 or number in image_pages or any(re.fullmatch(r"Part [IVXL]+", x) for x in page):
            continue
        edge = set(range(min(3, len(page)))) | set(range(max(len(page) - 3, 0), len(page)))
        body = [x for i, x in enumerate(page)
                if not (i in edge and (x in heads or ROMAN_OR_DIGITS.fullmatch(x)))]
        if len(" ".join(body)) < 40 and not any(INDEX_ENTRY.fullmatch(x) for x in body) \
                and not (body and set(body) <= CONTENTS_TAIL):
            blank.append(number)
    return blank


def latex_chapter_numbers(pages: list[str]) -> list[str]:
    """'page N: text' for every chapter number LaTeX printed (see LATEX_CHAPTER).

    A running head "Chapter 8. ..." is a whole line that recurs on several pages; a line of
    prose that happens to start "Chapter 2. The" does not recur, and is not reported.
    """
    count = {}
    for text in pages:
        for line in set(text.splitlines()):
            count[line] = count.get(line, 0) + 1
    found = []
    for number, text in enumerate(pages, 1):
        for m in LATEX_CHAPTER.finditer(text):
            line = m.group(0)
            if line.startswith("Chapter "):
                line = text[m.start():].split("\n", 1)[0]
                if count.get(line, 0) < 2:
                    continue
            found.append(f"page {number}: {' '.join(line.split())!r}")
    return found


def image_pages(pdf: Path) -> set[int]:
    pages = set()
    for line in run("pdfimages", "-list", str(pdf)).splitlines()[2:]:
        first = line.split()[0]
        if first.isdigit():
            pages.add(int(first))
    return pages


def log_problems(log: str, max_overfull: float) -> list[str]:
    """Missing glyphs, undefined references and overfull lines wider than max_overfull pt."""
    found = [
        f"{what}: {m.group(0).strip()}"
        for what, pattern in LOG_PROBLEMS.items()
        for m in pattern.finditer(log)
    ]
    for m in OVERFULL.finditer(log):
        if float(m.group(1)) > max_overfull:
            found.append(f"overfull line: {m.group(1)}pt too wide at line {m.group(2)} of the .tex")
    return found


def ink(pixels: np.ndarray) -> tuple[float, float]:
    """Fractions of the pixels (H x W x 3, uint8) that are not white, and that are coloured."""
    rgb = pixels[..., :3].astype(np.int16)
    not_white = (rgb < 235).any(axis=-1)
    coloured = (rgb.max(axis=-1) - rgb.min(axis=-1)) > 60
    return float(not_white.mean()), float(coloured.mean())


def read_ppm(path: Path) -> np.ndarray:
    """A binary PPM (P6, maxval 255) as an H x W x 3 uint8 array."""
    data = path.read_bytes()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval; '#' comments allowed between
        m = re.compile(rb"\s*(#[^\n]*\n\s*)*(\S+)").match(data, pos)
        fields.append(m.group(2))
        pos = m.end()
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    width, height = int(fields[1]), int(fields[2])
    return np.frombuffer(data, np.uint8, width * height * 3, pos + 1).reshape(height, width, 3)


def render(pdf: Path, page: int, out: Path, dpi: int = 60) -> tuple[Path, np.ndarray]:
    """Render one page with pdftoppm: a PNG read with Pillow, or a PPM read with numpy."""
    stem = out / f"page-{page:03d}"
    try:
        from PIL import Image
    except ImportError:
        Image = None
    fmt = ["-png"] if Image is not None else []
    run(
        "pdftoppm", *fmt, "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(stem)
    )
    if Image is not None:
        path = stem.with_suffix(".png")
        with Image.open(path) as im:
            return path, np.asarray(im.convert("RGB"))
    path = stem.with_suffix(".ppm")
    return path, read_ppm(path)


def math_fonts(pdf: Path, page: int) -> list[str]:
    names = [
        line.split()[0]
        for line in run("pdffonts", "-f", str(page), "-l", str(page), str(pdf)).splitlines()[2:]
    ]
    return [n for n in names if "math" in n.lower()]


def figure_pages(pdf: Path, min_pixels: int = 200) -> list[int]:
    """Pages holding a raster image at least min_pixels wide and high (a notebook's plot),
    the page with the largest image first."""
    area: dict[int, int] = {}
    for line in run("pdfimages", "-list", str(pdf)).splitlines()[2:]:
        page, _, _, width, height = (int(c) if c.isdigit() else c for c in line.split()[:5])
        if width >= min_pixels and height >= min_pixels:
            area[page] = max(area.get(page, 0), width * height)
    return sorted(area, key=lambda page: (-area[page], page))


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("pdf", nargs="?", default=str(ROOT / "_build" / "latex" / "sslteach.pdf"))
    parser.add_argument("--min-pages", type=int, default=150)
    parser.add_argument("--max-overfull", type=float, default=40.0, help="points (default 40)")
    parser.add_argument("--min-ink", type=float, default=0.02, help="non-white share of a rendered page")
    parser.add_argument("--min-colour", type=float, default=0.01, help="coloured share of the figure page")
    parser.add_argument("--out", help="keep the rendered pages here (default: a temporary folder)")
    parser.add_argument("--max-blank", type=int, default=0, help="blank or header-only pages allowed")
    parser.add_argument("--max-placeholders", type=int, default=0,
                        help="output placeholders allowed (known ones, until their cells are fixed)")
    args = parser.parse_args(argv)

    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        sys.exit(f"check_pdf: {', '.join(missing)} not found: apt-get install poppler-utils")
    pdf = Path(args.pdf)
    if not pdf.is_file() or pdf.stat().st_size == 0:
        sys.exit(
            f"check_pdf: {pdf} is missing or empty: build it with jupyter-book build . --builder pdflatex"
        )

    errors = []
    info = dict(line.split(":", 1) for line in run("pdfinfo", str(pdf)).splitlines() if ":" in line)
    n_pages = int(info["Pages"])
    print(f"{pdf}: {n_pages} pages, {pdf.stat().st_size / 2**20:.1f} MiB")
    if n_pages < args.min_pages:
        errors.append(f"{n_pages} pages, expected at least {args.min_pages}")

    pages = run("pdftotext", "-enc", "UTF-8", str(pdf), "-").split("\f")[:n_pages]
    whole = normalise(" ".join(pages))
    for name, title in toc_titles().items():
        count = whole.count(normalise(title))
        if count < 2:
            errors.append(
                f"title of {name} ({title!r}) found {count} time(s) in the text, expected 2 or more"
            )
    raw = raw_markers(pages)
    placeholders = [r for r in raw if ": output placeholder: " in r]
    if 0 < len(placeholders) <= args.max_placeholders:
        print(f"KNOWN {len(placeholders)} output placeholder(s) (at most {args.max_placeholders} allowed):")
        for r in placeholders:
            print("  ", r)
        raw = [r for r in raw if r not in placeholders]
    errors += raw
    blank = blank_pages(pages, image_pages(pdf))
    print(f"blank or header-only pages: {len(blank)} {blank[:20]}")
    if len(blank) > args.max_blank:
        errors.append(f"{len(blank)} blank or header-only pages (at most {args.max_blank}): {blank[:20]}")
    errors += [f"LaTeX numbers chapters unlike the site: {x}" for x in latex_chapter_numbers(pages)][:10]

    log = pdf.with_suffix(".log")
    if log.is_file():
        errors += log_problems(log.read_text(encoding="utf-8", errors="replace"), args.max_overfull)
    else:
        print(f"(no {log.name} beside the PDF: LaTeX log not checked)")

    # A page with display maths: the first with an equation number "(c.n)" ending a line of
    # its layout text that uses a maths font. A page with a figure: the one with the largest
    # plot (the thin lines of a small plot make too few coloured pixels at 60 dpi).
    layout = run("pdftotext", "-layout", "-enc", "UTF-8", str(pdf), "-").split("\f")
    math_page = next(
        (i for i, text in enumerate(layout, 1) if EQUATION_NUMBER.search(text) and math_fonts(pdf, i)), None
    )
    figures = figure_pages(pdf)
    if math_page is None:
        errors.append("no page with a numbered display equation set in a maths font")
    if not figures:
        errors.append("no page with a figure (raster image of at least 200 x 200 pixels)")

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out) if args.out else Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        # the five pages with the largest plots: each must have ink, and one at least colour
        # (a grey diagram, such as a critical-difference plot, may be the largest)
        colours = {}
        for what, page in (("maths", math_page), *(("figure", p) for p in figures[:5])):
            if page is None:
                continue
            path, pixels = render(pdf, page, out)
            dark, colour = ink(pixels)
            print(
                f"{what} page {page}: {pixels.shape[1]}x{pixels.shape[0]} px,",
                f"{dark:.1%} ink, {colour:.1%} colour",
            )
            if dark < args.min_ink:
                errors.append(f"{what} page {page} renders nearly blank ({dark:.2%} non-white pixels)")
            if what == "figure":
                colours[page] = colour
            if args.out:
                print(f"  {path}")
        if colours and max(colours.values()) < args.min_colour:
            errors.append(
                f"no coloured plot on the figure pages {sorted(colours)} "
                f"(at most {max(colours.values()):.2%} coloured pixels)"
            )

    for error in errors:
        print("FAIL", error)
    if errors:
        sys.exit(f"check_pdf: {len(errors)} problem(s)")
    print(
        f"check_pdf: OK ({len(toc_titles())} titles found,",
        f"maths on page {math_page}, {len(figures)} pages with figures)",
    )


if __name__ == "__main__":
    main()
