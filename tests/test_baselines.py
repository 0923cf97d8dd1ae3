"""Chapter 5's added baselines (sslteach.protocols.baselines) against independent formulations."""

import numpy as np
import pytest
import scipy.optimize
import scipy.sparse as sp

from sslteach.graphs import knn_graph
from sslteach.kernels import rbf_kernel, squared_distances
from sslteach.protocols.baselines import (
    BASELINES,
    class_mass_normalise,
    gaussian_laplacian,
    harmonic_from_pinv,
    laprls_closed_form,
    laprls_from_inverse,
    laprls_inverse,
)
from sslteach.protocols.comparison import SetCache, select_and_transduce
from sslteach.spectral_kernels import harmonic_function


def _two_clouds(n=24, seed=0, gap=2.5):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (n // 2, 3)), rng.normal(0, 1, (n // 2, 3)) + [gap, 0, 0]])
    truth = np.repeat([0, 1], n // 2)
    y = np.full(n, -1)
    for i in (0, 1, 2, n // 2, n // 2 + 1):
        y[i] = truth[i]
    return X, y, truth


def _laplacian(X, k=4):
    W = knn_graph(X, k, weights="connectivity")
    return (sp.diags(np.asarray(W.sum(axis=1)).ravel()) - W).toarray()


@pytest.mark.parametrize("gamma_A, gamma_I", [(1e-2, 1.0), (1e-3, 50.0), (0.5, 1e3)])
def test_laprls_closed_form_minimises_the_objective(gamma_A, gamma_I):
    X, y, _ = _two_clouds()
    K, L = rbf_kernel(X, sigma=1.5), _laplacian(X)
    n, lab = y.size, np.flatnonzero(y >= 0)
    yl = np.where(y[lab] == 1, 1.0, -1.0)

    # Belkin, Niyogi & Sindhwani's objective over alpha, written out term by term
    def objective(a):
        f = K @ a
        return np.mean((yl - f[lab]) ** 2) + gamma_A * a @ K @ a + gamma_I / n**2 * f @ L @ f

    def gradient(a):
        f = K @ a
        r = np.zeros(n)
        r[lab] = f[lab] - yl
        return K @ (2 * r / lab.size + 2 * gamma_A * a + 2 * gamma_I / n**2 * (L @ f))

    direct = scipy.optimize.minimize(
        objective,
        np.zeros(n),
        jac=gradient,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 20000},
    )
    alpha, f = laprls_closed_form(K, L, y, gamma_A, gamma_I)
    assert objective(alpha) <= direct.fun + 1e-9
    assert np.allclose(f, K @ direct.x, atol=1e-4)
    assert np.allclose(gradient(alpha), 0, atol=1e-10)


@pytest.mark.parametrize("gamma_A, gamma_I", [(1e-2, 1.0), (1e-2, 1e4), (1e-4, 1e6)])
def test_laprls_cached_path_equals_the_closed_form(gamma_A, gamma_I):
    X, y, _ = _two_clouds(seed=1)
    K, L = rbf_kernel(X, sigma=1.0), _laplacian(X)
    _, f = laprls_closed_form(K, L, y, gamma_A, gamma_I)
    G = laprls_inverse(K, L, int(np.sum(y >= 0)), gamma_A, gamma_I)
    assert np.allclose(laprls_from_inverse(G, y), f, atol=1e-8 * np.abs(f).max())


def test_harmonic_from_pinv_solves_the_dirichlet_problem():
    X, y, _ = _two_clouds(seed=2)
    L = gaussian_laplacian(X, sigma=1.0)
    W = np.diag(np.diag(L)) - L
    lab, unl = np.flatnonzero(y >= 0), np.flatnonzero(y < 0)
    # the Dirichlet problem: L_UU f_U = W_UL y_L (Zhu, Ghahramani & Lafferty, eq. (5))
    f_u = np.linalg.solve(L[np.ix_(unl, unl)], W[np.ix_(unl, lab)] @ y[lab])
    f = harmonic_from_pinv(np.linalg.pinv(L), y)
    assert np.allclose(f[unl], f_u, atol=1e-10)
    assert np.allclose(f[lab], y[lab], atol=1e-10)
    # and sslteach's own harmonic function (Chapter 3) on the same dense graph
    labels, F = harmonic_function(W, y)
    assert np.allclose(F[:, 1], f, atol=1e-10)


def test_gaussian_laplacian_is_the_comparisons_kernel_without_the_diagonal():
    X, _, _ = _two_clouds(seed=3)
    K = rbf_kernel(X, sigma=0.7)
    W = K - np.eye(K.shape[0])
    assert np.allclose(gaussian_laplacian(X, 0.7), np.diag(W.sum(1)) - W)


def test_class_mass_normalisation_against_its_formula():
    rng = np.random.default_rng(4)
    f = rng.uniform(0, 1, 30)
    y = np.full(30, -1)
    y[:5] = [1, 1, 1, 0, 0]
    q = 4 / 7  # (3 + 1) / (5 + 2)
    u = y < 0
    want = [q * fi / f[u].sum() > (1 - q) * (1 - fi) / (1 - f[u]).sum() for fi in f]
    assert np.array_equal(class_mass_normalise(f, y), np.array(want, dtype=int))


def test_one_nn_against_the_nearest_labelled_point():
    X, y, _ = _two_clouds(seed=5)
    pred = BASELINES["1-NN (labelled only)"].transduce(SetCache(X), {}, y)
    lab = np.flatnonzero(y >= 0)
    D = squared_distances(X)[:, lab]
    assert np.array_equal(pred, y[lab][D.argmin(axis=1)])


@pytest.mark.parametrize("name", list(BASELINES))
def test_baselines_run_in_the_protocol(name):
    X, y, truth = _two_clouds(n=40, seed=6, gap=6.0)
    r = select_and_transduce(BASELINES[name], SetCache(X), y)
    assert r.transduction.shape == y.shape and set(np.unique(r.transduction)) <= {0, 1}
    assert np.array_equal(r.transduction[y >= 0], y[y >= 0]) or name == "LapRLS"
    assert np.mean(r.transduction == truth) > 0.9
    assert len(BASELINES[name].grid) <= 6


def test_one_nn_breaks_ties_by_index():
    # x_2 is as near to x_0 (label 1) as to x_4 (label 0), x_3 as near to x_4 as to x_0's copy x_1
    X = np.array([[0.0], [0.0], [1.0], [1.0], [2.0], [5.0]])
    y = np.array([1, -1, -1, -1, 0, -1])
    pred = BASELINES["1-NN (labelled only)"].transduce(SetCache(X), {}, y)
    assert pred.tolist() == [1, 1, 1, 1, 0, 0]
    y2 = np.array([-1, -1, -1, -1, 0, -1])
    y2[1] = 1  # now the label 1 sits at index 1, still before index 4
    assert BASELINES["1-NN (labelled only)"].transduce(SetCache(X), {}, y2).tolist() == [1, 1, 1, 1, 0, 0]
    y3 = np.array([0, -1, -1, -1, 1, -1])  # labels swapped: the tie goes to index 0 again
    assert BASELINES["1-NN (labelled only)"].transduce(SetCache(X), {}, y3).tolist() == [0, 0, 0, 0, 1, 1]
