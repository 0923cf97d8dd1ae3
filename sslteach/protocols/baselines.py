r"""The baselines a reader expects in Chapter 5, in the comparison's ``Method`` format.

* **1-NN** on the labelled points only, Euclidean, ties in index order (no setting to choose).
* **The harmonic function** of Zhu, Ghahramani & Lafferty (2003) on the fully connected
  Gaussian graph :math:`W_{ij} = \exp(-\lVert x_i - x_j\rVert^2/(2\sigma^2))`, :math:`i\ne j`,
  :math:`\sigma^2 = s\bar m` (the comparison's unit of width): minimise :math:`f^\top Lf`,
  :math:`L = D - W`, with the labelled values fixed (class 1 as 1, class 0 as 0), and label
  a point 1 where :math:`f > 1/2`; and the same with Zhu et al.'s class mass normalisation
  (:func:`class_mass_normalise`).
* **LapRLS** (Belkin, Niyogi & Sindhwani, 2006, Sect. 4.1): over
  :math:`f(x) = \sum_i\alpha_iK(x_i, x)`,

  .. math:: \frac1l\sum_{i\le l}(y_i - f(x_i))^2 + \gamma_A\lVert f\rVert_K^2
     + \frac{\gamma_I}{n^2}\mathbf f^\top L\mathbf f,

  with their closed form :math:`\alpha = (JK + \gamma_AlI + \frac{\gamma_Il}{n^2}LK)^{-1}Y`
  (:func:`laprls_closed_form`), K the comparison's Gaussian kernel and L the Laplacian of the
  binary symmetrised 6-NN graph (the graph of the comparison's LapSVM), :math:`y_i = \pm1`.
* **A linear SVM** on the labelled points only (scikit-learn's ``SVC(kernel="linear")``, the
  libsvm solver of the comparison's Gaussian ``SVC``), :math:`C = c/\bar k` with
  :math:`\bar k` the mean of :math:`\lVert x_i\rVert^2` over all n points (the linear kernel's
  mean diagonal, so a grid value c means the same on every set and the solution does not
  change when X is rescaled), :math:`c \in \{10^{-2}, \dots, 10^3\}`. On Text, whose rows
  have unit length, :math:`\bar k = 1` and the linear kernel is the cosine kernel; and the
  comparison's embedding (:func:`~sslteach.protocols.comparison.exact_embedding`) keeps every
  inner product, so this is the linear SVM on the original 11,960 word features.

Both graph methods are solved through a label-independent matrix computed once per data set
and setting (:class:`~sslteach.protocols.comparison.SetCache`), so that every split and fold costs an
l x l solve: for LapRLS :math:`G = M^{-1}` with :math:`M = \gamma_AlK^{-1} + \frac{\gamma_Il}{n^2}L`
gives :math:`\mathbf f = G_{\cdot L}(I + G_{LL})^{-1}y_L` (the push-through identity); for the
harmonic function the pseudo-inverse :math:`L^+` gives the constrained minimiser through an
(l + 1) x (l + 1) system (:func:`harmonic_from_pinv`). ``tests/test_baselines.py`` checks each
against an independent formulation (a direct minimisation, the Dirichlet solve, and
:func:`sslteach.spectral_kernels.harmonic_function`).

:data:`BASELINES` maps their names to ``Method`` entries; ``scripts/reproduce_ch5.py`` runs
them next to :data:`sslteach.protocols.comparison.METHODS`.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.spatial.distance import cdist
from sklearn.svm import SVC

from sslteach.graphs import knn_graph
from sslteach.kernels import rbf_kernel, squared_distances
from sslteach.protocols.comparison import Method, _grid, _labelled

__all__ = [
    "BASELINES",
    "laprls_closed_form",
    "laprls_from_inverse",
    "harmonic_from_pinv",
    "class_mass_normalise",
    "gaussian_laplacian",
    "mean_squared_norm",
]


def gaussian_laplacian(X, sigma):
    r""":math:`L = D - W` of the fully connected Gaussian graph.

    :math:`W_{ij} = \exp(-\lVert x_i - x_j\rVert^2/(2\sigma^2))` for :math:`i \ne j`, :math:`W_{ii} = 0`.
    """
    W = np.exp(-squared_distances(X) / (2 * sigma**2))
    np.fill_diagonal(W, 0.0)
    return np.diag(W.sum(axis=1)) - W


def _pm1(y, lab):
    return np.where(y[lab] == 1, 1.0, -1.0)


def laprls_closed_form(K, L, y, gamma_A, gamma_I):
    r"""LapRLS in Belkin, Niyogi & Sindhwani's closed form.

    :math:`\alpha = (JK + \gamma_AlI + \frac{\gamma_Il}{n^2}LK)^{-1}Y`.

    ``y`` holds 0/1 for labelled points and -1 for unlabelled ones; classes 1 and 0 are
    coded +1 and -1 in Y. Returns :math:`\alpha` and :math:`\mathbf f = K\alpha` (n values).
    One dense n x n solve.
    """
    y = np.asarray(y)
    n = y.size
    lab = np.flatnonzero(y >= 0)
    if lab.size == 0:
        raise ValueError("LapRLS needs at least one labelled point (label >= 0).")
    l = lab.size
    J = np.zeros(n)
    J[lab] = 1.0
    Y = np.zeros(n)
    Y[lab] = _pm1(y, lab)
    A = J[:, None] * K + gamma_A * l * np.eye(n) + (gamma_I * l / n**2) * (L @ K)
    alpha = np.linalg.solve(A, Y)
    return alpha, K @ alpha


def laprls_inverse(K, L, l, gamma_A, gamma_I):
    r"""The label-independent matrix of LapRLS for l labels.

    :math:`G = (\gamma_AlK^{-1} + \frac{\gamma_Il}{n^2}L)^{-1}`
    :math:`= K(\gamma_AlI + \frac{\gamma_Il}{n^2}LK)^{-1}`.
    """
    n = K.shape[0]
    B = gamma_A * l * np.eye(n) + (gamma_I * l / n**2) * (L @ K)
    G = np.linalg.solve(B.T, K).T  # K B^{-1}
    return (G + G.T) / 2


def laprls_from_inverse(G, y):
    r"""The LapRLS outputs at all n points from :func:`laprls_inverse`.

    :math:`\mathbf f = G_{\cdot L}(I + G_{LL})^{-1}y_L`.
    """
    y = np.asarray(y)
    lab = np.flatnonzero(y >= 0)
    A = np.eye(lab.size) + G[np.ix_(lab, lab)]
    return G[:, lab] @ np.linalg.solve(A, _pm1(y, lab))


def harmonic_from_pinv(Lpinv, y):
    r"""The harmonic function from :math:`L^+` (connected graph).

    Minimise :math:`f^\top Lf` with :math:`f_L = y_L`.

    The minimisers are :math:`f = L^+P\lambda + c\mathbf 1` with :math:`\mathbf 1^\top P\lambda = 0`
    (so :math:`Lf = P\lambda`, the Lagrange condition) and :math:`P^\top f = y_L`, i.e.
    :math:`\begin{pmatrix}P^\top L^+P & \mathbf 1\\ \mathbf 1^\top & 0\end{pmatrix}
    \begin{pmatrix}\lambda\\ c\end{pmatrix} = \begin{pmatrix}y_L\\ 0\end{pmatrix}`,
    P the labelled columns of I. ``y``: 0/1 labels, -1 unlabelled; returns f (n values).
    """
    y = np.asarray(y)
    lab = np.flatnonzero(y >= 0)
    l = lab.size
    A = np.zeros((l + 1, l + 1))
    A[:l, :l] = Lpinv[np.ix_(lab, lab)]
    A[:l, l] = 1.0
    A[l, :l] = 1.0
    sol = np.linalg.solve(A, np.append(y[lab].astype(float), 0.0))
    return Lpinv[:, lab] @ sol[:l] + sol[l]


def _one_nn(cache, p, y):
    """The nearest labelled point's label; a point as near (to a relative 1e-9) to several labelled
    points takes the first in index order. ``KNeighborsClassifier`` breaks such ties in its
    threads' order, and Text's duplicate documents made its labels change with the machine."""
    lab, yl = _labelled(y)
    D = cdist(cache.X, cache.X[lab])
    return yl[np.argmax(D <= D.min(axis=1, keepdims=True) * (1 + 1e-9), axis=1)]


def class_mass_normalise(f, y):
    r"""Zhu, Ghahramani & Lafferty's class mass normalisation of harmonic values ``f`` (class 1 as 1).

    Label 1 where :math:`q\,f_i/\sum_uf_u > (1-q)(1-f_i)/\sum_u(1-f_u)`, sums over the unlabelled
    points, q the labelled share of class 1 with add-one smoothing, :math:`(l_1+1)/(l+2)`.
    """
    y = np.asarray(y)
    lab = np.flatnonzero(y >= 0)
    unl = y < 0
    q = (np.sum(y[lab] == 1) + 1) / (lab.size + 2)
    m1, m0 = np.sum(f[unl]), np.sum(1 - f[unl])
    if not (m1 > 0 and m0 > 0):
        return (f > 0.5).astype(np.int64)
    return (q * f / m1 > (1 - q) * (1 - f) / m0).astype(np.int64)


def _harmonic_values(cache, p, y):
    def compute():
        L = gaussian_laplacian(cache.X, cache.sigma(p["s"]))
        lam, V = scipy.linalg.eigh(L)
        # connected graph: one zero eigenvalue (the constants); drop it
        if lam[1] <= 1e-10 * lam[-1]:
            raise ValueError(
                f"The Gaussian graph with s = {p['s']} is not connected to round-off; use a larger s."
            )
        return (V[:, 1:] / lam[1:]) @ V[:, 1:].T

    return harmonic_from_pinv(cache.get(("harmonic", p["s"]), compute), y)


def _harmonic(cache, p, y):
    pred = (_harmonic_values(cache, p, y) > 0.5).astype(np.int64)
    lab, yl = _labelled(y)
    pred[lab] = yl
    return pred


def _harmonic_cmn(cache, p, y):
    pred = class_mass_normalise(_harmonic_values(cache, p, y), y)
    lab, yl = _labelled(y)
    pred[lab] = yl
    return pred


def _knn_laplacian6(cache):
    def compute():
        W = knn_graph(cache.X, 6, weights="connectivity")
        return (sp.diags(np.asarray(W.sum(axis=1)).ravel()) - W).toarray()

    return cache.get(("binary 6-NN laplacian",), compute)


def _laprls(cache, p, y):
    lab, _ = _labelled(y)
    key = ("laprls", p["s"], p["gamma_A"], p["gamma_I"], lab.size)

    def compute():
        K = cache.get(("rbf", p["s"]), lambda: rbf_kernel(cache.X, sigma=cache.sigma(p["s"])))
        return laprls_inverse(K, _knn_laplacian6(cache), lab.size, p["gamma_A"], p["gamma_I"])

    f = laprls_from_inverse(cache.get(key, compute), y)
    return (f >= 0).astype(np.int64)


def mean_squared_norm(cache):
    r""":math:`\bar k`, the mean of :math:`\lVert x_i\rVert^2` over the set's n points (the linear
    kernel's mean diagonal; label-independent, computed once per set)."""

    def compute():
        k = float(np.mean(np.einsum("ij,ij->i", cache.X, cache.X)))
        if not k > 0:
            raise ValueError("Every point is the zero vector; a linear kernel has nothing to separate.")
        return k

    return cache.get(("mean squared norm",), compute)


def _linear_svc(cache, p, y):
    # no random step (probability=False); libsvm's kernel takes its dot products from BLAS
    # (scipy's ddot), and Chapter 5's 14 blocks gave the same results to the last bit under
    # OpenBLAS's Sandybridge kernel on one thread and SkylakeX on two
    lab, yl = _labelled(y)
    clf = SVC(kernel="linear", C=p["c"] / mean_squared_norm(cache))
    return clf.fit(cache.X[lab], yl).predict(cache.X)


#: The baselines, in the order of the book's table after the comparison's METHODS.
BASELINES = {
    m.name: m
    for m in [
        Method("1-NN (labelled only)", "baseline", ({},), _one_nn, "Euclidean, ties by index"),
        Method(
            "harmonic (Gaussian)",
            "baseline",
            _grid(s=(0.05, 0.1, 0.2, 0.5, 1.0, 2.0)),
            _harmonic,
            "fully connected Gaussian graph, threshold 1/2",
        ),
        Method(
            "harmonic + CMN",
            "baseline",
            _grid(s=(0.05, 0.1, 0.2, 0.5, 1.0, 2.0)),
            _harmonic_cmn,
            "the same, class mass normalisation",
        ),
        Method(
            "LapRLS",
            "baseline",
            _grid(s=(0.5, 2.0), gamma_I=(1e2, 1e4, 1e6), gamma_A=(1e-2,)),
            _laprls,
            "binary 6-NN graph, gamma_A = 1e-2",
        ),
        Method(
            "linear SVM (labelled only)",
            "baseline",
            _grid(c=(0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)),
            _linear_svc,
            "C = c / mean |x|^2 (Text: unit rows, so cosine)",
        ),
    ]
}
