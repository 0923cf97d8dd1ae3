"""The root conftest gives each pytest-xdist worker its share of the cores' threads."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("_root_conftest", ROOT / "conftest.py")
root_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(root_conftest)
share_the_cores = root_conftest.share_the_cores


def test_each_worker_gets_its_share_and_explicit_settings_win():
    assert share_the_cores(2, 2, {}) == {v: "1" for v in root_conftest.THREAD_VARIABLES}
    assert share_the_cores(2, 8, {})["OMP_NUM_THREADS"] == "4"
    assert share_the_cores(4, 2, {})["OPENBLAS_NUM_THREADS"] == "1"  # never 0
    assert "OPENBLAS_NUM_THREADS" not in share_the_cores(2, 2, {"OPENBLAS_NUM_THREADS": "2"})
    for numprocesses in (None, 1, "auto"):
        assert share_the_cores(numprocesses, 2, {}) == {}


def test_workers_see_the_share(tmp_path):  # about 5 s: one real two-worker run
    """A real two-worker run: the test inside a worker reads the variables it inherited."""
    (tmp_path / "test_env.py").write_text(
        "import os\n"
        "def test_env():\n"
        "    print('THREADS', os.environ.get('OPENBLAS_NUM_THREADS'), os.environ.get('OMP_NUM_THREADS'))\n"
        "    assert os.environ.get('OPENBLAS_NUM_THREADS') == os.environ.get('EXPECT')\n"
    )
    (tmp_path / "conftest.py").write_text(
        (ROOT / "conftest.py")
        .read_text()
        .replace("ROOT = Path(__file__).resolve().parent", f"ROOT = Path({str(ROOT)!r})")
    )
    env = {k: v for k, v in os.environ.items() if k not in root_conftest.THREAD_VARIABLES}
    cores = os.cpu_count() or 1
    for extra, expect in (({}, str(max(1, cores // 2))),):
        res = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-n",
                "2",
                "-p",
                "no:cacheprovider",
                "-o",
                "addopts=",
                str(tmp_path / "test_env.py"),
            ],
            cwd=tmp_path,
            env={**env, **extra, "EXPECT": expect},
            capture_output=True,
            text=True,
        )
        assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
