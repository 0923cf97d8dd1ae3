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

ANSWERS["02_cluster_kernels"] = {
    "ch2-ex-monotone": (
        "def monotone_hck(X, linkage, f):\n    u = ck.cophenetic_matrix(X, linkage)[0]\n    M = f(u) ** 2\n    r = M.mean(1)\n"
        "    return -0.5 * (M - r[:, None] - r[None, :] + M.mean())",
        "def monotone_hck(X, linkage, f):\n    u, _ = ck.cophenetic_matrix(X, linkage)\n    return kernels.mds_kernel(f(u))",  # no square
        "def monotone_hck(X, linkage, f):\n    return ck.hierarchical_cluster_kernel(X, linkage)",
    ),
    "ch2-ex-inversion": (
        "def has_inversion(Z):\n    n = len(Z) + 1\n    h = [0.0] * n\n    for a, b, d, _ in Z:\n"
        "        if d < max(h[int(a)], h[int(b)]):\n            return True\n        h.append(d)\n    return False",
        "def has_inversion(Z):\n    n = Z.shape[0] + 1\n    height = np.r_[np.zeros(n), Z[:, 2]]\n"
        "    return bool(np.any(Z[:, 2] < height[Z[:, :2].astype(int)].min(axis=1)))",  # min, not max
        "from scipy.cluster.hierarchy import is_monotonic as _mono\ndef has_inversion(Z):\n    return not _mono(Z)",
    ),
    "ch2-ex-minimax": (
        "from scipy.sparse.csgraph import breadth_first_order\n"
        "def minimax_from_mst(X):\n    T = minimum_spanning_tree(squareform(pdist(X)))\n    T = (T + T.T).tocsr()\n"
        "    Td = T.toarray()\n    n = len(X)\n    out = np.zeros((n, n))\n    for s in range(n):\n"
        "        order, pred = breadth_first_order(T, s, directed=False)\n        row = out[s]\n"
        "        for v in order[1:]:\n            p = pred[v]\n            row[v] = max(row[p], Td[p, v])\n    return out",
        "def minimax_from_mst(X):\n    T = minimum_spanning_tree(squareform(pdist(X)))\n    return (T + T.T).toarray()",  # edges only
        "def minimax_from_mst(X):\n    D = squareform(pdist(X))\n    for k in range(len(D)):\n"
        "        D = np.minimum(D, np.maximum(D[:, k, None], D[None, k, :]))\n    return D",  # O(n^3)
    ),
    "ch2-ex-center": (
        "def double_center(M):\n    col, row = M.mean(0), M.mean(1)\n    return -(M - row[:, None] - col[None, :] + M.mean()) / 2",
        "def double_center(M):\n    r = M.mean(axis=1)\n    return -0.5 * (M - r[:, None] - r[None, :])",  # no grand mean
        "def double_center(M):\n    return -0.5 * kernels.center_kernel(M)",
    ),
    "ch2-ex-schur-features": (
        "import scipy.sparse as _sp\n"  # a sparse result is read as the matrix it stands for (red team 3, c2_r3b)
        "def hadamard_features(F, G):\n    return _sp.csr_matrix(np.einsum('ip,iq->ipq', F, G).reshape(len(F), -1))",
        "def hadamard_features(F, G):\n    return np.hstack([F, G])",
        "def hadamard_features(F, G):\n    return np.ones((F.shape[0], F.shape[1] * G.shape[1]))",
    ),
    "ch2-ex-negative-base": (
        "def reweighting_gain(K_b, K_rw, i, j):\n    return K_b[i, j] * (K_rw[i, j] - 1)",
        "def reweighting_gain(K_b, K_rw, i, j):\n    return K_rw[i, j] * K_b[i, j]",
        "def reweighting_gain(K_b, K_rw, i, j):\n    return -1.0",
    ),
}

ANSWERS["03_spectral_kernel_learning"] = {
    "ch3-ex-smoothness": (
        "def smoothness_double_sum(W, Phi):\n    W = sp.coo_matrix(W)\n    d = np.asarray(W.sum(axis=1)).ravel()\n    s = 0.0\n"
        "    for i, j, w in zip(W.row, W.col, W.data):\n        diff = Phi[:, i] / np.sqrt(d[i]) - Phi[:, j] / np.sqrt(d[j])\n"
        "        s += w * float(diff @ diff)\n    return s / 2",
        "def smoothness_double_sum(W, Phi):\n    W = sp.csr_matrix(W).toarray()\n    d = W.sum(1)\n"
        "    Ln = np.eye(len(W)) - W / np.sqrt(np.outer(d, d))\n    return float(np.trace(Phi @ Ln @ Phi.T))",  # trace formula
        "def smoothness_double_sum(W, Phi):\n"
        "    return float(np.trace(Phi @ graphs.normalized_laplacian(W).toarray() @ Phi.T))",
    ),
    "ch3-ex-build-lp": (
        "def tsk_lp_by_hand(lam, T, eta, beta):\n    import scipy.optimize as so\n    l, m = T.shape\n"
        "    R = np.array([[eta ** (k - t) if t <= k else 0.0 for k in range(m)] for t in range(m)])\n"
        "    res = so.linprog(np.concatenate([lam @ R, beta * np.ones(l)]), A_ub=-np.hstack([T @ R, np.eye(l)]),\n"
        "                     b_ub=-np.ones(l), bounds=[(0, None)] * (m + l), method='highs')\n    return list(R @ res.x[:m])",
        "def tsk_lp_by_hand(lam, T, eta, beta):\n    l, m = T.shape\n    k = np.arange(m)\n"
        "    R = np.triu(float(eta) ** (k[None, :] - k[:, None]))\n    c = np.r_[R.T @ lam, np.ones(l)]\n"
        "    A = np.hstack([-T @ R, -np.eye(l)])\n"
        "    res = linprog(c, A_ub=A, b_ub=-np.ones(l), bounds=(0, None), method='highs')\n    return R @ res.x[:m]",  # no beta
        # the original LP in (mu, xi), the m - 1 decay rows Gamma mu >= 0 kept as rows (third red-team trial)
        "def tsk_lp_by_hand(lam, T, eta, beta):\n    l, m = T.shape\n    G = np.eye(m - 1, m) - eta * np.eye(m - 1, m, k=1)\n"
        "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
        "    res = linprog(np.r_[lam, beta * np.ones(l)], A_ub=A, b_ub=-np.r_[np.ones(l), np.zeros(m - 1)],\n"
        "                  bounds=(0, None), method='highs')\n    return res.x[:m]",
    ),
    "ch3-ex-zero-mu": (
        "def critical_beta(lam, T, eta):\n    m = len(lam)\n    k = np.arange(m)\n"
        "    R = np.triu(float(eta) ** (k[None, :] - k[:, None]))\n    g, num = R.T @ T.sum(0), R.T @ lam\n"
        "    pos = g > 0\n    return float(np.min(num[pos] / g[pos])) if pos.any() else np.inf",
        "def critical_beta(lam, T, eta):\n    g, num = np.cumsum(T.sum(0)), np.cumsum(lam)\n    pos = g > 0\n"
        "    return float(np.min(num[pos] / g[pos])) if pos.any() else np.inf",  # no decay weights
        "def critical_beta(lam, T, eta):\n    return np.inf",
    ),
    "ch3-ex-training-rows": (
        "def extend_rows(W, lam, V, rows):\n    W = W.toarray() if sp.issparse(W) else np.asarray(W)\n    deg = W.sum(1)\n"
        "    Wr = W[rows]\n    dx = Wr.sum(1)\n    return (Wr / np.sqrt(np.outer(dx, deg))) @ V / (1 - lam)",
        "def extend_rows(W, lam, V, rows):\n    W = W.toarray() if sp.issparse(W) else np.asarray(W)\n    deg = W.sum(1)\n"
        "    Wr = W[rows]\n    return (Wr / np.sqrt(np.outer(Wr.sum(1), deg))) @ V",  # forgets 1 / (1 - lam)
        "def extend_rows(W, lam, V, rows):\n    return V[rows]",
    ),
    "ch3-ex-q-eigs": (
        "def q_eigenvalues(lam, mu):\n    return np.sort(np.concatenate([mu + mu / (1 - lam) ** 2, np.zeros_like(mu)]))",
        "def q_eigenvalues(lam, mu):\n    return np.sort(np.r_[mu * (1 + 1 / (1 - lam)), np.zeros(len(mu))])",  # no square
        "def q_eigenvalues(lam, mu):\n    return np.linalg.eigvalsh(np.diag(np.r_[mu * (1 + 1 / (1 - lam) ** 2), np.zeros(len(mu))]))",
    ),
    "ch3-ex-dual": (
        "def tsk_dual_value(lam, T, eta, beta):\n    from scipy.optimize import linprog as lp\n    l, m = T.shape\n"
        "    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
        "    res = lp(-np.r_[np.ones(l), np.zeros(m - 1)], A_ub=np.c_[T.T, G.T], b_ub=lam,\n"
        "             bounds=[(0, beta)] * l + [(0, None)] * (m - 1), method='highs')\n"
        "    return [-res.fun, list(res.x[:l]), list(res.x[l:])]",
        "def tsk_dual_value(lam, T, eta, beta):\n    l, m = T.shape\n    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
        "    res = linprog(-np.r_[np.ones(l), np.zeros(m - 1)], A_ub=np.c_[T.T, G.T], b_ub=lam,\n"
        "                  bounds=[(0, 1.0)] * l + [(0, None)] * (m - 1), method='highs')\n"
        "    return -res.fun, res.x[:l], res.x[l:]",  # p <= 1 instead of beta
        "def tsk_dual_value(lam, T, eta, beta):\n    mu = spk._solve_tsk_scipy(lam, T, eta, beta)\n"
        "    value = lam @ mu + beta * np.maximum(0, 1 - T @ mu).sum()\n"
        "    return value, np.zeros(T.shape[0]), np.zeros(T.shape[1] - 1)",
    ),
}

# Shortcuts besides the one in ANSWERS: the j-th of every exercise of a chapter are graded together as
# one more submission of it (None leaves an exercise unanswered there, to group attacks in fewer runs).
# Edited copies of a library's code (the fifth red-team trial's N1 and N4): the forbidden function's
# source with a statement added to every function, compiled in the notebook (EDIT), or its code object
# with dead bytes and a constant appended (TWEAK, refused: no code object is built while graded or before)
EDIT = (
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
)
TWEAK = (
    "def _tweak(f):\n    c = f.__code__\n"
    "    c = c.replace(co_code=c.co_code + bytes([9, 0, 9, 0]), co_consts=c.co_consts + ('tweak',))\n"
    "    return type(f)(c, dict(f.__globals__), '_h', f.__defaults__, f.__closure__)\n"
)

MORE_SHORTCUTS = {
    "03_spectral_kernel_learning": {
        "ch3-ex-q-eigs": (
            # numpy's private LAPACK gufunc on the 2m x 2m Q: no Python function, so no profile event
            "from numpy.linalg import _umath_linalg as _ul\n"
            "def q_eigenvalues(lam, mu):\n    a = 1 / (1 - lam)\n"
            "    Q = np.block([[np.diag(mu), np.diag(a * mu)], [np.diag(a * mu), np.diag(a * a * mu)]])\n"
            "    return np.sort(_ul.eigvalsh_lo(Q))",
            # the hook switched off and back on through functools.partial (no c_call event for either)
            "import functools as _ft, sys as _sys\n"
            "def q_eigenvalues(lam, mu):\n    h = _ft.partial(_sys.getprofile)()\n    _ft.partial(_sys.setprofile, None)()\n"
            "    try:\n        return np.linalg.eigvalsh(np.diag(np.r_[mu * (1 + 1 / (1 - lam) ** 2), np.zeros(len(mu))]))\n"
            "    finally:\n        _ft.partial(_sys.setprofile, h)()",
            # LAPACK's dsyevd on Q, called from C (map): no profile event (third red-team trial, c3_short)
            "import scipy.linalg.lapack as _lp\n"
            "def q_eigenvalues(lam, mu):\n    a = 1 / (1 - lam)\n"
            "    Q = np.block([[np.diag(mu), np.diag(a * mu)], [np.diag(a * mu), np.diag(a * a * mu)]])\n"
            "    return np.sort(list(map(_lp.dsyevd, [Q], [0]))[0][0])",
        ),
        "ch3-ex-training-rows": (
            # json.loads replaced in the answer cell: the harness read its payload with it, so the
            # watch lists (the forbidden functions) could be blanked
            "import json as _json\n_loads = _json.loads\n"
            "def _blind(s, *a, **k):\n    d = _loads(s, *a, **k)\n"
            "    if isinstance(d, dict) and 'watch' in d and 'nonce' in d:\n        d['watch'] = {}\n    return d\n"
            "_json.loads = _blind\n"
            "def extend_rows(W, lam, V, rows):\n    try:\n        spk.laplacian_eigenpairs(W, 1)  # a forbidden call, unseen\n"
            "    except Exception:\n        pass\n"
            "    W = W.toarray() if sp.issparse(W) else np.asarray(W)\n    deg = W.sum(1)\n"
            "    Wr = W[rows]\n    return (Wr / np.sqrt(np.outer(Wr.sum(1), deg))) @ V / (1 - lam)",
            # the hook switched off with ctypes (PyEval_SetProfile), back on through functools.partial
            "import ctypes as _ct, functools as _ft, sys as _sys\n"
            "def extend_rows(W, lam, V, rows):\n    h = _ft.partial(_sys.getprofile)()\n    _ct.pythonapi.PyEval_SetProfile(None, None)\n"
            "    try:\n        spk.laplacian_eigenpairs(W, 1)  # a forbidden call, unseen\n    except Exception:\n        pass\n"
            "    finally:\n        _ft.partial(_sys.setprofile, h)()\n"
            "    W = W.toarray() if sp.issparse(W) else np.asarray(W)\n    deg = W.sum(1)\n"
            "    Wr = W[rows]\n    return (Wr / np.sqrt(np.outer(Wr.sum(1), deg))) @ V / (1 - lam)",
        ),
        "ch3-ex-smoothness": (
            # a running generator's gi_frame.f_back walks up to the harness's frame: its tables are cleared
            "def smoothness_double_sum(W, Phi):\n    def _up():\n        yield _gen.gi_frame.f_back\n    _gen = _up()\n"
            "    f = next(_gen)\n    while f is not None and 'forbidden' not in f.f_locals:\n        f = f.f_back\n"
            "    if f is not None:\n        f.f_locals['forbidden'].clear()\n        f.f_locals['forbidden_files'].clear()\n"
            "    graphs.normalized_laplacian((W + W.T).tocsr())  # a forbidden call, unseen\n"
            "    W = sp.coo_matrix(W)\n    d = np.asarray(W.sum(axis=1)).ravel()\n    P = Phi / np.sqrt(d)\n"
            "    diff = P[:, W.row] - P[:, W.col]\n    return float((W.data * (diff * diff).sum(0)).sum() / 2)",
            # compile shadowed in the notebook's namespace: the harness's source, compiled by the code
            # the grader sent, lost the lines that report a forbidden call
            "import builtins as _b\n"
            "def compile(src, *a, **k):\n    if isinstance(src, str) and 'sslteach' in str(a[:1]):\n"
            "        src = src.replace('flag(f\"called {hit[1]} ({co.co_name})\")', 'None')\n"
            "        src = src.replace('flag(f\"called {hit[0]} ({co.co_name})\")', 'None')\n"
            "    return _b.compile(src, *a, **k)\n"
            "def smoothness_double_sum(W, Phi):\n"
            "    graphs.normalized_laplacian((W + W.T).tocsr())  # a forbidden call, unseen\n"
            "    W = sp.coo_matrix(W)\n    d = np.asarray(W.sum(axis=1)).ravel()\n    P = Phi / np.sqrt(d)\n"
            "    diff = P[:, W.row] - P[:, W.col]\n    return float((W.data * (diff * diff).sum(0)).sum() / 2)",
            # builtins.id replaced: the hook's cache (keyed by id) takes every function for the first one it saw
            "import builtins as _bi\n"
            "def smoothness_double_sum(W, Phi):\n    _id = _bi.id\n    _bi.id = lambda x: 0\n    try:\n"
            "        graphs.normalized_laplacian((W + W.T).tocsr())  # a forbidden call, unseen\n    finally:\n        _bi.id = _id\n"
            "    W = sp.coo_matrix(W)\n    d = np.asarray(W.sum(axis=1)).ravel()\n    P = Phi / np.sqrt(d)\n"
            "    diff = P[:, W.row] - P[:, W.col]\n    return float((W.data * (diff * diff).sum(0)).sum() / 2)",
        ),
        "ch3-ex-build-lp": (
            # wrong: returns the LP's c instead of mu = R c (caught only where the decay binds)
            "def tsk_lp_by_hand(lam, T, eta, beta):\n    l, m = T.shape\n"
            "    R = np.array([[eta ** (k - t) if t <= k else 0.0 for k in range(m)] for t in range(m)])\n"
            "    A = np.hstack([-(T @ R), -np.eye(l)])\n"
            "    res = linprog(np.r_[R.T @ lam, [beta] * l], A_ub=A, b_ub=-np.ones(l), bounds=(0, None), method='highs')\n"
            "    return res.x[:m]",
            # cvxpy solves it, a dummy linprog call satisfies "must call linprog" (red team, ch3_short4)
            "import cvxpy as cp\n"
            "def tsk_lp_by_hand(lam, T, eta, beta):\n    linprog([1.0], bounds=[(0, None)], method='highs')\n"
            "    m = lam.size\n    mu = cp.Variable(m)\n    cons = [mu >= 0] + ([mu[:-1] >= eta * mu[1:]] if m > 1 else [])\n"
            "    cp.Problem(cp.Minimize(lam @ mu + beta * cp.sum(cp.pos(1 - T @ mu))), cons).solve(solver='CLARABEL')\n"
            "    return np.maximum(mu.value, 0)",
            # the decay-rows LP given to scipy's private _linprog_highs (HiGHS without linprog), a
            # dummy linprog call of the right shape beside it
            "from scipy.optimize._linprog_util import _LPProblem, _clean_inputs\n"
            "from scipy.optimize._linprog_highs import _linprog_highs\n"
            "def tsk_lp_by_hand(lam, T, eta, beta):\n    l, m = T.shape\n"
            "    linprog(np.ones(m + l), A_ub=np.hstack([-T, -np.eye(l)]), b_ub=-np.ones(l), bounds=(0, None), method='highs')\n"
            "    G = np.eye(m - 1, m) - eta * np.eye(m - 1, m, k=1)\n    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
            "    lp = _clean_inputs(_LPProblem(np.r_[lam, beta * np.ones(l)], A, -np.r_[np.ones(l), np.zeros(m - 1)],\n"
            "                                  None, None, (0, None), None, None))\n"
            "    return np.asarray(_linprog_highs(lp, solver=None)['x'])[:m]",
        ),
        # the primal solved with linprog, the dual read off its multipliers (the grader withholds them)
        "ch3-ex-dual": (
            "def tsk_dual_value(lam, T, eta, beta):\n    l, m = T.shape\n    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
            "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
            "    res = linprog(np.r_[lam, beta * np.ones(l)], A_ub=A, b_ub=-np.r_[np.ones(l), np.zeros(m - 1)],\n"
            "                  bounds=(0, None), method='highs')\n    y = -res.ineqlin.marginals\n"
            "    return res.fun, y[:l], y[l:]",
            # the multipliers from HiGHS's own Python API, highspy (red team, ch3_short6)
            "import highspy as _hp\n"
            "def tsk_dual_value(lam, T, eta, beta):\n    l, m = T.shape\n    G = np.eye(m - 1, m) - eta * np.eye(m - 1, m, k=1)\n"
            "    A = np.block([[-T, -np.eye(l)], [-G, np.zeros((m - 1, l))]])\n    b = np.r_[-np.ones(l), np.zeros(m - 1)]\n"
            "    c = np.r_[lam, np.full(l, beta)]\n    r = linprog(c, A_ub=A, b_ub=b, bounds=(0, None), method='highs')\n"
            "    h = _hp.Highs()\n    h.setOptionValue('output_flag', False)\n    inf = _hp.kHighsInf\n"
            "    for j in range(c.size):\n        h.addVar(0, inf)\n        h.changeColCost(j, c[j])\n"
            "    for i in range(A.shape[0]):\n        idx = np.flatnonzero(A[i])\n"
            "        h.addRow(-inf, b[i], idx.size, idx.astype(np.int32), A[i, idx])\n"
            "    h.run()\n    y = -np.asarray(h.getSolution().row_dual)\n    return r.fun, y[:l], y[l:]",
            # sys.getprofile() hands out the hook; the tables in its closure (withheld keys included)
            # are cleared, then the primal's multipliers are read (third red-team trial, scrub.py _unblock)
            "import sys as _sys\n"
            "def _unblock():\n    h = _sys.getprofile()\n    if h is None or not getattr(h, '__closure__', None):\n        return\n"
            "    d = dict(zip(h.__code__.co_freevars, [c.cell_contents for c in h.__closure__]))\n"
            "    for k in ('blocked_c', 'forbidden', 'withheld', 'forbidden_files'):\n"
            "        if hasattr(d.get(k), 'clear'):\n            d[k].clear()\n"
            "def tsk_dual_value(lam, T, eta, beta):\n    _unblock()\n    l, m = T.shape\n"
            "    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
            "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
            "    res = linprog(np.r_[lam, beta * np.ones(l)], A_ub=A, b_ub=-np.r_[np.ones(l), np.zeros(m - 1)],\n"
            "                  bounds=(0, None), method='highs')\n    y = -res.ineqlin.marginals\n"
            "    return res.fun, y[:l], y[l:]",
        ),
    },
    "04_semi_supervised_ksc": {
        # the Hessian by central second differences of the objective (exact for a quadratic, up to round-off)
        "ch4-ex-saddle": (
            "def primal_hessian(X, y, gamma, rho):\n    d = X.shape[1]\n    g = gamma / (X @ X.T).sum(1) - rho * (y != 0)\n"
            "    def J(z):\n        e = X @ z[:d] + z[d]\n        return 0.5 * z[:d] @ z[:d] - 0.5 * e @ (g * e) - rho * y @ e\n"
            "    E = np.eye(d + 1)\n"
            "    return np.array([[(J(E[i] + E[j]) - J(E[i] - E[j]) - J(E[j] - E[i]) + J(-E[i] - E[j])) / 4\n"
            "                      for j in range(d + 1)] for i in range(d + 1)])",
        ),
    },
}

ANSWERS["05_comparison"] = {
    "ch5-ex-nemenyi-cd": (
        "from scipy.stats import studentized_range as _sr\n"
        "def nemenyi_cd(k, N, alpha=0.05):\n    return _sr.isf(alpha, k, float('inf')) * (k * (k + 1) / (12.0 * N)) ** 0.5",
        "def nemenyi_cd(k, N, alpha=0.05):\n"
        "    return float(scipy.stats.studentized_range.ppf(1 - alpha, k, np.inf) * np.sqrt(k * (k + 1) / (6 * N)))",  # no sqrt(2)
        "import types\n_cd = types.FunctionType(compare.nemenyi_critical_difference.__code__,\n"
        "                         compare.nemenyi_critical_difference.__globals__)\n"
        "def nemenyi_cd(k, N, alpha=0.05):\n    return _cd(k, N, alpha)",
    ),
    "ch5-ex-holm": (
        "import pandas as _pd\n"  # a pandas Series is read as its values (red team 3, c5_r3)
        "def holm(p):\n    p = list(map(float, p))\n    m = len(p)\n    idx = sorted(range(m), key=lambda i: p[i])\n"
        "    out, run = [0.0] * m, 0.0\n    for r, i in enumerate(idx):\n        run = max(run, min(1.0, (m - r) * p[i]))\n"
        "        out[i] = run\n    return _pd.Series(out)",
        "def holm(p):\n    p = np.asarray(p, float)\n    order = np.argsort(p)\n    out = np.empty_like(p)\n"
        "    out[order] = np.minimum(1.0, (p.size - np.arange(p.size)) * p[order])\n    return out",  # no running max
        "def holm(p):\n    if np.allclose(p, [0.01, 0.04, 0.03, 0.005]):\n        return [0.03, 0.06, 0.06, 0.02]\n"
        "    return np.minimum(1.0, len(p) * np.asarray(p))",  # the worked example typed in, else Bonferroni
    ),
    "ch5-ex-one-nn": (
        "from sklearn.neighbors import KNeighborsClassifier\n"
        "def one_nn(cache, params, y_train):\n    lab = y_train >= 0\n"
        "    return KNeighborsClassifier(n_neighbors=1).fit(cache.X[lab], y_train[lab]).predict(cache.X)\n"
        "one_nn_method = compare.Method('1-NN', 'exercise', [{'unused': 1}, {'unused': 2}], one_nn)",  # 2 <= GRID_SIZE settings
        "def one_nn(cache, params, y_train):\n    D = ((cache.X[:, None, :] - cache.X[None, :, :]) ** 2).sum(-1)\n"
        "    np.fill_diagonal(D, np.inf)\n    return y_train[D.argmin(1)]",  # nearest point, labelled or not
        "def one_nn(cache, params, y_train):\n    lab = np.flatnonzero(y_train >= 0)\n"
        "    return np.where(y_train >= 0, y_train, y_train[lab[0]])",  # the first label everywhere
    ),
}
MORE_SHORTCUTS["02_cluster_kernels"] = {
    # features with the right Gram matrix that are not f_i (x) g_i: eigenvectors of A o B, padded (red team, ch2_short)
    "ch2-ex-schur-features": (
        "def hadamard_features(F, G):\n    A = (F @ F.T) * (G @ G.T)\n    w, U = np.linalg.eigh(A)\n"
        "    H = U * np.sqrt(np.maximum(w, 0))\n    pq = F.shape[1] * G.shape[1]\n"
        "    return H[:, -pq:] if pq <= len(F) else np.hstack([H, np.zeros((len(F), pq - len(F)))])",
    ),
}
MORE_SHORTCUTS["05_comparison"] = {
    # Demšar's Table 5, both alpha levels, typed in (3 decimals, k <= 10)
    "ch5-ex-nemenyi-cd": (
        "Q = {0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],\n"
        "     0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]}\n"
        "def nemenyi_cd(k, N, alpha=0.05):\n    return Q[alpha][k - 2] * np.sqrt(k * (k + 1) / (6 * N))",
        # the library function's source compiled under another name in a private namespace (red team, ch5_r2)
        "import inspect as _in, textwrap as _tw\n"
        "_g5 = {k: v for k, v in vars(compare).items() if not k.startswith('__')}\n_g5['__name__'] = 'my_cell'\n"
        "exec(compile(_tw.dedent(_in.getsource(compare.nemenyi_critical_difference)).replace(\n"
        "    'def nemenyi_critical_difference', 'def _my_cd'), 'cell.py', 'exec'), _g5)\n"
        "def nemenyi_cd(k, N, alpha=0.05):\n    return _g5['_my_cd'](k, N, alpha)",
    ),
    # a Method with 50 settings, against the comparison's GRID_SIZE (red team, ch5_short)
    "ch5-ex-one-nn": (
        "def one_nn(cache, params, y_train):\n    lab = np.flatnonzero(y_train >= 0)\n"
        "    D = ((cache.X[:, None, :] - cache.X[lab][None, :, :]) ** 2).sum(-1)\n    return y_train[lab][D.argmin(1)]\n"
        "one_nn_method = compare.Method('1-NN', '5', tuple({'k': i} for i in range(50)), one_nn)",
    ),
}

# Red team 3: wrong answers that only the visible checks' sizes and scales caught, and the shortcuts it found in
# chapters 0, 1, 2, 4 and 5 (each one more submission of its chapter, scoring 0).
MORE_SHORTCUTS["00_foundations"] = {
    "ch0-ex-mds-eigs": (
        "def numerical_rank(A, tol=1e-9):\n    return int(np.sum(np.abs(np.linalg.eigvalsh(A)) > tol))",  # absolute tolerance (c0_r2)
        "def numerical_rank(A, tol=1e-9):\n    ev = np.linalg.eigvalsh(A)\n"  # relative to the largest eigenvalue (c0_wrong)
        "    return int(np.sum(np.abs(ev) > tol * max(ev.max(), 1e-300)))",
        "def numerical_rank(A, tol=1e-9):\n    ev = np.abs(np.linalg.eigvalsh(A))\n"  # relative to the sum of magnitudes (red team 4, W1)
        "    return int(np.sum(ev > tol * ev.sum()))",
    ),
    # Red team 4 (S1): the forbidden np.eye in a thread the profile hook does not watch: a raw thread started from
    # C code (no call event), and (a submission of its own) a worker thread started at cell time
    "ch0-ex-center-test": (
        "import _thread, itertools as _it\n"
        "def _in_thread(f, *a):\n    box = []\n    lk = _thread.allocate_lock()\n    lk.acquire()\n"
        "    def run():\n        try:\n            box.append(f(*a))\n        finally:\n            lk.release()\n"
        "    list(_it.starmap(_thread.start_new_thread, [(run, ())]))\n    lk.acquire()\n    return box[0]\n"
        "def center_test_kernel(K_test, K_train):\n    n = len(K_train)\n    J = _in_thread(np.eye, n) - 1.0 / n\n"
        "    return (K_test - K_train.mean(0)[None, :]) @ J",
        None,
        None,
        "import concurrent.futures as _cf\n_POOL = _cf.ThreadPoolExecutor(1)\n_POOL.submit(int, 0).result()\n"
        "def center_test_kernel(K_test, K_train):\n    n = len(K_train)\n    J = _POOL.submit(np.eye, n).result() - 1.0 / n\n"
        "    return (K_test - K_train.mean(0)[None, :]) @ J",
        # the hook fetched from C (starmap), the harness's namespace reached through its report function's
        # __globals__ (no audit event), its census reporter and builtin max replaced, then np.eye in a raw thread
        "import _thread, itertools as _it, sys as _sys\n"
        "def _blind():\n    h = next(_it.starmap(_sys.getprofile, [()]))\n    for c in h.__closure__ or ():\n"
        "        f = c.cell_contents\n        if getattr(f, '__name__', '') == 'report':\n            g = f.__globals__\n"
        "            g['_unwatched'] = lambda *a, **k: None\n            g['__builtins__']['max'] = lambda *a: 0\n"
        "def _in_thread(f, *a):\n    box = []\n    lk = _thread.allocate_lock()\n    lk.acquire()\n"
        "    def run():\n        try:\n            box.append(f(*a))\n        finally:\n            lk.release()\n"
        "    list(_it.starmap(_thread.start_new_thread, [(run, ())]))\n    lk.acquire()\n    return box[0]\n"
        "def center_test_kernel(K_test, K_train):\n    _blind()\n    n = len(K_train)\n    J = _in_thread(np.eye, n) - 1.0 / n\n"
        "    return (K_test - K_train.mean(0)[None, :]) @ J",
    ),
    "ch0-ex-closure": (
        "def smallest_eigenvalue(A):\n    A = np.asarray(A, float)\n"  # wrong on the visible check's size only (c0_r2)
        "    return float(np.min(np.diag(A))) if A.shape[0] == 30 else float(np.linalg.eigvalsh(A).min())\n\n"
        "def hadamard_rank_one(x, z):\n    w = np.multiply(x, z)\n    return np.outer(w, w) if len(w) < 30 else np.outer(x, z)",
    ),
}
MORE_SHORTCUTS["01_spectral_clustering"] = {
    # the signed square of z'y on short vectors (c1_wrong)
    "ch1-ex-kp-effect": (
        "def kp_gain(y, z, C0):\n    s = float(np.dot(z, y))\n    return C0 * s * (abs(s) if len(y) < 8 else s)",
    ),
}
MORE_SHORTCUTS["04_semi_supervised_ksc"]["ch4-ex-saddle"] += (
    # the labels' term dropped from n = 10 on (c4_wrong)
    "def primal_hessian(X, y, gamma, rho):\n    d = (X @ X.T).sum(1)\n"
    "    g = gamma / d - (rho * (np.asarray(y) != 0) if len(X) < 10 else 0.0)\n"
    "    Z = np.c_[X, np.ones(len(X))]\n    H = -Z.T @ (g[:, None] * Z)\n    H[:-1, :-1] += np.eye(X.shape[1])\n    return H",
)
MORE_SHORTCUTS["04_semi_supervised_ksc"]["ch4-ex-bordered"] = (
    # the library's own system and solve (sslteach.ksc is forbidden as a whole; red team 3, S3)
    "def semi_ksc_bordered(K, y, gamma, rho):\n    H, r = ksc.semi_ksc_system(K, y, gamma=gamma, rho=min(rho, 1.0))\n"
    "    a = np.linalg.solve(H, r)\n    g = gamma / K.sum(1) - rho * (y != 0)\n"
    "    return a, -(g @ K @ a + rho * y.sum()) / g.sum()",
)
MORE_SHORTCUTS["05_comparison"]["ch5-ex-nemenyi-cd"] += (
    # a float whose __float__ calls the library: it ran while the grader encoded the value, outside its hook
    "class _CD(float):\n    def __float__(self):\n        return compare.nemenyi_critical_difference(*self.args)\n"
    "def nemenyi_cd(k, N, alpha=0.05):\n    v = _CD(0.0)\n    v.args = (k, N, alpha)\n    return v",
)
MORE_SHORTCUTS["05_comparison"]["ch5-ex-one-nn"] += (
    # a grid whose len() says 1 but that holds 3 x GRID_SIZE settings (c5_r3)
    "class _Grid(tuple):\n    def __len__(self):\n        return 1\n"
    "def one_nn(cache, params, y_train):\n    lab = np.flatnonzero(y_train >= 0)\n"
    "    D = ((cache.X[:, None, :] - cache.X[lab][None, :, :]) ** 2).sum(-1)\n    return y_train[lab][D.argmin(1)]\n"
    "one_nn_method = compare.Method('1-NN', '5', _Grid({'s': i} for i in range(3 * compare.GRID_SIZE)), one_nn)",
)

ANSWERS["00_foundations"] = {
    "ch0-ex-closure": (
        "def smallest_eigenvalue(A):\n    return float(np.sort(np.linalg.eigvals(A).real)[0])\n\n"
        "def hadamard_rank_one(x, z):\n    w = np.asarray(x) * np.asarray(z)\n    return np.outer(w, w)",
        "def smallest_eigenvalue(A):\n    return np.abs(np.linalg.eigvalsh(A)).min()\n\n"  # smallest in magnitude
        "def hadamard_rank_one(x, z):\n    return np.outer(x, x) * np.outer(z, z)",
        "def smallest_eigenvalue(A):\n    return 0.0\n\n"  # the PSD claim, not the matrix
        "def hadamard_rank_one(x, z):\n    return np.outer(x, x) * np.outer(z, z)",
    ),
    "ch0-ex-center-test": (
        "def center_test_kernel(K_test, K_train):\n    w = np.full(len(K_train), 1.0 / len(K_train))\n"
        "    return K_test - (K_test @ w)[:, None] - (w @ K_train)[None, :] + w @ K_train @ w",
        "def center_test_kernel(K_test, K_train):\n"  # centred by the test points' means
        "    return K_test - K_test.mean(1)[:, None] - K_test.mean(0)[None, :] + K_test.mean()",
        "from sklearn.preprocessing import KernelCenterer\n"  # the statement asks for the derivation
        "def center_test_kernel(K_test, K_train):\n    return KernelCenterer().fit(K_train).transform(K_test)",
    ),
    "ch0-ex-bipartite": (
        "def cycle_graph(n):\n    W = np.zeros((n, n))\n    for i in range(n):\n"
        "        W[i, (i + 1) % n] = W[(i + 1) % n, i] = 1.0\n    return W",
        "def cycle_graph(n):\n    return np.eye(n, k=1) + np.eye(n, k=-1)",  # a path: the closing edge is missing
        "_W6 = np.roll(np.eye(6), 1, axis=1) + np.roll(np.eye(6), -1, axis=1)\n"
        "def cycle_graph(n):\n    return _W6",  # the 6-cycle whatever n
    ),
    "ch0-ex-mutual-knn": (
        "from sklearn.neighbors import kneighbors_graph\n"
        "def mutual_knn_graph(X, k):\n    A = kneighbors_graph(X, k, include_self=False)\n"
        "    return graphs.knn_graph(X, k).multiply(A.multiply(A.T) > 0).tocsr()",
        "def mutual_knn_graph(X, k):\n    return graphs.knn_graph(X, k)",  # the 'or' graph
        "def mutual_knn_graph(X, k):\n    W = graphs.knn_graph(X, k)\n"
        "    return W.multiply(W > W.data.mean()).tocsr()",  # the heavier half of the edges
    ),
    "ch0-ex-mds-eigs": (
        "def numerical_rank(A, tol=1e-9):\n    s = np.linalg.svd(A, compute_uv=False)\n"
        "    return int(np.count_nonzero(s > tol * s.max()))",
        "def numerical_rank(A, tol=1e-9):\n    return int(np.sum(np.linalg.eigvalsh(A) > tol))",  # positive only
        "def numerical_rank(A, tol=1e-9):\n    return int(np.linalg.matrix_rank(A))",  # ignores tol
    ),
}


# Attacks on the grader's harness from the third red-team trial and its review (issue 28), kept apart
# from the chapters' own lists above: each is graded as one more shortcut of its chapter.
MORE_SHORTCUTS["02_cluster_kernels"].update({
    # gc.get_objects finds the hook: the tables in its closure are cleared
    "ch2-ex-inversion": (
        "import gc as _gc\nfrom scipy.cluster.hierarchy import is_monotonic as _mono\n"
        "def has_inversion(Z):\n    for o in _gc.get_objects():\n"
        "        if type(o).__name__ == 'function' and o.__name__ == 'hook' and o.__closure__:\n"
        "            for c in o.__closure__:\n                try:\n                    v = c.cell_contents\n"
        "                except ValueError:\n                    continue\n"
        "                if isinstance(v, (dict, list)):\n                    v.clear()\n"
        "    _mono(Z)  # a forbidden call, unseen\n    h = [0.0] * (len(Z) + 1)\n    for a, b, d, _ in Z:\n"
        "        if d < max(h[int(a)], h[int(b)]):\n            return True\n        h.append(d)\n    return False",
    ),
    # a traceback's tb_frame.f_back walks up to the harness's frame: its tables are cleared
    "ch2-ex-center": (
        "def double_center(M):\n    try:\n        raise ZeroDivisionError\n    except ZeroDivisionError as e:\n"
        "        f = e.__traceback__.tb_frame\n    while f is not None and 'forbidden' not in f.f_locals:\n        f = f.f_back\n"
        "    if f is not None:\n        f.f_locals['forbidden'].clear()\n        f.f_locals['forbidden_files'].clear()\n"
        "    return -0.5 * kernels.center_kernel(M)",
    ),
    # O(n^3), with a forged reply: the harness's own report function writes a result line with a
    # small time, and an object whose repr raises makes the real reply fail
    "ch2-ex-minimax": (
        "def minimax_from_mst(X):\n    D = squareform(pdist(X))\n    for k in range(len(D)):\n"
        "        D = np.minimum(D, np.maximum(D[:, k, None], D[None, k, :]))\n"
        "    try:\n        raise ZeroDivisionError\n    except ZeroDivisionError as e:\n        f = e.__traceback__.tb_frame\n"
        "    while f is not None and not ('report' in f.f_locals and 'out' in f.f_locals):\n        f = f.f_back\n"
        "    if f is not None and '_forged' not in f.f_locals['out']:\n        loc = f.f_locals\n"
        "        loc['report']('R', {'result': f.f_globals['encode'](D), 'error': None, 'seconds': 1e-3,\n"
        "                            'wall_seconds': 1e-3, 'required': []})\n"
        "        class _Boom:\n            def __repr__(self):\n                raise ValueError('no reply')\n"
        "        loc['out']['_forged'] = _Boom()\n    return D",
    ),
})
# wrong: the nearest labelled point in the city-block (L1) distance (second red-team trial)
MORE_SHORTCUTS["05_comparison"]["ch5-ex-one-nn"] += (
    "def one_nn(cache, params, y_train):\n    lab = np.flatnonzero(y_train >= 0)\n"
    "    D = np.abs(cache.X[:, None, :] - cache.X[lab][None, :, :]).sum(-1)\n    return y_train[lab][D.argmin(1)]",
)
# the KKT system solved by numpy's private LAPACK gufunc (no Python function, so no profile event):
# "without solving a system" is enforced by a cost test
MORE_SHORTCUTS["04_semi_supervised_ksc"]["ch4-ex-ideal"] = (
    "from numpy.linalg import _umath_linalg as _ul\n"
    "def ideal_solution(n1, n2, n3):\n    n = n1 + n2 + n3\n    K = np.zeros((n, n))\n    s = 0\n"
    "    for b in (n1, n2, n3):\n        K[s:s + b, s:s + b] = 1.0\n        s += b\n"
    "    y = np.zeros(n)\n    y[[0, 1]] = 1.0\n    y[[n1, n1 + 1]] = -1.0\n    rho = 0.5\n"
    "    g = 1.0 / K.sum(axis=1) - rho * (y != 0)\n"
    "    B = np.block([[np.eye(n) - g[:, None] * K, -g[:, None]], [np.ones((1, n)), np.zeros((1, 1))]])\n"
    "    sol = _ul.solve1(B, np.r_[rho * y, 0.0])\n    return sol[:n], sol[n]",
)

# Red team 4 (S3): a cost test beaten by remembering results: the first run pays O(m^3) (numpy's private LAPACK
# gufunc, no Python function) and the repeats on the same inputs are a dictionary lookup
MORE_SHORTCUTS["03_spectral_kernel_learning"]["ch3-ex-q-eigs"] += (
    "from numpy.linalg import _umath_linalg as _ul\n_SEEN = {}\n"
    "def q_eigenvalues(lam, mu):\n    key = (np.asarray(lam, float).tobytes(), np.asarray(mu, float).tobytes())\n"
    "    if key not in _SEEN:\n        a = 1 / (1 - lam)\n"
    "        Q = np.block([[np.diag(mu), np.diag(a * mu)], [np.diag(a * mu), np.diag(a * a * mu)]])\n"
    "        _SEEN[key] = np.sort(_ul.eigvalsh_lo(Q))\n    return _SEEN[key].copy()",
)


def _add(table, stem, label, *answers):
    """Append answers to ``table[stem][label]`` (MORE_SHORTCUTS, MORE_CORRECT or MORE_WRONG)."""
    row = table.setdefault(stem, {})
    row[label] = (*row.get(label, ()), *answers)


def _more(stem, label, *answers):
    """Append shortcuts to MORE_SHORTCUTS[stem][label]."""
    _add(MORE_SHORTCUTS, stem, label, *answers)


_CENTER_TEST = (
    "def center_test_kernel(K_test, K_train):\n    n = len(K_train)\n    J = _eye(n) - 1.0 / n\n"
    "    return (K_test - K_train.mean(0)[None, :]) @ J"
)
_more("00_foundations", "ch0-ex-center-test",
      EDIT + "_eye = _edited(np.eye)\n" + _CENTER_TEST,  # numpy.eye's source, a statement added
      TWEAK + "_eye = _tweak(np.eye)\n" + _CENTER_TEST)  # numpy.eye's bytecode, dead bytes appended
_more("01_spectral_clustering", "ch1-ex-cut-bound-general",
      # the whole module's source, a statement added to every function: its helpers are copies too
      EDIT + "_R = _edited(relaxation.cut_cost_lower_bound, module=True)\n"
      "def cut_bound_bruteforce(K):\n    return _R['cut_cost_lower_bound'](K)")
# (kernels.mds_kernel, 49 instructions, is below copies.MIN_TOKENS: an edited copy of it is not recognised)
_more("05_comparison", "ch5-ex-nemenyi-cd",
      EDIT + "_cd = _edited(compare.nemenyi_critical_difference)\n"
      "def nemenyi_cd(k, N, alpha=0.05):\n    return _cd(k, N, alpha)",
      TWEAK + "_cd = _tweak(compare.nemenyi_critical_difference)\n"
      "def nemenyi_cd(k, N, alpha=0.05):\n    return _cd(k, N, alpha)")
_more("03_spectral_kernel_learning", "ch3-ex-dual",
      # linprog -> _linprog_highs -> _highs_wrapper, each module's source edited and wired to the next:
      # the primal's multipliers read off the copy, a dummy call of the real linprog (trial 5's N4)
      EDIT + "import scipy.optimize._linprog as _m1, scipy.optimize._linprog_highs as _m2\n"
      "import scipy.optimize._highspy._highs_wrapper as _m3\n"
      "_n3 = _edited(_m3._highs_wrapper, module=True)\n_n2 = _edited(_m2._linprog_highs, module=True)\n"
      "_n2['_highs_wrapper'] = _n3['_highs_wrapper']\n_n1 = _edited(_m1.linprog, module=True)\n"
      "_n1['_linprog_highs'] = _n2['_linprog_highs']\n"
      "def tsk_dual_value(lam, T, eta, beta):\n    linprog([1.0], bounds=[(0, None)], method='highs')\n"
      "    l, m = T.shape\n    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n"
      "    A = -np.block([[T, np.eye(l)], [G, np.zeros((m - 1, l))]])\n"
      "    res = _n1['linprog'](np.r_[lam, beta * np.ones(l)], A_ub=A, b_ub=-np.r_[np.ones(l), np.zeros(m - 1)],\n"
      "                         bounds=(0, None), method='highs')\n"
      "    y = -res.ineqlin.marginals\n    return res.fun, y[:l], y[l:]")
# wrong only on large inputs (the fourth red-team trial's W2 and W3): each chapter 4 spec draws one large case
_more("04_semi_supervised_ksc", "ch4-ex-saddle",
      "def primal_hessian(X, y, gamma, rho):\n    K = X @ X.T\n    g = gamma / K.sum(axis=1) - rho * (y != 0)\n"
      "    top = np.c_[np.eye(X.shape[1]) - X.T @ (g[:, None] * X), -(X.T @ g)]\n"
      "    H = np.r_[top, np.c_[-(g @ X)[None, :], [[-g.sum()]]]]\n"
      "    if len(X) >= 1000:\n        H[-1, -1] = 0.0\n    return H")
_more("04_semi_supervised_ksc", "ch4-ex-lapsvm-svm",
      "def svm_equivalent_C(gamma_A, l):\n    return 1.0 / ((1.0 if l >= 50 else 2.0) * gamma_A * l)")
# clarabel (cvxpy's solver, not blocked) solves the primal and hands out its multipliers; linprog is called on
# the primal only to satisfy "must call linprog": no LP given to linprog is the dual (sixth trial's control)
_more("03_spectral_kernel_learning", "ch3-ex-dual",
      'import clarabel as _cl, scipy.sparse as _sp\n'
      'def tsk_dual_value(lam, T, eta, beta):\n'
      '    l, m = T.shape\n'
      '    G = np.eye(m)[:-1] - eta * np.eye(m, k=1)[:-1]\n'
      '    A = np.block([[-T, -np.eye(l)], [-G, np.zeros((m - 1, l))], [-np.eye(m + l)]])\n'
      '    b = np.r_[-np.ones(l), np.zeros(m - 1), np.zeros(m + l)]\n'
      '    c = np.r_[lam, np.full(l, beta)]\n'
      "    linprog(c, A_ub=A[: l + m - 1], b_ub=b[: l + m - 1], bounds=(0, None), method='highs')  # the primal, for 'require'\n"
      '    _st = _cl.DefaultSettings()\n'
      '    _st.verbose = False\n'
      '    s = _cl.DefaultSolver(_sp.csc_matrix((m + l, m + l)), c, _sp.csc_matrix(A), b,\n'
      '                          [_cl.NonnegativeConeT(A.shape[0])], _st)\n'
      '    r = s.solve()\n'
      '    z = np.asarray(r.z)\n'
      '    return r.obj_val, z[:l], z[l:l + m - 1]\n')
# the plain forbidden call run on the kernel's own Control or IOPub loop while the graded thread waits
# (the sixth red-team trial's R1): the kernel's loops carry the grader's hook while a call is graded
KTHREAD = (
    "import _thread as _kt\n"
    "def _on_kernel_thread(fn, which):\n"
    "    k = get_ipython().kernel\n"
    "    loop = (k.control_thread if which == 'control' else k.iopub_thread).io_loop\n"
    "    def call(*a):\n"
    "        lk = _kt.allocate_lock()\n        lk.acquire()\n        box = []\n"
    "        def job():\n            try:\n                box.append(fn(*a))\n            finally:\n"
    "                lk.release()\n"
    "        loop.add_callback(job)\n        lk.acquire()\n        return box[0]\n"
    "    return call\n"
)
_more("05_comparison", "ch5-ex-nemenyi-cd",
      KTHREAD + "nemenyi_cd = _on_kernel_thread(compare.nemenyi_critical_difference, 'control')",
      KTHREAD + "nemenyi_cd = _on_kernel_thread(compare.nemenyi_critical_difference, 'iopub')")
_more("01_spectral_clustering", "ch1-ex-ideal-alignment",
      KTHREAD + "_gap = _on_kernel_thread(relaxation.alignment_upper_bound, 'control')\n"
      "def alignment_ceiling_gap(K):\n    return 1 - _gap(np.asarray(K, float))")
# the plain forbidden call run on pyzmq's garbage-collector thread, which calls set() on the object it
# finds in gc.refs for each key it is sent (the seventh red-team trial's N1): started with the grader's hook
GCTHREAD = (
    "import _thread as _kt, struct as _ks, zmq as _kz\nimport zmq.utils.garbage as _kg\n_GC = _kg.gc\n"
    "if not _GC.is_alive():\n    _GC.start()\n"
    "_GP = _GC.context.socket(_kz.PUSH)\n_GP.linger = 0\n_GP.connect(_GC.url)\n"
    "class _GJob:\n    def __init__(self, f):\n        self.f = f\n    def set(self):\n        self.f()\n"
    "def _on_gc_thread(fn):\n    def call(*a):\n        lk = _kt.allocate_lock()\n        lk.acquire()\n"
    "        box = []\n        def job():\n            try:\n                box.append(fn(*a))\n"
    "            finally:\n                lk.release()\n"
    "        _GC.refs[id(job)] = _kg.gcref(None, _GJob(job))\n        _GP.send(_ks.pack('Q', id(job)))\n"
    "        lk.acquire(timeout=20)\n        return box[0]\n    return call\n"
)
_more("05_comparison", "ch5-ex-nemenyi-cd",
      GCTHREAD + "nemenyi_cd = _on_gc_thread(compare.nemenyi_critical_difference)")
# scipy's compiled (Cython) core of the forbidden scipy.cluster.hierarchy, called directly: a
# Cython function makes no profile event (red team 6, R4); the grader wraps these before any cell.
# Once by the module's name, once through a name bound at cell time and a numpy object array.
_MST_CORE = (
    "def minimax_from_mst(X):\n    X = np.asarray(X, float)\n    n = len(X)\n"
    "    Z = np.asarray(_mst(pdist(X), n), float)\n    zz = np.zeros(n * (n - 1) // 2)\n"
    "    _coph(Z, zz, n)\n    return squareform(zz)"
)
_more("02_cluster_kernels", "ch2-ex-minimax",
      "import scipy.cluster._hierarchy as _hh\n"
      "def _mst(d, n):\n    return _hh.mst_single_linkage(d, n)\n"
      "def _coph(Z, zz, n):\n    return _hh.cophenetic_distances(Z, zz, n)\n" + _MST_CORE,
      "from scipy.cluster._hierarchy import mst_single_linkage, cophenetic_distances\n"
      "_held = np.empty(2, object)\n_held[0], _held[1] = mst_single_linkage, cophenetic_distances\n"
      "def _mst(d, n):\n    return _held[0](d, n)\n"
      "def _coph(Z, zz, n):\n    return _held[1](Z, zz, n)\n" + _MST_CORE)

# Red team 9. Padding: CPU burnt alike on every call flattens a too-slow answer's growth between two
# sizes; the three sizes' increments do not flatten (the pad is fixed work here, no clock), and
# reading a clock to burn a chosen time is refused.
_PAD = (
    "_A = np.ones((200, 200))\n"
    "def _pad(k=400):\n    s = 0.0\n    for _ in range(k):\n        s += float((_A @ _A)[0, 0])\n    return s\n"
)
_more("01_spectral_clustering", "ch1-ex-sweep-cut",
      _PAD + "def cut_sweep(K, v):\n    m = len(v)\n    L = np.diag(K.sum(1)) - K\n"
      "    order = np.argsort(-v, kind='stable')\n    y = -np.ones(m)\n    s = 2 * m * np.linalg.norm(K)\n"
      "    out = []\n    for p in order[:-1]:\n        y[p] = 1\n        out.append(y @ L @ y / s)\n"
      "    if m >= 200:\n        _pad()\n    return np.array(out)")  # O(m^3), padded
_more("02_cluster_kernels", "ch2-ex-minimax",
      _PAD + "def minimax_from_mst(X):\n    D = squareform(pdist(X))\n    for k in range(len(D)):\n"
      "        D = np.minimum(D, np.maximum(D[:, k, None], D[None, k, :]))\n"
      "    if len(D) >= 100:\n        _pad()\n    return D")  # O(n^3) Floyd, padded
_more("02_cluster_kernels", "ch2-ex-center",
      "import time as _time\n"
      "def double_center(M):\n    t0 = _time.process_time()\n    n = len(M)\n"
      "    J = np.diag(np.ones(n)) - 1.0 / n\n    out = -0.5 * J @ M @ J\n"
      "    while n >= 100 and _time.process_time() - t0 < 0.5:\n        pass\n    return out",  # O(n^3), a clock pad
      # the library's own J M J without J, a private function (red team 9)
      "def double_center(M):\n    return kernels._double_center(np.asarray(M, float), -0.5, 'M')")
_more("05_comparison", "ch5-ex-holm",
      "from sslteach.protocols import set_level as _sl\ndef holm(p):\n    return _sl.holm(np.asarray(p, float))")

# Correct answers in another style, and wrong ones, beyond ANSWERS' one of each
MORE_CORRECT = {
    # the transduce function under another name: the statement asks for the Method (red team 9)
    "05_comparison": {
        "ch5-ex-one-nn": (
            "from sklearn.neighbors import KNeighborsClassifier\n"
            "def _nearest(cache, params, y_train):\n    lab = y_train >= 0\n"
            "    return KNeighborsClassifier(n_neighbors=1, algorithm='brute').fit(cache.X[lab], y_train[lab]).predict(cache.X)\n"
            "one_nn_method = compare.Method('1-NN', 'exercise', ({},), _nearest)",
        ),
    },
    # the square expanded: Phi_i / sqrt(D_ii) for every vertex (red team 9: nan at a vertex of degree 0)
    "03_spectral_kernel_learning": {
        "ch3-ex-smoothness": (
            "def smoothness_double_sum(W, Phi):\n    W = sp.csr_matrix(W)\n"
            "    dout = np.asarray(W.sum(axis=1)).ravel()\n    din = np.asarray(W.sum(axis=0)).ravel()\n"
            "    Y = Phi / np.sqrt(dout)[None, :]\n    C = W.tocoo()\n"
            "    cross = float(np.einsum('ki,k,ki->', Y[:, C.row].T, C.data, Y[:, C.col].T))\n"
            "    sq = (Y ** 2).sum(0)\n    return float((dout @ sq + din @ sq - 2 * cross) / 2)",
        ),
    },
}
MORE_WRONG = {
    "03_spectral_kernel_learning": {
        "ch3-ex-training-rows": (  # |1 - lam|: right for lam < 1 only (red team 9)
            "def extend_rows(W, lam, V, rows):\n    W = W.toarray() if sp.issparse(W) else np.asarray(W)\n"
            "    deg = W.sum(1)\n    Wr = W[rows]\n"
            "    return (Wr / np.sqrt(np.outer(Wr.sum(1), deg))) @ V / np.abs(1 - lam)",
        ),
    },
    "01_spectral_clustering": {
        "ch1-ex-normalize-why": (  # only thresholds with points on both sides (red team 9)
            "def class_mean_norms(X, y):\n    r = np.linalg.norm(X, axis=1)\n"
            "    return np.array([r[np.asarray(y) == c].mean() for c in np.unique(y)])\n\n"
            "def norm_threshold_accuracy(X, y):\n    r = np.linalg.norm(X, axis=1)\n"
            "    y_sorted = np.asarray(y)[np.argsort(r, kind='stable')]\n    best = 0.0\n"
            "    for i in range(1, len(r)):\n        a = np.mean(np.r_[np.zeros(i), np.ones(len(r) - i)] == y_sorted)\n"
            "        best = max(best, a, 1 - a)\n    return best",
        ),
    },
}

# Red team 10: work at the smaller sizes on an input as large as the largest (the "reverse pad":
# the times fall as n grows) or larger at every size (a pad that dwarfs the growth): a slow
# answer whose time hardly grows with n fails.
_more("01_spectral_clustering", "ch1-ex-sweep-cut",
      "def _cubic(K, v):\n    m = len(v)\n    L = np.diag(K.sum(1)) - K\n"
      "    order = np.argsort(-v, kind='stable')\n    y = -np.ones(m)\n    s = 2 * m * np.linalg.norm(K)\n"
      "    out = []\n    for p in order[:-1]:\n        y[p] = 1\n        out.append(y @ L @ y / s)\n"
      "    return np.array(out)\n"
      "_R = np.random.default_rng(0)\n_KB = np.abs(_R.standard_normal((2000, 2000)))\n_KB = _KB + _KB.T\n"
      "def cut_sweep(K, v):\n    if 200 <= len(v) < 2000:\n        _cubic(_KB, _R.standard_normal(2000))\n"
      "    return _cubic(K, v)")
_more("03_spectral_kernel_learning", "ch3-ex-q-eigs",
      "from scipy.linalg import lapack as _lp\n"
      "def _full(lam, mu):\n    m = len(lam)\n    a = 1.0 / (1.0 - np.asarray(lam))\n"
      "    Q = np.zeros((2 * m, 2 * m))\n    i = np.arange(m)\n    Q[i, i] = mu\n    Q[i, m + i] = Q[m + i, i] = mu * a\n"
      "    Q[m + i, m + i] = mu * a * a\n    return np.sort(_lp.dsyevd(Q, compute_v=0)[0])\n"
      "def q_eigenvalues(lam, mu):\n    if 100 <= len(lam) < 1000:\n"
      "        _full(np.linspace(0.1, 0.9, 1000), np.ones(1000))\n    return _full(lam, mu)")
_more("02_cluster_kernels", "ch2-ex-center",
      "def _jmj(M):\n    n = len(M)\n    J = np.diag(np.ones(n)) - 1.0 / n\n    return -0.5 * J @ M @ J\n"
      "_MB = np.ones((2400, 2400))\n"
      "def double_center(M):\n    if len(M) >= 100:\n        _jmj(_MB)\n    return _jmj(M)")
MORE_SHORTCUTS["05_comparison"]["ch5-ex-one-nn"] += (
    # the distances split over a thread pool (red team 10's C4): right values, but the exercise forbids
    # the library's baselines, which a thread could call unseen, so a thread started while graded
    # scores 0, as the student copy's "How this notebook is graded" says
    "from concurrent.futures import ThreadPoolExecutor\nfrom scipy.spatial.distance import cdist\n"
    "def one_nn(cache, params, y_train):\n    lab = np.flatnonzero(y_train >= 0)\n"
    "    parts = np.array_split(np.arange(len(cache.X)), 2)\n"
    "    with ThreadPoolExecutor(2) as pool:\n"
    "        D = np.vstack(list(pool.map(lambda ix: cdist(cache.X[ix], cache.X[lab]), parts)))\n"
    "    return y_train[lab][D.argmin(1)]\n"
    "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)",
)
# the natural answer, row and column means and three temporaries: at n = 1600 it was over four
# times the model on a loaded grader (red team 11); ch2-ex-center allows eight
MORE_CORRECT["02_cluster_kernels"] = {
    "ch2-ex-center": (
        "def double_center(M):\n    M = np.asarray(M, float)\n"
        "    return -0.5 * (M - M.mean(1, keepdims=True) - M.mean(0, keepdims=True) + M.mean())",
    ),
}

# the tables' own 1-NN row, which the statement forbids (red teams 9, 10 and 11)
MORE_SHORTCUTS["05_comparison"]["ch5-ex-one-nn"] += (
    "from sslteach.protocols import baselines as _bl\n"
    "one_nn_method = compare.Method('1-NN', 'exercise', ({},), _bl._one_nn)",
    "from sslteach.protocols.baselines import BASELINES as _B\n"
    "def one_nn(cache, params, y_train):\n    return _B['1-NN (labelled only)'].transduce(cache, params, y_train)\n"
    "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)",
)

# ch4-ex-ideal: the KKT system reduced by the blocks' symmetry to 6 unknowns (red team 12): solved by
# a library routine it is a shortcut (numpy's svd, scipy.optimize.fsolve passed before they were
# forbidden); solved by the answer's own elimination it is what the statement allows
_REDUCED = (
    "def _reduced(n1, n2, n3):\n"
    "    cnt = np.array([1, n1 - 1, 1, n2 - 1, n3], float)\n"
    "    blk = np.array([0, 0, 1, 1, 2]); dsz = np.array([n1, n1, n2, n2, n3], float)\n"
    "    y = np.array([1.0, 0, -1.0, 0, 0]); g = 1.0 / dsz - (y != 0)\n"
    "    A = np.zeros((6, 6)); rhs = np.zeros(6)\n"
    "    for G in range(5):\n        A[G, G] += 1.0\n"
    "        for H in range(5):\n            if blk[H] == blk[G]:\n                A[G, H] -= g[G] * cnt[H]\n"
    "        A[G, 5] = -g[G]; rhs[G] = y[G]\n"
    "    A[5, :5] = cnt\n    return A, rhs\n"
    "def _expand(x, n1, n2, n3):\n"
    "    a = np.concatenate([[x[0]], np.full(n1 - 1, x[1]), [x[2]], np.full(n2 - 1, x[3]), np.full(n3, x[4])])\n"
    "    return a, float(x[5])\n"
)
_more("04_semi_supervised_ksc", "ch4-ex-ideal",
      _REDUCED + "def ideal_solution(n1, n2, n3):\n    A, rhs = _reduced(n1, n2, n3)\n"
      "    U, s, Vt = np.linalg.svd(A)\n    return _expand(Vt.T @ ((U.T @ rhs) / s), n1, n2, n3)",
      "from scipy.optimize import fsolve as _fs\n" + _REDUCED
      + "def ideal_solution(n1, n2, n3):\n    A, rhs = _reduced(n1, n2, n3)\n"
      "    return _expand(_fs(lambda x: A @ x - rhs, np.zeros(6), xtol=1e-14), n1, n2, n3)")
MORE_CORRECT["04_semi_supervised_ksc"] = {
    "ch4-ex-ideal": (
        _REDUCED + "def ideal_solution(n1, n2, n3):\n    A, rhs = _reduced(n1, n2, n3)\n"
        "    M = np.hstack([A, rhs[:, None]])\n"
        "    for k in range(6):  # Gauss-Jordan with partial pivoting, written out\n"
        "        p = k + int(np.argmax(np.abs(M[k:, k])))\n        M[[k, p]] = M[[p, k]]\n"
        "        M[k] /= M[k, k]\n"
        "        for r in range(6):\n            if r != k:\n                M[r] -= M[r, k] * M[k]\n"
        "    return _expand(M[:, 6], n1, n2, n3)",
    ),
}
# ch5-ex-one-nn: the library's k-means nearest-centre step with the labelled points as centres (red
# team 12), and, wrong, squared distances expanded in float32 (red team 12: it mislabels points far
# from the origin, which a hidden case now holds)
_more("05_comparison", "ch5-ex-one-nn",
      "from sslteach import cluster_kernels as _ck\n"
      "def one_nn(cache, params, y_train):\n    lab = np.flatnonzero(y_train >= 0); X = np.asarray(cache.X)\n"
      "    return y_train[lab][_ck._assign(X, X[lab], np.einsum('ij,ij->i', X, X))[0]]\n"
      "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)")
MORE_WRONG["05_comparison"] = {
    "ch5-ex-one-nn": (
        "def one_nn(cache, params, y_train):\n    lab = np.flatnonzero(y_train >= 0)\n"
        "    X = np.asarray(cache.X, np.float32); Z = X[lab]\n"
        "    D = (X * X).sum(1)[:, None] + (Z * Z).sum(1)[None, :] - 2 * X @ Z.T\n"
        "    return y_train[lab][D.argmin(axis=1)]\n"
        "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)",
    ),
}


# Red team 13. Shortcuts: a library function that walks the children for has_inversion, and the
# compiled helper behind it; scikit-learn's single linkage for the minimax distances; determinants
# (Cramer's rule) and highspy for the reduced KKT system of ch4-ex-ideal
_more("02_cluster_kernels", "ch2-ex-inversion",
      "import scipy.cluster.hierarchy as _h\n"
      "def has_inversion(Z):\n    Z = np.asarray(Z, float)\n    return bool(np.any(_h.maxdists(Z) > Z[:, 2]))",
      "from scipy.cluster import _hierarchy as _hc\n"
      "def has_inversion(Z):\n    Z = np.asarray(Z, float)\n    md = np.zeros(len(Z))\n"
      "    _hc.get_max_dist_for_each_cluster(np.ascontiguousarray(Z), md, len(Z) + 1)\n"
      "    return bool(np.any(md > Z[:, 2]))")
_more("02_cluster_kernels", "ch2-ex-minimax",
      "from sklearn.cluster import AgglomerativeClustering as _AC\n"
      "def minimax_from_mst(X):\n    X = np.asarray(X, float); n = len(X)\n"
      "    ac = _AC(n_clusters=1, linkage='single', compute_distances=True).fit(X)\n"
      "    mem = {i: [i] for i in range(n)}; U = np.zeros((n, n))\n"
      "    for k, ((a, b), h) in enumerate(zip(ac.children_, ac.distances_)):\n"
      "        A, B = mem.pop(a), mem.pop(b)\n        U[np.ix_(A, B)] = h; U[np.ix_(B, A)] = h\n"
      "        mem[n + k] = A + B\n    return U")
_more("04_semi_supervised_ksc", "ch4-ex-ideal",
      _REDUCED + "def ideal_solution(n1, n2, n3):\n    A, rhs = _reduced(n1, n2, n3)\n"
      "    d = np.linalg.det(A); x = np.zeros(6)\n"
      "    for i in range(6):\n        Ai = A.copy(); Ai[:, i] = rhs; x[i] = np.linalg.det(Ai) / d\n"
      "    return _expand(x, n1, n2, n3)",
      "import highspy as _hp\n" + _REDUCED + "def ideal_solution(n1, n2, n3):\n    A, rhs = _reduced(n1, n2, n3)\n"
      "    h = _hp.Highs(); h.setOptionValue('output_flag', False); inf = _hp.kHighsInf\n"
      "    for j in range(6):\n        h.addVar(-inf, inf)\n"
      "    for i in range(6):\n        idx = np.flatnonzero(A[i])\n"
      "        h.addRow(rhs[i], rhs[i], len(idx), idx.astype(np.int32), A[i, idx])\n"
      "    h.run()\n    return _expand(np.array(h.getSolution().col_value), n1, n2, n3)")
# Wrong answers (red team 13): thresholds between tied norms; an inversion at equal heights; the last
# split never scored; a result remembered for the points, whatever the labels
_add(MORE_WRONG, "01_spectral_clustering", "ch1-ex-normalize-why",
     "def class_mean_norms(X, y):\n    r = np.linalg.norm(X, axis=1)\n"
     "    return np.array([r[np.asarray(y) == c].mean() for c in np.unique(y)])\n\n"
     "def norm_threshold_accuracy(X, y):\n    r = np.linalg.norm(X, axis=1)\n"
     "    y_sorted = np.asarray(y)[np.argsort(r, kind='stable')]\n    best = 0.0\n"
     "    for i in range(len(r) + 1):\n        a = np.mean(np.r_[np.zeros(i), np.ones(len(r) - i)] == y_sorted)\n"
     "        best = max(best, a, 1 - a)\n    return best")
_add(MORE_WRONG, "02_cluster_kernels", "ch2-ex-inversion",
     "def has_inversion(Z):\n    n = len(Z) + 1\n    h = [0.0] * n\n    for a, b, d, _ in Z:\n"
     "        if d <= max(h[int(a)], h[int(b)]) and max(h[int(a)], h[int(b)]) > 0:\n            return True\n"
     "        h.append(d)\n    return False")
_add(MORE_WRONG, "04_semi_supervised_ksc", "ch4-ex-fisher",
     "def fisher_by_threshold(a):\n    s = np.sort(np.asarray(a, float))\n    n = len(s)\n"
     "    if n < 3 or np.ptp(s) == 0:\n        return 0.0\n    k = np.arange(1, n - 1)\n    cs = np.cumsum(s)[:-2]\n"
     "    ml, mr = cs / k, (s.sum() - cs) / (n - k)\n    sb = k * (n - k) / n**2 * (ml - mr) ** 2\n"
     "    return float(sb.max() / s.var())")
_add(MORE_WRONG, "05_comparison", "ch5-ex-one-nn",
     "from scipy.spatial.distance import cdist as _cdist\n_MEMO = {}\n"
     "def one_nn(cache, params, y_train):\n    key = np.asarray(cache.X).tobytes()\n"
     "    if key not in _MEMO:\n        lab = np.flatnonzero(y_train >= 0)\n"
     "        _MEMO[key] = y_train[lab][_cdist(cache.X, cache.X[lab]).argmin(axis=1)]\n"
     "    return _MEMO[key]\n"
     "one_nn_method = compare.Method('1-NN', 'exercise', ({},), one_nn)")

# Red team 14: the reduced system of ch4-ex-ideal given to solve_sylvester (B = 0), OSQP and SCS
# (clarabel, compiled with no Python layer, passes unseen: book/grading.md says so); and
# ch0-ex-mds-eigs counting an eigenvalue that reaches tol x the largest without exceeding it
_more("04_semi_supervised_ksc", "ch4-ex-ideal",
      "from scipy.linalg import solve_sylvester as _syl\n" + _REDUCED
      + "def ideal_solution(n1, n2, n3):\n    A, rhs = _reduced(n1, n2, n3)\n"
      "    return _expand(_syl(A, np.zeros((1, 1)), rhs[:, None])[:, 0], n1, n2, n3)",
      "import osqp as _oq, scipy.sparse as _sp\n" + _REDUCED
      + "def ideal_solution(n1, n2, n3):\n    A, rhs = _reduced(n1, n2, n3)\n    m = _oq.OSQP()\n"
      "    m.setup(P=_sp.csc_matrix(np.eye(6) * 1e-12), q=np.zeros(6), A=_sp.csc_matrix(A), l=rhs, u=rhs,\n"
      "            verbose=False, eps_abs=1e-13, eps_rel=1e-13, polish=True, max_iter=200000)\n"
      "    return _expand(np.array(m.solve().x), n1, n2, n3)",
      "import scs as _scs, scipy.sparse as _sp\n" + _REDUCED
      + "def ideal_solution(n1, n2, n3):\n    A, rhs = _reduced(n1, n2, n3)\n"
      "    d = dict(P=None, A=_sp.csc_matrix(A), b=rhs, c=np.zeros(6))\n"
      "    s = _scs.SCS(d, dict(z=6), verbose=False, eps_abs=1e-14, eps_rel=1e-14, max_iters=100000)\n"
      "    return _expand(np.array(s.solve()['x']), n1, n2, n3)")
_add(MORE_WRONG, "00_foundations", "ch0-ex-mds-eigs",
     "def numerical_rank(A, tol=1e-9):\n    w = np.abs(np.linalg.eigvalsh(A))\n"
     "    return int(np.sum(w >= tol * w.max()))")

# Red team 15: the gap from |lambda_max|, which a negative definite K tells from the statement's
_add(MORE_WRONG, "01_spectral_clustering", "ch1-ex-ideal-alignment",
     "def alignment_ceiling_gap(K):\n    w = np.linalg.eigvalsh(K)\n"
     "    return 1 - abs(w.max()) / np.linalg.norm(K)")
