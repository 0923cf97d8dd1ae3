"""Jupyter kernels for grading: one per submission, optionally inside a bubblewrap sandbox.

:class:`Kernel` starts an IPython kernel with :mod:`jupyter_client` over Unix-domain
sockets (``transport="ipc"``) in a private working folder, runs code in it with a time
limit (interrupting, then reporting, a cell that runs past it) and shuts it down.

With ``sandbox=True`` the kernel runs under Debian's ``bwrap`` (bubblewrap) with new
user, network, PID, IPC and UTS namespaces: the network is gone (only a private loopback
is left), and the file system holds only the system folders (``/usr``, ``/lib*``,
``/bin``, ``/etc``), the Python installation and virtual environment, the installed
``sslteach`` package folder, all read-only, a private ``/tmp``, and the kernel's own
working folder. The repository around an editable install of ``sslteach`` (its master
notebooks), the instructor copy, the hidden tests and the other submissions are not in
it, whatever path the submission tries. A memory limit is set with ``prlimit`` (address
space) when that tool exists. :func:`sandbox_available` says whether bwrap works here.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

_SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc")


def _bwrap() -> str | None:
    return shutil.which("bwrap")


_AVAILABLE: dict[str, object] = {}
_LOCK = threading.Lock()


def sandbox_available() -> tuple[bool, str]:
    """``(True, "")`` when bwrap can start a sandbox here, else ``(False, why)``."""
    with _LOCK:
        if "answer" not in _AVAILABLE:
            exe = _bwrap()
            if exe is None:
                _AVAILABLE["answer"] = (False, "bwrap (Debian package bubblewrap) is not installed")
            else:
                cmd = [
                    exe,
                    "--unshare-all",
                    "--die-with-parent",
                    "--tmpfs",  # first: the binds below may lie under /tmp (a venv made there)
                    "/tmp",
                    *_ro_binds(),
                    "--proc",
                    "/proc",
                    "--dev",
                    "/dev",
                    sys.executable,
                    "-c",
                    "print('ok')",
                ]
                try:
                    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
                    ok = res.returncode == 0 and res.stdout.strip() == "ok"
                    why = "" if ok else f"bwrap failed: {res.stderr.strip()[:300]}"
                except (OSError, subprocess.TimeoutExpired) as exc:
                    ok, why = False, f"bwrap failed: {exc}"
                _AVAILABLE["answer"] = (ok, why)
        return _AVAILABLE["answer"]


def _package_dir() -> str:
    spec = importlib.util.find_spec("sslteach")
    return str(Path(next(iter(spec.submodule_search_locations))).resolve())


def _ro_binds() -> list[str]:
    """Read-only binds: system folders, Python, the environment's site folders, sslteach."""
    paths = [p for p in _SYSTEM_DIRS if os.path.isdir(p) and not os.path.islink(p)]
    links = [p for p in _SYSTEM_DIRS if os.path.islink(p)]
    prefixes = {
        os.path.realpath(sys.prefix),
        os.path.realpath(sys.base_prefix),
        os.path.realpath(sys.exec_prefix),
    }
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if real and os.path.isdir(real) and ("site-packages" in real or "dist-packages" in real):
            prefixes.add(real)
    prefixes.add(_package_dir())
    exe = os.path.realpath(sys.executable)
    prefixes.add(os.path.dirname(exe))
    args = []
    for p in paths:
        args += ["--ro-bind", p, p]
    for p in links:
        args += ["--symlink", os.readlink(p), p]
    for p in sorted(prefixes):
        if not any(p == s or p.startswith(s + "/") for s in paths):
            args += ["--ro-bind", p, p]
    # a virtual environment's bin/python is a symlink into the base installation
    venv_bin = os.path.join(sys.prefix, "bin")
    if os.path.isdir(venv_bin):
        args += ["--ro-bind", venv_bin, venv_bin]
    return args


@dataclass
class RunResult:
    status: str  # "ok", "error", "timeout", "dead"
    error: str = ""
    stdout: str = ""


class Kernel:
    """One IPython kernel in a private working folder, optionally sandboxed.

    Parameters
    ----------
    sandbox : bool
        Run the kernel under bwrap (see the module docstring).
    memory : int or None
        The address-space limit in bytes (``prlimit --as``), None for none.
    env : dict, optional
        Extra environment variables for the kernel.
    """

    def __init__(self, *, sandbox: bool, memory: int | None = None, env: dict | None = None):
        from jupyter_client.manager import KernelManager

        self.workdir = Path(tempfile.mkdtemp(prefix="sslteach-grade-"))
        (self.workdir / "home").mkdir()
        prefix = []
        if memory and shutil.which("prlimit"):
            prefix += [shutil.which("prlimit"), f"--as={int(memory)}", "--"]
        if sandbox:
            work = str(self.workdir)
            prefix += [
                _bwrap(),
                "--unshare-all",
                "--die-with-parent",
                "--new-session",
                "--tmpfs",  # first: the binds below may lie under /tmp (a venv made there)
                "/tmp",
                *_ro_binds(),
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "--bind",
                work,
                work,
                "--chdir",
                work,
                "--setenv",
                "HOME",
                f"{work}/home",
                "--unsetenv",
                "JPY_PARENT_PID",
            ]

        class _Manager(KernelManager):
            def format_kernel_cmd(self, extra_arguments=None):
                return prefix + super().format_kernel_cmd(extra_arguments)

        kenv = {k: v for k, v in os.environ.items() if not k.startswith(("JPY_", "JUPYTER_TOKEN"))}
        kenv.update(
            {
                "HOME": str(self.workdir / "home"),
                "IPYTHONDIR": str(self.workdir / "home" / ".ipython"),
                "MPLCONFIGDIR": str(self.workdir / "home" / ".mpl"),
                "MPLBACKEND": "agg",
                "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            }
        )
        kenv.setdefault("OPENBLAS_NUM_THREADS", "1")
        kenv.setdefault("OMP_NUM_THREADS", "1")
        kenv.setdefault("MKL_NUM_THREADS", "1")
        kenv.update(env or {})
        self.km = _Manager(
            transport="ipc",
            ip=str(self.workdir / "kernel"),
            connection_file=str(self.workdir / "kernel.json"),
        )
        self.km.kernel_spec.interrupt_mode = "message"  # signals do not cross bwrap
        self.km.start_kernel(
            env=kenv,
            cwd=str(self.workdir),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # no history thread, and no threads copying the fd-level output (their loops call
            # methods a notebook could replace: the grader's hook watches only the kernel's loops)
            extra_arguments=["--HistoryManager.enabled=False", "--IPKernelApp.capture_fd_output=False"],
        )
        self.kc = self.km.client()
        self.kc.start_channels()
        try:
            self.kc.wait_for_ready(timeout=120)
        except RuntimeError:
            self.close()
            raise

    def run(self, code: str, timeout: float) -> RunResult:
        """Execute ``code``; errors, a time-out (then an interrupt) and a dead kernel are reported."""
        if not self.km.is_alive():
            return RunResult("dead", "the kernel died earlier")
        chunks: list[str] = []
        errors: list[str] = []

        def hook(msg):
            kind = msg["header"]["msg_type"]
            c = msg["content"]
            if kind == "stream" and c.get("name") == "stdout":
                chunks.append(c.get("text", ""))
            elif kind == "error":
                errors.append(_error_line(c, code))

        msg_id = self.kc.execute(code, store_history=False, allow_stdin=False, stop_on_error=False)
        deadline = time.monotonic() + timeout
        reply = None
        reply_at = 0.0
        idle = False
        while reply is None or not idle:
            if time.monotonic() > deadline:
                return self._interrupt(timeout, chunks)
            try:
                msg = self.kc.get_iopub_msg(timeout=0.2)
            except Exception:  # queue.Empty: nothing yet
                if not self.km.is_alive():
                    return RunResult("dead", "the kernel died (the cell crashed Python)", "".join(chunks))
                if reply is not None:  # the reply came but the idle status was not seen yet
                    idle = idle or time.monotonic() > reply_at + 2
                    if idle:
                        break
                try:
                    got = self.kc.get_shell_msg(timeout=0)
                    if got["parent_header"].get("msg_id") == msg_id and got["msg_type"] == "execute_reply":
                        reply, reply_at = got, time.monotonic()
                except Exception:
                    pass
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            hook(msg)
            if msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle":
                idle = True
                while reply is None:
                    try:
                        got = self.kc.get_shell_msg(timeout=5)
                    except Exception:
                        reply = {"content": {"status": "error", "ename": "Error", "evalue": "no reply"}}
                        break
                    if got["parent_header"].get("msg_id") == msg_id:
                        reply = got
        content = reply["content"]
        if content.get("status") == "ok":
            return RunResult("ok", "", "".join(chunks))
        err = errors[0] if errors else _error_line(content, code)
        return RunResult("error", err, "".join(chunks))

    def _interrupt(self, timeout, chunks):
        self.km.interrupt_kernel()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # wait for the interrupted cell to finish
            try:
                msg = self.kc.get_iopub_msg(timeout=0.5)
                if msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle":
                    break
            except Exception:
                if not self.km.is_alive():
                    break
        else:
            self.close()
            return RunResult("dead", "the cell could not be interrupted")
        self._drain()
        return RunResult("timeout", f"Timeout: the cell ran past the {timeout:g} s limit", "".join(chunks))

    def _drain(self):
        for get in (self.kc.get_iopub_msg, self.kc.get_shell_msg):
            while True:
                try:
                    get(timeout=0.2)
                except Exception:
                    break

    def close(self):
        try:
            self.kc.stop_channels()
        except Exception:
            pass
        try:
            self.km.shutdown_kernel(now=True)
        except Exception:
            pass
        shutil.rmtree(self.workdir, ignore_errors=True)


_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
_FRAME_RE = re.compile(r"(?:Cell In\[[^\]]*\]|<ipython-input-[^>]*>|File \S+), line (\d+)")


def _error_line(content, source: str = "") -> str:
    """``"<ename>: <first line of the message>"``; a bare ``assert`` is named by its line."""
    ename = content.get("ename", "Error")
    value = str(content.get("evalue", "")).strip().splitlines()
    if value:
        return f"{ename}: {value[0][:300]}"
    frame = _FRAME_RE.search(_ANSI_RE.sub("", "\n".join(content.get("traceback", []))))
    lines = source.splitlines()
    if frame and 0 < int(frame.group(1)) <= len(lines):
        n = int(frame.group(1))
        return f"{ename} at line {n}: {lines[n - 1].strip()[:120]}"
    return ename
