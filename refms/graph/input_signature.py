"""Checking a Cell's call against the inputs declared with ``Cell.set_inputs``.

``net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))`` declares what
the compiled ``construct`` will receive: a tensor of rank 2 whose second
dimension is 3 and whose first may vary.  In GRAPH_MODE MindSpore 2.10
checks every call against the declaration (PyNative mode does not), with
these errors (observed):

* a different rank: ``ValueError`` "the dims of 1th input must be the same as
  expected, but got expected: 2, and input: 1!";
* a fixed dimension that differs: ``ValueError`` "the shape of 1th input must
  be the same as expected, but got expected: 3, and input: 4!";
* a different dtype: ``TypeError`` "the 1th type should be Tensor[Float32],
  but got Tensor[Int32]!".

refms still compiles one program per concrete input shape; the declaration
decides which calls are accepted.
"""
from .._tensor import Tensor

__all__ = ["check_declared_inputs"]


def check_declared_inputs(declared, args):
    """Raise MindSpore's error when a Tensor in ``args`` does not fit its declaration."""
    for index, (expected, actual) in enumerate(zip(declared, args), start=1):
        if not isinstance(expected, Tensor) or not isinstance(actual, Tensor):
            continue
        if expected.dtype != actual.dtype:
            raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {index}th type "
                            f"should be Tensor[{expected.dtype}], but got Tensor[{actual.dtype}]!")
        if len(expected.shape) != len(actual.shape):
            raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the dims of "
                             f"{index}th input must be the same as expected, but got expected: "
                             f"{len(expected.shape)}, and input: {len(actual.shape)}!")
        for want, got in zip(expected.shape, actual.shape):
            if want != -1 and want != got:
                raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the shape of "
                                 f"{index}th input must be the same as expected, but got "
                                 f"expected: {want}, and input: {got}!")
