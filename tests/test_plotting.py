"""sslteach.plotting: the shared figures draw what they are given; tables line up."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from sslteach import plotting  # noqa: E402
from sslteach.plotting import (  # noqa: E402
    PALETTE,
    plot_decision_regions,
    plot_kernel_matrix,
    plot_points,
    results_table,
    set_style,
)


def test_results_table_side_by_side():
    paper = {"TSK": {"HEART": (64.06, 4.42), "WINE": 72.28}}
    ours = {"TSK": {"HEART": (61.5, 3.9)}, "harmonic": {"HEART": 60.0}}
    df = results_table(paper, ours)
    assert list(df.index) == ["TSK", "harmonic"]
    assert df.loc["TSK", ("HEART", "paper")] == "64.06 ± 4.42"
    assert df.loc["TSK", ("HEART", "this book")] == "61.50 ± 3.90"
    assert df.loc["TSK", ("WINE", "this book")] == "–"
    assert df.loc["harmonic", ("HEART", "paper")] == "–"
    with pytest.raises(ValueError, match="dict of dicts"):
        results_table({"a": 1}, {})


def test_kernel_matrix_reorders_and_picks_colormap():
    set_style()
    K = np.array([[1.0, -0.5], [-0.5, 1.0]])
    ax = plot_kernel_matrix(K, order=[1, 0], title="K")
    assert ax.images[0].get_cmap().name == "RdBu_r"
    ax = plot_kernel_matrix(np.eye(3))
    assert ax.images[0].get_cmap().name == "viridis"
    with pytest.raises(ValueError, match="square"):
        plot_kernel_matrix(np.ones((2, 3)))
    plt.close("all")


def test_decision_regions_and_points():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 2))
    y = (X[:, 0] > 0).astype(int)
    y[::3] = -1
    ax = plot_decision_regions(lambda Z: (Z[:, 0] > 0).astype(int), X, y, resolution=20)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["unlabelled", "class 0", "class 1"]
    with pytest.raises(ValueError, match="2-D"):
        plot_points(np.ones((3, 3)))
    with pytest.raises(ValueError, match="one label per point"):
        plot_points(X, y[:-1])
    assert len(PALETTE) >= 8
    plt.close("all")


def test_kernel_matrix_order_must_be_a_permutation():
    K = np.eye(4)
    for bad in ([0, 1, 2], [0, 0, 1, 2], [0, 1, 2, 4]):
        with pytest.raises(ValueError, match="permutation"):
            plotting.plot_kernel_matrix(K, order=bad)
    plt.close("all")


def test_region_colours_follow_the_point_colours_when_a_class_is_not_predicted():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 1.0]])
    y = np.array([0, 1, 2, -1])
    ax = plotting.plot_decision_regions(lambda Z: np.where(Z[:, 0] > 1.5, 2, 1), X, y, resolution=10)
    # the filled bands index the classes [0, 1, 2] of y, so predictions 1 and 2 take the
    # colours of classes 1 and 2 (before the fix: bands for [1, 2] only, coloured as 0 and 1)
    filled = ax.collections[0]
    assert len(filled.levels) == 4, "the regions must be indexed by y's three classes"
    assert np.allclose(filled.cmap(1)[:3], matplotlib.colors.to_rgb(plotting.PALETTE[1])), "class 1's colour"
    plt.close("all")


# ---------------------------------------------------------------- tables and verdict grids


def small_table():
    import pandas as pd

    from sslteach.plotting import show_table

    df = pd.DataFrame({"$\\sigma^2$": [0.25, 2.0], "verdict": ["reproduced", "close"]},
                      index=pd.Index(["rbf", "poly|2"], name="kernel"))
    return show_table(df, "Two kernels and their widths $\\sigma^2$.", name="tab-small", digits=2)


def test_show_table_outputs_agree_and_are_deterministic():
    t = small_table()
    md = t._repr_markdown_()
    assert md.startswith("```{table} Two kernels and their widths $\\sigma^2$.\n:name: tab-small\n")
    assert "| kernel | $\\sigma^2$ | verdict |\n|:---|---:|:---|\n| rbf | 0.25 | reproduced |" in md
    assert "| poly\\|2 | 2.00 | close |" in md  # a | inside a cell is escaped
    html = t._repr_html_()
    assert "<caption>Two kernels and their widths $\\sigma^2$.</caption>" in html
    assert "<th>$\\sigma^2$</th>" in html and "<td>poly|2</td>" in html and 'id="tab-small"' in html
    assert repr(t) == repr(small_table()) and repr(t).splitlines()[0].startswith("Table: Two kernels")
    assert repr(t).splitlines()[2] == "rbf           0.25  reproduced"


def test_show_table_refuses_bad_input():
    import pandas as pd

    from sslteach.plotting import show_table

    df = pd.DataFrame({"a": [1]})
    for bad, match in (
        (lambda: show_table([[1]], "c"), "DataFrame"),
        (lambda: show_table(df.iloc[:0], "c"), "at least one row"),
        (lambda: show_table(df, ""), "caption"),
        (lambda: show_table(df, "two\nlines"), "caption"),
        (lambda: show_table(df, "c", name="1st table"), "name"),
        (lambda: show_table(df, "c", digits=-1), "digits"),
    ):
        with pytest.raises(ValueError, match=match):
            bad()


def build_book_page(tmp_path, builder):
    """Build one notebook page holding small_table() with the book's myst-nb settings."""
    import json
    import re
    import subprocess
    import sys
    from pathlib import Path

    import yaml

    config = yaml.safe_load((Path(__file__).resolve().parents[1] / "_config.yml").read_text())
    sphinx = config["sphinx"]["config"]
    keys = ("nb_render_markdown_format", "nb_mime_priority_overrides", "numfig", "numfig_format")
    conf = {k: sphinx[k] for k in keys}
    (tmp_path / "conf.py").write_text(
        "extensions = ['myst_nb']\nmyst_enable_extensions = ['dollarmath']\n"
        "nb_execution_mode = 'off'\nlatex_engine = 'xelatex'\n"
        + "".join(f"{k} = {v!r}\n" for k, v in conf.items()))
    t = small_table()
    out = {"output_type": "execute_result", "execution_count": 1, "metadata": {},
           "data": {"text/markdown": t._repr_markdown_(), "text/html": t._repr_html_(),
                    "text/plain": repr(t)}}
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# Page\n\nSee {numref}`tab-small`."},
                    {"cell_type": "code", "metadata": {}, "source": "t", "execution_count": 1,
                     "outputs": [out]}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "index.ipynb").write_text(json.dumps(nb))
    run = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", builder, str(tmp_path),
                          str(tmp_path / builder)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    name = "index.html" if builder == "html" else next(p.name for p in (tmp_path / builder).glob("*.tex"))
    return re.sub(r"\s+", " ", (tmp_path / builder / name).read_text())


def test_show_table_is_a_typeset_numbered_table_on_the_site(tmp_path):
    html = build_book_page(tmp_path, "html")
    assert '<table class="table" id="tab-small">' in html or 'id="tab-small"' in html
    assert '<span class="caption-number">Table 1 </span>' in html
    assert "Two kernels and their widths" in html
    assert '<span class="math notranslate nohighlight">\\(\\sigma^2\\)' in html
    assert "```" not in html and "&lt;caption&gt;" not in html
    assert html.count("<table") == 1  # the markdown output, not the HTML one as well
    assert "Table 1</span></a>" in html  # the {numref}


def test_show_table_is_a_captioned_tabular_in_the_pdf(tmp_path):
    tex = build_book_page(tmp_path, "latex")
    caption = "\\sphinxcaption{Two kernels and their widths \\protect\\(\\sigma^2\\protect\\).}"
    assert caption + "\\label{\\detokenize{index:tab-small}}" in tex
    assert "\\begin{tabulary}" in tex and "```" not in tex
    assert "\\(\\sigma^2\\)" in tex and "reproduced" in tex


def test_verdict_grid_marks_and_colours():
    import pandas as pd

    from sslteach.plotting import VERDICT_COLORS, plot_verdict_grid

    v = pd.DataFrame({"T1": ["reproduced", "close"], "T2": ["not reproduced", None]}, index=["a", "b"])
    ax = plot_verdict_grid(v)
    assert [t.get_text() for t in ax.texts] == ["R", "X", "C"]
    first = ax.patches[0].get_facecolor()[:3]
    assert first == matplotlib.colors.to_rgb(VERDICT_COLORS["reproduced"])
    text = pd.DataFrame({"T1": ["97.3", "80.1"], "T2": ["12", None]}, index=["a", "b"])
    ax = plot_verdict_grid(v, labels=text)
    assert [t.get_text() for t in ax.texts] == ["97.3 R", "12 X", "80.1 C"]  # the letter stays
    with pytest.raises(ValueError, match="shape"):
        plot_verdict_grid(v, labels=pd.DataFrame({"T1": ["1"]}))
    with pytest.raises(ValueError, match="unknown verdicts"):
        plot_verdict_grid(pd.DataFrame({"T1": ["fine"]}))
    plt.close("all")
