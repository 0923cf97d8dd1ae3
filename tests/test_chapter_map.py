"""The instructors' chapter map (scripts/make_chapter_map.py) draws what the pages state."""

import importlib.util
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

