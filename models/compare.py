"""How sure a difference between two models' readings of the same photos is: a paired bootstrap over
sheets.

A family's figure (cells right, cells wrong with confidence) sums over ~112 drawable cells a sheet, but
its errors come in sheets: one player's whole terrain misread at once (every pine a village) moves 10 or
more cells together. So cells are not independent samples, and a difference of a point between two
models on 30 photos can be one sheet. Resampling whole sheets, the same sheets for both models (they
read the very same photos), gives the interval of the difference that the sheet-to-sheet spread allows.
Measured 2026-11-25 (``benchmarks/eval_families.py``, eval split): the seventh-sitting float net read
graphite 96.66 % right on 30 photos and 95.11 % on 100 (the 30 among them).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

#: Bootstrap resamples and the seed that fixes them (the same interval on every run).
BOOTSTRAP_ROUNDS = 2000
BOOTSTRAP_SEED = 0
#: Two-sided coverage of the reported interval.
INTERVAL = 0.95

__all__ = ["BOOTSTRAP_ROUNDS", "INTERVAL", "Difference", "paired_difference"]


class Difference(NamedTuple):
    """``b``'s share less ``a``'s, in points of percent, and its interval."""

    points: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.points:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"

    @property
    def clear(self) -> bool:
        """Whether the interval leaves out zero."""
        return self.low > 0 or self.high < 0


def paired_difference(
    a: np.ndarray, b: np.ndarray, totals: np.ndarray, *,
    rounds: int = BOOTSTRAP_ROUNDS, seed: int = BOOTSTRAP_SEED, interval: float = INTERVAL,
) -> Difference:
    """Difference of two models' pooled shares over the same sheets, with a paired bootstrap interval.

    Parameters
    ----------
    a, b : (S,) counts per sheet (e.g. cells right) of the two models on the same S sheets.
    totals : (S,) what each sheet's counts are out of (e.g. its drawable cells), the same for both.
    rounds, seed, interval : resamples, their seed, the interval's two-sided coverage.

    Returns
    -------
    Difference
        ``100 * (sum(b) - sum(a)) / sum(totals)`` and the percentile interval of the same over
        sheets drawn with replacement. With no sheet (or no total), zeros.
    """
    a, b, totals = (np.asarray(v, float) for v in (a, b, totals))
    if not (a.shape == b.shape == totals.shape) or a.ndim != 1:
        raise ValueError("a, b and totals must be 1-D arrays of one length (one entry per sheet)")
    if not len(totals) or totals.sum() <= 0:
        return Difference(0.0, 0.0, 0.0)
    diff = b - a
    point = 100.0 * diff.sum() / totals.sum()
    picks = np.random.default_rng(seed).integers(0, len(totals), size=(rounds, len(totals)))
    # a resample whose sheets hold no cells has no share; it cannot happen when every sheet has some
    sampled = 100.0 * diff[picks].sum(axis=1) / np.maximum(totals[picks].sum(axis=1), 1e-12)
    tail = (1.0 - interval) / 2.0
    low, high = np.quantile(sampled, [tail, 1.0 - tail])
    return Difference(float(point), float(low), float(high))
