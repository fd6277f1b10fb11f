"""Small statistics for tournaments and analyses: means with 95% intervals, ratings.

Pure Python (no SciPy), deterministic, so that results are byte-identical across runs.

>>> m = mean_ci([1.0, 2.0, 3.0, 4.0])
>>> round(m.mean, 3), round(m.lo, 3), round(m.hi, 3)
(2.5, 0.446, 4.554)
>>> round(t975(10), 3), round(t975(10_000), 3)
(2.228, 1.96)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

Z975 = 1.959963984540054
"""The standard normal's 97.5% quantile."""

_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086)


def t975(df: int) -> float:
    """Student's t 97.5% quantile for *df* degrees of freedom (two-sided 95%)."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z975  # Cornish-Fisher expansion: within 1e-4 from 20 degrees of freedom on
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


class MeanCI(NamedTuple):
    """A sample mean with its two-sided 95% confidence interval (Student's t)."""

    mean: float
    """The sample mean."""
    lo: float
    """Lower end of the interval."""
    hi: float
    """Upper end of the interval."""
    n: int
    """Number of samples."""

    def excludes(self, value: float = 0.0) -> bool:
        """Whether the interval lies wholly above or below *value*."""
        return self.lo > value or self.hi < value


def mean_ci(samples: Sequence[float]) -> MeanCI:
    """Mean and t-interval of independent *samples* (a single sample: an infinite interval)."""
    n = len(samples)
    if n == 0:
        return MeanCI(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(samples) / n
    if n == 1:
        return MeanCI(mean, -math.inf, math.inf, 1)
    var = math.fsum((x - mean) ** 2 for x in samples) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return MeanCI(mean, mean - half, mean + half, n)


def proportion_ci(successes: float, n: int) -> tuple[float, float, float]:
    """A share with its Wilson 95% interval: (share, lo, hi)."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    p = successes / n
    z2 = Z975 * Z975
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z975 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry(wins: Sequence[Sequence[float]], *, prior: float = 0.5,
                  iterations: int = 2000) -> list[float]:
    """Ratings on the Elo scale from pairwise results, centred on 1500.

    ``wins[i][j]`` is how often *i* beat *j* (a tie counts half to each). The Bradley-Terry
    model says *i* beats *j* with probability ``s_i / (s_i + s_j)``; it is fitted by the
    minorisation-maximisation iteration with *prior* virtual wins each way between every two
    players (so that a clean sweep still gives finite ratings), and reported as
    ``400 * log10(s_i)``: a 200-point gap means the stronger wins about 76% of comparisons.

    >>> r = bradley_terry([[0, 30], [10, 0]])
    >>> round(r[0] - r[1])
    185
    """
    k = len(wins)
    w = [[wins[i][j] + (prior if i != j else 0.0) for j in range(k)] for i in range(k)]
    s = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            total = sum(w[i][j] for j in range(k) if j != i)
            denom = sum((w[i][j] + w[j][i]) / (s[i] + s[j]) for j in range(k) if j != i)
            new.append(total / denom if denom > 0 else s[i])
        g = math.exp(math.fsum(math.log(x) for x in new) / k)
        new = [x / g for x in new]
        if max(abs(a - b) for a, b in zip(new, s, strict=True)) < 1e-12:
            s = new
            break
        s = new
    return [1500.0 + 400.0 * math.log10(x) for x in s]
