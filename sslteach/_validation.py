"""Input checks shared by every module (private).

Each helper raises :class:`ValueError` with a message that says what was wrong and
what to do, so that bad input never reaches LAPACK or a sparse routine.
"""

from __future__ import annotations

import numbers
import os
import sys
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.validation import check_array

__all__ = [
    "check_data",
    "check_square",
    "check_positive",
    "check_int",
    "check_label_values",
    "check_indices",
    "check_labels",
    "one_hot",
    "MAX_ABS",
    "check_magnitude",
    "check_vector",
    "validate_fit_data",
    "warn_caller",
]

#: Entries larger than this in absolute value are refused: squared distances and kernel
#: sums of such values overflow float64 (1e100 squared is 1e200, far from 1.8e308).
MAX_ABS = 1e100


_OWN_DIRS = tuple(
    os.path.dirname(os.path.abspath(m.__file__)) + os.sep
    for m in (sys.modules[__package__], sys.modules["sklearn"])
)


def warn_caller(message, category=UserWarning):
    """``warnings.warn`` attributed to the user's line: the first frame outside sslteach and
    scikit-learn (whose ``fit`` wrappers sit between). Python shows a warning once per
    location, so one attributed to a line inside the package would be shown once per
    session, whoever calls; this one is shown once per calling line."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_OWN_DIRS):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def check_data(X, *, name="X", accept_sparse=False, min_samples=1, finite=True):
    """Return ``X`` as a finite 2-D float64 array (or sparse matrix when allowed).

    A 1-D array is refused with the reshape hint scikit-learn users know. With
    ``finite=False`` the caller promises to detect NaN/inf itself (e.g. from sums it
    computes anyway) and to call :func:`check_data` again to raise the message.
    """
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array of shape (n_samples, n_features).")
    if not sp.issparse(X):
        try:
            arr = np.asarray(X)
        except ValueError as exc:  # a ragged list of rows
            raise ValueError(
                f"{name} must be a 2-D array with the same number of entries in every row; {exc}"
            ) from None
        if arr.dtype.kind == "c":
            raise ValueError(f"{name} holds complex numbers; pass real values (e.g. np.abs or .real).")
        if arr.ndim == 1:
            raise ValueError(
                f"{name} is 1-D (shape {arr.shape}); pass a 2-D array of shape "
                "(n_samples, n_features). Reshape your data: X.reshape(-1, 1) for one feature "
                "or X.reshape(1, -1) for one sample."
            )
        if arr.ndim != 2:
            raise ValueError(f"{name} must be 2-D (n_samples, n_features); got {arr.ndim} dimensions.")
    try:
        X = check_array(
            X,
            accept_sparse=["csr", "csc"] if accept_sparse else False,
            dtype=np.float64,
            ensure_all_finite=finite,
            ensure_min_samples=min_samples,
            input_name=name,
        )
    except TypeError as exc:  # sparse input where dense is needed (scikit-learn's message says how)
        raise ValueError(f"{name}: {exc}") from exc
    except ValueError as exc:
        msg = str(exc)
        if "could not convert" in msg:
            raise ValueError(
                f"{name} must hold numbers; {msg}. Encode categorical columns first "
                "(e.g. sklearn.preprocessing.OneHotEncoder)."
            ) from exc
        if "NaN" in msg or "infinity" in msg:
            raise ValueError(
                f"{name} contains NaN or infinity; remove or impute those entries "
                "(e.g. sklearn.impute.SimpleImputer) before calling this function."
            ) from exc
        raise ValueError(f"{name}: {msg}") from exc
    if finite:
        check_magnitude(X, name)
    return X


def check_vector(v, name, *, size=None, low=None, high=None, strict_low=False, allow_empty=False):
    """Return ``v`` as a finite 1-D float64 array (a scalar counts as one entry), named in
    every message: numbers only, optionally of a given size and within [low, high]
    (``strict_low=True``: above ``low``)."""
    if v is None:
        raise ValueError(f"{name} is None; pass a 1-D array of numbers.")
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold numbers; got {v!r:.80}.") from None
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape}.")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty; pass a non-empty array (at least one value).")
    if size is not None and arr.size != size:
        raise ValueError(f"{name} must have {size} entries; got {arr.size}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity; pass finite numbers.")
    if low is not None and arr.size and (arr.min() <= low if strict_low else arr.min() < low):
        bound = f"{'>' if strict_low else '>='} {low:g}"
        if low == 0:
            bound = "positive" if strict_low else "non-negative"
        raise ValueError(f"{name} must be {bound}; got a minimum of {arr.min():g}.")
    if high is not None and arr.size and arr.max() > high:
        raise ValueError(f"{name} must be <= {high:g}; got a maximum of {arr.max():g}.")
    return arr


def check_magnitude(X, name="X"):
    """Refuse entries beyond :data:`MAX_ABS` (finite, but squares and sums would overflow)."""
    data = X.data if sp.issparse(X) else X
    if data.size:
        big = float(np.abs(data).max())
        if big > MAX_ABS:
            raise ValueError(
                f"{name} has entries as large as {big:.3g} in absolute value; beyond {MAX_ABS:g} "
                "squared distances and kernel sums overflow float64. Rescale the features, e.g. "
                "with sklearn.preprocessing.StandardScaler."
            )
    return X


def check_square(K, *, name="K", symmetric=False, accept_sparse=False, atol=1e-10, finite=True):
    """Return ``K`` as a finite square float64 matrix; optionally require symmetry."""
    if K is None:
        raise ValueError(f"{name} is None; pass a square (n, n) matrix.")
    if not sp.issparse(K) and np.asarray(K).ndim != 2:
        raise ValueError(f"{name} must be a 2-D square matrix; got shape {np.shape(K)}.")
    K = check_data(K, name=name, accept_sparse=accept_sparse, finite=finite)
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            f"{name} must be square; got shape {K.shape}. Pass the (n, n) matrix "
            "over one set of points (e.g. rbf_kernel(X) rather than rbf_kernel(X, Y))."
        )
    if symmetric:
        worst, scale = _asymmetry(K)
        if worst > atol * max(1.0, scale):
            raise ValueError(
                f"{name} must be symmetric; max |{name} - {name}.T| = {worst:.3g}. "
                f"Symmetrise it with ({name} + {name}.T) / 2 if the asymmetry is round-off."
            )
    return K


def _asymmetry(K, block=512):
    """(max |K - K.T|, max |K|), computed in row blocks: no n x n temporary."""
    if sp.issparse(K):
        d = abs(K - K.T)
        return (d.max() if d.nnz else 0.0), (abs(K).max() if K.nnz else 0.0)
    worst = scale = 0.0
    for i in range(0, K.shape[0], block):
        rows = K[i : i + block]
        worst = max(worst, float(np.abs(rows - K[:, i : i + block].T).max()))
        scale = max(scale, float(np.abs(rows).max()))
    return worst, scale


def check_positive(value, name, *, strict=True):
    """Return ``value`` as a float, requiring it to be finite and > 0 (or >= 0)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number; got {value!r}.")
    value = float(value)
    bad = (value <= 0) if strict else (value < 0)
    if not np.isfinite(value) or bad:
        bound = "> 0" if strict else ">= 0"
        raise ValueError(f"{name} must be finite and {bound}; got {value!r}.")
    return value


def check_int(value, name, *, low, high=None, high_hint=""):
    """Return ``value`` as an int in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}.")
    value = int(value)
    if value < low or (high is not None and value > high):
        rng = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be in {rng}; got {value}.{(' ' + high_hint) if high_hint else ''}")
    return value


def check_indices(idx, n, name="labeled"):
    """Return ``idx`` (integer indices or a boolean mask of length n) as indices, in order.

    Refuses an empty selection, a mask of the wrong length, indices out of range or
    repeated, and anything that is not integers or booleans.
    """
    arr = np.asarray(idx)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D: indices of points or a boolean mask; got shape {arr.shape}.")
    if arr.dtype == bool:
        if arr.size != n:
            raise ValueError(f"{name} is a boolean mask of length {arr.size}, but there are {n} points.")
        arr = np.flatnonzero(arr)
    elif arr.size and arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer indices or be a boolean mask; got dtype {arr.dtype}.")
    arr = arr.astype(np.intp)
    if arr.size == 0:
        raise ValueError(f"{name} is empty; select at least one point.")
    if arr.min() < 0 or arr.max() >= n:
        raise ValueError(f"{name} holds indices outside [0, {n - 1}].")
    if np.unique(arr).size != arr.size:
        raise ValueError(f"{name} repeats an index; each point can be selected once.")
    return arr


def check_label_values(y, name="y"):
    """Refuse labels that cannot follow the ``-1`` = unlabelled convention.

    Labels must be numbers (a string label cannot be told apart from the unlabelled mark,
    and a float NaN is not a class): encode other labels first, e.g.
    ``np.unique(y, return_inverse=True)[1]``. An object array of numbers is accepted.
    Returns ``y`` as an array.
    """
    if y is None:
        raise ValueError(f"{name} is None; pass one label per point (-1 for unlabelled points).")
    y = np.asarray(y)
    if y.dtype.kind == "O":
        try:
            y = y.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"Unknown label type: {name} has dtype object with entries that are not numbers. "
                f"Encode the labels as integers first, e.g. np.unique({name}, return_inverse=True)[1], "
                "and mark unlabelled points with -1."
            ) from None
    if y.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} must hold numeric class labels (with -1 for unlabelled points); got dtype "
            f"{y.dtype}. Encode the labels as integers first, e.g. np.unique({name}, return_inverse=True)[1]."
        )
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(
            f"{name} contains NaN or infinity, which is not a class; mark unlabelled points with -1."
        )
    return y


def check_labels(
    y,
    n,
    *,
    unlabeled=-1,
    values=None,
    n_classes=None,
    min_classes=1,
    who="This method",
    name="y",
    hint="",
):
    """The one label checker of sslteach: every function and estimator that takes labels calls it.

    Parameters
    ----------
    y : array-like of shape (n,)
        One label per point. A column vector (n, 1) is accepted with a
        ``DataConversionWarning``, as in scikit-learn.
    n : int
        The number of points.
    unlabeled : number or None, default -1
        The mark of an unlabelled point: -1 is scikit-learn's semi-supervised convention,
        0 the paper's in :mod:`sslteach.ksc`'s low-level functions; None when every point
        must carry a label.
    values : tuple of numbers, optional
        The only class values allowed (e.g. ``(-1, 1)``).
    n_classes : int, optional
        Exactly this many classes among the labelled points (2 for a binary model).
    min_classes : int, default 1
        At least this many classes among the labelled points.
    who : str
        The method's name, for the messages.
    hint : str
        Appended to the message about the number of classes.

    Returns
    -------
    y : ndarray of shape (n,)
    labeled : ndarray of bool, shape (n,)
    classes : ndarray, the sorted classes of the labelled points
    codes : ndarray of int, shape (n_labeled,), the index in ``classes`` of each labelled point

    Raises
    ------
    ValueError
        Non-numeric, NaN or continuous labels ("Unknown label type", as scikit-learn says),
        a wrong shape, no labelled point, values outside ``values``, or too few or too many
        classes; each message says what to do.
    """
    y = check_label_values(y, name)
    if y.ndim == 2 and y.shape[1] == 1:
        warn_caller(
            f"A column-vector {name} was passed when a 1d array was expected. Please change the "
            f"shape of {name} to (n_samples,), for example using ravel().",
            DataConversionWarning,
        )
        y = y.ravel()
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(
            f"{name} must be 1-D with one entry per point (length {n}); got shape {y.shape}."
            + ("" if unlabeled is None else f" Mark unlabelled points with {unlabeled}.")
        )
    if y.dtype.kind == "f" and np.any(y != np.round(y)):
        raise ValueError(
            f"Unknown label type: continuous. {name} holds non-integer values, like a regression "
            "target; class labels must be integers (or integer-valued floats)."
        )
    labeled = np.ones(n, dtype=bool) if unlabeled is None else (y != unlabeled)
    mark = "" if unlabeled is None else f" (every entry is {unlabeled}, the unlabelled mark)"
    if not labeled.any():
        raise ValueError(f"{name} has no labelled point{mark}; label at least one point of each class.")
    classes, codes = np.unique(y[labeled], return_inverse=True)
    if values is not None and not np.all(np.isin(classes, values)):
        allowed = ", ".join(f"{v:+d}" if isinstance(v, int) and v else str(v) for v in values)
        hint = "" if unlabeled is None else f" and {unlabeled} for unlabelled points"
        raise ValueError(
            f"{name} must hold the labels {{{allowed}}}{hint}; got {classes.tolist()}. Recode two "
            f"classes a, b with np.where({name} == a, 1, -1)."
        )
    words = {1: "one", 2: "two", 3: "three"}
    got = (
        f"y has labelled points of one class only ({classes.tolist()}): label at least one point of "
        "another class."
        if classes.size == 1
        else f"got {classes.size} ({classes.tolist()})."
    )
    if n_classes is not None and classes.size != n_classes:
        binary = "Only binary classification is supported. " if n_classes == 2 and classes.size > 2 else ""
        raise ValueError(
            f"{binary}{who} needs labelled points of exactly {words.get(n_classes, n_classes)} "
            f"classes; {got}{hint}"
        )
    if classes.size < min_classes:
        raise ValueError(
            f"{who} needs labelled points of at least {words.get(min_classes, min_classes)} classes; "
            f"{got}{hint}"
        )
    return y, labeled, classes, codes.astype(np.intp)


def one_hot(codes, n_classes):
    """The (len(codes), n_classes) indicator matrix of integer codes (rows: points)."""
    codes = np.asarray(codes, dtype=np.intp)
    Y = np.zeros((codes.size, n_classes))
    Y[np.arange(codes.size), codes] = 1.0
    return Y


def validate_fit_data(estimator, X, y="no_validation", *, min_samples=1, accept_sparse=False, reset=True):
    """scikit-learn's ``validate_data`` (sets and checks ``n_features_in_``), float64, then
    :func:`check_magnitude`. ``y=None`` for an estimator that needs ``y`` raises
    scikit-learn's "requires y to be passed" error; ``y="no_validation"`` skips y."""
    from sklearn.utils.validation import validate_data

    out = validate_data(
        estimator,
        X,
        y,
        reset=reset,
        accept_sparse=["csr", "csc"] if accept_sparse else False,
        dtype=np.float64,
        ensure_min_samples=min_samples,
    )
    X = out if isinstance(y, str) and y == "no_validation" else out[0]
    check_magnitude(X)
    return out
