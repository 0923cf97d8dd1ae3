"""Root pytest configuration: the rounding-edge and figure audits of every notebook under nbval.

Each pytest process (each xdist worker) points its notebook kernels at an IPython profile whose
startup file loads ``tests/rounding_audit.py``: the kernel then records every number it prints
rounded at a half of its last digit (see that file). After each nbval cell, the records that
cell's kernel wrote fail the cell, with the value, the precision and the line that printed it.
``SSLTEACH_ROUNDING_AUDIT=off`` switches the audit off (to look at a failure without it).

A second startup file loads ``tests/figure_audit.py``: every figure the kernel shows or saves
is checked by ``sslteach.plotting.figure_problems`` (overlapping texts, legends over data), and
a figure with a problem fails the cell that showed it. ``SSLTEACH_FIGURE_AUDIT=off`` switches
that audit off.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
_STARTUP = """\
import importlib.util as _u
_spec = _u.spec_from_file_location("_sslteach_rounding_audit", {path!r})
_m = _u.module_from_spec(_spec)
_spec.loader.exec_module(_m)
_m.install(get_ipython())
del _u, _spec, _m
"""
_FIGURE_STARTUP = _STARTUP.replace("_sslteach_rounding_audit", "_sslteach_figure_audit")


#: thread pools of the numerical libraries a test process and its notebook kernels start
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def share_the_cores(numprocesses, cores, environ):
    """One share of the cores per pytest-xdist worker, for the variables the caller left unset.

    Each worker, and each notebook kernel it starts, would otherwise open a BLAS and an OpenMP
    pool of one thread per core: two workers on two cores ran four or more busy threads, and
    the notebooks took two to four times as long. A variable already set wins (CI sets two
    threads for one of its runs), and without workers nothing changes.
    """
    if not isinstance(numprocesses, int) or numprocesses < 2:
        return {}
    share = str(max(1, (cores or 1) // numprocesses))
    return {v: share for v in THREAD_VARIABLES if v not in environ}


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the controller: workers and kernels inherit it
        os.environ.update(
            share_the_cores(getattr(config.option, "numprocesses", None), os.cpu_count(), os.environ)
        )
    _install_audit(config)


def _install_audit(config):
    rounding = os.environ.get("SSLTEACH_ROUNDING_AUDIT", "").lower() != "off"
    figures = os.environ.get("SSLTEACH_FIGURE_AUDIT", "").lower() != "off"
    if not (rounding or figures) or not config.pluginmanager.hasplugin("nbval"):
        return
    tmp = Path(tempfile.mkdtemp(prefix="sslteach-audit-"))
    startup = tmp / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    os.environ["IPYTHONDIR"] = str(tmp / "ipython")
    audits = (  # (on, startup file, its template, the module it loads, log, variable, config attribute)
        (rounding, "00-rounding-audit.py", _STARTUP, "rounding_audit.py", "records.jsonl",
         "SSLTEACH_ROUNDING_AUDIT", "_sslteach_audit"),
        (figures, "01-figure-audit.py", _FIGURE_STARTUP, "figure_audit.py", "figures.jsonl",
         "SSLTEACH_FIGURE_AUDIT", "_sslteach_figure_audit"),
    )
    for on, name, template, module, logname, variable, attribute in audits:
        if on:
            (startup / name).write_text(template.format(path=str(ROOT / "tests" / module)))
            log = tmp / logname
            log.touch()
            os.environ[variable] = str(log)
            setattr(config, attribute, [log, 0])


def _new_records(audit):
    """The JSON records written to an audit's log since the last call."""
    log, offset = audit
    with open(log, encoding="utf-8") as f:
        f.seek(offset)
        new = f.read()
        audit[1] = f.tell()
    return [json.loads(line) for line in new.splitlines() if line.strip()]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when != "call" or type(item).__name__ != "IPyNbCell":
        return
    report = outcome.get_result()
    figures = getattr(item.config, "_sslteach_figure_audit", None)
    records = _new_records(figures) if figures is not None else []
    if records and report.passed:
        lines = [f"  {r['figure']}: {p}" for r in records for p in dict.fromkeys(r["problems"])]
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} shows a figure that does not read (overlapping texts, or a legend "
            "over data; sslteach.plotting.figure_problems):\n"
            + "\n".join(lines[:30])
            + (f"\n  ... and {len(lines) - 30} more" if len(lines) > 30 else "")
        )
    audit = getattr(item.config, "_sslteach_audit", None)
    if audit is None:
        return
    records = _new_records(audit)
    if records and report.passed:
        lines = [
            f"  {r['value']} printed with precision {r['precision']} ({r['type'] or 'g'}) at {r['where']}"
            for r in records[:10]
        ]
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} prints {len(records)} number(s) on a rounding edge (within round-off of a "
            "half of the last printed digit: another CPU may print the neighbouring value). Print an "
            "exact fraction, more digits, or a verdict:\n" + "\n".join(lines)
        )
