"""Tag every notebook's setup cell ``hide-input``: on the site it folds behind a toggle.

Usage: ``python scripts/tag_setup_cells.py`` (tag), ``python scripts/tag_setup_cells.py --check``
(exit 1 if a setup cell lacks the tag).

The setup cell is a notebook's first code cell (it installs sslteach on Colab and imports
what the chapter uses). The reader of the book does not need it on show; the notebooks keep
it, and Jupyter and Colab show it as usual. Only the cell's ``metadata.tags`` changes: the
notebook is read and written with nbformat, nothing is executed.
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
        tags = cell.metadata.get("tags", [])
        if TAG in tags:
            continue
        if args.check:
            missing.append(f"{path.name}: setup cell not tagged {TAG}")
            continue
        cell.metadata["tags"] = [*tags, TAG]
        nbformat.write(nb, path)
        print(f"tagged {path.name}")
    for m in missing:
        print(m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
