"""``python -m sslteach.assignments`` hands over to the grader, or says how to install it."""

import subprocess
import sys


def test_the_alias_runs_the_graders_command():
    res = subprocess.run(
        [sys.executable, "-m", "sslteach.assignments", "--help"], capture_output=True, text=True
    )
    assert res.returncode == 0 and "{release,grade}" in res.stdout


def test_without_the_grader_the_alias_says_what_to_install():
    code = (
        "import sys; sys.modules['sslteach_grader'] = sys.modules['sslteach_grader.cli'] = None\n"
        "from sslteach.assignments import main\nsys.exit(main(['release']))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 2 and "pip install -e ./grader" in res.stderr
