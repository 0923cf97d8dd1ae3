"""book/_ext/chapter_numbers.py on a small Sphinx project: per-chapter numbers on the site and in LaTeX."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONF = f"""
import sys
sys.path.insert(0, {str(ROOT / "book" / "_ext")!r})
extensions = ["myst_parser", "sphinx_proof", "sphinx_exercise", "chapter_numbers"]
myst_enable_extensions = ["dollarmath", "amsmath"]
numfig = True
math_numfig = True
math_eqref_format = "({{number}})"
numfig_format = {{"figure": "Figure %s", "table": "Table %s"}}
"""
INDEX = """# Book

```{toctree}
:caption: Reading the book
front
```

```{toctree}
:caption: Chapters
zero
three
```
"""
ZERO = """# Foundations

$$
a
$$ (eq:a)

```{prf:theorem} First
:label: thm-a
x
```
"""
THREE = """# Chapter

```{figure} pic.png
:name: fig-three

A caption.
```

$$
b
$$ (eq:b)

```{exercise}
:label: ex-three
Do it.
```

See {eq}`eq:a`, {numref}`fig-more`, {prf:ref}`thm-a` and {ref}`ex-three`.

```{toctree}
:hidden:
three_more
```
"""
# (sphinx-external-toc puts a page's toctree of sections at its end, as here: Sphinx numbers
# in the order it meets items and toctrees, so the chapter's page comes before its sections)
MORE = """# Reproduction

```{figure} pic.png
:name: fig-more

Another.
```

$$
c
$$ (eq:c)
"""


def build(tmp_path, builder, front="# Front\n\nNothing numbered.\n"):
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    pages = {"conf.py": CONF, "index.md": INDEX, "front.md": front, "zero.md": ZERO, "three.md": THREE,
             "three_more.md": MORE}
    for name, text in pages.items():
        (src / name).write_text(text)
    (src / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    out = tmp_path / builder
    return subprocess.run([sys.executable, "-m", "sphinx", "-q", "-E", "-b", builder, str(src), str(out)],
                          capture_output=True, text=True), out


def test_numbers_per_chapter_on_the_site(tmp_path):
    run, out = build(tmp_path, "html")
    assert run.returncode == 0 and "WARNING" not in run.stderr, run.stderr
    zero = (out / "zero.html").read_text()
    three = (out / "three.html").read_text()
    more = (out / "three_more.html").read_text()
    assert '<span class="eqno">(0.1)' in zero and "Theorem 0.1" in zero
    assert 'caption-number">Figure 1.1 <' in three and '<span class="eqno">(1.1)' in three
    assert 'caption-number">Exercise 1.1 <' in three
    # a section of the chapter continues its numbers
    assert 'caption-number">Figure 1.2 <' in more and '<span class="eqno">(1.2)' in more
    text = re.sub(r"<[^>]+>", "", three)
    assert "See (0.1), Figure 1.2, Theorem 0.1 and Exercise 1.1." in text
    # no section numbers on headings or in the navigation
    assert 'class="section-number"' not in three + zero + (out / "index.html").read_text()


def test_a_numbered_item_outside_the_chapters_warns(tmp_path):
    run, _ = build(tmp_path, "html", front="# Front\n\n$$\nx\n$$ (eq:front)\n")
    assert "front: the numbered displaymath 'equation-eq-front' is outside the chapters" in run.stderr


def test_the_latex_sets_the_chapter_counter_at_each_chapter(tmp_path):
    run, out = build(tmp_path, "latex")
    assert run.returncode == 0, run.stderr
    tex = next(out.glob("*.tex")).read_text()
    zero = tex.index(r"\setcounter{chapter}{0}\setcounter{figure}{0}")
    one = tex.index(r"\setcounter{chapter}{1}\setcounter{figure}{0}")
    assert zero < tex.index(r"\chapter{Foundations}") < one < tex.index(r"\chapter{Chapter}")
    assert tex.count(r"\setcounter{chapter}") == 2  # not at the chapter's section
    assert "Theorem 0.1" in tex and "Exercise 1.1" in tex
