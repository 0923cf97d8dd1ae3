"""sslteach.plotting: the shared figures draw what they are given; tables line up."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

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
