"""Defects found by an independent bad-input audit (issue 15): each test failed before its fix."""

import functools

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from sslteach import cluster_kernels as ck
from sslteach import datasets, ksc
from sslteach import spectral_kernels as sk
from sslteach._validation import check_labels
from sslteach.protocols import ch2, ch4


def _data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2)) + np.repeat([[0, 0], [4, 0]], n // 2, axis=0)
    y = np.repeat([0, 1], n // 2)
    return X, y, datasets.ssl_split(y, 8, random_state=seed)


def test_data_dependent_svc_predict_refuses_other_points():  # defect 1
    X, _, y = _data()
    kernel = functools.partial(ck.hierarchical_cluster_kernel, linkage="average")
    model = ck.DataDependentSVC(kernel).fit(X, y)
    assert np.array_equal(model.predict(X), model.transduction_)
    assert np.array_equal(model.predict(), model.transduction_)
    with pytest.raises(ValueError, match="not those points"):
        model.predict(X[::-1])
    with pytest.raises(ValueError, match="NaN"):
        model.predict(np.full_like(X, np.nan))


def test_string_and_nan_labels_are_refused_with_a_hint():  # defects 2 and 3
    X, y_true, y = _data()
    with pytest.raises(ValueError, match="numeric class labels"):
        datasets.ssl_split(np.where(y_true == 0, "a", "b"), 8, random_state=0)
    y_nan = y.astype(float)
    y_nan[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        check_labels(y_nan, len(y))
    with pytest.raises(ValueError, match="NaN"):
        sk.TransductiveSpectralKernel(n_neighbors=5, n_components=4).fit(X, y_nan)
    with pytest.raises(ValueError, match="NaN"):
        ksc.OneVsRestSemiKSC().fit(X, y_nan)
    with pytest.raises(ValueError, match="NaN"):
        ksc.SemiSupervisedKSC().fit(X, y_nan)
    with pytest.raises(ValueError, match="numeric class labels"):
        ksc.SemiSupervisedKSC().fit(X, np.where(y == -1, "-1", y.astype(str)))


@pytest.mark.parametrize(
    "est",
    [
        ksc.SemiSupervisedKSC(),
        ksc.OneVsRestSemiKSC(),
        ksc.LapSVM(),
        sk.TransductiveSpectralKernel(n_neighbors=5, n_components=4),
    ],
    ids=lambda e: type(e).__name__,
)
def test_predict_before_fit_raises_not_fitted_and_fit_sets_n_features_in(est):  # defect 5
    X, _, y = _data()
    with pytest.raises(NotFittedError):
        est.predict(X)
    est.fit(X, y)
    assert est.n_features_in_ == 2


@pytest.mark.parametrize(
    "est",
    [ksc.OneVsRestSemiKSC(), sk.TransductiveSpectralKernel(n_neighbors=5, n_components=4)],
    ids=lambda e: type(e).__name__,
)
def test_binary_decision_function_has_one_column_like_scikit_learn(est):  # defect 4
    from sklearn.metrics import roc_auc_score

    X, y_true, y = _data()
    est.fit(X, y)
    d = est.decision_function(X + 1e-3)
    assert d.shape == (len(X),)
    assert np.array_equal(est.predict(X + 1e-3), est.classes_[(d > 0).astype(int)])
    assert roc_auc_score(y_true, d) > 0.9


def test_index_inputs_are_checked_and_a_mask_equals_its_indices():  # defect 9
    from sslteach.graphs import join_components, knn_graph

    X, y_true, _ = _data()
    K = [({}, X @ X.T)]
    lab = np.array([0, 1, 2, 20, 21, 22])
    mask = np.zeros(len(X), bool)
    mask[lab] = True
    assert ch2.select_svm(K, y_true, mask) == ch2.select_svm(K, y_true, lab)
    for bad, match in (([], "empty"), (mask[:-1], "length"), ([0, 0, 21], "repeats"), ([0, 99], "outside")):
        with pytest.raises(ValueError, match=match):
            ch2.select_svm(K, y_true, bad)
    with pytest.raises(ValueError, match="length"):
        ch4.evaluate_protocol(X, y_true, mask[:-1], n_unlabeled=10, n_val=10, lapsvm=False)
    G = knn_graph(np.r_[X[:20], X[20:] + 100], 3)
    with pytest.raises(ValueError, match="rows but G has"):
        join_components(X[:-1], G)
    assert join_components(X.tolist(), G).shape == (40, 40)  # a list of rows is fine


def test_bad_parameters_get_a_clear_value_error():  # defect 10
    from sslteach import kernels, relaxation

    X, y_true, y = _data()
    for sigma in (1e-300, 1e300):
        with pytest.raises(ValueError, match="sigma"):
            kernels.rbf_kernel(X, sigma=sigma)
    with pytest.raises(ValueError, match="n_labeled"):
        datasets.load_ssl_benchmark("digit1", n_labeled=10.0)
    with pytest.raises(ValueError, match="solver"):
        ksc.LapSVM(solver="bogus").fit(X, y)
    with pytest.raises(ValueError, match="min_cluster_size"):
        relaxation.SpectralAlignmentClustering(min_cluster_size=2.7).fit(X)
    with pytest.raises(ValueError, match="squared"):
        ck.HierarchicalClusterKernel(squared="no").fit(X)
    from sslteach.graphs import knn_graph

    lam, V = sk.laplacian_eigenpairs(knn_graph(X, 5), 5)
    with pytest.raises(ValueError, match="mu must be 1-D"):
        sk.tsk_scores(V, np.ones((5, 1)), y)
    U = ck.membership_matrix(X, "kmeans", 2, random_state=0)
    with pytest.raises(ValueError, match="alpha"):
        ck.rck_dot(U, "abc")


def test_messages_name_the_real_mistake():  # defect 11
    import scipy.sparse as sp

    from sslteach._validation import check_data

    with pytest.raises(ValueError, match="must hold numbers") as err:
        check_data(np.array([[1, "a"], [2, "b"]], dtype=object))
    assert "toarray" not in str(err.value)
    with pytest.raises(ValueError) as err:
        check_data(sp.csr_matrix(np.eye(3)))
    assert str(err.value).count("toarray") == 1
    X, _, _ = _data(n=10)
    with pytest.raises(ValueError, match="LapSVM, a binary model") as err:
        ksc.LapSVM().fit(X, np.array([0, 1, 2] + [-1] * 7))
    assert "Semi-KSC" not in str(err.value)
    y = np.repeat([0, 1], 10)
    a = datasets.ssl_split(y, 4, random_state=np.random.default_rng(0))  # the docstring promises it
    b = datasets.ssl_split(y, 4, random_state=np.random.default_rng(0))
    assert np.array_equal(a, b) and (a != -1).sum() == 4


def test_values_near_1e300_are_refused_with_advice_to_rescale():  # defect 7
    from sslteach import graphs, kernels

    X, _, y = _data(n=20)
    big = X * 1e300
    calls = {
        "knn_graph": lambda: graphs.knn_graph(big, 3),
        "geodesic_distances": lambda: graphs.geodesic_distances(big, n_neighbors=3),
        "linear_kernel": lambda: kernels.linear_kernel(big),
        "rbf_kernel": lambda: kernels.rbf_kernel(big, sigma=1.0),
        "ksc_kernel": lambda: ksc.ksc_kernel(big, sigma2=1.0),
        "membership_matrix": lambda: ck.membership_matrix(big, "spectral", 2),
        "table1_candidates": lambda: ch2.table1_candidates(big),
        "TSK": lambda: sk.TransductiveSpectralKernel(n_neighbors=3, n_components=4).fit(big, y),
        "LapSVM": lambda: ksc.LapSVM().fit(big, y),
        "SemiSupervisedKSC": lambda: ksc.SemiSupervisedKSC().fit(big, y),
        "OneVsRestSemiKSC": lambda: ksc.OneVsRestSemiKSC().fit(big, y),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError, match="Rescale") as err:
            call()
        assert "e+300 in absolute value" in str(err.value), name


def test_degenerate_data_is_refused_not_answered_with_nan():  # defect 8
    X, _, y = _data(n=20)
    with pytest.raises(ValueError, match="duplicate rows"):
        ch2.table1_candidates(np.ones((12, 3)))
    model = ksc.SemiSupervisedKSC(sigma2=1.0).fit(X, y)
    with pytest.raises(ValueError, match="underflow"):
        model.alpha_hat(X + 1e3)
    assert np.all(np.isfinite(model.alpha_hat(X)))
    V = np.linalg.qr(np.random.default_rng(0).standard_normal((20, 3)))[0]
    with pytest.raises(ValueError, match=r"\[0, 2\]"):
        sk.regularized_spectral_kernel(np.array([-1.0, 0.5, 1.0]), V, 0.5)
