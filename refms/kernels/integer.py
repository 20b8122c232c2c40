"""Reference kernels of integer arithmetic beyond the elementwise table.

Contract::

    gcd(x, y) -> z     the greatest common divisor of each broadcast pair, ≥ 0
                       (gcd(0, 0) = 0); x, y of one integer dtype
"""
import numpy as np

from . import reference


@reference
def gcd(x, y):
    return np.gcd(x, y)
