"""The op table's row type: one row describes how to test one primitive.

Each ``rows_<area>.py`` module of this package defines ``ROWS``, a list of
:class:`OpRow` (see the package docstring for how rows reach the
implementation under test).  :mod:`conformance.optable.checks` runs every row through:

* **forward**: ``fn(*Tensors)`` against ``ref(*numpy arrays)`` (values, shape, dtype);
* **gradient** (when ``grad`` is True): the random-projection check in float64 —
  for random cotangent ``u`` and direction ``v``, ⟨u, J v⟩ by central
  differences equals ⟨the implementation's gradient of Σ u·fn, v⟩;
* **errors**: each ``(inputs, exception type)`` in ``errors`` raises.
"""
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import numpy as np

#: Primitives whose outputs MindSpore treats as constants to autodiff (Bool, integer or
#: constant-valued results, random ops, state and gradient barriers): no gradient check.
NO_GRADIENT = frozenset([
    "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "IsNan", "IsInf", "IsFinite",
    "ReduceAll", "ReduceAny",
    "Argmax", "Argmin", "OneHot", "Sign", "FloorDiv", "Invert", "BitwiseAnd", "BitwiseOr",
    "Zeros", "Ones", "Fill", "ZerosLike", "OnesLike",
    "UniformReal", "StandardNormal", "UniformInt", "GetNext", "StopGradient", "Assign",
    "ApplyMomentum",
    "IOU", "BoundingBoxEncode", "BoundingBoxDecode", "CheckValid",
    "CTCLossV2Grad", "NMSWithMask", "RandomChoiceWithMask",
    "Unique2", "UniqueDim", "UniqueConsecutive", "HistcExt", "Gcd",
])


#: Primitives refms registers as its own gradient helpers, whose MindSpore counterparts are not
#: in the public ``mindspore.ops`` namespace (checked on 2.10): their rows are specific to refms.
REFMS_INTERNAL = frozenset([
    "ExclusiveCumprodBoth", "ScatterIndexAdd", "Conv2DBackpropFilter", "MaxPoolGrad",
    "MaxPoolGradGrad", "AvgPoolGrad", "BatchNormGrad", "NLLLossGrad", "CTCLossV2Grad",
    "ROIAlignGrad", "ReluGrad",
])


@dataclass
class OpRow:
    #: Registry name of the primitive under test (``"Add"``); coverage is checked against it.
    prim: str
    #: Calls the implementation on Tensors: ``fn(*tensors) -> Tensor or tuple of Tensors``.
    fn: Callable
    #: numpy reference on arrays: ``ref(*arrays) -> array or tuple of arrays``.
    ref: Callable
    #: Sample inputs (numpy arrays, float32 unless the op needs otherwise), or a
    #: function ``make(rng) -> list of arrays``.
    inputs: object
    #: A short id for the test name (defaults to ``prim``).
    id: Optional[str] = None
    #: Check the gradient of every float input by central differences in float64.
    grad: bool = True
    #: Indices of the inputs to differentiate (default: every floating input).
    grad_inputs: Optional[Sequence[int]] = None
    #: Input domain for the gradient check: "any", "positive" (values shifted > 0.5),
    #: "nonzero", or "unit" (in (-0.9, 0.9)).
    domain: str = "any"
    rtol: float = 1e-5
    atol: float = 1e-6
    #: Tolerance of the float64 gradient check.
    grad_tol: float = 1e-6
    #: Expected dtype name of the (first) output, e.g. "Float32"; None = numpy's result dtype.
    #: A tuple gives one name (or None) per output of a tuple-valued op.
    out_dtype: Optional[str] = None
    #: Inputs that must raise: list of (list of arrays or Python values, exception type).
    errors: list = field(default_factory=list)
    #: The op is random or otherwise not comparable to ``ref`` value by value:
    #: only shapes/dtypes and ``ref``'s boolean property check are compared.
    #: The driver calls ``ref(out, *arrays)`` (``out``: the implementation's output as numpy,
    #: a tuple for several outputs) and expects True; a ``ref(*arrays)`` that takes
    #: only the inputs returns arrays whose shapes and dtypes the output must match.
    property_only: bool = False
    #: The name of the one implementation whose own documented choice the row pins down
    #: (a seeded random stream); other implementations count the row as not applicable.
    specific_to: Optional[str] = None

    def __post_init__(self):
        if self.specific_to is None and self.prim in REFMS_INTERNAL:
            self.specific_to = "refms"

    @property
    def name(self):
        return self.id or self.prim

    def sample(self, rng):
        values = self.inputs(rng) if callable(self.inputs) else self.inputs
        return [np.array(v, copy=True) if isinstance(v, np.ndarray) else v for v in values]
