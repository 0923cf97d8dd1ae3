"""Figures that read: sslteach.plotting.figure_problems, and its audit of the notebooks' figures.

The unit tests plant the problems the check is for (texts drawn over each other, a legend over
data) and clean figures it must pass; two checks are independent of matplotlib's text extents:
they look at the pixels each element inks when drawn alone. The last test runs the whole route
(conftest.py loads tests/figure_audit.py into nbval's kernel, which fails the cell).
"""

import io
import json
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sslteach import plotting  # noqa: E402
from sslteach.plotting import figure_problems  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
import figure_audit  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _close():
    with matplotlib.rc_context():
        plotting.set_style()
        yield
    plt.close("all")


# --------------------------------------------------------------------------- planted problems


def test_overlapping_titles_are_named():
    fig, axes = plt.subplots(1, 3, figsize=(plotting.FIGWIDTH, 2.5))
    for k, ax in enumerate(axes):
        ax.set_title(rf"$v_{k + 1}$: $\lambda$ = 0.0000, $\mu$ = {336 / 2**k:.1f}")
    problems = figure_problems(fig, edges=False)
    assert problems == [
        r"axes 1 title '$v_1$: $\lambda$ = 0.0000, $\mu$ = 336.0' overlaps "
        r"axes 2 title '$v_2$: $\lambda$ = 0.0000, $\mu$ = 168.0'",
        r"axes 2 title '$v_2$: $\lambda$ = 0.0000, $\mu$ = 168.0' overlaps "
        r"axes 3 title '$v_3$: $\lambda$ = 0.0000, $\mu$ = 84.0'",
    ]
    for ax in axes:  # shorter titles fit
        ax.set_title(ax.get_title().split(":")[0])
    assert figure_problems(fig, edges=False) == []


def test_legend_over_scatter_points():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (400, 2))
    ax = plotting.plot_points(X, (X[:, 0] > 0).astype(int))
    ax.legend(loc="center")
    problems = figure_problems(ax.figure, edges=False)
    assert len(problems) == 1
    assert problems[0].startswith("legend of axes 1 covers data of axes 1: ")
    assert "point(s) of scatter 'class 0'" in problems[0]
    assert "point(s) of scatter 'class 1'" in problems[0]
    # outside the axes, on the right, the same legend covers nothing
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.figure.set_layout_engine("constrained")
    assert figure_problems(ax.figure) == []


def test_legend_over_lines_bars_images_and_filled_areas():
    fig, axes = plt.subplots(2, 2, figsize=(plotting.FIGWIDTH, 5.8), layout="constrained")
    t = np.linspace(0, 1, 3)  # three vertices: the middle segment crosses the legend, no vertex
    axes[0, 0].plot([0, 1], [0.5, 0.5], label="a flat line")
    axes[0, 0].set_ylim(0, 1)
    axes[0, 0].legend(loc="center")
    axes[0, 1].bar(t, [1, 1, 1], width=0.5, label="bars")
    axes[0, 1].legend(loc="center")
    axes[1, 0].imshow(np.eye(5))
    axes[1, 0].plot([], [], label="empty")
    axes[1, 0].legend(loc="upper right")
    g = np.linspace(0, 1, 20)
    axes[1, 1].contourf(g, g, np.add.outer(g, g), levels=3)
    axes[1, 1].plot([], [], label="empty")
    axes[1, 1].legend(loc="lower left")
    problems = figure_problems(fig)
    assert problems == [
        "legend of axes 1 covers data of axes 1: line 'a flat line'",
        "legend of axes 2 covers data of axes 2: rectangle",
        "legend of axes 3 covers data of axes 3: image",
        "legend of axes 4 covers data of axes 4: filled contours",
    ]


def test_markers_only_line_counts_its_vertices_not_its_segments():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], "o", label="two points")  # no segment is drawn between them
    ax.legend(loc="center")
    assert figure_problems(fig) == []
    ax.lines[0].set_linestyle("-")
    assert figure_problems(fig) == ["legend of axes 1 covers data of axes 1: line 'two points'"]


def test_texts_of_every_kind_are_seen():
    fig, (a, b) = plt.subplots(1, 2, figsize=(plotting.FIGWIDTH, 3.2), layout="constrained")
    fig.suptitle("the suptitle")
    a.set_title("a title")
    a.text(0.5, 1.02, "a text over the title", transform=a.transAxes, ha="center")
    b.annotate("an annotation", (0.5, 0.5), xytext=(0.0, 0.5), textcoords="axes fraction")
    b.text(0.0, 0.5, "a text", transform=b.transAxes)
    im = b.imshow(np.eye(3))
    cb = fig.colorbar(im, ax=b)
    cb.set_label("colour bar label")
    cb.ax.text(0.5, 0.5, "on the bar's ticks", transform=cb.ax.transAxes, fontsize=20)
    problems = "\n".join(figure_problems(fig))
    assert "axes 1 title 'a title' overlaps axes 1 text 'a text over the title'" in problems
    assert "axes 2 annotation 'an annotation' overlaps axes 2 text 'a text'" in problems
    assert "axes 3 (colorbar) y tick label" in problems
    assert "axes 3 (colorbar) text 'on the bar's ticks'" in problems


def test_text_cut_off_by_the_figure_edge():
    fig, ax = plt.subplots(figsize=(3, 2))
    fig.subplots_adjust(left=0.25, bottom=0.25)  # room for the tick labels
    ax.text(0.9, 0.5, "far too long to fit on the right", transform=ax.transAxes)
    problems = figure_problems(fig)
    assert problems == [
        "axes 1 text 'far too long to fit on the right' is cut off by the figure's right edge"
    ]
    ax.set_xlabel("a label far too long to fit under an axes three inches wide")
    problems = figure_problems(fig)
    assert problems[0].startswith("axes 1 x label 'a label far too long to fit under an ax")
    assert problems[0].endswith("…' is cut off by the figure's left and right edges")
    assert figure_problems(fig, edges=False) == []


def test_clean_figures_pass():
    rng = np.random.default_rng(1)
    X = np.r_[rng.normal(0, 0.3, (50, 2)), rng.normal(2, 0.3, (50, 2))]
    y = np.repeat([0, 1], 50)
    y[::5] = -1
    fig, axes = plt.subplots(1, 2, figsize=(plotting.FIGWIDTH, 3.2), layout="constrained")
    plotting.plot_points(X, y, ax=axes[0], title="labels")
    plotting.plot_kernel_matrix(np.exp(-np.square(X[:, None] - X[None]).sum(-1)), ax=axes[1], title="K")
    assert figure_problems(fig, edges=False) == []
    v = pd.DataFrame({"T1": ["reproduced", "close"], "T2": ["not reproduced", None]}, index=["a", "b"])
    assert figure_problems(plotting.plot_verdict_grid(v).figure) == []
    fig, ax = plt.subplots(layout="constrained")
    ax.plot(np.arange(10), np.arange(10) ** 2, "o-", label="squares")
    ax.legend(loc="upper left")  # the curve is low on the left: nothing under the legend
    ax.set(xlabel="n", ylabel="$n^2$", title="growth")
    assert figure_problems(fig) == []


# --------------------------------------------------------------------------- independent checks


def _ink(fig, keep):
    """Pixel box (x0, y0, x1, y1, from the bottom left) of what ``keep`` inks, drawn alone."""
    hidden = [a for a in fig.findobj() if a.get_visible() and a not in keep and a is not fig]
    for a in hidden:
        a.set_visible(False)
    fig.patch.set_visible(False)
    fig.canvas.draw()
    alpha = np.asarray(fig.canvas.buffer_rgba())[::-1, :, 3]  # row 0 at the bottom
    for a in hidden:
        a.set_visible(True)
    fig.patch.set_visible(True)
    rows, cols = np.nonzero(alpha > 0)
    return cols.min(), rows.min(), cols.max() + 1, rows.max() + 1


def _gap(a, b):
    """Overlap (>0) or gap (<0) of two boxes, in pixels: the smaller of its x and y extents."""
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


def test_text_overlap_agrees_with_the_ink():
    """Two texts whose inked pixels overlap by 2 pixels or more are reported; two whose ink lies
    4 pixels or more apart are not (a text's extent is its ink and a pixel or two around it)."""
    seen = set()
    for dx in (-63, -57, 0, 57, 63):  # "Spectral" is about 60 pixels wide
        for dy in (-19, -15, -11, 0, 11, 15, 19):  # and about 15 high
            fig = plt.figure(figsize=(4, 2))
            s = fig.text(0.4, 0.5, "Spectral", fontsize=12)
            t = fig.text(0.4 + dx / 400, 0.5 + dy / 200, "kernel", fontsize=12)
            gap = _gap(_ink(fig, [s]), _ink(fig, [t]))
            reported = figure_problems(fig) != []
            plt.close(fig)
            if gap >= 2:
                assert reported, (dx, dy, gap)
                seen.add("overlap")
            elif gap <= -4:
                assert not reported, (dx, dy, gap)
                seen.add("apart")
    assert seen == {"overlap", "apart"}


def test_legend_cover_agrees_with_the_ink():
    """A point 4 or 6 pixels inside the inked frame of a legend is reported; one 4 or 6 pixels
    outside it is not: on each of the four sides (the frame's line is a pixel or two wide, and
    the check forgives a pixel)."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set(xlim=(0, 1), ylim=(0, 1))
    points = ax.scatter([0.05], [0.05], s=1, label="one point", color="k")
    ax.legend(loc="center", frameon=True, fancybox=False, edgecolor="red")
    fig.canvas.draw()  # the frame is the only red in the figure
    rgb = np.asarray(fig.canvas.buffer_rgba())[::-1, :, :3].astype(int)
    rows, cols = np.nonzero((rgb[..., 0] > 200) & (rgb[..., 1] < 100) & (rgb[..., 2] < 100))
    x0, y0, x1, y1 = cols.min(), rows.min(), cols.max() + 1, rows.max() + 1
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    for d in (-6, -4, 4, 6):  # negative: inside
        for x, y in ((x0 - d, ym), (x1 - 1 + d, ym), (xm, y0 - d), (xm, y1 - 1 + d)):
            points.set_offsets(ax.transData.inverted().transform([[x, y]]))
            assert (figure_problems(fig) != []) == (d < 0), (d, x, y, (x0, y0, x1, y1))


# --------------------------------------------------------------------------- colour

#: Machado, Oliveira & Fernandes (2009), severity 1: linear-RGB matrices of the dichromacies
CVD = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
}  # fmt: skip


def _linear(rgb):
    rgb = np.asarray(rgb, dtype=float)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def _lab(lin):
    """CIELAB (D65) of linear-RGB colours."""
    xyz = lin @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)


def test_verdict_colours_stay_apart_for_colour_blind_readers_and_in_grey():
    """Every two verdict colours differ by at least 15 CIELAB units as seen with protanopia,
    deuteranopia or tritanopia (simulated) and in grey; and each cell's text has a WCAG
    contrast of at least 4.5 with its colour. (The letters say the verdict anyway.)"""
    from sslteach.plotting import VERDICT_COLORS, _ink_on

    lin = _linear([matplotlib.colors.to_rgb(c) for c in VERDICT_COLORS.values()])
    grey = lin @ np.array([0.2126, 0.7152, 0.0722])
    views = {"normal": lin, "grey": np.repeat(grey[:, None], 3, axis=1)}
    views.update({k: np.clip(lin @ np.array(m).T, 0, 1) for k, m in CVD.items()})
    for view, colours in views.items():
        lab = _lab(colours)
        d = np.linalg.norm(lab[:, None] - lab[None], axis=-1)[np.triu_indices(len(lab), 1)]
        assert d.min() >= 15, (view, d.round(1))
    for colour, y in zip(VERDICT_COLORS.values(), grey):
        ink = 1.0 if _ink_on(colour) == "white" else 0.0
        hi, lo = max(ink, y), min(ink, y)
        assert (hi + 0.05) / (lo + 0.05) >= 4.5, colour
    # the check can fail: Okabe-Ito bluish green and vermilion, a natural pair, are one grey
    old = _linear([matplotlib.colors.to_rgb(c) for c in ("#009E73", "#D55E00")])
    assert abs(np.diff(_lab(np.repeat((old @ [0.2126, 0.7152, 0.0722])[:, None], 3, 1))[:, 0])) < 15


# --------------------------------------------------------------------------- the audit


def test_audit_records_problem_figures_only(tmp_path, monkeypatch):
    log = tmp_path / "figures.jsonl"
    monkeypatch.setenv(figure_audit.ENV, str(log))
    from matplotlib.backend_bases import FigureCanvasBase

    monkeypatch.setattr(FigureCanvasBase, "print_figure", FigureCanvasBase.print_figure)
    figure_audit.install()
    figure_audit.install()  # twice: wrapped once
    fig, axes = plt.subplots(1, 2, figsize=(3, 2), num="planted")
    for ax in axes:
        ax.set_title("a title far too long for half of three inches")
    fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 1 and records[0]["figure"] == "planted"
    assert records[0]["problems"] == figure_problems(fig, edges=False)
    for ax in axes:
        ax.set_title("short")
    fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    assert len(log.read_text().splitlines()) == 1


def test_nbval_fails_a_cell_whose_figure_does_not_read(tmp_path):
    """The whole route: conftest.py loads the audit into nbval's kernel, the inline backend
    shows the figure, and the cell fails although its stored output matches; the next cell,
    whose figure reads, passes."""
    source = (
        "import matplotlib.pyplot as plt\n"
        "fig, axes = plt.subplots(1, 2, figsize=(3, 2))\n"
        "for ax in axes:\n"
        "    ax.set_title({title!r})\n"
        "plt.show()"
    )
    nb = nbformat.v4.new_notebook()
    for k, title in enumerate(("a title far too long for its axes", "short")):
        cell = nbformat.v4.new_code_cell(source.format(title=title))
        cell.execution_count = k + 1
        shown = {"text/plain": "<Figure size 300x200 with 2 Axes>"}
        cell.outputs = [nbformat.v4.new_output("display_data", data=shown)]
        nb.cells.append(cell)
    path = tmp_path / "figure.ipynb"
    nbformat.write(nb, path)
    # -p conftest: the repository's root conftest.py as a plugin (the notebook lies outside it)
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "conftest", "-n", "0",
           "-rA", "--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini"), str(path)]  # fmt: skip
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 1, res.stdout[-2000:]
    assert "FAILED ::Cell 0" in res.stdout, res.stdout[-2000:]  # nodeids relative to the rootdir
    assert "PASSED ::Cell 1" in res.stdout, res.stdout[-2000:]
    assert "does not read" in res.stdout
    assert "axes 1 title 'a title far too long for its axes' overlaps axes 2 title" in res.stdout
