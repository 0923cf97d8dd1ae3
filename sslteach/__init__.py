"""sslteach: the companion module of the book *Spectral and kernel methods for semi-supervised learning*.

Reading map (the afternoon's order; the API pages' index has the key functions per chapter):

1. shared primitives, Chapter 0: :mod:`~sslteach.kernels` (Gaussian kernel, centering; the
   bandwidth names), :mod:`~sslteach.graphs` (k-NN graph, normalised Laplacian, geodesics),
   :mod:`~sslteach.datasets`, :mod:`~sslteach.plotting`;
2. one module per paper, Chapters 1-4: :mod:`~sslteach.relaxation`,
   :mod:`~sslteach.cluster_kernels`, :mod:`~sslteach.spectral_kernels`, :mod:`~sslteach.ksc`;
3. ``sslteach.protocols``: the chapters' experiment protocols (Table 1's candidates and
   selection, Chapter 4's protocol, Chapter 5's comparison), sharing the estimators' rules;
4. ``sslteach.teach``: the MyST converter and the scorecard (the grader,
   ``python -m sslteach.assignments release|grade``, is the package ``sslteach-grader``).

Conventions: labels follow ``sklearn.semi_supervised``, one entry per point and ``-1`` for
unlabelled (``_validation.check_labels`` is the one label checker); every tolerance and tie
rule that decides something lives in ``sslteach._decisions``; inputs are validated once, at
the public entry point.
"""

from . import datasets, graphs, kernels, plotting

__version__ = "0.1.0"

__all__ = ["datasets", "graphs", "kernels", "plotting", "__version__"]
