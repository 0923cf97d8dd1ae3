"""``python -m sslteach.assignments release|grade``: the book's grader, kept under its old name.

The grader is a package of its own, ``sslteach-grader`` (the folder ``grader/`` of the
repository, which ``requirements.txt`` installs); this module only hands the command over to it.
"""

import sys


def main(argv=None) -> int:
    """Run ``sslteach_grader``'s command line; exit status 2 with advice when it is not installed."""
    try:
        from sslteach_grader.cli import main as grader_main
    except ImportError:
        print("error: the grader is a package of its own: from a clone of the repository, "
              "pip install -e ./grader", file=sys.stderr)
        return 2
    return grader_main(argv, prog="python -m sslteach.assignments")


if __name__ == "__main__":
    sys.exit(main())
