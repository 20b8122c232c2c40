"""Reference kernels that write an input in place (numpy).  The dispatcher knows them
(``INPLACE``): when one falls back to the host, the written array is copied back::

    assign(variable, value)                  variable ← value (cast to variable's dtype)
    setitem(x, index, value)                 x[index] ← value (an array or a host number)
    moving_average(variable, value, m)       variable ← (1 − m)·variable + m·value
    writable(x)                              -> bool: may x be written in place?
"""
import numpy as np

from . import reference


@reference
def assign(variable, value):
    np.copyto(variable, value, casting="unsafe")


@reference
def setitem(x, index, value):
    x[index] = value


@reference
def moving_average(variable, value, momentum):
    updated = (1 - momentum) * variable + momentum * value
    variable[...] = updated.astype(variable.dtype, copy=False)


@reference
def writable(x):
    return bool(x.flags.writeable)
