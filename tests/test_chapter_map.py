"""The instructors' chapter map (scripts/make_chapter_map.py) draws what the pages state."""

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _script():
    path = ROOT / "scripts" / "make_chapter_map.py"
    spec = importlib.util.spec_from_file_location("make_chapter_map", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_map_edges_are_the_prerequisites_lines():
    """An arrow for every chapter a method page's Prerequisites line names, and no other."""
    script = _script()
    assert script.prerequisites_from_pages() == set(script.EDGES)


def test_the_committed_map_is_the_one_the_script_draws(tmp_path):
    script = _script()
    svg, _ = script.draw(tmp_path)
    assert svg.read_bytes() == (ROOT / "book" / "figures" / "chapter_map.svg").read_bytes(), (
        "book/figures/chapter_map.svg is stale: run python scripts/make_chapter_map.py"
    )


def test_the_guide_shows_the_map_with_alt_text():
    guide = (ROOT / "book" / "instructors.md").read_text()
    m = re.search(r"```\{image\} figures/chapter_map\.\*\n(.*?)\n```", guide, re.S)
    assert m, "book/instructors.md must show figures/chapter_map.*"
    assert re.search(r"^:alt: \S.{40,}$", m.group(1), re.M), "the figure needs alt text"
