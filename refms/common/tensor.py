"""``refms.common.tensor`` mirrors ``mindspore.common.tensor``: ``Tensor`` and ``tensor``.

The class lives in :mod:`refms._tensor`; this module gives it MindSpore's import
path (``from mindspore.common.tensor import Tensor``) and adds the factory
function ``tensor(...)``, which MindSpore exports as ``mindspore.tensor``.
"""
from .._tensor import Tensor

__all__ = ["Tensor", "tensor"]


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """Create a ``Tensor``; ``tensor(x, dtype)`` is ``Tensor(x, dtype)``.

    ``device`` names where the data lives; refms has one device (the host), so
    ``None`` and ``"CPU"`` are accepted and anything else raises ``ValueError``.
    """
    if device is not None and str(device).split(":")[0].upper() != "CPU":
        raise ValueError(f"For 'tensor', refms runs on the host only: 'device' must be None "
                         f"or 'CPU', but got {device!r}.")
    return Tensor(input_data, dtype=dtype, shape=shape, init=init, const_arg=const_arg)
