"""The bibliography's labels in the citation style: "Liu et al., 2009" rather than "[8]".

The text cites author-year (``bibtex_reference_style: author_year``); pybtex's styles label
the bibliography with numbers or "alpha" keys. This Sphinx extension registers the pybtex
style ``authoryear``: the ``plain`` style (sorted by author, year, title) with labels
"Torgerson, 1952", "Bodó and Csató, 2010", "Liu et al., 2009" (a, b, ... added when two
works would get the same label). ``_config.yml`` selects it with
``bibtex_default_style: authoryear``.
"""

from __future__ import annotations

from collections import Counter

from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle


def _last(person):
    parts = person.prelast_names + person.last_names
    text = " ".join(parts)
    return text.replace("{", "").replace("}", "")


class AuthorYearLabelStyle(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        labels = []
        for entry in sorted_entries:
            people = entry.persons.get("author") or entry.persons.get("editor") or []
            names = [_last(p) for p in people]
            if len(names) == 1:
                who = names[0]
            elif len(names) == 2:
                who = f"{names[0]} and {names[1]}"
            elif names:
                who = f"{names[0]} et al."
            else:
                who = entry.fields.get("title", entry.key)
            labels.append(f"{who}, {entry.fields.get('year', 'n.d.')}")
        seen, count = Counter(), Counter(labels)
        for label in labels:
            if count[label] > 1:
                seen[label] += 1
                yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]
            else:
                yield label


class AuthorYearStyle(PlainStyle):
    default_label_style = "authoryear"


register_plugin("pybtex.style.labels", "authoryear", AuthorYearLabelStyle)
register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)


def setup(app):
    return {"parallel_read_safe": True, "parallel_write_safe": True}
