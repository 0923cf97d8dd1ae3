"""Edited copies of forbidden functions, recognised in the grader's process.

A forbidden function is recognised in the kernel by its code object's key (name, bytecode,
names, constants), so an exact copy, renamed or not, is caught there. An *edited* copy (a
statement added, a variable renamed, dead code appended) has another key. The kernel's hook
therefore reports each function the answer enters (see :mod:`sslteach.teach._kernel_harness`;
a library function once per kernel, the answer's own on every call), and this module judges
the reports:

- code from outside the installed libraries is compared with the forbidden (and withheld)
  functions' code: its instructions are reduced to tokens (:func:`tokens`: the operation, and
  the global or attribute name it uses; local names, constants, jump offsets and the name of a
  module whose attribute is read dropped) and a forbidden function of at least
  :data:`MIN_TOKENS` tokens whose tokens appear, in order, at :data:`CONTAINED` of their
  number or more in the answer's function (the longest common subsequence,
  :func:`lcs_length`), and so do the names among them, is a copy: added statements do not
  hide it, renamed variables change nothing, and only rewriting most of it does; the
  answer's functions are also read together (:func:`copied_together`), so a copy split into
  helpers is found;
- code that names a library file must be that file's: its key is looked up among the keys of
  the file compiled afresh here (:func:`genuine_keys`), so no code can pass for a library's.

Functions shorter than :data:`MIN_TOKENS` tokens are not protected this way: a copy of three
lines is the same as writing them.
"""

from __future__ import annotations

import opcode
import threading
from collections import Counter
from functools import cache

from . import _kernel_harness as codec

#: A forbidden function this long (tokens) is recognised in an edited copy.
MIN_TOKENS = 60
#: The share of its tokens, in order, that an answer's function must contain to be a copy (and
#: the share of the names it uses, in order: generic code, all loads and calls, is not a copy).
CONTAINED = 0.8
#: A forbidden function that uses fewer distinct global or attribute names is too generic to compare.
MIN_NAMES = 3

_SKIP = {
    "CACHE", "NOP", "EXTENDED_ARG", "RESUME", "PRECALL", "PUSH_NULL", "KW_NAMES", "COPY_FREE_VARS",
    "MAKE_CELL", "RETURN_GENERATOR",
}
_NAMED = set(opcode.hasname)
_STORES = {"STORE_ATTR", "STORE_GLOBAL", "STORE_NAME", "DELETE_ATTR", "DELETE_GLOBAL", "DELETE_NAME"}
_LOCAL = {"LOAD_DEREF": "LOAD_FAST", "LOAD_CLOSURE": "LOAD_FAST", "STORE_DEREF": "STORE_FAST",
          "LOAD_FAST_CHECK": "LOAD_FAST", "LOAD_CLASSDEREF": "LOAD_FAST", "DELETE_DEREF": "DELETE_FAST"}
_ATTRS = {"LOAD_ATTR", "LOAD_METHOD"}
_LOCK = threading.Lock()


def tokens(code: bytes, names: tuple) -> tuple[str, ...]:
    """The instructions of ``code`` (a code object's ``co_code``) as comparable tokens.

    >>> def f(x):
    ...     return np.sqrt(x) + 1
    >>> tokens(f.__code__.co_code, f.__code__.co_names)
    ('G', 'N:sqrt', 'LOAD_FAST', 'CALL', 'LOAD_CONST', 'BINARY_OP:0', 'RETURN_VALUE')
    """
    ops = []
    ext = 0
    for i in range(0, len(code) - 1, 2):
        op, arg = code[i], code[i + 1] | ext
        name = opcode.opname[op]
        if name == "EXTENDED_ARG":
            ext = arg << 8
            continue
        ext = 0
        if name not in _SKIP:
            ops.append((op, name, arg))
    out = []
    for i, (op, name, arg) in enumerate(ops):
        if op in _NAMED:
            if name in ("LOAD_GLOBAL", "LOAD_NAME") and i + 1 < len(ops) and ops[i + 1][1] in _ATTRS:
                out.append("G")  # a module (or object) whose attribute is read: np, numpy, _np alike
                continue
            idx = arg >> 1 if name == "LOAD_GLOBAL" else arg
            label = names[idx] if 0 <= idx < len(names) else "?"
            out.append(("S:" if name in _STORES else "N:") + label)
        elif name in ("BINARY_OP", "COMPARE_OP"):
            out.append(f"{name}:{arg}")
        elif "JUMP" in name:
            out.append("JUMP")
        else:
            out.append(_LOCAL.get(name, name))
    return tuple(out)


def lcs_length(a, b) -> int:
    """The length of the longest common subsequence of ``a`` and ``b`` (bit-parallel, Hyyrö 2004).

    >>> lcs_length("ABCBDAB", "BDCABA")
    4
    """
    n = len(a)
    if n == 0 or not b:
        return 0
    masks: dict = {}
    for i, t in enumerate(a):
        masks[t] = masks.get(t, 0) | (1 << i)
    v = (1 << n) - 1
    for t in b:
        u = v & masks.get(t, 0)
        v = (v + u) | (v - u)
    return n - bin(v & ((1 << n) - 1)).count("1")


@cache
def patterns(paths: tuple) -> tuple:
    """``(path, name, tokens, counts, names)`` of every function of the named modules or functions
    that is at least :data:`MIN_TOKENS` tokens long and uses :data:`MIN_NAMES` names (computed
    once per grading process)."""
    out, seen = [], set()
    with _LOCK:
        for path in paths:
            for co in codec._resolve(path):
                t = tokens(co.co_code, co.co_names)
                named = _names(t)
                if len(t) >= MIN_TOKENS and len(set(named)) >= MIN_NAMES and t not in seen:
                    seen.add(t)
                    out.append((path, co.co_name, t, Counter(t), named))
    return tuple(out)


def copied(name: str, code: bytes, names: tuple, pats) -> str:
    """Why a function of the answer's is an edited copy of a forbidden one ("" when it is not)."""
    return _contains(name, tokens(code, names), pats)


def copied_together(functions, pats) -> str:
    """:func:`copied` for several functions ``(name, code, names)`` read one after the other (in
    the order a call first entered them): a copy split into helpers is found so."""
    t = tuple(x for _, code, names in functions for x in tokens(code, names))
    label = "your functions " + ", ".join(name for name, _, _ in functions[:4]) + (
        f" and {len(functions) - 4} more" if len(functions) > 4 else ""
    )
    why = _contains(label, t, pats)
    return why.replace(" is an edited copy of ", " together are an edited copy of ", 1)


def _names(t):
    """The tokens of ``t`` that name a global or an attribute (loaded or stored)."""
    return tuple(x for x in t if x[:2] in ("N:", "S:"))


def _contains(name, t, pats) -> str:
    have = Counter(t)
    named = None
    for path, fname, p, counts, pnamed in pats:
        need = CONTAINED * len(p)
        if len(t) < need or sum(min(c, have[k]) for k, c in counts.items()) < need:
            continue
        common = lcs_length(p, t)
        if common < need:
            continue
        if named is None:
            named = _names(t)
        if lcs_length(pnamed, named) >= CONTAINED * len(pnamed):
            return (
                f"{name} is an edited copy of {path} ({fname}): {common} of its {len(p)} "
                "instructions appear in it, in the same order"
            )
    return ""


@cache
def genuine_keys(path: str) -> frozenset:
    """The keys of every code object of the Python file ``path``, compiled afresh here."""
    try:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
        root = compile(source, path, "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return frozenset()
    return frozenset(codec._key(co) for co in codec._code_objects(root))
