"""Ops with effects outside their result: Assign (writes a Parameter) and GetNext (reads a
device dataset queue, which refms does not have).  Neither has a gradient.
"""
from ... import kernels
from ...context import get_context
from ..primitive import Primitive, Abstract, register, alias, op_error
from ..promotion import promote
from ._base import shape_str


@register
class Assign(Primitive):
    """variable ← value in place (value cast to the variable's dtype); returns the new value.

    MindSpore 2.10 (semantics 11, 4.6): the result is a new Tensor, not the
    Parameter itself; the shapes must match exactly (no broadcasting); only
    casts that promotion allows happen implicitly (Int32 into a Float32
    Parameter works, Float64 into Float32 is a TypeError).  A PyNative backward
    pass that runs later reads the Parameter's updated value; a graph-mode one
    the value each operator read (:mod:`refms.graph.autodiff`).
    """
    n_tensor_inputs = 2
    #: Writes its ``variable`` input (MindSpore's ``side_effect_mem``); graph passes must keep it.
    side_effect_mem = True

    def infer(self, variable, value):
        if getattr(variable, "weak", False):
            raise op_error("Assign", "the 'variable' should be a Parameter or Tensor, but got a "
                                     "number.")
        if len(value.shape) != len(variable.shape):
            raise op_error("Assign", f"'value' must have the same rank as 'variable', but got "
                                     f"'value' rank: {len(value.shape)}, 'variable' rank: "
                                     f"{len(variable.shape)}.", ValueError)
        if tuple(value.shape) != tuple(variable.shape):
            raise op_error("Assign", f"'value' must have the same shape as 'variable', but got "
                                     f"'value' shape: {shape_str(value.shape)}, 'variable' shape: "
                                     f"{shape_str(variable.shape)}.", ValueError)
        if promote(variable, value) is not variable.dtype:
            raise op_error("Assign", f"data type conversion is not supported for a Parameter: "
                                     f"'value' of type {value.dtype} cannot be converted to the "
                                     f"'variable' type {variable.dtype} automatically.")
        return Abstract(tuple(variable.shape), variable.dtype)

    def forward(self, variable, value):
        kernels.call("assign")(variable, value)          # the Parameter's own buffer
        return kernels.call("copy")(variable)


@register
class GetNext(Primitive):
    """(t₀, …, tₙ₋₁) = the next batch of the device dataset queue ``shared_name``.

    The queue is filled by MindSpore's dataset sink on Ascend/GPU; refms has
    none, so running GetNext raises RuntimeError (as MindSpore 2.10 does on
    CPU: ``Unsupported op [GetNext] on CPU``, semantics 7.2).
    """
    side_effect_io = True
    n_tensor_inputs = 0

    def __init__(self, types, shapes, output_num, shared_name):
        types, shapes = tuple(types), tuple(tuple(s) for s in shapes)
        if not len(types) == len(shapes) == output_num:
            raise op_error("GetNext", f"the lengths of 'types' ({len(types)}) and 'shapes' "
                                      f"({len(shapes)}) should both equal 'output_num' "
                                      f"({output_num}).", ValueError)
        self.types = types
        self.shapes = shapes
        self.output_num = output_num
        self.shared_name = shared_name

    @property
    def n_outputs(self):
        return self.output_num

    def infer(self):
        return tuple(Abstract(shape, dtype) for shape, dtype in zip(self.shapes, self.types))

    def forward(self):
        raise RuntimeError(
            f"Unsupported op [GetNext] on {get_context('device_target')}: GetNext reads the "
            f"device dataset queue '{self.shared_name}', which MindSpore fills when a dataset "
            f"is sunk to an Ascend/GPU device; refms has no dataset queue on this backend. "
            f"Iterate the dataset in Python instead (dataset.create_tuple_iterator()).")


assign = alias("assign", Assign())
