"""Record MindSpore 2.10's outputs, gradients and exception types of the ``ops``/``nn`` arguments
and Cells refms gained late: ``ops.gather(..., batch_dims)`` (and ``Tensor.gather``),
``ops.pad`` in 'replicate'/'circular' mode with negative (cropping) paddings, the
``nn.ConstantPad*``/``ZeroPad2d``/``ReflectionPad*``/``ReplicationPad*`` Cells,
``ops.amax/amin/max/min`` and ``Tensor.max`` with ``initial``/``where``,
``ops.subtract(..., alpha)``, ``nn.MaxPool3d(return_indices=True)``, ``Tensor.set_``,
``Parameter.requires_grad_`` and ``Tensor.to_``'s device check; the exception types
of ``mint.multinomial``'s argument checks (its kernel is Ascend-only).

Run with the MindSpore interpreter (refms never imports mindspore), from a scratch dir::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_api_gaps.py [name-prefix ...]

The runner is ``record_vision_ops.main`` (one process per case); this module only defines
the cases.  Writes ``tests/recorders/api_gaps.json``; ``tests/test_api_gaps.py`` replays it.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "api_gaps.json")
GRAPH_RECORDED = ()


def cases(ms):
    """(name, fn(*tensors), inputs as numpy arrays, differentiate?) — fn uses only ``ms``."""
    ops, nn = ms.ops, ms.nn
    rng = np.random.default_rng(2110)

    def f32(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def ints(low, high, *shape):
        return rng.integers(low, high, shape).astype(np.int32)

    def mask(*shape):
        return rng.random(shape) < 0.6

    def set_then_read(x, *args):
        """x after x.set_(*args) (set_ replaces x's values, shape and dtype)."""
        x.set_(*args)
        return x

    def requires_grad_flags(x):
        """[requires_grad_() returns None, a frozen Parameter's flag after requires_grad_(),
        a Parameter's flag after requires_grad_(False)] as a Bool tensor."""
        frozen = ms.Parameter(x, name="frozen", requires_grad=False)
        returned_none = frozen.requires_grad_() is None
        trained = ms.Parameter(x, name="trained")
        trained.requires_grad_(False)
        return ms.Tensor(np.array([returned_none, frozen.requires_grad, trained.requires_grad]))

    return [
        # ops.gather with batch dims: x[β, a…, indices[β, i…], b…]
        ("gather-batch_dims1-axis1", lambda x, i: ops.gather(x, i, 1, batch_dims=1),
         [f32(2, 3, 4), ints(-3, 3, 2, 5)], True),
        ("gather-batch_dims1-axis2", lambda x, i: ops.gather(x, i, 2, batch_dims=1),
         [f32(2, 3, 4), ints(-4, 4, 2, 2, 3)], True),
        ("gather-batch_dims2", lambda x, i: ops.gather(x, i, 2, batch_dims=2),
         [f32(2, 3, 4, 2), ints(0, 4, 2, 3, 3)], True),
        ("gather-batch_dims-negative", lambda x, i: ops.gather(x, i, -1, batch_dims=-1),
         [f32(3, 5), ints(0, 5, 3, 4)], True),
        ("Tensor.gather-batch_dims", lambda x, i: x.gather(i, 2, 1),
         [f32(2, 2, 5, 3), ints(0, 5, 2, 4)], True),
        # ops.pad: replicate, circular, cropping
        ("pad-replicate-1d", lambda x: ops.pad(x, (2, 1), mode="replicate"), [f32(2, 3, 4)],
         True),
        ("pad-replicate-2d", lambda x: ops.pad(x, (1, 3, 2, 0), mode="replicate"),
         [f32(1, 2, 3, 4)], True),
        ("pad-replicate-3d-unbatched", lambda x: ops.pad(x, (1, 1, 0, 2, 1, 0), mode="replicate"),
         [f32(2, 2, 3, 2)], True),
        ("pad-replicate-2d-unbatched", lambda x: ops.pad(x, (1, 2), mode="replicate"),
         [f32(3, 4)], True),
        ("pad-replicate-crop", lambda x: ops.pad(x, (-1, 2, 1, -1), mode="replicate"),
         [f32(1, 3, 4)], True),
        ("pad-circular-1d", lambda x: ops.pad(x, (3, 4), mode="circular"), [f32(2, 2, 4)], True),
        ("pad-circular-2d", lambda x: ops.pad(x, (1, 2, 2, 1), mode="circular"),
         [f32(1, 2, 3, 4)], True),
        ("pad-constant-crop", lambda x: ops.pad(x, (-1, 2, 1, -2), value=0.5), [f32(2, 4, 5)],
         True),
        ("pad-reflect-2d", lambda x: ops.pad(x, (3, 1, 2, 2), mode="reflect"), [f32(1, 2, 3, 4)],
         True),
        # nn padding Cells
        ("nn.ReplicationPad1d", lambda x: nn.ReplicationPad1d((2, 1))(x), [f32(2, 3, 4)], True),
        ("nn.ReplicationPad1d-unbatched", lambda x: nn.ReplicationPad1d(2)(x), [f32(3, 4)], True),
        ("nn.ReplicationPad2d", lambda x: nn.ReplicationPad2d((1, 0, 2, 1))(x),
         [f32(1, 2, 3, 4)], True),
        ("nn.ReplicationPad3d", lambda x: nn.ReplicationPad3d(1)(x), [f32(1, 2, 2, 3, 2)], True),
        ("nn.ReplicationPad3d-unbatched", lambda x: nn.ReplicationPad3d((0, 1, 1, 0, 2, 1))(x),
         [f32(2, 2, 3, 2)], True),
        ("nn.ReflectionPad1d", lambda x: nn.ReflectionPad1d((1, 3))(x), [f32(2, 2, 4)], True),
        ("nn.ReflectionPad2d", lambda x: nn.ReflectionPad2d(2)(x), [f32(2, 3, 4)], True),
        ("nn.ReflectionPad3d", lambda x: nn.ReflectionPad3d((1, 0, 0, 2, 1, 1))(x),
         [f32(1, 1, 2, 3, 4)], True),
        ("nn.ConstantPad1d", lambda x: nn.ConstantPad1d((1, 2), 0.5)(x), [f32(2, 3)], True),
        ("nn.ConstantPad2d", lambda x: nn.ConstantPad2d(1, -1.5)(x), [f32(1, 2, 3)], True),
        ("nn.ConstantPad3d", lambda x: nn.ConstantPad3d((1, 0, 2, 1, -1, 1), 2.0)(x),
         [f32(1, 2, 3, 2)], True),
        ("nn.ZeroPad2d", lambda x: nn.ZeroPad2d((1, 0, 2, 1))(x), [f32(1, 2, 3)], True),
        # initial / where: x' = where ? max(x, initial) : initial
        ("amax-initial", lambda x: ops.amax(x, 1, initial=0.3), [f32(3, 4)], True),
        ("amax-where", lambda x, w: ops.amax(x, (0, 2), True, initial=-5.0, where=w),
         [f32(2, 3, 4), mask(2, 3, 4)], True),
        ("amax-where-all", lambda x, w: ops.amax(x, initial=-5.0, where=w),
         [f32(3, 4), mask(3, 4)], True),
        ("amin-where-broadcast", lambda x, w: ops.amin(x, 0, initial=5.0, where=w),
         [f32(3, 4), mask(4)], True),
        ("amax-int-initial", lambda x: ops.amax(x, 0, initial=2),
         [ints(-5, 5, 4, 3)], False),
        ("max-initial", lambda x: ops.max(x, 1, initial=0.2), [f32(3, 4)], True),
        ("max-where", lambda x, w: ops.max(x, 0, True, initial=-3.0, where=w),
         [f32(3, 4), mask(3, 4)], True),
        ("min-where", lambda x, w: ops.min(x, -1, initial=3.0, where=w),
         [f32(2, 3, 4), mask(2, 3, 4)], True),
        ("max-all-ignores-initial", lambda x, w: ops.max(x, initial=9.0, where=w),
         [f32(3, 4), mask(3, 4)], False),
        ("Tensor.max-where-indices",
         lambda x, w: x.max(1, initial=-1.0, where=w, return_indices=True),
         [f32(3, 4), mask(3, 4)], True),
        ("Tensor.min-initial", lambda x: x.min(0, initial=-0.1), [f32(3, 4)], True),
        ("Tensor.max-axes-initial", lambda x: x.max((0, 1), initial=0.5), [f32(2, 3, 2)], True),
        ("Tensor.amax-where", lambda x, w: x.amax(1, initial=0.0, where=w),
         [f32(3, 4), mask(3, 4)], True),
        # subtract with alpha: input − alpha·other
        ("subtract-alpha", lambda x, y: ops.subtract(x, y, alpha=2.5), [f32(2, 3), f32(3)],
         True),
        ("subtract-alpha-scalar", lambda x: ops.subtract(x, 1.5, alpha=-2), [f32(2, 3)], True),
        ("subtract-int-float-alpha", lambda x, y: ops.subtract(x, y, alpha=1.5),
         [ints(-4, 4, 5), ints(-4, 4, 5)], False),
        ("Tensor.subtract-alpha", lambda x, y: x.subtract(y, alpha=3), [f32(3), f32(2, 3)], True),
        # MaxPool3d returning the flat D·H·W position of each maximum
        ("nn.MaxPool3d-indices", lambda x: nn.MaxPool3d(2, 2, "pad", 1, return_indices=True)(x),
         [f32(1, 2, 4, 5, 5)], True),
        ("nn.MaxPool3d-indices-overlap",
         lambda x: nn.MaxPool3d(3, 1, "pad", 1, return_indices=True)(x), [f32(2, 1, 3, 4, 4)],
         True),
        ("nn.MaxPool3d-indices-unbatched",
         lambda x: nn.MaxPool3d((2, 3, 2), (1, 2, 1), "pad", (1, 0, 1), return_indices=True,
                                ceil_mode=True)(x), [f32(2, 3, 5, 4)], True),
        ("max_pool3d-indices-dilation",
         lambda x: ops.max_pool3d(x, 2, 1, 1, 2, False, True), [f32(1, 2, 4, 4, 5)], True),
        # Tensor methods that replace a tensor's storage (PyNative only)
        ("Tensor.set_-source", lambda x, y: set_then_read(x, y), [f32(2), f32(3, 2)], False),
        ("Tensor.set_-strided", lambda x, y: set_then_read(x, y, 1, (2, 3), (4, 1)),
         [f32(2), f32(12)], False),
        ("Tensor.set_-empty", lambda x: set_then_read(x), [f32(3)], False),
        ("Parameter.requires_grad_", lambda x: requires_grad_flags(x), [f32(2)], False),
    ]


def _values(result):
    """Wait for ``result`` (MindSpore's PyNative runs kernels asynchronously: a kernel's error
    surfaces when its output is read)."""
    results = result if isinstance(result, tuple) else (result,)
    return [r.asnumpy() for r in results]


def error_cases(ms):
    """(name, thunk) — each must raise; the recorded value is MindSpore's exception type."""
    ops, nn = ms.ops, ms.nn
    x = ms.Tensor(np.ones((2, 3, 4), np.float32))
    pairs = ms.Tensor(np.zeros((2, 2), np.int32))
    w = ms.Tensor(np.ones((2, 3, 4), np.bool_))
    return [
        ("bad:gather-axis-before-batch", lambda: _values(ops.gather(x, pairs, 0, batch_dims=1))),
        ("bad:gather-batch-mismatch", lambda: _values(ops.gather(
            x, ms.Tensor(np.zeros((3, 2), np.int32)), 1, batch_dims=1))),
        ("bad:gather-out-of-range", lambda: _values(ops.gather(
            x, ms.Tensor(np.array([[0, 3], [1, 2]], np.int32)), 1, batch_dims=1))),
        ("bad:pad-mode", lambda: _values(ops.pad(x, (1, 1), mode="wrap"))),
        ("bad:pad-replicate-value", lambda: _values(ops.pad(x, (1, 1), mode="replicate",
                                                            value=1.0))),
        ("bad:pad-replicate-rank", lambda: _values(ops.pad(x, (1, 1, 1, 1, 1, 1),
                                                           mode="replicate"))),
        ("bad:pad-reflect-too-wide", lambda: _values(ops.pad(x, (4, 1), mode="reflect"))),
        ("bad:amax-where-without-initial", lambda: _values(ops.amax(x, 1, where=w))),
        ("bad:max-where-without-initial", lambda: _values(ops.max(x, 1, where=w))),
        ("bad:max-axis-tuple", lambda: _values(ops.max(x, (0, 1), initial=1.0))),
        ("bad:ReflectionPad1d-negative", lambda: nn.ReflectionPad1d((-1, 1))),
        ("bad:ReplicationPad2d-list", lambda: nn.ReplicationPad2d([1, 1, 1, 1])),
        ("bad:ConstantPad1d-length", lambda: nn.ConstantPad1d((1, 1, 1, 1), 0.0)),
        ("bad:ConstantPad2d-value", lambda: nn.ConstantPad2d(1, "0")),
        ("bad:MaxPool3d-indices-valid", lambda: nn.MaxPool3d(2, return_indices=True)),
        ("bad:Tensor.set_-dtype", lambda: ms.Tensor(np.ones(2, np.float32)).set_(
            ms.Tensor(np.ones(2, np.int32)))),
        ("bad:Tensor.to_-device", lambda: ms.Tensor(np.ones(2, np.float32)).to_("GPU")),
        # mint.multinomial has no CPU kernel, but its argument checks run first
        ("bad:multinomial-rank", lambda: _values(ms.mint.multinomial(
            ms.Tensor(np.ones((2, 2, 3), np.float32)), 2))),
        ("bad:multinomial-float-count", lambda: _values(ms.mint.multinomial(
            ms.Tensor(np.ones(3, np.float32)), 2.0))),
    ]


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    import record_vision_ops
    record_vision_ops.main(sys.modules[__name__], OUT)
