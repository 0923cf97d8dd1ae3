"""sslteach.cluster_kernels against independent formulations: scipy's cophenetic
distances with an explicit J M J, brute-force minimax paths, and co-clustering counts."""

import functools

import numpy as np
import pytest
import scipy.cluster.hierarchy as sch
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import minimum_spanning_tree
from scipy.spatial.distance import pdist, squareform
from sklearn.metrics import adjusted_rand_score

from sslteach import cluster_kernels as ck
from sslteach import datasets
from sslteach.graphs import geodesic_distances
from sslteach.protocols import ch2


def _points(seed, n=40, d=3):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)) + np.repeat([[0, 0, 0], [4, 0, 0]], n // 2, axis=0)[:, :d]


@given(seed=st.integers(0, 10_000), linkage=st.sampled_from(ck.LINKAGES), squared=st.booleans())
@settings(max_examples=30)
def test_hck_equals_explicit_formula_and_is_psd(seed, linkage, squared):
    X = _points(seed)
    K = ck.hierarchical_cluster_kernel(X, linkage, squared=squared)
    u = squareform(sch.cophenet(sch.linkage(pdist(X), method=linkage)))
    M = u**2 if squared else u
    n = len(X)
    J = np.eye(n) - np.ones((n, n)) / n
    np.testing.assert_allclose(K, -0.5 * J @ M @ J, atol=1e-10 * max(1.0, M.max()))
    lam = np.linalg.eigvalsh(K)
    assert lam.min() >= -1e-8 * lam.max()
    d = np.diag(K)
    np.testing.assert_allclose(d[:, None] + d[None, :] - 2 * K, M, atol=1e-9 * max(1.0, M.max()))


def test_single_linkage_is_the_minimax_path_distance():
    """The connectivity kernel's effective dissimilarity: the largest edge on the best path."""
    X = _points(3, n=24)
    D = squareform(pdist(X))
    # brute force: Floyd-Warshall in the (min, max) semiring
    U = D.copy()
    for k in range(len(X)):
        U = np.minimum(U, np.maximum(U[:, [k]], U[[k], :]))
    u, _ = ck.cophenetic_matrix(X, "single")
    np.testing.assert_allclose(u, U, atol=1e-12)


def test_geodesic_single_equals_single_when_the_mst_is_in_the_graph():
    X = _points(5, n=60)
    mst = minimum_spanning_tree(squareform(pdist(X))).tocoo()
    u_e, _ = ck.cophenetic_matrix(X, "single")
    seen = []
    for k in (1, 2, 10):
        G = geodesic_distances(X, n_neighbors=k)
        contains = bool(np.allclose(G[mst.row, mst.col], mst.data))
        u_g, _ = ck.cophenetic_matrix(X, "single", metric="geodesic", n_neighbors=k)
        assert (u_g >= u_e - 1e-12).all()  # geodesic >= Euclidean, so minimax too
        if contains:
            np.testing.assert_allclose(u_g, u_e, atol=1e-10)
        seen.append(contains)
    assert seen[-1]  # the 10-NN graph contains the MST here


def test_ghck_with_far_apart_components_is_finite():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.standard_normal((20, 2)), rng.standard_normal((20, 2)) + 100.0])
    K = ck.hierarchical_cluster_kernel(X, "average", metric="geodesic", n_neighbors=3)
    assert np.isfinite(K).all()
    u, _ = ck.cophenetic_matrix(X, "single", metric="geodesic", n_neighbors=3)
    # the documented rule joins the components by their closest pair
    closest = squareform(pdist(X))[:20, 20:].min()
    assert u[0, 25] == pytest.approx(closest)


def test_reweighting_kernels_ranges_and_psd():
    X = _points(1, n=50)
    for method in ("kmeans", "hierarchical", "spectral"):
        U = ck.membership_matrix(X, method, 3, random_state=0)
        assert U.shape == (3, 50) and np.allclose(U.sum(0), 1) and set(np.unique(U)) <= {0.0, 1.0}
        K1, K2, K3 = ck.rck_gaussian(U, 0.5), ck.rck_dot(U, 0.3), ck.rck_scaled(U, 2.0)
        assert K1.min() > 0 and K1.max() <= 1 + 1e-12 and np.allclose(np.diag(K1), 1)
        same = U.argmax(0)[:, None] == U.argmax(0)[None, :]
        np.testing.assert_allclose(K2, np.where(same, 1 + 0.3 / 50, 0.3 / 50))
        np.testing.assert_allclose(K3, np.where(same, 2 + 1 / 50, 1 / 50))
        for K in (K1, K2, K3):
            assert np.linalg.eigvalsh(K).min() >= -1e-10
    Us = ck.membership_matrix(X, "kmeans", 3, soft=True, random_state=0)
    assert np.allclose(Us.sum(0), 1) and (Us > 0).all() and (Us < 1).all()


@pytest.mark.parametrize("n_clusters", [2, 3])
def test_soft_memberships_are_the_e_step_of_a_spherical_gaussian_mixture(n_clusters):
    """Soft k-means memberships against scipy's Gaussian densities: equal weights, means the
    k-means centres (the means of the crisp clusters of the same run) and covariance s^2 I, with
    s^2 the mean squared distance of the points to their own centre."""
    from scipy.stats import multivariate_normal

    rng = np.random.default_rng(7)
    X = rng.standard_normal((60, 2)) + np.repeat([[0.0, 0.0], [2.5, 0.0], [0.0, 2.5]], 20, axis=0)
    crisp = ck.membership_matrix(X, "kmeans", n_clusters, random_state=0)
    U = ck.membership_matrix(X, "kmeans", n_clusters, soft=True, random_state=0)
    labels = crisp.argmax(axis=0)
    centres = np.array([X[labels == c].mean(axis=0) for c in range(n_clusters)])
    s2 = np.mean(np.sum((X - centres[labels]) ** 2, axis=1))
    log_p = np.array([multivariate_normal(m, s2 * np.eye(2)).logpdf(X) for m in centres])
    want = np.exp(log_p - log_p.max(axis=0))
    want /= want.sum(axis=0)
    assert np.sum((want > 0.05) & (want < 0.95)) >= 5  # memberships not saturated: the scale matters
    np.testing.assert_allclose(U, want, atol=1e-10)


def test_bagged_kernel_counts_co_clustering():
    X = _points(2, n=30)
    K = ck.bagged_cluster_kernel(X, 3, n_runs=7, random_state=0)
    assert np.allclose(np.diag(K), 1) and np.allclose(K, K.T)
    assert np.allclose(K * 7, np.round(K * 7))  # counts out of 7 runs
    # reproduce the runs with the same seeds
    rng = np.random.RandomState(0)
    count = np.zeros((30, 30))
    for _ in range(7):
        lab, _ = ck.kmeans(X, 3, n_init=1, init="random", random_state=rng.randint(2**31 - 1))
        count += lab[:, None] == lab[None, :]
    np.testing.assert_allclose(K, count / 7)
    assert np.linalg.eigvalsh(K).min() >= -1e-10


def test_kmeans_is_a_lloyd_fixed_point_and_matches_scikit_learn():
    from sklearn.cluster import KMeans

    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 3)) + np.repeat([[0, 0, 0], [8, 0, 0], [0, 8, 0]], 20, axis=0)
    labels, centres = ck.kmeans(X, 3, random_state=0)
    # a fixed point of Lloyd's iteration: centres are the means, each point is nearest its own
    for k in range(3):
        np.testing.assert_allclose(centres[k], X[labels == k].mean(axis=0))
    D2 = ((X[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    assert np.all(D2[np.arange(60), labels] <= D2.min(axis=1) + 1e-12)
    # on separated clouds scikit-learn finds the same partition and inertia
    km = KMeans(3, n_init=10, random_state=0).fit(X)
    assert adjusted_rand_score(labels, km.labels_) == 1.0
    np.testing.assert_allclose(D2[np.arange(60), labels].sum(), km.inertia_, rtol=1e-10)


def test_kmeans_breaks_distance_ties_by_the_first_centre():
    # 0 is nearer to -0.3 than to 0.1 + 0.2 = 0.30000000000000004 only by round-off: a tie,
    # which goes to the first centre (an exact argmin would pick the second)
    X = np.array([[0.0]])
    labels, _ = ck._assign(X, np.array([[0.1 + 0.2], [-0.3]]), np.square(X).sum(axis=1))
    assert labels[0] == 0
    labels, _ = ck._assign(X, np.array([[0.5], [-0.3]]), np.square(X).sum(axis=1))
    assert labels[0] == 1  # a real difference is not a tie
    X = np.array([[0.0], [0.1], [1.0]])
    with pytest.raises(ValueError, match="init"):
        ck.kmeans(X, 2, init="bogus")
    with pytest.raises(ValueError, match="n_clusters"):
        ck.kmeans(X, 6)


def test_out_of_sample_extension():
    X = _points(4, n=60)
    model = ck.HierarchicalClusterKernel("single").fit(X)
    np.testing.assert_allclose(model.transform(X), model.kernel_, atol=1e-10)  # training rows
    X_new = X[:5] + 0.01
    K_new = model.transform(X_new)
    # close to re-clustering with the new points (exactly equal in the 1-D test below)
    full = ck.HierarchicalClusterKernel("single").fit(np.vstack([X, X_new]))
    agree = np.corrcoef(K_new.ravel(), full.kernel_[60:, :60].ravel())[0, 1]
    assert agree > 0.99


@pytest.mark.parametrize("squared", [True, False])
@pytest.mark.parametrize("seed", range(5))
def test_transform_is_the_joint_tree_centred_at_the_training_mean(seed, squared):
    """HCK's extension against an independent construction. A point beyond the ends of 1-D data
    joins single linkage's tree beside its nearest training point, at the height of their
    distance, and leaves the training tree as it was; so scipy's cophenetic distances of the
    joint set, centred at the training mean, K = -1/2 (I - 1w')M(I - w1') with w = 1/n on the
    training points and 0 on the new one, give the new point's kernel row, in a PSD matrix."""
    rng = np.random.default_rng(seed)
    X = np.sort(rng.uniform(0.0, 10.0, 25))[:, None]
    n = X.shape[0]
    model = ck.HierarchicalClusterKernel("single", squared=squared).fit(X)
    # below the root: a point attached above the whole tree has a kernel row that does not
    # depend on its height (the centring removes a constant), so nothing would be checked
    top = model.cophenetic_.max()
    new = np.array([[X.min() - rng.uniform(0.05, 0.45) * top], [X.max() + rng.uniform(0.05, 0.45) * top]])
    K_new = model.transform(new)
    for a, x in enumerate(new):
        u = squareform(sch.cophenet(sch.linkage(pdist(np.vstack([X, x])), method="single")))
        np.testing.assert_allclose(u[:n, :n], model.cophenetic_, atol=1e-12)  # the training tree
        M = u**2 if squared else u
        C = np.eye(n + 1) - np.outer(np.ones(n + 1), np.r_[np.full(n, 1.0 / n), 0.0])
        K_joint = -0.5 * C @ M @ C.T
        np.testing.assert_allclose(K_joint[:n, :n], model.kernel_, atol=1e-9 * M.max())
        np.testing.assert_allclose(K_new[a], K_joint[n, :n], atol=1e-9 * M.max())
        lam = np.linalg.eigvalsh(K_joint)
        assert lam.min() >= -1e-9 * lam.max()


def test_data_dependent_svc_and_bad_input():
    X, y = datasets.make_gaussian_clouds("three", 90, random_state=0)
    y = (y == 2).astype(int)
    y_train = datasets.ssl_split(y, 6, random_state=0)
    clf = ck.DataDependentSVC(functools.partial(ck.hierarchical_cluster_kernel, linkage="single")).fit(
        X, y_train
    )
    assert (clf.transduction_ == y).mean() > 0.95
    with pytest.raises(ValueError, match="linkage must be one of"):
        ck.hierarchical_cluster_kernel(X, "ward")
    with pytest.raises(ValueError, match="metric"):
        ck.hierarchical_cluster_kernel(X, metric="cosine")
    with pytest.raises(ValueError, match="exactly one"):
        ck.hierarchical_cluster_kernel(X, metric="geodesic")
    with pytest.raises(ValueError, match="apply to metric='geodesic'"):
        ck.hierarchical_cluster_kernel(X, n_neighbors=5)
    with pytest.raises(ValueError, match="NaN"):
        ck.hierarchical_cluster_kernel(np.where(X > 1, np.nan, X))
    with pytest.raises(ValueError, match="alpha"):
        ck.rck_dot(np.eye(3), 1.0)
    with pytest.raises(ValueError, match="at least two classes"):
        ck.DataDependentSVC(ck.hierarchical_cluster_kernel).fit(X, np.where(y_train == 1, 0, y_train))
    with pytest.raises(ValueError, match="fit again"):
        clf.predict(X[:3])


def test_select_svm_matches_a_manual_leave_one_out():
    from sklearn.svm import SVC

    X, y = datasets.make_gaussian_clouds("four", 80, random_state=3)
    y = (y % 2).astype(int)
    labeled = np.flatnonzero(datasets.ssl_split(y, 8, random_state=3) != -1)
    rest = np.setdiff1d(np.arange(80), labeled)
    cands = [({"s": s}, np.exp(-squareform(pdist(X, "sqeuclidean")) / (2 * s * s))) for s in (0.5, 2.0)]
    acc, params = ch2.select_svm(cands, y, labeled, Cs=(1.0, 10.0))
    scored = []
    for p, K in cands:
        for C in (1.0, 10.0):
            hits = 0
            for i in range(labeled.size):
                tr = np.delete(labeled, i)
                if np.unique(y[tr]).size < 2:
                    hits += int(y[tr][0] == y[labeled[i]])
                    continue
                svc = SVC(kernel="precomputed", C=C).fit(K[np.ix_(tr, tr)], y[tr])
                hits += int(svc.predict(K[np.ix_([labeled[i]], tr)])[0] == y[labeled[i]])
            pred = SVC(kernel="precomputed", C=C).fit(K[np.ix_(labeled, labeled)], y[labeled]).predict(
                K[np.ix_(rest, labeled)])
            scored.append((hits, {**p, "C": C}, pred))
    top = max(h for h, _, _ in scored)
    tied = [t for t in scored if t[0] == top]
    two_class = [t for t in tied if np.unique(t[2]).size > 1]
    _, want, pred = (two_class or tied)[0]
    assert {k: v for k, v in params.items() if k not in ("cv", "tied")} == want
    assert params["cv"] == pytest.approx(top / labeled.size) and params["tied"] == len(tied)
    assert acc == pytest.approx(np.mean(pred == y[rest]))


def test_select_svm_with_more_than_20_labels_uses_stratified_folds():
    """Above 20 labels: stratified n_folds-fold cross-validation (scikit-learn's, same seed)."""
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.svm import SVC

    X, y = datasets.make_gaussian_clouds("four", 120, random_state=5)
    y = (y % 2).astype(int)
    labeled = np.flatnonzero(datasets.ssl_split(y, 30, random_state=5) != -1)
    rest = np.setdiff1d(np.arange(120), labeled)
    assert labeled.size == 30
    D2 = squareform(pdist(X, "sqeuclidean"))
    cands = [({"s": s}, np.exp(-D2 / (2 * s * s))) for s in (0.3, 1.0, 3.0)]
    acc, params, pred = ch2.select_svm(cands, y, labeled, Cs=(1.0, 10.0), n_folds=5, random_state=0,
                                       return_prediction=True)
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    scored = []
    for p, K in cands:
        KL = K[np.ix_(labeled, labeled)]
        for C in (1.0, 10.0):
            pred_cv = cross_val_predict(SVC(kernel="precomputed", C=C), KL, y[labeled], cv=folds)
            cv = np.mean(pred_cv == y[labeled])
            scored.append((cv, {**p, "C": C}))
    top = max(cv for cv, _ in scored)
    assert params["cv"] == pytest.approx(top)
    chosen = {k: v for k, v in params.items() if k not in ("cv", "tied")}
    assert chosen in [q for cv, q in scored if cv == top]
    assert acc == pytest.approx(np.mean(pred == y[rest]))


def _tied_candidates():
    """Two kernels with the same labelled block (so every labelled-only score ties) that
    differ on the unlabelled rows: the first sends every unlabelled point to class 0."""
    F_lab = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]])
    y_lab = np.array([0, 0, 1, 1])
    F_one = np.repeat(F_lab[:1], 6, axis=0)  # every unlabelled point is a copy of a class-0 point
    F_two = np.r_[np.repeat(F_lab[:1], 3, axis=0), np.repeat(F_lab[2:3], 3, axis=0)]
    cands = [({"name": "one-class"}, np.r_[F_lab, F_one] @ np.r_[F_lab, F_one].T),
             ({"name": "two-class"}, np.r_[F_lab, F_two] @ np.r_[F_lab, F_two].T)]
    return cands, y_lab


def test_select_svm_does_not_pick_a_one_class_classifier_because_of_a_tie():
    """The sound protocol's tie rule: among candidates tied on the labelled-only score, one
    whose SVM assigns every unlabelled point to one class loses to a tied one that does not,
    whatever the (hidden) labels of the unlabelled points are."""
    cands, y_lab = _tied_candidates()
    labeled = np.arange(4)
    KL = [K[np.ix_(labeled, labeled)] for _, K in cands]
    assert np.array_equal(KL[0], KL[1]), "the labelled blocks must be equal, so the scores tie"
    choices = []
    for hidden in (np.zeros(6, int), np.ones(6, int), np.array([0, 1, 0, 1, 0, 1])):
        y = np.r_[y_lab, hidden]
        acc, params, pred = ch2.select_svm(cands, y, labeled, Cs=(1.0,), return_prediction=True)
        assert params["tied"] == 2
        assert params["name"] == "two-class", "a tied one-class classifier was chosen over a two-class one"
        assert np.unique(pred).size == 2
        choices.append((params["name"], tuple(pred)))
    # the hidden labels change the reported accuracy only, never the choice
    assert len(set(choices)) == 1
    # the first candidate really is a one-class classifier: alone, it is chosen and predicts one class
    _, params, pred = ch2.select_svm(cands[:1], np.r_[y_lab, np.zeros(6, int)], labeled, Cs=(1.0,),
                                    return_prediction=True)
    assert params["name"] == "one-class" and np.unique(pred).size == 1
    # when every tied candidate is one-class, the stated order decides: the first wins
    _, params = ch2.select_svm([cands[0], ({"name": "copy"}, cands[0][1])], np.r_[y_lab, np.zeros(6, int)],
                              labeled, Cs=(1.0,))
    assert params["name"] == "one-class"


def test_select_svm_prefers_a_better_score_to_the_tie_rule():
    """The tie rule applies to ties only: a one-class candidate with a strictly better
    labelled-only score still wins."""
    cands, y_lab = _tied_candidates()
    bad = np.eye(10)  # every labelled point is its own cluster: leave-one-out gets nothing right
    bad[:4, :4] = 0.0
    np.fill_diagonal(bad, 1.0)
    labeled = np.arange(4)
    _, params = ch2.select_svm([({"name": "bad"}, bad), cands[0]], np.r_[y_lab, np.zeros(6, int)], labeled,
                              Cs=(1.0,))
    assert params["name"] == "one-class" and params["tied"] == 1


def test_table1_candidates_are_psd_and_complete():
    X, _ = datasets.make_gaussian_clouds("three", 60, random_state=0)
    cands = ch2.table1_candidates(X, n_neighbors=5, cluster_counts=(2, 3), random_state=0)
    assert sorted(cands) == sorted(ch2.TABLE1_ROWS)
    for row, items in cands.items():
        for _, K in items:
            assert K.shape == (60, 60) and np.isclose(np.mean(np.diag(K)), 1.0)
            assert np.linalg.eigvalsh(K).min() >= -1e-8 * np.abs(K).max(), row


def test_table1_candidates_raw_readings_are_the_plain_kernels():
    """unit_diagonal=False, squared=False: the paper's protocol's raw kernels, M = u."""
    X, _ = datasets.make_gaussian_clouds("three", 40, random_state=2)
    cands = ch2.table1_candidates(X, n_neighbors=5, cluster_counts=(2,), n_runs=2, squared=False,
                                 unit_diagonal=False, random_state=0)
    np.testing.assert_allclose(cands["linear"][0][1], X @ X.T, atol=1e-10)
    for k in ck.LINKAGES:
        u = squareform(sch.cophenet(sch.linkage(pdist(X), method=k)))
        J = np.eye(40) - 1.0 / 40
        np.testing.assert_allclose(cands[f"HCK, {k}"][0][1], -0.5 * J @ u @ J, atol=1e-9 * u.max())
    with pytest.raises(ValueError, match="unit_diagonal must be True or False"):
        ch2.table1_candidates(X, unit_diagonal="no")


def test_select_svm_and_predict_refuse_what_they_cannot_answer():
    import scipy.sparse as sp

    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    K = ck.hierarchical_cluster_kernel(X)
    with pytest.raises(ValueError, match="candidates is empty"):
        ch2.select_svm([], y, [0, 3])
    with pytest.raises(ValueError, match="Every point is labelled"):
        ch2.select_svm([({}, K)], y, np.arange(6))
    with pytest.raises(ValueError, match="candidate kernel"):
        ch2.select_svm([({}, K[:5, :5])], y, [0, 3])
    # a callable kernel accepts sparse X; predict compares sparse and dense rows correctly
    model = ck.DataDependentSVC(lambda Z: ck.hierarchical_cluster_kernel(sp.csr_matrix(Z).toarray())).fit(
        sp.csr_matrix(X), [0, -1, -1, 1, -1, -1]
    )
    assert np.array_equal(model.predict(X), model.transduction_)
    with pytest.raises(ValueError, match="not those points"):
        model.predict(X[::-1])


def test_hck_classifier_predicts_new_points_through_the_extension():
    rng = np.random.default_rng(1)
    X = np.r_[rng.normal(0, 0.3, (15, 2)), rng.normal(3, 0.3, (15, 2))]
    y = np.full(30, -1)
    y[[0, 15]] = [0, 1]
    model = ck.DataDependentSVC().fit(X, y)
    assert np.array_equal(model.predict(X), model.transduction_), "training rows give transduction_"
    # a copy of a training point attaches to it at height 0: it gets that point's label,
    # whatever order the new points come in
    new = X[[3, 20, 7]] + 0.0
    assert np.array_equal(model.predict(new), model.transduction_[[3, 20, 7]])
    assert np.array_equal(model.predict(new[::-1]), model.transduction_[[7, 20, 3]])


def test_transform_in_blocks_equals_one_point_at_a_time():
    """transform works 256 points at a time; every block gives the rows of single points."""
    X = _points(6, n=40)
    model = ck.HierarchicalClusterKernel("average").fit(X)
    X_new = np.random.default_rng(6).normal(0.0, 3.0, (600, 3))
    K_new = model.transform(X_new)
    rows = np.vstack([model.transform(x[None, :]) for x in X_new])
    np.testing.assert_allclose(K_new, rows, atol=1e-12)


def test_rck_dot_accepts_alpha_zero():
    U = ck.membership_matrix(_points(2, n=20), "kmeans", 3, random_state=0)
    np.testing.assert_array_equal(ck.rck_dot(U, 0.0), U.T @ U)


def test_spectral_embedding_against_scipy():
    """Rows of the top-c eigenvectors of D^-1/2 (W + tau/n 11') D^-1/2, tau = 1e-3 x mean degree,
    scaled to unit length: compared through Z Z', which no eigenvector's sign changes."""
    import scipy.linalg

    from sslteach.graphs import knn_graph

    rng = np.random.default_rng(8)
    X = np.vstack([rng.normal(m, 0.8, (15, 2)) for m in ([0, 0], [4, 0], [0, 4])])
    for c in (2, 3):
        W = knn_graph(X, 5).toarray()
        n = len(X)
        W_tau = W + 1e-3 * W.sum(axis=1).mean() / n
        d = W_tau.sum(axis=1)
        lam, V = scipy.linalg.eigh(W_tau / np.sqrt(np.outer(d, d)))
        assert lam[-c] - lam[-c - 1] > 1e-3  # a gap: the top-c subspace is unique
        Z = V[:, ::-1][:, :c]
        Z /= np.linalg.norm(Z, axis=1, keepdims=True)
        got = ck._spectral_embedding(X, c, 5)
        np.testing.assert_allclose(got @ got.T, Z @ Z.T, atol=1e-8)


def test_hierarchical_memberships_are_the_average_linkage_cut():
    """The same partition as scipy's average-linkage tree cut into c clusters (not single's)."""
    X = np.random.default_rng(9).uniform(size=(50, 2))  # no structure: single linkage chains
    for c in (3, 4):
        U = ck.membership_matrix(X, "hierarchical", c)
        labels = sch.fcluster(sch.linkage(pdist(X), method="average"), t=c, criterion="maxclust")
        np.testing.assert_array_equal(U.T @ U, (labels[:, None] == labels[None, :]).astype(float))
        single = sch.fcluster(sch.linkage(pdist(X), method="single"), t=c, criterion="maxclust")
        assert adjusted_rand_score(labels, single) < 0.9  # the data tell the two linkages apart


def test_data_dependent_svc_with_a_callable_kernel_predicts_its_training_rows():
    X = _points(3, n=30)
    y = np.full(30, -1)
    y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    kernel = functools.partial(ck.hierarchical_cluster_kernel, linkage="single")
    clf = ck.DataDependentSVC(kernel=kernel).fit(X, y)
    np.testing.assert_array_equal(clf.predict(X), clf.transduction_)
    np.testing.assert_array_equal(clf.predict(), clf.transduction_)
    with pytest.raises(ValueError, match="defined on the points"):
        clf.predict(X[::-1])


def test_spectral_memberships_are_kmeans_on_the_c_dimensional_embedding():
    """"spectral": k-means (10 starts, the seed drawn as membership_matrix draws it) on the first
    c columns of the embedding, not on more."""
    from sklearn.utils import check_random_state

    rng = np.random.default_rng(10)
    X = np.vstack([rng.normal(m, 1.0, (20, 2)) for m in ([0, 0], [3, 0], [0, 3], [3, 3])])
    for c in (2, 3):
        U = ck.membership_matrix(X, "spectral", c, n_neighbors=6, random_state=0)
        seed = check_random_state(0).randint(2**31 - 1)
        labels, _ = ck.kmeans(ck._spectral_embedding(X, c, 6), c, n_init=10, random_state=seed)
        np.testing.assert_array_equal(U.T @ U, (labels[:, None] == labels[None, :]).astype(float))
