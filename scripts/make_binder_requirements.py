"""Derive ``binder/requirements.txt`` from the top-level ``requirements.txt``.

    python scripts/make_binder_requirements.py           # (re)write binder/requirements.txt
    python scripts/make_binder_requirements.py --check   # exit 1 if it is out of date

The top-level ``requirements.txt`` is the one source of truth for versions. Binder only needs
what a reader runs: the packages ``sslteach`` depends on (``pyproject.toml``'s
``dependencies``) minus the ones only the assignment tool uses (nbformat, nbclient, ipykernel:
Binder's own Jupyter server environment provides them), and everything those pull in. The
dependency closure is read from the installed packages' metadata (``importlib.metadata``), with
environment markers evaluated for Binder: Linux x86-64 and the Python of ``binder/runtime.txt``.
Every package of the closure must be pinned in ``requirements.txt`` and installed at that pin,
so run this from the environment ``pip install -r requirements.txt`` made.
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
TOP_LEVEL = ROOT / "requirements.txt"
BINDER = ROOT / "binder" / "requirements.txt"
RUNTIME = ROOT / "binder" / "runtime.txt"

#: Packages that a reader of the notebooks does not need from sslteach's dependencies: only the
#: grader (``sslteach-grader``, the instructors' release/grade tool) imports them, and Binder's
#: Jupyter server environment, which the kernel runs in, has its own copies.
NOT_FOR_READERS = {"nbformat", "nbclient", "ipykernel"}


def read_pins(path=TOP_LEVEL):
    """``{canonical name: (name as spelt in the file, version)}`` for every ``name==version`` line."""
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        m = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", line)
        if m:
            pins[canonicalize_name(m.group(1))] = (m.group(1), m.group(2))
    return pins


def runtime_python(path=RUNTIME):
    """The ``x.y`` of ``binder/runtime.txt`` (repo2docker's format: one line ``python-x.y``)."""
    text = path.read_text().strip()
    m = re.fullmatch(r"python-(3\.\d+)", text)
    if not m:
        raise SystemExit(f"{path}: expected one line 'python-3.N' (repo2docker's format), got {text!r}")
    return m.group(1)


def reader_roots(pyproject=ROOT / "pyproject.toml"):
    """sslteach's declared dependencies without the instructors-only ones."""
    deps = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    names = [Requirement(d).name for d in deps]
    return [n for n in names if canonicalize_name(n) not in NOT_FOR_READERS]


def marker_environment(python):
    """Environment markers of Binder's image (Linux x86-64, CPython ``python``, i.e. ``x.y``)."""
    return {
        "implementation_name": "cpython",
        "implementation_version": f"{python}.0",
        "os_name": "posix",
        "platform_machine": "x86_64",
        "platform_python_implementation": "CPython",
        "platform_system": "Linux",
        "python_full_version": f"{python}.0",
        "python_version": python,
        "sys_platform": "linux",
    }


def closure(roots, pins, python):
    """Canonical names of ``roots`` and all their dependencies, for Binder's Python ``python``.

    Reads each package's requirements from its installed metadata, which must be the pinned
    version (else the dependency graph could be another release's).
    """
    env = marker_environment(python)
    seen, todo = {}, [(r, frozenset()) for r in roots]
    while todo:
        name, extras = todo.pop()
        key = canonicalize_name(name)
        if extras <= seen.get(key, frozenset()) and key in seen:
            continue
        seen[key] = seen.get(key, frozenset()) | extras
        if key not in pins:
            raise SystemExit(f"{name} is needed by the notebooks but not pinned in requirements.txt")
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise SystemExit(f"{name} is not installed: pip install -r requirements.txt first") from None
        if dist.version != pins[key][1]:
            raise SystemExit(
                f"{name} {dist.version} is installed but requirements.txt pins {pins[key][1]}: "
                "run `pip install -r requirements.txt` first"
            )
        for spec in dist.requires or []:
            req = Requirement(spec)
            wanted = req.marker is None or any(
                req.marker.evaluate({**env, "extra": e}) for e in (sorted(seen[key]) or [""])
            )
            if wanted:
                todo.append((req.name, frozenset(canonicalize_name(e) for e in req.extras)))
    return set(seen)


def render():
    """The text of ``binder/requirements.txt``."""
    pins = read_pins()
    python = runtime_python()
    roots = reader_roots()
    names = closure(roots, pins, python)
    header = f"""\
# GENERATED by scripts/make_binder_requirements.py from ../requirements.txt: do not edit.
# Regenerate after changing requirements.txt: python scripts/make_binder_requirements.py
#
# What Binder installs for a reader of the notebooks, into the environment its own Jupyter
# server runs in (Python {python}, from binder/runtime.txt): sslteach's runtime dependencies
# ({" ".join(roots)})
# and everything they pull in on Linux, {len(names)} packages, at exactly the versions of
# requirements.txt. Left out: the book, test, lint and grading tools, and the Jupyter server,
# ipykernel, nbformat and nbclient, which are Binder's. binder/postBuild installs sslteach.
"""
    lines = [f"{pins[n][0]}=={pins[n][1]}" for n in sorted(names)]
    return header + "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if binder/requirements.txt is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not BINDER.exists() or BINDER.read_text() != text:
            print(f"{BINDER.relative_to(ROOT)} is stale: run python scripts/make_binder_requirements.py")
            return 1
        print(f"{BINDER.relative_to(ROOT)} is up to date")
        return 0
    BINDER.parent.mkdir(exist_ok=True)
    BINDER.write_text(text)
    print(f"wrote {BINDER.relative_to(ROOT)} ({text.count('==')} pins)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
