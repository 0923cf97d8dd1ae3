"""Root pytest configuration: the rounding-edge audit of every notebook run under nbval.

Each pytest process (each xdist worker) points its notebook kernels at an IPython profile whose
startup file loads ``tests/rounding_audit.py``: the kernel then records every number it prints
rounded at a half of its last digit (see that file). After each nbval cell, the records that
cell's kernel wrote fail the cell, with the value, the precision and the line that printed it.
``SSLTEACH_ROUNDING_AUDIT=off`` switches the audit off (to look at a failure without it).
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


def pytest_configure(config):
    if os.environ.get("SSLTEACH_ROUNDING_AUDIT", "").lower() == "off":
        return
    if not config.pluginmanager.hasplugin("nbval"):
        return
    tmp = Path(tempfile.mkdtemp(prefix="sslteach-audit-"))
    startup = tmp / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-rounding-audit.py").write_text(
        _STARTUP.format(path=str(ROOT / "tests" / "rounding_audit.py"))
    )
    log = tmp / "records.jsonl"
    log.touch()
    os.environ["IPYTHONDIR"] = str(tmp / "ipython")
    os.environ["SSLTEACH_ROUNDING_AUDIT"] = str(log)
    config._sslteach_audit = [log, 0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    audit = getattr(item.config, "_sslteach_audit", None)
    if audit is None or call.when != "call" or type(item).__name__ != "IPyNbCell":
        return
    log, offset = audit
    with open(log, encoding="utf-8") as f:
        f.seek(offset)
        new = f.read()
        audit[1] = f.tell()
    records = [json.loads(line) for line in new.splitlines() if line.strip()]
    report = outcome.get_result()
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
