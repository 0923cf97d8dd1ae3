"""Which earlier cells a piece of code needs: a def-use slice over a notebook's code cells.

The grader runs only the cells the graded answers need (the cells that bind a name an
answer reads, transitively), not the whole chapter: seconds instead of a minute. The setup
cell is sliced statement by statement (:func:`slice_statements`): only the imports and
assignments something needs run, so an answer that needs numpy does not wait for
matplotlib, pandas or cvxpy to import; its other statements (styles, print options, the
Colab install, which does nothing where sslteach is installed) do not run. Names are found
syntactically (:mod:`ast`): a cell that reaches a variable through ``globals()`` or
``exec`` is not followed.
"""

from __future__ import annotations

import ast
import threading

_PARSE_LOCK = threading.Lock()


def parse(code: str) -> ast.Module:
    """``ast.parse`` under a lock. CPython 3.11 keeps the AST constructor's recursion depth per
    interpreter, so two threads parsing at once can fail with "SystemError: AST constructor
    recursion depth mismatch" (python/cpython#106905), and ``grade --jobs`` grades in threads.
    """
    with _PARSE_LOCK:
        return ast.parse(code)


def defines(code: str) -> set[str]:
    """Every name a cell binds anywhere (assignments, loops, imports, defs): an over-approximation."""
    try:
        tree = parse(code)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _free(node, bound=frozenset()):
    """Names a node reads that it does not bind itself (function parameters and locals excluded)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        a = node.args
        params = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs} | {
            x.arg for x in (a.vararg, a.kwarg) if x
        }
        body = node.body if isinstance(node.body, list) else [node.body]
        local = set().union(*(_defines_node(b) for b in body)) if body else set()
        inner = set().union(*(_free(b, bound | params | local) for b in body))
        defaults = set().union(*(_free(d, bound) for d in a.defaults + [d for d in a.kw_defaults if d]))
        decorators = set().union(*(_free(d, bound) for d in getattr(node, "decorator_list", [])))
        return inner | defaults | decorators
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Load) and node.id not in bound else set()
    return set().union(*(_free(c, bound) for c in ast.iter_child_nodes(node)))


def _defines_node(node):
    return defines(ast.unparse(node)) if not isinstance(node, ast.Module) else set()


def uses(code: str) -> set[str]:
    """The names a cell reads without binding them first (inside functions too)."""
    try:
        return _free(parse(code))
    except SyntaxError:
        return set()


def slice_statements(source: str, need: set[str]) -> tuple[str, set[str]]:
    r"""The top-level statements of ``source`` that bind a name in ``need``, transitively.

    Returns the kept statements' source (in order, their own lines) and the names the kept
    part reads from earlier cells. A statement that binds nothing needed (a call for its
    side effect, an unused import) is left out; a cell that does not parse is kept whole.

    >>> src = "import numpy as np\nimport pandas as pd\nnp.set_printoptions(3)\nrng = np.random.default_rng()"
    >>> slice_statements(src, {"rng"})
    ('import numpy as np\nrng = np.random.default_rng()', set())
    """
    try:
        tree = parse(source)
    except SyntaxError:
        return source, uses(source)
    lines = source.split("\n")
    need = set(need)
    taken = []
    for node in reversed(tree.body):
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        text = "\n".join(lines[start - 1 : node.end_lineno])
        bound = defines(text)
        if bound & need:
            taken.append(text)
            need = (need - bound) | uses(text)
    return "\n".join(reversed(taken)), need


def needed(sources: list[str], keep: set[int], extra_names=(), first: int | None = None) -> list[int]:
    """Indices of ``sources`` to run so that the cells in ``keep`` (and ``extra_names``) work.

    A backward slice: walking back from the last cell, a cell in ``keep`` is always taken,
    another one when it binds a name still needed; a taken cell satisfies the names it
    binds and adds the names it reads. ``first`` (the setup cell) is always taken.

    >>> needed(["import numpy as np", "a = np.ones(3)", "b = 2", "plot(b)", "c = a + 1",
    ...         "def f(): return c"], keep={5})
    [0, 1, 4, 5]
    """
    need = set(extra_names)
    taken = []
    for i in range(len(sources) - 1, -1, -1):
        bound = defines(sources[i])
        if i in keep or bound & need or i == first:
            taken.append(i)
            need = (need - bound) | uses(sources[i])
    return sorted(taken)


def plan(sources: list[str], keep: set[int], extra_names=(), setup: int | None = 0) -> list[tuple[int, str]]:
    r"""``(index, source)`` of the cells to run: :func:`needed`, with the setup cell sliced.

    The setup cell (index ``setup``, the first by default; None: no cell is special) keeps
    only the statements that bind a name the cells taken after it (or ``extra_names``) need
    (:func:`slice_statements`); it is left out when none does.

    >>> plan(["import numpy as np\nimport pandas as pd\npd.set_option('a', 1)", "x = 1",
    ...       "def f(): return np.ones(2)"], keep={2})
    [(0, 'import numpy as np'), (2, 'def f(): return np.ones(2)')]
    """
    if setup is None or not sources:
        return [(i, sources[i]) for i in needed(sources, keep, extra_names)]
    later = [i for i in needed(sources, keep, extra_names) if i > setup]
    need = set(extra_names)
    for i in reversed(later):
        need = (need - defines(sources[i])) | uses(sources[i])
    text, need = slice_statements(sources[setup], need)
    earlier = needed(sources[:setup], set(), need) if setup else []
    head = [(setup, text)] if text.strip() else []
    return [(i, sources[i]) for i in earlier] + head + [(i, sources[i]) for i in later]
