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
]

#: Okabe-Ito colours, in the order classes use them.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
#: The book's default size for one panel (inches).
FIGSIZE = (5.0, 4.0)
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def set_style():
    r"""Apply the book's matplotlib style (call once in a notebook's setup cell).

    Updates ``matplotlib.rcParams`` in place: panels of :data:`FIGSIZE` =
    :math:`5 \times 4` inches at 100 dpi (:math:`500 \times 400` pixels), the Okabe & Ito
    (2008) colour cycle :data:`PALETTE`, a light grid, no top or right spines, small
    titles, labels and frameless legends, and ``viridis`` for images. No formula is
    involved; the style is the book's, not a paper's.

    Used in every chapter's setup cell, first in :doc:`/notebooks/00_foundations`
    (Chapter 0, Foundations).

    Returns
    -------
    None
        The style is global: it applies to every figure made afterwards (wrap the call
        in ``matplotlib.rc_context()`` to limit it to a block).

    See Also
    --------
    class_colors : The palette's colours for a given number of classes.

    Notes
    -----
    Cost: time and memory :math:`O(1)` (a dozen settings).

    Examples
    --------
    >>> import matplotlib as mpl
    >>> from sslteach.plotting import set_style
    >>> with mpl.rc_context():  # restores the previous style on exit
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
    r"""The first ``n`` colours of :data:`PALETTE` (cycled if ``n`` exceeds it).

    Class :math:`i` gets colour :math:`\mathrm{PALETTE}[i \bmod 8]` (the Okabe & Ito
    palette of 8 colours, distinguishable with the common forms of colour blindness),
    the same order :func:`plot_points` and :func:`plot_decision_regions` use.

    Used in :doc:`/notebooks/03_spectral_kernel_learning` (Chapter 3, after Liu, Qian,
    Cui & Liu 2009); the palette is introduced in :doc:`/notebooks/00_foundations`
    (Chapter 0, Foundations).

    Parameters
    ----------
    n : int
        Number of colours (classes); 0 or a negative number gives an empty list.

    Returns
    -------
    colors : list of str
        ``n`` hex colour strings.

    See Also
    --------
    set_style : Makes :data:`PALETTE` matplotlib's default colour cycle.

    Notes
    -----
    Cost: time and memory :math:`O(n)`.

    Examples
    --------
    >>> from sslteach.plotting import PALETTE, class_colors
    >>> class_colors(3)
    ['#0072B2', '#E69F00', '#009E73']
    >>> class_colors(9)[8] == PALETTE[0]
    True
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
    r"""Heat map of a kernel (or any square) matrix, optionally with rows/columns reordered.

    With a permutation :math:`\pi` (``order``) the image shows

    .. math::

        A_{ij} = K_{\pi(i)\,\pi(j)},

    coloured with ``viridis`` over :math:`[\min A, \max A]`, or, when ``signed``, with
    the diverging ``RdBu_r`` over :math:`[-\max|A|, \max|A|]` so that 0 is white.
    Sorting by the top eigenvector, :math:`\pi = \operatorname{argsort}(v_{\max})`, turns
    a kernel with cluster structure block diagonal: Fig. 3 of Cristianini,
    Shawe-Taylor & Kandola (2001).

    Used first in :doc:`/notebooks/01_spectral_clustering` (Chapter 1, after Cristianini,
    Shawe-Taylor & Kandola 2001); also in Chapter 2.

    Parameters
    ----------
    K : array-like or sparse matrix of shape (n_samples, n_samples)
        The matrix to draw (a sparse matrix is densified).
    order : array-like of int of shape (n_samples,), optional
        A permutation applied to rows and columns (e.g. ``np.argsort(v)`` to reveal
        blocks, as in Fig. 3 of Cristianini et al., 2001). It is not checked to be a
        permutation: any integer index array selects and repeats rows and columns.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default: a new figure of size :data:`FIGSIZE`.
    title : str, optional
        Axes title.
    signed : bool, optional
        Use a diverging map centred at 0; default: when ``K`` has negative entries.
    colorbar : bool, default True
        Add a colour bar next to the axes (a second Axes in the figure).

    Returns
    -------
    ax : matplotlib.axes.Axes
        The axes drawn on; the image is ``ax.images[0]``.

    Raises
    ------
    ValueError
        If ``K`` is not a square 2-D matrix.

    See Also
    --------
    sslteach.kernels.center_kernel : Centred kernels have negative entries (signed map).

    Notes
    -----
    Cost: time and memory :math:`O(n^2)` for the float64 copy of ``K`` and the
    reordered copy; drawing is proportional to the number of screen pixels, not to
    :math:`n^2`, once :math:`n` exceeds the image resolution.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from sslteach.plotting import plot_kernel_matrix
    >>> K = np.array([[1.0, -0.5], [-0.5, 1.0]])
    >>> ax = plot_kernel_matrix(K, order=[1, 0], title="K")
    >>> type(ax).__name__, ax.images[0].get_cmap().name, len(ax.figure.axes)
    ('Axes', 'RdBu_r', 2)
    >>> plt.close(ax.figure)
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
    r"""Scatter 2-D points coloured by class; points with ``y == unlabeled`` are grey.

    Point :math:`x_i = (x_{i1}, x_{i2})` is drawn at its coordinates; the :math:`c`-th
    class (in sorted order among the labelled points) gets colour
    :math:`\mathrm{PALETTE}[c \bmod 8]` and marker :math:`c \bmod 8` of
    ``o s ^ D v P X *``. When some points are unlabelled, these are drawn small and grey
    underneath and the labelled ones enlarged (4 times the area) with a black edge, so
    that a few labels stand out. No formula of a paper is involved.

    Used in :doc:`/notebooks/00_foundations` (Chapter 0, Foundations), and by
    :func:`plot_decision_regions`.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        The points; project higher-dimensional data first (e.g. PCA).
    y : array-like of shape (n_samples,), optional
        Labels, with ``unlabeled`` marking unlabelled points. Without ``y`` every point
        gets the first palette colour and no legend is drawn.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default: a new figure of size :data:`FIGSIZE`.
    title : str, optional
        Axes title.
    labels : list of str, optional
        Legend names for the classes (in the order of ``np.unique(y)`` over the labelled
        points); default ``"class <value>"``.
    s : float, default 12
        Marker area in points squared.
    unlabeled : scalar, default -1
        The value of ``y`` that marks an unlabelled point.

    Returns
    -------
    ax : matplotlib.axes.Axes
        The axes drawn on: one ``PathCollection`` per class, plus one for the unlabelled
        points if any.

    Raises
    ------
    ValueError
        If ``X`` is not of shape (n_samples, 2), or ``y`` is not of shape (n_samples,).

    See Also
    --------
    plot_decision_regions : The same points over a classifier's regions.

    Notes
    -----
    Cost: time and memory :math:`O(n)` plus one pass over the points per class
    (:math:`O(nC)` for :math:`C` classes).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from sslteach.plotting import plot_points
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> ax = plot_points(X, [0, 1, -1, -1])
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['unlabelled', 'class 0', 'class 1']
    >>> len(ax.collections)
    3
    >>> plt.close(ax.figure)
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
    r"""Colour the plane by a classifier's prediction and overlay the points.

    The classifier is evaluated on the :math:`r \times r` grid (:math:`r` =
    ``resolution``)

    .. math::

        z_{ab} = \bigl(\ell_1 + \tfrac{a}{r-1}(h_1 - \ell_1),\;
                       \ell_2 + \tfrac{b}{r-1}(h_2 - \ell_2)\bigr),
        \qquad \ell = \min_i x_i - \delta,\quad h = \max_i x_i + \delta,

    with :math:`\delta` = ``margin`` (minima and maxima per coordinate), and each cell
    is filled with the colour :math:`\mathrm{PALETTE}[c]` of the rank :math:`c` of its
    predicted class among the classes predicted on the grid (filled contours at
    25% opacity). No formula of a paper is involved.

    Used in :doc:`/notebooks/04_semi_supervised_ksc` (Chapter 4, after Alzate & Suykens
    2012) for the decision regions of its toy problems (the paper's Figures 2 and 3).

    Parameters
    ----------
    predict : callable or estimator
        ``predict(Z)`` for an (m, 2) array, returning m labels, or an object with a
        ``predict`` method (used in preference).
    X : array-like of shape (n_samples, 2)
        Points that set the plot range and are drawn on top.
    y : array-like of shape (n_samples,), optional
        Their labels (-1 = unlabelled, drawn grey) for :func:`plot_points`; without
        ``y`` the points are drawn small and black.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default: a new figure of size :data:`FIGSIZE`.
    title : str, optional
        Axes title.
    resolution : int, default 200
        Grid points per axis, :math:`r`.
    margin : float, default 0.5
        Space :math:`\delta` added around the points on every side, in data units.

    Returns
    -------
    ax : matplotlib.axes.Axes
        The axes drawn on, with limits :math:`[\ell_1, h_1] \times [\ell_2, h_2]`.

    Raises
    ------
    ValueError
        If ``predict`` is neither callable nor has a ``predict`` method, if ``X`` is not
        of shape (n_samples, 2), or (from :func:`plot_points`) if ``y`` does not hold
        one label per point.

    See Also
    --------
    plot_points : Draws the points on top.

    Notes
    -----
    Cost: :math:`r^2` predictions in one call (for a kernel model on :math:`n` training
    points, time :math:`O(r^2 n d)` and memory :math:`O(r^2 n)` if it forms the kernel
    between the grid and the training points), plus :math:`O(r^2)` for the contours and
    :math:`O(n)` for the points. Lower ``resolution`` for expensive models.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from sslteach.plotting import plot_decision_regions
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> ax = plot_decision_regions(lambda Z: (Z[:, 0] > 0.5).astype(int), X, [0, 1, -1, -1],
    ...                            resolution=20)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['unlabelled', 'class 0', 'class 1']
    >>> [float(v) for v in ax.get_xlim()]
    [-0.5, 1.5]
    >>> plt.close(ax.figure)
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
    r"""A "paper | this book" side-by-side table.

    Each cell is formatted from its value :math:`v` with :math:`k` = ``digits``
    decimals: a number as :math:`v` rounded to :math:`k` decimals, a pair
    :math:`(m, s)` as ":math:`m \pm s`" (mean and standard deviation), a string as it
    is, and None as a dash. Rows and columns are the union of both sides, in order of
    first appearance (the paper's first). No formula of a paper is involved; the
    values are the papers' tables, e.g. Table 1 of Bodó & Csató (2010).

    Used first in :doc:`/notebooks/02_cluster_kernels` (Chapter 2, after Bodó & Csató
    2010); also in Chapters 3 and 4.

    Parameters
    ----------
    paper, ours : dict of dict
        ``{row: {column: value}}``, where a value is a number, a ``(mean, std)`` pair,
        a preformatted string or None (shown as a dash). Rows and columns missing
        from one side are shown as dashes.
    digits : int, default 2
        Decimals of the numbers.
    row_name : str, default "method"
        Name of the row index.

    Returns
    -------
    table : pandas.DataFrame of shape (n_rows, 2 * n_columns)
        Rows are methods; the columns are a two-level index (data set, source), with
        sources ``"paper"`` and ``"this book"``, so each data set shows the paper's
        value next to ours. Every cell is a string.

    Raises
    ------
    ValueError
        If ``paper`` or ``ours`` is not a dict of dicts, or a value is not a number, a
        (mean, std) pair, a string or None.

    Notes
    -----
    Cost: time and memory :math:`O(RC)` for :math:`R` rows and :math:`C` columns.

    Examples
    --------
    >>> from sslteach.plotting import results_table
    >>> paper = {"TSK": {"Heart": (64.06, 4.42)}}
    >>> ours = {"TSK": {"Heart": (61.5, 3.9)}, "harmonic": {"Heart": 60.0}}
    >>> df = results_table(paper, ours)
    >>> df.shape, list(df.index)
    ((2, 2), ['TSK', 'harmonic'])
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
