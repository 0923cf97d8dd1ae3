"""sslteach.teach.copies: edited copies of forbidden functions, recognised in the grader's process."""

import ast
import inspect
import random
import textwrap

import numpy as np
import pytest

from sslteach.protocols import comparison
from sslteach.teach import _kernel_harness as codec
from sslteach.teach import copies


def _lcs_dp(a, b):
    """The textbook dynamic programme (an independent formulation of lcs_length)."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def test_lcs_length_matches_the_dynamic_programme():
    rng = random.Random(0)
    for _ in range(500):
        a = [rng.randrange(5) for _ in range(rng.randrange(0, 90))]  # beyond one 64-bit word
        b = [rng.randrange(5) for _ in range(rng.randrange(0, 90))]
        assert copies.lcs_length(a, b) == _lcs_dp(a, b)


def _edited(fn, *, rename=True, pad=True):
    """``fn``'s source with a statement added to every function (and renamed), compiled here."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    f = tree.body[0]
    f.decorator_list = []
    if rename:
        f.name = "mine"
    for node in ast.walk(tree):
        if pad and isinstance(node, ast.FunctionDef):
            for k in range(len(node.body), 0, -1):  # a junk statement after every statement
                node.body.insert(k, ast.parse("_junk = [k for k in range(3)]").body[0])
    ns = dict(fn.__globals__)
    exec(compile(ast.fix_missing_locations(tree), "<edited>", "exec"), ns)
    return ns[f.name]


def _judge(fn, paths):
    co = fn.__code__
    return copies.copied(co.co_name, co.co_code, co.co_names, copies.patterns(tuple(paths)))


@pytest.mark.parametrize(
    ("fn", "path"),
    [(np.eye, "numpy.eye"), (comparison.nemenyi_critical_difference, "sslteach.protocols.comparison")],
)
def test_an_edited_copy_is_recognised_and_still_works(fn, path):
    copy = _edited(fn)
    args = (5,) if fn is np.eye else (4, 12)
    np.testing.assert_array_equal(copy(*args), fn(*args))  # the copy does the same work
    why = _judge(copy, [path])
    assert why.startswith("mine is an edited copy of " + path), why


def test_an_independent_answer_is_not_a_copy():
    def center(n):  # the identity built another way, and a centring matrix with it
        out = np.zeros((n, n))
        out[np.arange(n), np.arange(n)] = 1.0
        return out - np.full((n, n), 1.0 / n)

    def cd(k, n, alpha=0.05):
        from scipy.stats import studentized_range

        return studentized_range.isf(alpha, k, np.inf) * np.sqrt(k * (k + 1) / (12.0 * n))

    assert _judge(center, ["numpy.eye"]) == ""
    assert _judge(cd, ["sslteach.protocols.comparison"]) == ""


def test_a_short_or_generic_function_is_not_compared():
    # every pattern is long enough and names enough globals/attributes to be told from generic code
    for _, _, toks, _, named in copies.patterns(("sslteach.protocols.comparison", "numpy.eye")):
        assert len(toks) >= copies.MIN_TOKENS and len(set(named)) >= copies.MIN_NAMES


def test_tokens_ignore_local_names_and_module_aliases():
    src_a = "def f(a):\n    b = np.zeros(a)\n    return np.sum(b)\n"
    src_b = "def g(size):\n    arr = numpy.zeros(size)\n    return numpy.sum(arr)\n"
    codes = []
    for src in (src_a, src_b):
        ns = {}
        exec(compile(src, "<x>", "exec"), ns)
        co = next(v for k, v in ns.items() if k != "__builtins__").__code__
        codes.append(copies.tokens(co.co_code, co.co_names))
    assert codes[0] == codes[1]


def test_genuine_keys_tell_a_library_function_from_an_imitation():
    path = inspect.getsourcefile(comparison)
    keys = copies.genuine_keys(path)
    assert codec._key(comparison.nemenyi_critical_difference.__code__) in keys
    assert codec._key(_edited(comparison.nemenyi_critical_difference, rename=False).__code__) not in keys
    assert copies.genuine_keys("/no/such/file.py") == frozenset()


def test_a_copy_split_into_helpers_is_found_in_the_functions_together():
    # numpy.eye's body cut in two: each half holds too little of it, both together hold all of it
    body = textwrap.dedent(inspect.getsource(np.eye)).split("\n")
    start = next(i for i, line in enumerate(body) if line.startswith("    if like is not None"))
    lines = [line for line in body[start:] if line.strip() and not line.strip().startswith("#")]
    cut = next(i for i, line in enumerate(lines) if "operator.index(M)" in line)
    head, tail = lines[:cut], lines[cut:]
    src = (
        "def first(N, M=None, k=0, dtype=float, order='C', device=None, like=None):\n" + "\n".join(head)
        + "\n    return m, M\n"
        + "def second(m, M, k):\n" + "\n".join(tail) + "\n"
    )
    ns = dict(np.eye.__globals__)
    exec(compile(src, "<split>", "exec"), ns)
    m, big = ns["first"](4)
    np.testing.assert_array_equal(ns["second"](m, big, 0), np.eye(4))
    pats = copies.patterns(("numpy.eye",))
    parts = [(f, ns[f].__code__.co_code, ns[f].__code__.co_names) for f in ("first", "second")]
    assert all(copies.copied(*part, pats) == "" for part in parts)  # neither half alone
    why = copies.copied_together(parts, pats)
    assert why.startswith("your functions first, second together are an edited copy of numpy.eye"), why


def test_source_files_name_the_forbidden_functions_files_and_bytecode():
    files = codec._source_files("numpy.eye")
    assert files[0] == inspect.getsourcefile(np.eye) and files[1].endswith("__pycache__/_twodim_base_impl.")
    assert codec._source_files("sslteach.protocols.comparison")[0] == inspect.getsourcefile(comparison)
    assert codec._source_files("no.such.module") == []


def test_reading_a_forbidden_source_is_a_violation_and_other_files_are_not():
    sources = [[prefix, "numpy.eye"] for prefix in codec._source_files("numpy.eye")]
    eye_file, pyc_prefix = (p for p, _ in sources)
    got = codec._source_violations([eye_file, pyc_prefix + "cpython-311.pyc", "/elsewhere/x.py"], sources)
    assert len(got) == 2 and all("the source of numpy.eye" in m for m in got)
    assert codec._source_violations(["/elsewhere/x.py"], sources) == []
    spawned = codec._source_violations(["subprocess.Popen ('cat', ['cat'])"], sources)
    assert spawned and "started a process" in spawned[0]
    assert codec._source_violations([eye_file], []) == []  # nothing forbidden: nothing to protect


def test_the_audit_note_records_reads_by_the_notebooks_code_only():
    import sys

    trusted = (str(__import__("pathlib").Path(np.__file__).parents[1]) + "/",)  # site-packages only
    reads, note = codec._source_reads(trusted, sys._getframe)
    note("open", ("/lib/x.py", "r", 0))  # this test's own frame is not trusted: recorded
    note("open", ("/lib/data.csv", "r", 0))  # not Python: ignored
    assert reads == ["/lib/x.py"]
    # every frame trusted: a library's own read is not the notebook's
    reads2, note2 = codec._source_reads(("/", "<"), sys._getframe)
    note2("open", ("/lib/x.py", "r", 0))
    assert reads2 == []
