"""Reference kernels that write an input in place (numpy).  The dispatcher knows them
(``INPLACE``): when one falls back to the host, the written array is copied back::

    assign(variable, value)                  variable ← value (cast to variable's dtype)
    setitem(x, index, value)                 x[index] ← value (an array or a host number)
    moving_average(variable, value, m)       variable ← (1 − m)·variable + m·value
    apply_momentum(p, v, g, lr, momentum, nesterov)
                                             v ← momentum·v + g;  p ← p − lr·v
                                             (nesterov: p ← p − (lr·g + lr·momentum·v))
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
def apply_momentum(variable, accumulation, gradient, lr, momentum, use_nesterov):
    """Momentum SGD on one parameter, both arrays in place (``lr`` and ``momentum`` are 0-d
    arrays or numbers); the arithmetic of ``nn.Momentum``, operation for operation."""
    new_accumulation = accumulation * momentum + gradient
    if use_nesterov:
        new_variable = variable - (gradient * lr + new_accumulation * momentum * lr)
    else:
        new_variable = variable - new_accumulation * lr
    np.copyto(accumulation, new_accumulation, casting="unsafe")
    np.copyto(variable, new_variable, casting="unsafe")


@reference
def writable(x):
    return bool(x.flags.writeable)
