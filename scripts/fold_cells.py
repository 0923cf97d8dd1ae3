"""Fold on the site what a reader of the book does not need on show: tag ``hide-input``.

Usage: ``python scripts/fold_cells.py`` (tag), ``python scripts/fold_cells.py --check``
(exit 1 if a cell lacks the tag).

Two kinds of cells are folded behind a toggle ("Show code cell source"), their outputs
still shown:

* every notebook's setup cell, its first code cell (it installs sslteach on Colab and
  imports what the chapter uses);
* every exercise's check cell (tag ``check``: it verifies the reader's answer; its verdict
  stays on show).

The notebooks keep both, and Jupyter and Colab show them as usual. Only the cells'
``metadata.tags`` change: the notebooks are read and written with nbformat, nothing is
executed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TAG = "hide-input"


def setup_cell(nb):
    cell = next((c for c in nb.cells if c.cell_type == "code"), None)
    if cell is None or 'find_spec("sslteach")' not in cell.source:
        return None
    return cell


def main(argv=None):
    import nbformat

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check, change nothing")
    parser.add_argument("--notebooks", type=Path, default=ROOT / "notebooks", help="folder of notebooks")
    args = parser.parse_args(argv)
    missing = []
    for path in sorted(args.notebooks.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cell = setup_cell(nb)
        if cell is None:
            missing.append(f"{path.name}: no setup cell (first code cell with find_spec(\"sslteach\"))")
            continue
        folded = [("setup cell", cell)] + [
            (f"check cell {c.get('id', '')}", c) for c in nb.cells if "check" in c.metadata.get("tags", [])
        ]
        changed = 0
        for what, c in folded:
            tags = c.metadata.get("tags", [])
            if TAG in tags:
                continue
            if args.check:
                missing.append(f"{path.name}: {what} not tagged {TAG}")
                continue
            c.metadata["tags"] = [*tags, TAG]
            changed += 1
        if changed:
            nbformat.write(nb, path)
            print(f"{path.name}: tagged {changed} cell(s) {TAG}")
    for m in missing:
        print(m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
