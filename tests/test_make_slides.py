"""Plan text becomes slide HTML with its maths marked for MathJax (scripts/make_slides.py)."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def make_slides():
    pytest.importorskip("markdown_it")
    spec = importlib.util.spec_from_file_location("make_slides", ROOT / "scripts" / "make_slides.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_slides"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("text", ["$\\gamma$ is the eigenvalue 1", "with $\\gamma = 1$ and $n$",
                                  "$a$, not $b$: this"])
def test_every_dollar_pair_becomes_maths(make_slides, text):
    """A text that starts with "$" and ends with a digit was left as raw TeX."""
    for html in (make_slides.MD.renderInline(text), make_slides.MD.render("- " + text)):
        assert "$" not in html and html.count('class="math inline"') == text.count("$") // 2, html


def test_a_heading_with_a_less_than_sign_keeps_its_words(make_slides):
    built = 'The ideal kernel: <span class="math">\\(0&lt;\\rho\\le1\\)</span> why'
    assert make_slides.norm(built) == make_slides.norm("The ideal kernel: $0<\\rho\\le1$ why")
    assert make_slides.norm(built).endswith("why")
