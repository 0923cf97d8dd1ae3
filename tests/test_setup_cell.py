"""The chapters' setup cell: the same install guard everywhere, and it installs sslteach where it is
missing (Colab) and does nothing otherwise."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the method pages, whose setup cells students run first
CHAPTERS = sorted(
    p
    for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")
    if not p.stem.endswith("_reproduction") and p.stem != "05_scorecard"
)


def _text(cell) -> str:
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def _install_guard(chapter):
    """The setup cell's install block: everything up to the end of its ``if ... is None:`` block."""
    setup = _text(next(c for c in json.loads(chapter.read_text())["cells"] if c["cell_type"] == "code"))
    head, sep, tail = setup.partition('if importlib.util.find_spec("sslteach") is None:\n')
    assert sep, f"{chapter.name}: the setup cell has no install guard"
    block = tail.split("\n\n")[0]
    return head + sep + block + "\n"


def test_every_chapter_has_the_same_install_guard():
    guards = {chapter.stem: _install_guard(chapter) for chapter in CHAPTERS}
    assert len(set(guards.values())) == 1, f"the setup cells' install blocks differ: {guards}"


def test_setup_cell_installs_the_package_in_a_fresh_venv(tmp_path):
    """The setup cell installs sslteach where it is missing (Colab) and does nothing otherwise.

    The fresh virtual environment has no sslteach; its other dependencies are borrowed from
    the tested environment through a ``.pth`` file (so the test runs offline), and the
    repository URL in the cell is pointed at this checkout, which pip installs from source.
    """
    import site
    import venv

    setup = _install_guard(CHAPTERS[0])  # the same in every chapter (test above)
    url = "git+https://github.com/sslteach/sslteach"
    assert url in setup
    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "tested-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    probe = "import importlib.util; print(importlib.util.find_spec('sslteach') is None)"
    workdir = tmp_path / "work"
    workdir.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PIP_NO_INDEX="1", PIP_NO_BUILD_ISOLATION="0", PIP_DISABLE_PIP_VERSION_CHECK="1")
    before = subprocess.run([str(py), "-c", probe], cwd=workdir, capture_output=True, text=True, env=env)
    assert before.stdout.strip() == "True"  # really missing
    source = tmp_path / "checkout"  # a copy, so the build leaves no build/ folder in the repository
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "sslteach", source / "sslteach", ignore=shutil.ignore_patterns("__pycache__"))
    # packaged as sslteach/results
    shutil.copytree(ROOT / "scripts" / "results", source / "scripts" / "results")
    # the cell pins a release tag (git+https://...@v<version>); a local folder has no tags
    pinned = re.escape(url) + r"(@[\w.+-]+)?"
    # the reproduction pages read the committed results through the installed package
    shown = (
        "from sslteach.teach import scorecard\n"
        "print(len(scorecard.load_results('ch1')['paper_numbers']) > 0)\n"
    )
    cell = re.sub(pinned, source.as_uri(), setup)
    cell += "\nimport sslteach\n" + shown + "print(sslteach.__file__)\n"
    run = subprocess.run(
        [str(py), "-c", cell], cwd=workdir, capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().splitlines()[-1].startswith(str(env_dir))  # installed into the fresh venv
    assert run.stdout.strip().splitlines()[-2] == "True", "the installed package lacks the results files"
    again = subprocess.run(
        [str(py), "-c", cell], cwd=workdir, capture_output=True, text=True, env=env, timeout=300
    )
    assert (
        again.returncode == 0 and "Processing" not in again.stdout + again.stderr
    )  # second run: nothing to do
