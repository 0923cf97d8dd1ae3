"""sslteach: the companion module of the book *Spectral and kernel methods for semi-supervised learning*.

Shared primitives (one module each): :mod:`sslteach.kernels`, :mod:`sslteach.graphs`,
:mod:`sslteach.datasets`, :mod:`sslteach.plotting`. The chapters add one module per paper
(:mod:`sslteach.relaxation`, ...), and :mod:`sslteach.assignments` turns the chapters'
exercises into course assignments (``python -m sslteach.assignments --help``).
"""

from . import datasets, graphs, kernels, plotting

__version__ = "0.1.0"

__all__ = ["datasets", "graphs", "kernels", "plotting", "__version__"]
