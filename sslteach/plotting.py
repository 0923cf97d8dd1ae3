"""One figure style for the book, and the plots and tables the chapters share.

Colours are the Okabe & Ito (2008) palette, distinguishable with the common forms of
colour blindness; matrices use ``viridis`` (perceptually uniform, colour-blind safe)
or the diverging ``RdBu_r`` centred at zero for signed matrices.
"""

from __future__ import annotations

import numbers

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

__all__ = [
    "PALETTE",
    "FIGSIZE",
    "set_style",
    "class_colors",
    "plot_kernel_matrix",
    "plot_points",
    "plot_decision_regions",
    "results_table",
]

#: Okabe-Ito colours, in the order classes use them.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
#: The book's default size for one panel (inches).
FIGSIZE = (5.0, 4.0)
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def set_style():
    """Apply the book's matplotlib style (call once in a notebook's setup cell)."""
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
    """The first ``n`` colours of :data:`PALETTE` (cycled if ``n`` exceeds it)."""
    return [PALETTE[i % len(PALETTE)] for i in range(n)]


def _ax(ax, figsize=FIGSIZE):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def plot_kernel_matrix(K, *, order=None, ax=None, title=None, signed=None, colorbar=True):
    """Heat map of a kernel (or any square) matrix, optionally with rows/columns reordered.

    Parameters
    ----------
    K : array-like of shape (n, n)
    order : array-like of int, optional
        A permutation applied to rows and columns (e.g. ``np.argsort(v)`` to reveal
        blocks, as in Fig. 3 of Cristianini et al., 2001).
    signed : bool, optional
        Use a diverging map centred at 0; default: when ``K`` has negative entries.

    Returns
    -------
    ax : matplotlib Axes
    """
    K = np.asarray(K.toarray() if hasattr(K, "toarray") else K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"plot_kernel_matrix needs a square matrix; got shape {K.shape}.")
    if order is not None:
        order = np.asarray(order)
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
    """Scatter 2-D points coloured by class; points with ``y == unlabeled`` are grey.

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,), optional
    labels : list of str, optional
        Legend names for the classes (in the order of ``np.unique(y)``).
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"plot_points draws 2-D points; X has shape {X.shape}. Project first (e.g. PCA).")
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
        if mask.any():
            ax.scatter(X[mask, 0], X[mask, 1], s=s * 0.6, color="#BBBBBB", label="unlabelled", zorder=1)
        for i, c in enumerate(np.unique(y[~mask])):
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
    """Colour the plane by a classifier's prediction and overlay the points.

    Parameters
    ----------
    predict : callable or estimator
        ``predict(Z)`` for an (m, 2) array, or an object with a ``predict`` method.
    X : array-like of shape (n, 2)
        Points that set the plot range and are drawn on top.
    y : array-like of shape (n,), optional
        Their labels (-1 = unlabelled, drawn grey).
    resolution : int
        Grid points per axis.
    """
    fn = predict.predict if hasattr(predict, "predict") else predict
    if not callable(fn):
        raise ValueError("predict must be a callable or an object with a predict method.")
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"plot_decision_regions works in 2-D; X has shape {X.shape}.")
    ax = _ax(ax)
    lo, hi = X.min(axis=0) - margin, X.max(axis=0) + margin
    g0, g1 = np.meshgrid(np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution))
    Z = np.asarray(fn(np.c_[g0.ravel(), g1.ravel()])).reshape(g0.shape)
    classes = np.unique(Z)
    idx = np.searchsorted(classes, Z)
    cmap = mpl.colors.ListedColormap(class_colors(max(len(classes), 1)))
    ax.contourf(g0, g1, idx, levels=np.arange(len(classes) + 1) - 0.5, cmap=cmap, alpha=0.25)
    if y is not None:
        plot_points(X, y, ax=ax)
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
        return f"{value[0]:.{digits}f} ± {value[1]:.{digits}f}"
    if isinstance(value, numbers.Real):
        return f"{value:.{digits}f}"
    raise ValueError(f"A table entry must be a number, a (mean, std) pair, a string or None; got {value!r}.")


def results_table(paper, ours, *, digits=2, row_name="method"):
    """A "paper | this book" side-by-side table.

    Parameters
    ----------
    paper, ours : dict of dict
        ``{row: {column: value}}``, where a value is a number, a ``(mean, std)`` pair,
        a preformatted string or None (shown as a dash). Rows and columns missing
        from one side are shown as dashes.

    Returns
    -------
    pandas.DataFrame
        Rows are methods; the columns are a two-level index (data set, source), so
        each data set shows the paper's value next to ours.
    """
    import pandas as pd

    for side, name in ((paper, "paper"), (ours, "ours")):
        if not isinstance(side, dict) or not all(isinstance(v, dict) for v in side.values()):
            raise ValueError(f"{name} must be a dict of dicts {{row: {{column: value}}}}.")
    rows = list(dict.fromkeys([*paper, *ours]))
    cols = list(dict.fromkeys([c for side in (paper, ours) for r in side.values() for c in r]))
    data = {}
    for c in cols:
        data[(c, "paper")] = [_fmt(paper.get(r, {}).get(c), digits) for r in rows]
        data[(c, "this book")] = [_fmt(ours.get(r, {}).get(c), digits) for r in rows]
    df = pd.DataFrame(data, index=pd.Index(rows, name=row_name))
    df.columns = pd.MultiIndex.from_tuples(df.columns)
    return df
