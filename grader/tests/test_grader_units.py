"""The grader's pieces, each against an independent formulation where there is one."""

import json
import math
import pickle

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sslteach_grader.exercises import parse_exercises
from sslteach_grader.grading import RUNNER, _decode
from sslteach_grader.reports import student_of
from sslteach_grader.slicing import plan
from sslteach_grader.specs import (
    Spec,
    cost_verdict,
    growth,
    load_spec,
    read_tests,
    same,
    seed_rng,
    source_violation,
)


@pytest.mark.parametrize("p", [0.5, 1.0, 2.0, 3.0])
def test_growth_of_a_power_law_is_its_power_with_or_without_a_constant(p):
    sizes = (400, 800, 1600)
    pure = [1e-6 * n**p for n in sizes]
    slope = np.polyfit(np.log(sizes), np.log(pure), 1)[0]  # least squares on log-log
    assert math.isclose(growth(sizes, pure, floor=1e-9, rise=np.inf), slope, rel_tol=1e-6)
    padded = [t + 5.0 for t in pure]  # work that does not depend on n flattens the slope, not the increments
    assert math.isclose(growth(sizes, padded, floor=1e-9, rise=1e-9), p, rel_tol=1e-3)
    # increments too small for the CPU clock are not read: the slope between the largest sizes counts
    assert growth(sizes, (0.08, 0.15, 0.56)) == pytest.approx(math.log(0.56 / 0.15) / math.log(2))


def test_the_cost_verdict_fails_only_slow_answers_that_grow_too_fast_or_not_at_all():
    cost = dict(function="f", sizes=(1000, 2000, 4000), max_exponent=1.5)
    model = (0.002, 0.004, 0.008)
    assert cost_verdict(cost, (0.01, 0.02, 0.04), model) == ""  # under COST_FLOOR
    assert (
        cost_verdict(cost, (0.1, 0.2, 0.4), model) == ""
    )  # 50 times slower, but O(n): a slow loop is allowed
    assert "grows like n^3.0" in cost_verdict(cost, (0.05, 0.4, 3.2), model)
    assert "grows like n^3.0" in cost_verdict(cost, (2.05, 2.4, 5.2), model)  # O(n^3) under a 2 s pad
    assert "does not grow" in cost_verdict(
        cost, (3.0, 3.0, 3.1), model
    )  # the larger input's work done at every size
    assert cost_verdict({**cost, "max_slowdown": 0.0}, (0.05, 0.4, 3.2), model) != ""


def test_same_agrees_with_numpy_allclose_and_reads_lists_as_arrays():
    rng = np.random.default_rng(0)
    for _ in range(200):
        a = rng.standard_normal(5)
        b = a + rng.choice([0, 1e-9, 1e-3], 5) * rng.standard_normal(5)
        assert (same(b, a) is None) == np.allclose(b, a, rtol=1e-6, atol=1e-8)
    assert same([1.0, np.arange(2)], (1, [0, 1])) is None and same(np.arange(2), [0, 1]) is None
    assert same({"a": 1.0}, {"a": 2.0}) == "the value['a'] is 1, which is wrong"
    assert "shape (3,), expected (2,)" in same(np.ones(3), np.ones(2))
    assert same("tuple", "tuple") is None and "wrong" in same(True, False)


def test_the_source_check_resolves_imports_aliases_and_attributes():
    spec = Spec(
        "ch9-ex-x",
        [],
        forbid=["numpy.linalg.svd", "sslteach.relaxation", ".marginals"],
        require=["scipy.optimize.linprog"],
    )
    setup = ["import numpy as np\nfrom sslteach import relaxation\nfrom scipy.optimize import linprog"]
    ok = "def f(A):\n    linprog([1.0])\n    return np.linalg.eigh(A)"
    assert source_violation(spec, [ok], setup) == ""
    for bad, name in [
        ("from numpy.linalg import svd as s\ndef f(A):\n    linprog([1])\n    return s(A)", "svd"),
        ("import numpy.linalg as la\ndef f(A):\n    linprog([1])\n    return la.svd(A)", "svd"),
        ("g = np.linalg\ndef f(A):\n    linprog([1])\n    return g.svd(A)", "svd"),
        ("def f(A):\n    linprog([1])\n    return relaxation.cut_cost_lower_bound(A)", "relaxation"),
        ("def f(A):\n    return linprog([1])['ineqlin']['marginals']", "marginals"),
        ("def f(A):\n    return linprog([1]).ineqlin.marginals", "marginals"),
    ]:
        assert name in source_violation(spec, [bad], setup), bad
    assert "must call scipy.optimize.linprog" in source_violation(spec, ["def f(A):\n    return A"], setup)
    assert (
        source_violation(spec, ["import scipy.optimize as so\ndef f(A):\n    return so.linprog(A)"], setup)
        == ""
    )


def test_a_tests_file_keeps_its_line_numbers_and_its_seeds(tmp_path):
    path = tmp_path / "t.py"
    path.write_text(
        "import numpy as np\n\n# %% ch9-ex-a\ndef cases(rng):\n    return [1]\n\n"
        "# %% ch9-ex-b\ndef cases(rng):\n    raise RuntimeError('line 9')\n"
    )
    tests = read_tests(path)
    assert set(tests) == {"ch9-ex-a", "ch9-ex-b"}
    with pytest.raises(ValueError, match="ch9-ex-b .* broken: RuntimeError: line 9") as info:
        load_spec("ch9-ex-b", tests["ch9-ex-b"], seed_rng(0, "ch9-ex-b"), path)
    tb = info.value.__cause__.__traceback__
    while tb.tb_next:
        tb = tb.tb_next
    assert tb.tb_lineno == 9 and tb.tb_frame.f_code.co_filename == str(path)
    draw = [seed_rng(7, "ch9-ex-a").random(3) for _ in range(2)] + [seed_rng(7, "ch9-ex-b").random(3)]
    assert np.array_equal(draw[0], draw[1]) and not np.array_equal(draw[0], draw[2])


def test_values_cross_from_the_kernel_as_they_were_returned(tmp_path):
    """The kernel side of the wire (RUNNER) run here, the grader side (_decode) reading it back."""
    values = [
        np.arange(6.0).reshape(2, 3),
        sp.csr_matrix(np.eye(3)),
        (1, 2.5, "x"),
        {"a": [True, None]},
        pd.Series([1.0, 2.0]),
        np.float32(0.5),
        float("nan"),
        np.array([np.inf, -0.0]),
        [[1, 2], [3]],
    ]
    ns = {}
    exec(RUNNER, ns)
    ns["give"] = lambda k: values[k] if k >= 0 else np.array([object()])
    tag = str(tmp_path / "calls")
    with open(tag + ".in", "wb") as f:
        pickle.dump([("give", [k], {}) for k in [*range(len(values)), -1]], f)
    ns["__sslteach_calls__"](tag)
    replies = json.loads(open(tag + ".out").read())
    for v, reply in zip(values, replies, strict=False):
        want = v.toarray() if sp.issparse(v) else v
        assert same(_decode(reply["value"]), want, rtol=0, atol=0) is None, (v, reply)
    assert replies[-1]["error"].startswith("TypeError: a value of type ndarray cannot be graded")


def test_the_slice_runs_to_the_same_values_as_the_whole_notebook():
    cells = [
        "import numpy as np\nimport pandas as pd\npd.set_option('display.width', 50)",
        "a = np.ones(3)",
        "b = 2\nprint(b)",
        "c = a * 3",
        "def f(x):\n    return x + c.sum()",
        "d = f(1)",
    ]
    keep = {4}
    whole, sliced = {}, {}
    for src in cells:
        exec(src, whole)
    for _, src in plan(cells, keep, {"f"}):
        exec(src, sliced)
    assert sliced["f"](2) == whole["f"](2) and "b" not in sliced and "pd" not in sliced
    dynamic = cells + ["exec('def g(x):\\n    return 2 * x', globals())", "def h(x):\n    return g(x)"]
    assert len(plan(dynamic, {7}, {"h"})) == len(dynamic)  # g is bound by exec: the whole notebook runs


def test_a_broken_exercise_format_is_refused_with_the_cell():
    def cell(kind, src, *tags):
        return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": src}

    ex = cell("markdown", "```{exercise}\n:label: ch9-ex-a\nWrite `f()`.\n```")
    start = cell("markdown", "```{solution-start} ch9-ex-a\n:class: dropdown\n```")
    cases = {
        "without the tag 'solution'": [ex, start, cell("code", "x = 1")],
        "has no solution-end": [ex, start, cell("code", "x = 1", "solution")],
        "not between solution-start": [ex, cell("code", "x = 1", "solution")],
        "is used twice": [ex, ex],
        "tagged 'hidden-test'": [ex, cell("raw", "def cases(rng): ...", "hidden-test")],
        "no exercise precedes it": [cell("code", "assert True", "check")],
    }
    for message, cells in cases.items():
        with pytest.raises(ValueError, match=message):
            parse_exercises({"cells": cells})


def test_the_student_is_the_folder_of_nbgraders_layout_even_graded_alone():
    assert student_of("/c/submitted/ana/hw1/ch.ipynb", "ch.ipynb") == "ana"
    assert student_of("subs/ana/ch.ipynb", "ana/ch.ipynb") == "ana"
    assert student_of("subs/ana.ipynb", "ana.ipynb") == "ana"


def test_the_kernels_cpu_time_read_from_outside_follows_its_own_clock_and_never_reads_zero():
    from sslteach_grader.kernel import Kernel

    kernel = Kernel(sandbox=False)
    try:
        assert kernel.run("import time\nt0 = time.process_time()", 30) == ("ok", "")
        before = kernel.cpu_seconds()
        assert kernel.run("x = 0\nwhile time.process_time() - t0 < 0.5:\n    x += 1", 30) == ("ok", "")
        spent = kernel.cpu_seconds() - before
        assert 0.45 <= spent < 3.0, spent  # the kernel's own clock says at least 0.5 s
    finally:
        kernel.close()
    with pytest.raises(RuntimeError, match="CPU time cannot be read"):
        kernel.cpu_seconds()  # a kernel that is gone: an error, not a time of 0
