"""Draw the map of the chapters for the instructors' guide (``book/instructors.md``).

Usage::

    python scripts/make_chapter_map.py            # writes book/figures/chapter_map.{svg,png}
    python scripts/make_chapter_map.py --out DIR  # the same two files in DIR

One box per chapter (its method page and its reproduction page), one arrow from chapter A
to chapter B where B's *Prerequisites* line names A, labelled with what B uses from A. The
edges are read from the method pages' Prerequisites lines when the script runs, and the
script stops if they are not the edges drawn below, so the picture cannot drift from the
pages. The SVG is for the site, the PNG for the PDF (``{figure}`` picks one by ``.*``).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: chapter -> (method page stem, box centre (x, y) in inches, the box's three lines)
CHAPTERS = {
    0: (
        "00_foundations",
        (3.4, 4.45),
        ["Foundations", "kernels, centering, MDS,", "k-NN graphs, Laplacians, data"],
    ),
    1: (
        "01_spectral_clustering",
        (1.1, 3.0),
        ["Chapter 1", "Cristianini et al. 2001", "spectral relaxation"],
    ),
    2: ("02_cluster_kernels", (3.4, 3.0), ["Chapter 2", "Bodó & Csató 2010", "cluster kernels"]),
    3: ("03_spectral_kernel_learning", (5.7, 3.0), ["Chapter 3", "Liu et al. 2009", "kernel learning by LP"]),
    4: ("04_semi_supervised_ksc", (2.25, 1.6), ["Chapter 4", "Alzate & Suykens 2012", "semi-supervised KSC"]),
    5: (
        "05_comparison",
        (3.4, 0.42),
        [
            "Chapter 5 and the scorecard",
            "every method on Chapelle's benchmark,",
            "one protocol; rank and Wilcoxon tests",
        ],
    ),
}

#: (from, to) -> what the later chapter uses, as its Prerequisites line says (shortened)
EDGES = {
    (0, 1): "kernels, centering,\nLaplacians",
    (0, 2): "MDS, Schoenberg,\ngeodesics",
    (0, 3): "k-NN graph,\nnormalised Laplacian",
    (0, 4): "kernels,\ncentering",
    (1, 4): "eigenvectors as\nrelaxed labellings",
    (1, 5): "",
    (2, 5): "",
    (3, 5): "the methods of\nChapters 1–4",
    (4, 5): "",
}

BOX_W, BOX_H = 1.8, 0.78
TOP_W = 3.0  # the Foundations box
WIDE_W = 6.4  # Chapter 5's box


def prerequisites_from_pages():
    """The edges the method pages' Prerequisites lines state: {(earlier, later)}."""
    stems = {stem: ch for ch, (stem, _, _) in CHAPTERS.items()}
    edges = set()
    for ch, (stem, _, _) in CHAPTERS.items():
        nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text())
        text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
        m = re.search(r"Prerequisites:?\*?:?(.*?)(?:\n\n|$)", text, re.S)
        if m is None:
            raise SystemExit(f"{stem}: no Prerequisites line")
        line = m.group(1)
        for name in re.findall(r"\{doc\}`(?:[^`<]*<)?(?:\.\./notebooks/)?(0\d_[a-z_]+)>?`", line):
            edges.add((stems[name], ch))
        for a, b in re.findall(r"Chapters (\d)[–-](\d)", line):
            edges.update((k, ch) for k in range(int(a), int(b) + 1))
    return edges


def box_size(ch):
    return {0: TOP_W, 5: WIDE_W}.get(ch, BOX_W), BOX_H


def anchor(ch, side, dx=0.0):
    """A point on the top or bottom edge of chapter ``ch``'s box, ``dx`` inches off centre."""
    (x, y), (_, h) = CHAPTERS[ch][1], box_size(ch)
    return (x + dx, y + h / 2) if side == "top" else (x + dx, y - h / 2)


def draw(out: Path):
    drawn = set(EDGES)
    stated = prerequisites_from_pages()
    if stated != drawn:
        raise SystemExit(f"the Prerequisites lines state {sorted(stated)}, the map draws {sorted(drawn)}")

    fig = plt.figure(figsize=(6.8, 5.0))
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, 6.8)
    ax.set_ylim(-0.05, 4.95)
    ax.set_axis_off()

    for ch, (_, (x, y), lines) in CHAPTERS.items():
        w, h = box_size(ch)
        face = "#eef3fa" if ch in (1, 2, 3, 4) else "#f4f4f4"
        ax.add_patch(
            FancyBboxPatch(
                (x - w / 2, y - h / 2),
                w,
                h,
                boxstyle="round,pad=0.02,rounding_size=0.08",
                fc=face,
                ec="#33557a",
                lw=1.2,
            )
        )
        ax.text(x, y + 0.2, lines[0], ha="center", va="center", fontsize=10, weight="bold")
        ax.text(x, y - 0.02, lines[1], ha="center", va="center", fontsize=8.5)
        ax.text(x, y - 0.22, lines[2], ha="center", va="center", fontsize=8.5)

    # arrows: (from, to) -> (start, end, curvature, label position, label alignment)
    routes = {
        (0, 1): (anchor(0, "bottom", -1.3), anchor(1, "top", 0.3), 0.0, (1.45, 3.95), "right"),
        (0, 4): (anchor(0, "bottom", -1.15), anchor(4, "top", 0.0), 0.0, (2.33, 3.85), "left"),
        (0, 2): (anchor(0, "bottom", 0.0), anchor(2, "top", 0.0), 0.0, (3.48, 3.85), "left"),
        (0, 3): (anchor(0, "bottom", 1.3), anchor(3, "top", -0.3), 0.0, (5.35, 3.95), "left"),
        (1, 4): (anchor(1, "bottom", 0.3), anchor(4, "top", -0.55), 0.0, (0.55, 2.28), "left"),
        (1, 5): (anchor(1, "bottom", -0.75), anchor(5, "top", -3.05), 0.0, None, None),
        (2, 5): (anchor(2, "bottom", 0.55), anchor(5, "top", 0.55), 0.0, None, None),
        (3, 5): (anchor(3, "bottom", 0.0), anchor(5, "top", 2.3), 0.0, (5.8, 1.6), "left"),
        (4, 5): (anchor(4, "bottom", 0.0), anchor(5, "top", -1.15), 0.0, None, None),
    }
    for edge, (start, end, rad, pos, align) in routes.items():
        ax.add_patch(
            FancyArrowPatch(
                start,
                end,
                arrowstyle="-|>",
                mutation_scale=11,
                lw=1.1,
                color="#33557a",
                connectionstyle=f"arc3,rad={rad}",
                shrinkA=1,
                shrinkB=2,
            )
        )
        if pos is not None and EDGES[edge]:
            ax.text(
                *pos,
                EDGES[edge],
                ha=align,
                va="center",
                fontsize=7.5,
                color="#333333",
                style="italic",
                linespacing=1.1,
            )

    out.mkdir(parents=True, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "sslteach-chapter-map"  # stable ids: the SVG diffs cleanly
    fig.savefig(out / "chapter_map.svg", metadata={"Date": None})
    fig.savefig(out / "chapter_map.png", dpi=200, metadata={"Software": None})
    plt.close(fig)
    return out / "chapter_map.svg", out / "chapter_map.png"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "book" / "figures")
    args = parser.parse_args(argv)
    for path in draw(args.out):
        print("wrote", path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
