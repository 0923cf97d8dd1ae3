# ruff: noqa: E501 (answers are source strings, kept one line of the answer per line)
"""Answers for tests/test_grader_redteam.py: per exercise, (correct but different, wrong, shortcut).

Each entry replaces the exercise's answer cell in the released student copy. "correct"
answers are written in another style than the model solution; "wrong" ones hold a
plausible mistake; "shortcut" ones reach the answer by a route the statement forbids or
by values that do not depend on the input.
"""

ANSWERS = {
    "01_spectral_clustering": {
        "ch1-ex-ideal-alignment": (
            "def alignment_ceiling_gap(K):\n    lam = np.linalg.eigvalsh(K)\n"
            "    return float(1 - lam[-1] / np.linalg.norm(K, 'fro'))",
            "def alignment_ceiling_gap(K):\n    lam = np.linalg.eigvalsh(K)\n"
            "    return float(1 - np.abs(lam).max() / np.linalg.norm(K))",  # largest in magnitude
            "import types\n_f = types.FunctionType(relaxation.alignment_upper_bound.__code__,\n"
            "                        relaxation.alignment_upper_bound.__globals__)\n"
            "def alignment_ceiling_gap(K):\n    return 1 - _f(K)",  # a FunctionType copy of the library
        ),
        "ch1-ex-cut-bound-general": (
            "from scipy.linalg import null_space\n"
            "def cut_bound_bruteforce(K):\n    B = null_space(np.ones((1, len(K))))\n"
            "    L = np.diag(K.sum(axis=0)) - K\n    return np.linalg.eigvalsh(B.T @ L @ B)[0] / (2 * np.sqrt((K**2).sum()))",
            "def cut_bound_bruteforce(K):\n    L = np.diag(K.sum(1)) - K\n"
            "    return np.linalg.eigvalsh(L)[1] / (2 * np.linalg.norm(K))",  # second smallest of L
            "def cut_bound_bruteforce(K):\n    return relaxation.cut_cost_lower_bound(K)",
        ),
        "ch1-ex-sweep-cut": (
            "def cut_sweep(K, v):\n    m = len(v)\n    d = K.sum(1)\n    idx = np.argsort(-v, kind='stable')\n"
            "    y = -np.ones(m)\n    Ly = d * y - K @ y\n    q = float(y @ Ly)\n    c = 2 * m * np.sqrt((K * K).sum())\n"
            "    res = np.empty(m - 1)\n    for t, p in enumerate(idx[:-1]):\n"
            "        Lp = -K[p].copy()\n        Lp[p] += d[p]\n        q += 4 * Ly[p] + 4 * Lp[p]\n"
            "        Ly += 2 * Lp\n        res[t] = q / c\n    return res",
            "def cut_sweep(K, v):\n    m = len(v)\n    L = np.diag(K.sum(1)) - K\n    order = np.argsort(v)\n"
            "    y = -np.ones(m)\n    out = []\n    for p in order[:-1]:\n        y[p] = 1\n"
            "        out.append(y @ L @ y / (2 * m * np.linalg.norm(K)))\n    return np.array(out)",  # increasing v
            "def cut_sweep(K, v):\n    m = len(v)\n    L = np.diag(K.sum(1)) - K\n    order = np.argsort(-v, kind='stable')\n"
            "    y = -np.ones(m)\n    s = 2 * m * np.linalg.norm(K)\n    out = []\n    for p in order[:-1]:\n"
            "        y[p] = 1\n        out.append(y @ L @ y / s)\n    return np.array(out)",  # O(m^3)
        ),
        "ch1-ex-kp-effect": (
            "def kp_gain(y, z, C0):\n    return C0 * np.dot(z, y) * np.dot(y, z)",
            "def kp_gain(y, z, C0):\n    return C0 * float(z @ y)",
            "def kp_gain(y, z, C0):\n    return 25.0",
        ),
        "ch1-ex-second-eigvec": (
            "def four_way(K):\n    w, V = np.linalg.eigh(K)\n    top = V[:, np.argsort(w)[::-1][:2]]\n"
            "    return (top[:, 0] < 0).astype(int) * 2 + (top[:, 1] < 0)",
            "def four_way(K):\n    w, V = np.linalg.eigh(K)\n    return 2 * (V[:, 0] > 0) + (V[:, 1] > 0)",  # smallest
            "from sklearn.cluster import KMeans\n"
            "def four_way(K):\n    return KMeans(4, n_init=10, random_state=0).fit_predict(K)",
        ),
        "ch1-ex-normalize-why": (
            "def class_mean_norms(X, y):\n    r = np.sqrt((X**2).sum(1))\n"
            "    return np.array([np.mean(r[y == c]) for c in sorted(set(np.asarray(y).tolist()))])\n\n"
            "def norm_threshold_accuracy(X, y):\n    r = np.linalg.norm(X, axis=1)\n    y = np.asarray(y)\n"
            "    best = 0.0\n    for t in np.unique(r):\n        a = np.mean((r > t) == (y == 1))\n"
            "        best = max(best, a, 1 - a)\n    return best",
            "def class_mean_norms(X, y):\n    return np.array([X[y == c].mean(0).sum() for c in np.unique(y)])\n\n"
            "def norm_threshold_accuracy(X, y):\n    return 0.5",
            "def class_mean_norms(X, y):\n    return np.array([1.0, 2.0])\n\n"
            "def norm_threshold_accuracy(X, y):\n    return 1.0",
        ),
    },
    "04_semi_supervised_ksc": {
        "ch4-ex-bordered": (
            "def semi_ksc_bordered(K, y, gamma, rho):\n    n = K.shape[0]\n    d = K.sum(1)\n"
            "    g = gamma / d - rho * (np.asarray(y) != 0)\n"
            "    A = np.block([[np.eye(n) - np.diag(g) @ K, -g[:, None]], [np.ones((1, n)), np.zeros((1, 1))]])\n"
            "    x = np.linalg.lstsq(A, np.append(rho * np.asarray(y, float), 0.0), rcond=None)[0]\n"
            "    return list(x[:n]), float(x[n])",
            "def semi_ksc_bordered(K, y, gamma, rho):\n    n = len(K)\n    g = 1 / K.sum(axis=1) - rho * (y != 0)\n"
            "    B = np.zeros((n + 1, n + 1))\n    B[:n, :n] = np.eye(n) - g[:, None] * K\n    B[:n, n] = -g\n"
            "    B[n, :n] = 1.0\n    sol = np.linalg.solve(B, np.r_[rho * y, 0.0])\n    return sol[:n], sol[n]",  # forgets gamma
            "def semi_ksc_bordered(K, y, gamma, rho):\n    return ksc._solve_fast(K, y, gamma, rho) if hasattr(ksc, '_solve_fast') "
            "else ksc.solve_semi_ksc(K, y, gamma=gamma, rho=rho)",
        ),
        "ch4-ex-ideal": (
            "def ideal_solution(n1, n2, n3):\n    a = [1 / n1] * n1 + [-1 / n2] * n2 + [0.0] * n3\n    return a, 0",
            "def ideal_solution(n1, n2, n3):\n    return np.r_[np.full(n1, 1.0), np.full(n2, -1.0), np.zeros(n3)], 0.0",
            "def ideal_solution(n1, n2, n3):\n"
            "    K = scipy.linalg.block_diag(np.ones((n1, n1)), np.ones((n2, n2)), np.ones((n3, n3)))\n"
            "    y = np.r_[1.0, np.zeros(n1 - 1), -1.0, np.zeros(n2 + n3 - 1)]\n"
            "    return ksc.solve_semi_ksc(K, y, rho=0.5)",
        ),
        "ch4-ex-fisher": (
            "def fisher_by_threshold(a):\n    s = np.sort(np.asarray(a, float))\n    n = len(s)\n"
            "    if np.ptp(s) == 0:\n        return 0.0\n    k = np.arange(1, n)\n    cs = np.cumsum(s)[:-1]\n"
            "    ml, mr = cs / k, (s.sum() - cs) / (n - k)\n    sb = k * (n - k) / n**2 * (ml - mr) ** 2\n"
            "    return float(sb.max() / s.var())",
            "def fisher_by_threshold(a):\n    a = np.asarray(a, float)\n    l, r = a[a < 0], a[a >= 0]\n"
            "    if len(l) == 0 or len(r) == 0 or a.var() == 0:\n        return 0.0\n"
            "    sb = len(l) / len(a) * (l.mean() - a.mean()) ** 2 + len(r) / len(a) * (r.mean() - a.mean()) ** 2\n"
            "    return float(sb / a.var())",  # splits at 0 only
            "def fisher_by_threshold(a):\n    s = np.sort(np.asarray(a, float))\n    n = len(s)\n"
            "    if s.var() == 0:\n        return 0.0\n    best = 0.0\n    for k in range(1, n):\n"
            "        l, r = s[:k], s[k:]\n"
            "        sb = k / n * (l.mean() - s.mean()) ** 2 + (n - k) / n * (r.mean() - s.mean()) ** 2\n"
            "        best = max(best, sb / s.var())\n    return float(best)",  # O(n^2)
        ),
        "ch4-ex-saddle": (
            "def primal_hessian(X, y, gamma, rho):\n    d = (X @ X.T).sum(1)\n    g = gamma / d - rho * (np.asarray(y) != 0)\n"
            "    Z = np.c_[X, np.ones(len(X))]\n    H = -Z.T @ (g[:, None] * Z)\n    H[:-1, :-1] += np.eye(X.shape[1])\n"
            "    return H",
            "def primal_hessian(X, y, gamma, rho):\n    K = X @ X.T\n    g = 1 / K.sum(axis=1) - rho * (y != 0)\n"
            "    top = np.c_[np.eye(X.shape[1]) - X.T @ (g[:, None] * X), -(X.T @ g)]\n"
            "    return np.r_[top, np.c_[-(g @ X)[None, :], [[-g.sum()]]]]",  # forgets gamma
            "def primal_hessian(X, y, gamma, rho):\n    return np.eye(X.shape[1] + 1)",
        ),
        "ch4-ex-lapsvm-svm": (
            "def svm_equivalent_C(gamma_A, l):\n    return (2 * gamma_A * l) ** -1",
            "def svm_equivalent_C(gamma_A, l):\n    return 1.0 / (gamma_A * l)",
            "def svm_equivalent_C(gamma_A, l):\n    return 0.125",
        ),
    },
}
