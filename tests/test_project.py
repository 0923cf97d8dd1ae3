"""Project-wide consistency: one repository URL, notebooks in the STYLE.md format."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def repo_url():
    m = re.search(r"repository:\s*\n\s*url:\s*(\S+)", (ROOT / "_config.yml").read_text())
    assert m, "_config.yml must set repository.url"
    return m.group(1)


def version():
    return re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)


def pinned_source():
    """The git fallback of the notebooks' setup cell: the release tag of pyproject.toml's version."""
    return f"git+{repo_url()}@v{version()}"


def setup_block(path):
    """The install part of a notebook's setup cell (up to its first blank line after the pip call)."""
    code = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    src = "".join(code[0]["source"])
    return src[: src.index("\n\n", src.index("SSLTEACH ="))]


def test_every_setup_cell_installs_the_same_pinned_release():
    blocks = {setup_block(p) for p in NOTEBOOKS}
    assert len(blocks) == 1, "the notebooks' setup cells differ; keep one install block"
    block = blocks.pop()
    assert f'SSLTEACH = "sslteach=={version()}"' in block  # PyPI first
    assert f'SSLTEACH_GIT = "sslteach @ {pinned_source()}"' in block  # then the release's tag


def test_setup_cell_fails_offline_with_a_message_that_says_what_to_do(tmp_path):
    """Where sslteach is missing and the network is not there, the cell stops with advice,
    not a bare CalledProcessError. `python -S` hides site-packages (so sslteach is missing);
    PyPI is out of reach (PIP_NO_INDEX) and git is pointed at a path that does not exist (so
    the clone fails at once, offline): both sources are tried, and both fail."""
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.file://{tmp_path}/nowhere/.insteadOf",
        "GIT_CONFIG_VALUE_0": "https://github.com/",
        "GIT_TERMINAL_PROMPT": "0",
        "PIP_NO_INDEX": "1",
        # pip runs without -S and would find this environment's sslteach==<version> installed
        "PIP_IGNORE_INSTALLED": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    block = setup_block(NOTEBOOKS[0])
    cmd = [sys.executable, "-S", "-c", block]
    res = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode != 0, "the setup cell must stop when the install fails"
    assert "RuntimeError: Could not install sslteach" in res.stderr, res.stderr[-2000:]
    assert "check the internet connection" in res.stderr and "pip install 'sslteach @" in res.stderr
    assert f"pip install 'sslteach=={version()}'" in res.stderr
    assert "CalledProcessError" not in res.stderr


def test_readme_badges_use_the_configured_repository():
    url = repo_url()
    slug = url.removeprefix("https://github.com/")
    readme = (ROOT / "README.md").read_text()
    assert f"mybinder.org/v2/gh/{slug}/" in readme
    assert f"colab.research.google.com/github/{slug}/" in readme


def test_every_toc_file_exists_and_every_notebook_is_in_the_toc():
    toc = (ROOT / "_toc.yml").read_text()
    files = re.findall(r"(?:root|file):\s*(\S+)", toc)
    for f in files:
        assert (ROOT / f).with_suffix(".md").exists() or (ROOT / f).with_suffix(".ipynb").exists(), f
    for nb in NOTEBOOKS:
        assert f"notebooks/{nb.stem}" in files, f"{nb.name} is not in _toc.yml"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_format(path):
    nb = json.loads(path.read_text())
    cells = nb["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    setup = "".join(code[0]["source"])
    # the setup cell installs sslteach, pinned to this release: from PyPI, else from the tag
    assert 'find_spec("sslteach") is None' in setup and f'"sslteach @ {pinned_source()}"' in setup
    assert f'"sslteach=={version()}"' in setup
    text = "\n".join("".join(c["source"]) for c in cells)
    labels = re.findall(r"```\{exercise\}\s*\n:label:\s*(\S+)", text)
    # a method page has its exercises (STYLE.md asks for six); a reproduction page and the
    # book's scorecard need none
    reproduction = path.stem.endswith("_reproduction") or path.stem == "05_scorecard"
    assert len(set(labels)) == len(labels) and (reproduction or len(labels) >= 6), labels
    chapter = int(path.name[:2])
    assert all(re.fullmatch(rf"ch{chapter}-ex-[a-z0-9-]+", lab) for lab in labels), labels
    # each gated solution is followed, after its solution-end, by a check cell
    for lab in labels:
        if f"solution-start}} {lab}" not in text:
            continue
        start = next(i for i, c in enumerate(cells) if f"solution-start}} {lab}" in "".join(c["source"]))
        end = next(i for i in range(start, len(cells)) if "solution-end" in "".join(cells[i]["source"]))
        inner_code = [c for c in cells[start:end] if c["cell_type"] == "code"]
        assert all("solution" in c["metadata"].get("tags", []) for c in inner_code), lab
        if inner_code:
            nxt = cells[end + 1]
            assert "check" in nxt["metadata"].get("tags", []), f"{lab}: no check cell after the solution"
    # only timing cells may skip nbval's output comparison
    for c in code:
        if "nbval-ignore-output" in c["metadata"].get("tags", []):
            src = "".join(c["source"])
            timed = "perf_counter" in src or "process_time" in src
            assert timed, "nbval-ignore-output is for timing cells only"
    # committed with outputs, run top to bottom in one kernel
    counts = [c["execution_count"] for c in code if "".join(c["source"]).strip()]
    assert counts == list(range(1, len(counts) + 1))
    assert not any(o["output_type"] == "error" for c in code for o in c.get("outputs", []))


# A printed number is a decimal, optionally in scientific notation; the look-behind keeps
# identifiers (x1e5), hex addresses and the digits of a longer number out.
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])")
_ROUNDOFF = 1e-12


def printed_roundoff(text):
    """Every number in ``text`` whose magnitude is below 1e-12 but which is not an exact zero."""
    found = []
    for m in _NUMBER.finditer(text):
        try:
            v = float(m.group())
        except ValueError:
            continue
        if v != 0.0 and abs(v) < _ROUNDOFF:
            found.append(m.group())
    return found


def test_printed_roundoff_detector():
    assert printed_roundoff("residual 2.3e-14, b = -4.44e-16 and 1.1102230246251565e-15") == [
        "2.3e-14",
        "-4.44e-16",
        "1.1102230246251565e-15",
    ]
    assert printed_roundoff("0.0, 0, -0., 1e-12, 3.5e-9, 0x7f00e-13, x1e-20, 12 points") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_stored_output_prints_roundoff(path):
    """Raw round-off differs between CPUs and BLAS kernels: print a verdict with its bound."""
    nb = json.loads(path.read_text())
    bad = []
    for i, c in enumerate(nb["cells"]):
        for o in c.get("outputs", []) if c["cell_type"] == "code" else []:
            data = o.get("data", {})
            text = "".join(o.get("text", "")) + "".join(data.get("text/plain", ""))
            text += "".join(data.get("text/html", ""))
            bad += [f"cell {i}: {v}" for v in printed_roundoff(text)]
    assert not bad, f"{path.name} prints round-off (|x| < 1e-12): {bad[:10]}"


# The chapters that teach one paper each; Chapter 5 compares them (its section is the scorecard).
PAPER_CHAPTERS = ("01", "02", "03", "04")


def test_chapter5_has_the_scorecard_under_it():
    toc = (ROOT / "_toc.yml").read_text()
    section = r"- file: notebooks/05_comparison\n\s+sections:\n\s+- file: notebooks/05_scorecard\n"
    assert re.search(section, toc), "05_scorecard is not a section under 05_comparison in _toc.yml"


def test_every_paper_chapter_has_a_reproduction_page_under_it():
    """STYLE.md: a paper gets a method page and a reproduction page, the second a section of the first."""
    toc = (ROOT / "_toc.yml").read_text()
    methods = [
        nb for nb in NOTEBOOKS if nb.name[:2] in PAPER_CHAPTERS and not nb.stem.endswith("_reproduction")
    ]
    assert len(methods) == len(PAPER_CHAPTERS), "a paper chapter's method page is missing"
    for nb in methods:
        page = nb.with_name(f"{nb.stem}_reproduction.ipynb")
        assert page.exists(), f"{nb.name} has no reproduction page {page.name}"
        title = r"(?:\s+title: .*\n)?"  # a sidebar title may override the page's
        section = rf"- file: notebooks/{nb.stem}\n{title}\s+sections:\n\s+- file: notebooks/{page.stem}\n"
        assert re.search(section, toc), f"{page.stem} is not a section under {nb.stem} in _toc.yml"
