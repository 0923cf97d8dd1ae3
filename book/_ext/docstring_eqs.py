"""Equation labels in docstrings become the book's numbered, linked equation references.

sslteach's docstrings name the book's equations by label as literal text, ``eq:rbf``, which
reads well in ``help()`` but showed as a raw label on the API pages. When autodoc reads a
docstring for the book, this extension turns each such literal into the math role
:eq:`eq:rbf`, which Sphinx renders as the equation's number, "(0.2)", linked to the chapter.
A label no chapter defines stays a warning of the build (``-W`` fails it).
"""

from __future__ import annotations

import re

LABEL = re.compile(r"``(eq:[\w-]+)``")


def _eq_roles(app, what, name, obj, options, lines):
    for i, line in enumerate(lines):
        lines[i] = LABEL.sub(r":eq:`\1`", line)


def setup(app):
    app.connect("autodoc-process-docstring", _eq_roles)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
