"""Decisions that do not depend on round-off (private).

The same book on every machine: a grid search, a leave-one-out choice, a threshold, an
argmax or an LP's support must come out the same whatever BLAS kernel, CPU or thread
count computed the numbers behind it. Those numbers agree only to round-off (a relative
1e-16 to 1e-12), so every decision here treats values within a stated relative
tolerance as equal and breaks the tie by a stated rule:

* :func:`first_best`: among candidates listed simplest first, the first whose score is
  within ``TIE_RTOL`` of the best;
* :func:`argmax_rows`: per row, the first column within ``TIE_RTOL`` of the row's maximum
  (the smallest class code);
* :func:`stable_order`: a decreasing sort in which entries within ``TIE_RTOL`` of each
  other keep their index order;
* :func:`orient_columns`: an eigenvector's sign, which LAPACK leaves to the kernel, fixed
  by its largest entry (the first of those tied to round-off);
* :func:`fixed`: a number printed with a fixed number of decimals, or more where the value
  sits within round-off of a half of the last digit (a rounding edge);
* :func:`first_tied_not_one_class`: the selection rule of Chapters 2 and 5 (the best score,
  ties broken against answers that predict one class).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "TIE_RTOL",
    "DENSE_EIGEN_LIMIT",
    "first_best",
    "argmax_rows",
    "stable_order",
    "orient_columns",
    "fixed",
    "first_tied_not_one_class",
]

#: Up to this many points eigenvectors come from a dense ``eigh`` (LAPACK, all pairs, a few
#: seconds at 2000); above, from ``scipy.sparse.linalg.eigsh``. The one limit of the module.
DENSE_EIGEN_LIMIT = 2000

#: Relative tolerance under which two scores count as tied (round-off is 1e-16 to 1e-12).
TIE_RTOL = 1e-9


def first_best(scores, *, maximize=True, rtol=TIE_RTOL):
    """Flat index of the first entry within ``rtol`` of the best (NaN entries are skipped).

    The tolerance is relative to the largest magnitude among the finite scores, so a
    score that differs from the best by round-off counts as tied and the earlier
    candidate (by the caller's convention the simpler one) wins.
    """
    s = np.asarray(scores, dtype=float).ravel()
    finite = np.isfinite(s)
    if not finite.any():
        raise ValueError("every score is NaN or infinite; there is nothing to choose from.")
    best = s[finite].max() if maximize else s[finite].min()
    tol = rtol * max(float(np.abs(s[finite]).max()), np.finfo(float).tiny)
    near = finite & ((s >= best - tol) if maximize else (s <= best + tol))
    return int(np.flatnonzero(near)[0])


def argmax_rows(F, *, rtol=TIE_RTOL):
    """Row-wise argmax in which columns within ``rtol`` of the row's maximum are tied.

    The tolerance is relative to the largest magnitude in the row; ties go to the first
    column. A row of zeros (no evidence for any class) gets column 0.
    """
    F = np.asarray(F, dtype=float)
    top = F.max(axis=1, keepdims=True)
    tol = rtol * np.abs(F).max(axis=1, keepdims=True)
    return np.argmax(F >= top - tol, axis=1)


def stable_order(v, *, rtol=TIE_RTOL):
    """Indices sorting ``v`` decreasingly, entries within ``rtol`` (relative to max |v|) tied.

    Each entry is snapped to a grid of spacing ``rtol * max|v|`` before a stable sort, so
    entries equal up to round-off keep their index order on every machine.
    """
    v = np.asarray(v, dtype=float)
    scale = float(np.abs(v).max()) if v.size else 0.0
    if scale == 0.0:
        return np.arange(v.size)
    snapped = np.round(v / (rtol * scale))
    return np.argsort(-snapped, kind="stable")



def orient_columns(V, *, rtol=TIE_RTOL):
    """Fix the arbitrary sign of eigenvectors: each column's largest-magnitude entry is positive.

    Entries whose magnitudes agree with the largest to within ``rtol`` count as tied and
    the first of them decides, so the sign is the same on every machine. A 1-D ``V`` is
    one vector. Returns a new array.
    """
    V = np.array(V, dtype=float, copy=True)
    if V.ndim == 1:
        return orient_columns(V[:, None], rtol=rtol)[:, 0]
    a = np.abs(V)
    first = np.argmax(a >= a.max(axis=0, keepdims=True) * (1 - rtol), axis=0)
    signs = np.where(V[first, np.arange(V.shape[1])] < 0, -1.0, 1.0)
    return V * signs


def _on_edge(x: float, decimals: int, rtol: float) -> bool:
    q = 10.0**-decimals
    half = (np.floor(x / q) + 0.5) * q
    return abs(x - half) <= rtol * max(abs(x), q)


def fixed(x, decimals: int, *, sign: bool = False, rtol: float = TIE_RTOL) -> str:
    """``x`` with ``decimals`` decimals, or with the fewest more (up to 3) that take it off an edge.

    A value within ``rtol`` (relative) of a half of the last printed digit prints one way or
    the other by its last bit, which differs between machines (``1/16`` to three decimals is
    ``0.062`` or ``0.063``); such a value gets more decimals (``0.0625``, exact here).
    ``sign=True`` prints a ``+`` before positive values.

    >>> fixed(1 / 16, 3), fixed(2 / 3, 3), fixed(94.75, 1), fixed(0.5, 2, sign=True)
    ('0.0625', '0.667', '94.75', '+0.50')
    """
    x = float(x)
    if not np.isfinite(x):
        return str(x)
    for d in range(decimals, decimals + 4):
        if not _on_edge(x, d, rtol):
            break
    else:
        raise ValueError(f"{x!r} is on a rounding edge at {decimals} to {d} decimals; print it exactly.")
    return f"{x:+.{d}f}" if sign else f"{x:.{d}f}"


def first_tied_not_one_class(scores, predict, *, on=None, rtol=TIE_RTOL):
    """The selection rule of Chapters 2 and 5: the best score, ties broken against one-class answers.

    The candidates whose score is within ``rtol`` (relative to the largest magnitude) of the
    best are tied. In their order, ``predict(i)`` is called for each until one predicts more
    than one class on the entries ``on`` (all when None; the unlabelled points in practice, so
    the rule looks at predicted classes, never at hidden labels); that candidate wins, else the
    first tied one. Returns ``(index, prediction, n_tied)``.
    """
    s = np.asarray(scores, dtype=float).ravel()
    finite = np.isfinite(s)
    if not finite.any():
        raise ValueError("every score is NaN or infinite; there is nothing to choose from.")
    tol = rtol * max(float(np.abs(s[finite]).max()), np.finfo(float).tiny)
    tied = np.flatnonzero(finite & (s >= s[finite].max() - tol))
    first = None
    for i in tied:
        pred = predict(int(i))
        if first is None:
            first = (int(i), pred)
        if np.unique(np.asarray(pred) if on is None else np.asarray(pred)[on]).size > 1:
            return int(i), pred, tied.size
    return first[0], first[1], tied.size
