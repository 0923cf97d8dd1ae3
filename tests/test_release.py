"""One source for the version and the URLs, and the package a release ships.

pyproject.toml holds the version and the public URLs; scripts/release_metadata.py derives the
rest and checks README.md, _config.yml, CITATION.cff, .zenodo.json, sslteach.__version__ and the
notebooks' setup cells against them. The wheel test builds sslteach from this checkout,
installs it into a fresh virtual environment without the repository, and checks what a reader
on Colab or Binder relies on: it imports without the notebook stack, the reproduction pages'
results load from it, and a notebook's setup cell then downloads nothing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
VERSION = PYPROJECT["project"]["version"]
# where the README links the repository's files (PyPI shows the README: no relative links)
BLOB = PYPROJECT["project"]["urls"]["Repository"] + "/blob/main/"


def load_script():
    spec = importlib.util.spec_from_file_location(
        "release_metadata", ROOT / "scripts" / "release_metadata.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rm = load_script()

# the files the version and URL checks read (copied to plant a mismatch in a copy)
CHECKED = [
    "pyproject.toml",
    "README.md",
    "_config.yml",
    "CITATION.cff",
    ".zenodo.json",
    "sslteach/__init__.py",
]


@pytest.fixture
def copy(tmp_path):
    """The checked files and the notebooks, copied, so that a test can break one."""
    for name in CHECKED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(
        ROOT / "notebooks", tmp_path / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    return tmp_path


# --- one source ---------------------------------------------------------------------------------


def test_every_url_and_version_agrees_with_pyproject():
    assert rm.check() == []


def test_derived_urls():
    e = rm.expected()
    urls = PYPROJECT["project"]["urls"]
    assert e["site"] == urls["Homepage"] == urls["Documentation"], "Homepage is the GitHub Pages site"
    assert e["pdf"] == urls["PDF"] and e["issues"] == urls["Issues"] and e["releases"] == urls["Releases"]
    assert e["pin_git"] == f"sslteach @ git+{urls['Repository']}@v{VERSION}"
    assert e["binder"].startswith("https://mybinder.org/v2/gh/") and f"/{e['reader_branch']}?" in e["binder"]
    assert (ROOT / rm.FIRST_NOTEBOOK).is_file()


@pytest.mark.parametrize(
    "path, old, new",
    [
        # a planted bad URL in each place that carries one
        ("README.md", "https://sslteach.github.io/sslteach/sslteach.pdf", "https://sslteach.github.io/sslteach/book.pdf"),
        ("README.md", "sslteach/sslteach/reader?urlpath", "sslteach/sslteach/main?urlpath"),
        ("README.md", "https://colab.research.google.com/github/sslteach/sslteach/blob/reader/",
         "https://colab.research.google.com/github/sslteach/sslteech/blob/reader/"),
        ("_config.yml", "url: https://github.com/sslteach/sslteach", "url: https://github.com/sslteach/book"),
        ("_config.yml", "branch: reader", "branch: main"),
        ("CITATION.cff", 'url: "https://sslteach.github.io/sslteach/"', 'url: "https://sslteach.github.io/"'),
        (".zenodo.json", '"identifier": "https://sslteach.github.io/sslteach/"',
         '"identifier": "https://sslteach.github.io/sslteech/"'),
        ("notebooks/03_spectral_kernel_learning.ipynb", "sslteach/sslteach@v", "sslteach/sslteach.git@v"),
        # and a version out of step
        ("CITATION.cff", f"version: {VERSION}", "version: 9.9.9"),
        (".zenodo.json", f'"version": "{VERSION}"', '"version": "9.9.9"'),
        ("sslteach/__init__.py", f'__version__ = "{VERSION}"', '__version__ = "9.9.9"'),
        ("notebooks/05_scorecard.ipynb", f"sslteach=={VERSION}", "sslteach==9.9.9"),
        ("README.md", f"version = {{{VERSION}}}", "version = {9.9.9}"),
    ],
)  # fmt: skip
def test_a_planted_mismatch_fails(copy, path, old, new):
    assert rm.check(copy) == []
    text = (copy / path).read_text()
    assert old in text, f"{path} no longer holds {old!r}: update this test"
    (copy / path).write_text(text.replace(old, new, 1))
    bad = rm.check(copy)
    assert bad and any(path.split("/")[-1] in m for m in bad), bad


def test_a_version_bump_in_pyproject_is_written_everywhere(copy):
    """RELEASING.md's first step: bump the version in pyproject.toml, then --write."""
    py = copy / "pyproject.toml"
    py.write_text(py.read_text().replace(f'version = "{VERSION}"', 'version = "0.2.0"', 1))
    assert len(rm.check(copy)) > 5  # everything else is now out of step
    changed = {p.relative_to(copy).as_posix() for p in rm.write(copy)}
    assert {"CITATION.cff", ".zenodo.json", "README.md", "sslteach/__init__.py"} <= changed
    assert len([c for c in changed if c.startswith("notebooks/")]) == len(
        list((ROOT / "notebooks").glob("*.ipynb"))
    )
    assert rm.check(copy) == []
    assert rm.check(copy, tag="v0.2.0") == [] and rm.check(copy, tag=f"v{VERSION}") != []
    nb = json.loads((copy / "notebooks" / "00_foundations.ipynb").read_text())
    old = json.loads((ROOT / "notebooks" / "00_foundations.ipynb").read_text())
    assert [c["outputs"] for c in nb["cells"] if c["cell_type"] == "code"] == [
        c["outputs"] for c in old["cells"] if c["cell_type"] == "code"
    ]  # only the two lines change


def test_cli_exit_codes(copy):
    script = ROOT / "scripts" / "release_metadata.py"
    ok = subprocess.run([sys.executable, str(script), "--tag", f"v{VERSION}"], capture_output=True, text=True)
    assert ok.returncode == 0 and "agrees" in ok.stdout, ok.stderr
    bad = subprocess.run([sys.executable, str(script), "--tag", "v0.0.1"], capture_output=True, text=True)
    assert bad.returncode == 1 and "the tag v0.0.1 is not" in bad.stderr


def test_zenodo_and_citation_agree():
    import yaml

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    zen = json.loads((ROOT / ".zenodo.json").read_text())
    assert (
        zen["title"] == cff["title"] and zen["license"] == cff["license"] == PYPROJECT["project"]["license"]
    )
    assert [c["name"] for c in zen["creators"]] == [a["name"] for a in cff["authors"]]
    assert zen["upload_type"] == "software" and zen["keywords"] == cff["keywords"]


def test_releasing_md_is_linked_and_names_each_workflow():
    guide = (ROOT / "CONTRIBUTING.md").read_text()
    assert "(RELEASING.md)" in guide, "CONTRIBUTING.md does not link RELEASING.md"
    readme = (ROOT / "README.md").read_text()
    assert f"({BLOB}RELEASING.md)" in readme, "README.md does not link RELEASING.md"
    text = (ROOT / "RELEASING.md").read_text()
    for wf in sorted((ROOT / ".github" / "workflows").glob("*.yml")):
        assert f".github/workflows/{wf.name}" in text, f"RELEASING.md does not say what {wf.name} does"
    for needed in ("scripts/release_metadata.py --write", "trusted publisher", "Zenodo", "git tag"):
        assert needed in text, f"RELEASING.md does not mention {needed!r}"


def test_readme_links_work_on_pypi():
    """PyPI shows README.md as the package's page, where a relative link leads nowhere."""
    links = re.findall(r"\]\(([^)]+)\)", (ROOT / "README.md").read_text())
    relative = [t for t in links if not t.startswith(("https://", "http://", "#"))]
    assert not relative, f"README.md links these relatively (broken on PyPI): {relative}"


# --- the wheel, installed without the repository ------------------------------------------------


NOTEBOOK_STACK = ("nbformat", "nbclient", "ipykernel", "IPython", "jupyter_client")


def scorecard_module():
    """sslteach.scorecard, or sslteach.teach.scorecard where the grading code moved."""
    for name in ("sslteach.teach.scorecard", "sslteach.scorecard"):
        parent = name.rsplit(".", 1)[0]
        if importlib.util.find_spec(parent) and importlib.util.find_spec(name):
            return name
    pytest.fail("no sslteach.scorecard or sslteach.teach.scorecard")


def test_wheel_installs_into_a_fresh_venv_and_serves_the_notebooks(tmp_path):
    """Build the wheel (pip wheel --no-build-isolation: setuptools is pinned in requirements.txt,
    so nothing is downloaded), install it into a fresh venv with --no-index --no-deps, and borrow
    the dependencies from the tested environment through a .pth file (offline; that environment's
    editable sslteach is not on the path: .pth files of a borrowed folder are not run). Then, from
    a folder outside the repository and with the notebook stack made unimportable: import sslteach,
    load every committed results file from the installed package, and run a notebook's setup cell
    with subprocess.run booby-trapped, so that any pip call would fail the test."""
    start = time.perf_counter()
    source = tmp_path / "checkout"  # a copy, so the build leaves no build/ folder in the repository
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "sslteach", source / "sslteach", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "scripts" / "results", source / "scripts" / "results")
    dist = tmp_path / "dist"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_FIND_LINKS="")
    pip = [sys.executable, "-m", "pip"]
    build = subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(source)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = dist.glob("sslteach-*.whl")
    assert wheel.name.startswith(f"sslteach-{VERSION}-py3-none-any"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    results = sorted(p.stem for p in (ROOT / "scripts" / "results").glob("*.json"))
    assert all(f"sslteach/results/{r}.json" in names for r in results), "the wheel lacks results files"
    assert any(n.startswith("sslteach/data/") for n in names), "the wheel lacks the vendored data"
    assert not any(n.startswith(("notebooks/", "tests/", "scripts/", "grader/")) for n in names)
    # no grading test and no grader: they are the package sslteach-grader (grader/), not sslteach
    assert not [n for n in names if "hidden" in n or n.startswith("sslteach/teach/") and "assign" in n]
    for n in names:
        if n.endswith((".py", ".json", ".ipynb")):
            text = zipfile.ZipFile(wheel).read(n).decode("utf-8", "replace")
            assert not re.search(r"def cases\(rng|# %% ch\d|hidden.test", text), n
    meta = zipfile.ZipFile(wheel).read(f"sslteach-{VERSION}.dist-info/METADATA").decode()
    for label, url in PYPROJECT["project"]["urls"].items():  # what PyPI's sidebar will link
        assert f"Project-URL: {label}, {url}" in meta, f"the wheel's metadata lacks {label}"

    env_dir = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=120)
    py = env_dir / "bin" / "python"
    install = subprocess.run(
        [*pip, "--python", str(py), "install", "--no-index", "--no-deps", "-q", str(wheel)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr[-3000:]
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    import site

    Path(purelib, "tested-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")

    setup = "".join(
        rm.first_code_cell(ROOT / "notebooks" / "01_spectral_clustering_reproduction.ipynb")["source"]
    )
    install_block = setup[: setup.index("\n\n", setup.index("SSLTEACH ="))]
    module = scorecard_module()
    probe = f"""
import importlib.abc, subprocess, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {NOTEBOOK_STACK!r}:
            raise ImportError(f"{{name}} is blocked: sslteach must import without the notebook stack")
sys.meta_path.insert(0, Block())
def no_download(*args, **kwargs):
    raise SystemExit(f"the setup cell called {{args}} although sslteach is installed")
subprocess.run = no_download
exec({install_block!r})
import importlib, sslteach
sc = importlib.import_module({module!r})
loaded = [name for name in {results!r} if sc.load_results(name)]
print(sslteach.__file__)
print(sslteach.__version__)
print(",".join(loaded))
print(",".join(sorted(m for m in sys.modules if m.split(".")[0] in {NOTEBOOK_STACK!r})) or "none")
"""
    workdir = tmp_path / "elsewhere"  # not inside a clone: load_results must use the package's copy
    workdir.mkdir()
    run = subprocess.run(
        [str(py), "-c", probe], cwd=workdir, capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    where, version, loaded, stack = run.stdout.strip().splitlines()[-4:]
    assert where.startswith(purelib), f"sslteach imported from {where}, not from the fresh venv"
    assert version == VERSION
    assert loaded.split(",") == results, "a results file did not load from the installed package"
    assert stack == "none", f"importing sslteach imported the notebook stack: {stack}"
    assert time.perf_counter() - start < 120, "the wheel test should take well under a minute"
