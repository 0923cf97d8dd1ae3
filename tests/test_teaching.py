"""Every method page is one lecture, in the format of STYLE.md's "Teaching conventions".

Foundations and Chapters 1-4: learning objectives, a lecture plan whose core is at most 90
minutes and names the page's sections, optional sections headed "Going further" after the
core, every exercise labelled `**★★ · 25 min**` with a folded hint, 3-5 exam questions with
folded answers, and at most five visible output lines that only say True or False.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
METHOD_PAGES = ["00_foundations", "01_spectral_clustering", "02_cluster_kernels",
                "03_spectral_kernel_learning", "04_semi_supervised_ksc"]
HIDDEN = {"hide-cell", "hide-output", "remove-cell", "remove-output"}
LABEL = re.compile(r"\*\*(★{1,3}) · (\d+) min(?: · open exploration)?\*\*")


def cells(stem):
    return json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text())["cells"]


def text(cell):
    return "".join(cell["source"])


def plan_rows(source):
    """``[(minutes or None, section, status)]`` of a lecture plan's table."""
    rows = []
    for line in source.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) == 3 and not set(parts[0]) <= set("-: ") and parts[0] != "minutes":
            rows.append((int(parts[0]) if parts[0].isdigit() else None, parts[1], parts[2].lower()))
    return rows


def visible_true_false(stem):
    """Visible output lines that end in True or False (a check that only confirms)."""
    lines = []
    for cell in cells(stem):
        if cell["cell_type"] != "code" or HIDDEN & set(cell["metadata"].get("tags", [])):
            continue
        for out in cell.get("outputs", []):
            body = "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))
            lines += [ln for ln in body.splitlines() if re.search(r"\b(True|False)\W*$", ln)]
    return lines


@pytest.mark.parametrize("stem", METHOD_PAGES)
def test_objectives_and_a_lecture_plan_of_at_most_90_minutes(stem):
    sources = [text(c) for c in cells(stem) if c["cell_type"] == "markdown"]
    assert any("{admonition} Learning objectives" in s for s in sources), f"{stem}: no learning objectives"
    plans = [s for s in sources if re.search(r"\{admonition\} Lecture plan", s)]
    assert len(plans) == 1, f"{stem}: one lecture plan, not {len(plans)}"
    rows = plan_rows(plans[0])
    core = [m for m, _, status in rows if status == "core"]
    assert core and None not in core and sum(core) <= 90, f"{stem}: the core takes {core} minutes"
    headings = [m.group(1) for s in sources for m in re.finditer(r"(?m)^## (.+)$", s)]
    further = [h for h in headings if h.startswith("Going further")]
    planned = " ".join(section for _, section, _ in rows)
    missing = [h for h in headings if h not in ("Exercises", "Exam questions", "Summary", "References")
               and not h.startswith("The library") and h.split(":")[-1].strip()[:25] not in planned]
    assert not missing, f"{stem}: sections not in the lecture plan: {missing}"
    if further:  # optional sections come after the core, before the exercises
        first, last_core = headings.index(further[0]), max(
            i for i, h in enumerate(headings) if h not in further and h not in ("Exercises", "Exam questions",
                                                                                 "Summary", "References")
            and not h.startswith("The library"))
        assert first > last_core or last_core < headings.index("Exercises"), headings


@pytest.mark.parametrize("stem", METHOD_PAGES)
def test_every_exercise_is_labelled_and_has_a_folded_hint(stem):
    cs = cells(stem)
    for i, cell in enumerate(cs):
        m = re.search(r":label: (ch\d+-ex-[\w-]+)\n(.*)", text(cell))
        if cell["cell_type"] != "markdown" or not m or "{exercise}" not in text(cell):
            continue
        first = m.group(2).strip()
        assert LABEL.match(first), f"{m.group(1)}: first line {first!r}, not **★★ · 25 min**"
        nxt = text(cs[i + 1]) if i + 1 < len(cs) else ""
        assert re.match(r"\s*```\{hint\}\s*\n:class: dropdown", nxt), f"{m.group(1)}: no folded hint after it"


@pytest.mark.parametrize("stem", METHOD_PAGES)
def test_three_to_five_exam_questions_with_folded_answers(stem):
    sources = [text(c) for c in cells(stem) if c["cell_type"] == "markdown"]
    start = next((k for k, s in enumerate(sources) if re.search(r"(?m)^## Exam questions", s)), None)
    assert start is not None, f"{stem}: no section Exam questions"
    later = [k for k in range(start + 1, len(sources)) if re.search(r"(?m)^## ", sources[k])]
    end = later[0] if later else len(sources)
    section = "\n".join(sources[start:end])
    answers = len(re.findall(r"\{admonition\} Answer\s*\n:class: dropdown", section))
    assert 3 <= answers <= 5, f"{stem}: {answers} exam questions with folded answers"


@pytest.mark.parametrize("stem", METHOD_PAGES)
def test_at_most_five_visible_true_false_lines(stem):
    lines = visible_true_false(stem)
    assert len(lines) <= 5, f"{stem}: {len(lines)} visible True/False lines: {lines}"


def test_the_counts_catch_a_planted_page():
    assert plan_rows("| minutes | section | |\n|---|---|---|\n| 50 | A | core |\n| – | B | reading |") == [
        (50, "A", "core"), (None, "B", "reading")]
    assert not LABEL.match("$\\star\\star$ (30 min).") and LABEL.match("**★★ · 25 min**")


def stated_minutes():
    """``{label: (stars, minutes)}`` of every exercise in the chapters, from its label line."""
    out = {}
    for path in sorted((ROOT / "notebooks").glob("0*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            m = re.search(r":label: (ch\d-ex-[a-z0-9-]+)\n" + LABEL.pattern, text(cell))
            if m:
                out[m.group(1)] = (m.group(2), int(m.group(3)))
    return out


def test_the_instructors_guide_states_each_exercise_as_its_page_does():
    """The guide's exercise tables repeat each exercise's stars and minutes, and the week plan
    adds up the homework's minutes: both must follow the pages."""
    guide, stated = (ROOT / "book" / "instructors.md").read_text(), stated_minutes()
    rows = re.findall(r"^\| \{ref\}`(ch\d-ex-[a-z0-9-]+) <[^\n]*\| (★{1,3}) · (\d+) min \|", guide, re.M)
    assert len(rows) >= 30, f"found only {len(rows)} exercise rows in book/instructors.md"
    wrong = [f"{label}: guide {stars} · {mins}, page {stated.get(label)}"
             for label, stars, mins in rows if stated.get(label) != (stars, int(mins))]
    assert not wrong, "book/instructors.md disagrees with the pages: " + "; ".join(wrong)
    for line, total in re.findall(r"^(  - `ch\d-ex-[^\n]*?)\((\d+) min\)", guide, re.M):
        labels = re.findall(r"`(ch\d-ex-[a-z0-9-]+)`", line)
        assert sum(stated[label][1] for label in labels) == int(total), (
            f"the week plan's homework {labels} adds up to "
            f"{sum(stated[label][1] for label in labels)} min, not {total}")
