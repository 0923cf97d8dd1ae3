"""The code the grader sends into a submission's kernel to call the student's functions.

This file is read as text by :mod:`sslteach.teach.hidden` and executed in a fresh
namespace of the kernel *after* the submission's cells have run, so nothing the
submission did earlier can replace it. It uses only the standard library and numpy.
The grader imports the same file for :func:`encode` and :func:`decode`, the only way
values travel between the two processes: JSON with numpy arrays as ``.npy`` bytes
(``allow_pickle=False`` both ways), never pickles.

:func:`call` runs one hidden-test call: it decodes the arguments, looks the function up in
the kernel's user namespace, calls it under a profile hook that records every Python
function entered, and prints one line ``<nonce><json>`` with the encoded result, the
seconds it took, the forbidden functions it reached (by code object and by bytecode
fingerprint, so a copy made with ``types.FunctionType`` or pasted source is the same
function), the required functions it reached, and any attempt to switch the hook off,
start a thread or a process, or use ``ctypes`` while graded. Functions listed as
*withheld* have chosen keys of the dict they return (``linprog``'s multipliers, say)
replaced by :class:`Withheld` when they return to the student's code, so an answer cannot
read a solver's dual values where the exercise asks it to solve the dual itself.
"""

import base64
import io
import json
import os

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
        for fn in (value, getattr(value, "__wrapped__", None), getattr(value, "_implementation", None)):
            if fn is not None and hasattr(fn, "__code__"):
                codes += _code_objects(fn.__code__)
    return codes


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


def watch_lists(forbid=(), require=(), withhold=None):
    """What a graded call watches for, as plain data: computed once, in the grader's process.

    ``forbidden``/``required``/``withheld`` map the :func:`_key` of every code object of the
    named modules, classes and functions (modules compiled afresh from their files) to the
    name; ``forbidden_files`` lists ``[file or folder, name]`` of the forbidden modules. The
    kernel runs the same Python and packages, so the same code has the same key there, and
    it need not import (or compile) any of them to recognise them.
    """
    import sysconfig

    out = {"forbidden": {}, "required": {}, "withheld": {}, "forbidden_files": []}
    # the installed libraries (read-only in the sandbox): their own sys._getframe calls are allowed
    paths = sysconfig.get_paths()
    kinds = ("stdlib", "platstdlib", "purelib", "platlib")
    out["library"] = sorted({os.path.join(paths[k], "") for k in kinds})
    for path in forbid:
        for co in _resolve(path):
            out["forbidden"][_key(co)] = path
            body = _body_key(co)
            if body:
                out["forbidden"][body] = path
        out["forbidden_files"] += [[f, path] for f in _module_files(path)]
    for path in require:
        for co in _resolve(path):
            out["required"][_key(co)] = path
    for path, keys in (withhold or {}).items():
        for co in _resolve(path):
            out["withheld"][_key(co)] = [path, list(keys)]
    return out


def _blocked_c_functions():
    """``{id: name}`` of the genuine C functions a graded call must not reach."""
    import sys

    blocked_c = {}
    for mod, names in (
        ("sys", ("setprofile", "settrace", "_getframe", "_current_frames")),
        ("_thread", ("start_new_thread",)),
        ("posix", ("fork", "system", "posix_spawn", "posix_spawnp", "execv", "execve", "forkpty")),
        ("_posixsubprocess", ("fork_exec",)),
    ):
        module = sys.modules.get(mod) or __import__(mod)
        for name in names:
            fn = getattr(module, name, None)
            if fn is not None and _genuine(fn, mod, name):
                blocked_c[id(fn)] = f"{mod}.{name}"
    return blocked_c


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


def call(user_ns, payload):
    """Run one call described by ``payload`` (a JSON string); report on the kernel's stdout.

    Every line it writes starts with the payload's nonce: ``<nonce>V<repr>`` at once for each
    violation seen while the student's code runs (so that nothing the code does later can
    take it back), and one final ``<nonce>R<repr>`` with a dict of plain Python values (the
    grader reads both with :func:`ast.literal_eval`).
    """
    import sys
    import time

    req = json.loads(payload)
    nonce = req["nonce"]
    stream = sys.stdout
    write, flush = stream.write, stream.flush
    pre = _replaced_before_grading(stream)
    # CPU seconds of this process (its threads included): another process's load on a
    # shared grader does not inflate them, as it inflates the wall clock (kept beside them,
    # to catch work handed to another process)
    setprofile, getprofile = sys.setprofile, sys.getprofile
    clock, wall = time.process_time, time.perf_counter

    def report(kind, value):
        write(nonce + kind + repr(value) + "\n")
        flush()

    for v in pre:
        report("V", v)
    watch = req.get("watch") or {}
    forbidden, required = watch.get("forbidden", {}), watch.get("required", {})
    withheld, forbidden_files = watch.get("withheld", {}), watch.get("forbidden_files", [])
    library = tuple(watch.get("library", ())) or ("\0",)
    blocked_c = _blocked_c_functions()
    try:
        sha = _sha256()
    except RuntimeError as exc:
        sha = None
        report("V", str(exc))
    seen, reported, reached = {}, set(), set()

    def flag(message):
        if message not in reported:
            reported.add(message)
            report("V", message)

    def hook(frame, event, arg):
        if event == "call":
            co = frame.f_code
            hit = seen.get(id(co))
            if hit is None:
                fp = _key(co, sha) if sha and (forbidden or required or withheld) else ""
                bad = forbidden.get(fp) or (forbidden.get(_body_key(co, sha)) if fp else None) or next(
                    (p for f, p in forbidden_files if co.co_filename.startswith(f)), None
                )
                hit = (co, bad, required.get(fp), withheld.get(fp))
                seen[id(co)] = hit
            if hit[1]:
                flag(f"called {hit[1]} ({co.co_name})")
            if hit[2]:
                reached.add(hit[2])
        elif event == "return" and withheld and isinstance(arg, dict):
            hit = seen.get(id(frame.f_code))
            caller = frame.f_back
            inner = caller is not None and (seen.get(id(caller.f_code)) or (0, 0, 0, None))[3]
            if hit is not None and hit[3] and not inner:  # leaving the withheld functions' own calls
                path, keys = hit[3]
                for key in keys:  # a Withheld in the dict the answer gets back
                    if key in arg:
                        arg[key] = Withheld(path, key)
        elif event == "c_call" and id(arg) in blocked_c and frame.f_code is not own_code:
            name = blocked_c[id(arg)]
            file = frame.f_code.co_filename
            # A library's own frame lookups (typing_extensions does one while a module is imported
            # lazily, on a first call) are not the answer's: only sys._getframe is exempted so.
            if name != "sys._getframe" or not (file.startswith(library) or file.startswith("<frozen ")):
                flag(f"called {name} while graded")

    own_code = call.__code__  # the harness's own setprofile(None) after the call
    out = {"result": None, "error": None, "seconds": None, "required": []}
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
            best = None
            for _ in range(int(req.get("repeat", 1))):
                setprofile(hook)
                start, start_wall = clock(), wall()
                try:
                    result = fn(*args, **kwargs)
                finally:
                    elapsed, elapsed_wall = clock() - start, wall() - start_wall
                    still = getprofile()
                    setprofile(None)
                if still is not hook:
                    flag("the grader's profile hook was switched off while graded")
                if best is None or elapsed < best:
                    best, best_wall = elapsed, elapsed_wall
                if elapsed > float(req.get("enough", float("inf"))):
                    break  # one run this slow is measurement enough: repeats only tame noise
            out["seconds"], out["wall_seconds"] = best, best_wall
            out["result"] = encode(result)
        except BaseException as exc:  # the student's error is reported, never raised here
            out["error"] = _error_line(exc)
    out["required"] = sorted(reached)
    report("R", out)
