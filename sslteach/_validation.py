"""Input checks shared by every module (private).

Each helper raises :class:`ValueError` with a message that says what was wrong and
what to do, so that bad input never reaches LAPACK or a sparse routine.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_array

__all__ = [
    "check_data",
    "check_square",
    "check_positive",
    "check_int",
    "check_partial_labels",
    "check_label_values",
    "check_indices",
]


def check_data(X, *, name="X", accept_sparse=False, min_samples=1, finite=True):
    """Return ``X`` as a finite 2-D float64 array (or sparse matrix when allowed).

    A 1-D array is refused with the reshape hint scikit-learn users know. With
    ``finite=False`` the caller promises to detect NaN/inf itself (e.g. from sums it
    computes anyway) and to call :func:`check_data` again to raise the message.
    """
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array of shape (n_samples, n_features).")
    if not sp.issparse(X):
        arr = np.asarray(X)
        if arr.ndim == 1:
            raise ValueError(
                f"{name} is 1-D (shape {arr.shape}); pass a 2-D array of shape "
                "(n_samples, n_features): use X.reshape(-1, 1) for one feature "
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
        raise
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
    ``np.unique(y, return_inverse=True)[1]``. Returns ``y`` as an array.
    """
    y = np.asarray(y)
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


def check_partial_labels(y, n, *, min_classes=2):
    """scikit-learn's semi-supervised labels: ``-1`` = unlabelled, any other value a class.

    Returns the boolean mask of labelled points and the sorted classes; refuses a ``y``
    that is not 1-D with one entry per point, or with labels of fewer than ``min_classes``
    classes.
    """
    y = check_label_values(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must be 1-D with one entry per row of X ({n}); got shape {y.shape}.")
    labeled = y != -1
    classes = np.unique(y[labeled])
    if classes.size < min_classes:
        raise ValueError(
            f"y needs labelled points (y != -1) of at least {min_classes} classes; got {classes.size}."
        )
    return labeled, classes
