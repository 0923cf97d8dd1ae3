"""Which cells the answers need: a def-use slice over a notebook's code cells.

The grader runs only the cells that bind a name an answer reads (transitively), and of the
setup cell only the statements something needs, so that grading takes seconds instead of the
chapter's minute. Names are found syntactically; when a name cannot be resolved and a cell
binds names dynamically (``exec``, ``globals()``), the whole notebook runs instead.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
import threading

_LOCK = threading.Lock()  # CPython 3.11's AST constructor is not thread-safe (python/cpython#106905)
_DYNAMIC = re.compile(r"\b(exec|eval|globals|setattr|__dict__|__builtins__)\b|import \*")


def parse(code: str) -> ast.Module:
    """``ast.parse`` under a lock (``grade --jobs`` grades in threads), tried again when another thread
    (a traceback being formatted) parsed at the same time (python/cpython#106905, CPython 3.11)."""
    with _LOCK:
        for _ in range(4):
            try:
                return ast.parse(code)
            except SystemError:
                continue
        return ast.parse(code)


@functools.lru_cache(maxsize=4096)
def defines(code: str) -> frozenset[str]:
    """Every name a cell binds anywhere (assignments, loops, imports, defs): an over-approximation."""
    try:
        tree = parse(code)
    except SyntaxError:
        return frozenset()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def _bound(target) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)} if target is not None else set()


def _free(node, bound=frozenset()):
    """Names a node reads before binding them (parameters, locals, loop and ``as`` targets excluded;
    a module's statements in order, each seeing what the earlier ones bound)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        a = node.args
        params = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x}
        body = node.body if isinstance(node.body, list) else [node.body]
        local = set().union(*(defines(ast.unparse(b)) for b in body))
        inner = set().union(*(_free(b, bound | params | local) for b in body))
        outer = [*a.defaults, *(d for d in a.kw_defaults if d), *getattr(node, "decorator_list", [])]
        return inner | set().union(*(_free(d, bound) for d in outer))
    if isinstance(node, ast.Module):
        out, seen = set(), set(bound)
        for stmt in node.body:
            out |= _free(stmt, frozenset(seen))
            seen |= defines(ast.unparse(stmt))
        return out
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Load) and node.id not in bound else set()
    inner = bound | (_bound(node.target) if isinstance(node, ast.For | ast.AsyncFor) else set())
    inner |= {node.name} if isinstance(node, ast.ExceptHandler) and node.name else set()
    inner |= set().union(*(_bound(g.target) for g in getattr(node, "generators", [])))
    inner |= set().union(*(_bound(i.optional_vars) for i in getattr(node, "items", [])))
    return set().union(*(_free(c, inner) for c in ast.iter_child_nodes(node)))


@functools.lru_cache(maxsize=4096)
def uses(code: str) -> frozenset[str]:
    """The names a cell reads without binding them first (inside functions too).

    >>> sorted(uses("def f(x):\\n    return np.sqrt(x) + c"))
    ['c', 'np']
    """
    try:
        return frozenset(_free(parse(code)))
    except SyntaxError:
        return frozenset()


def slice_statements(code: str, need: set[str]) -> tuple[str, set[str]]:
    """The top-level statements of ``code`` that bind a name in ``need`` (transitively), and the
    names they read from earlier cells. A cell that does not parse is kept whole.

    >>> slice_statements("import numpy as np\\nimport pandas as pd\\nrng = np.random.default_rng()", {"rng"})
    ('import numpy as np\\nrng = np.random.default_rng()', set())
    """
    try:
        tree = parse(code)
    except SyntaxError:
        return code, uses(code)
    lines, need, taken = code.split("\n"), set(need), []
    for node in reversed(tree.body):
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        text = "\n".join(lines[start - 1 : node.end_lineno])
        if defines(text) & need:
            taken.append(text)
            need = (need - defines(text)) | uses(text)
    return "\n".join(reversed(taken)), need


@functools.lru_cache(maxsize=4096)
def _imported(code: str) -> frozenset[str]:
    try:
        tree = parse(code)
    except SyntaxError:
        return frozenset()
    return frozenset((a.asname or a.name).split(".")[0] for n in ast.walk(tree)
                     if isinstance(n, ast.Import | ast.ImportFrom) for a in n.names)


def needed(sources: list[str], keep: set[int], names=()) -> list[int]:
    """Indices of the cells to run so that the cells in ``keep`` (and the names ``names``) work: walking
    back, a cell is taken when it binds a name still needed (a name bound only by an import, from the
    first cell that imports it: importing again binds the same module).

    >>> needed(["import numpy as np", "a = np.ones(3)", "import numpy as np; b = 2", "c = a + 1",
    ...         "def f(): return np.sum(c)"], {4})
    [0, 1, 3, 4]
    """
    first = {}
    for i, code in enumerate(sources):
        for name in defines(code):
            first.setdefault(name, i)
    need, taken = set(names), []
    for i in range(len(sources) - 1, -1, -1):
        bound = defines(sources[i])
        hit = {n for n in bound & need if n not in _imported(sources[i]) or first[n] == i}
        if i in keep or hit:
            taken.append(i)
            need = (need - bound) | uses(sources[i])
    return sorted(taken)


def plan(sources: list[str], keep: set[int], names=()) -> list[tuple[int, str]]:
    """``(index, source)`` of the cells to run, the first cell (the setup cell) sliced statement by
    statement; every cell when a name stays unresolved and a cell left out binds names dynamically.

    >>> plan(["import numpy as np\\nimport pandas as pd", "x = 1", "def f(): return np.ones(2)"], {2})
    [(0, 'import numpy as np'), (2, 'def f(): return np.ones(2)')]
    """
    taken = needed(sources, keep, names)
    known = set().union(*map(defines, sources), dir(builtins)) if sources else set()
    unresolved = (set(names) | set().union(*(uses(sources[i]) for i in taken))) - known
    left_out = [i for i in range(len(sources)) if i not in taken]
    if unresolved and any(_DYNAMIC.search(sources[i]) for i in left_out):
        return list(enumerate(sources))
    later = [i for i in taken if i > 0]
    need = set(names)
    for i in reversed(later):
        need = (need - defines(sources[i])) | uses(sources[i])
    head = sources[0] if 0 in keep else slice_statements(sources[0], need)[0] if sources else ""
    return ([(0, head)] if head.strip() else []) + [(i, sources[i]) for i in later]
