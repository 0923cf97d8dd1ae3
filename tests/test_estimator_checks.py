"""scikit-learn's own estimator checks (``parametrize_with_checks``) on every estimator.

A check may fail only for a reason that follows from the semi-supervised convention
(``y = -1`` marks unlabelled points) or from a documented design choice; each estimator's
docstring names its expected failures, and ``test_expected_failures_are_documented`` keeps
the two lists the same.
"""

import warnings

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from sslteach.cluster_kernels import DataDependentSVC, HierarchicalClusterKernel
from sslteach.ksc import LapSVM, OneVsRestSemiKSC, SemiSupervisedKSC
from sslteach.relaxation import SpectralAlignmentClustering
from sslteach.spectral_kernels import TransductiveSpectralKernel

NUMERIC_LABELS = (
    "labels must be numbers, since -1 marks unlabelled points (scikit-learn gives its own "
    "semi-supervised estimators numeric labels in this check)"
)

EXPECTED_FAILURES = {
    "HierarchicalClusterKernel": {},
    "DataDependentSVC": {"check_classifiers_classes": NUMERIC_LABELS},
    "SemiSupervisedKSC": {"check_classifiers_classes": NUMERIC_LABELS},
    "OneVsRestSemiKSC": {"check_classifiers_classes": NUMERIC_LABELS},
    "LapSVM": {"check_classifiers_classes": NUMERIC_LABELS},
    "TransductiveSpectralKernel": {
        "check_classifiers_classes": NUMERIC_LABELS,
        "check_estimators_nan_inf": (
            "the check fits 10 points, and the default n_components=10 eigenvectors need at "
            "least 11 (n_components < n is refused with a ValueError)"
        ),
    },
    "SpectralAlignmentClustering": {
        "check_estimators_dtypes": (
            "an all-zero integer row has no direction, so the default normalize=True of the "
            "linear kernel is undefined there (refused with a ValueError that says so)"
        ),
    },
}

ESTIMATORS = [
    HierarchicalClusterKernel(),
    DataDependentSVC(),
    SemiSupervisedKSC(),
    OneVsRestSemiKSC(),
    LapSVM(),
    TransductiveSpectralKernel(),
    SpectralAlignmentClustering(),
]


def _expected(estimator):
    return EXPECTED_FAILURES[type(estimator).__name__]


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected)
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # e.g. "the k-NN graph has 2 components"
        check(estimator)


def test_every_estimator_is_checked():
    import inspect

    from sklearn.base import BaseEstimator

    import sslteach.cluster_kernels
    import sslteach.ksc
    import sslteach.relaxation
    import sslteach.spectral_kernels

    found = {
        name
        for mod in (sslteach.cluster_kernels, sslteach.ksc, sslteach.relaxation, sslteach.spectral_kernels)
        for name in mod.__all__
        if inspect.isclass(getattr(mod, name)) and issubclass(getattr(mod, name), BaseEstimator)
    }
    assert found == set(EXPECTED_FAILURES), "an estimator is missing from the estimator checks"
    assert {type(e).__name__ for e in ESTIMATORS} == found


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_expected_failures_are_documented(estimator):
    doc = type(estimator).__doc__
    for check in _expected(estimator):
        name = type(estimator).__name__
        assert check in doc, f"{name}'s docstring does not name its expected failure {check}"
    assert "estimator checks" in doc, f"{type(estimator).__name__}'s docstring does not report the checks"
