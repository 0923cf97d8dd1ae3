"""Chapter 3, full run: Table 3 and Figure 1 of Liu, Qian, Cui & Liu (2009).

    OPENBLAS_NUM_THREADS=1 python scripts/reproduce_ch3.py [--out scripts/results/ch3.json]

Table 3 (Heart, Ionosphere, Sonar, Wine; 20 draws of 20 labels, seeds 0-19, at least one
per class; k = 6; m = 10 or 30; eta = 2; accuracy on the unlabelled points) under every
reading the chapter names:

* scaling "per-feature": each feature to [0, 1] (MinMaxScaler; the book's first edition);
* scaling "global": the whole matrix to [0, 1] by one affine map. The weights of eq. (2)
  of Liu et al. do not change under one global rescaling (h(x) scales with the
  distances), so this reading is the raw features;
* the constant eigenvector v1 (eigenvalue 0) "kept", as Step 2 of Liu et al.'s Table 1
  does, or "dropped" (the m smallest eigenvalues after the first: a deviation).

beta is chosen by leave-one-out on the labelled points (sslteach.spectral_kernels.
loo_select_beta, grid n/l x {0.1, 0.3, 1, 3, 10}, ties to the smallest), the SVM's C
likewise (grid {0.1, 1, 10, 100}, kernel scaled to unit diagonal). No test label is used
for any choice. The LP's weights pass through clean_weights (MU_TOL); when mu = 0 every
score is 0 and the point gets the first class (the module's fallback); the cost of that
fallback, and of the alternative "the class with most labels", is recorded. Every TSK
number is recomputed with Clarabel (through cvxpy) in place of scipy's HiGHS, and the
file records whether every draw's beta, mu support and accuracy agree.

Also: the sensitivity to beta, m, eta and k (10 draws, beta = n/l, v1 kept), and Figure 1
on WebKB (page and link views, l in {4, 8, 16, 32, 64}, 10 draws). Writes a JSON file the
chapter's reproduction page reads, with the list ``paper_numbers`` of the book's scorecard.

The WebKB RSK baseline (eq. (4) of Liu et al. over all m = 800 eigenpairs, extended to new
pages through the Nystrom formula, which divides by 1 - lambda) is checked for the
conditioning of that extension, and rerun on the eigenpairs with |1 - lambda| >= 0.1 only, a
rule fixed by the extension's amplification 1/|1 - lambda| <= 10, not by any label
(``--only webkb-rsk`` reruns this part alone and updates the file in place).

The paired tests are Wilcoxon signed-rank tests on counts of points (correct on the UCI sets,
misclassified on WebKB; ``count_differences``), with exact p-values
(``sslteach.protocols.comparison.signed_rank_test``): equal differences tie exactly.
``--recompute-tests`` recomputes every test from the stored per-draw results and updates the
file in place.

Table 3's LapSVM row, whose parameters the paper sets by an undescribed cross-validation, is
run at fixed settings: sslteach.ksc.LapSVM at its defaults, sigma^2 the median squared
distance, one-vs-rest on Wine, the same 20 draws, under both scalings (``--only lapsvm``).
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

from sslteach import datasets, graphs, kernels
from sslteach import spectral_kernels as spk
from sslteach._decisions import argmax_rows
from sslteach.protocols.comparison import signed_rank_test
from sslteach.protocols.set_level import correct_counts
from sslteach.teach.scorecard import verdict

UCI_M = {"heart": 10, "ionosphere": 30, "sonar": 30, "wine": 10}
UCI_N = {"heart": 270, "ionosphere": 351, "sonar": 208, "wine": 178}  # points; n - 20 unlabelled
N_DRAWS, N_LABELED, ETA, K_NN, ALPHA = 20, 20, 2.0, 6, 0.99
BETA_GRID = np.array([0.1, 0.3, 1.0, 3.0, 10.0])
C_GRID = (0.1, 1.0, 10.0, 100.0)
# libsvm stops at a KKT violation of tol (default 1e-3): kernels that differ at an LP solver's
# round-off then give SVMs that differ by up to that much, enough to move a point (it did, once
# in 160 draws). Solved to 1e-9, the SVMs of HiGHS's and Clarabel's kernels agree.
SVM_TOL = 1e-9
SCALINGS = ("per-feature", "global")
V1 = ("kept", "dropped")

PAPER_T3 = {
    "harmonic": {
        "heart": (59.86, 4.07),
        "ionosphere": (76.83, 6.84),
        "sonar": (60.82, 6.35),
        "wine": (67.78, 3.20),
    },
    "consistency": {
        "heart": (60.30, 3.68),
        "ionosphere": (70.17, 9.07),
        "sonar": (62.18, 6.03),
        "wine": (68.39, 3.03),
    },
    "TSK": {
        "heart": (64.06, 4.42),
        "ionosphere": (77.89, 6.37),
        "sonar": (68.38, 4.56),
        "wine": (72.28, 1.24),
    },
    "LapSVM": {
        "heart": (73.66, 1.60),
        "ionosphere": (82.95, 1.84),
        "sonar": (68.24, 1.28),
        "wine": (93.77, 1.10),
    },
    "OSK+SVM": {
        "heart": (65.88, 1.69),
        "ionosphere": (83.04, 2.10),
        "sonar": (64.68, 1.57),
        "wine": (92.72, 1.32),
    },
    "DSK+SVM": {
        "heart": (76.30, 1.33),
        "ionosphere": (88.55, 1.32),
        "sonar": (71.76, 1.07),
        "wine": (95.63, 0.45),
    },
    "TSK+SVM": {
        "heart": (78.40, 1.30),
        "ionosphere": (90.25, 2.10),
        "sonar": (72.80, 0.95),
        "wine": (96.34, 0.33),
    },
}
NOT_ATTEMPTED = {
    "OSK+SVM": "not attempted: OSK (Zhu et al., 2005) needs a QCQP of its own, not implemented in sslteach",
    "DSK+SVM": "not attempted: DSK (Hoi et al., 2006) needs a QP and an initial kernel set by an undescribed "
    "cross-validation, not implemented in sslteach",
}


def scale(X, how):
    if how == "per-feature":
        return MinMaxScaler().fit_transform(X)
    return (X - X.min()) / (X.max() - X.min())


def reading_name(scaling, v1=None):
    s = "per-feature [0, 1] scaling" if scaling == "per-feature" else "global [0, 1] scaling (= raw features)"
    if v1 is None:
        return f"{s}; baseline on the graph of Liu et al. (2)"
    v = "v1 kept (paper's Step 2)" if v1 == "kept" else "v1 dropped (deviation)"
    return f"{s}; {v}"


def accuracy(pred, y, yt):
    U = yt == -1
    return 100.0 * float(np.mean(pred[U] == y[U]))


def loo_svm_C(K_LL, y_L):
    """C by leave-one-out on the labelled block; ties go to the smallest C."""
    best_right, best_C = -1, C_GRID[0]
    for C_ in C_GRID:
        right = 0
        for i in range(len(y_L)):
            keep = np.arange(len(y_L)) != i
            svm = SVC(kernel="precomputed", C=C_, tol=SVM_TOL).fit(K_LL[np.ix_(keep, keep)], y_L[keep])
            right += svm.predict(K_LL[i : i + 1, keep])[0] == y_L[i]
        if right > best_right:
            best_right, best_C = right, C_
    return best_C


def tsk_draw(lam, V, y, yt, solver):
    """One draw of the TSK: beta by leave-one-out, the LP, eq. (5), and the SVM on the kernel."""
    n = len(y)
    beta, _ = spk.loo_select_beta(lam, V, yt, n / N_LABELED * BETA_GRID, eta=ETA, solver=solver)
    mu = spk.solve_tsk(lam, V, yt, eta=ETA, beta=beta, solver=solver)
    classes, F = spk.tsk_scores(V, mu, yt)
    pred = classes[argmax_rows(F)]  # mu = 0: all scores 0, every point the first class
    L = yt != -1
    counts = np.bincount(np.searchsorted(classes, yt[L]), minlength=classes.size)
    pred_major = pred if np.any(mu > 0) else np.full(n, classes[int(np.argmax(counts))])
    K = (V * mu) @ V.T
    Kn = kernels.normalize_kernel(K) if np.any(mu > 0) else K
    C_ = loo_svm_C(Kn[np.ix_(L, L)], yt[L])
    svm = SVC(kernel="precomputed", C=C_, tol=SVM_TOL).fit(Kn[np.ix_(L, L)], yt[L])
    return {
        "beta / (n/l)": float(beta / (n / N_LABELED)),
        "mu = 0": bool(not np.any(mu > 0)),
        "support": [int(t) for t in np.flatnonzero(mu > 0)],
        "TSK": accuracy(pred, y, yt),
        "TSK, majority fallback": accuracy(pred_major, y, yt),
        "C": C_,
        "TSK+SVM": accuracy(svm.predict(Kn[:, L]), y, yt),
    }


def count_differences(a, b, n_points):
    """Counts of points behind a minus those behind b, draw by draw (integers).

    a and b are rates (%) on the same ``n_points`` points (accuracies on the unlabelled points,
    or error rates): each is 100 k / n_points, and k is recovered exactly
    (``correct_counts``: a ValueError unless whole to 1e-9).
    """
    return correct_counts(a, n_points) - correct_counts(b, n_points)


def paired(a, b, n_points):
    """Two-sided Wilcoxon signed-rank test of a - b over the same draws, on counts of points.

    The p-value is exact (``signed_rank_test``; 1.0 when all differences are zero); wins and
    losses count the draws where a's count is above or below b's.
    """
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    k = count_differences(a, b, n_points)
    if not np.any(k):
        return {"mean diff": 0.0, "p": 1.0, "wins": 0, "losses": 0}
    return {
        "mean diff": float(d.mean()),
        "p": float(signed_rank_test(k).pvalue),
        "wins": int(np.sum(k > 0)),
        "losses": int(np.sum(k < 0)),
    }


def table3(log):
    out = {}
    for scaling in SCALINGS:
        for name, m in UCI_M.items():
            t0 = time.time()
            X, y = datasets.load_uci(name)[:2]
            assert len(y) == UCI_N[name], (name, len(y))
            X = scale(X, scaling)
            W = graphs.knn_graph(X, K_NN)
            lam1, V1_ = spk.laplacian_eigenpairs(W, m + 1)
            spectra = {"kept": (lam1[:m], V1_[:, :m]), "dropped": (lam1[1:], V1_[:, 1:])}
            rec = {"harmonic": [], "consistency": [], "majority of labels": [], "labels per class": []}
            for v1 in V1:
                for solver in ("scipy", "CLARABEL"):
                    rec[f"TSK draws, v1 {v1}, {solver}"] = []
            for s in range(N_DRAWS):
                yt = datasets.ssl_split(y, N_LABELED, random_state=s)
                L = yt != -1
                rec["harmonic"].append(accuracy(spk.harmonic_function(W, yt)[0], y, yt))
                rec["consistency"].append(accuracy(spk.consistency_method(W, yt, ALPHA)[0], y, yt))
                cl, cnt = np.unique(yt[L], return_counts=True)
                rec["majority of labels"].append(accuracy(np.full(len(y), cl[np.argmax(cnt)]), y, yt))
                rec["labels per class"].append(cnt.tolist())
                for v1 in V1:
                    lam, V = spectra[v1]
                    for solver in ("scipy", "CLARABEL"):
                        with warnings.catch_warnings():
                            # cvxpy's notes on Clarabel's accuracy are not failures;
                            # the LP's own status is checked
                            warnings.simplefilter("ignore", UserWarning)
                            rec[f"TSK draws, v1 {v1}, {solver}"].append(tsk_draw(lam, V, y, yt, solver))
            out[f"{scaling}/{name}"] = rec
            log(f"table 3 {scaling} {name}: {time.time() - t0:.0f} s")
    return out


def tsk_fixed(lam, V, y, draws, beta_scale=1.0, eta=ETA):
    acc = []
    for s in range(draws):
        yt = datasets.ssl_split(y, N_LABELED, random_state=s)
        mu = spk.solve_tsk(lam, V, yt, eta=eta, beta=beta_scale * len(y) / N_LABELED)
        classes, F = spk.tsk_scores(V, mu, yt)
        acc.append(accuracy(classes[argmax_rows(F)], y, yt))
    return float(np.mean(acc))


SENS_GRIDS = {
    "beta / (n/l)": [0.01, 0.1, 1, 10, 100],
    "m": [3, 5, 10, 20, 30, 50],
    "eta": [1.0, 1.25, 1.5, 2.0, 3.0],
    "k": [4, 6, 10, 15, 25],
}


def sensitivity(log, draws=10):
    out = {}
    for scaling in SCALINGS:
        res = {knob: {} for knob in SENS_GRIDS}
        for name, m0 in UCI_M.items():
            X, y = datasets.load_uci(name)[:2]
            X = scale(X, scaling)
            lam50, V50 = spk.laplacian_eigenpairs(graphs.knn_graph(X, K_NN), 50)
            lam, V = lam50[:m0], V50[:, :m0]
            res["beta / (n/l)"][name] = [
                tsk_fixed(lam, V, y, draws, beta_scale=b) for b in SENS_GRIDS["beta / (n/l)"]
            ]
            res["m"][name] = [tsk_fixed(lam50[:m], V50[:, :m], y, draws) for m in SENS_GRIDS["m"]]
            res["eta"][name] = [tsk_fixed(lam, V, y, draws, eta=e) for e in SENS_GRIDS["eta"]]
            res["k"][name] = [
                tsk_fixed(*spk.laplacian_eigenpairs(graphs.knn_graph(X, k), m0), y, draws)
                for k in SENS_GRIDS["k"]
            ]
        out[scaling] = res
        log(f"sensitivity {scaling}: done")
    return out


L_GRID, WEB_DRAWS, M_WEB = [4, 8, 16, 32, 64], 10, 800
N_WEB_TRAIN, N_WEB_TEST = 841, 210  # transductive set (841 - l unlabelled) and held-out pages


def webkb_tests(err):
    """Other method minus TSK error at each l, on misclassified pages: transductive on the
    841 - l unlabelled pages, inductive on the 210 held-out ones."""
    n_points = {
        "transductive": [N_WEB_TRAIN - l for l in L_GRID],
        "inductive": [N_WEB_TEST] * len(L_GRID),
    }
    return {
        st: {
            other: [paired(e[other][a], e["TSK"][a], n_points[st][a]) for a in range(len(L_GRID))]
            for other in e
            if other != "TSK"
        }
        for st, e in err.items()
    }


def rsk_tests(rsk_err, tsk_err):
    """RSK (|1 - lambda| >= RSK_GAP) minus TSK inductive error at each l, on the 210 held-out pages."""
    return [paired(rsk_err[a], tsk_err[a], N_WEB_TEST) for a in range(len(L_GRID))]


def webkb(log):
    out = {}
    for view in ("page", "link"):
        t0 = time.time()
        X, y = datasets.load_webkb(view)
        perm = np.random.default_rng(0).permutation(len(y))
        tr, te = perm[:841], perm[841:]
        Xt, yt_true, Xi, yi = X[tr], y[tr], X[te], y[te]
        # the model is fitted once for its graph, eigenpairs and Nystrom extension (labels not used by these)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = spk.TransductiveSpectralKernel(n_neighbors=100, n_components=M_WEB, beta=841 / 4).fit(
                Xt, datasets.ssl_split(yt_true, 4, random_state=0)
            )
        lam, V, W = model.eigvals_, model.eigvecs_, model.W_
        V_in = model.extend(model.induced_weights(Xi))
        theta = (1 - ALPHA) / (1 - ALPHA + ALPHA * lam)
        meths = {
            "transductive": ["1NN", "SVM", "harmonic", "consistency", "TSK"],
            "inductive": ["1NN", "SVM", "RSK", "TSK"],
        }
        err = {st: {m: [[None] * WEB_DRAWS for _ in L_GRID] for m in ms} for st, ms in meths.items()}
        mu0 = [[None] * WEB_DRAWS for _ in L_GRID]

        def pct(pred, truth, where=slice(None)):
            return 100.0 * float(np.mean(pred[where] != truth[where]))

        for a, l in enumerate(L_GRID):
            for s in range(WEB_DRAWS):
                yt = datasets.ssl_split(yt_true, l, random_state=s)
                L, U = yt != -1, yt == -1
                nn1 = KNeighborsClassifier(1, metric="cosine").fit(Xt[L], yt[L])
                svm = SVC(kernel="precomputed", C=1.0).fit(Xt[L] @ Xt[L].T, yt[L])
                mu = spk.solve_tsk(lam, V, yt, eta=ETA, beta=841 / l)
                mu0[a][s] = bool(not np.any(mu > 0))
                classes, F = spk.tsk_scores(V, mu, yt)
                Y_L = np.eye(len(classes))[np.searchsorted(classes, yt[L])]
                e = err["transductive"]
                e["1NN"][a][s] = pct(nn1.predict(Xt), yt_true, U)
                e["SVM"][a][s] = pct(svm.predict(Xt @ Xt[L].T), yt_true, U)
                e["harmonic"][a][s] = pct(spk.harmonic_function(W, yt)[0], yt_true, U)
                e["consistency"][a][s] = pct(spk.consistency_method(W, yt, ALPHA)[0], yt_true, U)
                e["TSK"][a][s] = pct(classes[argmax_rows(F)], yt_true, U)
                e = err["inductive"]
                e["1NN"][a][s] = pct(nn1.predict(Xi), yi)
                e["SVM"][a][s] = pct(svm.predict(Xi @ Xt[L].T), yi)
                e["RSK"][a][s] = pct(classes[argmax_rows(V_in @ ((V[L].T @ Y_L) * theta[:, None]))], yi)
                e["TSK"][a][s] = pct(classes[argmax_rows(V_in @ ((V[L].T @ Y_L) * mu[:, None]))], yi)
        assert len(yt_true) == N_WEB_TRAIN and len(yi) == N_WEB_TEST, (len(yt_true), len(yi))
        tests = webkb_tests(err)
        out[view] = {
            "errors": err,
            "mu = 0": mu0,
            "course share (transductive set)": 100.0 * float(np.mean(yt_true == 1)),
            "course share (inductive set)": 100.0 * float(np.mean(yi == 1)),
            "paired tests (other minus TSK error)": tests,
            "fit warnings": sorted({str(w.message)[:80] for w in caught}),
        }
        log(f"webkb {view}: {time.time() - t0:.0f} s")
    return out


def summarise(t3):
    """Means, sds, paired tests and the solver comparison, per (scaling, v1, data set)."""
    summary, solvers = {}, {}
    for key, rec in t3.items():
        scaling, name = key.split("/")
        row = {}
        for meth in ("harmonic", "consistency", "majority of labels"):
            a = np.array(rec[meth])
            row[meth] = [float(a.mean()), float(a.std())]
        for v1 in V1:
            draws = rec[f"TSK draws, v1 {v1}, scipy"]
            clar = rec[f"TSK draws, v1 {v1}, CLARABEL"]
            for meth in ("TSK", "TSK+SVM", "TSK, majority fallback"):
                a = np.array([d[meth] for d in draws])
                row[f"{meth}, v1 {v1}"] = [float(a.mean()), float(a.std())]
            row[f"draws with mu = 0, v1 {v1}"] = int(sum(d["mu = 0"] for d in draws))
            same = [
                all(d[k] == c[k] for k in ("beta / (n/l)", "support", "TSK", "TSK+SVM", "C"))
                for d, c in zip(draws, clar)
            ]
            solvers[f"{key}, v1 {v1}"] = {
                "draws": len(same),
                "identical draws (beta, mu support, C, accuracies)": int(sum(same)),
            }
        summary[key] = row
    return summary, table3_tests(t3), solvers


def table3_tests(t3):
    """Table 3's paired tests from the per-draw accuracies, on correct points of the n - 20 unlabelled."""
    tests = {}
    for key, rec in t3.items():
        u = UCI_N[key.split("/")[1]] - N_LABELED
        for v1 in V1:
            draws = rec[f"TSK draws, v1 {v1}, scipy"]
            tsk = [d["TSK"] for d in draws]
            svm = [d["TSK+SVM"] for d in draws]
            tests[f"{key}, v1 {v1}"] = {
                "TSK - harmonic": paired(tsk, rec["harmonic"], u),
                "TSK - consistency": paired(tsk, rec["consistency"], u),
                "TSK - majority of labels": paired(tsk, rec["majority of labels"], u),
                "TSK+SVM - TSK": paired(svm, tsk, u),
            }
        kept = [d["TSK"] for d in rec["TSK draws, v1 kept, scipy"]]
        dropped = [d["TSK"] for d in rec["TSK draws, v1 dropped, scipy"]]
        tests[f"{key}, v1 dropped - kept"] = {"TSK": paired(dropped, kept, u)}
        tests[f"{key}, baselines"] = {
            "harmonic - consistency": paired(rec["harmonic"], rec["consistency"], u)
        }
    return tests


def paper_numbers(summary):
    entries = []
    for meth, cols in PAPER_T3.items():
        if meth == "LapSVM":  # its entries come from lapsvm_entries
            continue
        for name, (paper, sd) in cols.items():
            col = name.capitalize()
            if meth in NOT_ATTEMPTED:
                entries.append(
                    dict(
                        source="Table 3",
                        row=meth,
                        column=col,
                        paper=paper,
                        paper_sd=sd,
                        book=None,
                        book_sd=None,
                        unit="percent",
                        reading=NOT_ATTEMPTED[meth],
                    )
                )
                continue
            for scaling in SCALINGS:
                row = summary[f"{scaling}/{name}"]
                v1s = V1 if meth.startswith("TSK") else ("kept",)
                for v1 in v1s:
                    key = meth if not meth.startswith("TSK") else f"{meth}, v1 {v1}"
                    mean, std = row[key]
                    reading = reading_name(scaling, v1 if meth.startswith("TSK") else None)
                    entries.append(
                        dict(
                            source="Table 3",
                            row=meth,
                            column=col,
                            paper=paper,
                            paper_sd=sd,
                            book=round(mean, 2),
                            book_sd=round(std, 2),
                            unit="percent",
                            reading=reading,
                        )
                    )
    for e in entries:
        e["verdict"] = verdict(e["paper"], e["book"], paper_sd=e["paper_sd"], unit=e["unit"])
    return entries


def lapsvm_reading(scaling):
    s = "per-feature [0, 1] scaling" if scaling == "per-feature" else "global [0, 1] scaling (= raw features)"
    return (
        f"{s}; sslteach.ksc.LapSVM (Chapter 4) at its defaults (gamma_A = 1e-2, gamma_I = 1, 6-NN "
        "graph), sigma^2 = the median squared distance, one-vs-rest on Wine; the paper's "
        "cross-validation is undescribed"
    )


def lapsvm_table3(log):
    """Table 3's LapSVM row at fixed settings: accuracy (%) on the unlabelled points, the same 20 draws."""
    from sslteach import kernels, ksc

    out = {}
    for scaling in SCALINGS:
        for name in UCI_M:
            t0 = time.time()
            X, y = datasets.load_uci(name)[:2]
            X = scale(X, scaling)
            s2 = float(np.median(kernels.squared_distances(X)))
            acc = []
            for s in range(N_DRAWS):
                yt = datasets.ssl_split(y, N_LABELED, random_state=s)
                classes = np.unique(yt[yt != -1])
                if classes.size == 2:
                    pred = ksc.LapSVM(sigma2=s2).fit(X, yt).transduction_
                else:  # one-vs-rest: the class with the largest decision value
                    F = np.column_stack(
                        [
                            ksc.LapSVM(sigma2=s2)
                            .fit(X, np.where(yt == -1, -1, (yt == c).astype(int)))
                            .decision_train_
                            for c in classes
                        ]
                    )
                    pred = classes[argmax_rows(F)]
                acc.append(accuracy(pred, y, yt))
            out[f"{scaling}/{name}"] = {"acc": acc, "sigma2": s2}
            log(f"lapsvm {scaling} {name}: {time.time() - t0:.0f} s")
    return out


def lapsvm_entries(lap):
    entries = []
    for name, (paper, sd) in PAPER_T3["LapSVM"].items():
        for scaling in SCALINGS:
            a = lap[f"{scaling}/{name}"]["acc"]
            mean, std = round(float(np.mean(a)), 2), round(float(np.std(a)), 2)
            entries.append(
                dict(
                    source="Table 3",
                    row="LapSVM",
                    column=name.capitalize(),
                    paper=paper,
                    paper_sd=sd,
                    book=mean,
                    book_sd=std,
                    unit="percent",
                    reading=lapsvm_reading(scaling),
                    verdict=verdict(paper, mean, paper_sd=sd, unit="percent"),
                )
            )
    return entries


RSK_GAP = 0.1  # keep the eigenpairs with |1 - lambda| >= RSK_GAP: the extension amplifies by <= 10


def webkb_rsk(log):
    """The RSK's extension to new pages on WebKB: its conditioning, and the RSK on well-conditioned pairs."""
    out = {}
    for view in ("page", "link"):
        t0 = time.time()
        X, y = datasets.load_webkb(view)
        perm = np.random.default_rng(0).permutation(len(y))
        tr, te = perm[:841], perm[841:]
        Xt, yt_true, Xi, yi = X[tr], y[tr], X[te], y[te]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the LP's mu = 0 warning at l = 4; labels unused below
            model = spk.TransductiveSpectralKernel(n_neighbors=100, n_components=M_WEB, beta=841 / 4).fit(
                Xt, datasets.ssl_split(yt_true, 4, random_state=0)
            )
        lam, V = model.eigvals_, model.eigvecs_
        V_in = model.extend(model.induced_weights(Xi))
        theta = (1 - ALPHA) / (1 - ALPHA + ALPHA * lam)
        keep = np.abs(1 - lam) >= RSK_GAP
        err = [[None] * WEB_DRAWS for _ in L_GRID]
        for a, l in enumerate(L_GRID):
            for s in range(WEB_DRAWS):
                yt = datasets.ssl_split(yt_true, l, random_state=s)
                L = yt != -1
                classes = np.unique(yt[L])
                Y_L = np.eye(len(classes))[np.searchsorted(classes, yt[L])]
                F = V_in[:, keep] @ ((V[L][:, keep].T @ Y_L) * theta[keep, None])
                err[a][s] = 100.0 * float(np.mean(classes[argmax_rows(F)] != yi))
        tsk = RESULTS_WEBKB[view]["errors"]["inductive"]["TSK"] if RESULTS_WEBKB else None
        out[view] = {
            "eigenpairs": int(lam.size),
            "eigenvalues with |1 - lambda| < 0.1": int(np.sum(~keep)),
            "largest 1/|1 - lambda|": float(np.max(1 / np.abs(1 - lam))),
            "largest |entry|, training eigenvectors": float(np.abs(V).max()),
            "largest |entry|, extended eigenvectors (inductive set)": float(np.abs(V_in).max()),
            "RSK on |1 - lambda| >= 0.1, inductive error": err,
            "paired tests (RSK on |1 - lambda| >= 0.1 minus TSK error)": None
            if tsk is None
            else rsk_tests(err, tsk),
        }
        log(f"webkb rsk {view}: {time.time() - t0:.0f} s")
    return out


RESULTS_WEBKB = None  # the committed WebKB errors, for the paired tests of --only webkb-rsk


def main():
    global RESULTS_WEBKB
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="scripts/results/ch3.json")
    parser.add_argument("--log", default=None)
    parser.add_argument(
        "--only", choices=["webkb-rsk", "lapsvm"], help="rerun one part and update --out in place"
    )
    parser.add_argument(
        "--recompute-tests",
        action="store_true",
        help="recompute every paired test from the stored per-draw results and update --out in place",
    )
    args = parser.parse_args()
    t_start = time.time()

    def log(msg):
        line = f"[{time.time() - t_start:7.0f} s] {msg}"
        print(line, flush=True)

    if args.recompute_tests:
        out = json.loads(Path(args.out).read_text())
        out["paired tests"] = table3_tests(out["table3 draws"])
        for view in ("page", "link"):
            web = out["webkb"][view]
            web["paired tests (other minus TSK error)"] = webkb_tests(web["errors"])
            out["webkb rsk"][view]["paired tests (RSK on |1 - lambda| >= 0.1 minus TSK error)"] = rsk_tests(
                out["webkb rsk"][view]["RSK on |1 - lambda| >= 0.1, inductive error"],
                web["errors"]["inductive"]["TSK"],
            )
        Path(args.out).write_text(json.dumps(out, indent=1))
        log(f"updated {args.out} (paired tests)")
        return
    if args.only == "lapsvm":
        out = json.loads(Path(args.out).read_text())
        out["lapsvm table3"] = lapsvm_table3(log)
        out["paper_numbers"] = [e for e in out["paper_numbers"] if e["row"] != "LapSVM"] + lapsvm_entries(
            out["lapsvm table3"]
        )
        Path(args.out).write_text(json.dumps(out, indent=1))
        log(f"updated {args.out} (lapsvm table3)")
        return
    if args.only == "webkb-rsk":
        out = json.loads(Path(args.out).read_text())
        RESULTS_WEBKB = out["webkb"]
        out["webkb rsk"] = webkb_rsk(log)
        Path(args.out).write_text(json.dumps(out, indent=1))
        log(f"updated {args.out} (webkb rsk)")
        return

    t3 = table3(log)
    summary, tests, solvers = summarise(t3)
    out = {
        "protocol": {
            "draws": N_DRAWS,
            "labels": N_LABELED,
            "k": K_NN,
            "m": UCI_M,
            "eta": ETA,
            "alpha": ALPHA,
            "beta grid / (n/l)": BETA_GRID.tolist(),
            "C grid": list(C_GRID),
            "SVM tol": SVM_TOL,
            "MU_TOL": spk.MU_TOL,
            "mu = 0 rule": (
                "clean_weights: mu = 0 when no labelled margin (T mu)_i reaches 1e-3; else weights "
                "below MU_TOL times the largest are zeroed"
            ),
            "mu = 0 fallback": "every score 0; argmax ties go to the first class",
        },
        "table3 summary": summary,
        "paired tests": tests,
        "solver agreement (scipy HiGHS vs cvxpy Clarabel)": solvers,
        "table3 draws": t3,
    }
    out["sensitivity"] = {"grids": SENS_GRIDS, "draws": 10, **sensitivity(log)}
    out["webkb"] = {"l": L_GRID, "draws": WEB_DRAWS, "m": M_WEB, **webkb(log)}
    RESULTS_WEBKB = out["webkb"]
    out["webkb rsk"] = webkb_rsk(log)
    out["paper_numbers"] = paper_numbers(summary)
    out["lapsvm table3"] = lapsvm_table3(log)
    out["paper_numbers"] += lapsvm_entries(out["lapsvm table3"])
    out["seconds"] = round(time.time() - t_start)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
