"""Write the reader copies of the book's notebooks: MyST turned into Jupyter Markdown.

Usage: ``python scripts/make_reader_notebooks.py --out DIR``

For every ``notebooks/*.ipynb`` it writes ``DIR/<same name>.ipynb``: the Markdown cells
converted by ``sslteach.teach.myst`` (directives and roles become Markdown + LaTeX with the
book's numbers and links to the published site), code cells and their stored outputs kept
as they are. These are the notebooks a reader opens in Jupyter, Binder or Colab.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sslteach.teach.myst import book_numbers, convert_notebook  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="directory for the reader notebooks")
    args = parser.parse_args(argv)
    if args.out.resolve() == (ROOT / "notebooks").resolve():
        parser.error("--out must not be notebooks/: the book's sources would be overwritten")
    args.out.mkdir(parents=True, exist_ok=True)
    numbers = book_numbers(ROOT)
    paths = sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in paths:
        nb = json.loads(path.read_text())
        reader = convert_notebook(nb, numbers, docname=f"notebooks/{path.stem}")
        (args.out / path.name).write_text(json.dumps(reader, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(paths)} reader notebooks written to {args.out}")


if __name__ == "__main__":
    main()
