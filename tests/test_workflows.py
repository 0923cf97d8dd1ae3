"""The GitHub Actions workflows, checked here so that a broken one fails before GitHub runs it.

Three linters made for them, all from requirements.txt (the wheels carry the binaries, so they
run offline): actionlint (syntax, expressions, job graph, action inputs, reusable-workflow
calls), with shellcheck on every ``run:`` script, and zizmor (security: unpinned actions,
credentials left in the checkout, template injection, excessive permissions, cache poisoning),
in offline mode and with its pedantic persona. Then the project's own rules: every action
pinned by full commit SHA with its version in a comment, least-privilege permissions, a
timeout on every job, pip's cache, the TeX packages and Python of .ci/run and Binder, and the
URLs pyproject.toml derives. Each linter is shown to fail on a deliberately broken copy.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
FILES = sorted(WORKFLOWS.glob("*.yml"))
BIN = Path(sys.executable).parent


def tool(name):
    path = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: pip install -r requirements.txt (it pins {name}'s wheel)")
    return path


def actionlint(root):
    cmd = [tool("actionlint"), "-no-color", "-oneline", "-shellcheck", tool("shellcheck"), "-pyflakes", ""]
    return subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=120)


def zizmor(root):
    cmd = [tool("zizmor"), "--offline", "--no-config", "--persona", "pedantic", "--strict-collection"]
    cmd.append(str(root / ".github"))  # the workflows and dependabot.yml
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def load(path):
    wf = yaml.safe_load(path.read_text())
    wf["on"] = wf.pop(True, wf.get("on"))  # YAML 1.1 reads the key `on` as True
    return wf


def steps(wf):
    for job in wf["jobs"].values():
        yield from job.get("steps", [])


@pytest.fixture
def broken(tmp_path):
    """A copy of the repository's .github/ to break one thing in."""
    shutil.copytree(ROOT / ".github", tmp_path / ".github")
    (tmp_path / ".git").mkdir()  # actionlint looks for the project root

    def apply(name, old, new):
        path = tmp_path / ".github" / "workflows" / name
        text = path.read_text()
        assert old in text, f"{name} no longer holds {old!r}: update this test"
        path.write_text(text.replace(old, new, 1))
        return tmp_path

    return apply


# --- the linters -----------------------------------------------------------------------------------


def test_the_three_workflows_exist():
    names = {p.name for p in FILES}
    assert {"publish.yml", "release.yml", "linkcheck.yml"} <= names, names


def test_actionlint_passes():
    res = actionlint(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr


def test_zizmor_passes():
    res = zizmor(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "No findings to report" in res.stdout + res.stderr
    audited = set(re.findall(r"completed \S*/\.github/(\S+)", res.stderr))
    expected = {f"workflows/{p.name}" for p in FILES} | {"dependabot.yml"}
    assert audited == expected, f"zizmor audited {sorted(audited)}, not every file"


@pytest.mark.parametrize(
    "name, old, new, expected",
    [
        # a job that needs a job that does not exist
        ("publish.yml", "    needs: test\n", "    needs: tests\n", "needs"),
        # an expression naming a step output that no step sets
        ("publish.yml", "steps.deployment.outputs.page_url", "steps.deploy.outputs.page_url", "deploy"),
        # a reusable workflow called with an input it does not declare
        ("release.yml", "      pip-cache: false", "      pip-cache: false\n      python: '3.11'", "python"),
        # shellcheck, through actionlint: an unquoted variable
        ("release.yml", 'version="${GITHUB_REF_NAME#v}"', "version=${GITHUB_REF_NAME#v}; echo $version",
         "SC2086"),
    ],
)  # fmt: skip
def test_actionlint_fails_on_a_broken_copy(broken, name, old, new, expected):
    root = broken(name, old, new)
    res = actionlint(root)
    assert res.returncode != 0 and expected in res.stdout, res.stdout + res.stderr


@pytest.mark.parametrize(
    "name, old, new, audit",
    [
        # an action on a moving tag instead of a commit
        ("publish.yml", "actions/deploy-pages@cd2ce8fcbc39b97be8ca5fce6e763baed58fa128 # v5.0.0",
         "actions/deploy-pages@v5", "unpinned-uses"),
        # the checkout's token left on disk for later steps
        ("linkcheck.yml", "        with:\n          persist-credentials: false\n", "", "artipacked"),
        # an attacker-controlled value expanded into a shell script
        ("linkcheck.yml", 'title="Broken links in the built book"',
         'title="Broken links ${{ github.event.head_commit.message }}"', "template-injection"),
        # write access for every job
        ("linkcheck.yml", "permissions: {}\n", "permissions: write-all\n", "excessive-permissions"),
        # pip's cache restored in the workflow that publishes to PyPI
        ("release.yml", '          python-version: "3.11"\n',
         '          python-version: "3.11"\n          cache: pip\n', "cache-poisoning"),
        # a file that breaks the workflow schema fails, rather than being skipped with a warning
        ("linkcheck.yml", "          persist-credentials: false\n", "", "null is not of type"),
    ],
)  # fmt: skip
def test_zizmor_fails_on_a_broken_copy(broken, name, old, new, audit):
    root = broken(name, old, new)
    res = zizmor(root)
    assert res.returncode != 0 and audit in res.stdout + res.stderr, res.stdout + res.stderr


# --- the project's own rules -----------------------------------------------------------------------

PINNED = re.compile(r"^\s*(?:-\s+)?uses:\s*([\w.-]+/[\w./-]+)@([0-9a-f]{40}) # v\d+(?:\.\d+)*\s*$")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_action_is_pinned_by_sha_with_its_version(path):
    for line in path.read_text().splitlines():
        if re.match(r"^\s*(?:-\s+)?uses:", line) and "$/" not in line:
            assert PINNED.match(line), (
                f"{path.name}: {line.strip()!r} is not pinned as owner/repo@<40 hex> # vX.Y.Z"
            )


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_least_privilege_timeouts_and_caches(path):
    wf = load(path)
    assert wf.get("permissions") == {}, f"{path.name}: the workflow's default permissions must be {{}}"
    for name, job in wf["jobs"].items():
        assert "permissions" in job, f"{path.name}: job {name} does not state its permissions"
        if "uses" not in job:  # a job that calls a reusable workflow gets the called jobs' timeouts
            assert 0 < job.get("timeout-minutes", 0) <= 60, f"{path.name}: job {name} needs timeout-minutes"
    setups = [s for s in steps(wf) if s.get("uses", "").startswith("actions/setup-python@")]
    for s in setups:
        assert s["with"]["python-version"] == (
            ROOT / "binder" / "runtime.txt"
        ).read_text().strip().removeprefix("python-"), "the workflows' Python is Binder's"
        if path.name == "release.yml":
            assert "cache" not in s["with"], "a release builds from a fresh install (see release.yml)"
        else:
            assert s["with"].get("cache"), f"{path.name}: setup-python without pip's cache"


def test_triggers():
    on = {p.name: load(p)["on"] for p in FILES}
    assert on["publish.yml"]["push"] == {"branches": ["main"]}
    assert on["release.yml"] == {"push": {"tags": ["v*"]}}
    assert on["linkcheck.yml"]["schedule"][0]["cron"].split()[2:] == ["*", "*", "1"], "weekly"
    assert set(on["build-book.yml"]) == {"workflow_call"}


def test_publish_tests_then_deploys_the_site_pdf_and_reader_notebooks():
    sys.path.insert(0, str(ROOT / "scripts"))
    import release_metadata

    e = release_metadata.expected()
    publish, book = load(WORKFLOWS / "publish.yml"), load(WORKFLOWS / "build-book.yml")
    runs = "\n".join(s.get("run", "") for s in steps(publish))
    assert "pip install -r requirements.txt\n  pytest" in runs.replace("python -m pip", "pip").replace(
        "\n", "\n  "
    )
    assert publish["jobs"]["book"]["needs"] == "test" and publish["jobs"]["pages"]["needs"] == "book"
    assert publish["jobs"]["pages"]["environment"]["name"] == "github-pages"
    assert set(publish["jobs"]["pages"]["permissions"]) == {"pages", "id-token"}
    book_runs = "\n".join(s.get("run", "") for s in steps(book))
    pdf_name = e["pdf"].rsplit("/", 1)[1]
    assert f"cp _build/latex/sslteach.pdf _build/html/{pdf_name}" in book_runs, "the PDF beside the site"
    assert "python scripts/make_reader_notebooks.py --out _build/reader" in book_runs
    assert "--builder pdflatex -W --keep-going" in book_runs and "python tests/check_pdf.py" in book_runs
    assert f"git checkout -B {e['reader_branch']}" in runs and f'reader-branch = "{e["reader_branch"]}"'
    # the TeX packages are .ci/run's
    ci = re.search(r'^TEX_PACKAGES="([^"]+)"', (ROOT / ".ci" / "run").read_text(), re.M).group(1).split()
    apt = re.search(r"--no-install-recommends \\\n\s+([^\n]+)", book_runs).group(1).split()
    assert apt == ci, "build-book.yml installs other TeX packages than .ci/run"


def test_release_checks_the_tag_and_publishes_by_trusted_publishing():
    rel = load(WORKFLOWS / "release.yml")
    runs = "\n".join(s.get("run", "") for s in steps(rel))
    assert 'python scripts/release_metadata.py --tag "${GITHUB_REF_NAME}"' in runs
    assert "python -m build" in runs and "twine check --strict dist/*" in runs
    pypi = rel["jobs"]["pypi"]
    assert pypi["permissions"] == {"id-token": "write"} and pypi["environment"]["name"] == "pypi"
    assert any(s.get("uses", "").startswith("pypa/gh-action-pypi-publish@") for s in pypi["steps"])
    assert not any("password" in s.get("with", {}) for s in pypi["steps"]), (
        "trusted publishing needs no token"
    )
    assert "gh release create" in runs and "--verify-tag" in runs
    for asset in ("notebooks.zip", "reader-notebooks.zip", '"$ASSETS"/*'):
        assert asset in runs


def test_linkcheck_opens_an_issue():
    lc = load(WORKFLOWS / "linkcheck.yml")
    job = lc["jobs"]["links"]
    assert job["permissions"] == {"contents": "read", "issues": "write"}
    runs = "\n".join(s.get("run", "") for s in job["steps"])
    assert "gh issue create" in runs and "_build/html" in str(job["steps"])


def test_the_reader_notebooks_script_writes_what_the_workflows_copy(tmp_path):
    """publish.yml copies DIR/<name>.ipynb over notebooks/<name>.ipynb for every notebook, and
    release.yml zips DIR/*.ipynb: the interface of scripts/make_reader_notebooks.py --out DIR."""
    script = ROOT / "scripts" / "make_reader_notebooks.py"
    if not script.exists():
        pytest.skip("scripts/make_reader_notebooks.py is not in this branch yet (the reader-view issue)")
    out = tmp_path / "reader"
    res = subprocess.run(
        [sys.executable, str(script), "--out", str(out)], capture_output=True, text=True, timeout=300
    )
    assert res.returncode == 0, res.stderr[-3000:]
    assert sorted(p.name for p in out.glob("*.ipynb")) == sorted(
        p.name for p in (ROOT / "notebooks").glob("*.ipynb")
    )
