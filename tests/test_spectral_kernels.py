"""sslteach.spectral_kernels against independent formulations."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from sklearn.datasets import make_moons
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

from sslteach import datasets, graphs
from sslteach import spectral_kernels as sk


def _problem(seed, n=40, m=6, n_classes=2, n_labeled=8):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3)) + np.repeat(np.arange(n_classes), n // n_classes)[:, None] * 2.5
    y_true = np.repeat(np.arange(n_classes), n // n_classes)
    y = datasets.ssl_split(y_true, n_labeled, random_state=seed)
    W = graphs.knn_graph(X, 5)
    lam, V = sk.laplacian_eigenpairs(W, m)
    return X, y_true, y, W, lam, V


def _T_by_definition(V, y):
    """T of eq. (13) through vec(K_t) and the indicator matrix E, exactly as the paper writes it."""
    n, m = V.shape
    lab = np.flatnonzero(y != -1)
    E = np.zeros((n, n))
    for i in lab:
        for j in lab:
            if i != j:
                E[i, j] = 1.0 if y[i] == y[j] else -1.0
    M = np.column_stack([np.outer(V[:, t], V[:, t]).ravel(order="F") for t in range(m)])  # n^2 x m
    return np.vstack([E[:, i] @ M[i * n : (i + 1) * n] for i in lab])  # e_i' M_i (E is symmetric)


def _lp_by_linprog(lam, T, eta, beta):
    """The LP (14) in the variables z = (mu, xi), built independently for scipy's HiGHS."""
    l, m = T.shape
    c = np.r_[lam, beta * np.ones(l)]
    A1 = np.hstack([-T, -np.eye(l)])  # -T mu - xi <= -1
    G = np.zeros((m - 1, m))
    G[np.arange(m - 1), np.arange(m - 1)] = -1.0
    G[np.arange(m - 1), np.arange(1, m)] = eta  # -mu_t + eta mu_{t+1} <= 0
    A2 = np.hstack([G, np.zeros((m - 1, l))])
    res = linprog(
        c,
        A_ub=np.vstack([A1, A2]),
        b_ub=np.r_[-np.ones(l), np.zeros(m - 1)],
        bounds=(0, None),
        method="highs",
    )
    assert res.status == 0
    return res.fun


@settings(max_examples=15)
@given(
    seed=st.integers(0, 10_000),
    n_classes=st.sampled_from([2, 3]),
    eta=st.sampled_from([1.0, 2.0, 3.5]),
    beta=st.sampled_from([0.1, 1.0, 50.0]),
)
def test_lp_matches_linprog_and_constraints_hold(seed, n_classes, eta, beta):
    _, _, y, _, lam, V = _problem(seed, n=42, n_classes=n_classes, n_labeled=9)
    T = sk.tsk_constraint_matrix(V, y)
    assert np.allclose(T, _T_by_definition(V, y), atol=1e-12)
    problem, mu_var, xi_var = sk.tsk_linear_program(lam, V, y, eta=eta, beta=beta)
    problem.solve(solver="HIGHS")
    ref = _lp_by_linprog(lam, T, eta, beta)
    assert abs(problem.value - ref) <= 1e-6 * max(1.0, abs(ref))
    mu = sk.solve_tsk(lam, V, y, eta=eta, beta=beta)
    xi = np.maximum(0, 1 - T @ mu)
    assert np.all(mu >= 0) and np.all(mu[:-1] >= eta * mu[1:] - 1e-7)
    assert abs(lam @ mu + beta * xi.sum() - ref) <= 1e-6 * max(1.0, abs(ref))
    mu_s = sk.solve_tsk(lam, V, y, eta=eta, beta=beta, solver="scipy")
    xi_s = np.maximum(0, 1 - T @ mu_s)
    assert abs(lam @ mu_s + beta * xi_s.sum() - ref) <= 1e-6 * max(1.0, abs(ref))
    assert np.all(mu_s >= 0) and np.all(mu_s[:-1] >= eta * mu_s[1:] - 1e-7)


def test_trace_identity_and_theorem1():
    _, _, y, W, lam, V = _problem(1)
    mu = sk.solve_tsk(lam, V, y)
    K = (V * mu) @ V.T
    L = graphs.normalized_laplacian(W).toarray()
    assert np.isclose(np.trace(L @ K), lam @ mu)  # footnote 2
    assert np.linalg.eigvalsh(K).min() >= -1e-10 * max(1.0, np.abs(K).max())  # Theorem 1


def test_eigenpairs_dense_and_sparse_agree(monkeypatch):
    X, *_ = _problem(2, n=300)
    W = graphs.knn_graph(X, 6)
    lam_d, V_d = sk.laplacian_eigenpairs(W, 8)
    monkeypatch.setattr(sk, "DENSE_EIGEN_LIMIT", 10)
    lam_s, V_s = sk.laplacian_eigenpairs(W, 8)
    assert np.allclose(lam_d, lam_s, atol=1e-8)
    assert np.allclose(np.abs(V_d.T @ V_s), np.eye(8), atol=1e-6)  # same vectors up to sign
    L = graphs.normalized_laplacian(W)
    assert np.allclose(L @ V_s, V_s * lam_s, atol=1e-7)


def test_eigenpairs_of_a_graph_with_self_loops_are_those_of_normalized_laplacian(monkeypatch):
    """One normalised Laplacian: laplacian_eigenpairs (dense and sparse paths) and
    graphs.normalized_laplacian agree on a graph with self-loops (degrees include W_ii)."""
    X, *_ = _problem(7, n=60)
    W = graphs.knn_graph(X, 5).tolil()
    W.setdiag(np.random.default_rng(7).random(60) * 2)
    W = W.tocsr()
    lam_all = np.linalg.eigvalsh(graphs.normalized_laplacian(W).toarray())
    d = np.asarray(W.sum(axis=1)).ravel()
    L_direct = np.eye(60) - W.toarray() / np.sqrt(np.outer(d, d))  # I - D^-1/2 W D^-1/2, d with loops
    assert np.allclose(lam_all, np.linalg.eigvalsh(L_direct))
    lam_d, V_d = sk.laplacian_eigenpairs(W, 6)
    assert np.allclose(lam_d, lam_all[:6], atol=1e-10)
    monkeypatch.setattr(sk, "DENSE_EIGEN_LIMIT", 10)
    lam_s, V_s = sk.laplacian_eigenpairs(W, 6)
    assert np.allclose(lam_s, lam_all[:6], atol=1e-7)
    assert np.allclose(L_direct @ V_s, V_s * lam_s, atol=1e-6)


def test_eigenvalue_one_is_skipped():
    star = sp.csr_matrix(np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]], float))
    lam_all = np.linalg.eigvalsh(graphs.normalized_laplacian(star).toarray())
    assert np.allclose(lam_all, [0, 1, 1, 2])
    lam, V = sk.laplacian_eigenpairs(star, 2)
    assert np.allclose(lam, [0, 2])
    with pytest.raises(ValueError, match="fewer n_components"):
        sk.laplacian_eigenpairs(star, 3)
    lam1, _ = sk.laplacian_eigenpairs(star, 3, exclude_one=False)
    assert np.allclose(lam1, [0, 1, 1])


def test_regularized_kernel_is_eq3():
    _, _, _, W, _, _ = _problem(3, n=30)
    lam, V = np.linalg.eigh(graphs.normalized_laplacian(W).toarray())
    d = np.asarray(W.sum(1)).ravel()
    S = W.toarray() / np.sqrt(np.outer(d, d))
    alpha = 0.9
    assert np.allclose(
        sk.regularized_spectral_kernel(lam, V, alpha), (1 - alpha) * np.linalg.inv(np.eye(30) - alpha * S)
    )


def test_harmonic_equals_label_propagation_and_consistency_equals_label_spreading():
    X, y_true = datasets.load_uci("wine")
    X = (X - X.min(0)) / (X.max(0) - X.min(0))
    y = datasets.ssl_split(y_true, 20, random_state=0)
    W = graphs.knn_graph(X, 6)

    def graph(A, B):
        return graphs.knn_graph(A, 6).toarray()

    labels, F = sk.harmonic_function(W, y)
    lp = LabelPropagation(kernel=graph, max_iter=100_000, tol=1e-12).fit(X, y)
    assert np.array_equal(labels, lp.transduction_)
    assert np.allclose(F / F.sum(1, keepdims=True), lp.label_distributions_, atol=1e-6)

    labels, F = sk.consistency_method(W, y, alpha=0.99)
    ls = LabelSpreading(kernel=graph, alpha=0.99, max_iter=100_000, tol=1e-12).fit(X, y)
    assert np.array_equal(labels, ls.transduction_)


def test_estimator_transduction_extension_and_theorem2():
    X, y_true = make_moons(300, noise=0.1, random_state=0)
    y = datasets.ssl_split(y_true, 12, random_state=0)
    model = sk.TransductiveSpectralKernel(n_neighbors=6, n_components=8).fit(X, y)
    assert model.n_components_graph_ == 1
    K = model.kernel_
    Y = np.eye(2)[np.unique(y[y != -1], return_inverse=True)[1]]
    assert np.allclose(model.scores_, K[:, y != -1] @ Y)  # eq. (5)
    assert np.array_equal(model.transduction_, model.classes_[(K[:, y != -1] @ Y).argmax(1)])
    assert (model.transduction_ == y_true).mean() > 0.8  # well above chance (0.5)
    # eq. (18) applied to a training point's own row of W gives back its eigenvector row
    idx = np.arange(0, 300, 7)
    assert np.allclose(model.extend(model.W_[idx]), model.eigvecs_[idx], atol=1e-8)
    # Theorem 2: the kernel extended to new points is PSD
    rng = np.random.default_rng(1)
    X_new = X[rng.choice(300, 40)] + 0.3 * rng.standard_normal((40, 2))
    Vx = model.extend(model.induced_weights(X_new))
    P = np.vstack([model.eigvecs_, Vx])
    K_ext = (P * model.mu_) @ P.T
    assert np.linalg.eigvalsh(K_ext).min() >= -1e-10 * np.abs(K_ext).max()
    F_new = Vx @ model._class_loadings
    assert np.allclose(model.decision_function(X_new), F_new[:, 1] - F_new[:, 0])  # binary: shape (s,)
    # predicting (slightly moved) training points mostly reproduces the transduction
    agree = model.predict(X + 1e-6) == model.transduction_
    assert agree.mean() > 0.9


def _induced_weights_by_eq2(X_train, X_new, k):
    """Eq. (2) of Liu et al. between new and training points, by loops over all pairs: h of a
    training point is its k-th distance among the other training points, h(x) of a new point
    its k-th distance among the training points."""
    D_tr = np.array([[np.linalg.norm(a - b) for b in X_train] for a in X_train])
    h_tr = np.array([np.sort(np.delete(D_tr[i], i))[k - 1] for i in range(len(X_train))])
    W = np.zeros((len(X_new), len(X_train)))
    for a, x in enumerate(X_new):
        d = np.array([np.linalg.norm(x - xi) for xi in X_train])
        h_x = np.sort(d)[k - 1]
        for i in range(len(X_train)):
            reach = max(h_x, h_tr[i])
            if d[i] <= reach:
                W[a, i] = np.exp(-(d[i] ** 2) / reach**2) if reach > 0 else 1.0
    return W


@pytest.mark.filterwarnings("ignore:The LP chose mu = 0")
@pytest.mark.parametrize("seed, k, dim", [(0, 3, 2), (1, 6, 3), (2, 5, 20)])
def test_induced_weights_are_eq2_by_brute_force(seed, k, dim):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((50, dim))
    y = np.full(50, -1)
    y[:4] = [0, 1, 0, 1]
    model = sk.TransductiveSpectralKernel(n_neighbors=k, n_components=4).fit(X, y)
    X_new = np.vstack([rng.standard_normal((15, dim)), X[:3] + 1e-3])
    Wx = model.induced_weights(X_new)
    assert np.allclose(Wx.toarray(), _induced_weights_by_eq2(X, X_new, k), rtol=1e-12, atol=0)


def test_bad_input():
    X, y_true = make_moons(90, noise=0.1, random_state=0)
    with pytest.raises(ValueError, match="no labelled point"):
        sk.TransductiveSpectralKernel().fit(X, -np.ones(90, int))
    one = -np.ones(90, int)
    one[:3] = 0
    with pytest.raises(ValueError, match="one class only"):
        sk.TransductiveSpectralKernel().fit(X, one)
    y = datasets.ssl_split(y_true, 9, random_state=0)
    with pytest.raises(ValueError, match="n_components"):
        sk.TransductiveSpectralKernel(n_components=90).fit(X, y)
    with pytest.raises(ValueError, match="eta"):
        sk.TransductiveSpectralKernel(eta=0.5).fit(X, y)
    with pytest.raises(ValueError, match="beta"):
        sk.TransductiveSpectralKernel(beta=0).fit(X, y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        sk.TransductiveSpectralKernel().fit(X, y[:-1])
    with pytest.raises(ValueError, match="tol"):
        sk.laplacian_eigenpairs(graphs.knn_graph(X, 6), 4, tol=0.0)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        sk.TransductiveSpectralKernel().fit(Xn, y)
    model = sk.TransductiveSpectralKernel().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.ones((2, 3)))


def test_disconnected_graph_warns_and_repeats_zero():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.standard_normal((30, 2)), rng.standard_normal((30, 2)) + 100])
    y = -np.ones(60, int)
    y[[0, 1, 30, 31]] = [0, 1, 0, 1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = sk.TransductiveSpectralKernel(n_neighbors=4, n_components=5, beta=15.0).fit(X, y)
    assert [w.filename for w in caught if "2 connected components" in str(w.message)] == [__file__]
    assert model.n_components_graph_ == 2
    assert np.allclose(model.eigvals_[:2], 0, atol=1e-10)  # one zero eigenvalue per component
    with pytest.raises(ValueError, match="component without any labelled point"):
        y2 = -np.ones(60, int)
        y2[[0, 1]] = [0, 1]
        sk.harmonic_function(model.W_, y2)


def test_solver_failure_names_the_status(monkeypatch):
    _, _, y, _, lam, V = _problem(5)
    import cvxpy as cp

    def fake_solve(self, *a, **k):
        self._status = "infeasible"
        return np.inf

    monkeypatch.setattr(cp.Problem, "solve", fake_solve)
    monkeypatch.setattr(cp.Problem, "status", property(lambda self: getattr(self, "_status", None)))
    with pytest.raises(RuntimeError, match="infeasible"):
        sk.solve_tsk(lam, V, y, solver="HIGHS")


def test_large_graph_uses_sparse_eigensolver_without_dense_kernel():
    rng = np.random.default_rng(0)
    n = 5000
    X = rng.standard_normal((n, 3))
    y_true = (X[:, 0] > 0).astype(int)
    y = datasets.ssl_split(y_true, 20, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # connected: no warning
        model = sk.TransductiveSpectralKernel(n_components=10, beta=n / 20).fit(X, y)
    assert model.embedding_.shape == (n, 10)
    L = graphs.normalized_laplacian(model.W_)
    assert np.allclose(L @ model.eigvecs_, model.eigvecs_ * model.eigvals_, atol=1e-7)
    assert (model.transduction_ == y_true).mean() > 0.8


def test_zero_mu_warns():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((3000, 3))
    y = datasets.ssl_split((X[:, 0] > 0).astype(int), 20, random_state=0)
    with pytest.warns(UserWarning, match="mu = 0"):
        model = sk.TransductiveSpectralKernel(beta=1e-3).fit(X, y)
    assert not np.any(model.mu_)
    # the stated fallback: every score 0, every point the first class
    assert not np.any(model.scores_) and np.all(model.transduction_ == model.classes_[0])


def test_scores_and_leave_one_out_selection():
    _, y_true, y, _, lam, V = _problem(3, n=60, m=8, n_classes=3, n_labeled=12)
    mu = sk.solve_tsk(lam, V, y, beta=30.0)
    classes, F = sk.tsk_scores(V, mu, y)
    K = (V * mu) @ V.T
    lab = np.flatnonzero(y != -1)
    F_direct = np.column_stack([K[:, lab[y[lab] == c]].sum(axis=1) for c in classes])
    assert np.allclose(F, F_direct)
    betas = [1.0, 30.0, 300.0]
    best, acc = sk.loo_select_beta(lam, V, y, betas)
    # the same leave-one-out, written out with the cvxpy path and the dense kernel
    expected = []
    for beta in betas:
        right = 0
        for i in lab:
            y_i = y.copy()
            y_i[i] = -1
            K_i = (V * sk.solve_tsk(lam, V, y_i, beta=beta)) @ V.T
            rest = lab[lab != i]
            cls = np.unique(y[rest])
            right += cls[np.argmax([K_i[i, rest[y[rest] == c]].sum() for c in cls])] == y[i]
        expected.append(right / lab.size)
    assert np.allclose(acc, expected)
    assert best == betas[int(np.flatnonzero(np.isclose(acc, max(acc)))[0])]
    with pytest.raises(ValueError, match="positive"):
        sk.loo_select_beta(lam, V, y, [0.0, 1.0])
    with pytest.raises(ValueError, match="one class"):
        sk.loo_select_beta(lam, V, np.where(y == 1, -1, np.where(y == -1, -1, 0)), [1.0])


def test_loo_ties_go_to_the_smallest_beta_and_singletons_are_refused():
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(0, 0.3, (20, 2)), rng.normal(3, 0.3, (20, 2))]
    lam, V = sk.laplacian_eigenpairs(graphs.knn_graph(X, 5), 4)
    y = np.full(40, -1)
    y[[0, 1, 2, 20, 21, 22]] = [0, 0, 0, 1, 1, 1]
    beta, acc = sk.loo_select_beta(lam, V, y, [100.0, 1.0])
    assert acc[0] == acc[1] == 1.0, "both betas classify every held-out point here"
    assert beta == 1.0, "a tie must go to the smallest beta whatever the order given"
    y1 = np.full(40, -1)
    y1[[0, 20]] = [0, 1]
    with pytest.raises(ValueError, match="single labelled point"):
        sk.loo_select_beta(lam, V, y1, [1.0, 10.0])
    with pytest.raises(ValueError, match="non-negative"):
        sk.harmonic_function(-graphs.knn_graph(X, 5), y)


def test_default_beta_is_n_over_l_and_learns_a_kernel_where_beta_1_does_not():
    """Issue 15: the old default beta=1 gives mu = 0 (no kernel, every point in the first
    class) on Heart draws where beta='auto' = n / l learns one."""
    X, y = datasets.load_uci("heart")[:2]
    yt = datasets.ssl_split(y, 20, random_state=4)
    with pytest.warns(UserWarning, match="mu = 0"):
        old = sk.TransductiveSpectralKernel(beta=1.0).fit(X, yt)
    new = sk.TransductiveSpectralKernel().fit(X, yt)
    assert new.beta_ == X.shape[0] / 20
    assert not np.any(old.mu_ > 0) and np.any(new.mu_ > 0), "the default must learn a kernel here"
    assert np.mean(new.transduction_ == y) > np.mean(old.transduction_ == y)


@pytest.mark.parametrize("scaling", ["global", "per-feature"])
def test_the_three_lp_solvers_give_the_same_kernels_and_labels_on_chapter_3s_draws(scaling):
    """No result of Chapter 3 depends on LP round-off (issue 18): on the four UCI sets, 20
    draws of 20 labels each, under both readings of the paper's [0, 1] scaling (global, which
    equals the raw features for the eq. (2) weights, and per feature), scipy's linprog and
    cvxpy's HiGHS and Clarabel give mu with the same support (mu = 0 in the same draws) and
    the same eq. (5) labels."""
    from sklearn.preprocessing import MinMaxScaler

    from sslteach._decisions import argmax_rows

    for name in ("heart", "ionosphere", "sonar", "wine"):
        X, y = datasets.load_uci(name)[:2]
        if scaling == "per-feature":
            X = MinMaxScaler().fit_transform(X)
        else:
            X = (X - X.min()) / (X.max() - X.min())
        lam, V = sk.laplacian_eigenpairs(graphs.knn_graph(X, 6), 10)
        for s in range(20):
            yt = datasets.ssl_split(y, 20, random_state=s)
            solvers = ("scipy", "HIGHS", "CLARABEL")
            mus = {solver: sk.solve_tsk(lam, V, yt, solver=solver) for solver in solvers}
            supports = {solver: tuple(mu > 0) for solver, mu in mus.items()}
            assert len(set(supports.values())) == 1, f"{name} draw {s}: the supports differ: {supports}"
            labels = {solver: argmax_rows(sk.tsk_scores(V, mu, yt)[1]) for solver, mu in mus.items()}
            assert all(np.array_equal(labels["scipy"], lab) for lab in labels.values()), (
                f"{name} draw {s}: eq. (5) labels differ between solvers"
            )


def test_fit_validates_once(monkeypatch):
    """Validate once, at the boundary: fit checks the labels, the data and their magnitude
    once each (it used to check them 3, 5 and 6 times through the public functions it called)."""
    import collections

    from sslteach import _validation

    counts = collections.Counter()

    def counted(name, f):
        def wrapper(*args, **kwargs):
            counts[name] += 1
            return f(*args, **kwargs)

        return wrapper

    for name in ("check_data", "check_square", "check_labels", "check_magnitude", "check_vector"):
        wrapped = counted(name, getattr(_validation, name))
        for module in (_validation, graphs, sk):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, wrapped)
    X, y, _ = datasets.make_two_clouds()
    sk.TransductiveSpectralKernel(n_components=5).fit(X, y)
    assert counts == {"check_labels": 1, "check_magnitude": 1}, counts  # X: validate_fit_data


def test_consistency_method_is_eq3_and_refuses_alpha_1_and_isolated_vertices():
    """F* = (1 - alpha)(I - alpha S)^{-1} C by a dense solve (the scale matters: F is
    returned), alpha = 1 refused by both eq. (3) and eq. (4) (I - S is singular, theta = 0/0
    at lambda = 0), and an isolated vertex refused (D^{-1/2} undefined): three gaps a
    mutation run found."""
    X, y, _ = datasets.make_two_clouds()
    W = graphs.knn_graph(X, 6)
    alpha = 0.9
    _, F = sk.consistency_method(W, y, alpha)
    d = np.asarray(W.sum(axis=1)).ravel()
    S = W.toarray() / np.sqrt(np.outer(d, d))
    C = (y[:, None] == np.array([0, 1])).astype(float)
    assert np.allclose(F, (1 - alpha) * np.linalg.solve(np.eye(40) - alpha * S, C))
    lam, V = np.linalg.eigh(graphs.normalized_laplacian(W).toarray())
    with pytest.raises(ValueError, match="alpha must lie in"):
        sk.consistency_method(W, y, 1.0)
    with pytest.raises(ValueError, match="alpha must lie in"):
        sk.regularized_spectral_kernel(lam, V, 1.0)
    W_iso = W.tolil()
    W_iso[5, :] = 0
    W_iso[:, 5] = 0
    with pytest.raises(ValueError, match="isolated"):
        sk.consistency_method(W_iso.tocsr(), y, alpha)


def test_loo_uses_every_class_with_two_labelled_points():
    """Two labelled points per class: each is a fold (its class keeps the other), so the
    leave-one-out accuracy is over 4 folds, not refused."""
    X, y, _ = datasets.make_two_clouds(n_labeled=2)
    lam, V = sk.laplacian_eigenpairs(graphs.knn_graph(X, 6), 5)
    beta, acc = sk.loo_select_beta(lam, V, y, [1.0, 10.0])
    assert set(np.round(acc * 4, 9)) <= {0.0, 1.0, 2.0, 3.0, 4.0} and acc.max() == 1.0
