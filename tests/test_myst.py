"""The MyST -> Jupyter Markdown converter (sslteach.teach.myst) and the reader notebooks.

Unit tests of every directive and role the notebooks use, then the whole book: every
notebook converted and rendered by plain nbconvert (no book extensions) shows no raw MyST,
while the unconverted notebooks do (so the detector can fail).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sslteach.teach.myst import (
    Numbers,
    _markdown_outputs,
    book_numbers,
    convert_markdown,
    convert_notebook,
    parse_bib,
    site_url,
    term_anchor,
    toc_chapters,
)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SITE = "https://example.github.io/book/"


@pytest.fixture(scope="module")
def book():
    return book_numbers(ROOT)


def page(doc="notebooks/a"):
    """A two-page book: notebooks/a (equations 1-2, Theorem 1, Exercise 1) and notebooks/b."""
    return Numbers(
        docname=doc,
        equations={"eq:one": ("notebooks/a", 1), "eq:two": ("notebooks/a", 2), "eq:far": ("notebooks/b", 3)},
        targets={"thm-x": ("notebooks/a", "Theorem 1"), "ex-a": ("notebooks/a", "Exercise 1"),
                 "ex-b": ("notebooks/b", "Exercise 2"), "sec-b": ("notebooks/b", "Results")},
        titles={"notebooks/a": "Page A", "notebooks/b": "Page B", "book/api/kernels": "sslteach.kernels"},
        citations={"liu2009": ("Liu et al.", "2009"), "smola": ("Schölkopf and Smola", "2002")},
        site=SITE,
    )


# ---------------------------------------------------------------- equations


def test_labelled_equation_gets_the_book_number_as_tag_and_an_anchor():
    out = convert_markdown("Text:\n\n$$\nx = 1\n$$ (eq:two)\n\nmore", page())
    assert "\\tag{2}" in out and "(eq:two)" not in out
    assert 'id="equation-eq-two"' in out
    assert re.search(r"\$\$\nx = 1\n\\tag\{2\}\n\$\$", out)


def test_unlabelled_equation_is_left_unnumbered():
    out = convert_markdown("$$\na + b\n$$", page())
    assert out == "$$\na + b\n$$"


def test_equation_on_one_line_and_unclosed_equation():
    assert "\\tag{1}" in convert_markdown("$$ x = y $$ (eq:one)", page())
    with pytest.raises(ValueError, match="never closed"):
        convert_markdown("$$\nx = 1\n", page())


def test_eq_role_same_page_and_other_page():
    out = convert_markdown("eq. {eq}`eq:one` and {eq}`eq:far`", page())
    assert out == f"eq. [(1)](#equation-eq-one) and [(3)]({SITE}notebooks/b.html#equation-eq-far)"
    with pytest.raises(ValueError, match="no labelled equation"):
        convert_markdown("{eq}`eq:nope`", page())


def test_a_plain_dict_of_equation_numbers():
    assert "\\tag{7}" in convert_markdown("$$\nx\n$$ (eq:k)", {"eq:k": 7})
    assert convert_markdown("{eq}`eq:k`", {"eq:k": 7}) == "[(7)](#equation-eq-k)"


def test_math_directive_and_role():
    out = convert_markdown("```{math}\n:label: eq:one\nx^2\n```", page())
    assert "\\tag{1}" in out and "x^2" in out and "{math}" not in out
    assert convert_markdown("see {math}`a_1`", page()) == "see $a_1$"


# ---------------------------------------------------------------- blocks


def test_theorem_with_title_and_label_takes_the_book_number():
    out = convert_markdown("```{prf:theorem} Gram matrices are PSD\n:label: thm-x\n\nBody $x$.\n```", page())
    assert out.startswith('<a id="thm-x"')
    assert "**Theorem 1** (Gram matrices are PSD)" in out and "Body $x$." in out
    assert ":label:" not in out and "```" not in out


def test_proposition_definition_lemma_without_label():
    for kind in ("proposition", "definition", "lemma", "corollary"):
        out = convert_markdown(f"```{{prf:{kind}}}\nText.\n```", page())
        assert f"**{kind.capitalize()}**" in out and "prf:" not in out


def test_proof_keeps_its_display_maths_and_ends_with_a_box():
    out = convert_markdown("```{prf:proof}\nSince\n\n$$\na\n$$ (eq:one)\n\ndone.\n```", page())
    assert out.startswith("*Proof.* Since") and "\\tag{1}" in out and "∎" in out


def test_exercise_and_solution_across_cells():
    ex = convert_markdown("```{exercise}\n:label: ex-b\nProve it.\n```", page("notebooks/b"))
    assert "**Exercise 2**" in ex and "Prove it." in ex and 'id="ex-b"' in ex
    start = convert_markdown("```{solution-start} ex-b\n:class: dropdown\n```\nFirst step.",
                             page("notebooks/b"))
    assert start.startswith("**Solution to [Exercise 2](#ex-b)**") and "First step." in start
    assert ":class:" not in start
    assert convert_markdown("```{solution-end}\n```", page()).strip() == ""
    with pytest.raises(ValueError, match="no such label"):
        convert_markdown("```{solution-start} ex-missing\n```", page())


def test_nested_directives_with_longer_fences():
    text = "````{admonition} Notes\n:class: note\n\n```{prf:proof}\nInner.\n```\n````"
    out = convert_markdown(text, page())
    assert "**Notes**" in out and "*Proof.* Inner." in out and "```" not in out


def test_admonitions_and_figure():
    assert convert_markdown("```{note}\nCareful.\n```", page()).startswith("**Note.**")
    assert "**Warning.**" in convert_markdown("```{warning}\nHot.\n```", page())
    out = convert_markdown("```{figure} fig.png\n:name: fig-a\n\nA caption.\n```", page())
    assert "![A caption.](fig.png)" in out and "{figure}" not in out


def test_dropdowns_become_details_blocks_that_jupyter_renders():
    """A hint, an answer or any admonition with ``:class: dropdown`` folds, as on the site;
    the Markdown and maths inside stay Markdown (nbconvert renders them inside the block)."""
    hint = convert_markdown("```{hint}\n:class: dropdown\nUse **Cauchy-Schwarz** on $x$.\n```", page())
    assert hint.startswith("<details>\n<summary><b>Hint</b></summary>\n\nUse **Cauchy")
    assert hint.rstrip().endswith("</details>") and ":class:" not in hint and "```" not in hint
    answer = convert_markdown("```{admonition} Answer\n:class: dropdown\nIt is $2$.\n```", page())
    assert answer.startswith("<details>\n<summary><b>Answer</b></summary>") and "It is $2$." in answer
    plan = convert_markdown("```{admonition} Lecture plan (90 minutes)\n:class: note dropdown\n"
                            "| a | b |\n|---|---|\n| 1 | 2 |\n```", page())
    assert "<summary><b>Lecture plan (90 minutes)</b></summary>\n\n| a | b |" in plan
    open_tip = convert_markdown("```{admonition} Learning objectives\n:class: tip\nDerive.\n```", page())
    assert open_tip.startswith("**Learning objectives**") and "<details>" not in open_tip
    pytest.importorskip("nbconvert")
    html = rendered_markdown({"cells": [{"cell_type": "markdown", "id": "h", "metadata": {},
                                         "source": hint}], "metadata": {}, "nbformat": 4,
                              "nbformat_minor": 5})
    assert "<details>" in html and "<summary><b>Hint</b></summary>" in html
    assert "<strong>Cauchy-Schwarz</strong>" in html and "$x$" in html


def test_alt_text_goes_to_the_image_output_and_under_the_caption(book):
    image = {"output_type": "display_data", "metadata": {},
             "data": {"image/png": "AAAA", "text/plain": "<Figure>"}}
    alt = "Two moons of grey points; the six labelled ones are large."
    cell = code_cell([image], {"caption": "Moons.", "name": "fig-ch0-moons-graph"})
    cell["metadata"]["mystnb"]["image"] = {"alt": alt}
    nb = {"cells": [cell], "metadata": {}}
    out = convert_notebook(nb, book, "notebooks/00_foundations")
    assert out["cells"][0]["outputs"][0]["metadata"] == {"image/png": {"alt": alt}}
    caption = out["cells"][1]["source"]
    assert caption.startswith('<a id="fig-ch0-moons-graph" name="fig-ch0-moons-graph"></a>**Figure 0.')
    assert f"<details>\n<summary><b>Description</b></summary>\n\n{alt}\n\n</details>" in caption
    assert nb["cells"][0]["outputs"][0]["metadata"] == {}, "the input is unchanged"
    cell["metadata"]["mystnb"].pop("figure")  # alt text without a caption: still described
    out = convert_notebook(nb, book, "notebooks/00_foundations")
    assert out["cells"][1]["source"].startswith("<details>\n<summary><b>Description</b></summary>")
    pytest.importorskip("nbconvert")
    import nbformat
    from nbconvert import HTMLExporter

    html, _ = HTMLExporter(template_name="classic").from_notebook_node(
        nbformat.reads(json.dumps(dict(out, nbformat=4, nbformat_minor=5)), 4))
    assert f'alt="{alt}"' in html


def test_tables_from_show_table_become_a_numbered_caption_and_a_pipe_table():
    import pandas as pd

    from sslteach.plotting import show_table

    df = pd.DataFrame({"$\\sigma^2$": [0.5]}, index=pd.Index(["rbf"], name="kernel"))
    md = show_table(df, "Widths, see {eq}`eq:one`.", name="tab-w", digits=1)._repr_markdown_()
    nums = page()
    nums.targets["tab-w"] = ("notebooks/a", "Table 4")
    out = convert_markdown(md, nums)
    assert "{table}" not in out and "```" not in out and ":name:" not in out
    assert '<a id="tab-w" name="tab-w"></a>**Table 4.** Widths, see [(1)](#equation-eq-one).' in out
    assert "| kernel | $\\sigma^2$ |\n|:---|---:|\n| rbf | 0.5 |" in out


def code_cell(outputs=(), figure=None, cid="c1"):
    meta = {"mystnb": {"figure": figure}} if figure else {}
    return {"cell_type": "code", "id": cid, "metadata": meta, "source": "x", "execution_count": 1,
            "outputs": list(outputs)}


def test_code_cells_figures_and_tables_are_numbered_with_the_markdown_ones(tmp_path):
    """Figures (myst-nb cell metadata) and show_table outputs count in page order, as Sphinx does.

    A _toc.yml without parts: each top-level entry is a chapter, from 0."""
    import pandas as pd

    from sslteach.plotting import show_table

    (tmp_path / "_config.yml").write_text("repository:\n  url: https://github.com/o/p\n")
    (tmp_path / "_toc.yml").write_text("root: intro\nchapters:\n  - file: n/one\n  - file: n/two\n")
    (tmp_path / "intro.md").write_text("# Intro\n")
    (tmp_path / "n").mkdir()
    image = {"output_type": "display_data", "metadata": {}, "data": {"image/png": "AAAA", "text/plain": "F"}}
    table = show_table(pd.DataFrame({"a": [1]}), "T.", name="tab-t", index=False)
    tab_out = {"output_type": "execute_result", "metadata": {}, "execution_count": 1,
               "data": {"text/markdown": table._repr_markdown_(), "text/plain": repr(table)}}
    fig_md = "# One\n\n```{figure} a.png\n:name: fig-md\n\nA.\n```"
    one = [{"cell_type": "markdown", "metadata": {}, "source": fig_md},
           code_cell([image], {"caption": "Moons, {eq}`eq:x`.", "name": "fig-code"}),
           {"cell_type": "markdown", "metadata": {}, "source": "$$\nx\n$$ (eq:x)\n\nSee {numref}`fig-code`."}]
    two = [{"cell_type": "markdown", "metadata": {}, "source": "# Two"}, code_cell([tab_out]),
           code_cell([], {"caption": "Not run yet.", "name": "fig-later"})]
    for name, cells in (("one", one), ("two", two)):
        (tmp_path / "n" / f"{name}.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}}))
    nums = book_numbers(tmp_path)
    assert nums.targets["fig-md"] == ("n/one", "Figure 0.1")
    assert nums.targets["fig-code"] == ("n/one", "Figure 0.2")
    assert nums.targets["fig-later"] == ("n/two", "Figure 1.1")
    assert nums.targets["tab-t"] == ("n/two", "Table 1.1")
    out = convert_notebook({"cells": one, "metadata": {}}, nums, "n/one")
    assert [c["cell_type"] for c in out["cells"]] == ["markdown", "code", "markdown", "markdown"]
    caption = out["cells"][2]
    assert caption["id"] == "c1-caption"
    assert caption["source"] == ('<a id="fig-code" name="fig-code"></a>'
                                 "**Figure 0.2.** Moons, [(0.1)](#equation-eq-x).\n")
    assert "[Figure 0.2](#fig-code)" in out["cells"][3]["source"]
    out = convert_notebook({"cells": two, "metadata": {}}, nums, "n/two")
    md = out["cells"][1]["outputs"][0]["data"]["text/markdown"]
    assert md.startswith('<a id="tab-t" name="tab-t"></a>**Table 1.1.** T.\n\n| a |') and "{table}" not in md
    assert two[1]["outputs"][0]["data"]["text/markdown"].startswith("```{table}")  # the input is unchanged


def test_unknown_directive_or_role_is_refused():
    with pytest.raises(ValueError, match=r"directive \{frobnicate\}"):
        convert_markdown("```{frobnicate}\nx\n```", page())
    with pytest.raises(ValueError, match=r"role \{frob\}"):
        convert_markdown("a {frob}`x` b", page())


def test_code_blocks_and_inline_literals_are_left_alone():
    text = "```python\nf'{eq}`x`'\n```\nand ``{eq}`eq:one` `` as text"
    out = convert_markdown(text, page())
    assert out.split("\n")[:3] == ["```python", "f'{eq}`x`'", "```"]
    assert "``{eq}`eq:one` ``" in out


def test_targets_and_comments():
    out = convert_markdown("(sec-b)=\n## Results\n% a comment\ntext", page())
    assert out.startswith('<a id="sec-b"') and "## Results" in out
    assert "comment" not in out and "(sec-b)=" not in out


# ---------------------------------------------------------------- roles


def test_references_to_theorems_exercises_and_sections():
    assert convert_markdown("by {prf:ref}`thm-x`", page()) == "by [Theorem 1](#thm-x)"
    assert convert_markdown("{ref}`ex-b`", page()) == f"[Exercise 2]({SITE}notebooks/b.html#ex-b)"
    out = convert_markdown("{ref}`the results <sec-b>`", page())
    assert out == f"[the results]({SITE}notebooks/b.html#sec-b)"
    assert convert_markdown("{numref}`Ex. %s <ex-a>`", page()) == "[Ex. 1](#ex-a)"


def test_citations_author_year():
    bib = f"{SITE}book/bibliography.html"
    assert convert_markdown("{cite:t}`liu2009`", page()) == f"Liu et al. [[2009]({bib})]"
    out = convert_markdown("{cite:p}`liu2009,smola`", page())
    assert out == f"[[Liu et al., 2009]({bib}); [Schölkopf and Smola, 2002]({bib})]"
    assert convert_markdown("{cite}`smola`", page()).startswith("[[Schölkopf and Smola, 2002]")
    with pytest.raises(ValueError, match="references.bib"):
        convert_markdown("{cite:t}`nobody2020`", page())


def test_doc_role_relative_absolute_and_with_text_over_two_lines():
    assert convert_markdown("{doc}`b`", page()) == f"[Page B]({SITE}notebooks/b.html)"
    out = convert_markdown("the {doc}`reproduction\npage <b>` shows", page())
    assert out == f"the [reproduction\npage]({SITE}notebooks/b.html) shows"
    assert convert_markdown("{doc}`k </book/api/kernels>`", page()) == f"[k]({SITE}book/api/kernels.html)"
    out = convert_markdown("{doc}`../book/api/kernels`", page())
    assert out == f"[sslteach.kernels]({SITE}book/api/kernels.html)"


def test_python_roles_link_to_the_api_pages():
    out = convert_markdown("{py:func}`~sslteach.kernels.rbf_kernel`", page())
    assert out == f"[`rbf_kernel()`]({SITE}book/api/kernels.html#sslteach.kernels.rbf_kernel)"
    out = convert_markdown("{py:class}`sslteach.ksc.SemiKSC`", page())
    assert out == f"[`sslteach.ksc.SemiKSC`]({SITE}book/api/ksc.html#sslteach.ksc.SemiKSC)"
    assert convert_markdown("{py:data}`~sslteach.compare.METHODS`", page()).startswith("[`METHODS`]")


def test_term_links_to_the_glossary_entry():
    book = page()
    book.terms = {"kernel": ("book/glossary", "kernel"), "courant–fischer theorem":
                  ("book/glossary", "Courant–Fischer theorem")}
    assert convert_markdown("{term}`Kernel`", book) == f"[Kernel]({SITE}book/glossary.html#term-kernel)"
    out = convert_markdown("{term}`the theorem <Courant–Fischer theorem>`", book)
    assert out == f"[the theorem]({SITE}book/glossary.html#term-CourantFischer-theorem)"
    with pytest.raises(ValueError, match="no entry 'kernels' in the book's glossary"):
        convert_markdown("{term}`kernels`", book)


def test_glossary_anchors_are_the_ones_sphinx_writes():
    # the ids Sphinx gave these entries in the built site (book/glossary.html)
    from sphinx.util.nodes import _make_id  # Sphinx comes with the book's requirements

    for term in ("Courant–Fischer theorem", "Holm's correction", "Nyström formula", "k-NN graph",
                 "classical MDS"):
        assert term_anchor(term) == "term-" + _make_id(term)


def test_every_glossary_term_of_the_book_is_found():
    terms = book_numbers(ROOT).terms
    want = {"ultrametric", "cophenetic distance", "nyström formula", "alignment", "transduction"}
    assert want <= set(terms)
    assert all(doc == "book/glossary" for doc, _ in terms.values())


def test_download():
    assert convert_markdown("{download}`data <results/x.csv>`", page()) == f"[data]({SITE}_downloads/x.csv)"


# ---------------------------------------------------------------- the book


def test_bib_parsing_decodes_accents_and_shortens_authors():
    bib = parse_bib("@article{a,\n  author = {Bod{\\'o}, Zal{\\'a}n and Csat{\\'o}, Lehel},\n"
                    "  year = {2010}\n}\n"
                    "@book{b,\n  author = {Dem{\\v{s}}ar, Janez},\n  year = {2006}\n}\n"
                    "@book{c,\n  author = {A, B and C, D and E, F},\n  year = {1999}\n}\n")
    assert bib == {"a": ("Bodó and Csató", "2010"), "b": ("Demšar", "2006"), "c": ("A et al.", "1999")}


def test_site_url_is_taken_from_the_repository_url(tmp_path):
    assert site_url(ROOT).startswith("https://") and site_url(ROOT).endswith("/")
    (tmp_path / "_config.yml").write_text("repository:\n  url: https://github.com/own/proj\n")
    assert site_url(tmp_path) == "https://own.github.io/proj/"
    (tmp_path / "_config.yml").write_text("html:\n  baseurl: https://x.org/b\n")
    assert site_url(tmp_path) == "https://x.org/b/"
    (tmp_path / "_config.yml").write_text("title: t\n")
    with pytest.raises(ValueError, match="baseurl"):
        site_url(tmp_path)


TOC = """root: intro
parts:
  - caption: Reading the book
    chapters:
      - file: n/front
  - caption: Chapters
    chapters:
      - file: n/second   # chapter 0
        title: "Chapter 0: Second"
        sections:
          - file: n/second_more
      - file: n/first
  - caption: Back matter
    chapters:
      - file: n/back
"""


def test_numbers_run_per_chapter_in_toc_order(tmp_path):
    """Chapters are the "Chapters" part's entries, from 0; a chapter's sections continue its numbers."""
    (tmp_path / "_config.yml").write_text("repository:\n  url: https://github.com/o/p\n")
    (tmp_path / "_toc.yml").write_text(TOC)
    (tmp_path / "intro.md").write_text("# Intro\n")
    (tmp_path / "n").mkdir()
    (tmp_path / "n" / "front.md").write_text("# Front\n\nNothing numbered, {eq}`eq:a` referred to.\n")
    (tmp_path / "n" / "back.md").write_text("# Back\n")
    cell = {"cell_type": "markdown", "metadata": {}}

    def nb(*texts):
        return json.dumps({"cells": [dict(cell, source=t) for t in texts], "metadata": {}, "nbformat": 4,
                           "nbformat_minor": 5})
    first = nb("# First\n$$\na\n$$ (eq:c)", "```{prf:theorem}\n:label: t2\nx\n```")
    second = nb("# Second\n$$\na\n$$ (eq:a)\n\n$$\nb\n$$\n\n$$\nc\n$$ (eq:b)",
                "```{prf:theorem}\n:label: t1\nx\n```\n```{exercise}\n:label: e1\ny\n```")
    more = nb("# More\n$$\nd\n$$ (eq:d)", "```{exercise}\n:label: e2\nz\n```")
    (tmp_path / "n" / "first.ipynb").write_text(first)
    (tmp_path / "n" / "second.ipynb").write_text(second)
    (tmp_path / "n" / "second_more.ipynb").write_text(more)
    assert toc_chapters(tmp_path) == {"n/second": 0, "n/second_more": 0, "n/first": 1}
    nums = book_numbers(tmp_path)
    assert {k: v[1] for k, v in nums.equations.items()} == {"eq:a": "0.1", "eq:b": "0.2", "eq:d": "0.3",
                                                          "eq:c": "1.1"}
    assert nums.targets["t1"] == ("n/second", "Theorem 0.1")
    assert nums.targets["t2"] == ("n/first", "Theorem 1.1")
    assert nums.targets["e1"][1] == "Exercise 0.1" and nums.targets["e2"] == ("n/second_more", "Exercise 0.2")
    first = convert_notebook(json.loads((tmp_path / "n" / "first.ipynb").read_text()), nums)
    assert "\\tag{1.1}" in first["cells"][0]["source"]  # docname found from the title
    # a numbered item outside the chapters is refused, as the book's build refuses it
    (tmp_path / "n" / "back.md").write_text("# Back\n\n$$\nx\n$$ (eq:back)\n")
    with pytest.raises(ValueError, match="n/back: a numbered eq .* outside the chapters"):
        book_numbers(tmp_path)


def test_convert_notebook_is_a_copy_that_keeps_code_and_outputs(book):
    nb = json.loads(NOTEBOOKS[0].read_text())
    before = json.dumps(nb)
    out = convert_notebook(nb, book)
    assert json.dumps(nb) == before, "the input notebook must not change"
    def plain(cell):  # a code cell without its text/markdown outputs (converted, see above) and
        # without the figures' alt text, which the converter adds to the image's output metadata
        return dict(cell, outputs=[dict(o, data={k: v for k, v in o.get("data", {}).items()
                                                 if k != "text/markdown"},
                                        **({"metadata": {k: v for k, v in o["metadata"].items()
                                                         if not (isinstance(v, dict) and set(v) == {"alt"})}}
                                           if "metadata" in o else {}))
                                   for o in cell.get("outputs", [])])
    code_in = [plain(c) for c in nb["cells"] if c["cell_type"] == "code"]
    code_out = [plain(c) for c in out["cells"] if c["cell_type"] == "code"]
    assert code_in == code_out
    with pytest.raises(ValueError, match="cells"):
        convert_notebook({"worksheets": []})


def test_the_book_numbers_everything_per_chapter(book):
    """Per-chapter numbering: "(1.1)", "Figure 3.1", "Theorem 0.1"; no number runs through the book."""
    chapters = toc_chapters(ROOT)
    assert chapters == {
        "notebooks/00_foundations": 0,
        "notebooks/01_spectral_clustering": 1, "notebooks/01_spectral_clustering_reproduction": 1,
        "notebooks/02_cluster_kernels": 2, "notebooks/02_cluster_kernels_reproduction": 2,
        "notebooks/03_spectral_kernel_learning": 3, "notebooks/03_spectral_kernel_learning_reproduction": 3,
        "notebooks/04_semi_supervised_ksc": 4, "notebooks/04_semi_supervised_ksc_reproduction": 4,
        "notebooks/05_comparison": 5, "notebooks/05_scorecard": 5,
    }
    assert book.equations["eq:linear-kernel"] == ("notebooks/00_foundations", "0.1")
    assert book.targets["thm-gram-psd"] == ("notebooks/00_foundations", "Theorem 0.1")
    ch1 = [n for doc, n in book.equations.values() if doc == "notebooks/01_spectral_clustering"]
    assert ch1[0] == "1.1", "Chapter 1's first equation"
    assert book.targets["fig-ch3-eigenvectors"] == ("notebooks/03_spectral_kernel_learning", "Figure 3.1")
    # every kind counts 1, 2, ... in each chapter, in reading order (a reproduction page and
    # the scorecard continue their chapter's count), and each number carries its page's chapter
    seen = {}
    items = [(doc, "eq", n) for doc, n in book.equations.values()]
    items += [(doc, *text.split()) for doc, text in book.targets.values()
              if re.fullmatch(r"[A-Z][a-z]+ \d+\.\d+", text)]
    order = list(chapters)
    for doc, kind, number in sorted(items, key=lambda x: (order.index(x[0]),)):
        chapter, count = number.split(".")
        assert int(chapter) == chapters[doc], (doc, kind, number)
        seen.setdefault((kind, chapter), []).append(int(count))
    for (kind, chapter), counts in seen.items():
        assert sorted(counts) == list(range(1, len(counts) + 1)), (kind, chapter)
    assert {c for _, c in seen} == {"0", "1", "2", "3", "4", "5"}
    assert len(seen[("eq", "3")]) > 10 and len(seen[("Exercise", "1")]) > 3
    tables_ch5 = len([t for d, t in book.targets.values()
                      if d == "notebooks/05_comparison" and t.startswith("Table")])
    assert book.targets["tab-ch5-scorecard-best"] == ("notebooks/05_scorecard", f"Table 5.{tables_ch5 + 1}")


# ------------------------------------------------- every notebook, rendered by plain nbconvert

RAW_MYST = re.compile(
    r"language-\{|```\{|:::\{"  # a directive's fence, shown as a code block or as text
    r"|\{[a-zA-Z][\w:+-]*\}(?:<code>|`)"  # a role: {eq}<code>eq:rbf</code>
    r"|\$\$\s*\(eq:|^\s*\([\w:-]+\)=\s*$",  # an equation label or a (target)= line
    re.M,
)


def rendered_markdown(nb):
    """The HTML of the notebook's Markdown cells as plain nbconvert renders them."""
    import nbformat
    from nbconvert import HTMLExporter

    cells = []
    for c in nb["cells"]:
        if c["cell_type"] == "markdown":
            cells.append(c)
        elif c["cell_type"] == "code":  # text/markdown outputs (tables) as Jupyter renders them
            cells += [{"cell_type": "markdown", "id": f"output-{len(cells)}-{k}", "metadata": {}, "source": t}
                      for k, t in enumerate(_markdown_outputs(c))]
    md = dict(nb, cells=cells)
    html, _ = HTMLExporter(template_name="lab").from_notebook_node(nbformat.reads(json.dumps(md), 4))
    return html.split("<body", 1)[1]


@pytest.fixture(scope="module")
def rendered(book):
    pytest.importorskip("nbconvert")
    out = {}
    for p in NOTEBOOKS:
        nb = json.loads(p.read_text())
        reader = convert_notebook(nb, book, f"notebooks/{p.stem}")
        out[p.stem] = (rendered_markdown(nb), rendered_markdown(reader))
    return out


@pytest.mark.parametrize("name", [p.stem for p in NOTEBOOKS])
def test_reader_notebook_shows_no_raw_myst(rendered, name):
    raw = RAW_MYST.findall(rendered[name][1])
    assert not raw, f"{name}: raw MyST left after conversion: {raw[:5]}"


def test_the_check_fails_on_the_book_sources(rendered):
    """Unconverted, every notebook that uses MyST shows it raw: the check above can fail."""
    failing = [n for n, (src, _) in rendered.items() if RAW_MYST.search(src)]
    assert len(failing) >= len(NOTEBOOKS) - 1, failing


def test_make_reader_notebooks_writes_every_notebook(tmp_path):
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_reader_notebooks.py"), "--out",
                          str(tmp_path)], capture_output=True, text=True, check=True)
    assert f"{len(NOTEBOOKS)} reader notebooks" in res.stdout
    written = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert written == [p.name for p in NOTEBOOKS]
    nb = json.loads((tmp_path / NOTEBOOKS[0].name).read_text())
    assert any(c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), "outputs kept"
    refused = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_reader_notebooks.py"), "--out",
                              str(ROOT / "notebooks")], capture_output=True, text=True)
    assert refused.returncode != 0 and "must not be notebooks/" in refused.stderr


def test_no_equation_reference_is_bracketed_twice():
    """{eq} already prints the brackets: "({eq}`x`)" would read "((1.2))"."""
    twice = re.compile(r"\(\{eq\}`[^`<>]*`\)")
    pages = [(p.name, "".join(c["source"])) for p in NOTEBOOKS for c in json.loads(p.read_text())["cells"]
             if c["cell_type"] == "markdown"]
    pages += [(p.name, p.read_text()) for p in sorted((ROOT / "book").glob("*.md"))]
    bad = [(name, m.group()) for name, text in pages for m in twice.finditer(text)]
    assert not bad, f"write {{eq}}`label` without brackets around it: {bad}"


def test_myst_shown_in_a_literal_block_is_not_numbered():
    """A page that shows the exercise format (````md ... ````) numbers nothing."""
    nums = Numbers()
    text = "````md\n```{exercise}\n:label: ch9-ex-a\nText.\n```\n````\n\n```{exercise}\n:label: ch9-ex-b\n```"
    from sslteach.teach.myst import _scan

    _scan(text, "notebooks/a", nums, {}, "")
    assert "ch9-ex-a" not in nums.targets
    assert nums.targets["ch9-ex-b"] == ("notebooks/a", "Exercise 1")
