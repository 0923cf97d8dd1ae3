"""sslteach.ksc against independent formulations: the KKT conditions (7), a bordered system
built from them, the non-symmetric eigenproblem (3), and scikit-learn's SVC for LapSVM."""

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given
from hypothesis import strategies as st
from sklearn.svm import SVC

from sslteach import datasets, kernels, ksc
from sslteach.protocols import ch4


def _problem(seed, M=60, n_labeled=8, sigma2=2.0):
    rng = np.random.default_rng(seed)
    y_true = np.repeat([0, 1], M // 2)
    X = rng.standard_normal((M, 2)) + 3.0 * y_true[:, None]
    y = datasets.ssl_split(y_true, n_labeled, random_state=seed)
    yp = np.where(y == -1, 0.0, np.where(y == 1, 1.0, -1.0))
    return X, y_true, y, yp, ksc.ksc_kernel(X, sigma2=sigma2)


def _block_kernel(sizes):
    return scipy.linalg.block_diag(*[np.ones((s, s)) for s in sizes])


def test_kernel_convention():
    X = np.random.default_rng(0).standard_normal((7, 3))
    d2 = ((X[:, None] - X[None]) ** 2).sum(-1)
    np.testing.assert_allclose(ksc.ksc_kernel(X, sigma2=1.7), np.exp(-d2 / 1.7))
    np.testing.assert_allclose(ksc.ksc_kernel(X, sigma2=1.7), kernels.rbf_kernel(X, sigma=np.sqrt(1.7 / 2)))


@pytest.mark.parametrize("k", [2, 3])
def test_ksc_matches_the_nonsymmetric_eigenproblem(k):
    X, *_, Omega = _problem(0)
    res = ksc.kernel_spectral_clustering(Omega, k)
    M = Omega.shape[0]
    d = Omega.sum(1)
    MD = np.eye(M) - np.outer(np.ones(M), 1 / d) / np.sum(1 / d)  # I - 1 1^T D^-1 / 1^T D^-1 1
    A = np.diag(1 / d) @ MD @ Omega
    lam, vec = scipy.linalg.eig(A)
    order = np.argsort(-lam.real)
    np.testing.assert_allclose(res.eigvals, lam.real[order][: k - 1], rtol=1e-9, atol=1e-12)
    for t in range(k - 1):
        v = vec[:, order[t]].real
        cos = abs(v @ res.alpha[:, t]) / np.linalg.norm(v)
        assert cos == pytest.approx(1.0, abs=1e-8)
        np.testing.assert_allclose(A @ res.alpha[:, t], res.eigvals[t] * res.alpha[:, t], atol=1e-10)
    np.testing.assert_allclose(res.e, MD @ Omega @ res.alpha, atol=1e-10)  # e = M_D Omega alpha
    assert res.labels.shape == (M,) and set(np.unique(res.labels)) <= set(range(k))


def test_ksc_ideal_case_properties():
    """Sect. II-B, properties 1 and 2: eigenvalue 1 has multiplicity k-1, piecewise-constant eigenvectors."""
    sizes = [5, 7, 9]
    Omega = _block_kernel(sizes)
    res = ksc.kernel_spectral_clustering(Omega, 3)
    np.testing.assert_allclose(res.eigvals, [1.0, 1.0], atol=1e-12)
    blocks = np.repeat(np.arange(3), sizes)
    for p in range(3):
        assert np.ptp(res.alpha[blocks == p], axis=0).max() < 1e-10
    # sign patterns separate the blocks exactly
    assert len({tuple(res.codebook[res.labels[blocks == p][0]]) for p in range(3)}) == 3
    for p in range(3):
        assert np.unique(res.labels[blocks == p]).size == 1


def test_semi_ksc_system_equals_dense_formula():
    X, _, _, yp, Omega = _problem(1)
    gamma, rho = 1.0, 0.7
    H, r = ksc.semi_ksc_system(Omega, yp, gamma=gamma, rho=rho)
    M = Omega.shape[0]
    G = np.diag(gamma / Omega.sum(1) - rho * (yp != 0))
    c = np.ones(M) @ G @ np.ones(M)
    MS = np.eye(M) - np.outer(np.ones(M), np.ones(M)) @ G / c
    np.testing.assert_allclose(H, np.eye(M) - G @ MS @ Omega, atol=1e-12)
    np.testing.assert_allclose(r, rho * MS.T @ yp, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_pos, n_neg", [(5, 2), (1, 4), (3, 1)])
def test_semi_ksc_system_with_unequal_label_counts(seed, n_pos, n_neg):
    """Eq. (8) built densely from its definitions, with 1'y != 0: with as many +1 as -1 labels
    the rank-one part of the right-hand side rho M_S' y vanishes, so only unequal counts check it.
    The solution then satisfies the bordered KKT system (7), read off directly."""
    rng = np.random.default_rng(seed)
    M = 30
    X = rng.standard_normal((M, 2)) + 3.0 * (np.arange(M) >= M // 2)[:, None]
    Omega = ksc.ksc_kernel(X, sigma2=2.0)
    y = np.zeros(M)
    y[rng.choice(M // 2, n_neg, replace=False)] = -1.0
    y[M // 2 + rng.choice(M // 2, n_pos, replace=False)] = 1.0
    gamma, rho = rng.uniform(0.5, 1.5), rng.uniform(0.1, 0.9)
    A = np.diag((y != 0).astype(float))
    G = gamma * np.linalg.inv(np.diag(Omega.sum(axis=1))) - rho * A
    one = np.ones(M)
    c = one @ G @ one
    M_S = np.eye(M) - np.outer(one, one) @ G / c
    H, r = ksc.semi_ksc_system(Omega, y, gamma=gamma, rho=rho)
    np.testing.assert_allclose(H, np.eye(M) - G @ M_S @ Omega, atol=1e-12)
    np.testing.assert_allclose(r, rho * M_S.T @ y, atol=1e-12)
    assert abs(y.sum()) > 0 and np.abs(r - rho * y).max() > 1e-3  # the rank-one part is there
    alpha, b = ksc.solve_semi_ksc(Omega, y, gamma=gamma, rho=rho)
    B = np.block([[np.eye(M) - G @ Omega, -G @ one[:, None]], [one[None, :], np.zeros((1, 1))]])
    sol = np.linalg.solve(B, np.r_[rho * y, 0.0])
    np.testing.assert_allclose(np.r_[alpha, b], sol, rtol=1e-8, atol=1e-10 * np.abs(sol).max())


@pytest.mark.parametrize("seed", range(4))
def test_ksc_codebook_is_the_k_most_frequent_sign_patterns(seed):
    """The decoding of Sect. II-C against a brute force over every sign pattern in {-1, +1}^(k-1):
    the k most frequent patterns of sign(e) (0 counts as +1), most frequent first (equal counts
    in lexicographic order), and each point at the nearest codeword (Hamming; ties to the first)."""
    import itertools
    import warnings

    rng = np.random.default_rng(seed)
    sizes = rng.permutation([30, 18, 10, 5])
    centres = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0], [4.0, 4.0]])
    X = np.vstack([rng.normal(m, 0.7, (n, 2)) for m, n in zip(centres, sizes)])
    Omega = ksc.ksc_kernel(X, sigma2=3.0)
    for k in (2, 3, 4):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # fewer patterns than k is allowed here
            res = ksc.kernel_spectral_clustering(Omega, k)
        signs = np.where(res.e >= 0, 1, -1)
        patterns = [np.array(p) for p in itertools.product([-1, 1], repeat=k - 1)]
        counts = [int(np.all(signs == p, axis=1).sum()) for p in patterns]
        order = sorted(range(len(patterns)), key=lambda i: -counts[i])
        want = np.array([patterns[i] for i in order if counts[i] > 0][:k])
        assert len(set(counts[i] for i in order[: len(want)])) > 1  # unequal counts: the order matters
        np.testing.assert_array_equal(res.codebook, want)
        hamming = np.array([[np.sum(s != w) for w in want] for s in signs])
        np.testing.assert_array_equal(res.labels, hamming.argmin(axis=1))


@given(seed=st.integers(0, 10_000), rho=st.floats(0.05, 1.0), gamma=st.floats(0.5, 1.5))
def test_solution_satisfies_kkt_and_the_bordered_system(seed, rho, gamma):
    X, _, _, yp, Omega = _problem(seed, M=40, n_labeled=6)
    try:
        alpha, b = ksc.solve_semi_ksc(Omega, yp, gamma=gamma, rho=rho)
    except ValueError as exc:  # a singular draw must say so by name
        assert "gamma" in str(exc) and "rho" in str(exc) and "c =" in str(exc)
        return
    M = Omega.shape[0]
    g = gamma / Omega.sum(1) - rho * (yp != 0)
    e = Omega @ alpha + b  # eq. (10)
    scale = np.abs(alpha).max() + np.abs(g * e).max() + rho
    # KKT (7): alpha = (gamma D^-1 - rho A) e + rho y, and 1^T alpha = 0
    assert np.abs(alpha - (g * e + rho * yp)).max() <= 1e-8 * scale
    assert abs(alpha.sum()) <= 1e-8 * np.abs(alpha).sum()
    # the bordered system in (alpha, b) read off (7) directly
    B = np.zeros((M + 1, M + 1))
    B[:M, :M] = np.eye(M) - g[:, None] * Omega
    B[:M, M] = -g
    B[M, :M] = 1.0
    sol = np.linalg.solve(B, np.r_[rho * yp, 0.0])
    np.testing.assert_allclose(alpha, sol[:M], rtol=1e-7, atol=1e-9 * np.abs(sol).max())
    assert b == pytest.approx(sol[M], rel=1e-7, abs=1e-9 * np.abs(sol).max())


def test_out_of_sample_model_at_training_points_equals_projections():
    X, y_true, y, yp, Omega = _problem(2)
    model = ksc.SemiSupervisedKSC(sigma2=2.0, rho=0.6).fit(X, y)
    np.testing.assert_allclose(model.decision_function(X), model.e_, atol=1e-10)
    # eq. (11) literally: (theta^T - (1/c) 1^T G Omega) alpha - (rho/c) 1^T y
    g = 1.0 / Omega.sum(1) - 0.6 * (yp != 0)
    c = g.sum()
    lit = (Omega - np.outer(np.ones(len(g)), g @ Omega) / c) @ model.alpha_ - 0.6 / c * yp.sum()
    np.testing.assert_allclose(lit, model.e_, atol=1e-10)
    # alpha_hat (15) with gamma D_val^-1
    Xv = X[:5] + 0.1
    Kv = ksc.ksc_kernel(Xv, X, sigma2=2.0)
    np.testing.assert_allclose(model.alpha_hat(Xv), (Kv @ model.alpha_ + model.b_) / Kv.sum(1))
    assert (model.transduction_ == y_true).mean() > 0.9


def test_ideal_block_kernel_gives_piecewise_constant_alpha():
    sizes = [12, 8]
    Omega = _block_kernel(sizes)
    blocks = np.repeat([0, 1], sizes)
    yp = np.zeros(20)
    yp[[0, 3, 5]] = 1.0
    yp[[13, 15]] = -1.0
    alpha, b = ksc.solve_semi_ksc(Omega, yp, gamma=1.0, rho=0.5)
    for p in range(2):
        assert np.ptp(alpha[blocks == p]) < 1e-10
    np.testing.assert_allclose(Omega @ alpha + b, np.where(blocks == 0, 1.0, -1.0), atol=1e-10)  # e_L = y_L
    alpha2, _ = ksc.solve_semi_ksc(Omega, yp, gamma=0.5, rho=0.5)  # gamma != 1 breaks it
    assert np.ptp(alpha2[blocks == 0]) > 1e-3


def test_fisher_criterion_is_scale_free_up_to_the_largest_floats():
    a = np.array([-3.0, -1.0, 2.0, 2.5, 4.0])
    want = ksc.fisher_criterion(a)
    for scale in (1e-300, 1e300, np.finfo(float).max / 4.0):
        F = ksc.fisher_criterion(a * scale)
        assert np.isfinite(F) and F == pytest.approx(want, rel=1e-12)
    assert ksc.fisher_criterion([1e308, -1e308, 1e308]) == pytest.approx(1.0)


def test_column_vector_labels_are_raveled_with_scikit_learns_warning():
    """Labels shaped (M, 1) are used as (M,), with scikit-learn's DataConversionWarning."""
    from sklearn.exceptions import DataConversionWarning

    _, _, _, yp, Omega = _problem(2)
    for fn in (ksc.semi_ksc_system, ksc.solve_semi_ksc):
        with pytest.warns(DataConversionWarning, match="column-vector"):
            got = fn(Omega, yp[:, None], rho=0.5)
        for g, w in zip(got, fn(Omega, yp, rho=0.5), strict=True):
            np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError, match=r"1-D"):
        ksc.solve_semi_ksc(Omega, np.c_[yp, yp], rho=0.5)


def test_fisher_criterion_against_variance_decomposition():
    rng = np.random.default_rng(0)
    a = np.r_[rng.normal(-2, 0.3, 30), rng.normal(1, 0.5, 50)]
    groups = [a[a < 0], a[a >= 0]]
    within = sum(((gr - gr.mean()) ** 2).sum() for gr in groups)
    total = ((a - a.mean()) ** 2).sum()
    assert ksc.fisher_criterion(a) == pytest.approx(1 - within / total)
    assert ksc.fisher_criterion(np.r_[np.full(5, -1.0), np.full(3, 2.0)]) == pytest.approx(1.0)
    assert ksc.fisher_criterion(np.ones(4)) == 0.0
    assert ksc.ssf_criterion(a, [1.0, -1.0], [1, 1], eta_u=0.25) == pytest.approx(
        0.25 * ksc.fisher_criterion(a) + 0.75 * 0.5
    )


def test_select_semi_ksc_scores_are_ssf_of_the_fitted_models():
    X, _, y, yp, _ = _problem(3)
    Xv = np.random.default_rng(9).standard_normal((30, 2)) + 1.5
    sel = ksc.select_semi_ksc(X, y, Xv, sigma2_grid=[0.5, 2.0], rho_grid=[0.3, 0.9])
    for i, s2 in enumerate([0.5, 2.0]):
        for j, r in enumerate([0.3, 0.9]):
            m = ksc.SemiSupervisedKSC(sigma2=s2, rho=r).fit(X, y)
            lab = yp != 0
            want = ksc.ssf_criterion(m.alpha_hat(Xv), m.e_[lab], yp[lab])
            assert sel.scores[i, j] == pytest.approx(want)
    assert sel.score == np.nanmax(sel.scores)
    assert (sel.sigma2, sel.rho) in [(s, r) for s in (0.5, 2.0) for r in (0.3, 0.9)]


def test_one_vs_rest_recovers_blocks():
    X, y = datasets.make_gaussian_clouds("three", 300, random_state=0)
    y_train = datasets.ssl_split(y, 6, random_state=0)
    model = ksc.OneVsRestSemiKSC(sigma2=2.0, rho=0.5).fit(X, y_train)
    assert (model.transduction_ == y).mean() > 0.95
    np.testing.assert_array_equal(model.predict(X), model.transduction_)


def test_lapsvm_optimality_conditions():
    X, y_true, y, yp, _ = _problem(4, M=80, n_labeled=12)
    m = ksc.LapSVM(sigma2=2.0, gamma_A=1e-2, gamma_I=1.0).fit(X, y)
    C = 1.0 / 12
    assert m.primal_objective_ == pytest.approx(m.dual_objective_, rel=1e-5)  # zero duality gap
    assert np.all(m.beta_ >= -1e-12) and np.all(m.beta_ <= C + 1e-12)
    yl = m.y_labeled_
    assert abs(yl @ m.beta_) < 1e-7
    margin = yl * m.decision_train_[m.lab_]
    tol = 1e-4
    assert np.all(margin[m.beta_ < 1e-6 * C] >= 1 - tol)
    assert np.all(margin[m.beta_ > (1 - 1e-6) * C] <= 1 + tol)
    free = (m.beta_ > 1e-6 * C) & (m.beta_ < (1 - 1e-6) * C)
    np.testing.assert_allclose(margin[free], 1.0, atol=tol)


def test_lapsvm_without_manifold_term_is_the_svm():
    X, _, y, _, _ = _problem(5, M=60, n_labeled=10)
    gA = 0.05
    m = ksc.LapSVM(sigma2=2.0, gamma_A=gA, gamma_I=0.0).fit(X, y)
    lab = y != -1
    K = ksc.ksc_kernel(X, sigma2=2.0)
    svc = SVC(kernel="precomputed", C=1.0 / (2 * gA * lab.sum()), tol=1e-8).fit(K[np.ix_(lab, lab)], y[lab])
    np.testing.assert_allclose(m.decision_function(X), svc.decision_function(K[:, lab]), atol=1e-4)
    assert np.abs(m.alpha_[~lab]).max() < 1e-8


def test_bad_input():
    X, _, y, yp, Omega = _problem(6)
    with pytest.raises(ValueError, match="no labelled"):
        ksc.solve_semi_ksc(Omega, np.zeros(len(yp)), rho=0.5)
    with pytest.raises(ValueError, match="one class"):
        ksc.solve_semi_ksc(Omega, np.abs(yp), rho=0.5)
    with pytest.raises(ValueError, match=r"rho must be in \(0, 1\]"):
        ksc.solve_semi_ksc(Omega, yp, rho=1.5)
    with pytest.raises(ValueError, match="rho"):
        ksc.solve_semi_ksc(Omega, yp, rho=0.0)
    with pytest.raises(ValueError, match="negative"):
        ksc.solve_semi_ksc(Omega - 0.5, yp, rho=0.5)
    with pytest.raises(ValueError, match="0 for unlabelled"):
        ksc.solve_semi_ksc(Omega, np.where(yp == 0, -1, yp) * 2, rho=0.5)
    with pytest.raises(ValueError, match="exactly two classes"):
        ksc.SemiSupervisedKSC().fit(X, np.where(y == 1, -1, y))
    with pytest.raises(ValueError, match="no labelled"):
        ksc.LapSVM().fit(X, np.full(len(y), -1))
    with pytest.raises(ValueError, match="one class"):
        ksc.kernel_spectral_clustering(Omega, 2) and ksc.semi_ksc_system(Omega, -np.abs(yp), rho=0.5)
    with pytest.raises(ValueError, match="features"):
        ksc.SemiSupervisedKSC(sigma2=2.0, rho=0.5).fit(X, y).predict(X[:, :1])
    with pytest.raises(ValueError, match="NaN"):
        ksc.SemiSupervisedKSC().fit(np.where(X > 2, np.nan, X), y)


def test_singular_system_is_reported():
    # ideal two-block kernel, gamma = 1, labels l1 = 1 and l2 = 3: b drops out of the
    # equations when 1/(l1 rho) + 1/(l2 rho) = 2, i.e. rho = 2/3, though c = 2 - 4 rho != 0
    Omega = _block_kernel([6, 6])
    yp = np.zeros(12)
    yp[0] = 1.0
    yp[[6, 7, 8]] = -1.0
    with pytest.raises(ValueError, match=r"singular.*gamma = 1.0, rho = 0.66.*, c = -0.66"):
        ksc.solve_semi_ksc(Omega, yp, rho=2 / 3)
    alpha, b = ksc.solve_semi_ksc(Omega, yp, rho=0.6)  # nearby rho is fine (rho = 0.5 makes c = 0)
    assert np.isfinite(alpha).all() and np.isfinite(b)


def test_c_equal_zero_is_reported():
    Omega = np.ones((10, 10)) * 0.5 + 0.5 * np.eye(10)
    yp = np.zeros(10)
    yp[0], yp[1] = 1.0, -1.0
    rho = np.sum(1.0 / Omega.sum(1)) / 2  # makes c = sum(1/d) - 2 rho = 0
    with pytest.raises(ValueError, match="c = .* is zero"):
        ksc.solve_semi_ksc(Omega, yp, rho=rho)


def _bordered_cond(Omega, yp, rho, gamma=1.0):
    """2-norm condition number of the bordered KKT system (7) in (alpha, b), built independently."""
    M = len(Omega)
    g = gamma / Omega.sum(axis=1) - rho * (yp != 0)
    B = np.zeros((M + 1, M + 1))
    B[:M, :M] = np.eye(M) - g[:, None] * Omega
    B[:M, M], B[M, :M] = -g, 1.0
    return np.linalg.cond(B)


@pytest.mark.parametrize("eps", [0.0, 1e-14, 1e-10, 1e-9])
def test_one_label_per_class_at_rho_one_is_refused(eps):
    # ideal (eps = 0) or nearly ideal two-block kernel, one label per block: the KKT system (7)
    # is singular at rho = 1 (1/(l1 rho) + 1/(l2 rho) = 2) and c = 2 - 2 rho is 0 there. With
    # eps > 0 the matrix of eq. (8) alone looks well conditioned, so the c rule must refuse it.
    Omega = _block_kernel([12, 8])
    Omega[Omega == 0] = eps
    yp = np.zeros(20)
    yp[0], yp[12] = 1.0, -1.0
    assert _bordered_cond(Omega, yp, 1.0) > 1e10  # the system really is (nearly) singular
    with pytest.raises(ValueError, match=r"c = .* is zero .* rho = 1.0"):
        ksc.solve_semi_ksc(Omega, yp, rho=1.0)
    alpha, b = ksc.solve_semi_ksc(Omega, yp, rho=0.9)  # away from it the solve is fine and well posed
    assert _bordered_cond(Omega, yp, 0.9) < 1e4 and np.isfinite(alpha).all() and np.isfinite(b)


def test_grid_skips_singular_rho_and_never_selects_it():
    # two clouds of width 1e-6, 100 apart (kernel block diagonal to round-off), one label per
    # cloud: the grid point rho = 1 is refused (c = 0) and must score nan, not win the search
    rng = np.random.default_rng(3)
    X = np.repeat([[0.0, 0.0], [100.0, 100.0]], [12, 8], axis=0) + rng.normal(0, 1e-6, (20, 2))
    y = np.full(20, -1)
    y[0], y[12] = 0, 1
    X_val = np.repeat([[0.0, 0.0], [100.0, 100.0]], [6, 6], axis=0) + rng.normal(0, 1e-6, (12, 2))
    sel = ksc.select_semi_ksc(X, y, X_val, sigma2_grid=[1.0], rho_grid=[0.5, 1.0])
    assert np.isnan(sel.scores[0, 1]) and np.isfinite(sel.scores[0, 0])
    assert sel.rho == 0.5
    with pytest.raises(ValueError, match="singular at every grid point"):
        ksc.select_semi_ksc(X, y, X_val, sigma2_grid=[1.0], rho_grid=[1.0])


def test_one_vs_rest_equals_separate_binary_solves():
    X, y = datasets.make_gaussian_clouds("four", 120, random_state=1)
    y_train = datasets.ssl_split(y, 8, random_state=1)
    model = ksc.OneVsRestSemiKSC(sigma2=1.5, rho=0.4).fit(X, y_train)
    Omega = ksc.ksc_kernel(X, sigma2=1.5)
    for c, cls in enumerate(model.classes_):
        yp = np.where(y_train == -1, 0.0, np.where(y_train == cls, 1.0, -1.0))
        alpha, b = ksc.solve_semi_ksc(Omega, yp, rho=0.4)
        np.testing.assert_allclose(model.alpha_[:, c], alpha, atol=1e-10)
        assert model.b_[c] == pytest.approx(b)


def test_evaluate_protocol_matches_the_estimators():
    X, y = datasets.make_g241c(300, 5, random_state=0)
    labeled = np.flatnonzero(datasets.ssl_split(y, 10, random_state=0) != -1)
    grid = dict(sigma2_factors=(0.5, 2.0), rho_grid=(0.3, 1.0), gamma_A_grid=(1e-2,))
    res = ch4.evaluate_protocol(X, y, labeled, n_unlabeled=150, n_val=100, random_state=0, **grid)
    # redo the Semi-KSC half with the public estimators
    rest = np.random.default_rng(0).permutation(np.setdiff1d(np.arange(300), labeled))
    tr, va = np.r_[rest[:150], labeled], rest[150:250]
    y_tr = np.r_[np.full(150, -1), y[labeled]]
    med = np.median(kernels.squared_distances(X[tr]))
    sel = ksc.select_semi_ksc(X[tr], y_tr, X[va], sigma2_grid=[0.5 * med, 2.0 * med], rho_grid=[0.3, 1.0])
    assert res.semi_ksc == pytest.approx(np.mean(sel.estimator.predict(X) != y))
    assert res.semi_ksc_params == {"sigma2/median": sel.sigma2 / med, "rho": sel.rho}
    # and the LapSVM half at the chosen parameters
    s2 = res.lapsvm_params["sigma2/median"] * med
    lap = ksc.LapSVM(sigma2=s2, gamma_A=res.lapsvm_params["gamma_A"]).fit(X[tr], y_tr)
    assert res.lapsvm == pytest.approx(np.mean(lap.predict(X) != y), abs=1 / 300)


def test_review_findings_are_refused_or_warned():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-2, 0.5, (10, 2)), rng.normal(2, 0.5, (10, 2))])
    y = np.full(20, -1)
    y[[0, 10]] = [0, 1]
    with pytest.raises(ValueError, match="underflow"):
        ksc.select_semi_ksc(X, y, [[100.0, 100.0]], sigma2_grid=[0.5], rho_grid=[0.5])
    with pytest.raises(ValueError, match="y_labeled"):
        ksc.ssf_criterion([-1.0, 1.0], [-0.5, 0.5], [0, 1])
    with pytest.warns(UserWarning, match="distinct sign patterns"):
        ksc.kernel_spectral_clustering(np.kron(np.eye(2), np.ones((5, 5))) + 0.01, 4)
    y_true = np.repeat([0, 1], 10)
    with pytest.raises(ValueError, match="n_val"):
        ch4.evaluate_protocol(X, y_true, [0, 10], n_unlabeled=5, n_val=2.5, lapsvm=False)
    with pytest.raises(ValueError, match="n_unlabeled"):
        ch4.evaluate_protocol(X, y_true, [0, 10], n_unlabeled=-1, lapsvm=False)


def test_evaluate_protocol_cosine_kernel_and_grid_errors_against_a_direct_search():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 60)
    X = np.abs(rng.standard_normal((120, 6))) + 2.0 * np.outer(y, [1, 1, 1, 0, 0, 0])  # non-negative
    labeled = np.r_[0, 1, 60, 61]
    rho_grid = (0.2, 0.6, 1.0)
    res = ch4.evaluate_protocol(
        X,
        y,
        labeled,
        n_unlabeled=50,
        n_val=40,
        kernel="cosine",
        rho_grid=rho_grid,
        gamma_A_grid=(1e-2,),
        grid_errors=True,
        random_state=1,
    )
    # the same search written out: unit rows, C = Xn Xn', SSF (17) on the validation points, first best
    Xn = X / np.linalg.norm(X, axis=1, keepdims=True)
    rest = np.random.default_rng(1).permutation(np.setdiff1d(np.arange(120), labeled))
    tr, va = np.r_[rest[:50], labeled], rest[50:90]
    yp = np.r_[np.zeros(50), np.where(y[labeled] == 1, 1.0, -1.0)]
    C, Cv = Xn[tr] @ Xn[tr].T, Xn[va] @ Xn[tr].T
    scores, errors = [], []
    for r in rho_grid:
        alpha, b = ksc.solve_semi_ksc(C, yp, rho=r)
        a_hat = (Cv @ alpha + b) / Cv.sum(1)
        scores.append(ksc.ssf_criterion(a_hat, (C @ alpha + b)[yp != 0], yp[yp != 0]))
        errors.append(np.mean((Xn @ Xn[tr].T @ alpha + b >= 0).astype(int) != y))
    best = int(np.flatnonzero(np.asarray(scores) >= max(scores) * (1 - 1e-9))[0])
    assert res.semi_ksc_params == {"sigma2/median": None, "rho": rho_grid[best]}
    assert res.semi_ksc == pytest.approx(errors[best])
    np.testing.assert_allclose(res.semi_ksc_grid_errors, [errors])
    assert res.lapsvm_grid_errors.shape == (1, 1)
    assert res.lapsvm == pytest.approx(res.lapsvm_grid_errors[0, 0])
    # the RBF default is unchanged by grid_errors, and its grid holds the selected model's error
    kw = dict(
        n_unlabeled=50, n_val=40, sigma2_factors=(0.5, 2.0), rho_grid=rho_grid, lapsvm=False, random_state=1
    )
    plain = ch4.evaluate_protocol(X, y, labeled, **kw)
    diag = ch4.evaluate_protocol(X, y, labeled, grid_errors=True, **kw)
    assert diag.semi_ksc == plain.semi_ksc and diag.semi_ksc_params == plain.semi_ksc_params
    assert diag.semi_ksc in diag.semi_ksc_grid_errors and diag.lapsvm_grid_errors is None
    with pytest.raises(ValueError, match="non-negative"):
        ch4.evaluate_protocol(X - 3.0, y, labeled, kernel="cosine", n_unlabeled=50, n_val=40, lapsvm=False)
    with pytest.raises(ValueError, match="zero row"):
        ch4.evaluate_protocol(np.r_[X[:-1], np.zeros((1, 6))], y, labeled, kernel="cosine", lapsvm=False)
    with pytest.raises(ValueError, match="kernel"):
        ch4.evaluate_protocol(X, y, labeled, kernel="linear", lapsvm=False)


def test_ksc_biases_and_the_warning_for_fewer_patterns_than_clusters():
    """The biases b_l = -1'D^-1 Omega alpha_l / 1'D^-1 1 of Sect. II, and the warning exactly
    when the k - 1 projections give fewer than k sign patterns (mutation testing found both
    unpinned by the unit tests)."""
    import warnings

    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(m, 0.4, (10, 2)) for m in ([0, 0], [5, 0], [0, 5])])
    Omega = ksc.ksc_kernel(X, sigma2=2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # three clouds, k = 3: three patterns, no warning
        res = ksc.kernel_spectral_clustering(Omega, 3)
    dinv = 1.0 / Omega.sum(axis=1)
    np.testing.assert_allclose(res.b, -(dinv @ Omega @ res.alpha) / dinv.sum(), atol=1e-12)
    np.testing.assert_allclose(res.e, Omega @ res.alpha + res.b, atol=1e-12)
    assert res.codebook.shape == (3, 2)
    blocks = ksc.ksc_kernel(np.repeat([[0.0], [50.0]], 5, axis=0), sigma2=1.0) + 1e-300  # two clouds
    with pytest.warns(UserWarning, match="distinct sign patterns"):
        ksc.kernel_spectral_clustering(blocks, 4)


def test_solve_semi_ksc_info_against_numpy():
    _, _, _, yp, Omega = _problem(3)
    gamma, rho = 0.8, 0.6
    _, _, info = ksc.solve_semi_ksc(Omega, yp, gamma=gamma, rho=rho, return_info=True)
    g = gamma / Omega.sum(axis=1) - rho * (yp != 0)
    np.testing.assert_allclose(info.g, g, rtol=1e-14)
    assert info.c == pytest.approx(g.sum(), rel=1e-12)
    H, _ = ksc.semi_ksc_system(Omega, yp, gamma=gamma, rho=rho)
    exact = 1.0 / (np.linalg.norm(H, 1) * np.linalg.norm(np.linalg.inv(H), 1))
    assert 0.1 < info.rcond / exact < 10  # LAPACK's estimate of the 1-norm reciprocal condition


def test_one_vs_rest_decision_function_and_predict_on_new_points():
    """The out-of-sample models (11) of every class against an explicit kernel expansion."""
    rng = np.random.default_rng(1)
    centres = np.array([[-2.0, 0.0], [2.0, 0.0], [0.0, 3.0]])
    X = np.vstack([rng.normal(c, 0.5, (10, 2)) for c in centres])
    y = np.full(30, -1)
    y[[0, 1, 10, 20, 21]] = [4, 4, 6, 9, 9]
    model = ksc.OneVsRestSemiKSC(sigma2=2.0, rho=0.5).fit(X, y)
    X_new = rng.normal(0.0, 2.0, (15, 2))
    E = ksc.ksc_kernel(X_new, X, sigma2=2.0) @ model.alpha_ + model.b_
    np.testing.assert_allclose(model.decision_function(X_new), E, atol=1e-12)
    np.testing.assert_array_equal(model.predict(X_new), model.classes_[E.argmax(axis=1)])
    np.testing.assert_array_equal(model.predict(X), model.transduction_)
    two = ksc.OneVsRestSemiKSC(sigma2=2.0, rho=0.5).fit(X[:20], y[:20])
    E2 = ksc.ksc_kernel(X_new, X[:20], sigma2=2.0) @ two.alpha_ + two.b_
    np.testing.assert_allclose(two.decision_function(X_new), E2[:, 1] - E2[:, 0], atol=1e-12)


def test_alpha_hat_refuses_points_whose_degree_underflows():
    X, _, y, _, _ = _problem(4, M=20, n_labeled=4)
    model = ksc.SemiSupervisedKSC(sigma2=0.5, rho=0.5).fit(X, y)
    with pytest.raises(ValueError, match=r"Rows \[1\] .*underflow"):
        model.alpha_hat(np.vstack([X[:1], [[1e3, 1e3]]]))
