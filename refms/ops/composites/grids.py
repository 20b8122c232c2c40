"""LinSpace / linspace and Meshgrid / meshgrid: evenly spaced values and coordinate grids.

    linspace(a, b, n)[k] = a + k · (b − a)/(n − 1),  k = 0…n−1   (n = 1: [a])

Float32 (or the dtype of Tensor bounds, Float32/Float64; integer bounds are rejected as
MindSpore 2.10 does).  ``meshgrid(x₁, …, xₙ, indexing='xy')`` broadcasts each 1-D input
along its own axis; 'xy' (Cartesian) swaps the first two axes of the result shape, 'ij'
(matrix) does not.  Both are compositions (``Reshape``, ``BroadcastTo``, ``Mul``); the grids
carry gradients, linspace's bounds do not (MindSpore 2.10 gives them a zero gradient, recorded).
"""
from ... import dtype as mstype
from ..._tensor import Tensor
from ..primitive import F, op_error
from ._common import CompositeOp

__all__ = ["LinSpace", "linspace", "Meshgrid", "meshgrid"]


def _bound(name, value):
    if isinstance(value, Tensor):
        if value.dtype not in (mstype.float32, mstype.float64):
            raise op_error("LinSpace", f"the input argument[{name} type] must be a type of "
                                       f"{{Tensor[Float32], Tensor[Float64]}}, but got "
                                       f"Tensor[{value.dtype}].")
        return F.reshape(value, ())
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise op_error("LinSpace", f"the '{name}' must be a number or a 0-d Tensor, but got "
                                   f"{type(value).__name__}.")
    return Tensor(float(value), mstype.float32)


def linspace(start, end, steps):
    """``ops.linspace(start, end, steps)``."""
    if isinstance(steps, Tensor):
        steps = int(steps.asnumpy())
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise op_error("LinSpace", f"the 'steps' must be a positive int, but got {steps!r}.",
                       ValueError)
    start, end = _bound("start", start), _bound("stop", end)
    k = Tensor(list(range(steps)), start.dtype)
    step = (end - start) / max(steps - 1, 1)
    return F.stop_gradient(start + k * step)


class LinSpace(CompositeOp):
    """``LinSpace()(start, stop, num)`` = :func:`linspace`."""

    def __call__(self, start, stop, num):
        return linspace(start, stop, num)


def meshgrid(*inputs, indexing="xy"):
    """``ops.meshgrid(*inputs, indexing='xy')``: a tuple of grids of one shape."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise op_error("Meshgrid", f"the 'indexing' must be 'xy' or 'ij', but got {indexing!r}.",
                       ValueError)
    if len(inputs) < 2:
        raise op_error("Meshgrid", f"the number of inputs must be at least 2, but got "
                                   f"{len(inputs)}.", ValueError)
    for x in inputs:
        if not isinstance(x, Tensor) or len(x.shape) != 1:
            raise op_error("Meshgrid", "each input must be a 1-D Tensor.")
    sizes = [x.shape[0] for x in inputs]
    axes = list(range(len(inputs)))
    if indexing == "xy":
        sizes[0], sizes[1] = sizes[1], sizes[0]
        axes[0], axes[1] = 1, 0
    grids = []
    for x, axis in zip(inputs, axes):
        shape = [1] * len(inputs)
        shape[axis] = x.shape[0]
        grids.append(F.broadcast_to(F.reshape(x, tuple(shape)), tuple(sizes)))
    return tuple(grids)


class Meshgrid(CompositeOp):
    """``Meshgrid(indexing='xy')(inputs)`` = :func:`meshgrid` of the tuple ``inputs``."""

    def __init__(self, indexing="xy"):
        if indexing not in ("xy", "ij"):
            raise op_error("Meshgrid", f"the 'indexing' must be 'xy' or 'ij', but got "
                                       f"{indexing!r}.", ValueError)
        self.indexing = indexing

    def __call__(self, inputs):
        return meshgrid(*inputs, indexing=self.indexing)
