r"""The chapters' experimental protocols, beside the methods they run.

* :mod:`~sslteach.protocols.ch2`: Table 1 of Bodó & Csató (2010), its kernel candidates and
  the labelled-only choice of an SVM (:func:`~sslteach.protocols.ch2.select_svm`).
* :mod:`~sslteach.protocols.ch4`: one randomisation of Table I of Alzate & Suykens (2012),
  Semi-KSC and LapSVM chosen on validation points
  (:func:`~sslteach.protocols.ch4.evaluate_protocol`).
* :mod:`~sslteach.protocols.comparison`: Chapter 5, every method under one labelled-only
  selection rule, and the statistics that compare them;
  :mod:`~sslteach.protocols.baselines` adds the baselines a reader expects (1-NN, the
  harmonic function, LapRLS) in the same protocol, and :mod:`~sslteach.protocols.set_level`
  the statistics at the level of the claims (over data sets, or over one set's splits).

The method modules (:mod:`sslteach.cluster_kernels`, :mod:`sslteach.ksc`, ...) hold the
methods and nothing else; Chapters 2 and 5 break ties by the same rule
(``sslteach._decisions.first_tied_not_one_class``).

**Bandwidth grids**, each named for what it scales: ``ch2``'s ``sigma_factors`` multiply the
median distance to give the book's :math:`\sigma` of :math:`\exp(-d^2/(2\sigma^2))`;
``ch4``'s ``sigma2_factors`` multiply the median squared distance to give the paper's
``sigma2`` of :math:`\exp(-d^2/\sigma^2)` (:mod:`sslteach.ksc`); ``comparison``'s grid value
``s`` gives the book's :math:`\sigma^2 = s\,\bar m`, :math:`\bar m` the median squared
distance (so Semi-KSC and LapSVM there get ``sigma2`` = :math:`2s\bar m`).
"""

from . import baselines, ch2, ch4, comparison, set_level

__all__ = ["baselines", "ch2", "ch4", "comparison", "set_level"]
