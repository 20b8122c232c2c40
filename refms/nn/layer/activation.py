"""Activation layers: each wraps one activation primitive of :mod:`refms.ops` as a Cell.

===============  ============================================  =======================
layer            y =                                           primitive
===============  ============================================  =======================
``ReLU``         max(x, 0)                                     ``ops.ReLU``
``Sigmoid``      1 / (1 + e⁻ˣ)                                 ``ops.Sigmoid``
``Tanh``         tanh x                                        ``ops.Tanh``
``GELU``         x·Φ(x); ``approximate=True`` (default) uses   ``ops.gelu``
                 ½x(1 + tanh(√(2/π)(x + 0.044715x³)))
``Softmax``      eˣ / Σ eˣ along ``axis``                      ``ops.Softmax``
``LogSoftmax``   x − log Σ eˣ along ``axis``                   ``ops.LogSoftmax``
===============  ============================================  =======================

``get_activation('relu')`` builds one by name (``Dense(activation='relu')``).
"""
from ...ops import functional as F
from ...ops.prims import activation as P
from ..cell import Cell
from ._checks import check_bool

__all__ = ["ReLU", "Sigmoid", "Tanh", "GELU", "Softmax", "LogSoftmax", "get_activation"]


class ReLU(Cell):
    """y = max(x, 0)."""

    def __init__(self):
        super().__init__()
        self.relu = P.ReLU()

    def construct(self, x):
        return self.relu(x)


class Sigmoid(Cell):
    """y = 1 / (1 + exp(−x))."""

    def __init__(self):
        super().__init__()
        self.sigmoid = P.Sigmoid()

    def construct(self, x):
        return self.sigmoid(x)


class Tanh(Cell):
    """y = tanh(x)."""

    def __init__(self):
        super().__init__()
        self.tanh = P.Tanh()

    def construct(self, x):
        return self.tanh(x)


class GELU(Cell):
    """y = x·Φ(x) (exact, ``approximate=False``) or its tanh approximation (default)."""

    def __init__(self, approximate=True):
        super().__init__()
        check_bool(approximate, "approximate", self.cls_name)
        self.approximate = "tanh" if approximate else "none"

    def construct(self, x):
        return F.gelu(x, approximate=self.approximate)


class Softmax(Cell):
    """y = exp(x) / Σ exp(x) along ``axis`` (computed from x − max x; see ``ops.Softmax``)."""

    def __init__(self, axis=-1):
        super().__init__()
        self.softmax = P.Softmax(axis)

    def construct(self, x):
        return self.softmax(x)


class LogSoftmax(Cell):
    """y = x − log Σ exp(x) along ``axis`` (never log(softmax(x)), which underflows)."""

    def __init__(self, axis=-1):
        super().__init__()
        self.log_softmax = P.LogSoftmax(axis)

    def construct(self, x):
        return self.log_softmax(x)


#: name -> layer class, for ``get_activation`` (MindSpore ``nn/layer/activation.py`` ``_activation``).
ACTIVATIONS = {"relu": ReLU, "sigmoid": Sigmoid, "tanh": Tanh, "gelu": GELU,
               "softmax": Softmax, "logsoftmax": LogSoftmax}


def get_activation(name, prim_name=None):
    """A new activation layer named ``name`` (None -> None)."""
    if name is None:
        return None
    if name not in ACTIVATIONS:
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise KeyError(f"{prefix} 'name' must be in {list(ACTIVATIONS)}, but got {name}.")
    return ACTIVATIONS[name]()
