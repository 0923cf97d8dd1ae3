"""The code the grader sends into a submission's kernel to call the student's functions.

This file is read as text by :mod:`sslteach.teach.hidden` and executed in a fresh
namespace of the kernel: once *before* the submission's first cell, to register the
kernel's audit hook (:func:`install_guard`), and for every call *after* the submission's
cells have run, so nothing the submission did earlier can replace it. It uses only the
standard library and numpy.
The grader imports the same file for :func:`encode` and :func:`decode`, the only way
values travel between the two processes: JSON with numpy arrays as ``.npy`` bytes
(``allow_pickle=False`` both ways), never pickles.

:func:`call` runs one hidden-test call: it decodes the arguments, looks the function up in
the kernel's user namespace, calls it under a profile hook that records every Python
function entered, and prints lines ``<nonce><kind><literal>`` at once: the forbidden
functions it reached (by code object and by bytecode fingerprint, so a copy made with
``types.FunctionType`` or pasted source is the same function), any attempt to switch the
hook off, reach the grader's objects, or start a thread or a process while graded (``V``),
the required functions reached (``Q``), the LPs given to HiGHS when a spec records them
(``L``), and last one line with the encoded result and the seconds it took (``R``). The
hook's tables are immutable and its caches C objects; the audit hook refuses the routes to
the hook and the harness's frames (see :func:`install_guard`). Functions listed as
*withheld* have chosen keys of the dict they return (``linprog``'s multipliers, say)
replaced by :class:`Withheld` when they return to the student's code, so an answer cannot
read a solver's dual values where the exercise asks it to solve the dual itself.
"""

import base64
import io
import os
from _thread import allocate_lock as _allocate_lock
from _thread import get_ident as _thread_ident
from itertools import count as _count  # bound when the harness is installed, before any cell

import numpy as np

_MAX_DEPTH = 20


def encode(obj, depth=0):
    """Plain JSON data for ``obj``: numbers, strings, lists, dicts and numpy arrays (as .npy).

    It runs after the graded call, outside the profile hook, so it reads values without
    running code the answer defined: the type is ``type(obj)`` (never ``obj.__class__``), a
    subclass of a built-in type (a ``list`` whose ``__iter__`` computes, a ``float`` with its
    own ``__float__``) is read through the built-in type's own C methods, and an object array
    is read element by element. A numpy scalar of a type defined in Python is not read at
    all. pandas objects and scipy.sparse matrices are read through their library's
    methods (``to_numpy``, ``tocsr``), only for the genuine classes.
    """
    if depth > _MAX_DEPTH:
        raise ValueError("the value is nested too deeply to be graded")
    t = type(obj)
    if obj is None or t is bool:
        return obj
    if issubclass(t, str):
        return str.__str__(obj)
    if issubclass(t, np.generic) and _heap_type(t) and not issubclass(t, float):
        return {"__type__": _type_name(t)}  # a numpy scalar type made in Python: its methods would run here
    if issubclass(t, np.bool_):
        return bool(obj)
    if issubclass(t, int):
        return {"__int__": str(int.__index__(obj))}
    if issubclass(t, np.integer):
        return {"__int__": str(int(obj))}
    if issubclass(t, float):
        return {"__float__": repr(float.__float__(obj))}
    if issubclass(t, np.floating):
        return {"__float__": repr(float(obj))}
    if issubclass(t, complex | np.complexfloating):
        return encode(np.asarray(obj), depth + 1)
    if issubclass(t, np.ufunc):
        return {"__ufunc__": obj.__name__}
    if _pandas_values(t):  # a pandas Series, DataFrame or Index travels as its numpy values
        return encode(np.asarray(obj.to_numpy()), depth + 1)
    if _sparse_matrix(t):
        m = obj.tocsr()  # a scipy.sparse matrix travels as CSR arrays
        return {
            "__csr__": [
                encode(np.asarray(m.data), depth + 1),
                encode(np.asarray(m.indices), depth + 1),
                encode(np.asarray(m.indptr), depth + 1),
                [int(m.shape[0]), int(m.shape[1])],
            ]
        }
    if issubclass(t, np.ndarray):
        arr = np.asarray(obj)  # a plain view of a subclass's data: numpy runs none of the subclass's methods
        if arr.dtype.hasobject:  # its elements, each read as a value (their own methods never run)
            if arr.ndim == 0:
                return encode(arr[()], depth + 1)
            return {"__seq__": [encode(x, depth + 1) for x in arr.tolist()]}
        buf = io.BytesIO()
        np.save(buf, arr, allow_pickle=False)
        return {"__npy__": base64.b64encode(buf.getvalue()).decode("ascii")}
    if t is list:
        fast = _float_rows(obj)
        if fast is not None:
            return fast
    if issubclass(t, list):
        return {"__seq__": [encode(x, depth + 1) for x in list.copy(obj)]}
    if issubclass(t, tuple):
        return {"__seq__": [encode(x, depth + 1) for x in tuple.__getitem__(obj, slice(None))]}
    if issubclass(t, dict):
        return {"__dict__": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in dict.items(obj)]}
    if _type_name(t) == "types.SimpleNamespace" and not _heap_type(t):
        return {"__ns__": {str.__str__(k): encode(v, depth + 1) for k, v in dict.items(vars(obj))}}
    if any("__next__" in type.__dict__["__dict__"].__get__(k) for k in type.__dict__["__mro__"].__get__(t)):
        return {"__type__": _type_name(t), "__iterator__": True}  # a generator or another iterator
    return {"__type__": _type_name(t)}


def _float_rows(obj, _float=float, _list=list, _type=type, _set=set, _map=map):
    """:func:`encode`'s value of a plain list of plain floats, or of a plain list of such lists, or
    None: the same encoding, made without a Python call per element (``float.__repr__`` through
    ``map``), since encoding runs under the profile hook and a 1600 x 1600 result (``.tolist()``)
    took most of a cost test's time limit element by element."""
    kinds = _set(_map(_type, obj))
    if kinds == {_float}:
        return {"__seq__": [{"__float__": r} for r in _map(_float.__repr__, obj)]}
    if kinds != {_list}:
        return None
    for row in obj:
        if _set(_map(_type, row)) != {_float}:
            return None
    return {"__seq__": [{"__seq__": [{"__float__": r} for r in _map(_float.__repr__, row)]} for row in obj]}


def _heap_type(t):
    """True for a class made at run time (in Python), False for a built-in or compiled type."""
    return bool(type.__dict__["__flags__"].__get__(t) & (1 << 9))  # Py_TPFLAGS_HEAPTYPE


def _type_name(t):
    """``module.qualname`` of ``t``, read without the class's own attribute lookups."""
    module = type.__dict__["__module__"].__get__(t)
    return f"{module if isinstance(module, str) else '?'}.{type.__dict__['__qualname__'].__get__(t)}"


def _pandas_values(t):
    """True for pandas' Series, DataFrame and Index (pandas itself is imported only if the kernel did)."""
    import sys

    pd = sys.modules.get("pandas")
    if pd is None or _type_name(t).partition(".")[0] != "pandas":
        return False
    return issubclass(t, pd.Series | pd.DataFrame | pd.Index)


def _sparse_matrix(t):
    """True for scipy.sparse's matrices and arrays (scipy is imported only if the kernel did)."""
    import sys

    sp = sys.modules.get("scipy.sparse")
    if sp is None or not _type_name(t).startswith("scipy.sparse."):
        return False
    return issubclass(t, sp.spmatrix | sp.sparray)


class Unsupported:
    """A value that could not travel (an object of another type); never equal to anything.

    Turning it into an array raises, saying what it was, so a hidden test's ``compare`` that
    calls ``np.asarray`` on it reports that message rather than a shape.
    """

    def __init__(self, name, iterator=False):
        self.name = name
        self.iterator = iterator

    def why(self):
        """Why the grader cannot read the value, and what to return instead."""
        if self.iterator:
            kind = "a generator" if self.name == "builtins.generator" else f"an iterator ({self.name})"
            return f"the function returned {kind}: return a list or an array (the grader reads values)"
        return f"the value is {self!r}, which the grader cannot read: return numbers or numpy arrays"

    def __array__(self, *args, **kwargs):
        raise TypeError(self.why())

    def __repr__(self):
        return f"<an object of type {self.name}>"


def decode(obj):
    """The inverse of :func:`encode` (sequences come back as lists, namespaces as SimpleNamespace)."""
    if obj is None or isinstance(obj, bool | str | int | float):
        return obj
    if isinstance(obj, list):
        return [decode(x) for x in obj]
    if "__int__" in obj:
        return int(obj["__int__"])
    if "__float__" in obj:
        return float(obj["__float__"])
    if "__npy__" in obj:
        return np.load(io.BytesIO(base64.b64decode(obj["__npy__"])), allow_pickle=False)
    if "__seq__" in obj:
        return [decode(x) for x in obj["__seq__"]]
    if "__dict__" in obj:
        out = {}
        for k, v in obj["__dict__"]:
            k = decode(k)
            out[k if not isinstance(k, list) else tuple(k)] = decode(v)
        return out
    if "__ufunc__" in obj:
        fn = getattr(np, obj["__ufunc__"], None)
        if not isinstance(fn, np.ufunc):
            raise ValueError(f"no numpy ufunc {obj['__ufunc__']}")
        return fn
    if "__csr__" in obj:
        import scipy.sparse as sp

        data, indices, indptr, shape = obj["__csr__"]
        return sp.csr_matrix((decode(data), decode(indices), decode(indptr)), shape=tuple(shape))
    if "__ns__" in obj:
        import types

        return types.SimpleNamespace(**{k: decode(v) for k, v in obj["__ns__"].items()})
    if "__type__" in obj:
        return Unsupported(obj["__type__"], bool(obj.get("__iterator__")))
    raise ValueError(f"cannot decode {str(obj)[:80]}")


def _const(c, _isinstance=isinstance, _hasattr=hasattr, _tuple=tuple, _sorted=sorted, _repr=repr, _type=type):
    """A value that stands for a code constant, the same in every process (sets sorted).

    The builtins it uses are bound when the harness is executed (and checked then), so a
    submission that replaces them while it is graded cannot change a fingerprint.
    """
    if _hasattr(c, "co_code"):
        return _fingerprint(c)
    if _isinstance(c, tuple):
        return ("tuple", _tuple(_const(x) for x in c))
    if _isinstance(c, frozenset):
        return ("frozenset", _tuple(_sorted(_repr(_const(x)) for x in c)))
    return (_type(c).__name__, _repr(c))


def _fingerprint(co, _tuple=tuple):
    return (co.co_name, co.co_code, co.co_names, _tuple(_const(c) for c in co.co_consts))


def _sha256():
    """hashlib's sha256, checked to be the C function itself (a replacement would forge keys)."""
    import hashlib

    fn = hashlib.sha256
    if not (
        type(fn).__name__ == "builtin_function_or_method"
        and getattr(getattr(fn, "__self__", None), "__name__", None) in ("_hashlib", "_sha2", "_sha256")
    ):
        raise RuntimeError("hashlib.sha256 was replaced before grading")
    return fn


def _key(co, _sha=None, _repr=repr):
    """A short digest of :func:`_fingerprint`: equal for a function and any copy of its code."""
    return (_sha or _sha256())(_repr(_fingerprint(co)).encode()).hexdigest()[:32]


#: Code this long (bytes of bytecode) is recognised by its body alone as well, whatever its name.
BODY_MIN_BYTES = 64
#: The answer's functions this long (bytes of bytecode) are compared with the forbidden ones.
COPY_MIN_BYTES = 48


def _body_key(co, _sha=None, _repr=repr):
    """:func:`_key` without the function's own name: a renamed copy of its source has the same.

    Only for code of at least :data:`BODY_MIN_BYTES` bytes (a short body, ``return x``, could
    be written independently), so that an answer's own helpers are not mistaken for a library's.
    """
    if len(co.co_code) < BODY_MIN_BYTES:
        return ""
    fp = _fingerprint(co)
    body = (_normalised_code(co.co_code), *fp[2:])
    return "body:" + (_sha or _sha256())(_repr(body).encode()).hexdigest()[:32]


def _normalised_code(code):
    """Bytecode without what depends on where the source was compiled.

    CPython 3.11 compiles ``np.sqrt(x)`` to ``LOAD_ATTR`` (with fewer inline caches) in a module
    that imports ``np`` and to ``LOAD_METHOD`` in code compiled on its own (``exec`` of a
    function's source): both become ``LOAD_ATTR``, ``LOAD_GLOBAL``'s push-NULL bit is cleared,
    the caches are dropped, and so are the jumps' offsets (they count the caches).
    """
    import opcode

    load_method, load_attr = opcode.opmap.get("LOAD_METHOD", -1), opcode.opmap["LOAD_ATTR"]
    cache = opcode.opmap.get("CACHE", -1)
    # 3.11+: LOAD_GLOBAL's low bit says whether it pushes the NULL that LOAD_METHOD would push
    load_global = opcode.opmap["LOAD_GLOBAL"] if cache >= 0 else -1
    jumps = set(opcode.hasjrel) | set(opcode.hasjabs)
    out = bytearray()
    for i in range(0, len(code), 2):
        op, arg = code[i], code[i + 1]
        if op == cache:
            continue
        if op == load_global:
            arg &= 0xFE
        out += bytes((load_attr if op == load_method else op, 0 if op in jumps else arg))
    return bytes(out)


def _code_objects(root):
    out, todo = [], [root]
    while todo:
        co = todo.pop()
        out.append(co)
        todo.extend(c for c in co.co_consts if hasattr(c, "co_code"))
    return out


def _resolve(path):
    """The code objects of a module (compiled afresh from its file), a class or a function."""
    import importlib
    import inspect

    parts = path.split(".")
    obj, i = None, len(parts)
    while i > 0:
        try:
            obj = importlib.import_module(".".join(parts[:i]))
            break
        except ImportError:
            i -= 1
    if obj is None:
        return []
    for name in parts[i:]:
        obj = getattr(obj, name, None)
        if obj is None:
            return []
    codes = []
    if inspect.ismodule(obj):
        src = getattr(obj, "__file__", None)
        if src and src.endswith(".py"):
            with open(src, encoding="utf-8") as fh:
                codes += _code_objects(compile(fh.read(), src, "exec"))
        for value in vars(obj).values():  # the live functions too (same code, other identity)
            fn = inspect.unwrap(value) if callable(value) else value
            if getattr(fn, "__module__", None) == obj.__name__ and hasattr(fn, "__code__"):
                codes += _code_objects(fn.__code__)
        return codes
    members = list(vars(obj).values()) if inspect.isclass(obj) else [obj]
    for value in members:
        value = getattr(value, "__func__", value)
        inner = getattr(value, "__wrapped__", None)
        # a decorated function: its own code is the decorator's wrapper, which every function the
        # decorator wraps shares (scipy's batching wrapper is on 58 functions of scipy.linalg), so
        # the function it wraps is what is recognised
        for fn in (inner if inner is not None else value, getattr(value, "_implementation", None)):
            if fn is not None and hasattr(fn, "__code__"):
                codes += _code_objects(fn.__code__)
    return codes


def _source_files(path):
    """Path prefixes of the source and bytecode files that define ``path`` (a module, class or function)."""
    import importlib
    import inspect

    files = [f for f in _module_files(path) if f.endswith((".py", os.sep))]
    if not files:
        head, _, name = path.rpartition(".")
        try:
            obj = getattr(importlib.import_module(head), name)
            obj = getattr(obj, "_implementation", obj)
            files = [inspect.getsourcefile(inspect.unwrap(obj))]
        except (ImportError, AttributeError, TypeError, ValueError):
            files = []
    out = []
    for f in files:
        if f and f.endswith(".py"):
            folder, base = os.path.split(f)
            out += [f, os.path.join(folder, "__pycache__", base[:-3] + ".")]
        elif f:
            out.append(f)
    return out


def _module_files(path):
    """The source file of a module, or the folder of a package (every function defined there)."""
    import importlib
    import os

    try:
        mod = importlib.import_module(path)
    except ImportError:
        return []
    if hasattr(mod, "__path__"):
        return [os.path.join(p, "") for p in mod.__path__]
    src = getattr(mod, "__file__", None)
    return [src] if src else []


def _genuine(fn, module, name):
    """True when ``fn`` is the C function ``module.name`` itself (a replacement cannot pass)."""
    return (
        type(fn).__name__ == "builtin_function_or_method"
        and getattr(fn, "__name__", None) == name
        and getattr(getattr(fn, "__self__", None), "__name__", None) == module
    )


def _replaced_before_grading(stream):
    """Messages for the C functions and the stdout the harness relies on that were replaced."""
    import builtins
    import sys
    import time

    pre = []
    checks = [
        (sys.setprofile, "sys", "setprofile"),
        (sys.getprofile, "sys", "getprofile"),
        (time.perf_counter, "time", "perf_counter"),
        (time.process_time, "time", "process_time"),
    ]
    checks += [
        (getattr(builtins, n), "builtins", n)
        for n in ("repr", "sorted", "isinstance", "len", "getattr", "id", "min", "callable", "print")
    ]
    for fn, mod, name in checks:
        if not _genuine(fn, mod, name):
            pre.append(f"{mod}.{name} was replaced before grading")
    if type(stream).__module__ != "ipykernel.iostream" or type(stream).__name__ != "OutStream":
        pre.append("sys.stdout was replaced before grading")
    return pre


class Withheld:
    """Stands for a value the grader withholds; every use of it raises, saying why."""

    def __init__(self, function, key):
        self._why = (
            f"{function}'s {key!r} is withheld while graded: the exercise asks you to compute "
            "these values yourself (solve the problem it states), not to read them off a solver"
        )

    def _refuse(self, *args, **kwargs):
        raise AttributeError(self._why)

    def __getattr__(self, name):
        if name.startswith("__") or name == "_why":
            raise AttributeError(name)
        self._refuse()

    __getitem__ = __iter__ = __array__ = __len__ = __float__ = _refuse

    def __repr__(self):
        return f"<withheld: {self._why}>"


#: scipy's Python entry into HiGHS (every LP that linprog's "highs" methods solve passes here)
HIGHS_WRAPPER = "scipy.optimize._highspy._highs_wrapper._highs_wrapper"
LINPROG = "scipy.optimize.linprog"


def _own_code(path):
    """The code object of the function ``path`` itself (not of the functions nested in it)."""
    codes = _resolve(path)
    return codes[:1]


def _installed_roots():
    """``(library, sslteach)``: the folders (ending in a separator) of the installed libraries
    (the standard library and the site folders) and of the sslteach package, read-only in the sandbox."""
    import importlib.util
    import sysconfig

    paths = sysconfig.get_paths()
    kinds = ("stdlib", "platstdlib", "purelib", "platlib")
    library = tuple(sorted({os.path.join(paths[k], "") for k in kinds}))
    spec = importlib.util.find_spec("sslteach")
    own = tuple(os.path.join(p, "") for p in (spec.submodule_search_locations or [])) if spec else ()
    return library, own


def watch_lists(forbid=(), require=(), withhold=None, record_lps=False):
    """What a graded call watches for, as plain data: computed once, in the grader's process.

    ``forbidden``/``required``/``withheld`` map the :func:`_key` of every code object of the
    named modules, classes and functions (modules compiled afresh from their files) to the
    name; ``forbidden_files`` lists ``[file or folder, name]`` of the forbidden modules. The
    kernel runs the same Python and packages, so the same code has the same key there, and
    it need not import (or compile) any of them to recognise them. With ``record_lps``,
    ``lp`` maps the keys of scipy's ``_highs_wrapper`` and of ``linprog`` to ``"wrapper"`` and
    ``"linprog"``: every LP given to HiGHS is then reported, and HiGHS reached other than
    through ``linprog`` is a violation.
    """
    out = {"forbidden": {}, "required": {}, "withheld": {}, "forbidden_files": []}
    # the installed libraries (read-only in the sandbox): their own sys._getframe calls are allowed
    library, own = _installed_roots()
    out["library"] = list(library)
    out["trusted"] = sorted({*library, *own})  # where installed code lives: the libraries and sslteach
    out["copies"] = bool(forbid or withhold)
    out["sources"] = [
        [prefix, path] for path in [*forbid, *(withhold or {})] for prefix in _source_files(path)
    ]
    for path in forbid:
        for co in _resolve(path):
            out["forbidden"][_key(co)] = path
            body = _body_key(co)
            if body:
                out["forbidden"][body] = path
        out["forbidden_files"] += [[f, path] for f in _module_files(path)]
        for module, names in compiled_helpers(path):
            out["wrap"] = out.get("wrap", []) + [[path, module, names]]
            for name in names:
                out["forbidden"][_key(_wrapper_code(module, name)[1])] = path
    for path in require:
        for co in _resolve(path):
            out["required"][_key(co)] = path
    for path, keys in (withhold or {}).items():
        for co in _resolve(path):
            out["withheld"][_key(co)] = [path, list(keys)]
    if record_lps:
        out["lp"] = {}
        for path, role in ((HIGHS_WRAPPER, "wrapper"), (LINPROG, "linprog")):
            codes = _own_code(path)
            if not codes:
                raise ValueError(f"{path} was not found: the LPs cannot be recorded")
            out["lp"][_key(codes[0])] = role
    return out


#: Compiled functions (Cython's) make no profile event when called: those of a forbidden module's
#: own extension modules are replaced, in the kernel before any cell, by Python wrappers that do.
COMPILED_TYPES = frozenset({"cython_function_or_method", "fused_cython_function"})


def compiled_helpers(path):
    """``[[module, [names]]]``: the compiled (Cython) functions behind the forbidden module or
    package ``path``, or ``path`` itself when it names one (``scipy.cluster._hierarchy.
    get_max_dist_for_each_cluster``); ``[]`` for a Python function, a class, or a module with none.

    They are the functions of the extension modules that the module itself imports from its
    own package (scipy's ``cluster.hierarchy`` runs ``scipy.cluster._hierarchy``), and for a
    package those its imported submodules import too: nothing is imported here but ``path``
    (importing an extension module on its own can break a package's import order). A
    submission could call them directly, and no profile event would say so.
    """
    import importlib
    import importlib.machinery
    import sys

    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    try:
        mod = importlib.import_module(path)
    except ImportError:  # a function: compiled, in an extension module, it is wrapped itself
        head, _, name = path.rpartition(".")
        try:
            parent = importlib.import_module(head)
        except ImportError:
            return []
        fn = getattr(parent, name, None)
        compiled = type(fn).__name__ in COMPILED_TYPES and getattr(fn, "__module__", None) == head
        extension = (getattr(parent, "__file__", None) or "").endswith(suffixes)
        return [[head, [name]]] if compiled and extension else []
    if hasattr(mod, "__path__"):
        root = path
        sources = [m for n, m in list(sys.modules.items()) if n == path or n.startswith(path + ".")]
    else:
        root, sources = path.rpartition(".")[0], [mod]
    found = {}
    for src in sources:
        for v in list(vars(src).values()):
            name = getattr(v, "__name__", None)
            if (type(v) is type(mod) and isinstance(name, str) and name.startswith(root + ".")
                    and (getattr(v, "__file__", None) or "").endswith(suffixes)):
                found[name] = v
    out = []
    for name, ext in sorted(found.items()):
        names = sorted(
            k for k, v in vars(ext).items()
            if not k.startswith("__") and type(v).__name__ in COMPILED_TYPES
            and getattr(v, "__module__", None) == name and k.isidentifier()
        )
        if names:
            out.append([name, names])
    return out


def _wrapper_code(module, name):
    """``(module code, function code)`` of the wrapper that stands for the compiled ``module.name``
    (the same in every process: the grader keys the function's code, the kernel runs the module's)."""
    doc = repr(f"{module}.{name}")
    src = f"def {name}(*args, _f=None, **kwargs):\n    {doc}\n    return _f(*args, **kwargs)\n"
    top = compile(src, "<sslteach grader>", "exec")
    return top, next(c for c in top.co_consts if hasattr(c, "co_code"))


def _wrap_compiled(helpers):
    """Replace each compiled function in ``helpers`` (``[forbidden module, module, [names]]``, see
    :func:`compiled_helpers`) by its wrapper,
    in its module and wherever an imported module holds it; returns how many were wrapped."""
    import importlib
    import sys

    replaced = {}
    for forbidden, module, names in helpers:
        if forbidden.startswith(module + "."):  # a compiled function named itself: its package first
            importlib.import_module(module.rpartition(".")[0])
            importlib.import_module(module)
        else:
            importlib.import_module(forbidden)  # as it imports its helpers (never one on its own)
        ext = sys.modules.get(module)
        for name in names if ext is not None else ():
            fn = vars(ext).get(name)
            if type(fn).__name__ not in COMPILED_TYPES:
                continue
            ns = {"__builtins__": {}}
            exec(_wrapper_code(module, name)[0], ns)
            w = ns[name]
            w.__kwdefaults__ = {"_f": fn}  # the audit hook refuses to read it to the notebook
            w.__module__, w.__doc__ = module, getattr(fn, "__doc__", None)
            replaced[id(fn)] = (fn, w)
    if replaced:
        for m in list(sys.modules.values()):
            d = getattr(m, "__dict__", None)
            if not isinstance(d, dict):
                continue
            for k, v in list(d.items()):
                hit = replaced.get(id(v))
                if hit is not None and hit[0] is v:
                    d[k] = hit[1]
    return len(replaced)


def _blocked_c_functions():
    """``{id: name}`` of the genuine C functions a graded call must not reach."""
    import sys

    blocked_c = {}
    for mod, names in (
        ("sys", ("setprofile", "settrace", "getprofile", "gettrace", "_getframe", "_current_frames")),
        ("gc", ("get_objects", "get_referrers", "get_referents")),
        ("_thread", ("start_new_thread",)),
        ("posix", ("fork", "system", "posix_spawn", "posix_spawnp", "execv", "execve", "forkpty")),
        ("_posixsubprocess", ("fork_exec",)),
        *CLOCKS,
    ):
        module = sys.modules.get(mod) or __import__(mod)
        for name in names:
            fn = getattr(module, name, None)
            if fn is not None and _genuine(fn, mod, name):
                blocked_c[id(fn)] = f"{mod}.{name}"
    return blocked_c


#: Clocks (and CPU timers) the answer's own code may not read while graded: a cost test times the
#: call, and an answer that reads a clock can burn CPU until its time looks like the stated cost
#: (red team 9). Library code may (cvxpy times its solves).
CLOCKS = (
    ("time", ("time", "time_ns", "perf_counter", "perf_counter_ns", "process_time", "process_time_ns",
              "thread_time", "thread_time_ns", "monotonic", "monotonic_ns", "clock_gettime",
              "clock_gettime_ns")),
    ("posix", ("times",)),
    ("resource", ("getrusage",)),
    ("_signal", ("setitimer", "alarm")),
)
CLOCK_NAMES = frozenset(f"{mod}.{name}" for mod, names in CLOCKS for name in names)
CLOCK_WHY = (" (the answer's own code may not read a clock or a CPU timer: cost tests time the call, and "
             "time spent on purpose would hide how an answer's cost grows)")


#: Audit events refused while a call is graded (raised by CPython inside the C function, so an
#: indirect call, ``functools.partial(gc.get_objects)()``, raises them too): they reach the
#: grader's own objects (its profile hook, its frames) or switch the hook off.
REFUSED_EVENTS = frozenset(
    {"sys.setprofile", "sys.settrace", "sys._current_frames", "gc.get_objects", "gc.get_referrers",
     "gc.get_referents", "sys.addaudithook"}
)
#: The name of the harness's entry point in the kernel's namespace, and how its secret is announced.
ENTRY = "__sslteach_call__"
KEY_LINE = "@@sslteach-key@@"
#: Attribute reads CPython audits that hand out a frame (whose ``f_back`` leads to the grader's).
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
#: Library files whose ``sys._getframe`` hands a frame to their caller (not exempted as libraries are).
FRAME_GIVERS = ("/inspect.py", "/traceback.py", "/logging/__init__.py", "/bdb.py", "/pdb.py", "/cgitb.py")
#: The C modules of HiGHS (scipy's vendored copy and the highspy package): their methods are
#: reached only through scipy's ``_highs_wrapper`` when a spec records LPs.
HIGHS_CORE = frozenset({"scipy.optimize._highspy._core", "highspy._core"})


def _private_builtins():
    """A copy of the builtins, checked genuine, for the grader's own functions.

    Returns ``(namespace, problems)``: the harness's watching code looks its builtins up in
    this copy, so a submission that replaces ``builtins.id`` (say) while graded cannot blind it.
    """
    import builtins

    ns = dict(vars(builtins))
    problems = []
    for name in ("tuple", "frozenset", "bytes", "bytearray", "set", "dict", "list", "str", "int", "float",
                 "range", "type", "object", "bool"):
        t = ns.get(name)
        genuine = type(t) is type and t.__module__ == "builtins" and t.__name__ == name
        if not (genuine and len(t.__mro__) <= 3):
            problems.append(f"builtins.{name} was replaced before grading")
    for name in ("hasattr", "isinstance", "sorted", "repr", "len", "getattr", "id", "next", "callable", "min",
                 "max", "any", "print", "__import__"):
        if not _genuine(ns.get(name), "builtins", name):
            problems.append(f"builtins.{name} was replaced before grading")
    return ns, problems


def _private_copies(names, builtins_ns):
    """The harness functions ``names`` re-made with a private globals dict (private builtins inside)."""
    g = dict(globals())
    g["__builtins__"] = builtins_ns
    function = type(_private_copies)  # not types.FunctionType: a submission can replace that name
    for name in names:
        fn = globals()[name]
        g[name] = function(fn.__code__, g, name, fn.__defaults__, fn.__closure__)
    return g


def _make_guard(watch, report, sha, library, builtins_ns):
    """The profile hook of one graded call, built here (no frame on the graded call's stack holds
    its tables; the kernel's audit hook, :func:`install_guard`, keeps the answer from the hook).

    The tables it consults are immutable (a mapping proxy, tuples, frozensets) and its helper
    functions and builtins are private copies, so what a submission can reach while graded (its
    own frames, the modules, the builtins) holds neither them nor anything they read. ``report``
    writes one line to the grader at once: ``V`` a violation, ``Q`` a required function reached,
    ``L`` an LP that HiGHS is given (when the spec records LPs).
    """
    g = _private_copies(
        ("_const", "_fingerprint", "_key", "_body_key", "_normalised_code", "_lp_record"), builtins_ns
    )
    key, body_key, lp_record = g["_key"], g["_body_key"], g["_lp_record"]
    proxy = type(type.__dict__)  # mappingproxy itself (types.MappingProxyType could be replaced)
    forbidden = proxy(dict(watch.get("forbidden", {})))
    required = proxy(dict(watch.get("required", {})))
    withheld = proxy({k: (v[0], tuple(v[1])) for k, v in watch.get("withheld", {}).items()})
    lp_watch = proxy(dict(watch.get("lp", {})))  # key -> "wrapper" or "linprog"
    forbidden_files = tuple((f, p) for f, p in watch.get("forbidden_files", []))
    # Copies: with anything forbidden or withheld, each function the answer enters is reported
    # once (``S``) unless the grader already knows it: code from outside the installed libraries
    # with its bytecode (the grader compares it with the forbidden functions' instructions), code
    # that names a library file by its key (the grader checks that file's code has that key).
    copies = bool(watch.get("copies"))
    trusted = tuple(watch.get("trusted", ())) or ("\0",)
    known = frozenset(watch.get("known", ()))
    min_bytes = COPY_MIN_BYTES
    harness_codes = frozenset(  # the harness's own functions (its encoder runs the answer's __array__)
        co
        for value in list(globals().values())
        for fn in ([value] + (list(vars(value).values()) if isinstance(value, type) else []))
        if getattr(fn, "__module__", None) == __name__ and hasattr(fn, "__code__")
        for co in _code_objects(fn.__code__)
    )
    blocked_c = proxy(_blocked_c_functions())
    clocks = CLOCK_NAMES
    library = tuple(library) or ("\0",)
    _isinstance, _id, _getattr, _next, _dict = isinstance, id, getattr, next, dict
    withheld_cls = Withheld
    watching = bool(forbidden or required or withheld or lp_watch or copies)
    # The caches are C objects (functools' lru_cache): nothing can be put into them from Python,
    # so a submission that gets hold of the hook cannot teach it that forbidden code is clean.
    cache = _lru_cache()

    def compute(co):
        fp = key(co, sha) if sha and watching else ""
        bad = forbidden.get(fp) or (forbidden.get(body_key(co, sha)) if fp else None) or _next(
            (p for f, p in forbidden_files if co.co_filename.startswith(f)), None
        )
        return (bad, required.get(fp), withheld.get(fp), lp_watch.get(fp), fp)

    lookup = cache(compute)

    def describe(co):
        fp = lookup(co)[4]
        if fp in known or co in harness_codes:
            return
        file = co.co_filename
        if file.startswith(trusted):
            report("S", ("library", fp, file, co.co_name))
        elif len(co.co_code) >= min_bytes:
            report("S", ("code", fp, file, co.co_name, co.co_code, co.co_names))

    ship = cache(describe)
    flag = cache(lambda message: report("V", message))  # each message once
    reach = cache(lambda path: report("Q", path))

    def on_stack(frame, role):
        f = frame
        while f is not None:
            if lookup(f.f_code)[3] == role:
                return True
            f = f.f_back
        return False

    def hook(frame, event, arg):
        if event == "call":
            co = frame.f_code
            hit = lookup(co)
            if hit[0]:
                flag(f"called {hit[0]} ({co.co_name})")
            if hit[1]:
                reach(hit[1])
            if copies:
                ship(co)
            if hit[3] == "wrapper":
                if not on_stack(frame.f_back, "linprog"):
                    flag("called scipy's HiGHS interface directly (not through scipy.optimize.linprog)")
                report("L", lp_record(frame.f_locals))
        elif event == "return" and withheld and _isinstance(arg, _dict):
            hit = lookup(frame.f_code)
            caller = frame.f_back
            inner = caller is not None and lookup(caller.f_code)[2]
            if hit[2] and not inner:  # leaving the withheld functions' own calls
                path, keys = hit[2]
                for k in keys:  # a Withheld in the dict the answer gets back
                    if k in arg:
                        arg[k] = withheld_cls(path, k)
        elif event == "c_call":
            name = blocked_c.get(_id(arg))
            if name is not None and frame.f_code not in own_codes:
                file = frame.f_code.co_filename
                # A library's own frame lookups (typing_extensions does one while a module is imported
                # lazily, on a first call) and clock reads are not the answer's: only they are exempted so.
                if name in clocks:
                    if not (file.startswith(library) or file.startswith("<frozen ")):  # logging's too
                        flag(f"called {name} while graded" + CLOCK_WHY)
                elif name != "sys._getframe" or not _library_call(file):
                    flag(f"called {name} while graded")
            elif lp_watch and _getattr(arg, "__module__", None) in HIGHS_CORE and not on_stack(
                frame, "wrapper"
            ):
                flag("called HiGHS's C interface directly (not through scipy.optimize.linprog)")

    def _library_call(file):
        return (file.startswith(library) or file.startswith("<frozen ")) and not file.endswith(FRAME_GIVERS)

    own_codes = frozenset({call.__code__, _graded_runs.__code__})
    return hook


def install_guard(user_ns=None, wrap=()):
    """Register the kernel's audit hook; the grader runs this before any cell of a submission.

    ``wrap`` (from :func:`watch_lists`' ``"wrap"``, every spec of the notebook together): the
    compiled functions behind forbidden modules, replaced first by wrappers the profile hook
    sees (:func:`_wrap_compiled`), so that the notebook's code only ever gets the wrappers.

    Being the first audit hook, it sees every audited event before any hook the submission
    could add (it refuses ``sys.addaudithook`` from then on). Outside graded calls it refuses
    ``gc``'s object walks, ``ctypes`` used by the submission's own code, and any look at its
    own attributes. A graded call starts when :func:`_graded_runs` (recognised by its code)
    installs its profile hook: the guard takes the hook and the call's ``report`` from that
    frame, and, while that hook is installed, refuses (``PermissionError``, and a violation
    reported at once) switching it off from any other frame, ``sys.settrace``, reading a
    frame out of a traceback, generator or coroutine, ``sys._getframe`` from the answer's code
    (or through ``inspect``/``traceback``/``logging``), ``sys._current_frames``, and replacing
    a function's ``__code__``. Nothing refers to it but the interpreter's list of audit hooks.
    """
    import sys

    builtins_ns, problems = _private_builtins()
    if problems:
        raise RuntimeError("; ".join(problems))
    _wrap_compiled(wrap)
    g = _private_copies(("_const", "_fingerprint", "_key", "_normalised_code"), builtins_ns)
    sha = _sha256()
    library, own_dirs = _installed_roots()
    trusted = (*sorted({*library, *own_dirs}), "<frozen ")  # the stdlib's frozen modules too
    reads, note = _source_reads(trusted, sys._getframe)
    data = (
        sys.getprofile,
        sys._getframe,
        [None, None, None],  # the graded call's hook, report and frame (while one runs)
        [False],  # busy: the guard's own frame lookups raise events too
        g["_key"],
        sha,
        g["_key"](_graded_runs.__code__, sha),
        library,
        REFUSED_EVENTS,
        FRAME_ATTRIBUTES,
        FRAME_GIVERS,
        PermissionError,
        [None],  # the guard itself (and the entry point)
        frozenset({"__defaults__", "__kwdefaults__", "__code__", "__globals__", "__closure__"}),
        AttributeError,
        id,
        frozenset(  # the harness's code objects, by identity (a copy compiled elsewhere is not one)
            id(co)
            for value in list(globals().values())
            if hasattr(value, "__code__") and getattr(value, "__module__", None) == __name__
            for co in _code_objects(value.__code__)
        ),
        _thread_ident,
        _thread_ident(),  # the thread the graded calls run in (the kernel's main thread)
        note,
        SPAWN_EVENTS,
        [],  # the kernel's threads that carry the harness's hook (their idents)
    )

    def guard(event, args, _d=data, _getattr="object.__getattr__", _code="f_code", _new="code.__new__"):
        # every name it uses is in _d: no globals, no builtins. The first test is the common
        # event (the profile hook reading frame.f_code on every call): it must cost little.
        if event == _getattr and args[1] == _code:
            return
        get_profile, get_frame, cur, busy, key, sha, graded = _d[:7]
        library, refused, frame_attrs, givers, error, me, own, missing, ident, codes = _d[7:17]
        get_ident, main = _d[17:19]
        if event == "open" or event in _d[20]:  # a file the notebook's code reads, a process it starts
            if not busy[0]:
                busy[0] = True
                try:
                    _d[19](event, args)
                finally:
                    busy[0] = False
            return
        if event == "object.__getattr__" or event == "object.__setattr__":
            if args[1] in own and (args[0] is me[0] or args[0] is me[-1]):
                raise error("the grader's audit hook cannot be inspected")
            if args[1] == "__defaults__" or args[1] == "__kwdefaults__":
                # the harness's functions keep the kernel's secret among their defaults
                try:
                    harness = args[0].__code__.co_filename == "<sslteach grader>"
                except missing:
                    harness = False
                if harness and not busy[0]:
                    busy[0] = True
                    try:
                        own_read = ident(get_frame(1).f_code) in codes  # the harness's own code
                    finally:
                        busy[0] = False
                    if not own_read:
                        raise error("the grader's functions cannot be inspected")
            if event == "object.__getattr__" and args[1] not in frame_attrs:
                return
            if event == "object.__setattr__" and args[1] != "__code__":
                return
        elif event in refused or event == "sys._getframe" or event.startswith("ctypes.") or event == _new:
            pass
        else:
            return
        if busy[0]:
            return
        active = cur[0] is not None and get_profile() is cur[0]
        busy[0] = True
        try:
            caller = get_frame(1)
            file = caller.f_code.co_filename

            def in_library(f):
                return (f.startswith(library) or f.startswith("<frozen ")) and not f.endswith(givers)

            if event == "sys.setprofile":
                if get_ident() in _d[21]:
                    pass  # the kernel's other threads keep the hook the harness gave them
                elif get_ident() != main:
                    return  # a thread of the notebook's own (the census reports it while graded)
                elif not active:
                    if key(caller.f_code, sha) == graded:  # a graded call begins: take its hook and report
                        loc = caller.f_locals
                        cur[0], cur[1], cur[2] = loc.get("hook"), loc.get("report"), caller
                    return
                elif caller is cur[2]:
                    cur[0] = cur[1] = cur[2] = None  # the kernel's other threads stop watching too
                    return  # the harness switching its own hook off
            elif event.startswith("ctypes."):
                f = caller
                while f is not None and "/ctypes/" in f.f_code.co_filename:
                    f = f.f_back
                if f is None or in_library(f.f_code.co_filename):
                    return  # a library's own use (threadpoolctl finds the BLAS so)
            elif event.startswith("gc.") or event == "sys.addaudithook" or event == _new:
                pass  # refused at any time (a code object built at run time: an edited copy of another's)
            elif not active:
                return
            elif event == "sys._getframe" and in_library(file):
                return
            if event == _new:
                what = "built a code object (types.CodeType, code.replace)"
                if active and cur[1] is not None:
                    cur[1]("V", f"{what} while graded (refused: functions are written, not assembled)")
                raise error(f"{what}: refused by the grader (write functions with def)")
            what = f"read .{args[1]}" if event == "object.__getattr__" else (
                "replaced a function's __code__" if event == "object.__setattr__" else event
            )
            if active and cur[1] is not None:
                cur[1]("V", f"{what} while graded (refused: it reaches the grader's own objects)")
        finally:
            busy[0] = False
        raise error(f"{event} is refused by the grader")

    data[12][0] = guard
    try:
        kernel = get_ipython().kernel  # noqa: F821 (the kernel's IPython)
    except (NameError, AttributeError):
        kernel = None  # not in a kernel (a test calls the harness directly): no loops to watch
    other = _watch_kernel_threads(data[2], trusted, kernel, data[21])
    try:  # pyzmq starts its garbage-collector thread at the kernel's first large zero-copy
        # message (a large reply of the harness's, say): a kernel's thread, so started now, and
        # with the hook of the kernel's other threads (red team 7 ran forbidden calls there, from
        # an object's set() that the thread calls for a key the notebook sent it)
        import threading

        from zmq.utils.garbage import gc as zmq_gc

        if zmq_gc.is_alive():
            zmq_gc.stop()
        threading.setprofile(other)
        try:
            zmq_gc.start()
        finally:
            threading.setprofile(None)
        data[21].append(zmq_gc.thread.ident)
    except Exception:  # noqa: BLE001 (no pyzmq: no such thread)
        pass
    census = _thread_census(sys._current_frames, trusted)  # the kernel's own threads: those alive now
    sys.addaudithook(guard)
    # The kernel's secret: made here, before any cell of the submission, and said only to the
    # grader (this cell's output). The grader signs each call's payload with it and the harness
    # each line it writes, so a reply can come only from this harness.
    key = os.urandom(16).hex()
    if user_ns is None:
        user_ns = get_ipython().user_ns  # noqa: F821 (the kernel's IPython)
    literal = _literal_reader()

    # Only these two hold the secret (among their defaults, which the audit hook refuses to read to
    # other code); they run only while they sign, so no frame below a graded answer holds it.
    def sign(text, _key=key, _mac=line_mac, _sha=sha):
        return _mac(_key, text, _sha)

    # The harness's namespace, as installed: a graded answer that got hold of the hook could reach
    # it through a function's __globals__ (CPython raises no audit event for that) and replace a
    # helper or a builtin for the calls after it; each call checks it and puts it back first.
    here = globals()
    snapshot = (tuple(here.items()), tuple(here["__builtins__"].items()))

    def entry(payload, mac, _sign=sign, _call=call, _ns=user_ns, _literal=literal, _census=census,
              _reads=reads, _here=here, _builtins=here["__builtins__"], _snap=snapshot, _len=len, _dict=dict):
        names, builtin_items = _snap
        changed = _len(_here) != _len(names) or _len(_builtins) != _len(builtin_items)
        for table, items in ((_here, names), (_builtins, builtin_items)):
            for name, value in items:
                if table.get(name, _here) is not value:
                    changed = True
                    table[name] = value
        if changed:
            _builtins.clear()
            _builtins.update(builtin_items)
            keep = _dict(names)
            for name in [n for n in _here if n not in keep]:
                del _here[name]
        if payload.startswith("@file:"):  # a large payload, in a file of the kernel's working folder
            payload = _literal.read(payload[len("@file:") :])
        if _sign(payload) != mac:
            return  # not the grader's payload: no reply (the grader says so)
        _call(_ns, payload, _sign, _census, changed, _reads)

    data[12].append(entry)  # its attributes are refused like the guard's
    user_ns[ENTRY] = entry
    print(KEY_LINE + key)
    del key
    return True


#: Audit events of a process being started (its code would run where no hook watches it).
SPAWN_EVENTS = frozenset(
    {"subprocess.Popen", "os.system", "os.posix_spawn", "os.exec", "os.fork", "os.forkpty", "pty.spawn"}
)


def _source_reads(trusted, get_frame):
    """``(reads, note)``: ``note(event, args)``, called by the audit hook, appends to ``reads`` each
    Python source or bytecode file the notebook's own code opens (an ``open`` event with the
    notebook's code on the stack, not an import) and each process it starts: a forbidden function
    read at run time can be rewritten into a copy that no comparison of instructions recognises."""
    reads = []

    def note(event, args, _reads=reads, _trusted=trusted, _frame=get_frame, _isinstance=isinstance,
             _str=str, _bytes=bytes, _repr=repr):
        if event == "open":
            path = args[0]
            if _isinstance(path, _bytes):
                path = path.decode("utf-8", "replace")
            if not _isinstance(path, _str) or not path.endswith((".py", ".pyc")):
                return
        else:
            path = event + " " + _repr(args[:2])[:200]
        f = _frame(1)
        student = False
        while f is not None:
            code = f.f_code
            file = code.co_filename
            if code.co_name == "_find_and_load" and file == "<frozen importlib._bootstrap>":
                return  # an import: its module's code is the library's own
            if not (file.startswith(_trusted) or file == "<sslteach grader>"):
                student = True
            f = f.f_back
        if student:
            _reads.append(path)

    return reads, note


def _source_violations(reads, sources):
    """Messages for the files in ``reads`` that hold the source of what the call forbids or withholds."""
    out = []
    for path in reads:
        if not path.endswith((".py", ".pyc")):
            message = (f"the notebook started a process ({path}) before or while graded: a process could "
                       "read the forbidden functions' source, so exercises with forbidden functions score 0")
        else:
            names = [name for prefix, name in sources if path.startswith(prefix)]
            if not names:
                continue
            message = (f"the notebook's code read {path}, the source of {names[0]}, which this exercise "
                       "forbids or withholds (a copy of it, however rewritten, is not an answer)")
        if message not in out and sources:
            out.append(message)
    return out


def _watch_kernel_threads(cur, trusted, kernel, idents):
    """Give the kernel's event-loop threads (Control, IOPub, Shell channel) a profile hook that,
    while a call is graded, hands every event to the graded call's hook (``cur[0]``): a callback the
    notebook queues on one of those loops is watched like the answer itself, and the notebook's
    own code run there is a violation. The audit hook then refuses ``sys.setprofile`` on any thread
    but the graded one. (The kernel runs without fd-capturing or history threads: see
    :class:`sslteach.teach.sandbox.Kernel`.)"""
    import sys

    message = ("the notebook's code ({}) ran on one of the kernel's own threads while graded (the "
               "grader watches only the thread it calls in)")

    def other(frame, event, arg, _cur=cur, _trusted=trusted, _message=message.format):
        hook = _cur[0]
        if hook is None:
            return
        if event == "call":
            code = frame.f_code
            file = code.co_filename
            if not (file.startswith(_trusted) or file == "<sslteach grader>") and _cur[1] is not None:
                _cur[1]("V", _message(f"{code.co_name} in {file}"))
        hook(frame, event, arg)

    for name in ("control_thread", "iopub_thread", "shell_channel_thread"):
        loop = getattr(getattr(kernel, name, None), "io_loop", None)
        if loop is None:
            continue
        done = _allocate_lock()
        done.acquire()

        def install(_done=done, _set=sys.setprofile, _hook=other, _idents=idents):
            _set(_hook)
            _idents.append(_thread_ident())
            _done.release()

        loop.add_callback(install)
        if not done.acquire(timeout=20):
            raise RuntimeError(f"the kernel's {name} did not take the grader's hook")
    return other


def _thread_census(current_frames, trusted=()):
    """A function that says ``(threads, processes, tasks, foreign)``: how many Python threads (and, in
    the sandbox, processes) are alive that were not alive now (when the harness is installed, before
    the notebook's first cell: the kernel's own), the last task id the kernel's PID namespace
    handed out (None outside the sandbox's namespace), and how many of the kernel's own threads
    other than this one have code from outside ``trusted`` (the notebook's) on their stack.

    The profile hook watches only the thread that calls the answer. A thread the notebook
    started (at cell time, or during the call from C code, which makes no call event the hook
    sees) runs unwatched, so one alive at the start or the end of a graded call is a
    violation; one started and finished within the call moves the namespace's task counter
    (``/proc/sys/kernel/ns_last_pid`` grows with every thread and process created in it).
    """
    own = frozenset(current_frames())
    # in bwrap's own PID namespace the kernel is one of its first tasks; elsewhere the counter
    # is the whole machine's, moved by every other process, and tells nothing
    private = os.getpid() <= 16 and os.path.exists("/proc/sys/kernel/ns_last_pid")
    pids = frozenset(p for p in os.listdir("/proc") if p.isdigit()) if private else frozenset()

    me = _thread_ident()
    trusted = tuple(trusted) or ("\0",)

    def census(_frames=current_frames, _own=own, _private=private, _open=os.open, _read=os.read,
               _close=os.close, _flags=os.O_RDONLY, _path="/proc/sys/kernel/ns_last_pid",
               _listdir=os.listdir, _pids=pids, _isdigit=str.isdigit, _me=me, _trusted=trusted):
        threads = foreign = 0
        for ident, frame in _frames().items():
            if ident not in _own:
                threads += 1
            elif ident != _me:  # a kernel thread (its loop) running the notebook's code
                f = frame
                while f is not None:
                    file = f.f_code.co_filename
                    if not (file.startswith(_trusted) or file == "<sslteach grader>"):
                        foreign += 1
                        break
                    f = f.f_back
        if not _private:
            return threads, 0, None, foreign
        processes = 0
        for p in _listdir("/proc"):  # the namespace's processes: another one works unwatched
            if _isdigit(p) and p not in _pids:
                processes += 1
        fd = _open(_path, _flags)
        try:
            return threads, processes, _read(fd, 64), foreign
        finally:
            _close(fd)

    return census


def _lru_cache():
    """functools' C ``lru_cache`` (unbounded), checked to be the C type itself."""
    import _functools
    from collections import namedtuple

    wrapper = _functools._lru_cache_wrapper
    c_call = type(vars(wrapper).get("__call__")).__name__ == "wrapper_descriptor"  # a C type's slot
    if not (type(wrapper) is type and wrapper.__name__ == "_lru_cache_wrapper" and c_call
            and wrapper.__mro__[1:] == (object,)):
        raise RuntimeError("functools' lru_cache was replaced before grading")
    info = namedtuple("CacheInfo", ["hits", "misses", "maxsize", "currsize"])
    return lambda fn: wrapper(fn, None, False, info)


#: numpy's own functions, taken when the harness is installed (before any cell could replace them)
_ASARRAY, _FULL, _ABS = np.asarray, np.full, np.abs
#: An LP this small (rows times variables) is recorded whole: its objective, matrix and sides.
LP_DATA_MAX = 4096


def _lp_record(loc):
    """What HiGHS is given, read from the arguments of scipy's ``_highs_wrapper``: plain values."""
    _np = np

    def arr(x):
        return _ASARRAY(x if x is not None else [], dtype=float).ravel()

    c, lhs, rhs, lb, ub = (arr(loc.get(k)) for k in ("c", "lhs", "rhs", "lb", "ub"))
    big = 1e20  # scipy hands HiGHS its infinity (1e30) for np.inf
    n = int(c.size)
    if lhs.size == 0:
        lhs = _FULL(rhs.size, -_np.inf)
    eq = (lhs == rhs) & (_ABS(rhs) < big)
    record = {
        "n_vars": n,
        "n_rows": int(rhs.size),
        "n_eq": int(eq.sum()),
        "n_ub": int(((lhs <= -big) & (rhs < big)).sum()),
        "n_lb": int(((lhs > -big) & (rhs >= big)).sum()),
        "n_range": int(((lhs > -big) & (rhs < big) & ~eq).sum()),
        # None for no bound (the record travels as a Python literal, which has no inf)
        "lb": [float(v) if abs(v) < big else None for v in (lb.tolist() if lb.size else [0.0] * n)],
        "ub": [float(v) if abs(v) < big else None for v in (ub if ub.size else _FULL(n, _np.inf))],
    }
    if n * rhs.size <= LP_DATA_MAX:  # the whole LP: c, the dense matrix (from scipy's CSC arrays), sides
        indptr, indices, data = (arr(loc.get(k)).tolist() for k in ("indptr", "indices", "data"))
        rows = [[0.0] * n for _ in range(int(rhs.size))]
        for j in range(min(n, len(indptr) - 1)):
            for k in range(int(indptr[j]), int(indptr[j + 1])):
                rows[int(indices[k])][j] = float(data[k])
        record["c"] = [float(v) for v in c.tolist()]
        record["A"] = rows
        record["lhs"] = [float(v) if abs(v) < big else None for v in lhs.tolist()]
        record["rhs"] = [float(v) if abs(v) < big else None for v in rhs.tolist()]
    return record


def _error_line(exc):
    """``Type: first line of the message`` (at most 300 characters of it)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300] if text else ''}".rstrip(": ")


def _attribute_call(obj, attrs):
    """A callable that looks ``obj.<attrs>`` up when called (so the lookup runs while graded)."""

    def attribute_call(*args, **kwargs):
        target = obj
        for name in attrs:
            target = getattr(target, name)
        return target(*args, **kwargs)

    return attribute_call


def _graded_runs(fn, args, kwargs, repeat, enough, hook, report, clock, wall, setprofile, getprofile,
                 census=None, _encode=None, _note=None):
    """``(encoded result, best CPU seconds, its wall seconds, switched off, every run's CPU
    seconds)``: the answer run ``repeat`` times.

    The result is encoded (:func:`encode`) while the hook is still on, after the clock stopped:
    encoding runs the answer's own code too (a ``__float__`` or ``__array__`` of its class,
    pandas' ``to_numpy``, a sparse matrix's ``tocsr``), which must be watched like the rest;
    its time is not counted. The kernel's audit hook (:func:`install_guard`) recognises this
    function's code when it installs ``hook`` and takes ``hook`` and ``report`` from this
    frame: do not rename them. ``census`` (:func:`_thread_census`) is asked before and after
    each run: another thread alive then, or a task created in between, is a violation.
    """
    best = best_wall = result = None
    switched_off = False
    unwatched = set()
    runs = []  # every run's CPU seconds, in order (the grader tells a remembered result by them)
    for _ in range(repeat):
        before = census() if census is not None else None
        setprofile(hook)
        start, start_wall = clock(), wall()
        elapsed = encoded = None
        try:
            value = fn(*args, **kwargs)
            elapsed, elapsed_wall = clock() - start, wall() - start_wall
            encoded = (_encode or encode)(value)
        finally:
            if elapsed is None:
                elapsed, elapsed_wall = clock() - start, wall() - start_wall
            still = getprofile()
            setprofile(None)
            if before is not None:
                (_note or _unwatched)(before, census(), unwatched, report)
        switched_off = switched_off or still is not hook
        runs.append(elapsed)
        if best is None or elapsed < best:  # the value graded is the one of the run timed: a fast
            # wrong run beside a slow right one cannot lend its time to the right value
            best, best_wall, result = elapsed, elapsed_wall, encoded
        if elapsed > enough:
            break  # one run this slow is measurement enough: repeats only tame noise
    return result, best, best_wall, switched_off, runs


def _unwatched(before, after, seen, report, _max=max):
    """Report (once per kind) the threads and tasks :func:`_thread_census` saw around a run."""
    threads, processes = _max(before[0], after[0]), _max(before[1], after[1])
    if threads and "threads" not in seen:
        seen.add("threads")
        report("V", f"{threads} thread(s) the notebook started ran beside the graded call (the "
                    "grader watches only the thread it calls in: let every thread end before the "
                    "notebook's last cell)")
    if processes and "processes" not in seen:
        seen.add("processes")
        report("V", f"{processes} process(es) the notebook started ran beside the graded call (the "
                    "grader watches only the thread it calls in: let every process end before the "
                    "notebook's last cell)")
    if _max(before[3:4] + after[3:4] + (0,)) and "foreign" not in seen:
        seen.add("foreign")
        report("V", "the notebook's code ran on one of the kernel's own threads while graded (the "
                    "grader watches only the thread it calls in)")
    if before[2] != after[2] and "tasks" not in seen:
        seen.add("tasks")
        report("V", "a thread or a process was started while graded (the kernel's task counter "
                    "moved): the grader watches only the thread it calls in")


def _literal_reader():
    """``eval`` of a Python literal with no builtins (``.read(path)`` reads a file with the genuine
    ``open``), or None if ``eval`` or ``open`` was replaced."""
    import builtins

    ev, op = builtins.eval, builtins.open
    if not (_genuine(ev, "builtins", "eval") and _genuine(op, "io", "open")):
        return None

    def literal(text):
        return ev(text, {"__builtins__": {}}, {})

    def read(path):
        with op(path, encoding="utf-8") as fh:
            return fh.read()

    literal.read = read
    return literal


#: Characters of a line's keyed digest (:func:`line_mac`).
MAC_CHARS = 24


def line_mac(key, text, sha=None):
    """The keyed digest that signs a line (or a payload): only the holder of ``key`` can make it."""
    return (sha or _sha256())(("\0" + key + "\0" + text + "\0" + key).encode()).hexdigest()[:MAC_CHARS]


def _unsigned(text):
    """The signer of calls made outside a kernel with the harness installed (tests): key ``""``."""
    return line_mac("", text)


def call(user_ns, payload, sign=_unsigned, census=None, harness_changed=False, reads=()):
    """Run one call described by ``payload`` (a Python literal); report on the kernel's stdout.

    Every line it writes is ``<nonce><digest><kind><repr>``, the digest made by ``sign``
    (keyed with the kernel's secret, see :func:`install_guard`): ``V`` at once for each violation seen
    while the student's code runs (so that nothing the code does later can take it back),
    ``Q`` for each required function reached, ``L`` for each LP given to HiGHS, ``S`` for each
    function the answer entered that the grader compares with the forbidden ones (written after
    the run, with what the hook saw on the kernel's other threads), and one final ``R`` with a
    dict of plain Python values, among them how many lines of each kind were written before it
    (so that a line suppressed on its way out is noticed). The grader reads
    them with :func:`ast.literal_eval`; a line whose digest is wrong, more than one ``R``, or a
    missing line is tampering.
    """
    import sys
    import time

    # the payload is a Python literal read by the genuine eval with no builtins: the json module
    # (like any module) could have been replaced by the submission's cells before grading
    literal = _literal_reader()
    if literal is None:
        return  # no nonce to report with: the grader finds no reply, and says so
    if payload.startswith("@file:"):  # a large payload, in a file of the kernel's working folder
        payload = literal.read(payload[len("@file:") :])
    req = literal(payload)
    nonce = req["nonce"]
    stream = sys.stdout
    write, flush = stream.write, stream.flush
    pre = _replaced_before_grading(stream)
    builtins_ns, more = _private_builtins()
    pre += more
    # CPU seconds of this process (its threads included): another process's load on a
    # shared grader does not inflate them, as it inflates the wall clock (kept beside them,
    # to catch work handed to another process)
    setprofile, getprofile = sys.setprofile, sys.getprofile
    clock, wall = time.process_time, time.perf_counter

    # C counters: they only go up, so nothing can hide a line by lowering its count
    counts = {k: _count() for k in "VQLS"}
    # taken before the answer runs: it could replace the harness's builtins while graded
    _repr, _next = repr, next

    pending = []  # what the hook saw on the kernel's other threads: written by this thread, after the run
    here_thread = _thread_ident()

    def report(kind, value, _repr=repr, _write=write, _flush=flush, _nonce=nonce, _sign=sign,
               _next=next, _counts=counts, _ident=_thread_ident, _here=here_thread, _pending=pending):
        # V, Q, L and S only: the hook holds this function, and a submission that gets hold of the hook
        # could call it; the result line is written by call itself (below), which nothing holds
        if kind == "S" or _ident() != _here:  # another thread's output could arrive after this call's
            # reply; the functions entered (S) are written after the run, so that sending them costs the
            # kernel's IOPub thread no CPU time inside a timed run
            _pending.append((kind, value))
            return
        counter = _counts[kind]
        text = kind + _repr(value)
        _write(_nonce + _sign(_nonce + text) + text + "\n")
        _flush()
        _next(counter)

    if harness_changed:
        pre.append("the grader's harness was changed by the notebook's code (it is put back before "
                   "each call)")
    for v in pre:
        report("V", v)
    try:
        sha = _sha256()
    except RuntimeError as exc:
        sha = None
        report("V", str(exc))
    watch = req.get("watch") or {}
    for v in _source_violations(list(reads), watch.get("sources") or ()):
        report("V", v)
    out = {"result": None, "error": None, "seconds": None}
    head, *attrs = req["function"].split(".")
    fn = user_ns.get(head)
    if attrs and fn is not None:  # "obj.attr.method": looked up inside the graded call, under the hook
        fn = _attribute_call(fn, attrs)
    if fn is None or not callable(fn):
        out["error"] = f"NameError: the function {req['function']} is not defined (or not callable)"
    else:
        try:
            args = decode(req["args"])
            kwargs = decode(req["kwargs"])
            hook = _make_guard(watch, report, sha, watch.get("library", ()), builtins_ns)
            del watch, req["watch"]
            result, best, best_wall, off, runs = _graded_runs(
                fn, args, kwargs, int(req.get("repeat", 1)), float(req.get("enough", 1e300)),
                hook, report, clock, wall, setprofile, getprofile, census, encode, _unwatched,
            )
            del hook
            while pending:  # the other threads' lines and the functions entered, written here
                kind, value = pending.pop(0)
                text = kind + _repr(value)
                write(nonce + sign(nonce + text) + text + "\n")
                flush()
                _next(counts[kind])
            if off:
                report("V", "the grader's profile hook was switched off while graded")
            out["seconds"], out["wall_seconds"], out["runs"] = best, best_wall, runs
            out["result"] = result  # encoded under the hook, in _graded_runs
        except BaseException as exc:  # the student's error is reported, never raised here
            out["error"] = _error_line(exc)
    out["lines"] = {k: _next(c) for k, c in counts.items()}
    text = "R" + _repr(out)
    write(nonce + sign(nonce + text) + text + "\n")
    flush()
