"""sslteach-grader: assignments from the sslteach book's exercises, graded by hidden tests.

``release`` turns a master notebook into a student copy, an instructor copy and its hidden
tests; ``grade`` runs each submission in a sandbox and calls the functions the exercises name
on inputs drawn at grading time, comparing their values with the instructor solution's.
"""

from .specs import Case, same

__all__ = ["Case", "same"]
__version__ = "0.1.0"
