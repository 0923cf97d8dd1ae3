"""sslteach.plotting: the shared figures draw what they are given; tables line up."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from sslteach import plotting  # noqa: E402
from sslteach.plotting import (  # noqa: E402
    PALETTE,
    plot_decision_regions,
    plot_kernel_matrix,
    plot_points,
    results_table,
    set_style,
)


def test_results_table_side_by_side():
    paper = {"TSK": {"HEART": (64.06, 4.42), "WINE": 72.28}}
    ours = {"TSK": {"HEART": (61.5, 3.9)}, "harmonic": {"HEART": 60.0}}
    df = results_table(paper, ours)
    assert list(df.index) == ["TSK", "harmonic"]
    assert df.loc["TSK", ("HEART", "paper")] == "64.06 ± 4.42"
    assert df.loc["TSK", ("HEART", "this book")] == "61.50 ± 3.90"
    assert df.loc["TSK", ("WINE", "this book")] == "–"
    assert df.loc["harmonic", ("HEART", "paper")] == "–"
    with pytest.raises(ValueError, match="dict of dicts"):
        results_table({"a": 1}, {})


def test_kernel_matrix_reorders_and_picks_colormap():
    set_style()
    K = np.array([[1.0, -0.5], [-0.5, 1.0]])
    ax = plot_kernel_matrix(K, order=[1, 0], title="K")
    assert ax.images[0].get_cmap().name == "RdBu_r"
    ax = plot_kernel_matrix(np.eye(3))
    assert ax.images[0].get_cmap().name == "viridis"
    with pytest.raises(ValueError, match="square"):
        plot_kernel_matrix(np.ones((2, 3)))
    plt.close("all")


def test_decision_regions_and_points():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 2))
    y = (X[:, 0] > 0).astype(int)
    y[::3] = -1
    ax = plot_decision_regions(lambda Z: (Z[:, 0] > 0).astype(int), X, y, resolution=20)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["unlabelled", "class 0", "class 1"]
    with pytest.raises(ValueError, match="2-D"):
        plot_points(np.ones((3, 3)))
    with pytest.raises(ValueError, match="one label per point"):
        plot_points(X, y[:-1])
    assert len(PALETTE) >= 8
    plt.close("all")


def test_kernel_matrix_order_must_be_a_permutation():
    K = np.eye(4)
    for bad in ([0, 1, 2], [0, 0, 1, 2], [0, 1, 2, 4]):
        with pytest.raises(ValueError, match="permutation"):
            plotting.plot_kernel_matrix(K, order=bad)
    plt.close("all")


def test_region_colours_follow_the_point_colours_when_a_class_is_not_predicted():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 1.0]])
    y = np.array([0, 1, 2, -1])
    ax = plotting.plot_decision_regions(lambda Z: np.where(Z[:, 0] > 1.5, 2, 1), X, y, resolution=10)
    # the filled bands index the classes [0, 1, 2] of y, so predictions 1 and 2 take the
    # colours of classes 1 and 2 (before the fix: bands for [1, 2] only, coloured as 0 and 1)
    filled = ax.collections[0]
    assert len(filled.levels) == 4, "the regions must be indexed by y's three classes"
    assert np.allclose(filled.cmap(1)[:3], matplotlib.colors.to_rgb(plotting.PALETTE[1])), "class 1's colour"
    plt.close("all")
