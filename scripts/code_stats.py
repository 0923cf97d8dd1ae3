"""Line counts of the ``sslteach`` package: code, docstrings, comments, validation share.

Usage::

    python scripts/code_stats.py                 # table over sslteach/**/*.py
    python scripts/code_stats.py --json          # the same numbers as JSON
    python scripts/code_stats.py --top 15        # longest functions listed (default 10)
    python scripts/code_stats.py path/to/pkg     # another package directory

What each column counts (every physical line is exactly one of blank, docstring,
comment or code):

* **docstring** lines: the lines spanned by a module's, a class's or a function's
  docstring (the string literal that is the first statement of its body), quotes included;
* **comment** lines: lines holding nothing but a ``#`` comment (an inline comment after
  code leaves its line a code line);
* **blank** lines: empty or whitespace-only lines outside any string literal;
* **code** lines: every other line (statements, decorators, a closing bracket on its own
  line, and every line of a multi-line string that is not a docstring, blank or not).

``doc/code`` is docstring lines over code lines, module and class docstrings included.

**Validation share** (``valid%``) is the share of *function code lines* (code lines inside
a ``def``, the ``def`` line itself included, each line counted once) that are validation:

1. every code line of an ``if``/``elif`` test and body whose body ends in ``raise``
   (``if bad: raise ValueError(...)``); the ``else`` branch is not counted, an ``elif``
   chain is judged branch by branch;
2. every code line of a statement (expression, assignment, ``return``) whose value is a
   call to a checker: a function imported from ``sslteach._validation`` (or called as
   ``_validation.name``), scikit-learn's ``check_array``, ``check_X_y``,
   ``check_consistent_length``, ``check_is_fitted``, ``column_or_1d``, ``check_scalar``,
   ``validate_data``, ``_check_sample_weight``, and ``self._validate_params()``;
3. every code line of a ``try`` statement whose handlers all end in ``raise`` (the
   re-raise that turns a library error into our message), body included.

Functions defined in ``_validation.py`` itself are counted by the same rules (their
``if ...: raise`` blocks), not as validation wholesale.

**Longest functions** are ranked by their code lines: the span of the ``def`` (decorators
excluded) minus its docstring, comment and blank lines; a nested function's lines count
for the function that contains it as well.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import sys
import tokenize
from pathlib import Path

SKLEARN_CHECKERS = {
    "check_array",
    "check_X_y",
    "check_consistent_length",
    "check_is_fitted",
    "column_or_1d",
    "check_scalar",
    "validate_data",
    "_check_sample_weight",
    "_validate_params",
}


def _docstring_nodes(tree):
    """The docstring expression of the module and of every class and function."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                yield body[0]


def classify_lines(source):
    """Map each line number (1-based) to 'blank', 'docstring', 'comment' or 'code'."""
    lines = source.splitlines()
    kind = {i: "blank" for i in range(1, len(lines) + 1)}
    tree = ast.parse(source)
    doc_lines = set()
    for node in _docstring_nodes(tree):
        doc_lines.update(range(node.lineno, node.end_lineno + 1))
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    skip = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    for tok in tokens:
        if tok.type in skip:
            continue
        start, end = tok.start[0], tok.end[0]
        for ln in range(start, end + 1):
            if ln in doc_lines:
                kind[ln] = "docstring"
            elif tok.type == tokenize.COMMENT:
                if kind.get(ln) == "blank":
                    kind[ln] = "comment"
            else:
                kind[ln] = "code"
    return tree, kind


def _validation_names(tree):
    """Names bound by ``from ._validation import ...`` (or ``sslteach._validation``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("_validation"):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _is_checker_call(value, checkers):
    if not isinstance(value, ast.Call):
        return False
    f = value.func
    if isinstance(f, ast.Name):
        return f.id in checkers or f.id in SKLEARN_CHECKERS
    if isinstance(f, ast.Attribute):
        if isinstance(f.value, ast.Name) and f.value.id == "_validation":
            return True
        return f.attr in SKLEARN_CHECKERS
    return False


def _ends_in_raise(body):
    return bool(body) and isinstance(body[-1], ast.Raise)


def validation_lines(tree):
    """Line numbers of validation code (see the module docstring for the rules)."""
    checkers = _validation_names(tree)
    out = set()

    def span(node):
        return range(node.lineno, node.end_lineno + 1)

    def visit(node):
        if isinstance(node, ast.If):
            if _ends_in_raise(node.body):
                out.update(range(node.lineno, node.body[-1].end_lineno + 1))
            else:
                for child in node.body:
                    visit(child)
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Try) and node.handlers and all(_ends_in_raise(h.body) for h in node.handlers):
            out.update(span(node))
            return
        if isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign, ast.Return)) and node.value is not None:
            if _is_checker_call(node.value, checkers):
                out.update(span(node))
                return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def function_spans(tree):
    """(qualified name, first line, last line) of every function, methods as Class.name."""
    spans = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                spans.append((name, child.lineno, child.end_lineno))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return spans


def module_stats(path, root):
    source = Path(path).read_text(encoding="utf-8")
    tree, kind = classify_lines(source)
    counts = {k: sum(1 for v in kind.values() if v == k) for k in ("code", "docstring", "comment", "blank")}
    funcs = function_spans(tree)
    fn_lines = set()
    for _, a, b in funcs:
        fn_lines.update(ln for ln in range(a, b + 1) if kind.get(ln) == "code")
    valid = {ln for ln in validation_lines(tree) if ln in fn_lines}
    name = str(Path(path).relative_to(root)).replace("\\", "/")
    functions = [
        {
            "module": name,
            "function": q,
            "code": sum(1 for ln in range(a, b + 1) if kind.get(ln) == "code"),
            "line": a,
        }
        for q, a, b in funcs
    ]
    return {
        "module": name,
        "lines": len(kind),
        **counts,
        "function_code": len(fn_lines),
        "validation": len(valid),
        "functions": functions,
    }


def _ratio(a, b):
    return a / b if b else float("nan")


def summarize(stats):
    total = {
        k: sum(s[k] for s in stats)
        for k in ("lines", "code", "docstring", "comment", "blank", "function_code", "validation")
    }
    total["module"] = "TOTAL"
    total["functions"] = [f for s in stats for f in s["functions"]]
    return total


def row(s):
    longest = max((f["code"] for f in s["functions"]), default=0)
    return (
        f"{s['module']:<32}{s['lines']:>7}{s['code']:>7}{s['docstring']:>7}{s['comment']:>6}{s['blank']:>6}"
        f"{_ratio(s['docstring'], s['code']):>9.2f}"
        f"{100 * _ratio(s['validation'], s['function_code']):>8.1f}{longest:>8}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("package", nargs="?", default=str(Path(__file__).resolve().parents[1] / "sslteach"))
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--top", type=int, default=10, help="how many of the longest functions to list")
    args = parser.parse_args(argv)
    pkg = Path(args.package)
    root = pkg.parent
    stats = [module_stats(p, root) for p in sorted(pkg.rglob("*.py"))]
    total = summarize(stats)
    longest = sorted(total["functions"], key=lambda f: (-f["code"], f["module"], f["line"]))[: args.top]
    if args.json:
        out = {
            "modules": [{k: v for k, v in s.items() if k != "functions"} for s in stats],
            "total": {k: v for k, v in total.items() if k != "functions"},
            "longest_functions": longest,
        }
        for s in out["modules"] + [out["total"]]:
            s["doc_per_code"] = round(_ratio(s["docstring"], s["code"]), 4)
            s["validation_share"] = round(_ratio(s["validation"], s["function_code"]), 4)
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    header = (
        f"{'module':<32}{'lines':>7}{'code':>7}{'doc':>7}{'comm':>6}{'blank':>6}"
        f"{'doc/code':>9}{'valid%':>8}{'longest':>8}"
    )
    print(header)
    print("-" * len(header))
    for s in stats:
        print(row(s))
    print("-" * len(header))
    print(row(total))
    print()
    print(
        f"valid% = validation lines / function code lines ({total['validation']} / {total['function_code']});"
    )
    print("longest = code lines of the module's longest function. See the docstring for the rules.")
    print()
    print(f"Longest functions (code lines, no docstring/comment/blank), top {args.top}:")
    for f in longest:
        print(f"  {f['code']:>5}  {f['module']}:{f['line']}  {f['function']}")
    over = [f for f in total["functions"] if f["code"] > 80]
    print(f"Functions over 80 code lines: {len(over)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
