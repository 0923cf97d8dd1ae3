"""Course assignments from the chapters' exercises: ``python -m sslteach.assignments release|grade``.

A thin entry point kept for its command and its names: the code lives in
:mod:`sslteach.teach.assignments` (release, integrity checks and grading) and
:mod:`sslteach.teach.hidden` (the hidden tests run outside the student's kernel), imported
only when a name is used, so that ``import sslteach`` needs neither nbformat nor a Jupyter
kernel. Every public name of :mod:`sslteach.teach.assignments` is reachable from here:

>>> from sslteach import assignments
>>> assignments.CODE_STUB
'raise NotImplementedError("write your solution in this cell")'
"""

import sys


def __getattr__(name):
    from sslteach.teach import assignments as _impl

    try:
        return getattr(_impl, name)
    except AttributeError:
        raise AttributeError(f"module 'sslteach.assignments' has no attribute {name!r}") from None


def __dir__():
    from sslteach.teach import assignments as _impl

    return sorted(set(globals()) | set(dir(_impl)))


if __name__ == "__main__":
    from sslteach.teach.assignments import main

    sys.exit(main())
