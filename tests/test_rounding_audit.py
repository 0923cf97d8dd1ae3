"""The rounding-edge audit (tests/rounding_audit.py, loaded into nbval's kernels by conftest.py)."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import rounding_audit as ra  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("x", "precision", "kind", "edge"),
    [
        (1 / 16, 3, "f", True),  # Chapter 3's mu_5 / mu_1: 0.062 or 0.063 by the last bit
        (0.0625 + 1e-17, 3, "f", True),
        (0.0625 * (1 + 1e-9), 3, "f", False),  # a real difference, not round-off
        (773 / 8, 2, "f", True),  # an accuracy of 773 / 800 in percent
        (0.125, 2, "%", False),  # 12.50%: exact at two decimals
        (0.12345, 2, "%", True),  # 12.345% at two decimals
        (0.0025, 3, "f", True),  # decimal halves are edges too: not exact in binary
        (2.5, 0, "f", True),
        (3.0, 0, "f", False),  # integers never round
        (0.0, 3, "f", False),
        (1.25e-7, 1, "e", True),
        (1.35e-7, 2, "e", False),
        (0.3333, 3, "g", False),
        (0.03335, 3, "g", True),
        (float("nan"), 2, "f", False),
    ],
)
def test_on_edge(x, precision, kind, edge):
    assert ra.on_edge(x, precision, kind) is edge


def run_cell(code, tmp_path, monkeypatch):
    """Run ``code`` rewritten as a notebook cell is; return the audit's records."""
    log = tmp_path / "records.jsonl"
    monkeypatch.setenv("SSLTEACH_ROUNDING_AUDIT", str(log))
    import builtins
    import types

    module = types.ModuleType(ra._NAME)
    for name in ("audit_format", "audit_str_format", "audit_percent", "audit_round", "audit_round_method"):
        setattr(module, name, getattr(ra, name))
    monkeypatch.setattr(builtins, ra._NAME, module, raising=False)
    tree = ra.rewrite(ast.parse(code), "cell")
    namespace = {}
    exec(compile(tree, "cell", "exec"), namespace)
    records = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    return namespace, records


def test_rewrite_keeps_what_is_printed_and_records_edges(tmp_path, monkeypatch):
    code = (
        "import numpy as np\n"
        "a = f'{1/16:.3f} {0.3:.2f}'\n"
        "b = '{:.1f} and {x:.2f}'.format(94.75, x=0.5)\n"
        "c = '%.3f' % (0.0395,)\n"
        "d = round(0.125, 2), np.round(np.array([0.5, 1/16]), 3).tolist()\n"
        "e = format(2.5, '.0f'), np.array([0.0325]).round(3).tolist()\n"
    )
    ns, records = run_cell(code, tmp_path, monkeypatch)
    assert ns["a"] == "0.062 0.30" and ns["b"] == "94.8 and 0.50" and ns["c"] == "0.040"
    assert ns["d"] == (0.12, [0.5, 0.062]) and ns["e"] == ("2", [0.032])
    values = sorted(float(r["value"].removeprefix("np.float64(").rstrip(")")) for r in records)
    assert values == sorted([1 / 16, 94.75, 0.0395, 0.125, 1 / 16, 2.5, 0.0325])


def test_rewrite_leaves_numbers_off_the_edge_alone(tmp_path, monkeypatch):
    _, records = run_cell("x = f'{2/3:.3f} {7:d} {0.25:.2f}'; y = round(1/3, 4)\n", tmp_path, monkeypatch)
    assert records == []


def nbval(tmp_path, source, output):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(source)
    cell.execution_count = 1
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=output)]
    nb.cells = [cell]
    path = tmp_path / "edge.ipynb"
    nbformat.write(nb, path)
    # -p conftest: the repository's root conftest.py as a plugin (the notebook lies outside it)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest", "-n", "0",
           "--rootdir", str(ROOT),
           "-c", str(ROOT / "pytest.ini"), str(path)]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_nbval_fails_a_cell_that_prints_on_an_edge(tmp_path):
    """The whole route: conftest.py loads the audit into nbval's kernel and fails the cell,
    although the stored output matches (the value 1/16 prints 0.062 here)."""
    res = nbval(tmp_path, "import numpy as np\nprint(np.round(np.array([1, 1 / 16]), 3))", "[1.    0.062]\n")
    assert res.returncode == 1, res.stdout[-2000:]
    assert "rounding edge" in res.stdout and "0.0625 printed with precision 3" in res.stdout
    ok = nbval(tmp_path, "from fractions import Fraction\nprint(Fraction(1, 16))", "1/16\n")
    assert ok.returncode == 0, ok.stdout[-2000:]
