"""One figure style for the book, and the plots and tables the chapters share (Chapter 0).

Colours are the Okabe & Ito (2008) palette, distinguishable with the common forms of colour
blindness, class :math:`c` (in sorted order) getting ``PALETTE[c % 8]``; matrices use
``viridis``, or the diverging ``RdBu_r`` centred at zero for signed matrices. No formula of
a paper is involved. Every function draws on ``ax`` (default: a new figure of
:data:`FIGSIZE`) and returns it; drawing costs time and memory linear in what is drawn.

References
----------
Okabe, M. & Ito, K. (2008). Color universal design (CUD): how to make figures and
presentations that are friendly to colorblind people. https://jfly.uni-koeln.de/color/
"""

from __future__ import annotations

import numbers
import re

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

from ._validation import check_data, check_int, check_positive, check_square

__all__ = [
    "PALETTE",
    "FIGSIZE",
    "set_style",
    "class_colors",
    "plot_kernel_matrix",
    "plot_points",
    "plot_decision_regions",
    "results_table",
    "FIGWIDTH",
    "Table",
    "show_table",
    "VERDICT_COLORS",
    "plot_verdict_grid",
    "figure_problems",
]

#: Okabe-Ito colours, in the order classes use them.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
#: The book's default size for one panel (inches).
FIGSIZE = (5.0, 4.0)
#: The widest figure the book draws (inches): the text column is 688 px, figures are drawn at
#: 100 dpi, so a figure of this width is shown at its natural size (STYLE.md, "Figures").
#: Two panels side by side: ``figsize=(FIGWIDTH, 3.2)``; three or four: a 2 x 2 grid,
#: ``figsize=(FIGWIDTH, 5.8)``.
FIGWIDTH = 6.8
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def set_style():
    """Apply the book's matplotlib style (once, in a notebook's setup cell).

    Updates ``matplotlib.rcParams`` in place, for every later figure: :data:`FIGSIZE` panels at
    100 dpi, the colour cycle :data:`PALETTE`, a light grid, no top or right spines, small
    titles and frameless legends, ``viridis`` images (``matplotlib.rc_context()`` limits it to
    a block).

    Examples
    --------
    >>> import matplotlib as mpl
    >>> from sslteach.plotting import set_style
    >>> with mpl.rc_context():
    ...     set_style()
    ...     print(mpl.rcParams["figure.figsize"], mpl.rcParams["image.cmap"])
    [5.0, 4.0] viridis
    """
    mpl.rcParams.update(
        {
            "figure.figsize": FIGSIZE,
            "figure.dpi": 100,
            "savefig.dpi": 100,
            "axes.prop_cycle": mpl.cycler(color=PALETTE),
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.titlesize": 11,
            "axes.labelsize": 10,
            "legend.fontsize": 9,
            "legend.frameon": False,
            "image.cmap": "viridis",
        }
    )


def class_colors(n):
    """The first ``n`` colours of :data:`PALETTE`, cycled: the order of :func:`plot_points`.

    Examples
    --------
    >>> from sslteach.plotting import PALETTE, class_colors
    >>> class_colors(3), class_colors(9)[8] == PALETTE[0]
    (['#0072B2', '#E69F00', '#009E73'], True)
    """
    n = check_int(n, "n", low=0)
    return [PALETTE[i % len(PALETTE)] for i in range(n)]


def _ax(ax, figsize=FIGSIZE):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    elif not isinstance(ax, mpl.axes.Axes):
        raise TypeError(f"ax must be a matplotlib Axes (or None for a new figure); got {type(ax).__name__}.")
    return ax


def _points(X, who, min_samples=1):
    X = check_data(X, name="X", min_samples=min_samples)
    if X.shape[1] != 2:
        raise ValueError(f"{who} draws 2-D points; X has shape {X.shape}. Project first (e.g. PCA).")
    return X


def plot_kernel_matrix(K, *, order=None, ax=None, title=None, signed=None, colorbar=True):
    r"""Heat map of a square matrix, rows and columns optionally permuted: :math:`A_{ij} = K_{\pi(i)\pi(j)}`.

    Sorting by the top eigenvector, :math:`\pi = \operatorname{argsort}(v_{\max})`, turns a
    kernel with cluster structure block diagonal (Fig. 3 of Cristianini et al., 2001; Chapter 1). **Cost.**
    :math:`O(n^2)` time and memory (float64 copies); drawing is bounded by the pixels.

    Parameters
    ----------
    K : array-like or sparse matrix of shape (n, n)
    order : array-like of int of shape (n,), optional
        A permutation :math:`\pi` of 0..n-1 (e.g. ``np.argsort(v)``).
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    signed : bool, optional
        ``RdBu_r`` over :math:`[-\max|A|, \max|A|]`; default: when K has a negative entry.
    colorbar : bool, default True

    Returns
    -------
    ax : matplotlib.axes.Axes
        The image is ``ax.images[0]``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sslteach.plotting import plot_kernel_matrix
    >>> ax = plot_kernel_matrix(np.array([[1.0, -0.5], [-0.5, 1.0]]), order=[1, 0])
    >>> ax.images[0].get_cmap().name, len(ax.figure.axes)
    ('RdBu_r', 2)
    """
    K = check_square(K.toarray() if hasattr(K, "toarray") else K, name="K")
    if order is not None:
        order = np.asarray(order)
        if order.dtype.kind not in "iu" and order.size:
            raise ValueError(f"order must hold integer indices (a permutation); got dtype {order.dtype}.")
        if order.shape != (K.shape[0],) or not np.array_equal(np.sort(order), np.arange(K.shape[0])):
            raise ValueError(
                f"order must be a permutation of 0..{K.shape[0] - 1} (e.g. np.argsort(y)); got an array "
                f"of shape {order.shape} that is not one."
            )
        K = K[np.ix_(order, order)]
    ax = _ax(ax)
    if signed is None:
        signed = bool(K.size) and K.min() < 0
    if signed:
        lim = np.abs(K).max() or 1.0
        im = ax.imshow(K, cmap="RdBu_r", vmin=-lim, vmax=lim, interpolation="nearest")
    else:
        im = ax.imshow(K, cmap="viridis", interpolation="nearest")
    ax.grid(False)
    ax.set_xlabel("point index" + (" (reordered)" if order is not None else ""))
    ax.set_ylabel("point index" + (" (reordered)" if order is not None else ""))
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    return ax


def plot_points(X, y=None, *, ax=None, title=None, labels=None, s=12, unlabeled=-1):
    """Scatter 2-D points coloured by class; points with ``y == unlabeled`` small and grey.

    Class c gets ``PALETTE[c % 8]`` and marker ``"os^DvPX*"[c % 8]``; when some points are
    unlabelled, the labelled ones are drawn 4 times larger with a black edge, on top.

    Parameters
    ----------
    X : array-like of shape (n, 2)
        Project higher-dimensional data first (e.g. PCA).
    y : array-like of shape (n,), optional
        Without it, one colour and no legend.
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    labels : list of str, optional
        Legend names, in the order of ``np.unique`` of the labelled ``y``; default ``"class <value>"``.
    s : float, default 12
        Marker area (points squared).
    unlabeled : scalar, default -1

    Returns
    -------
    ax : matplotlib.axes.Axes
        One collection per class, plus one for the unlabelled points.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sslteach.plotting import plot_points
    >>> ax = plot_points([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [0, 1, -1, -1])
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['unlabelled', 'class 0', 'class 1']
    """
    X = _points(X, "plot_points", min_samples=0)
    ax = _ax(ax)
    if y is None:
        ax.scatter(X[:, 0], X[:, 1], s=s, color=PALETTE[0])
    else:
        y = np.asarray(y)
        if y.shape != (X.shape[0],):
            raise ValueError(
                f"y must hold one label per point: X has {X.shape[0]} points but y has shape {y.shape}."
            )
        mask = y == unlabeled
        present = np.unique(y[~mask])
        if labels is not None and len(labels) < present.size:
            raise ValueError(
                f"labels names {len(labels)} classes but y has {present.size} ({present.tolist()}); "
                "pass one name per class, in the order of np.unique(y)."
            )
        if mask.any():
            ax.scatter(X[mask, 0], X[mask, 1], s=s * 0.6, color="#BBBBBB", label="unlabelled", zorder=1)
        for i, c in enumerate(present):
            sel = y == c
            name = labels[i] if labels is not None else f"class {c}"
            ax.scatter(
                X[sel, 0],
                X[sel, 1],
                s=s * (4 if mask.any() else 1),
                color=PALETTE[i % len(PALETTE)],
                marker=_MARKERS[i % len(_MARKERS)],
                edgecolor="k" if mask.any() else "none",
                linewidth=0.5,
                label=name,
                zorder=2,
            )
        ax.legend(loc="best")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    if title:
        ax.set_title(title)
    return ax


def plot_decision_regions(predict, X, y=None, *, ax=None, title=None, resolution=200, margin=0.5):
    r"""Colour the plane by a classifier's prediction on an r x r grid, then draw the points.

    The grid spans :math:`[\min_i x_i - \delta, \max_i x_i + \delta]` per coordinate
    (:math:`\delta` = ``margin``); a region gets the colour its class has in :func:`plot_points`
    (filled contours at 25% opacity). The regions fill the axes, so the legend of the points
    goes outside, to the right of the axes (``ax.legend(...)`` again to move it).

    Parameters
    ----------
    predict : callable or estimator
        ``predict(Z)`` for an (m, 2) array, or an object's ``predict`` method (preferred).
    X : array-like of shape (n, 2)
        Sets the range; drawn on top.
    y : array-like of shape (n,), optional
        For :func:`plot_points`; without it the points are small and black.
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    resolution : int, default 200
        r, grid points per axis.
    margin : float, default 0.5

    Returns
    -------
    ax : matplotlib.axes.Axes

    Notes
    -----
    **Cost.** :math:`r^2` predictions in one call (:math:`O(r^2nd)` time and :math:`O(r^2n)`
    memory for a kernel model on n training points): lower ``resolution`` for expensive models.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sslteach.plotting import plot_decision_regions
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> ax = plot_decision_regions(lambda Z: (Z[:, 0] > 0.5).astype(int), X, resolution=20)
    >>> [float(v) for v in ax.get_xlim()]
    [-0.5, 1.5]
    """
    fn = predict.predict if hasattr(predict, "predict") else predict
    if not callable(fn):
        raise ValueError("predict must be a callable or an object with a predict method.")
    X = _points(X, "plot_decision_regions")
    resolution = check_int(resolution, "resolution", low=2)
    margin = check_positive(margin, "margin", strict=False)
    ax = _ax(ax)
    lo, hi = X.min(axis=0) - margin, X.max(axis=0) + margin
    g0, g1 = np.meshgrid(np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution))
    Z = np.asarray(fn(np.c_[g0.ravel(), g1.ravel()]))
    if Z.shape != (g0.size,):
        raise ValueError(
            f"predict must return one label per point: for {g0.size} grid points it returned shape {Z.shape}."
        )
    Z = Z.reshape(g0.shape)
    classes = np.unique(Z)
    if y is not None:
        # colour a region as plot_points colours the points of its class: by the class's
        # position among the labelled classes of y (the union if the model predicts others)
        y_arr = np.asarray(y)
        known = np.unique(y_arr[y_arr != -1]) if y_arr.dtype.kind in "biuf" else np.unique(y_arr)
        classes = known if np.all(np.isin(classes, known)) else np.union1d(known, classes)
    idx = np.searchsorted(classes, Z)
    cmap = mpl.colors.ListedColormap(class_colors(max(len(classes), 1)))
    ax.contourf(g0, g1, idx, levels=np.arange(len(classes) + 1) - 0.5, cmap=cmap, alpha=0.25)
    if y is not None:
        plot_points(X, y, ax=ax)
        # the regions fill the axes: a legend inside would cover them (and points)
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    else:
        ax.scatter(X[:, 0], X[:, 1], s=8, color="k")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    if title:
        ax.set_title(title)
    return ax


def _fmt(value, digits):
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        if not all(isinstance(v, numbers.Real) for v in value):
            raise ValueError(f"A (mean, std) table entry must hold two numbers; got {value!r}.")
        return f"{value[0]:.{digits}f} ± {value[1]:.{digits}f}"
    if isinstance(value, numbers.Real):
        return f"{value:.{digits}f}"
    raise ValueError(f"A table entry must be a number, a (mean, std) pair, a string or None; got {value!r}.")


def results_table(paper, ours, *, digits=2, row_name="method"):
    r"""A "paper | this book" side-by-side table, every cell a string.

    A number is shown with ``digits`` decimals, a pair :math:`(m, s)` as ":math:`m \pm s`", a
    string as it is, None (or a missing row or column) as a dash. Rows and columns are the
    union of both sides, the paper's first.

    Parameters
    ----------
    paper, ours : dict of dict
        ``{row: {column: value}}``.
    digits : int, default 2
    row_name : str, default "method"

    Returns
    -------
    table : pandas.DataFrame
        Columns a two-level index (column, source), sources ``"paper"`` and ``"this book"``.

    Examples
    --------
    >>> from sslteach.plotting import results_table
    >>> df = results_table({"TSK": {"Heart": (64.06, 4.42)}},
    ...                    {"TSK": {"Heart": (61.5, 3.9)}, "harmonic": {"Heart": 60.0}})
    >>> df.loc["TSK", ("Heart", "this book")], df.loc["harmonic", ("Heart", "paper")]
    ('61.50 ± 3.90', '–')
    """
    import pandas as pd

    for side, name in ((paper, "paper"), (ours, "ours")):
        if not isinstance(side, dict) or not all(isinstance(v, dict) for v in side.values()):
            raise ValueError(f"{name} must be a dict of dicts {{row: {{column: value}}}}.")
    digits = check_int(digits, "digits", low=0)
    if not any(r for side in (paper, ours) for r in side.values()):
        raise ValueError("paper and ours hold no value; pass at least one {row: {column: value}}.")
    rows = list(dict.fromkeys([*paper, *ours]))
    cols = list(dict.fromkeys([c for side in (paper, ours) for r in side.values() for c in r]))
    data = {}
    for c in cols:
        data[(c, "paper")] = [_fmt(paper.get(r, {}).get(c), digits) for r in rows]
        data[(c, "this book")] = [_fmt(ours.get(r, {}).get(c), digits) for r in rows]
    df = pd.DataFrame(data, index=pd.Index(rows, name=row_name))
    df.columns = pd.MultiIndex.from_tuples(df.columns)
    return df


# --------------------------------------------------------------------------- tables

_NAME = r"[A-Za-z][\w-]*"


def _cell(value, digits):
    """One table entry as text: strings as they are, numbers with ``digits`` decimals."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return f"{float(value):.{digits}f}" if digits is not None else f"{float(value):g}"
    return str(value)


class Table:
    r"""A captioned table that renders typeset in the book (site and PDF), Jupyter and Colab.

    Made by :func:`show_table`; displayed as a cell's last value (or by ``display``). Its rich
    outputs are

    * ``text/markdown``: a MyST ``{table}`` directive (caption, ``:name:``) around a pipe table,
      which the book parses as MyST (``nb_render_markdown_format: myst`` and a priority above
      ``text/html`` in ``_config.yml``): one numbered, captioned table on the site and in the
      PDF; the reader notebooks get it as plain Markdown (:mod:`sslteach.teach.myst`);
    * ``text/html``: an HTML ``<table>`` with its ``<caption>``, which plain Jupyter, JupyterLab
      and Colab show (they typeset the ``$...$`` labels);
    * ``text/plain``: the caption and the same cells as aligned text (deterministic, so that
      nbval compares it).

    Attributes
    ----------
    caption : str
    name : str or None
        The label by which the text refers to the table (MyST's ``numref`` role).
    header : list of str
    rows : list of list of str
        Every cell as the text shown.
    """

    def __init__(self, header, rows, caption, name=None):
        if not isinstance(header, list | tuple) or not header or not all(isinstance(h, str) for h in header):
            raise ValueError(
                "header must be a non-empty list of column labels (strings); use show_table(df, ...)."
            )
        if not isinstance(rows, list | tuple) or not all(
            isinstance(r, list | tuple) and len(r) == len(header) and all(isinstance(c, str) for c in r)
            for r in rows
        ):
            raise ValueError(
                f"rows must be lists of {len(header)} strings, one per column; use show_table(df, ...)."
            )
        if not isinstance(caption, str) or not caption.strip() or "\n" in caption:
            raise ValueError(f"caption must be one non-empty line of text; got {caption!r}.")
        if name is not None and (not isinstance(name, str) or not re.fullmatch(_NAME, name)):
            raise ValueError(f"name must be a label such as 'tab-ch1-errors'; got {name!r}.")
        self.header, self.rows, self.caption, self.name = list(header), [list(r) for r in rows], caption, name

    def to_markdown(self):
        """The pipe table alone (GitHub/CommonMark-GFM Markdown)."""

        def line(cells):
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

        sep = "|" + "|".join("---:" if right else ":---" for right in self._numeric()) + "|"
        return "\n".join([line(self.header), sep, *(line(r) for r in self.rows)])

    def _numeric(self):
        """Which columns hold numbers only (right-aligned; text is left-aligned)."""

        def number(c):
            try:
                float(c.replace("±", "").split()[0].replace("−", "-"))
                return True
            except (ValueError, IndexError):
                return c == "–"

        return [all(number(r[j]) for r in self.rows) for j in range(len(self.header))]

    def _repr_markdown_(self):
        opts = f":name: {self.name}\n" if self.name else ""
        return f"```{{table}} {self.caption}\n{opts}:align: center\n\n{self.to_markdown()}\n```\n"

    def _repr_html_(self):
        import html

        def row(cells, tag):
            return "<tr>" + "".join(f"<{tag}>{html.escape(c, quote=False)}</{tag}>" for c in cells) + "</tr>"

        anchor = f' id="{self.name}"' if self.name else ""
        return (
            f"<table{anchor}>\n<caption>{html.escape(self.caption, quote=False)}</caption>\n"
            f"<thead>{row(self.header, 'th')}</thead>\n<tbody>\n"
            + "\n".join(row(r, "td") for r in self.rows)
            + "\n</tbody>\n</table>"
        )

    def __repr__(self):
        width = [max(len(r[j]) for r in [self.header, *self.rows]) for j in range(len(self.header))]
        right = self._numeric()
        lines = [
            "  ".join(c.rjust(w) if right[j] else c.ljust(w) for j, (c, w) in enumerate(zip(r, width)))
            for r in [self.header, *self.rows]
        ]
        return "\n".join([f"Table: {self.caption}", *(ln.rstrip() for ln in lines)])


def show_table(df, caption, *, name=None, digits=None, index=True):
    r"""A results table with its caption, typeset on the site, in the PDF and in Jupyter.

    The book's one way to show a table (STYLE.md, "Tables"): the cell's last expression is
    ``show_table(df, "What the table shows.", name="tab-...")``; the text refers to it with
    the ``numref`` role and the same label. Labels may hold LaTeX between dollars
    (``"$\sigma^2$"``).

    Parameters
    ----------
    df : pandas.DataFrame or pandas.Series
        Column labels of a two-level index are joined by a space (``("Heart", "paper")`` ->
        ``"Heart paper"``).
    caption : str
        One line, non-empty: a sentence saying what the table shows.
    name : str, optional
        A label (a letter, then letters, digits, ``-`` or ``_``), e.g. ``"tab-ch1-errors"``: the
        table is numbered and the ``numref`` role can refer to it. Without it it is captioned
        but not numbered.
    digits : int, optional
        Decimals for every float; default ``"{:g}"`` (six significant digits). Format numbers
        that sit on a rounding edge yourself, as strings.
    index : bool, default True
        Show the index as the first column (headed by its name; the levels of a two-level
        index joined by ", ").

    Returns
    -------
    Table

    Examples
    --------
    >>> import pandas as pd
    >>> from sslteach.plotting import show_table
    >>> df = pd.DataFrame({"$\\sigma^2$": [0.5, 2.0]}, index=pd.Index(["a", "b"], name="kernel"))
    >>> t = show_table(df, "Widths.", name="tab-widths", digits=1)
    >>> print(t._repr_markdown_())
    ```{table} Widths.
    :name: tab-widths
    :align: center
    <BLANKLINE>
    | kernel | $\sigma^2$ |
    |:---|---:|
    | a | 0.5 |
    | b | 2.0 |
    ```
    <BLANKLINE>
    >>> t
    Table: Widths.
    kernel  $\sigma^2$
    a              0.5
    b              2.0
    """

    import pandas as pd

    if isinstance(df, pd.Series):
        df = df.to_frame()
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"show_table needs a pandas DataFrame (or Series); got {type(df).__name__}.")
    if df.shape[0] == 0 or df.shape[1] == 0:
        raise ValueError(
            f"show_table needs at least one row and one column; the DataFrame has shape {df.shape}."
        )
    if not isinstance(caption, str) or not caption.strip() or "\n" in caption:
        raise ValueError(
            f"caption must be one non-empty line of text saying what the table shows; got {caption!r}."
        )
    if name is not None and (not isinstance(name, str) or not re.fullmatch(_NAME, name)):
        raise ValueError(
            f"name must be a label such as 'tab-ch1-errors' (a letter, then letters, digits, "
            f"'-' or '_'); got {name!r}."
        )
    if digits is not None:
        digits = check_int(digits, "digits", low=0)

    def label(c):
        if isinstance(c, tuple):
            return " ".join(str(x) for x in c if str(x) != "")
        return str(c)

    header = [label(c) for c in df.columns]
    rows = [[_cell(v, digits) for v in r] for r in df.itertuples(index=False, name=None)]
    if index:
        idx_name = (
            label(df.index.name)
            if df.index.name is not None
            else (
                " / ".join(str(n) for n in df.index.names)
                if any(n is not None for n in df.index.names)
                else ""
            )
        )
        header = [idx_name, *header]
        rows = [
            [", ".join(map(str, i)) if isinstance(i, tuple) else str(i), *r] for i, r in zip(df.index, rows)
        ]
    return Table(header, rows, caption.strip(), name)


# --------------------------------------------------------------------------- verdict grids

#: Colours of the verdicts (STYLE.md, "Results files"): dark blue, sky blue, vermilion and light
#: grey, apart under protanopia, deuteranopia and tritanopia and in four greys (CIELAB lightness
#: 32, 70, 54, 88); each cell also carries its verdict's letter, so colour is never alone.
VERDICT_COLORS = {
    "reproduced": "#004D80",
    "close": "#56B4E9",
    "not reproduced": "#D55E00",
    "not attempted": "#DDDDDD",
}
_VERDICT_MARK = {"reproduced": "R", "close": "C", "not reproduced": "X", "not attempted": "–"}


def _ink_on(colour):
    """Black or white, whichever contrasts more with ``colour`` (WCAG relative luminance)."""
    rgb = np.asarray(mpl.colors.to_rgb(colour))
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return "black" if lin @ [0.2126, 0.7152, 0.0722] > 0.179 else "white"


def plot_verdict_grid(verdicts, *, labels=None, ax=None, title=None):
    """A colour grid of verdicts (reading x paper number), each cell marked R, C, X or –.

    The letter says the verdict without the colour (in greyscale, with any colour vision);
    black or white text, whichever contrasts more with the cell.

    Parameters
    ----------
    verdicts : pandas.DataFrame
        Rows (e.g. readings) x columns (e.g. paper numbers), each entry a verdict of
        :data:`VERDICT_COLORS` or missing (None/NaN: a blank cell).
    labels : pandas.DataFrame, optional
        The text of each cell (e.g. the book's number), same index and columns, shown before
        the verdict's letter (``"68.52 X"``); default the letter alone.
    ax : matplotlib.axes.Axes, optional
        Default: a new figure :data:`FIGWIDTH` wide, 0.28 in per row.
    title : str, optional

    Returns
    -------
    ax : matplotlib.axes.Axes
        One text mark per non-empty cell (``ax.texts``), a legend of the verdicts.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from sslteach.plotting import plot_verdict_grid
    >>> v = pd.DataFrame({"T1": ["reproduced", "close"], "T2": ["not reproduced", None]},
    ...                  index=["paper's protocol", "sound protocol"])
    >>> [t.get_text() for t in plot_verdict_grid(v).texts]
    ['R', 'X', 'C']
    """
    import pandas as pd

    if not isinstance(verdicts, pd.DataFrame) or verdicts.size == 0:
        raise ValueError("verdicts must be a non-empty pandas DataFrame (rows x columns of verdict strings).")
    values = verdicts.astype(object).where(verdicts.notna(), None).to_numpy()
    bad = sorted({str(v) for v in values.ravel() if v is not None and v not in VERDICT_COLORS})
    if bad:
        raise ValueError(f"unknown verdicts {bad}; use one of {list(VERDICT_COLORS)} (or None for a blank).")
    n_rows, n_cols = values.shape
    if labels is not None:
        if not isinstance(labels, pd.DataFrame) or labels.shape != verdicts.shape:
            raise ValueError(f"labels must be a DataFrame of the verdicts' shape {verdicts.shape}.")
        texts = labels.reindex(index=verdicts.index, columns=verdicts.columns).astype(object)
        texts = texts.where(texts.notna(), "").to_numpy()
    ax = _ax(ax, figsize=(FIGWIDTH, 1.2 + 0.28 * n_rows))
    for i in range(n_rows):
        for j in range(n_cols):
            v = values[i, j]
            if v is None:
                continue
            ax.add_patch(mpl.patches.Rectangle((j - 0.5, i - 0.5), 1, 1, color=VERDICT_COLORS[v], ec="white"))
            text = _VERDICT_MARK[v] if labels is None else f"{texts[i, j]} {_VERDICT_MARK[v]}".strip()
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=8 if labels is None else 6.5,
                color=_ink_on(VERDICT_COLORS[v]),
            )
    ax.set_xlim(-0.5, n_cols - 0.5)
    ax.set_ylim(n_rows - 0.5, -0.5)
    ax.set_xticks(range(n_cols), [str(c) for c in verdicts.columns], rotation=90, fontsize=7)
    ax.set_yticks(range(n_rows), [str(r) for r in verdicts.index], fontsize=7)
    ax.tick_params(length=0)
    ax.grid(False)
    ax.set_aspect("auto")
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    handles = [mpl.patches.Patch(color=c, label=f"{_VERDICT_MARK[k]} {k}") for k, c in VERDICT_COLORS.items()]
    if ax.figure.get_layout_engine() is None and len(ax.figure.axes) == 1:
        ax.figure.set_layout_engine("constrained")  # the long row labels inside the figure
    if isinstance(ax.figure.get_layout_engine(), mpl.layout_engine.ConstrainedLayoutEngine):
        ax.figure.legend(handles=handles, loc="outside upper center", ncol=4, fontsize=8)
    else:
        ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, fontsize=8)
    if title:
        ax.set_title(title)
    return ax


# --------------------------------------------------------------------------- figure checks


def _short(text, width=40):
    text = " ".join(str(text).split())
    return "'" + (text if len(text) <= width else text[: width - 1] + "…") + "'"


def _axes_name(fig, ax):
    """``"axes 3"`` (1-based, in ``fig.axes`` order), ``"axes 5 (colorbar)"`` for a colour bar."""
    axes = fig.axes
    name = f"axes {axes.index(ax) + 1}" if ax in axes else "an axes"
    return name + (" (colorbar)" if getattr(ax, "_colorbar", None) is not None else "")


def _drawn_ticks(axis):
    """The ticks an Axis draws (those inside its view interval)."""
    try:
        return axis._update_ticks()  # what Axis.draw uses
    except Exception:  # pragma: no cover - a private method that may move
        lo, hi = sorted(axis.get_view_interval())
        return [t for t in axis.get_major_ticks() if lo <= t.get_loc() <= hi]


def _visible(artist):
    while artist is not None:
        if not artist.get_visible():
            return False
        artist = getattr(artist, "axes", None) if artist is not getattr(artist, "axes", None) else None
    return True


def _figure_texts(fig):
    """Every visible, non-empty text of ``fig``, with a name: [(Text, name), ...]."""
    out = []

    def add(t, name):
        if t is not None and t.get_visible() and t.get_text().strip():
            out.append((t, f"{name} {_short(t.get_text())}"))

    for sub in [fig, *getattr(fig, "subfigs", [])]:
        where = "figure" if sub is fig else "subfigure"
        for t in sub.texts:
            kind = {
                id(getattr(sub, "_suptitle", None)): "suptitle",
                id(getattr(sub, "_supxlabel", None)): "supxlabel",
                id(getattr(sub, "_supylabel", None)): "supylabel",
            }.get(id(t), "text")
            add(t, f"{where} {kind}")
        for leg in sub.legends:
            if leg.get_visible():
                add(leg.get_title(), f"{where} legend title")
                for t in leg.get_texts():
                    add(t, f"{where} legend text")
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        a = _axes_name(fig, ax)
        titles = ((ax.title, "title"), (ax._left_title, "left title"), (ax._right_title, "right title"))
        for t, kind in titles:
            add(t, f"{a} {kind}")
        for letter, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if not (ax.axison and axis.get_visible()):  # ax.axis("off") hides both axes
                continue
            add(axis.label, f"{a} {letter} label")
            add(axis.offsetText, f"{a} {letter} offset text")
            for tick in _drawn_ticks(axis):
                for lab in (tick.label1, tick.label2):
                    add(lab, f"{a} {letter} tick label")
        for t in ax.texts:
            add(t, f"{a} {'annotation' if hasattr(t, 'xyann') else 'text'}")
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            add(leg.get_title(), f"legend title of {a}")
            for t in leg.get_texts():
                add(t, f"legend text of {a}")
    return out


def _legends(fig):
    out = []
    for sub in [fig, *getattr(fig, "subfigs", [])]:
        out += [(leg, "figure legend") for leg in sub.legends if leg.get_visible()]
    for ax in fig.axes:
        leg = ax.get_legend()
        if ax.get_visible() and leg is not None and leg.get_visible():
            out.append((leg, f"legend of {_axes_name(fig, ax)}"))
    return out


def _covered(ax, box, renderer):
    """What of ``ax``'s plotted data lies under the display-space Bbox ``box``: [str, ...]."""
    from matplotlib.transforms import Bbox

    clip = Bbox.intersection(ax.bbox, box)
    if clip is None or clip.width <= 0 or clip.height <= 0:
        return []
    found = []

    def inside(xy):
        xy = np.ma.filled(np.ma.asarray(xy, dtype=float), np.nan).reshape(-1, 2)
        return int(
            np.sum(
                (xy[:, 0] > clip.x0) & (xy[:, 0] < clip.x1) & (xy[:, 1] > clip.y0) & (xy[:, 1] < clip.y1)
            )
        )

    def label(artist, kind):
        name = artist.get_label()
        return f"{kind} {_short(name)}" if name and not name.startswith("_") else kind

    for coll in ax.collections:
        if not coll.get_visible():
            continue
        offsets = coll.get_offsets()
        if isinstance(coll, mpl.collections.PathCollection) and len(offsets):
            k = inside(coll.get_offset_transform().transform(offsets))
            if k:
                found.append(f"{k} point(s) of {label(coll, 'scatter')}")
            continue
        filled = not isinstance(coll, mpl.collections.LineCollection) and (
            len(coll.get_facecolor()) and np.any(np.asarray(coll.get_facecolor())[:, 3] > 0)
        )
        transform = coll.get_transform()
        for path in coll.get_paths():
            if len(path.vertices) and path.transformed(transform).intersects_bbox(clip, filled=bool(filled)):
                kind = "filled area" if filled else "lines"
                if isinstance(coll, mpl.contour.ContourSet):
                    kind = "filled contours" if coll.filled else "contour lines"
                found.append(label(coll, kind))
                break
    for line in ax.lines:
        if not line.get_visible() or len(line.get_xydata()) == 0:
            continue
        path = line.get_transform().transform_path(line.get_path())
        if line.get_linestyle() in ("None", "", " ", "none"):
            k = inside(path.vertices)
            hit = k > 0
        else:
            hit = path.intersects_bbox(clip, filled=False)
        if hit:
            found.append(label(line, "line"))
    for patch in ax.patches:
        if not patch.get_visible():
            continue
        path = patch.get_transform().transform_path(patch.get_path())
        if path.intersects_bbox(clip, filled=bool(patch.get_fill())):
            found.append(label(patch, type(patch).__name__.lower()))
    for image in ax.images:
        if not image.get_visible():
            continue
        ext = Bbox.intersection(image.get_window_extent(renderer), clip)
        if ext is not None and ext.width > 0 and ext.height > 0:
            found.append(label(image, "image"))
    return list(dict.fromkeys(found))


def figure_problems(fig, *, tol=1.0, edges=True):
    """What makes a figure hard to read: overlapping texts, legends over data, cut-off texts.

    Draws ``fig`` (without rendering pixels), then lists

    - every two visible texts whose window extents overlap by more than ``tol`` pixels in both
      directions: figure and axes titles, axis and tick labels, offset texts, legend titles and
      texts, ``ax.text``/``ax.annotate`` and ``fig.text`` (colour bars are axes too);
    - every legend whose box covers plotted data of an axes: scatter points (their centres),
      lines (markers, or segments crossing the box), patches (bars, spans), images and filled
      areas (``contourf``, ``fill_between``, ``pcolormesh``);
    - with ``edges``, every text that sticks out of the figure by more than ``tol`` pixels (a
      figure saved with ``bbox_inches="tight"``, as Jupyter shows it, is cropped around its
      texts: pass ``edges=False`` for it).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    tol : float, default 1.0
        Overlaps of at most ``tol`` pixels (at ``fig.dpi``) are ignored.
    edges : bool, default True

    Returns
    -------
    problems : list of str
        One sentence per problem, naming the elements (``"axes 2 title '...' overlaps axes 3
        title '...'"``); empty for a readable figure. Axes are numbered from 1 in ``fig.axes``.

    Notes
    -----
    **Cost.** One layout pass of the figure, then :math:`O(T^2)` for :math:`T` texts and
    :math:`O(\\text{data})` per legend. The notebooks' tests run it on every figure Jupyter
    shows (``tests/figure_audit.py``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sslteach.plotting import figure_problems
    >>> fig, (a, b) = plt.subplots(1, 2, figsize=(3, 2), layout="constrained")
    >>> _ = a.set_title("a long title on the left side"), b.set_title("and one on the right side")
    >>> for problem in figure_problems(fig):
    ...     print(problem)
    axes 1 title 'a long title on the left side' overlaps axes 2 title 'and one on the right side'
    axes 1 title 'a long title on the left side' is cut off by the figure's left edge
    axes 2 title 'and one on the right side' is cut off by the figure's right edge
    >>> _ = a.set_title("left"), b.set_title("right")
    >>> _ = a.plot([0, 1], [0, 1], label="y = x"), a.legend(loc="center")
    >>> figure_problems(fig)
    ["legend of axes 1 covers data of axes 1: line 'y = x'"]
    >>> a.get_legend().remove()
    >>> figure_problems(fig)
    []
    >>> plt.close(fig)
    """
    if not isinstance(fig, mpl.figure.Figure):
        raise TypeError(f"fig must be a matplotlib Figure; got {type(fig).__name__}.")
    tol = check_positive(tol, "tol", strict=False)
    if not hasattr(fig.canvas, "get_renderer"):  # a Figure made without pyplot has no renderer
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    problems = []

    texts = _figure_texts(fig)
    if texts:
        boxes = np.array([t.get_window_extent(renderer).extents for t, _ in texts])
        lo, hi = boxes[:, :2], boxes[:, 2:]
        wh = np.minimum(hi[:, None], hi[None, :]) - np.maximum(lo[:, None], lo[None, :])
        w, h = wh[..., 0], wh[..., 1]
        for i, j in zip(*np.nonzero(np.triu((w > tol) & (h > tol), k=1))):
            problems.append(f"{texts[i][1]} overlaps {texts[j][1]}")
        if edges:
            W, H = fig.bbox.width, fig.bbox.height
            sides = (boxes[:, 0] < -tol, boxes[:, 2] > W + tol, boxes[:, 1] < -tol, boxes[:, 3] > H + tol)
            for i in range(len(texts)):
                out = [s for s, hit in zip(("left", "right", "bottom", "top"), sides) if hit[i]]
                if out:
                    edge = "edges" if len(out) > 1 else "edge"
                    problems.append(f"{texts[i][1]} is cut off by the figure's {' and '.join(out)} {edge}")

    for leg, name in _legends(fig):
        box = leg.get_window_extent(renderer).padded(-tol)
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            covered = _covered(ax, box, renderer)
            if covered:
                problems.append(f"{name} covers data of {_axes_name(fig, ax)}: {', '.join(covered)}")
    return problems
