"""``ops.Custom``: an operation the user defines by a Python function (``func_type="pyfunc"``).

``ops.Custom(func, out_shape, out_dtype, func_type="pyfunc", bprop=None)`` makes a
Primitive whose three pieces come from the user, side by side as in every
refms primitive:

* forward: ``func(*arrays)``, on the inputs' values as numpy arrays, returning
  a numpy array (cast to ``out_dtype``);
* shape/dtype rule: ``out_shape(*input_shapes)`` and ``out_dtype(*input_dtypes)``
  when they are callables, else the shape and dtype given;
* backward: ``bprop(*inputs, out, dout) -> tuple`` of input gradients (written
  with ops, another Custom among them); without one the op is not
  differentiable (a gradient through it is a ``RuntimeError``, as in MindSpore).

MindSpore compiles the other function types (``aot``, ``julia``, ``hybrid``,
``akg``, ``tbe``) for a device; refms runs Python functions only, so those are a
``TypeError`` naming what refms accepts.  (MindSpore tutorial "Custom
Operators", pyfunc; ``mindspore.ops.Custom``.)
"""
import numpy as np

from .. import dtype as mstype
from .. import kernels
from .primitive import Abstract, Primitive, op_error

__all__ = ["Custom"]


class Custom(Primitive):
    """An operation defined by the Python function ``func`` (see the module docstring)."""

    name = "Custom"
    differentiable = True

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="hybrid", bprop=None,
                 reg_info=None):
        if func_type != "pyfunc":
            raise op_error("Custom", f"refms runs only func_type 'pyfunc' (a Python function "
                                     f"on numpy arrays), but got func_type {func_type!r}.")
        if not callable(func):
            raise op_error("Custom", f"'func' must be a Python function for func_type "
                                     f"'pyfunc', but got {type(func).__name__}.")
        if out_shape is None or out_dtype is None:
            raise op_error("Custom", "'out_shape' and 'out_dtype' must be given for func_type "
                                     "'pyfunc'.")
        if bprop is not None and not callable(bprop):
            raise op_error("Custom", f"'bprop' must be callable, but got {type(bprop).__name__}.")
        self.func = func
        self.func_name = getattr(func, "__name__", type(func).__name__)
        self.func_type = func_type
        self.out_shape = out_shape
        self.out_dtype = out_dtype
        self._bprop = bprop

    def infer(self, *inputs):
        shape = self.out_shape(*[list(x.shape) for x in inputs]) if callable(self.out_shape) \
            else self.out_shape
        dtype = self.out_dtype(*[x.dtype for x in inputs]) if callable(self.out_dtype) \
            else self.out_dtype
        if not isinstance(dtype, mstype.Type):
            raise op_error("Custom", f"'out_dtype' must give a MindSpore dtype, but gave "
                                     f"{dtype!r}.")
        return Abstract(tuple(int(d) for d in shape), dtype)

    def forward(self, *arrays):
        out = self.func(*[kernels.to_host(a) for a in arrays])
        return kernels.from_host(np.asarray(out))

    def bprop(self, *args):
        if self._bprop is None:
            raise RuntimeError(f"For 'Custom' ({self.func_name}), no 'bprop' was given, so "
                               f"the operation cannot be differentiated.")
        return tuple(self._bprop(*args))

    @property
    def attrs(self):
        return {"func_name": self.func_name, "func_type": self.func_type}
