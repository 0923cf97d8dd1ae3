"""scripts/code_stats.py counts what its docstring says it counts."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("code_stats", ROOT / "scripts" / "code_stats.py")
code_stats = importlib.util.module_from_spec(spec)
spec.loader.exec_module(code_stats)

SOURCE = '''"""Module docstring,
two lines."""
from ._validation import check_data

# a comment line


def f(X, k):
    """Docstring."""
    X = check_data(X)  # validation (a checker call)
    if k < 1:
        raise ValueError(
            "k must be positive"
        )
    s = """not a docstring

    """
    return X * k


class C:
    """Class docstring."""

    def g(self):
        return 1
'''


def test_every_line_classified_as_documented(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "m.py").write_text(SOURCE)
    s = code_stats.module_stats(pkg / "m.py", tmp_path)
    assert s["lines"] == len(SOURCE.splitlines()) == 25
    assert s["docstring"] == 4  # module (2), f (1), C (1)
    assert s["comment"] == 1
    assert s["blank"] == 6  # the blank line inside the string s counts as code
    assert s["code"] == 25 - 4 - 1 - 6
    # f: def, check_data, if (4 lines), s = ... (3 lines), return -> 10; g: 2
    assert s["function_code"] == 12
    assert s["validation"] == 5  # the checker call and the 4-line if-raise
    by_name = {f["function"]: f["code"] for f in s["functions"]}
    assert by_name == {"f": 10, "C.g": 2}


def test_runs_over_the_package(capsys):
    assert code_stats.main(["--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "TOTAL" in out and "Longest functions" in out
