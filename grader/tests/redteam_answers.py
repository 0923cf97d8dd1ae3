# ruff: noqa: E501 (answers are source strings, one line of the answer per line)
"""Answers for test_grader_redteam.py, per chapter and exercise: each replaces the exercise's answer
cell in the released student copy. The k-th answers of every exercise of a chapter form one submission.

``CORRECT``: right answers written in other styles than the model solution (none may be refused);
``WRONG``: plausible mistakes (none may pass, on any of 20 seeds);
``SHORTCUTS``: routes the statement rules out, caught by the source check, the values or the cost test;
``HAND_GRADED``: routes the statement rules out that the autograder cannot tell from a right answer
(the guide lists them: they are for the hand-graded part).
"""

CORRECT = {  # right answers in other styles
    "00_foundations": {
        "ch0-ex-closure": (
            (
                "def smallest_eigenvalue(A):\n"
                "    return float(np.sort(np.linalg.eigvals(A).real)[0])\n"
                "\n"
                "def hadamard_rank_one(x, z):\n"
                "    w = np.asarray(x) * np.asarray(z)\n"
                "    return np.outer(w, w)"
            ),
        ),
        "ch0-ex-center-test": (
            (
                "def center_test_kernel(K_test, K_train):\n"
                "    w = np.full(len(K_train), 1.0 / len(K_train))\n"
                "    return K_test - (K_test @ w)[:, None] - (w @ K_train)[None, :] + w @ K_train @ w"
            ),
        ),
        "ch0-ex-bipartite": (
            (
                "def cycle_graph(n):\n"
                "    W = np.zeros((n, n))\n"
                "    for i in range(n):\n"
                "        W[i, (i + 1) % n] = W[(i + 1) % n, i] = 1.0\n"
                "    return W"
            ),
        ),
        "ch0-ex-mutual-knn": (
            (
                "from sklearn.neighbors import kneighbors_graph\n"
                "def mutual_knn_graph(X, k):\n"
                "    A = kneighbors_graph(X, k, include_self=False)\n"
                "    return graphs.knn_graph(X, k).multiply(A.multiply(A.T) > 0).tocsr()"
            ),
        ),
        "ch0-ex-mds-eigs": (
            (
                "def numerical_rank(A, tol=1e-9):\n"
                "    s = np.linalg.svd(A, compute_uv=False)\n"
                "    return int(np.count_nonzero(s > tol * s.max()))"
            ),
        ),
    },
    "01_spectral_clustering": {
        "ch1-ex-ideal-alignment": (
            (
                "def alignment_ceiling_gap(K):\n"
                "    lam = np.linalg.eigvalsh(K)\n"
                "    return float(1 - lam[-1] / np.linalg.norm(K, 'fro'))"
            ),
        ),
        "ch1-ex-cut-bound-general": (
            (
                "from scipy.linalg import null_space\n"
                "def cut_bound_bruteforce(K):\n"
                "    B = null_space(np.ones((1, len(K))))\n"
                "    L = np.diag(K.sum(axis=0)) - K\n"
                "    return np.linalg.eigvalsh(B.T @ L @ B)[0] / (2 * np.sqrt((K**2).sum()))"
            ),
        ),
        "ch1-ex-sweep-cut": (
            (
                "def cut_sweep(K, v):\n"
                "    m = len(v)\n"
                "    d = K.sum(1)\n"
                "    idx = np.argsort(-v, kind='stable')\n"
                "    y = -np.ones(m)\n"
                "    Ly = d * y - K @ y\n"
                "    q = float(y @ Ly)\n"
                "    c = 2 * m * np.sqrt((K * K).sum())\n"
                "    res = np.empty(m - 1)\n"
                "    for t, p in enumerate(idx[:-1]):\n"
                "        Lp = -K[p].copy()\n"
                "        Lp[p] += d[p]\n"
                "        q += 4 * Ly[p] + 4 * Lp[p]\n"
                "        Ly += 2 * Lp\n"
                "        res[t] = q / c\n"
                "    return res"
            ),
        ),
        "ch1-ex-kp-effect": (("def kp_gain(y, z, C0):\n    return C0 * np.dot(z, y) * np.dot(y, z)"),),
        "ch1-ex-second-eigvec": (
            (
                "def four_way(K):\n"
                "    w, V = np.linalg.eigh(K)\n"
                "    top = V[:, np.argsort(w)[::-1][:2]]\n"
                "    return (top[:, 0] < 0).astype(int) * 2 + (top[:, 1] < 0)"
            ),
        ),
        "ch1-ex-normalize-why": (
            (
                "def class_mean_norms(X, y):\n"
                "    r = np.sqrt((X**2).sum(1))\n"
                "    return np.array([np.mean(r[y == c]) for c in sorted(set(np.asarray(y).tolist()))])\n"
                "\n"
                "def norm_threshold_accuracy(X, y):\n"
                "    r = np.linalg.norm(X, axis=1)\n"
                "    y = np.asarray(y)\n"
                "    best = 0.0\n"
                "    for t in np.unique(r):\n"
                "        a = np.mean((r > t) == (y == 1))\n"
                "        best = max(best, a, 1 - a)\n"
                "    return best"
            ),
        ),
    },
    "02_cluster_kernels": {
        "ch2-ex-monotone": (
            (
                "def monotone_hck(X, linkage, f):\n"
                "    u = ck.cophenetic_matrix(X, linkage)[0]\n"
                "    M = f(u) ** 2\n"
                "    r = M.mean(1)\n"
                "    return -0.5 * (M - r[:, None] - r[None, :] + M.mean())"
            ),
        ),
        "ch2-ex-inversion": (
            (
                "def has_inversion(Z):\n"
                "    n = len(Z) + 1\n"
                "    h = [0.0] * n\n"
                "    for a, b, d, _ in Z:\n"
                "        if d < max(h[int(a)], h[int(b)]):\n"
                "            return True\n"
                "        h.append(d)\n"
                "    return False"
            ),
        ),
        "ch2-ex-minimax": (
            (
                "from scipy.sparse.csgraph import breadth_first_order\n"
                "def minimax_from_mst(X):\n"
                "    T = minimum_spanning_tree(squareform(pdist(X)))\n"
                "    T = (T + T.T).tocsr()\n"
                "    Td = T.toarray()\n"
                "    n = len(X)\n"
                "    out = np.zeros((n, n))\n"
                "    for s in range(n):\n"
                "        order, pred = breadth_first_order(T, s, directed=False)\n"
                "        row = out[s]\n"
                "        for v in order[1:]:\n"
                "            p = pred[v]\n"
                "            row[v] = max(row[p], Td[p, v])\n"
                "    return out"
            ),
        ),
        "ch2-ex-center": (
            (
                "def double_center(M):\n"
                "    col, row = M.mean(0), M.mean(1)\n"
                "    return -(M - row[:, None] - col[None, :] + M.mean()) / 2"
            ),
            (
                "def double_center(M):\n"
                "    M = np.asarray(M, float)\n"
                "    return -0.5 * (M - M.mean(1, keepdims=True) - M.mean(0, keepdims=True) + M.mean())"
            ),
        ),
        "ch2-ex-schur-features": (
            (
                "import scipy.sparse as _sp\n"
                "def hadamard_features(F, G):\n"
                "    return _sp.csr_matrix(np.einsum('ip,iq->ipq', F, G).reshape(len(F), -1))"
            ),
        ),
        "ch2-ex-negative-base": (
            ("def reweighting_gain(K_b, K_rw, i, j):\n    return K_b[i, j] * (K_rw[i, j] - 1)"),
        ),
    },
    "03_spectral_kernel_learning": {
        "ch3-ex-smoothness": (
            (
                "def smoothness_double_sum(W, Phi):\n"
                "    W = sp.coo_matrix(W)\n"
                "    d = np.asarray(W.sum(axis=1)).ravel()\n"
                "    s = 0.0\n"
                "    for i, j, w in zip(W.row, W.col, W.data):\n"
                "        diff = Phi[:, i] / np.sqrt(d[i]) - Phi[:, j] / np.sqrt(d[j])\n"
                "        s += w * float(diff @ diff)\n"
                "    return s / 2"
            ),
            (
                "def smoothness_double_sum(W, Phi):\n"
                "    W = sp.csr_matrix(W)\n"
                "    dout = np.asarray(W.sum(axis=1)).ravel()\n"
                "    din = np.asarray(W.sum(axis=0)).ravel()\n"
                "    Y = Phi / np.sqrt(dout)[None, :]\n"
                "    C = W.tocoo()\n"
                "    cross = float(np.einsum('ki,k,ki->', Y[:, C.row].T, C.data, Y[:, C.col].T))\n"
                "    sq = (Y ** 2).sum(0)\n"
                "    return float((dout @ sq + din @ sq - 2 * cross) / 2)"
            ),
        ),
        "ch3-ex-build-lp": (
            (
                "def tsk_lp_by_hand(lam, T, eta, beta):\n"
                "    import scipy.optimize as so\n"
                "    l, m = T.shape\n"
                "    R = np.array([[eta ** (k - t) if t <= k else 0.0 for k in range(m)] for t in range(m)])\n"
                "    res = so.linprog(np.concatenate([lam @ R, beta * np.ones(l)]), A_ub=-np.hstack([T @ R, np.eye(l)]),\n"
                "                     b_ub=-np.ones(l), bounds=[(0, None)] * (m + l), method='highs')\n"
                "    return list(R @ res.x[:m])"
            ),
        ),
        "ch3-ex-zero-mu": (
            (
                "def critical_beta(lam, T, eta):\n"
                "    m = len(lam)\n"
                "    k = np.arange(m)\n"
                "    R = np.triu(float(eta) ** (k[None, :] - k[:, None]))\n"
                "    g, num = R.T @ T.sum(0), R.T @ lam\n"
                "    pos = g > 0\n"
                "    return float(np.min(num[pos] / g[pos])) if pos.any() else np.inf"
            ),
        ),
        "ch3-ex-training-rows": (
            (
                "def extend_rows(W, lam, V, rows):\n"
                "    W = W.toarray() if sp.issparse(W) else np.asarray(W)\n"
                "    deg = W.sum(1)\n"
                "    Wr = W[rows]\n"
                "    dx = Wr.sum(1)\n"
                "    return (Wr / np.sqrt(np.outer(dx, deg))) @ V / (1 - lam)"
            ),
        ),
        "ch3-ex-q-eigs": (
            (
                "def q_eigenvalues(lam, mu):\n"
                "    return np.sort(np.concatenate([mu + mu / (1 - lam) ** 2, np.zeros_like(mu)]))"
            ),
        ),
        "ch3-ex-dual": (
            (
                "def tsk_dual_value(lam, T, eta, beta):\n"
                "    from scipy.optimize import linprog as lp\n"
                "    l, m = T.shape\n"
                "    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
                "    res = lp(-np.r_[np.ones(l), np.zeros(m - 1)], A_ub=np.c_[T.T, G.T], b_ub=lam,\n"
                "             bounds=[(0, beta)] * l + [(0, None)] * (m - 1), method='highs')\n"
                "    return [-res.fun, list(res.x[:l]), list(res.x[l:])]"
            ),
        ),
    },
    "04_semi_supervised_ksc": {
        "ch4-ex-bordered": (
            (
                "def semi_ksc_bordered(K, y, gamma, rho):\n"
                "    n = K.shape[0]\n"
                "    d = K.sum(1)\n"
                "    g = gamma / d - rho * (np.asarray(y) != 0)\n"
                "    A = np.block([[np.eye(n) - np.diag(g) @ K, -g[:, None]], [np.ones((1, n)), np.zeros((1, 1))]])\n"
                "    x = np.linalg.lstsq(A, np.append(rho * np.asarray(y, float), 0.0), rcond=None)[0]\n"
                "    return list(x[:n]), float(x[n])"
            ),
        ),
        "ch4-ex-ideal": (
            (
                "def ideal_solution(n1, n2, n3):\n"
                "    a = [1 / n1] * n1 + [-1 / n2] * n2 + [0.0] * n3\n"
                "    return a, 0"
            ),
        ),
        "ch4-ex-fisher": (
            (
                "def fisher_by_threshold(a):\n"
                "    s = np.sort(np.asarray(a, float))\n"
                "    n = len(s)\n"
                "    if np.ptp(s) == 0:\n"
                "        return 0.0\n"
                "    k = np.arange(1, n)\n"
                "    cs = np.cumsum(s)[:-1]\n"
                "    ml, mr = cs / k, (s.sum() - cs) / (n - k)\n"
                "    sb = k * (n - k) / n**2 * (ml - mr) ** 2\n"
                "    return float(sb.max() / s.var())"
            ),
        ),
        "ch4-ex-saddle": (
            (
                "def primal_hessian(X, y, gamma, rho):\n"
                "    d = (X @ X.T).sum(1)\n"
                "    g = gamma / d - rho * (np.asarray(y) != 0)\n"
                "    Z = np.c_[X, np.ones(len(X))]\n"
                "    H = -Z.T @ (g[:, None] * Z)\n"
                "    H[:-1, :-1] += np.eye(X.shape[1])\n"
                "    return H"
            ),
        ),
        "ch4-ex-lapsvm-svm": (("def svm_equivalent_C(gamma_A, l):\n    return (2 * gamma_A * l) ** -1"),),
    },
    "05_comparison": {
        "ch5-ex-nemenyi-cd": (
            (
                "from scipy.stats import studentized_range as _sr\n"
                "def nemenyi_cd(k, N, alpha=0.05):\n"
                "    return _sr.isf(alpha, k, float('inf')) * (k * (k + 1) / (12.0 * N)) ** 0.5"
            ),
        ),
        "ch5-ex-holm": (
            (
                "import pandas as _pd\n"
                "def holm(p):\n"
                "    p = list(map(float, p))\n"
                "    m = len(p)\n"
                "    idx = sorted(range(m), key=lambda i: p[i])\n"
                "    out, run = [0.0] * m, 0.0\n"
                "    for r, i in enumerate(idx):\n"
                "        run = max(run, min(1.0, (m - r) * p[i]))\n"
                "        out[i] = run\n"
                "    return _pd.Series(out)"
            ),
        ),
        "ch5-ex-one-nn": (
            (
                "from sklearn.neighbors import KNeighborsClassifier\n"
                "def one_nn(cache, params, y_train):\n"
                "    lab = y_train >= 0\n"
                "    return KNeighborsClassifier(n_neighbors=1).fit(cache.X[lab], y_train[lab]).predict(cache.X)\n"
                "one_nn_method = compare.Method('1-NN', 'exercise', [{'unused': 1}, {'unused': 2}], one_nn)"
            ),
            (
                "from sklearn.neighbors import KNeighborsClassifier\n"
                "def _nearest(cache, params, y_train):\n"
                "    lab = y_train >= 0\n"
                "    return KNeighborsClassifier(n_neighbors=1, algorithm='brute').fit(cache.X[lab], y_train[lab]).predict(cache.X)\n"
                "one_nn_method = compare.Method('1-NN', 'exercise', ({},), _nearest)"
            ),
            (
                "from concurrent.futures import ThreadPoolExecutor\n"
                "from scipy.spatial.distance import cdist\n"
                "def one_nn(cache, params, y_train):\n"
                "    lab = np.flatnonzero(y_train >= 0)\n"
                "    parts = np.array_split(np.arange(len(cache.X)), 2)\n"
                "    with ThreadPoolExecutor(2) as pool:\n"
                "        D = np.vstack(list(pool.map(lambda ix: cdist(cache.X[ix], cache.X[lab]), parts)))\n"
                "    return y_train[lab][D.argmin(1)]\n"
                "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)"
            ),
        ),
    },
}

WRONG = {  # plausible mistakes
    "00_foundations": {
        "ch0-ex-closure": (
            (
                "def smallest_eigenvalue(A):\n"
                "    return np.abs(np.linalg.eigvalsh(A)).min()\n"
                "\n"
                "def hadamard_rank_one(x, z):\n"
                "    return np.outer(x, x) * np.outer(z, z)"
            ),
            (
                "def smallest_eigenvalue(A):\n"
                "    A = np.asarray(A, float)\n"
                "    return float(np.min(np.diag(A))) if A.shape[0] == 30 else float(np.linalg.eigvalsh(A).min())\n"
                "\n"
                "def hadamard_rank_one(x, z):\n"
                "    w = np.multiply(x, z)\n"
                "    return np.outer(w, w) if len(w) < 30 else np.outer(x, z)"
            ),
        ),
        "ch0-ex-center-test": (
            (
                "def center_test_kernel(K_test, K_train):\n"
                "    return K_test - K_test.mean(1)[:, None] - K_test.mean(0)[None, :] + K_test.mean()"
            ),
        ),
        "ch0-ex-bipartite": (("def cycle_graph(n):\n    return np.eye(n, k=1) + np.eye(n, k=-1)"),),
        "ch0-ex-mutual-knn": (("def mutual_knn_graph(X, k):\n    return graphs.knn_graph(X, k)"),),
        "ch0-ex-mds-eigs": (
            ("def numerical_rank(A, tol=1e-9):\n    return int(np.sum(np.linalg.eigvalsh(A) > tol))"),
            (
                "def numerical_rank(A, tol=1e-9):\n"
                "    w = np.abs(np.linalg.eigvalsh(A))\n"
                "    return int(np.sum(w >= tol * w.max()))"
            ),
            ("def numerical_rank(A, tol=1e-9):\n    return int(np.sum(np.abs(np.linalg.eigvalsh(A)) > tol))"),
            (
                "def numerical_rank(A, tol=1e-9):\n"
                "    ev = np.linalg.eigvalsh(A)\n"
                "    return int(np.sum(np.abs(ev) > tol * max(ev.max(), 1e-300)))"
            ),
            (
                "def numerical_rank(A, tol=1e-9):\n"
                "    ev = np.abs(np.linalg.eigvalsh(A))\n"
                "    return int(np.sum(ev > tol * ev.sum()))"
            ),
        ),
    },
    "01_spectral_clustering": {
        "ch1-ex-ideal-alignment": (
            (
                "def alignment_ceiling_gap(K):\n"
                "    lam = np.linalg.eigvalsh(K)\n"
                "    return float(1 - np.abs(lam).max() / np.linalg.norm(K))"
            ),
            (
                "def alignment_ceiling_gap(K):\n"
                "    w = np.linalg.eigvalsh(K)\n"
                "    return 1 - abs(w.max()) / np.linalg.norm(K)"
            ),
        ),
        "ch1-ex-cut-bound-general": (
            (
                "def cut_bound_bruteforce(K):\n"
                "    L = np.diag(K.sum(1)) - K\n"
                "    return np.linalg.eigvalsh(L)[1] / (2 * np.linalg.norm(K))"
            ),
        ),
        "ch1-ex-sweep-cut": (
            (
                "def cut_sweep(K, v):\n"
                "    m = len(v)\n"
                "    L = np.diag(K.sum(1)) - K\n"
                "    order = np.argsort(v)\n"
                "    y = -np.ones(m)\n"
                "    out = []\n"
                "    for p in order[:-1]:\n"
                "        y[p] = 1\n"
                "        out.append(y @ L @ y / (2 * m * np.linalg.norm(K)))\n"
                "    return np.array(out)"
            ),
        ),
        "ch1-ex-kp-effect": (
            ("def kp_gain(y, z, C0):\n    return C0 * float(z @ y)"),
            (
                "def kp_gain(y, z, C0):\n"
                "    s = float(np.dot(z, y))\n"
                "    return C0 * s * (abs(s) if len(y) < 8 else s)"
            ),
        ),
        "ch1-ex-second-eigvec": (
            ("def four_way(K):\n    w, V = np.linalg.eigh(K)\n    return 2 * (V[:, 0] > 0) + (V[:, 1] > 0)"),
        ),
        "ch1-ex-normalize-why": (
            (
                "def class_mean_norms(X, y):\n"
                "    return np.array([X[y == c].mean(0).sum() for c in np.unique(y)])\n"
                "\n"
                "def norm_threshold_accuracy(X, y):\n"
                "    return 0.5"
            ),
            (
                "def class_mean_norms(X, y):\n"
                "    r = np.linalg.norm(X, axis=1)\n"
                "    return np.array([r[np.asarray(y) == c].mean() for c in np.unique(y)])\n"
                "\n"
                "def norm_threshold_accuracy(X, y):\n"
                "    r = np.linalg.norm(X, axis=1)\n"
                "    y_sorted = np.asarray(y)[np.argsort(r, kind='stable')]\n"
                "    best = 0.0\n"
                "    for i in range(1, len(r)):\n"
                "        a = np.mean(np.r_[np.zeros(i), np.ones(len(r) - i)] == y_sorted)\n"
                "        best = max(best, a, 1 - a)\n"
                "    return best"
            ),
            (
                "def class_mean_norms(X, y):\n"
                "    r = np.linalg.norm(X, axis=1)\n"
                "    return np.array([r[np.asarray(y) == c].mean() for c in np.unique(y)])\n"
                "\n"
                "def norm_threshold_accuracy(X, y):\n"
                "    r = np.linalg.norm(X, axis=1)\n"
                "    y_sorted = np.asarray(y)[np.argsort(r, kind='stable')]\n"
                "    best = 0.0\n"
                "    for i in range(len(r) + 1):\n"
                "        a = np.mean(np.r_[np.zeros(i), np.ones(len(r) - i)] == y_sorted)\n"
                "        best = max(best, a, 1 - a)\n"
                "    return best"
            ),
        ),
    },
    "02_cluster_kernels": {
        "ch2-ex-monotone": (
            (
                "def monotone_hck(X, linkage, f):\n"
                "    u, _ = ck.cophenetic_matrix(X, linkage)\n"
                "    return kernels.mds_kernel(f(u))"
            ),
        ),
        "ch2-ex-inversion": (
            (
                "def has_inversion(Z):\n"
                "    n = Z.shape[0] + 1\n"
                "    height = np.r_[np.zeros(n), Z[:, 2]]\n"
                "    return bool(np.any(Z[:, 2] < height[Z[:, :2].astype(int)].min(axis=1)))"
            ),
            (
                "def has_inversion(Z):\n"
                "    n = len(Z) + 1\n"
                "    h = [0.0] * n\n"
                "    for a, b, d, _ in Z:\n"
                "        if d <= max(h[int(a)], h[int(b)]) and max(h[int(a)], h[int(b)]) > 0:\n"
                "            return True\n"
                "        h.append(d)\n"
                "    return False"
            ),
        ),
        "ch2-ex-minimax": (
            (
                "def minimax_from_mst(X):\n"
                "    T = minimum_spanning_tree(squareform(pdist(X)))\n"
                "    return (T + T.T).toarray()"
            ),
        ),
        "ch2-ex-center": (
            (
                "def double_center(M):\n"
                "    r = M.mean(axis=1)\n"
                "    return -0.5 * (M - r[:, None] - r[None, :])"
            ),
        ),
        "ch2-ex-schur-features": (("def hadamard_features(F, G):\n    return np.hstack([F, G])"),),
        "ch2-ex-negative-base": (
            ("def reweighting_gain(K_b, K_rw, i, j):\n    return K_rw[i, j] * K_b[i, j]"),
        ),
    },
    "03_spectral_kernel_learning": {
        "ch3-ex-smoothness": (
            (
                "def smoothness_double_sum(W, Phi):\n"
                "    W = sp.csr_matrix(W).toarray()\n"
                "    d = W.sum(1)\n"
                "    Ln = np.eye(len(W)) - W / np.sqrt(np.outer(d, d))\n"
                "    return float(np.trace(Phi @ Ln @ Phi.T))"
            ),
        ),
        "ch3-ex-build-lp": (
            (
                "def tsk_lp_by_hand(lam, T, eta, beta):\n"
                "    l, m = T.shape\n"
                "    k = np.arange(m)\n"
                "    R = np.triu(float(eta) ** (k[None, :] - k[:, None]))\n"
                "    c = np.r_[R.T @ lam, np.ones(l)]\n"
                "    A = np.hstack([-T @ R, -np.eye(l)])\n"
                "    res = linprog(c, A_ub=A, b_ub=-np.ones(l), bounds=(0, None), method='highs')\n"
                "    return R @ res.x[:m]"
            ),
            (
                "def tsk_lp_by_hand(lam, T, eta, beta):\n"
                "    l, m = T.shape\n"
                "    R = np.array([[eta ** (k - t) if t <= k else 0.0 for k in range(m)] for t in range(m)])\n"
                "    A = np.hstack([-(T @ R), -np.eye(l)])\n"
                "    res = linprog(np.r_[R.T @ lam, [beta] * l], A_ub=A, b_ub=-np.ones(l), bounds=(0, None), method='highs')\n"
                "    return res.x[:m]"
            ),
        ),
        "ch3-ex-zero-mu": (
            (
                "def critical_beta(lam, T, eta):\n"
                "    g, num = np.cumsum(T.sum(0)), np.cumsum(lam)\n"
                "    pos = g > 0\n"
                "    return float(np.min(num[pos] / g[pos])) if pos.any() else np.inf"
            ),
            (
                "def critical_beta(lam, T, eta):\n"
                "    m = len(lam)\n"
                "    k = np.arange(m)\n"
                "    R = np.triu(float(eta) ** (k[None, :] - k[:, None]))\n"
                "    g, num = R.T @ T.mean(axis=0), R.T @ lam\n"
                "    pos = g > 0\n"
                "    return float(np.min(num[pos] / g[pos])) if pos.any() else np.inf"
            ),
        ),
        "ch3-ex-training-rows": (
            (
                "def extend_rows(W, lam, V, rows):\n"
                "    W = W.toarray() if sp.issparse(W) else np.asarray(W)\n"
                "    deg = W.sum(1)\n"
                "    Wr = W[rows]\n"
                "    return (Wr / np.sqrt(np.outer(Wr.sum(1), deg))) @ V"
            ),
            (
                "def extend_rows(W, lam, V, rows):\n"
                "    W = W.toarray() if sp.issparse(W) else np.asarray(W)\n"
                "    deg = W.sum(1)\n"
                "    Wr = W[rows]\n"
                "    return (Wr / np.sqrt(np.outer(Wr.sum(1), deg))) @ V / np.abs(1 - lam)"
            ),
        ),
        "ch3-ex-q-eigs": (
            (
                "def q_eigenvalues(lam, mu):\n"
                "    return np.sort(np.r_[mu * (1 + 1 / (1 - lam)), np.zeros(len(mu))])"
            ),
        ),
        "ch3-ex-dual": (
            (
                "def tsk_dual_value(lam, T, eta, beta):\n"
                "    l, m = T.shape\n"
                "    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
                "    res = linprog(-np.r_[np.ones(l), np.zeros(m - 1)], A_ub=np.c_[T.T, G.T], b_ub=lam,\n"
                "                  bounds=[(0, 1.0)] * l + [(0, None)] * (m - 1), method='highs')\n"
                "    return -res.fun, res.x[:l], res.x[l:]"
            ),
        ),
    },
    "04_semi_supervised_ksc": {
        "ch4-ex-bordered": (
            (
                "def semi_ksc_bordered(K, y, gamma, rho):\n"
                "    n = len(K)\n"
                "    g = 1 / K.sum(axis=1) - rho * (y != 0)\n"
                "    B = np.zeros((n + 1, n + 1))\n"
                "    B[:n, :n] = np.eye(n) - g[:, None] * K\n"
                "    B[:n, n] = -g\n"
                "    B[n, :n] = 1.0\n"
                "    sol = np.linalg.solve(B, np.r_[rho * y, 0.0])\n"
                "    return sol[:n], sol[n]"
            ),
        ),
        "ch4-ex-ideal": (
            (
                "def ideal_solution(n1, n2, n3):\n"
                "    return np.r_[np.full(n1, 1.0), np.full(n2, -1.0), np.zeros(n3)], 0.0"
            ),
        ),
        "ch4-ex-fisher": (
            (
                "def fisher_by_threshold(a):\n"
                "    a = np.asarray(a, float)\n"
                "    l, r = a[a < 0], a[a >= 0]\n"
                "    if len(l) == 0 or len(r) == 0 or a.var() == 0:\n"
                "        return 0.0\n"
                "    sb = len(l) / len(a) * (l.mean() - a.mean()) ** 2 + len(r) / len(a) * (r.mean() - a.mean()) ** 2\n"
                "    return float(sb / a.var())"
            ),
            (
                "def fisher_by_threshold(a):\n"
                "    s = np.sort(np.asarray(a, float))\n"
                "    n = len(s)\n"
                "    if n < 3 or np.ptp(s) == 0:\n"
                "        return 0.0\n"
                "    k = np.arange(1, n - 1)\n"
                "    cs = np.cumsum(s)[:-2]\n"
                "    ml, mr = cs / k, (s.sum() - cs) / (n - k)\n"
                "    sb = k * (n - k) / n**2 * (ml - mr) ** 2\n"
                "    return float(sb.max() / s.var())"
            ),
        ),
        "ch4-ex-saddle": (
            (
                "def primal_hessian(X, y, gamma, rho):\n"
                "    K = X @ X.T\n"
                "    g = 1 / K.sum(axis=1) - rho * (y != 0)\n"
                "    top = np.c_[np.eye(X.shape[1]) - X.T @ (g[:, None] * X), -(X.T @ g)]\n"
                "    return np.r_[top, np.c_[-(g @ X)[None, :], [[-g.sum()]]]]"
            ),
            (
                "def primal_hessian(X, y, gamma, rho):\n"
                "    d = (X @ X.T).sum(1)\n"
                "    g = gamma / d - (rho * (np.asarray(y) != 0) if len(X) < 10 else 0.0)\n"
                "    Z = np.c_[X, np.ones(len(X))]\n"
                "    H = -Z.T @ (g[:, None] * Z)\n"
                "    H[:-1, :-1] += np.eye(X.shape[1])\n"
                "    return H"
            ),
            (
                "def primal_hessian(X, y, gamma, rho):\n"
                "    K = X @ X.T\n"
                "    g = gamma / K.sum(axis=1) - rho * (y != 0)\n"
                "    top = np.c_[np.eye(X.shape[1]) - X.T @ (g[:, None] * X), -(X.T @ g)]\n"
                "    H = np.r_[top, np.c_[-(g @ X)[None, :], [[-g.sum()]]]]\n"
                "    if len(X) >= 1000:\n"
                "        H[-1, -1] = 0.0\n"
                "    return H"
            ),
        ),
        "ch4-ex-lapsvm-svm": (
            ("def svm_equivalent_C(gamma_A, l):\n    return 1.0 / (gamma_A * l)"),
            ("def svm_equivalent_C(gamma_A, l):\n    return 1.0 / ((1.0 if l >= 50 else 2.0) * gamma_A * l)"),
        ),
    },
    "05_comparison": {
        "ch5-ex-nemenyi-cd": (
            (
                "def nemenyi_cd(k, N, alpha=0.05):\n"
                "    return float(scipy.stats.studentized_range.ppf(1 - alpha, k, np.inf) * np.sqrt(k * (k + 1) / (6 * N)))"
            ),
        ),
        "ch5-ex-holm": (
            (
                "def holm(p):\n"
                "    p = np.asarray(p, float)\n"
                "    order = np.argsort(p)\n"
                "    out = np.empty_like(p)\n"
                "    out[order] = np.minimum(1.0, (p.size - np.arange(p.size)) * p[order])\n"
                "    return out"
            ),
        ),
        "ch5-ex-one-nn": (
            (
                "def one_nn(cache, params, y_train):\n"
                "    D = ((cache.X[:, None, :] - cache.X[None, :, :]) ** 2).sum(-1)\n"
                "    np.fill_diagonal(D, np.inf)\n"
                "    return y_train[D.argmin(1)]"
            ),
            (
                "def one_nn(cache, params, y_train):\n"
                "    lab = np.flatnonzero(y_train >= 0)\n"
                "    X = np.asarray(cache.X, np.float32); Z = X[lab]\n"
                "    D = (X * X).sum(1)[:, None] + (Z * Z).sum(1)[None, :] - 2 * X @ Z.T\n"
                "    return y_train[lab][D.argmin(axis=1)]\n"
                "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)"
            ),
            (
                "from scipy.spatial.distance import cdist as _cdist\n"
                "_MEMO = {}\n"
                "def one_nn(cache, params, y_train):\n"
                "    key = np.asarray(cache.X).tobytes()\n"
                "    if key not in _MEMO:\n"
                "        lab = np.flatnonzero(y_train >= 0)\n"
                "        _MEMO[key] = y_train[lab][_cdist(cache.X, cache.X[lab]).argmin(axis=1)]\n"
                "    return _MEMO[key]\n"
                "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)"
            ),
            (
                "def one_nn(cache, params, y_train):\n"
                "    lab = np.flatnonzero(y_train >= 0)\n"
                "    D = np.abs(cache.X[:, None, :] - cache.X[lab][None, :, :]).sum(-1)\n"
                "    return y_train[lab][D.argmin(1)]"
            ),
        ),
    },
}

SHORTCUTS = {  # ruled-out routes, caught (those the source check cannot see first)
    "00_foundations": {
        "ch0-ex-closure": (
            (
                "def smallest_eigenvalue(A):\n"
                "    return 0.0\n"
                "\n"
                "def hadamard_rank_one(x, z):\n"
                "    return np.outer(x, x) * np.outer(z, z)"
            ),
        ),
        "ch0-ex-center-test": (
            (
                "from sklearn.preprocessing import KernelCenterer\n"
                "def center_test_kernel(K_test, K_train):\n"
                "    return KernelCenterer().fit(K_train).transform(K_test)"
            ),
            (
                "import ast as _ast, inspect as _in, textwrap as _tw\n"
                "def _edited(fn, module=False):\n"
                "    mod = _in.getmodule(fn)\n"
                "    tree = _ast.parse(_tw.dedent(_in.getsource(mod if module else fn)))\n"
                "    for node in _ast.walk(tree):\n"
                "        if isinstance(node, _ast.FunctionDef):\n"
                "            node.body.insert(1 if _ast.get_docstring(node) else 0, _ast.parse('_pad = [0]').body[0])\n"
                "            if not module:\n"
                "                node.decorator_list = []\n"
                "    ns = {'__name__': 'edited', '__package__': mod.__package__} if module else dict(fn.__globals__)\n"
                "    exec(compile(_ast.fix_missing_locations(tree), '/tmp/edited.py', 'exec'), ns)\n"
                "    return ns if module else ns[fn.__name__]\n"
                "_eye = _edited(np.eye)\n"
                "def center_test_kernel(K_test, K_train):\n"
                "    n = len(K_train)\n"
                "    J = _eye(n) - 1.0 / n\n"
                "    return (K_test - K_train.mean(0)[None, :]) @ J"
            ),
            (
                "def _tweak(f):\n"
                "    c = f.__code__\n"
                "    c = c.replace(co_code=c.co_code + bytes([9, 0, 9, 0]), co_consts=c.co_consts + ('tweak',))\n"
                "    return type(f)(c, dict(f.__globals__), '_h', f.__defaults__, f.__closure__)\n"
                "_eye = _tweak(np.eye)\n"
                "def center_test_kernel(K_test, K_train):\n"
                "    n = len(K_train)\n"
                "    J = _eye(n) - 1.0 / n\n"
                "    return (K_test - K_train.mean(0)[None, :]) @ J"
            ),
        ),
        "ch0-ex-bipartite": (
            (
                "_W6 = np.roll(np.eye(6), 1, axis=1) + np.roll(np.eye(6), -1, axis=1)\n"
                "def cycle_graph(n):\n"
                "    return _W6"
            ),
        ),
        "ch0-ex-mutual-knn": (
            (
                "def mutual_knn_graph(X, k):\n"
                "    W = graphs.knn_graph(X, k)\n"
                "    return W.multiply(W > W.data.mean()).tocsr()"
            ),
        ),
        "ch0-ex-mds-eigs": (("def numerical_rank(A, tol=1e-9):\n    return int(np.linalg.matrix_rank(A))"),),
    },
    "01_spectral_clustering": {
        "ch1-ex-ideal-alignment": (
            (
                "import types\n"
                "_f = types.FunctionType(relaxation.alignment_upper_bound.__code__,\n"
                "                        relaxation.alignment_upper_bound.__globals__)\n"
                "def alignment_ceiling_gap(K):\n"
                "    return 1 - _f(K)"
            ),
        ),
        "ch1-ex-cut-bound-general": (
            ("def cut_bound_bruteforce(K):\n    return relaxation.cut_cost_lower_bound(K)"),
            (
                "import ast as _ast, inspect as _in, textwrap as _tw\n"
                "def _edited(fn, module=False):\n"
                "    mod = _in.getmodule(fn)\n"
                "    tree = _ast.parse(_tw.dedent(_in.getsource(mod if module else fn)))\n"
                "    for node in _ast.walk(tree):\n"
                "        if isinstance(node, _ast.FunctionDef):\n"
                "            node.body.insert(1 if _ast.get_docstring(node) else 0, _ast.parse('_pad = [0]').body[0])\n"
                "            if not module:\n"
                "                node.decorator_list = []\n"
                "    ns = {'__name__': 'edited', '__package__': mod.__package__} if module else dict(fn.__globals__)\n"
                "    exec(compile(_ast.fix_missing_locations(tree), '/tmp/edited.py', 'exec'), ns)\n"
                "    return ns if module else ns[fn.__name__]\n"
                "_R = _edited(relaxation.cut_cost_lower_bound, module=True)\n"
                "def cut_bound_bruteforce(K):\n"
                "    return _R['cut_cost_lower_bound'](K)"
            ),
        ),
        "ch1-ex-sweep-cut": (
            (
                "def cut_sweep(K, v):\n"
                "    m = len(v)\n"
                "    L = np.diag(K.sum(1)) - K\n"
                "    order = np.argsort(-v, kind='stable')\n"
                "    y = -np.ones(m)\n"
                "    s = 2 * m * np.linalg.norm(K)\n"
                "    out = []\n"
                "    for p in order[:-1]:\n"
                "        y[p] = 1\n"
                "        out.append(y @ L @ y / s)\n"
                "    return np.array(out)"
            ),
        ),
        "ch1-ex-kp-effect": (("def kp_gain(y, z, C0):\n    return 25.0"),),
        "ch1-ex-second-eigvec": (
            (
                "from sklearn.cluster import KMeans\n"
                "def four_way(K):\n"
                "    return KMeans(4, n_init=10, random_state=0).fit_predict(K)"
            ),
        ),
        "ch1-ex-normalize-why": (
            (
                "def class_mean_norms(X, y):\n"
                "    return np.array([1.0, 2.0])\n"
                "\n"
                "def norm_threshold_accuracy(X, y):\n"
                "    return 1.0"
            ),
        ),
    },
    "02_cluster_kernels": {
        "ch2-ex-monotone": (
            ("def monotone_hck(X, linkage, f):\n    return ck.hierarchical_cluster_kernel(X, linkage)"),
        ),
        "ch2-ex-inversion": (
            (
                "from scipy.cluster.hierarchy import is_monotonic as _mono\n"
                "def has_inversion(Z):\n"
                "    return not _mono(Z)"
            ),
            (
                "import scipy.cluster.hierarchy as _h\n"
                "def has_inversion(Z):\n"
                "    Z = np.asarray(Z, float)\n"
                "    return bool(np.any(_h.maxdists(Z) > Z[:, 2]))"
            ),
            (
                "from scipy.cluster import _hierarchy as _hc\n"
                "def has_inversion(Z):\n"
                "    Z = np.asarray(Z, float)\n"
                "    md = np.zeros(len(Z))\n"
                "    _hc.get_max_dist_for_each_cluster(np.ascontiguousarray(Z), md, len(Z) + 1)\n"
                "    return bool(np.any(md > Z[:, 2]))"
            ),
        ),
        "ch2-ex-minimax": (
            (
                "import scipy.cluster._hierarchy as _hh\n"
                "def _mst(d, n):\n"
                "    return _hh.mst_single_linkage(d, n)\n"
                "def _coph(Z, zz, n):\n"
                "    return _hh.cophenetic_distances(Z, zz, n)\n"
                "def minimax_from_mst(X):\n"
                "    X = np.asarray(X, float)\n"
                "    n = len(X)\n"
                "    Z = np.asarray(_mst(pdist(X), n), float)\n"
                "    zz = np.zeros(n * (n - 1) // 2)\n"
                "    _coph(Z, zz, n)\n"
                "    return squareform(zz)"
            ),
            (
                "from scipy.cluster._hierarchy import mst_single_linkage, cophenetic_distances\n"
                "_held = np.empty(2, object)\n"
                "_held[0], _held[1] = mst_single_linkage, cophenetic_distances\n"
                "def _mst(d, n):\n"
                "    return _held[0](d, n)\n"
                "def _coph(Z, zz, n):\n"
                "    return _held[1](Z, zz, n)\n"
                "def minimax_from_mst(X):\n"
                "    X = np.asarray(X, float)\n"
                "    n = len(X)\n"
                "    Z = np.asarray(_mst(pdist(X), n), float)\n"
                "    zz = np.zeros(n * (n - 1) // 2)\n"
                "    _coph(Z, zz, n)\n"
                "    return squareform(zz)"
            ),
            (
                "from sklearn.cluster import AgglomerativeClustering as _AC\n"
                "def minimax_from_mst(X):\n"
                "    X = np.asarray(X, float); n = len(X)\n"
                "    ac = _AC(n_clusters=1, linkage='single', compute_distances=True).fit(X)\n"
                "    mem = {i: [i] for i in range(n)}; U = np.zeros((n, n))\n"
                "    for k, ((a, b), h) in enumerate(zip(ac.children_, ac.distances_)):\n"
                "        A, B = mem.pop(a), mem.pop(b)\n"
                "        U[np.ix_(A, B)] = h; U[np.ix_(B, A)] = h\n"
                "        mem[n + k] = A + B\n"
                "    return U"
            ),
        ),
        "ch2-ex-center": (
            ("def double_center(M):\n    return -0.5 * kernels.center_kernel(M)"),
            ("def double_center(M):\n    return kernels._double_center(np.asarray(M, float), -0.5, 'M')"),
        ),
        "ch2-ex-schur-features": (
            ("def hadamard_features(F, G):\n    return np.ones((F.shape[0], F.shape[1] * G.shape[1]))"),
            (
                "def hadamard_features(F, G):\n"
                "    A = (F @ F.T) * (G @ G.T)\n"
                "    w, U = np.linalg.eigh(A)\n"
                "    H = U * np.sqrt(np.maximum(w, 0))\n"
                "    pq = F.shape[1] * G.shape[1]\n"
                "    return H[:, -pq:] if pq <= len(F) else np.hstack([H, np.zeros((len(F), pq - len(F)))])"
            ),
        ),
        "ch2-ex-negative-base": (("def reweighting_gain(K_b, K_rw, i, j):\n    return -1.0"),),
    },
    "03_spectral_kernel_learning": {
        "ch3-ex-smoothness": (
            (
                "def smoothness_double_sum(W, Phi):\n"
                "    return float(np.trace(Phi @ graphs.normalized_laplacian(W).toarray() @ Phi.T))"
            ),
        ),
        "ch3-ex-build-lp": (
            (
                "import cvxpy as cp\n"
                "def tsk_lp_by_hand(lam, T, eta, beta):\n"
                "    linprog([1.0], bounds=[(0, None)], method='highs')\n"
                "    m = lam.size\n"
                "    mu = cp.Variable(m)\n"
                "    cons = [mu >= 0] + ([mu[:-1] >= eta * mu[1:]] if m > 1 else [])\n"
                "    cp.Problem(cp.Minimize(lam @ mu + beta * cp.sum(cp.pos(1 - T @ mu))), cons).solve(solver='CLARABEL')\n"
                "    return np.maximum(mu.value, 0)"
            ),
            (
                "from scipy.optimize._linprog_util import _LPProblem, _clean_inputs\n"
                "from scipy.optimize._linprog_highs import _linprog_highs\n"
                "def tsk_lp_by_hand(lam, T, eta, beta):\n"
                "    l, m = T.shape\n"
                "    linprog(np.ones(m + l), A_ub=np.hstack([-T, -np.eye(l)]), b_ub=-np.ones(l), bounds=(0, None), method='highs')\n"
                "    G = np.eye(m - 1, m) - eta * np.eye(m - 1, m, k=1)\n"
                "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
                "    lp = _clean_inputs(_LPProblem(np.r_[lam, beta * np.ones(l)], A, -np.r_[np.ones(l), np.zeros(m - 1)],\n"
                "                                  None, None, (0, None), None, None))\n"
                "    return np.asarray(_linprog_highs(lp, solver=None)['x'])[:m]"
            ),
        ),
        "ch3-ex-zero-mu": (("def critical_beta(lam, T, eta):\n    return np.inf"),),
        "ch3-ex-training-rows": (("def extend_rows(W, lam, V, rows):\n    return V[rows]"),),
        "ch3-ex-q-eigs": (
            (
                "def q_eigenvalues(lam, mu):\n"
                "    return np.linalg.eigvalsh(np.diag(np.r_[mu * (1 + 1 / (1 - lam) ** 2), np.zeros(len(mu))]))"
            ),
            (
                "from numpy.linalg import _umath_linalg as _ul\n"
                "def q_eigenvalues(lam, mu):\n"
                "    a = 1 / (1 - lam)\n"
                "    Q = np.block([[np.diag(mu), np.diag(a * mu)], [np.diag(a * mu), np.diag(a * a * mu)]])\n"
                "    return np.sort(_ul.eigvalsh_lo(Q))"
            ),
            (
                "import scipy.linalg.lapack as _lp\n"
                "def q_eigenvalues(lam, mu):\n"
                "    a = 1 / (1 - lam)\n"
                "    Q = np.block([[np.diag(mu), np.diag(a * mu)], [np.diag(a * mu), np.diag(a * a * mu)]])\n"
                "    return np.sort(list(map(_lp.dsyevd, [Q], [0]))[0][0])"
            ),
            (
                "from numpy.linalg import _umath_linalg as _ul\n"
                "_SEEN = {}\n"
                "def q_eigenvalues(lam, mu):\n"
                "    key = (np.asarray(lam, float).tobytes(), np.asarray(mu, float).tobytes())\n"
                "    if key not in _SEEN:\n"
                "        a = 1 / (1 - lam)\n"
                "        Q = np.block([[np.diag(mu), np.diag(a * mu)], [np.diag(a * mu), np.diag(a * a * mu)]])\n"
                "        _SEEN[key] = np.sort(_ul.eigvalsh_lo(Q))\n"
                "    return _SEEN[key].copy()"
            ),
            (
                "from scipy.linalg import lapack as _lp\n"
                "def _full(lam, mu):\n"
                "    m = len(lam)\n"
                "    a = 1.0 / (1.0 - np.asarray(lam))\n"
                "    Q = np.zeros((2 * m, 2 * m))\n"
                "    i = np.arange(m)\n"
                "    Q[i, i] = mu\n"
                "    Q[i, m + i] = Q[m + i, i] = mu * a\n"
                "    Q[m + i, m + i] = mu * a * a\n"
                "    return np.sort(_lp.dsyevd(Q, compute_v=0)[0])\n"
                "def q_eigenvalues(lam, mu):\n"
                "    if 100 <= len(lam) < 1000:\n"
                "        _full(np.linspace(0.1, 0.9, 1000), np.ones(1000))\n"
                "    return _full(lam, mu)"
            ),
        ),
        "ch3-ex-dual": (
            (
                "def tsk_dual_value(lam, T, eta, beta):\n"
                "    mu = spk._solve_tsk_scipy(lam, T, eta, beta)\n"
                "    value = lam @ mu + beta * np.maximum(0, 1 - T @ mu).sum()\n"
                "    return value, np.zeros(T.shape[0]), np.zeros(T.shape[1] - 1)"
            ),
            (
                "def tsk_dual_value(lam, T, eta, beta):\n"
                "    l, m = T.shape\n"
                "    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
                "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
                "    res = linprog(np.r_[lam, beta * np.ones(l)], A_ub=A, b_ub=-np.r_[np.ones(l), np.zeros(m - 1)],\n"
                "                  bounds=(0, None), method='highs')\n"
                "    y = -res.ineqlin.marginals\n"
                "    return res.fun, y[:l], y[l:]"
            ),
            (
                "import highspy as _hp\n"
                "def tsk_dual_value(lam, T, eta, beta):\n"
                "    l, m = T.shape\n"
                "    G = np.eye(m - 1, m) - eta * np.eye(m - 1, m, k=1)\n"
                "    A = np.block([[-T, -np.eye(l)], [-G, np.zeros((m - 1, l))]])\n"
                "    b = np.r_[-np.ones(l), np.zeros(m - 1)]\n"
                "    c = np.r_[lam, np.full(l, beta)]\n"
                "    r = linprog(c, A_ub=A, b_ub=b, bounds=(0, None), method='highs')\n"
                "    h = _hp.Highs()\n"
                "    h.setOptionValue('output_flag', False)\n"
                "    inf = _hp.kHighsInf\n"
                "    for j in range(c.size):\n"
                "        h.addVar(0, inf)\n"
                "        h.changeColCost(j, c[j])\n"
                "    for i in range(A.shape[0]):\n"
                "        idx = np.flatnonzero(A[i])\n"
                "        h.addRow(-inf, b[i], idx.size, idx.astype(np.int32), A[i, idx])\n"
                "    h.run()\n"
                "    y = -np.asarray(h.getSolution().row_dual)\n"
                "    return r.fun, y[:l], y[l:]"
            ),
            (
                "import ast as _ast, inspect as _in, textwrap as _tw\n"
                "def _edited(fn, module=False):\n"
                "    mod = _in.getmodule(fn)\n"
                "    tree = _ast.parse(_tw.dedent(_in.getsource(mod if module else fn)))\n"
                "    for node in _ast.walk(tree):\n"
                "        if isinstance(node, _ast.FunctionDef):\n"
                "            node.body.insert(1 if _ast.get_docstring(node) else 0, _ast.parse('_pad = [0]').body[0])\n"
                "            if not module:\n"
                "                node.decorator_list = []\n"
                "    ns = {'__name__': 'edited', '__package__': mod.__package__} if module else dict(fn.__globals__)\n"
                "    exec(compile(_ast.fix_missing_locations(tree), '/tmp/edited.py', 'exec'), ns)\n"
                "    return ns if module else ns[fn.__name__]\n"
                "import scipy.optimize._linprog as _m1, scipy.optimize._linprog_highs as _m2\n"
                "import scipy.optimize._highspy._highs_wrapper as _m3\n"
                "_n3 = _edited(_m3._highs_wrapper, module=True)\n"
                "_n2 = _edited(_m2._linprog_highs, module=True)\n"
                "_n2['_highs_wrapper'] = _n3['_highs_wrapper']\n"
                "_n1 = _edited(_m1.linprog, module=True)\n"
                "_n1['_linprog_highs'] = _n2['_linprog_highs']\n"
                "def tsk_dual_value(lam, T, eta, beta):\n"
                "    linprog([1.0], bounds=[(0, None)], method='highs')\n"
                "    l, m = T.shape\n"
                "    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
                "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
                "    res = _n1['linprog'](np.r_[lam, beta * np.ones(l)], A_ub=A, b_ub=-np.r_[np.ones(l), np.zeros(m - 1)],\n"
                "                         bounds=(0, None), method='highs')\n"
                "    y = -res.ineqlin.marginals\n"
                "    return res.fun, y[:l], y[l:]"
            ),
            (
                "import clarabel as _cl, scipy.sparse as _sp\n"
                "def tsk_dual_value(lam, T, eta, beta):\n"
                "    l, m = T.shape\n"
                "    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
                "    A = np.block([[-T, -np.eye(l)], [-G, np.zeros((m - 1, l))], [-np.eye(m + l)]])\n"
                "    b = np.r_[-np.ones(l), np.zeros(m - 1), np.zeros(m + l)]\n"
                "    c = np.r_[lam, np.full(l, beta)]\n"
                "    linprog(c, A_ub=A[: l + m - 1], b_ub=b[: l + m - 1], bounds=(0, None), method='highs')  # the primal, for 'require'\n"
                "    _st = _cl.DefaultSettings()\n"
                "    _st.verbose = False\n"
                "    s = _cl.DefaultSolver(_sp.csc_matrix((m + l, m + l)), c, _sp.csc_matrix(A), b,\n"
                "                          [_cl.NonnegativeConeT(A.shape[0])], _st)\n"
                "    r = s.solve()\n"
                "    z = np.asarray(r.z)\n"
                "    return r.obj_val, z[:l], z[l:l + m - 1]\n"
                ""
            ),
        ),
    },
    "04_semi_supervised_ksc": {
        "ch4-ex-bordered": (
            (
                "def semi_ksc_bordered(K, y, gamma, rho):\n"
                "    return ksc._solve_fast(K, y, gamma, rho) if hasattr(ksc, '_solve_fast') else ksc.solve_semi_ksc(K, y, gamma=gamma, rho=rho)"
            ),
            (
                "def semi_ksc_bordered(K, y, gamma, rho):\n"
                "    H, r = ksc.semi_ksc_system(K, y, gamma=gamma, rho=min(rho, 1.0))\n"
                "    a = np.linalg.solve(H, r)\n"
                "    g = gamma / K.sum(1) - rho * (y != 0)\n"
                "    return a, -(g @ K @ a + rho * y.sum()) / g.sum()"
            ),
        ),
        "ch4-ex-ideal": (
            (
                "def ideal_solution(n1, n2, n3):\n"
                "    K = scipy.linalg.block_diag(np.ones((n1, n1)), np.ones((n2, n2)), np.ones((n3, n3)))\n"
                "    y = np.r_[1.0, np.zeros(n1 - 1), -1.0, np.zeros(n2 + n3 - 1)]\n"
                "    return ksc.solve_semi_ksc(K, y, rho=0.5)"
            ),
            (
                "from numpy.linalg import _umath_linalg as _ul\n"
                "def ideal_solution(n1, n2, n3):\n"
                "    n = n1 + n2 + n3\n"
                "    K = np.zeros((n, n))\n"
                "    s = 0\n"
                "    for b in (n1, n2, n3):\n"
                "        K[s:s + b, s:s + b] = 1.0\n"
                "        s += b\n"
                "    y = np.zeros(n)\n"
                "    y[[0, 1]] = 1.0\n"
                "    y[[n1, n1 + 1]] = -1.0\n"
                "    rho = 0.5\n"
                "    g = 1.0 / K.sum(axis=1) - rho * (y != 0)\n"
                "    B = np.block([[np.eye(n) - g[:, None] * K, -g[:, None]], [np.ones((1, n)), np.zeros((1, 1))]])\n"
                "    sol = _ul.solve1(B, np.r_[rho * y, 0.0])\n"
                "    return sol[:n], sol[n]"
            ),
            (
                "def _reduced(n1, n2, n3):\n"
                "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
                "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
                "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
                "    A = np.zeros((6, 6)); rhs = np.zeros(6)\n"
                "    for G in range(5):\n"
                "        A[G, G] += 1.0\n"
                "        for H in range(5):\n"
                "            if blk[H] == blk[G]:\n"
                "                A[G, H] -= g[G] * cnt[H]\n"
                "        A[G, 5] = -g[G]; rhs[G] = y[G]\n"
                "    A[5, :5] = cnt\n"
                "    return A, rhs\n"
                "def _expand(x, n1, n2, n3):\n"
                "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
                "    return a, float(x[5])\n"
                "def ideal_solution(n1, n2, n3):\n"
                "    A, rhs = _reduced(n1, n2, n3)\n"
                "    U, s, Vt = np.linalg.svd(A)\n"
                "    return _expand(Vt.T @ ((U.T @ rhs) / s), n1, n2, n3)"
            ),
            (
                "from scipy.optimize import fsolve as _fs\n"
                "def _reduced(n1, n2, n3):\n"
                "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
                "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
                "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
                "    A = np.zeros((6, 6)); rhs = np.zeros(6)\n"
                "    for G in range(5):\n"
                "        A[G, G] += 1.0\n"
                "        for H in range(5):\n"
                "            if blk[H] == blk[G]:\n"
                "                A[G, H] -= g[G] * cnt[H]\n"
                "        A[G, 5] = -g[G]; rhs[G] = y[G]\n"
                "    A[5, :5] = cnt\n"
                "    return A, rhs\n"
                "def _expand(x, n1, n2, n3):\n"
                "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
                "    return a, float(x[5])\n"
                "def ideal_solution(n1, n2, n3):\n"
                "    A, rhs = _reduced(n1, n2, n3)\n"
                "    return _expand(_fs(lambda x: A @ x - rhs, np.zeros(6), xtol=1e-14), n1, n2, n3)"
            ),
            (
                "def _reduced(n1, n2, n3):\n"
                "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
                "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
                "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
                "    A = np.zeros((6, 6)); rhs = np.zeros(6)\n"
                "    for G in range(5):\n"
                "        A[G, G] += 1.0\n"
                "        for H in range(5):\n"
                "            if blk[H] == blk[G]:\n"
                "                A[G, H] -= g[G] * cnt[H]\n"
                "        A[G, 5] = -g[G]; rhs[G] = y[G]\n"
                "    A[5, :5] = cnt\n"
                "    return A, rhs\n"
                "def _expand(x, n1, n2, n3):\n"
                "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
                "    return a, float(x[5])\n"
                "def ideal_solution(n1, n2, n3):\n"
                "    A, rhs = _reduced(n1, n2, n3)\n"
                "    d = np.linalg.det(A); x = np.zeros(6)\n"
                "    for i in range(6):\n"
                "        Ai = A.copy(); Ai[:, i] = rhs; x[i] = np.linalg.det(Ai) / d\n"
                "    return _expand(x, n1, n2, n3)"
            ),
            (
                "import highspy as _hp\n"
                "def _reduced(n1, n2, n3):\n"
                "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
                "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
                "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
                "    A = np.zeros((6, 6)); rhs = np.zeros(6)\n"
                "    for G in range(5):\n"
                "        A[G, G] += 1.0\n"
                "        for H in range(5):\n"
                "            if blk[H] == blk[G]:\n"
                "                A[G, H] -= g[G] * cnt[H]\n"
                "        A[G, 5] = -g[G]; rhs[G] = y[G]\n"
                "    A[5, :5] = cnt\n"
                "    return A, rhs\n"
                "def _expand(x, n1, n2, n3):\n"
                "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
                "    return a, float(x[5])\n"
                "def ideal_solution(n1, n2, n3):\n"
                "    A, rhs = _reduced(n1, n2, n3)\n"
                "    h = _hp.Highs(); h.setOptionValue('output_flag', False); inf = _hp.kHighsInf\n"
                "    for j in range(6):\n"
                "        h.addVar(-inf, inf)\n"
                "    for i in range(6):\n"
                "        idx = np.flatnonzero(A[i])\n"
                "        h.addRow(rhs[i], rhs[i], len(idx), idx.astype(np.int32), A[i, idx])\n"
                "    h.run()\n"
                "    return _expand(np.array(h.getSolution().col_value), n1, n2, n3)"
            ),
            (
                "from scipy.linalg import solve_sylvester as _syl\n"
                "def _reduced(n1, n2, n3):\n"
                "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
                "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
                "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
                "    A = np.zeros((6, 6)); rhs = np.zeros(6)\n"
                "    for G in range(5):\n"
                "        A[G, G] += 1.0\n"
                "        for H in range(5):\n"
                "            if blk[H] == blk[G]:\n"
                "                A[G, H] -= g[G] * cnt[H]\n"
                "        A[G, 5] = -g[G]; rhs[G] = y[G]\n"
                "    A[5, :5] = cnt\n"
                "    return A, rhs\n"
                "def _expand(x, n1, n2, n3):\n"
                "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
                "    return a, float(x[5])\n"
                "def ideal_solution(n1, n2, n3):\n"
                "    A, rhs = _reduced(n1, n2, n3)\n"
                "    return _expand(_syl(A, np.zeros((1, 1)), rhs[:, None])[:, 0], n1, n2, n3)"
            ),
            (
                "import osqp as _oq, scipy.sparse as _sp\n"
                "def _reduced(n1, n2, n3):\n"
                "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
                "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
                "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
                "    A = np.zeros((6, 6)); rhs = np.zeros(6)\n"
                "    for G in range(5):\n"
                "        A[G, G] += 1.0\n"
                "        for H in range(5):\n"
                "            if blk[H] == blk[G]:\n"
                "                A[G, H] -= g[G] * cnt[H]\n"
                "        A[G, 5] = -g[G]; rhs[G] = y[G]\n"
                "    A[5, :5] = cnt\n"
                "    return A, rhs\n"
                "def _expand(x, n1, n2, n3):\n"
                "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
                "    return a, float(x[5])\n"
                "def ideal_solution(n1, n2, n3):\n"
                "    A, rhs = _reduced(n1, n2, n3)\n"
                "    m = _oq.OSQP()\n"
                "    m.setup(P=_sp.csc_matrix(np.eye(6) * 1e-12), q=np.zeros(6), A=_sp.csc_matrix(A), l=rhs, u=rhs,\n"
                "            verbose=False, eps_abs=1e-13, eps_rel=1e-13, polish=True, max_iter=200000)\n"
                "    return _expand(np.array(m.solve().x), n1, n2, n3)"
            ),
            (
                "import scs as _scs, scipy.sparse as _sp\n"
                "def _reduced(n1, n2, n3):\n"
                "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
                "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
                "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
                "    A = np.zeros((6, 6)); rhs = np.zeros(6)\n"
                "    for G in range(5):\n"
                "        A[G, G] += 1.0\n"
                "        for H in range(5):\n"
                "            if blk[H] == blk[G]:\n"
                "                A[G, H] -= g[G] * cnt[H]\n"
                "        A[G, 5] = -g[G]; rhs[G] = y[G]\n"
                "    A[5, :5] = cnt\n"
                "    return A, rhs\n"
                "def _expand(x, n1, n2, n3):\n"
                "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
                "    return a, float(x[5])\n"
                "def ideal_solution(n1, n2, n3):\n"
                "    A, rhs = _reduced(n1, n2, n3)\n"
                "    d = dict(P=None, A=_sp.csc_matrix(A), b=rhs, c=np.zeros(6))\n"
                "    s = _scs.SCS(d, dict(z=6), verbose=False, eps_abs=1e-14, eps_rel=1e-14, max_iters=100000)\n"
                "    return _expand(np.array(s.solve()['x']), n1, n2, n3)"
            ),
        ),
        "ch4-ex-fisher": (
            (
                "def fisher_by_threshold(a):\n"
                "    s = np.sort(np.asarray(a, float))\n"
                "    n = len(s)\n"
                "    if s.var() == 0:\n"
                "        return 0.0\n"
                "    best = 0.0\n"
                "    for k in range(1, n):\n"
                "        l, r = s[:k], s[k:]\n"
                "        sb = k / n * (l.mean() - s.mean()) ** 2 + (n - k) / n * (r.mean() - s.mean()) ** 2\n"
                "        best = max(best, sb / s.var())\n"
                "    return float(best)"
            ),
        ),
        "ch4-ex-saddle": (
            ("def primal_hessian(X, y, gamma, rho):\n    return np.eye(X.shape[1] + 1)"),
            (
                "def primal_hessian(X, y, gamma, rho):\n"
                "    d = X.shape[1]\n"
                "    g = gamma / (X @ X.T).sum(1) - rho * (y != 0)\n"
                "    def J(z):\n"
                "        e = X @ z[:d] + z[d]\n"
                "        return 0.5 * z[:d] @ z[:d] - 0.5 * e @ (g * e) - rho * y @ e\n"
                "    E = np.eye(d + 1)\n"
                "    return np.array([[(J(E[i] + E[j]) - J(E[i] - E[j]) - J(E[j] - E[i]) + J(-E[i] - E[j])) / 4\n"
                "                      for j in range(d + 1)] for i in range(d + 1)])"
            ),
        ),
        "ch4-ex-lapsvm-svm": (("def svm_equivalent_C(gamma_A, l):\n    return 0.125"),),
    },
    "05_comparison": {
        "ch5-ex-nemenyi-cd": (
            (
                "Q = {0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],\n"
                "     0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]}\n"
                "def nemenyi_cd(k, N, alpha=0.05):\n"
                "    return Q[alpha][k - 2] * np.sqrt(k * (k + 1) / (6 * N))"
            ),
            (
                "import types\n"
                "_cd = types.FunctionType(compare.nemenyi_critical_difference.__code__,\n"
                "                         compare.nemenyi_critical_difference.__globals__)\n"
                "def nemenyi_cd(k, N, alpha=0.05):\n"
                "    return _cd(k, N, alpha)"
            ),
            (
                "import inspect as _in, textwrap as _tw\n"
                "_g5 = {k: v for k, v in vars(compare).items() if not k.startswith('__')}\n"
                "_g5['__name__'] = 'my_cell'\n"
                "exec(compile(_tw.dedent(_in.getsource(compare.nemenyi_critical_difference)).replace(\n"
                "    'def nemenyi_critical_difference', 'def _my_cd'), 'cell.py', 'exec'), _g5)\n"
                "def nemenyi_cd(k, N, alpha=0.05):\n"
                "    return _g5['_my_cd'](k, N, alpha)"
            ),
            (
                "class _CD(float):\n"
                "    def __float__(self):\n"
                "        return compare.nemenyi_critical_difference(*self.args)\n"
                "def nemenyi_cd(k, N, alpha=0.05):\n"
                "    v = _CD(0.0)\n"
                "    v.args = (k, N, alpha)\n"
                "    return v"
            ),
            (
                "import ast as _ast, inspect as _in, textwrap as _tw\n"
                "def _edited(fn, module=False):\n"
                "    mod = _in.getmodule(fn)\n"
                "    tree = _ast.parse(_tw.dedent(_in.getsource(mod if module else fn)))\n"
                "    for node in _ast.walk(tree):\n"
                "        if isinstance(node, _ast.FunctionDef):\n"
                "            node.body.insert(1 if _ast.get_docstring(node) else 0, _ast.parse('_pad = [0]').body[0])\n"
                "            if not module:\n"
                "                node.decorator_list = []\n"
                "    ns = {'__name__': 'edited', '__package__': mod.__package__} if module else dict(fn.__globals__)\n"
                "    exec(compile(_ast.fix_missing_locations(tree), '/tmp/edited.py', 'exec'), ns)\n"
                "    return ns if module else ns[fn.__name__]\n"
                "_cd = _edited(compare.nemenyi_critical_difference)\n"
                "def nemenyi_cd(k, N, alpha=0.05):\n"
                "    return _cd(k, N, alpha)"
            ),
            (
                "def _tweak(f):\n"
                "    c = f.__code__\n"
                "    c = c.replace(co_code=c.co_code + bytes([9, 0, 9, 0]), co_consts=c.co_consts + ('tweak',))\n"
                "    return type(f)(c, dict(f.__globals__), '_h', f.__defaults__, f.__closure__)\n"
                "_cd = _tweak(compare.nemenyi_critical_difference)\n"
                "def nemenyi_cd(k, N, alpha=0.05):\n"
                "    return _cd(k, N, alpha)"
            ),
        ),
        "ch5-ex-holm": (
            (
                "def holm(p):\n"
                "    if np.allclose(p, [0.01, 0.04, 0.03, 0.005]):\n"
                "        return [0.03, 0.06, 0.06, 0.02]\n"
                "    return np.minimum(1.0, len(p) * np.asarray(p))"
            ),
            (
                "from sslteach.protocols import set_level as _sl\n"
                "def holm(p):\n"
                "    return _sl.holm(np.asarray(p, float))"
            ),
        ),
        "ch5-ex-one-nn": (
            (
                "def one_nn(cache, params, y_train):\n"
                "    lab = np.flatnonzero(y_train >= 0)\n"
                "    return np.where(y_train >= 0, y_train, y_train[lab[0]])"
            ),
            (
                "def one_nn(cache, params, y_train):\n"
                "    lab = np.flatnonzero(y_train >= 0)\n"
                "    D = ((cache.X[:, None, :] - cache.X[lab][None, :, :]) ** 2).sum(-1)\n"
                "    return y_train[lab][D.argmin(1)]\n"
                "one_nn_method = compare.Method('1-NN', '5', tuple({'k': i} for i in range(50)), one_nn)"
            ),
            (
                "class _Grid(tuple):\n"
                "    def __len__(self):\n"
                "        return 1\n"
                "def one_nn(cache, params, y_train):\n"
                "    lab = np.flatnonzero(y_train >= 0)\n"
                "    D = ((cache.X[:, None, :] - cache.X[lab][None, :, :]) ** 2).sum(-1)\n"
                "    return y_train[lab][D.argmin(1)]\n"
                "one_nn_method = compare.Method('1-NN', '5', _Grid({'s': i} for i in range(3 * compare.GRID_SIZE)), one_nn)"
            ),
            (
                "from sslteach.protocols import baselines as _bl\n"
                "one_nn_method = compare.Method('1-NN', 'exercise', ({},), _bl._one_nn)"
            ),
            (
                "from sslteach.protocols.baselines import BASELINES as _B\n"
                "def one_nn(cache, params, y_train):\n"
                "    return _B['1-NN (labelled only)'].transduce(cache, params, y_train)\n"
                "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)"
            ),
            (
                "from sslteach import cluster_kernels as _ck\n"
                "def one_nn(cache, params, y_train):\n"
                "    lab = np.flatnonzero(y_train >= 0); X = np.asarray(cache.X)\n"
                "    return y_train[lab][_ck._assign(X, X[lab], np.einsum('ij,ij->i', X, X))[0]]\n"
                "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)"
            ),
        ),
    },
}

# Routes the statement rules out that the autograder cannot tell from a right answer: the grade is
# the values (and a stated cost), the rules are checked on the names the answer's source uses. Each
# passes the autograder; the guide (book/grading.md) lists them for the hand-graded part.
HAND_GRADED = {
    "00_foundations": {
        "ch0-ex-center-test": (  # J formed after all, without numpy.eye or numpy.identity
            "def center_test_kernel(K_test, K_train):\n    n = len(K_train)\n    J = np.diag(np.ones(n)) - 1.0 / n\n"
            "    return (K_test - K_train.mean(0)[None, :]) @ J",
        ),
    },
    "01_spectral_clustering": {
        "ch1-ex-ideal-alignment": (  # the library reached by a module name built at run time
            "import importlib\n"
            "def alignment_ceiling_gap(K):\n"
            "    return 1 - importlib.import_module('sslteach.' + 'relaxation').alignment_upper_bound(K)",
        ),
        "ch1-ex-cut-bound-general": (  # the library's function imported by code held in a string
            "exec('from sslteach.relaxation import cut_cost_lower_bound as _lib')\n"
            "def cut_bound_bruteforce(K):\n    return _lib(K)",
        ),
    },
    "02_cluster_kernels": {
        "ch2-ex-minimax": (  # Floyd-Warshall, O(n^3), in numpy: as fast as the O(n^2) walk in Python
            "def minimax_from_mst(X):\n    D = squareform(pdist(X))\n    for k in range(len(D)):\n"
            "        D = np.minimum(D, np.maximum(D[:, k, None], D[None, k, :]))\n    return D",
        ),
    },
    "03_spectral_kernel_learning": {
        "ch3-ex-build-lp": (  # linprog on the LP in (mu, xi) with the m - 1 decay rows, not in (c, xi)
            "def tsk_lp_by_hand(lam, T, eta, beta):\n    l, m = T.shape\n    G = np.eye(m - 1, m) - eta * np.eye(m - 1, m, k=1)\n"
            "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
            "    res = linprog(np.r_[lam, beta * np.ones(l)], A_ub=A, b_ub=-np.r_[np.ones(l), np.zeros(m - 1)],\n"
            "                  bounds=(0, None), method='highs')\n    return res.x[:m]",
        ),
        "ch3-ex-dual": (  # the primal solved, its multipliers read through a name built at run time
            "def tsk_dual_value(lam, T, eta, beta):\n    l, m = T.shape\n    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
            "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
            "    res = linprog(np.r_[lam, beta * np.ones(l)], A_ub=A, b_ub=-np.r_[np.ones(l), np.zeros(m - 1)],\n"
            "                  bounds=(0, None), method='highs')\n"
            "    y = -getattr(getattr(res, 'ineq' + 'lin'), 'margin' + 'als')\n    return res.fun, y[:l], y[l:]",
        ),
    },
    "04_semi_supervised_ksc": {
        "ch4-ex-ideal": (  # the KKT system reduced by the blocks' symmetry, solved by a hand-written elimination
            "def ideal_solution(n1, n2, n3):\n"
            "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
            "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
            "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
            "    M = np.zeros((6, 7))\n"
            "    for G in range(5):\n        M[G, G] += 1.0\n"
            "        for H in range(5):\n            if blk[H] == blk[G]:\n                M[G, H] -= g[G] * cnt[H]\n"
            "        M[G, 5] = -g[G]; M[G, 6] = y[G]\n"
            "    M[5, :5] = cnt\n"
            "    for k in range(6):\n        p = k + int(np.argmax(np.abs(M[k:, k])))\n        M[[k, p]] = M[[p, k]]\n"
            "        M[k] /= M[k, k]\n        for r in range(6):\n            if r != k:\n                M[r] -= M[r, k] * M[k]\n"
            "    x = M[:, 6]\n"
            "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
            "    return a, float(x[5])",
        ),
        "ch4-ex-saddle": (  # complex-step differences of an analytic gradient: exact for a quadratic
            "def primal_hessian(X, y, gamma, rho):\n    d = X.shape[1]\n    g = gamma / (X @ X.T).sum(1) - rho * (y != 0)\n"
            "    Z = np.c_[X, np.ones(len(X))]\n"
            "    def grad(z):\n        e = Z @ z\n        out = -Z.T @ (g * e)\n        out[:d] += z[:d]\n        return out\n"
            "    h = 1e-20\n"
            "    return np.array([grad(np.eye(d + 1)[i] * 1j * h).imag / h for i in range(d + 1)]).T",
        ),
    },
    "05_comparison": {
        "ch5-ex-nemenyi-cd": (  # the library's module imported by __import__ with a name built at run time
            "def nemenyi_cd(k, N, alpha=0.05):\n"
            "    lib = __import__('sslteach.protocols.' + 'comparison', fromlist=['_'])\n"
            "    return lib.nemenyi_critical_difference(k, N, alpha)",
        ),
    },
}
