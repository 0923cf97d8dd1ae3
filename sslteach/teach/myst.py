"""MyST to Jupyter Markdown: the book's notebooks as a reader opens them in Jupyter or Colab.

The chapters are written for Jupyter Book: their Markdown cells use MyST directives
(```` ```{exercise} ````, ```` ```{prf:theorem} ````, ...) and roles (``{eq}``, ``{cite:t}``,
``{doc}``, ...) that plain Jupyter, JupyterLab and Colab show as raw text. This module
rewrites them into the Markdown and LaTeX that every notebook front end renders, with the
numbers the book gives them:

* labelled display equations ``$$ ... $$ (eq:label)`` get ``\\tag{c.n}`` with the book's
  number (the book numbers labelled equations per chapter, ``c`` the chapter's number, in
  the order of ``_toc.yml``), and an anchor ``equation-eq-label`` as on the site;
* figures, tables, theorems, propositions, definitions, ... and exercises get the book's
  numbers (one counter per chapter and kind: Figure 3.1, Theorem 1.2, Exercise 3.2),
  solutions say which exercise they solve;
* ``{eq}``, ``{prf:ref}``, ``{ref}``, ``{numref}`` become links with the book's text:
  within the page to the anchor, to another page on the published site;
* ``{cite:t}`` / ``{cite:p}`` become author-year text ("Liu et al. [2009]",
  "[Schölkopf and Smola, 2002]") as on the site, linked to the site's bibliography;
* ``{doc}`` and ``{py:func}`` / ``{py:class}`` ... become links to the site's pages;
* an admonition with ``:class: dropdown`` (a hint, an answer, a lecture plan) becomes a
  closed HTML ``<details>`` block; a figure's alt text (``metadata.mystnb.image.alt``) goes
  to the image output's metadata and, folded as its description, under the caption.

A directive or role the converter does not know raises a ``ValueError`` naming it, so that
a new construct in a chapter cannot slip through as raw text.

Only the standard library is needed: ``convert_notebook`` works on the notebook's JSON
(a dict as ``json.load`` or ``nbformat.read`` gives it).
"""

from __future__ import annotations

import copy
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Numbers", "book_numbers", "convert_markdown", "convert_notebook", "site_url", "toc_chapters"]

ROOT = Path(__file__).resolve().parents[2]

# Kinds of sphinx-proof directives; each has its own counter in each chapter.
PRF_KINDS = (
    "algorithm", "axiom", "conjecture", "corollary", "criterion", "definition", "example",
    "lemma", "observation", "property", "proposition", "remark", "theorem", "assumption",
)
ADMONITIONS = (
    "note", "warning", "tip", "hint", "important", "caution", "attention", "danger",
    "error", "seealso", "margin", "sidebar", "epigraph", "topic",
)
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|:{3,})\{(?P<name>[^}\s]+)\}[ \t]*(?P<arg>.*)$")
OPTION = re.compile(r"^[ \t]*:(?P<key>[\w-]+):[ \t]*(?P<value>.*)$")
ROLE = re.compile(r"\{(?P<name>[a-zA-Z][\w:+-]*)\}`(?P<body>[^`]*)`")
EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
LABELLED_EQ = re.compile(r"^[ \t]*\$\$.*?\$\$[ \t]*\((?P<label>[^()\s]+)\)[ \t]*$", re.M | re.S)
LITERAL_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*[\w+-]+[ \t]*$")  # with a language
TARGET = re.compile(r"^[ \t]*\((?P<label>[^()\s]+)\)=[ \t]*$")


@dataclass
class Numbers:
    """What the converter needs to know about the book: numbers, titles, citations, the site.

    ``docname`` is the page being converted (``"notebooks/00_foundations"``); the other
    fields map labels to ``(docname, text)``. ``book_numbers()`` builds it from the
    repository; a plain ``{label: number}`` dict passed to ``convert_markdown`` is taken as
    the equation numbers of a single page.
    """

    docname: str = ""
    equations: dict = field(default_factory=dict)  # label -> (docname, number): "3.4" in the book
    targets: dict = field(default_factory=dict)  # label -> (docname, text)
    titles: dict = field(default_factory=dict)  # docname -> title
    citations: dict = field(default_factory=dict)  # key -> (authors, year)
    site: str = ""
    terms: dict = field(default_factory=dict)  # glossary term, lower case -> (docname, term)

    def for_doc(self, docname):
        """The same book, seen from page ``docname``."""
        return Numbers(docname, self.equations, self.targets, self.titles, self.citations, self.site,
                       self.terms)


# --------------------------------------------------------------------------- the book


def site_url(root=ROOT):
    """The published site: ``https://OWNER.github.io/NAME/`` from ``_config.yml``'s repository.url.

    ``html.baseurl`` wins when ``_config.yml`` sets it.
    """
    config = (Path(root) / "_config.yml").read_text()
    base = re.search(r"^html:\s*\n(?:[ \t]+.*\n)*?[ \t]+baseurl:\s*[\"']?([^\s\"']+)", config, re.M)
    if base:
        return base.group(1).rstrip("/") + "/"
    repo = re.search(r"repository:\s*\n\s*url:\s*\S*github\.com/([\w.-]+)/([\w.-]+)", config)
    if not repo:
        raise ValueError("_config.yml sets neither html.baseurl nor a GitHub repository.url: "
                         "set one so that cross-page links can point to the published site")
    owner, name = repo.group(1), repo.group(2).removesuffix(".git")
    return f"https://{owner}.github.io/{name}/"


def toc_docnames(root=ROOT):
    """Every page of ``_toc.yml`` in reading order (root first)."""
    text = (Path(root) / "_toc.yml").read_text()
    return [m.group(1).removesuffix(".md").removesuffix(".ipynb")
            for m in re.finditer(r"(?:root|file):\s*(\S+)", text)]


CHAPTERS_CAPTION = "Chapters"  # the _toc.yml part whose entries are the chapters
FIRST_CHAPTER = 0  # Foundations is chapter 0


def toc_chapters(root=ROOT, caption=CHAPTERS_CAPTION, start=FIRST_CHAPTER):
    """``{docname: chapter number}`` for every page of the book's chapters.

    The chapters are the entries of the ``_toc.yml`` part captioned ``caption``, numbered
    from ``start`` (Foundations is chapter 0, then Chapters 1-5); the pages under a chapter
    (its ``sections:``: a reproduction page, the scorecard) belong to it and continue its
    numbers. A ``_toc.yml`` without that part makes every top-level entry a chapter. The
    site and the PDF number the same way (``book/_ext/chapter_numbers.py``); pages outside
    the chapters (front and back matter) are not in the result and number nothing.
    """
    lines = [re.sub(r"(^|\s)#.*$", "", x) for x in (Path(root) / "_toc.yml").read_text().splitlines()]
    captions = [m.group(1).strip("\"'") for x in lines
                for m in [re.match(r"^\s*-\s*caption:\s*(.*?)\s*$", x)] if m]
    inside = caption not in captions  # no such part: the whole table of contents
    out, number, top = {}, start - 1, None
    for line in lines:
        part = re.match(r"^\s*-\s*caption:\s*(.*?)\s*$", line)
        if part:
            inside, top = part.group(1).strip("\"'") == caption, None
            continue
        entry = re.match(r"^(\s*)-\s*file:\s*(\S+)", line)
        if not (inside and entry):
            continue
        doc = entry.group(2).strip("\"'").removesuffix(".md").removesuffix(".ipynb")
        if top is None or len(entry.group(1)) <= top:  # a chapter, not one of its sections
            top = len(entry.group(1))
            number += 1
        out[doc] = number
    return out


def _page_markdown(root, docname):
    """The Markdown of a page, in order: Markdown cells, and what code cells add to it.

    A code cell adds its figure (``metadata.mystnb.figure``, as a ``{figure}`` stand-in) and
    its ``text/markdown`` outputs (e.g. ``show_table``'s ``{table}``), where the book
    numbers them.
    """
    import json

    path = Path(root) / (docname + ".ipynb")
    if path.exists():
        nb = json.loads(path.read_text())
        return [t for c in nb["cells"] for t in _cell_markdown(c)]
    path = Path(root) / (docname + ".md")
    return [path.read_text()] if path.exists() else []


def _figure_options(cell):
    """The myst-nb figure options of a code cell (``metadata.mystnb.figure``), or None."""
    fig = (cell.get("metadata", {}).get("mystnb") or {}).get("figure")
    return fig if isinstance(fig, dict) else None


def _alt_text(cell):
    """The text alternative of a code cell's figure (``metadata.mystnb.image.alt``), or ""."""
    image = (cell.get("metadata", {}).get("mystnb") or {}).get("image")
    return str(image.get("alt") or "").strip() if isinstance(image, dict) else ""


def _markdown_outputs(cell):
    """The ``text/markdown`` outputs of a code cell, as text."""
    out = []
    for o in cell.get("outputs", []):
        md = o.get("data", {}).get("text/markdown")
        if md is not None:
            out.append("".join(md) if isinstance(md, list) else md)
    return out


def _cell_markdown(cell):
    """What a cell contributes to a page's Markdown, in the order the book renders it."""
    if cell.get("cell_type") == "markdown":
        return [_source(cell)]
    if cell.get("cell_type") != "code":
        return []
    texts = []
    fig = _figure_options(cell)
    has_image = any(k.startswith("image/") for o in cell.get("outputs", []) for k in o.get("data", {}))
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        if fig and any(k.startswith("image/") for k in data):
            name = f"\n:name: {fig['name']}" if fig.get("name") else ""
            texts.append(f"```{{figure}} output{name}\n\n{fig.get('caption', '')}\n```")
        if "text/markdown" in data:
            md = data["text/markdown"]
            texts.append("".join(md) if isinstance(md, list) else md)
    if fig and not has_image:  # not executed yet: still a figure of the book
        name = f"\n:name: {fig['name']}" if fig.get("name") else ""
        texts.append(f"```{{figure}} output{name}\n\n{fig.get('caption', '')}\n```")
    return texts


def _source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


_LATEX_ACCENTS = {"'": "\u0301", "`": "\u0300", '"': "\u0308", "^": "\u0302", "~": "\u0303",
                  "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "c": "\u0327",
                  "H": "\u030b", "k": "\u0328", "r": "\u030a"}


def latex_to_text(s):
    """Decode the LaTeX accents and braces of a BibTeX field (``Bod{\\'o}`` -> ``Bodó``)."""
    def accent(m):
        return unicodedata.normalize("NFC", m.group(2) + _LATEX_ACCENTS[m.group(1)])
    s = re.sub(r"\\([`'\"^~=.uvcHkr])\s*\{?\s*([A-Za-z])\}?", accent, s)
    s = s.replace(r"\ss", "ß").replace(r"\&", "&").replace("--", "–")
    return re.sub(r"[{}]", "", s).strip()


def parse_bib(text):
    """``{key: (authors, year)}`` of a .bib file: "Torgerson", "Bodó and Csató", "Liu et al."."""
    out = {}
    for entry in re.split(r"^@", text, flags=re.M)[1:]:
        head = re.match(r"\s*\w+\s*\{\s*([^,\s]+)\s*,", entry)
        if not head:
            continue
        fields = dict((k.lower(), v) for k, v in re.findall(
            r"^\s*(\w+)\s*=\s*\{(.*)\}\s*,?\s*$", entry, re.M))
        names = fields.get("author") or fields.get("editor") or ""
        last = [latex_to_text(n.split(",")[0] if "," in n else n.split()[-1])
                for n in re.split(r"\s+and\s+", names) if n.strip()]
        if len(last) == 1:
            authors = last[0]
        elif len(last) == 2:
            authors = f"{last[0]} and {last[1]}"
        elif last:
            authors = f"{last[0]} et al."
        else:
            authors = latex_to_text(fields.get("title", head.group(1)))
        out[head.group(1)] = (authors, fields.get("year", "n.d."))
    return out


def book_numbers(root=ROOT):
    """Number every labelled equation, figure, table, theorem-like block and exercise as the book does.

    The book (``book/_ext/chapter_numbers.py`` over Sphinx's numbers for figures, tables,
    ``math_numfig`` equations, sphinx-proof and sphinx-exercise) numbers them per chapter
    and kind, in ``_toc.yml`` order: Figure 3.1, (3.4), Theorem 1.2, Exercise 3.2, Table 5.7,
    Theorems and Propositions separately. The chapter number is the book's
    (``toc_chapters``: Foundations 0, Chapters 1-5); a chapter's reproduction page continues
    its numbers. A numbered item on a page outside the chapters is refused (``ValueError``),
    as the book's build refuses it.
    """
    root = Path(root)
    nums = Numbers(site=site_url(root))
    bib = root / "book" / "references.bib"
    if bib.exists():
        nums.citations = parse_bib(bib.read_text())
    chapters = toc_chapters(root)
    counters = {}
    for doc in toc_docnames(root):
        chapter = chapters.get(doc)
        prefix = None if chapter is None else f"{chapter}."
        for text in _page_markdown(root, doc):
            if doc not in nums.titles:
                title = re.search(r"^#[ \t]+(.+?)[ \t]*$", text, re.M)
                if title:
                    nums.titles[doc] = title.group(1)
            _scan(text, doc, nums, counters.setdefault(chapter, {}), prefix)
    return nums


def _scan(text, doc, nums, counters, prefix=""):
    """Record the labels of one Markdown cell, in order (see ``book_numbers``).

    ``counters`` are the chapter's (kind -> count so far); a number is ``prefix`` then the
    count: "3." and 4 give "3.4". ``prefix=None`` (a page outside the chapters) refuses a
    numbered item; ``""`` counts without a chapter (a notebook outside the book: 1, 2, ...).
    """
    lines = text.split("\n")
    joined = "\n".join(lines)
    # labelled $$ equations and {math} directives, in the order they appear
    events = [(m.start(), "eq", m.group("label")) for m in LABELLED_EQ.finditer(joined)]
    pos = 0
    literal = None  # the fence of a literal block with a language (```python, ````md): no MyST inside
    for i, line in enumerate(lines):
        fence = LITERAL_FENCE.match(line)
        if literal is not None:
            if line.strip() == literal:
                literal = None
            pos += len(line) + 1
            continue
        if fence and not FENCE.match(line):
            literal = fence.group("fence")
            pos += len(line) + 1
            continue
        m = FENCE.match(line)
        t = TARGET.match(line)
        if t:
            nxt = next((x for x in lines[i + 1:] if x.strip()), "")
            heading = re.match(r"^#+\s+(.*)$", nxt)
            text = heading.group(1) if heading else t.group("label")
            events.append((pos, "target", (t.group("label"), text)))
        if m:
            name = m.group("name")
            opts = {}
            for nxt in lines[i + 1:]:
                o = OPTION.match(nxt)
                if not o:
                    break
                opts[o.group("key")] = o.group("value").strip()
            kind = name.removeprefix("prf:")
            if name == "math" and "label" in opts:
                events.append((pos, "eq", opts["label"]))
            elif name == "exercise" or (name.startswith("prf:") and kind in PRF_KINDS):
                events.append((pos, kind, opts.get("label")))
            elif name in ("figure", "table") and opts.get("name"):
                # Sphinx numbers only the named ones (numfig needs an id)
                events.append((pos, name, opts.get("name")))
            elif name == "glossary":
                _glossary_terms(lines[i + 1:], m.group("fence"), doc, nums)
        pos += len(line) + 1
    for _, kind, label in sorted(events, key=lambda e: e[0]):
        if kind == "target":
            nums.targets[label[0]] = (doc, label[1])
            continue
        if prefix is None:
            raise ValueError(f"{doc}: a numbered {kind} ({label or 'no label'}) outside the chapters: "
                             "the book numbers only the chapters' items (book/_ext/chapter_numbers.py)")
        counters[kind] = counters.get(kind, 0) + 1
        number = f"{prefix}{counters[kind]}" if prefix else counters[kind]
        if kind == "eq":
            nums.equations[label] = (doc, number)
        elif label:
            nums.targets[label] = (doc, f"{kind.capitalize()} {number}")


def _glossary_terms(lines, fence, doc, nums):
    """Record the terms of a ``{glossary}`` block: its unindented lines, up to the closing fence."""
    for line in lines:
        if line.strip() == fence:
            return
        if line.strip() and not line[0].isspace() and not OPTION.match(line):
            nums.terms[line.strip().lower()] = (doc, line.strip())


def term_anchor(term):
    """The id Sphinx gives a glossary entry: ``term-`` and the term as ASCII words joined by -."""
    ascii_ = unicodedata.normalize("NFKD", term).encode("ascii", "ignore").decode("ascii")
    return "term-" + re.sub(r"[^a-zA-Z0-9]+", "-", ascii_).strip("-")


_BOOK = None


def _book():
    global _BOOK
    if _BOOK is None:
        _BOOK = book_numbers()
    return _BOOK


# --------------------------------------------------------------------------- conversion


def convert_notebook(nb, numbers=None, docname=None):
    """A deep copy of notebook ``nb`` whose Markdown cells are plain Jupyter Markdown.

    ``nb`` is the notebook's JSON (dict) or an ``nbformat`` node; code cells and their outputs
    are kept as they are. ``numbers`` defaults to the book's (``book_numbers()``);
    ``docname`` (``"notebooks/00_foundations"``) says which page of the book ``nb`` is and
    defaults to the page whose title (first ``#`` heading) is the notebook's.
    """
    out = copy.deepcopy(nb)
    cells = out.get("cells")
    if not isinstance(cells, list):
        raise ValueError("convert_notebook needs a notebook (a dict with a 'cells' list), "
                         "e.g. json.load(open('notebooks/00_foundations.ipynb'))")
    book = numbers if numbers is not None else _book()
    if docname is None:
        title = next((m.group(1) for c in cells if c.get("cell_type") == "markdown"
                      for m in [re.search(r"^#[ \t]+(.+?)[ \t]*$", _source(c), re.M)] if m), None)
        docname = next((d for d, t in book.titles.items() if t == title), "")
    page = book.for_doc(docname)
    if not docname:  # a notebook outside the book: number its own equations from 1
        page = Numbers("", dict(book.equations), dict(book.targets), dict(book.titles),
                       book.citations, book.site)
        counters = {}
        for c in cells:
            for t in _cell_markdown(c):
                _scan(t, "", page, counters)
    converted = []
    for k, c in enumerate(cells):
        converted.append(c)
        if c.get("cell_type") == "markdown":
            text = convert_markdown(_source(c), page)
            c["source"] = text
        elif c.get("cell_type") == "code":
            for o in c.get("outputs", []):
                data = o.get("data", {})
                if "text/markdown" in data:
                    md = data["text/markdown"]
                    md = "".join(md) if isinstance(md, list) else md
                    data["text/markdown"] = convert_markdown(md, page)
            fig = _figure_options(c)
            alt = _alt_text(c)
            if alt:  # where renderers look for it (nbconvert's HTML: the img's alt)
                for o in c.get("outputs", []):
                    for mime in o.get("data", {}):
                        if mime.startswith("image/"):
                            o.setdefault("metadata", {}).setdefault(mime, {})["alt"] = alt
            if fig and fig.get("caption") or alt:
                source = _Converter(page).directive(
                    "figure", "", {"name": fig["name"]} if fig and fig.get("name") else {},
                    [str(fig["caption"])], image=False) if fig and fig.get("caption") else ""
                if alt:  # and for every reader: JupyterLab and Colab show no alt text
                    source += ("\n" if source else "") + _details("", "Description", alt)
                converted.append({
                    "cell_type": "markdown",
                    "id": f"{c.get('id', k)}-caption"[:64],
                    "metadata": {},
                    "source": source,
                })
    out["cells"] = converted
    return out


def convert_markdown(text, numbers):
    """Rewrite the MyST of one Markdown cell as Markdown + LaTeX that Jupyter renders.

    ``numbers`` is a ``Numbers`` (``book_numbers().for_doc(docname)``) or a dict
    ``{equation label: number}`` for a page on its own.
    """
    if not isinstance(text, str):
        raise ValueError(f"convert_markdown needs the cell's text as a str, got {type(text).__name__}")
    if not isinstance(numbers, Numbers):
        if not hasattr(numbers, "items"):
            raise ValueError("numbers must be a Numbers (book_numbers().for_doc(page)) or a dict "
                             "{equation label: number}")
        numbers = Numbers(equations={k: ("", v) for k, v in numbers.items()})
    return _Converter(numbers).block(text.split("\n"))


class _Converter:
    def __init__(self, nums):
        self.n = nums

    # ---- links
    def _page_url(self, doc):
        here = self.n.docname
        if doc == here:
            return ""
        return f"{self.n.site}{doc}.html"

    def _link(self, text, doc, anchor):
        url = self._page_url(doc)
        return f"[{text}]({url}#{anchor})" if anchor else f"[{text}]({url or '#'})"

    def _target(self, label, role):
        if label not in self.n.targets:
            raise ValueError(f"{{{role}}}`{label}`: no such label in the book (a theorem, exercise, "
                             "figure or `(label)=` target); fix the reference or the label")
        return self.n.targets[label]

    # ---- blocks
    def block(self, lines):
        out, text = [], []  # text: plain lines waiting for their roles (a role may span lines)

        def flush():
            if text:
                out.extend(self.inline("\n".join(text)).split("\n"))
                text.clear()

        i = 0
        while i < len(lines):
            line = lines[i]
            m = FENCE.match(line)
            code = re.match(r"^[ \t]*(`{3,}|~{3,})", line)
            t = TARGET.match(line)
            special = m or code or t or re.match(r"^[ \t]*(%|\+\+\+|\$\$)", line)
            if not special:
                text.append(line)
                i += 1
                continue
            flush()
            if m:
                end = self._close(lines, i, m.group("fence"))
                opts, body_start = {}, i + 1
                while body_start < end:
                    o = OPTION.match(lines[body_start])
                    if not o:
                        break
                    opts[o.group("key")] = o.group("value").strip()
                    body_start += 1
                body = lines[body_start:end]
                indent = m.group("indent")
                body = [b[len(indent):] if b.startswith(indent) else b.lstrip() for b in body]
                rendered = self.directive(m.group("name"), m.group("arg").strip(), opts, body)
                out.extend(indent + r if r else r for r in rendered.split("\n"))
                i = end + 1
                continue
            if code:  # an ordinary code block: copied untouched
                end = self._close(lines, i, code.group(1))
                out.extend(lines[i:end + 1])
                i = end + 1
                continue
            if t:
                out.extend([_a(t.group("label")), ""])
                i += 1
                continue
            if re.match(r"^[ \t]*%", line) or re.match(r"^[ \t]*\+\+\+", line):  # MyST comment, block break
                i += 1
                continue
            if re.match(r"^[ \t]*\$\$", line):
                i = self._display_math(lines, i, out)
                continue
        flush()
        return "\n".join(out)

    @staticmethod
    def _close(lines, start, fence):
        char, n = fence[0], len(fence)
        for j in range(start + 1, len(lines)):
            s = lines[j].strip()
            if len(s) >= n and set(s) == {char}:
                return j
        return len(lines)  # unclosed: to the end of the cell, as MyST reads it

    def _display_math(self, lines, i, out):
        """``$$ ... $$`` with an optional ``(label)``: copy, adding ``\\tag{n}`` and an anchor."""
        first = lines[i]
        indent = first[: len(first) - len(first.lstrip())]
        rest = first.strip()[2:]
        j = i
        if "$$" in rest:
            body_lines, tail = [rest[: rest.index("$$")]], rest[rest.index("$$") + 2:]
        else:
            body_lines = [rest] if rest.strip() else []
            j = i + 1
            while j < len(lines) and "$$" not in lines[j]:
                body_lines.append(lines[j])
                j += 1
            if j == len(lines):
                raise ValueError("a display equation opened with $$ is never closed: "
                                 + first.strip()[:60])
            last = lines[j]
            k = last.index("$$")
            if last[:k].strip():
                body_lines.append(last[:k])
            tail = last[k + 2:]
        label = re.fullmatch(r"\s*\((?P<label>[^()\s]+)\)\s*", tail)
        if tail.strip() and not label:
            raise ValueError(f"text after a closing $$ that is not an equation label: {tail.strip()!r}")
        body = "\n".join(body_lines).strip("\n")
        if label:
            name = label.group("label")
            if name not in self.n.equations:
                raise ValueError(f"equation label {name!r} has no number: build numbers with "
                                 "book_numbers() or pass {label: number}")
            number = self.n.equations[name][1]
            anchor = "equation-" + _anchor(name)
            out.extend([indent + _a(anchor), ""])
            out.extend([f"{indent}$$", body, f"{indent}\\tag{{{number}}}", f"{indent}$$"])
        else:
            out.extend([f"{indent}$$", body, f"{indent}$$"])
        return j + 1

    def directive(self, name, arg, opts, body, image=True):
        text = self.block(body).strip("\n")
        label = opts.get("label") or opts.get("name")
        anchor = _a(label) if label else ""
        kind = name.removeprefix("prf:")
        if name == "exercise" or (name.startswith("prf:") and kind in PRF_KINDS):
            head = self.n.targets.get(label, ("", kind.capitalize()))[1] if label else kind.capitalize()
            title = f" ({self.inline(arg)})" if arg else ""
            return f"{anchor}**{head}**{title}\n\n{text}\n"
        if name == "prf:proof":
            return f"*Proof.* {text}\n\n<p align=\"right\">∎</p>\n" if text else "*Proof.* ∎\n"
        if name == "solution-start" or name == "solution":
            ex = self._target(arg, name)
            return f"**Solution to {self._link(ex[1], ex[0], arg)}**\n\n{text}".rstrip() + "\n"
        if name == "solution-end":
            return ""
        folded = "dropdown" in str(opts.get("class", "")).split()
        if name == "admonition":
            if folded:
                return _details(anchor, self.inline(arg), text)
            return f"{anchor}**{self.inline(arg)}**\n\n{text}\n"
        if name in ADMONITIONS:
            head = "See also" if name == "seealso" else name.capitalize()
            first = f" {self.inline(arg)}" if arg else ""
            if folded:
                return _details(anchor, f"{head}{first}", text)
            return f"{anchor}**{head}.**{first}\n\n{text}\n"
        if name in ("figure", "image"):
            src = arg
            words = [b for b in body if b.strip()]
            caption = self.inline(words[0].strip()) if name == "figure" and words else ""
            number = self.n.targets.get(label, ("", ""))[1] if label else ""
            cap = f"**{number}.** {caption}" if number and caption else (f"*{caption}*" if caption else "")
            if not image:  # the caption of a code cell's figure (myst-nb's figure metadata)
                return f"{anchor}{cap}\n"
            return f"{anchor}![{caption or src}]({src})\n\n{cap}\n" if cap else f"{anchor}![{src}]({src})\n"
        if name == "math":
            number = self.n.equations.get(label, ("", None))[1] if label else None
            tag = f"\n\\tag{{{number}}}" if number else ""
            pre = _a("equation-" + _anchor(label)) + "\n\n" if number else ""
            return f"{pre}$$\n{chr(10).join(body).strip()}{tag}\n$$\n"
        if name in ("code", "code-block", "sourcecode"):
            return f"```{arg}\n" + "\n".join(body) + "\n```"
        if name in ("bibliography", "tableofcontents", "toctree", "glossary", "only", "raw", "index"):
            return ""
        if name in ("list-table", "csv-table", "table"):
            number = self.n.targets.get(label, ("", ""))[1] if label else ""
            caption = self.inline(arg)
            head = f"**{number}.** {caption}" if number and caption else caption
            return f"{anchor}{head}\n\n{text}\n"
        raise ValueError(f"MyST directive {{{name}}} has no Jupyter form yet: add it to "
                         "sslteach/teach/myst.py (_Converter.directive) with a test")

    # ---- roles
    def inline(self, line):
        # roles in inline code spans (``{eq}`x` `` as literal text) are left alone
        parts = re.split(r"(``(?:(?!``).)+``)", line, flags=re.S)
        return "".join(p if p.startswith("``") else ROLE.sub(self.role, p) for p in parts)

    def role(self, m):
        name, body = m.group("name"), m.group("body")
        explicit = EXPLICIT.match(body)
        if explicit:
            text, target = explicit.group("text"), explicit.group("target").strip()
        else:
            text, target = None, body.strip()
        if name == "eq":
            if target not in self.n.equations:
                raise ValueError(f"{{eq}}`{target}`: no labelled equation has this label")
            doc, number = self.n.equations[target]
            return self._link(text or f"({number})", doc, "equation-" + _anchor(target))
        if name in ("prf:ref", "ref", "numref"):
            doc, default = self._target(target, name)
            shown = text or default
            if name == "numref" and text and "%s" in text:
                shown = text.replace("%s", default.split()[-1])
            return self._link(shown, doc, target)
        if name.startswith("cite"):
            return self.cite(name, target)
        if name == "doc":
            doc = _resolve_doc(target, self.n.docname)
            title = text or self.n.titles.get(doc, doc.rsplit("/", 1)[-1])
            return f"[{title}]({self._page_url(doc) or '#'})"
        if name.startswith("py:") or name in ("func", "class", "meth", "mod", "data", "attr", "obj"):
            kind = name.removeprefix("py:")
            short = target.startswith("~")
            full = target.lstrip("~.")
            shown = text or (full.rsplit(".", 1)[-1] if short else full)
            if kind in ("func", "meth") and not text:
                shown += "()"
            parts = full.split(".")
            page = f"book/api/{parts[1]}" if len(parts) > 1 and parts[0] == "sslteach" else None
            if page is None:
                return f"`{shown}`"
            return f"[`{shown}`]({self.n.site}{page}.html#{full})"
        if name == "math":
            return f"${body}$"
        if name == "term":
            if target.lower() not in self.n.terms:
                raise ValueError(f"{{term}}`{body}`: no entry {target!r} in the book's glossary "
                                 "(book/glossary.md): add it there or fix the term")
            doc, term = self.n.terms[target.lower()]
            return self._link(text or target, doc, term_anchor(term))
        if name in ("abbr", "command", "file", "samp", "kbd", "guilabel", "program", "dfn"):
            shown = text or target
            return f"`{shown}`" if name in ("command", "file", "samp", "kbd", "program") else shown
        if name == "download":
            file = target.rsplit("/", 1)[-1]
            return f"[{text or file}]({self.n.site}_downloads/{file})"
        if name in ("sub", "sup"):
            return f"<{name}>{body}</{name}>"
        raise ValueError(f"MyST role {{{name}}} has no Jupyter form yet: add it to "
                         "sslteach/teach/myst.py (_Converter.role) with a test")

    def cite(self, name, keys):
        refs = []
        for key in (k.strip() for k in keys.split(",")):
            if key not in self.n.citations:
                raise ValueError(f"{{{name}}}`{key}`: no entry {key!r} in book/references.bib")
            refs.append(self.n.citations[key])
        url = f"{self.n.site}book/bibliography.html"
        if name in ("cite:t", "cite:ts"):
            return ", ".join(f"{a} [[{y}]({url})]" for a, y in refs)
        if name == "cite:year":
            return ", ".join(f"[{y}]({url})" for _, y in refs)
        if name == "cite:author":
            return ", ".join(a for a, _ in refs)
        if name in ("cite", "cite:p", "cite:ps"):
            return "[" + "; ".join(f"[{a}, {y}]({url})" for a, y in refs) + "]"
        raise ValueError(f"citation role {{{name}}} has no Jupyter form yet (cite, cite:p, cite:t, "
                         "cite:year and cite:author have)")


def _details(anchor, summary, text):
    """A folded block (a MyST ``:class: dropdown``): HTML ``<details>``, which Jupyter, Colab
    and GitHub render closed, its summary shown; the Markdown inside stays Markdown."""
    return f"{anchor}<details>\n<summary><b>{summary}</b></summary>\n\n{text}\n\n</details>\n"


def _a(anchor):
    """An HTML anchor that Jupyter and Colab keep (``id`` and the older ``name``)."""
    return f'<a id="{anchor}" name="{anchor}"></a>'


def _anchor(label):
    """Sphinx's id for a label: ``eq:linear-kernel`` -> ``eq-linear-kernel``."""
    return re.sub(r"[^\w-]+", "-", label.lower()).strip("-")


def _resolve_doc(target, here):
    target = target.removesuffix(".md").removesuffix(".ipynb")
    if target.startswith("/"):
        return target.lstrip("/")
    base = here.rsplit("/", 1)[0] if "/" in here else ""
    parts = (base.split("/") if base else []) + target.split("/")
    out = []
    for p in parts:
        if p == "..":
            if out:
                out.pop()
        elif p not in ("", "."):
            out.append(p)
    return "/".join(out)
