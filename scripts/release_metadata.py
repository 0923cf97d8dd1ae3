"""One source for the version and every public URL of the book: pyproject.toml.

``[project] version``, ``[project.urls]`` and ``[tool.sslteach] reader-branch`` are the only
places they are written by hand. Everything else is derived here (:func:`expected`) and
either rewritten from it (``--write``: the version-bearing places) or checked against it:

- README.md: the Binder and Colab badges, the site, the PDF and the release ("Read it, run it,
  install it"), the two install pins ("Install"), the BibTeX entry ("How to cite"); any other
  URL of the project's hosts in it must be one of the derived URLs;
- _config.yml: ``repository.url`` and ``repository.branch`` (the launch buttons) and
  ``html.baseurl`` (the site);
- CITATION.cff and .zenodo.json (the DOI's metadata): version, repository, site;
- every notebook's setup cell: the PyPI pin and the git fallback;
- ``sslteach.__version__``;
- with ``--tag``, a release tag (``v`` + the version).

Usage::

    python scripts/release_metadata.py                 # check; exit 1 listing every mismatch
    python scripts/release_metadata.py --tag v0.1.0    # also check a release tag
    python scripts/release_metadata.py --write         # after bumping the version: rewrite the rest
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
FIRST_NOTEBOOK = "notebooks/00_foundations.ipynb"  # the one the README's badges open
# the hosts where the README's URLs that name this project (owner or package) must be derived
# ones; a link to another project on the same hosts is left alone
PROJECT_HOSTS = ("github.com", "github.io", "mybinder.org/v2", "colab.research.google.com/github", "pypi.org")
URL = re.compile(r"https?://[^\s)>\]`'\"}]+")


def expected(root: Path = ROOT) -> dict[str, str]:
    """Every version-bearing string and URL, derived from pyproject.toml."""
    meta = tomllib.loads((root / "pyproject.toml").read_text())
    project = meta["project"]
    name, version, urls = project["name"], project["version"], project["urls"]
    repo = urls["Repository"]
    m = re.fullmatch(r"https://github\.com/([\w.-]+)/([\w.-]+)", repo)
    if not m:
        raise ValueError(
            f"pyproject.toml: [project.urls] Repository must be https://github.com/OWNER/NAME, got {repo!r}"
        )
    owner, repo_name = m.groups()
    site = f"https://{owner.lower()}.github.io/{repo_name}/"  # GitHub Pages' project site
    branch = meta.get("tool", {}).get("sslteach", {}).get("reader-branch")
    if not branch:
        raise ValueError("pyproject.toml: set [tool.sslteach] reader-branch (where the reader notebooks go)")
    return {
        "name": name,
        "version": version,
        "tag": f"v{version}",
        "repository": repo,
        "owner": owner,
        "repo_name": repo_name,
        "site": site,
        "pdf": f"{site}sslteach.pdf",
        "issues": f"{repo}/issues",
        "releases": f"{repo}/releases",
        "release": f"{repo}/releases/tag/v{version}",
        "pypi": f"https://pypi.org/project/{name}/",
        "reader_branch": branch,
        "binder": f"https://mybinder.org/v2/gh/{owner}/{repo_name}/{branch}?urlpath=tree/{FIRST_NOTEBOOK}",
        "colab": f"https://colab.research.google.com/github/{owner}/{repo_name}/blob/{branch}/{FIRST_NOTEBOOK}",
        "pin_pypi": f"{name}=={version}",
        "pin_git": f"{name} @ git+{repo}@v{version}",
        "pin_git_url": f"git+{repo}@v{version}",
    }


def setup_lines(e: dict[str, str]) -> tuple[str, str]:
    """The two lines of every notebook's setup cell that name what to install."""
    return f'SSLTEACH = "{e["pin_pypi"]}"', f'SSLTEACH_GIT = "{e["pin_git"]}"'


def first_code_cell(path: Path) -> dict:
    return next(c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code")


def check(root: Path = ROOT, tag: str | None = None) -> list[str]:
    """Every place that disagrees with pyproject.toml, as messages (empty: all agree)."""
    e = expected(root)
    bad: list[str] = []
    derived = {v for k, v in e.items() if v.startswith("https://")}
    derived |= {e["pin_git_url"], e["pin_git_url"].removeprefix("git+")}

    def want(cond: bool, msg: str) -> None:
        if not cond:
            bad.append(msg)

    # README.md
    readme = (root / "README.md").read_text()
    for key in ("binder", "colab", "site", "pdf", "pin_pypi", "pin_git", "release"):
        want(e[key] in readme, f"README.md: {key} {e[key]!r} missing")
    for url in sorted(set(URL.findall(readme))):
        url = url.rstrip(".,;:")
        ours = e["owner"].lower() in url.lower() or e["name"] in url
        if (
            ours
            and any(h in url for h in PROJECT_HOSTS)
            and "/assets/" not in url
            and not url.endswith(".svg")
        ):
            # a page of the repository (a file, an issue) derives from its URL; a release's does not
            in_repo = url.startswith(e["repository"] + "/") and "/releases/tag/" not in url
            ok = url in derived or in_repo
            want(ok, f"README.md: {url} is not one of the URLs derived from pyproject.toml")
    for pin in re.findall(r"git\+https://[^\s`'\"]+", readme):
        want(pin == e["pin_git_url"], f"README.md: install pin {pin} is not {e['pin_git_url']}")
    for pin in re.findall(rf"\b{re.escape(e['name'])}==[\w.+-]+", readme):
        want(pin == e["pin_pypi"], f"README.md: install pin {pin} is not {e['pin_pypi']}")
    bib = re.search(r"```bibtex\n(.*?)```", readme, re.S)
    want(
        bool(bib) and f"version = {{{e['version']}}}" in bib.group(1), "README.md: the BibTeX entry's version"
    )

    # _config.yml
    config = yaml.safe_load((root / "_config.yml").read_text())
    want(
        config["repository"]["url"] == e["repository"],
        f"_config.yml: repository.url is not {e['repository']}",
    )
    want(
        config["repository"].get("branch") == e["reader_branch"],
        f"_config.yml: repository.branch (the launch buttons' branch) is not {e['reader_branch']}",
    )
    want(config.get("html", {}).get("baseurl") == e["site"], f"_config.yml: html.baseurl is not {e['site']}")

    # CITATION.cff
    cff = yaml.safe_load((root / "CITATION.cff").read_text())
    want(
        str(cff.get("version")) == e["version"],
        f"CITATION.cff: version {cff.get('version')} is not {e['version']}",
    )
    want(
        cff.get("repository-code") == e["repository"],
        f"CITATION.cff: repository-code is not {e['repository']}",
    )
    want(cff.get("url") == e["site"], f"CITATION.cff: url is not {e['site']}")

    # .zenodo.json
    zen_path = root / ".zenodo.json"
    if zen_path.exists():
        zen = json.loads(zen_path.read_text())
        want(
            zen.get("version") == e["version"],
            f".zenodo.json: version {zen.get('version')} is not {e['version']}",
        )
        want(zen.get("title") == cff.get("title"), ".zenodo.json: title differs from CITATION.cff's")
        ids = {r.get("identifier") for r in zen.get("related_identifiers", [])}
        want(
            e["site"] in ids and e["repository"] in ids,
            f".zenodo.json: related_identifiers must hold {e['site']} and {e['repository']}",
        )
        for r in zen.get("related_identifiers", []):
            ident = r.get("identifier", "")
            if ident.startswith("https://"):
                want(ident in derived, f".zenodo.json: {ident} is not derived from pyproject.toml")

    # the setup cells
    lines = setup_lines(e)
    for nb in sorted((root / "notebooks").glob("*.ipynb")):
        src = "".join(first_code_cell(nb)["source"])
        for line in lines:
            want(line in src.splitlines(), f"{nb.relative_to(root)}: the setup cell lacks {line}")
        for url in URL.findall(src):
            want(
                url in derived,
                f"{nb.relative_to(root)}: {url} in the setup cell is not derived from pyproject.toml",
            )

    # sslteach.__version__
    init = (root / "sslteach" / "__init__.py").read_text()
    m = re.search(r'^__version__ = "([^"]+)"', init, re.M)
    want(bool(m) and m.group(1) == e["version"], f"sslteach/__init__.py: __version__ is not {e['version']!r}")

    if tag is not None:
        want(tag == e["tag"], f"the tag {tag} is not v + pyproject.toml's version ({e['tag']})")
    return bad


def write(root: Path = ROOT) -> list[Path]:
    """Rewrite the version-bearing places from pyproject.toml; return the files changed."""
    e = expected(root)
    changed = []

    def sub(path: Path, pattern: str, repl: str, flags: int = re.M) -> None:
        text = path.read_text()
        new = re.sub(pattern, repl, text, flags=flags)
        if new != text:
            path.write_text(new)
            changed.append(path)

    sub(root / "CITATION.cff", r"^version: .*$", f"version: {e['version']}")
    sub(root / "sslteach" / "__init__.py", r'^__version__ = "[^"]*"', f'__version__ = "{e["version"]}"')
    sub(
        root / "README.md",
        r"git\+" + re.escape(e["repository"]) + r"@v[\w.+-]+",
        e["pin_git_url"],
    )
    sub(root / "README.md", rf"\b{re.escape(e['name'])}==[\w.+-]+", e["pin_pypi"])
    sub(root / "README.md", r"version = \{[^}]*\}", f"version = {{{e['version']}}}")
    sub(root / "README.md", re.escape(e["releases"]) + r"/tag/v[\w.+-]+", e["release"])
    zen = root / ".zenodo.json"
    if zen.exists():
        data = json.loads(zen.read_text())
        if data.get("version") != e["version"]:
            data["version"] = e["version"]
            zen.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            changed.append(zen)
    pypi_line, git_line = setup_lines(e)
    for nb in sorted((root / "notebooks").glob("*.ipynb")):
        text = nb.read_text()
        data = json.loads(text)
        cell = next(c for c in data["cells"] if c["cell_type"] == "code")
        src = "".join(cell["source"])
        new = re.sub(r'^SSLTEACH = "[^"]*"$', pypi_line, src, flags=re.M)
        new = re.sub(r'^SSLTEACH_GIT = "[^"]*"$', git_line, new, flags=re.M)
        if new != src:
            cell["source"] = new.splitlines(keepends=True)
            nb.write_text(json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n")  # nbformat's
            changed.append(nb)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tag", help="a release tag to check against the version (e.g. v0.1.0)")
    parser.add_argument("--write", action="store_true", help="rewrite the version-bearing places first")
    args = parser.parse_args(argv)
    if args.write:
        for path in write():
            print(f"rewrote {path.relative_to(ROOT)}")
    bad = check(tag=args.tag)
    for msg in bad:
        print(f"::error::{msg}" if "GITHUB_ACTIONS" in os.environ else msg, file=sys.stderr)
    if not bad:
        e = expected()
        print(f"{e['name']} {e['version']}: every URL and version agrees with pyproject.toml")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
