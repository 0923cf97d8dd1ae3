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


# ---- the linear SVM (Chapter 5, the row "linear SVM (labelled only)") ----------------------

LINEAR = "linear SVM (labelled only)"


def _sparse_documents(n=60, d=500, seed=7):
    """Rows of unit length with a few non-zero word weights, in two topics (a Text in small)."""
    rng = np.random.default_rng(seed)
    topic = sp.hstack([sp.random(n // 2, 40, density=0.2, random_state=rng), sp.csr_matrix((n // 2, d - 40))])
    X = sp.random(n, d, density=0.04, random_state=rng) + sp.vstack([topic, sp.csr_matrix((n - n // 2, d))])
    X = sp.csr_matrix(X)
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = sp.csr_matrix(sp.diags(1 / norms) @ X)
    truth = np.repeat([1, 0], n // 2)
    y = np.full(n, -1)
    lab = np.r_[0:4, n // 2 : n // 2 + 4]
    y[lab] = truth[lab]
    return X, y, truth


def _sparse_linear_svc(X, y, c):
    """scikit-learn's linear SVC fitted on the sparse rows themselves (no embedding)."""
    from sklearn.svm import SVC

    lab = np.flatnonzero(y >= 0)
    k_bar = float(np.mean(np.asarray(X.multiply(X).sum(axis=1)).ravel()))
    return SVC(kernel="linear", C=c / k_bar).fit(X[lab], y[lab])


@pytest.mark.parametrize("c", [0.01, 1.0, 1000.0])
def test_linear_kernel_on_the_embedding_is_the_linear_kernel_on_the_features(c):
    from sslteach.protocols.comparison import exact_embedding

    X, y, _ = _sparse_documents()
    Z = exact_embedding(X)
    assert Z.shape[1] <= X.shape[0] < X.shape[1]
    G = (X @ X.T).toarray()
    assert np.abs(Z @ Z.T - G).max() < 1e-12 * np.abs(G).max()
    # the row's transduction on the embedding = the linear SVC on the sparse features
    svc = _sparse_linear_svc(X, y, c)
    pred = BASELINES[LINEAR].transduce(SetCache(Z), {"c": c}, y)
    assert np.array_equal(pred, svc.predict(X))
    lab = np.flatnonzero(y >= 0)
    from sklearn.svm import SVC

    on_z = SVC(kernel="linear", C=svc.C).fit(Z[lab], y[lab])
    gap = np.abs(on_z.decision_function(Z) - svc.decision_function(X)).max()
    # libsvm stops at a KKT tolerance of 1e-3; where round-off in the kernel changes its
    # path (c = 1000 here: one SMO step more on one side) the outputs differ below it
    assert gap < (1e-12 if c <= 1 else 1e-2), gap


def test_text_linear_kernel_is_the_cosine_and_survives_the_embedding():
    """On the Text set itself: unit rows (so linear = cosine), the embedding's Gram matrix equals
    the word features' to 1e-12, and every setting of the row gives the sparse SVC's labels."""
    from sslteach.datasets import load_ssl_benchmark
    from sslteach.protocols.comparison import exact_embedding

    b = load_ssl_benchmark("text", 0, 10)
    X = sp.csr_matrix(b.X)
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    assert np.all(np.abs(norms - 1) < 1e-12)
    Z = exact_embedding(X)
    assert np.abs(Z @ Z.T - (X @ X.T).toarray()).max() < 1e-12
    cache = SetCache(Z)
    for p in BASELINES[LINEAR].grid:
        pred = BASELINES[LINEAR].transduce(cache, p, b.y_train)
        assert np.array_equal(pred, _sparse_linear_svc(X, b.y_train, p["c"]).predict(X)), p


def test_linear_svm_against_its_dual_qp():
    """The row's labels against the SVM dual solved by SLSQP: max sum(a) - a'Qa/2,
    0 <= a <= C, y'a = 0, b from the free support vectors, f = sum a_i y_i <x_i, x> + b."""
    X, _, truth = _two_clouds(n=30, seed=8, gap=1.5)
    y = np.full(30, -1)
    lab = np.r_[0:6, 15:21]
    y[lab] = truth[lab]
    c = 0.3
    k_bar = np.mean(np.sum(X**2, axis=1))
    C = c / k_bar
    s = np.where(y[lab] == 1, 1.0, -1.0)
    Q = (s[:, None] * s[None, :]) * (X[lab] @ X[lab].T)
    res = scipy.optimize.minimize(
        lambda a: a @ Q @ a / 2 - a.sum(),
        np.full(lab.size, C / 2),
        jac=lambda a: Q @ a - 1,
        bounds=[(0, C)] * lab.size,
        constraints=[{"type": "eq", "fun": lambda a: s @ a, "jac": lambda a: s}],
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    a = res.x
    w = (a * s) @ X[lab]
    free = (a > 1e-6 * C) & (a < C * (1 - 1e-6))
    assert free.any()
    b0 = np.mean(s[free] - X[lab][free] @ w)
    f = X @ w + b0
    pred = BASELINES[LINEAR].transduce(SetCache(X), {"c": c}, y)
    sure = np.abs(f) > 0.05  # libsvm stops at a KKT tolerance of 1e-3
    assert sure.sum() >= 25
    assert np.array_equal(pred[sure], (f[sure] > 0).astype(int))


def test_linear_svm_does_not_change_when_the_points_are_rescaled():
    """C = c / mean |x|^2: multiplying every point by 7.3 leaves the transduction unchanged
    (with a fixed C it would not: the effective regularisation would move by 7.3^2)."""
    X, _, truth = _two_clouds(n=40, seed=9, gap=1.0)
    y = np.full(40, -1)
    lab = np.r_[0:8, 20:28]
    y[lab] = truth[lab]
    for p in BASELINES[LINEAR].grid:
        a = BASELINES[LINEAR].transduce(SetCache(X), p, y)
        b = BASELINES[LINEAR].transduce(SetCache(7.3 * X), p, y)
        assert np.array_equal(a, b), p
