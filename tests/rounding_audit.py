"""Inside a notebook's kernel under nbval: record every number that is printed rounded at a half.

A number printed to a fixed precision sits on a rounding edge when its value is within round-off
of a half of the last printed digit (``0.0625`` printed with three decimals, ``96.625`` with two).
Which way it goes is then decided by the last bit of the value, and the last bit differs between
CPUs, BLAS kernels and SIMD paths: one machine prints ``0.062``, another ``0.063``. The stored
output cannot tell (it holds the rounded digits only), so the audit looks at the values as they
are printed. The root ``conftest.py`` loads this file into every nbval kernel (an IPython startup
file) and fails the cell that printed such a number.

What it sees, wherever the code is in a notebook cell or in ``sslteach`` (whose modules are
compiled through the same rewrite when the kernel imports them):

- format specifications with a precision: f-strings (``f"{x:.3f}"``), ``format(x, ".3f")``,
  ``"{:.2%}".format(x)`` and ``"%.2f" % x`` with a literal format string;
- in notebook cells, ``round(x, k)``, ``np.round(x, k)``, ``np.around(x, k)`` and ``x.round(k)``
  (numpy, pandas), which cells use to print (the library rounds to decide, not to print);
- numpy's array printing at its print precision (``np.set_printoptions(precision=4)``) and
  pandas' float formatting at ``display.precision``, except while a module is being imported
  (scipy builds docstring examples then; nothing is shown).

A value is on the edge when ``|x - h| <= EDGE_RTOL * max(|x|, q)`` for the half ``h`` between two
printed values ``q`` apart. Exact zeros and integers are never on an edge. Records go, one JSON
line each, to the file named by ``SSLTEACH_ROUNDING_AUDIT``.
"""

from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import json
import math
import os
import re
import string
import sys

EDGE_RTOL = 1e-12

_SPEC = re.compile(
    r"^(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?z?#?0?(?P<width>\d+)?[,_]?"
    r"(?:\.(?P<precision>\d+))?(?P<type>[bcdeEfFgGnosxX%])?$"
)
_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.(\d+))?([diouxXeEfFgGcrsa%])")


def _quantum(x: float, precision: int, kind: str | None) -> float | None:
    """The distance between two neighbouring printed values near ``x``, or None if not rounded."""
    if kind in ("f", "F"):
        return 10.0**-precision
    if kind == "%":
        return 10.0**-precision / 100
    if x == 0:
        return None
    exponent = math.floor(math.log10(abs(x)))
    if kind in ("e", "E"):
        return 10.0 ** (exponent - precision)
    if kind in ("g", "G", None, "n"):
        return 10.0 ** (exponent - max(precision, 1) + 1)
    return None


def on_edge(x, precision: int, kind: str | None) -> bool:
    """Is the float ``x``, printed at ``precision`` with presentation type ``kind``, on an edge?"""
    try:
        x = float(x)
    except (TypeError, ValueError):
        return False
    if not math.isfinite(x) or x == 0 or x == int(x) and abs(x) < 2**53:
        return False
    q = _quantum(x, precision, kind)
    if q is None:
        return False
    h = (math.floor(x / q) + 0.5) * q
    return abs(x - h) <= EDGE_RTOL * max(abs(x), q)


def _floats(value):
    """The float entries of a number, numpy array or pandas object (nothing else)."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if isinstance(value, bool | int | str | bytes) or value is None:
        return []
    if isinstance(value, float):
        return [value]
    if np is not None:
        if isinstance(value, np.generic):
            return [float(value)] if np.issubdtype(type(value), np.floating) else []
        to_numpy = getattr(value, "to_numpy", None)
        arr = value if isinstance(value, np.ndarray) else None
        if arr is None and to_numpy is not None:
            try:
                arr = to_numpy()
            except Exception:
                return []
        if arr is not None:
            if arr.dtype.kind == "f":
                return arr.ravel().tolist()
            if arr.dtype.kind == "O":
                return [float(v) for v in arr.ravel() if isinstance(v, float | np.floating)]
    return []


def _importing() -> bool:
    """Is an import under way (a library building its docstrings, say): nothing is shown then."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _record(where: str, value: float, precision: int, kind: str | None) -> None:
    path = os.environ.get("SSLTEACH_ROUNDING_AUDIT")
    if not path:
        return
    line = json.dumps({"where": where, "value": repr(value), "precision": precision, "type": kind})
    with open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")


def _check(value, precision: int, kind: str | None, where: str) -> None:
    for x in _floats(value):
        if on_edge(x, precision, kind):
            _record(where, x, precision, kind)
            return


def _check_spec(value, spec: str, where: str) -> None:
    m = _SPEC.match(spec or "")
    if m and m.group("precision") is not None and m.group("type") not in tuple("bcdnosxX"):
        _check(value, int(m.group("precision")), m.group("type"), where)


# --- the functions the rewritten code calls --------------------------------------------------


def audit_format(value, spec, where):
    """``format(value, spec)``, recording ``value`` if it prints on an edge."""
    try:
        _check_spec(value, spec, where)
    except Exception:  # the audit never changes what the code does
        pass
    return format(value, spec)


def audit_str_format(template, where, /, *args, **kwargs):
    """``template.format(*args, **kwargs)``, auditing each replacement field with a precision."""
    try:
        auto = 0
        for _, field, spec, _ in string.Formatter().parse(template):
            if field is None:
                continue
            if field == "":
                key, auto = auto, auto + 1
            else:
                key = field.split(".")[0].split("[")[0]
                key = int(key) if key.isdigit() else key
            value = args[key] if isinstance(key, int) and key < len(args) else kwargs.get(key)
            if spec and "{" not in spec and value is not None:
                _check_spec(value, spec, where)
    except Exception:
        pass
    return template.format(*args, **kwargs)


def audit_percent(template, values, where):
    """``template % values``, auditing each float conversion with a precision."""
    try:
        items = values if isinstance(values, tuple) else (values,)
        convs = _PERCENT_SPEC.findall(template)
        convs = [c for c in convs if c[1] != "%"]
        if not isinstance(values, dict):
            for (precision, kind), value in zip(convs, items):
                if precision and kind in "eEfFgG":
                    _check(value, int(precision), kind, where)
    except Exception:
        pass
    return template % values


def audit_round(func, where, /, *args, **kwargs):
    """``func(*args, **kwargs)`` for ``round``, ``np.round``, ``np.around``."""
    try:
        decimals = args[1] if len(args) > 1 else kwargs.get("decimals", kwargs.get("ndigits", 0))
        if decimals is not None and args:
            _check(args[0], int(decimals), "f", where)
    except Exception:
        pass
    return func(*args, **kwargs)


def audit_round_method(obj, where, /, *args, **kwargs):
    """``obj.round(*args, **kwargs)`` (numpy arrays and scalars, pandas objects)."""
    try:
        import numpy as np

        if obj is np or getattr(obj, "__name__", "") == "numpy":
            return audit_round(np.round, where, *args, **kwargs)
        decimals = args[0] if args else kwargs.get("decimals", 0)
        if isinstance(decimals, int):
            _check(obj, decimals, "f", where)
    except Exception:
        pass
    return obj.round(*args, **kwargs)


# --- the rewrite -----------------------------------------------------------------------------

_NAME = "__sslteach_rounding_audit__"


class _Rewrite(ast.NodeTransformer):
    """Route every formatting with a precision and every rounding call through the audit."""

    def __init__(self, origin: str, rounding: bool = True):
        self.origin = origin
        self.rounding = rounding  # audit round() calls too (cells: they round to print)

    def _where(self, node) -> ast.Constant:
        """Where the printing code is: its text, and its line in the cell or module defining it."""
        try:
            text = ast.unparse(node)
        except Exception:  # pragma: no cover
            text = "?"
        text = text if len(text) <= 80 else text[:77] + "..."
        return ast.Constant(f"`{text}`, line {getattr(node, 'lineno', '?')} of {self.origin}")

    def _call(self, attr, node, args, keywords=()):
        func = ast.Attribute(ast.Name(_NAME, ast.Load()), attr, ast.Load())
        return ast.copy_location(ast.Call(func, args, list(keywords)), node)

    def visit_FormattedValue(self, node):
        self.generic_visit(node)
        spec = node.format_spec
        if not (isinstance(spec, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in spec.values)):
            return node
        text = "".join(v.value for v in spec.values)
        if "." not in text:
            return node
        value = node.value
        if node.conversion != -1:
            conv = {115: "str", 114: "repr", 97: "ascii"}[node.conversion]
            value = ast.Call(ast.Name(conv, ast.Load()), [value], [])
        call = self._call("audit_format", node, [value, ast.Constant(text), self._where(node)])
        return ast.copy_location(ast.FormattedValue(call, -1, None), node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        left = node.left
        if isinstance(node.op, ast.Mod) and isinstance(left, ast.Constant) and isinstance(left.value, str):
            return self._call("audit_percent", node, [node.left, node.right, self._where(node)])
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return node
        if isinstance(f, ast.Name) and f.id == "format" and len(node.args) == 2:
            return self._call("audit_format", node, [*node.args, self._where(node)])
        if not self.rounding:
            return node
        if isinstance(f, ast.Name) and f.id == "round" and len(node.args) + len(node.keywords) >= 2:
            return self._call("audit_round", node, [f, self._where(node), *node.args], node.keywords)
        where, args, kw = self._where(node), node.args, node.keywords
        literal = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Constant)
        if literal and f.attr == "format" and isinstance(f.value.value, str):
            return self._call("audit_str_format", node, [f.value, where, *args], kw)
        if isinstance(f, ast.Attribute) and f.attr == "around":
            return self._call("audit_round", node, [f, where, *args], kw)
        if isinstance(f, ast.Attribute) and f.attr == "round":
            return self._call("audit_round_method", node, [f.value, where, *args], kw)
        return node


def rewrite(tree: ast.AST, origin: str, rounding: bool = True) -> ast.AST:
    """``tree`` with its formatting (and, if ``rounding``, its rounding calls) routed through the audit."""
    return ast.fix_missing_locations(_Rewrite(origin, rounding).visit(tree))


# --- numpy's and pandas' own float printing ---------------------------------------------------


def _patch_numpy() -> None:
    import numpy as np

    try:
        from numpy._core import arrayprint
    except ImportError:  # numpy < 2
        from numpy.core import arrayprint  # type: ignore[no-redef]
    cls = arrayprint.FloatingFormat
    original = cls.__call__
    if getattr(original, "_audited", False):
        return

    def __call__(self, x):
        try:
            if _importing():
                pass
            elif self.floatmode != "unique" and not self.exp_format and np.isfinite(x):
                if on_edge(float(x), self.precision, "f"):
                    _record("numpy array printing", float(x), self.precision, "f")
            elif self.exp_format and np.isfinite(x) and self.floatmode != "unique":
                if on_edge(float(x), self.precision, "e"):
                    _record("numpy array printing", float(x), self.precision, "e")
        except Exception:
            pass
        return original(self, x)

    __call__._audited = True
    cls.__call__ = __call__


def _patch_pandas() -> None:
    try:
        import pandas as pd
        from pandas.io.formats import format as fmt
    except ImportError:  # pragma: no cover
        return
    cls = fmt.FloatArrayFormatter
    original = cls._format_strings
    if getattr(original, "_audited", False):
        return

    def _format_strings(self):
        try:
            if self.float_format is None and self.formatter is None and not _importing():
                precision = pd.get_option("display.precision")
                for x in _floats(self.values):
                    if on_edge(x, precision, "f"):
                        _record("pandas float formatting", x, precision, "f")
                        break
        except Exception:
            pass
        return original(self)

    _format_strings._audited = True
    cls._format_strings = _format_strings


# --- loading sslteach through the rewrite -----------------------------------------------------


class _AuditedLoader(importlib.machinery.SourceFileLoader):
    """Compiles the source through the rewrite, always from the source: the rewritten code is
    never written to (or read from) ``__pycache__``, where a normal import would find it."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        tree = ast.parse(self.get_data(path), filename=path)
        # In the library, round() snaps values for decisions (sslteach._decisions): only the
        # format specifications print.
        code = rewrite(tree, os.path.basename(path), rounding=False)
        return compile(code, path, "exec", dont_inherit=True)


class _AuditedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != "sslteach" and not name.startswith("sslteach."):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        source = isinstance(spec.loader, importlib.machinery.SourceFileLoader)
        if source and spec.origin and spec.origin.endswith(".py"):
            spec.loader = _AuditedLoader(spec.loader.name, spec.loader.path)
        return spec


class _IPythonRewrite(ast.NodeTransformer):
    """IPython's AST transformer: rewrites each cell before it runs."""

    def visit_Module(self, node):
        ip = get_ipython()  # noqa: F821 (defined in the kernel)
        return rewrite(node, f"the cell run as [{ip.execution_count}]")


def install(ip) -> None:
    """Set up the audit in the IPython shell ``ip`` (called from the startup file)."""
    import types

    module = types.ModuleType(_NAME)
    for name in ("audit_format", "audit_str_format", "audit_percent", "audit_round", "audit_round_method"):
        setattr(module, name, globals()[name])
    import builtins

    setattr(builtins, _NAME, module)
    sys.meta_path.insert(0, _AuditedFinder())
    ip.ast_transformers.append(_IPythonRewrite())
    _patch_numpy()
    _patch_pandas()
