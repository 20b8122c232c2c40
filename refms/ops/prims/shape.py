"""Shape manipulation: Reshape, Transpose, ExpandDims, Squeeze, Flatten, BroadcastTo, Tile.

Values are only moved, so each bprop is the inverse movement of ``dout``
(BroadcastTo and Tile sum the copies back).
"""
import numpy as np

from ... import kernels
from .. import batching
from ..primitive import Primitive, Abstract, register, alias, op_error
from ._base import normalize_axis, shape_str, sum_to


def _size(shape):
    return int(np.prod(shape, dtype=np.int64))


@register
class Reshape(Primitive):
    """y = x with a new shape of the same size (one ``-1`` is inferred)."""
    n_tensor_inputs = 1

    def infer(self, x, shape):
        if isinstance(shape, int):
            shape = (shape,)
        shape = tuple(int(d) for d in shape)
        if shape.count(-1) > 1:
            raise op_error("Reshape", f"only one dimension can be -1, but got {shape_str(shape)}.",
                           ValueError)
        total = _size(x.shape)
        if -1 in x.shape:
            return Abstract(shape, x.dtype)
        if -1 in shape:
            known = _size([d for d in shape if d != -1])
            if known == 0 or total % known:
                raise op_error("Reshape", f"the product of the shape of 'input_x' should be "
                                          f"divisible by the known dims of 'input_shape', but got "
                                          f"input_x shape {shape_str(x.shape)} and input_shape "
                                          f"{shape_str(shape)}.", ValueError)
            shape = tuple(total // known if d == -1 else d for d in shape)
        if _size(shape) != total or any(d < 0 for d in shape):
            raise op_error("Reshape", f"the product of the 'input_x' shape should be equal to the "
                                      f"product of 'input_shape', but got input_x shape "
                                      f"{shape_str(x.shape)} and input_shape {shape_str(shape)}.",
                           ValueError)
        return Abstract(shape, x.dtype)

    def batch(self, batched, x, shape):
        """vmap: one Reshape of the whole batch (row-major order keeps examples apart)."""
        return batching.as_reshape(self, x, shape)

    def forward(self, x, shape):
        return kernels.call("reshape")(x, shape if not isinstance(shape, int) else (shape,))

    def bprop(self, x, shape, out, dout):
        return F.reshape(dout, x.shape), None


@register
class Transpose(Primitive):
    """y = x with axes permuted: y.shape[i] = x.shape[perm[i]]."""
    n_tensor_inputs = 1

    def infer(self, x, perm):
        perm = tuple(perm)
        if sorted(p % max(len(x.shape), 1) for p in perm) != list(range(len(x.shape))):
            raise op_error("Transpose", f"the 'input_perm' should be a permutation of "
                                        f"range({len(x.shape)}), but got {perm} for input shape "
                                        f"{shape_str(x.shape)}.", ValueError)
        return Abstract(tuple(x.shape[p] for p in perm), x.dtype)

    def batch(self, batched, x, perm):
        """vmap: the batch axis stays first, the per-example axes are permuted after it."""
        rank = len(x.shape) - 1
        return self(x, (0,) + tuple(batching.batch_axis(p, rank) for p in perm))

    def forward(self, x, perm):
        return kernels.call("transpose")(x, perm)

    def bprop(self, x, perm, out, dout):
        inverse = tuple(int(i) for i in np.argsort([p % len(perm) for p in perm]))
        return F.transpose(dout, inverse), None


@register
class ExpandDims(Primitive):
    """y = x with a size-1 axis inserted at ``axis`` (in [−ndim−1, ndim])."""
    n_tensor_inputs = 1

    def infer(self, x, axis):
        axis = normalize_axis("ExpandDims", axis, len(x.shape) + 1)
        shape = list(x.shape)
        shape.insert(axis, 1)
        return Abstract(tuple(shape), x.dtype)

    def batch(self, batched, x, axis):
        """vmap: a reshape of the whole batch."""
        return batching.as_reshape(self, x, axis)

    def forward(self, x, axis):
        return kernels.call("expand_dims")(x, axis)

    def bprop(self, x, axis, out, dout):
        return F.reshape(dout, x.shape), None


@register
class Squeeze(Primitive):
    """y = x without the size-1 axes in ``axis`` (all size-1 axes when ``axis`` is empty);
    a listed axis whose size is not 1 is kept.

    MindSpore's form: ``ops.Squeeze(axis=())(x)`` — the axes are a constructor attribute.
    """
    n_tensor_inputs = 1

    def __init__(self, axis=()):
        self.axis = tuple(axis) if isinstance(axis, (tuple, list)) else axis

    def _axes(self, shape):
        ndim = len(shape)
        if self.axis is None or self.axis == ():
            return [i for i, d in enumerate(shape) if d == 1]
        axes = [normalize_axis("Squeeze", a, ndim)
                for a in (self.axis if isinstance(self.axis, tuple) else (self.axis,))]
        # An axis whose size is not 1 is left alone (MindSpore 2.10 returns it unchanged).
        return [a for a in axes if shape[a] == 1]

    def infer(self, x):
        axes = self._axes(x.shape)
        return Abstract(tuple(d for i, d in enumerate(x.shape) if i not in axes), x.dtype)

    def batch(self, batched, x):
        """vmap: a reshape of the whole batch."""
        return batching.as_reshape(self, x)

    def forward(self, x):
        return kernels.call("squeeze")(x, tuple(self._axes(x.shape)))

    def bprop(self, x, out, dout):
        return (F.reshape(dout, x.shape),)


@register
class Flatten(Primitive):
    """y = x reshaped to (N, −1): the batch axis is kept."""
    n_tensor_inputs = 1

    def infer(self, x):
        if len(x.shape) == 0:
            raise op_error("Flatten", "the input should have at least 1 dimension, but got a 0-d "
                                      "tensor.", ValueError)
        rest = -1 if -1 in x.shape[1:] else _size(x.shape[1:])
        return Abstract((x.shape[0], rest), x.dtype)

    def batch(self, batched, x):
        """vmap: a reshape of the whole batch."""
        return batching.as_reshape(self, x)

    def forward(self, x):
        return kernels.call("reshape")(x, (x.shape[0], -1))

    def bprop(self, x, out, dout):
        return (F.reshape(dout, x.shape),)


@register
class BroadcastTo(Primitive):
    """y = x broadcast to ``shape`` (``-1`` keeps x's size); the bprop sums copies back.

    MindSpore's form: ``ops.BroadcastTo(shape)(x)`` — the shape is a constructor attribute.
    """
    n_tensor_inputs = 1

    def __init__(self, shape):
        self.shape = tuple(shape)

    def infer(self, x):
        shape = self.shape
        lead = len(shape) - len(x.shape)
        if lead < 0:
            raise op_error("BroadcastTo", f"the rank of 'shape' {len(shape)} is smaller than the "
                                          f"rank of 'input_x' {len(x.shape)}.", ValueError)
        result = []
        for i, d in enumerate(shape):
            src = x.shape[i - lead] if i >= lead else 1
            if d == -1:
                d = src
            if src not in (1, d):
                raise op_error("BroadcastTo", f"cannot broadcast shape {shape_str(x.shape)} to "
                                              f"{shape_str(shape)}.", ValueError)
            result.append(d)
        return Abstract(tuple(result), x.dtype)

    def batch(self, batched, x):
        """vmap: broadcast to (B,) + the per-example result shape."""
        shape = tuple(self.infer(batching.per_example(x)).shape)
        return BroadcastTo(tuple(x.shape)[:1] + shape)(batching.lift_rank(x, len(shape)))

    def forward(self, x):
        lead = len(self.shape) - x.ndim
        shape = tuple(x.shape[i - lead] if d == -1 else d for i, d in enumerate(self.shape))
        return kernels.call("broadcast_to")(x, shape)

    def bprop(self, x, out, dout):
        return (sum_to(dout, x.shape),)


@register
class Tile(Primitive):
    """y = x repeated ``multiples[i]`` times along axis i; the bprop sums the tiles.

    A ``multiples`` shorter than x's rank is padded with leading 1s (numpy's ``tile``,
    and MindSpore 2.10: shape (1, 3) tiled by (2,) gives (1, 6)).
    """
    n_tensor_inputs = 1

    @staticmethod
    def _aligned(shape, multiples):
        """(shape, multiples) padded with leading 1s to the same length."""
        multiples = tuple(multiples)
        rank = max(len(shape), len(multiples))
        return ((1,) * (rank - len(shape)) + tuple(shape),
                (1,) * (rank - len(multiples)) + multiples)

    def infer(self, x, multiples):
        shape, multiples = self._aligned(x.shape, multiples)
        return Abstract(tuple(s * m for s, m in zip(shape, multiples)), x.dtype)

    def batch(self, batched, x, multiples):
        """vmap: per-example shape and multiples padded to one rank; the batch axis tiled once."""
        shape, multiples = self._aligned(tuple(x.shape)[1:], multiples)
        return self(batching.lift_rank(x, len(shape)), (1,) + tuple(multiples))

    def forward(self, x, multiples):
        return kernels.call("tile")(x, multiples)

    def bprop(self, x, multiples, out, dout):
        shape, multiples = self._aligned(x.shape, multiples)
        split = []
        for m, s in zip(multiples, shape):
            split.extend([m, s])
        summed = F.reduce_sum(F.reshape(dout, tuple(split)), tuple(range(0, len(split), 2)), False)
        return F.reshape(summed, x.shape), None


reshape = alias("reshape", Reshape())
transpose = alias("transpose", Transpose())
alias("permute", Transpose())
expand_dims = alias("expand_dims", ExpandDims())
alias("unsqueeze", ExpandDims())
_FLATTEN = Flatten()
tile = alias("tile", Tile())


def squeeze(input, axis=None):
    """ops.squeeze(input, axis=None)."""
    return Squeeze(() if axis is None else axis)(input)


def broadcast_to(input, shape):
    """ops.broadcast_to(input, shape)."""
    return BroadcastTo(shape)(input)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """ops.flatten: merge axes ``start_dim..end_dim`` (default: all but the batch axis)."""
    if start_dim == 1 and end_dim == -1 and len(input.shape) >= 2:
        return _FLATTEN(input)      # a 1-D input stays 1-D, a 0-d one becomes (1,): as MindSpore
    return input.flatten(start_dim=start_dim, end_dim=end_dim)


from ..primitive import F, functional  # noqa: E402
functional("squeeze", squeeze)
functional("broadcast_to", broadcast_to)
functional("flatten", flatten)
