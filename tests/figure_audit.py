"""Inside a notebook's kernel under nbval: check every figure the notebook shows or saves.

Every way a notebook puts a figure on the page (``plt.show()``, a figure left open at the end
of a cell, ``display(fig)``, ``fig.savefig(...)``) ends in ``FigureCanvasBase.print_figure``.
The root ``conftest.py`` loads this file into every nbval kernel (an IPython startup file), and
:func:`install` wraps that method: before the figure is printed, :func:`sslteach.plotting.
figure_problems` lists its overlapping texts and the legends that cover data, and each problem
goes, one JSON line per figure, to the file named by ``SSLTEACH_FIGURE_AUDIT``. The conftest
then fails the cell that showed the figure. Nothing the notebook prints changes.

A figure printed with ``bbox_inches="tight"`` (as Jupyter's inline backend prints it) is cropped
around its texts, so texts sticking out of the figure are only reported for the others.
"""

from __future__ import annotations

import functools
import json
import os

#: the environment variable naming the log file
ENV = "SSLTEACH_FIGURE_AUDIT"


def check(fig, bbox_inches=None):
    """The problems of ``fig`` as it would be printed with ``bbox_inches`` (a list of str)."""
    import matplotlib as mpl

    from sslteach.plotting import figure_problems

    if bbox_inches is None:
        bbox_inches = mpl.rcParams["savefig.bbox"]
    tight = isinstance(bbox_inches, str) and bbox_inches == "tight"
    try:
        return figure_problems(fig, edges=not tight)
    except Exception as exc:  # a figure the check cannot read is a failure, not a crash
        return [f"figure_problems could not check this figure: {type(exc).__name__}: {exc}"]


def _record(path, fig, problems):
    label = fig.get_label() or f"figure {getattr(fig, 'number', '?')}"
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"figure": label, "problems": problems}) + "\n")


def install(ip=None) -> None:
    """Wrap ``FigureCanvasBase.print_figure`` (called from the startup file; ``ip`` unused)."""
    path = os.environ.get(ENV, "")
    if not path or path.lower() == "off":
        return
    from matplotlib.backend_bases import FigureCanvasBase

    original = FigureCanvasBase.print_figure
    if getattr(original, "_sslteach_figure_audit", False):
        return

    @functools.wraps(original)
    def print_figure(self, *args, **kwargs):
        problems = check(self.figure, kwargs.get("bbox_inches"))
        if problems:
            _record(path, self.figure, problems)
        return original(self, *args, **kwargs)

    print_figure._sslteach_figure_audit = True
    FigureCanvasBase.print_figure = print_figure
