"""Per-chapter numbers: Figure 3.1, (3.4), Table 5.7, Theorem 1.2, Exercise 3.2.

Sphinx numbers figures, tables, labelled equations (``math_numfig``) and the enumerable
nodes of extensions (sphinx-proof's theorems, propositions, ...; sphinx-exercise's
exercises) in ``env.toc_fignumbers``: ``{docname: {figtype: {id: (n,)}}}``, which
``TocTreeCollector.assign_figure_numbers`` fills on ``env-get-updated``. The toctree is not
``numbered``, so every number is a single count over the whole book, in toctree order.
Every place that shows a number reads it from there: the HTML writer (captions, equation
numbers), ``{numref}`` / ``{eq}``, sphinx-proof's titles and ``{prf:ref}``,
sphinx-exercise's titles and references, on the site and in the LaTeX of the PDF.

This extension rewrites those numbers, after the collector, to ``(chapter, n)``: the
chapters are the entries of the root toctree whose caption is ``chapter_numbers_caption``
("Chapters"; without such a toctree, every entry of the root's toctrees), numbered from
``chapter_numbers_start`` (0: Foundations is chapter 0), and a page in a chapter's subtree
(a reproduction page, the scorecard) continues its chapter's count. No section numbers are
assigned (``env.toc_secnumbers`` stays empty), so headings and the sidebar show none. A
numbered item on a page outside the chapters (front and back matter) gets no number and a
warning (the book numbers only the chapters' items).

For the PDF, LaTeX numbers figures, tables and equations with its own counters: at the
start of each chapter this inserts ``\\setcounter{chapter}{N}`` and resets those counters
(the preamble in ``_config.yml`` defines ``\\thefigure`` as ``chapter.figure``, and so on;
LaTeX's own chapter numbering is off). Theorems and exercises are boxes whose numbers
sphinx-proof and sphinx-exercise write as text from ``env.toc_fignumbers``, so they follow.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging

logger = logging.getLogger(__name__)


def chapter_tops(env, caption, start):
    """``{docname: chapter number}`` for the chapters' own pages: the entries of the root's
    toctree captioned ``caption`` (or, if none is, of all its toctrees), from ``start``.

    As ``sslteach.teach.myst.toc_chapters`` reads them from ``_toc.yml`` for the reader notebooks.
    """
    toctrees = list(env.get_doctree(env.config.root_doc).findall(addnodes.toctree))
    if any(t.get("caption") == caption for t in toctrees):
        toctrees = [t for t in toctrees if t.get("caption") == caption]
    tops = [doc for toctree in toctrees for _, doc in toctree["entries"]]
    return {doc: number for number, doc in enumerate(tops, start)}


def chapters(env, caption, start):
    """``{docname: chapter number}`` for every page of a chapter (its subtree included)."""
    out = {}

    def walk(doc, number):
        if doc not in out:
            out[doc] = number
            for sub in env.toctree_includes.get(doc, []):
                walk(sub, number)

    for doc, number in chapter_tops(env, caption, start).items():
        walk(doc, number)
    return out


def renumber(app, env):
    """Rewrite ``env.toc_fignumbers`` from one count per kind to one count per chapter and kind."""
    if not env.config.numfig:
        return []
    of = chapters(env, app.config.chapter_numbers_caption, app.config.chapter_numbers_start)
    # the collector's numbers are single counts in reading order: sorting by them per kind
    # gives the reading order, and a chapter's pages are consecutive in it
    items = sorted((figtype, number, doc, node_id)
                   for doc, kinds in env.toc_fignumbers.items()
                   for figtype, ids in kinds.items()
                   for node_id, number in ids.items())
    counts, new = {}, {}
    for figtype, _, doc, node_id in items:
        if doc not in of:
            logger.warning("%s: the numbered %s %r is outside the chapters (caption %r): the book "
                           "numbers only the chapters' items; move it into a chapter or drop its "
                           "label/caption", doc, figtype, node_id, app.config.chapter_numbers_caption,
                           location=doc, type="chapter_numbers")
            continue
        key = (figtype, of[doc])
        counts[key] = counts.get(key, 0) + 1
        new.setdefault(doc, {}).setdefault(figtype, {})[node_id] = (of[doc], counts[key])
    old = getattr(env, "chapter_numbers_previous", {})
    env.toc_fignumbers = new
    env.chapter_numbers_previous = {d: {k: dict(v) for k, v in f.items()} for d, f in new.items()}
    return sorted(d for d in set(new) | set(old) if new.get(d) != old.get(d))


def latex_chapter_counters(app, doctree, docname):
    """In the PDF's assembled doctree, set LaTeX's chapter counter at each chapter's start."""
    if app.builder.format != "latex":
        return
    tops = chapter_tops(app.env, app.config.chapter_numbers_caption, app.config.chapter_numbers_start)
    for node in doctree.findall(addnodes.start_of_file):
        number = tops.get(node.get("docname"))
        if number is not None:
            node.insert(0, nodes.raw("", f"\\setcounter{{chapter}}{{{number}}}\\setcounter{{figure}}{{0}}"
                                         "\\setcounter{table}{0}\\setcounter{equation}{0}\n",
                                     format="latex"))


def setup(app):
    app.add_config_value("chapter_numbers_caption", "Chapters", "env")
    app.add_config_value("chapter_numbers_start", 0, "env")
    # after sphinx's TocTreeCollector (priority 500), which assigns the book-wide numbers
    app.connect("env-get-updated", renumber, priority=900)
    app.connect("doctree-resolved", latex_chapter_counters)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
