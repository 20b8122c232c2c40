"""In-place Tensor methods (``x.add_(y)``, ``x.zero_()``...): MindSpore 2.x's trailing-underscore API.

Each method computes the new value with the functional ops, then makes it the
Tensor's value: ``x.add_(y)`` is ``x ← x + y`` and returns ``x``.

* **PyNative**: the Tensor object keeps its identity and takes the new value
  (``Tensor._replace_value``, the same path as ``x[i] = v``); the gradient
  tapes rename the old value, so ``y = x * 2; y.add_(x)`` differentiates as
  ``y = 2x + x``.  An in-place op on a *leaf* that a gradient is taken for (an
  input of ``grad`` or a Parameter) raises ``RuntimeError``, as MindSpore
  documents ("A leaf tensor that requires grad is being used in an inplace
  operator ..., which is forbidden!": tutorial *Static Graph Syntax*, "Supported
  In-place Operations").
* **Graph mode**: the parser rebinds the variable (``x.add_(y)`` is ``x =
  x.add_(y)``, :mod:`refms.graph.parser`), so the method returns the new value
  and the compiled function sees it afterwards; an input of the compiled function
  updated in place is also written back to the caller's Tensor (an ``Assign``
  effect), as MindSpore does.  An in-place method on the result of a view operation
  (``mint.select``...) raises ``RuntimeError``, as MindSpore 2.10's graph mode does
  on CPU.

The new value keeps the Tensor's dtype and shape (``other`` broadcasts to it).
Methods are registered with :func:`inplace_method` (here and in
:mod:`refms._tensor_inplace_index`: writes at chosen positions, random fills);
``INPLACE_METHODS`` is the one list the Tensor class and the graph parser read.  ``install`` puts them on
the Tensor class; :mod:`refms.ops` calls it once, beside ``install_ops``.
"""
import numpy as np

from . import _tensor

__all__ = ["INPLACE_METHODS", "inplace_method", "update", "install"]

#: method name -> function(self, ...) (installed on Tensor by :mod:`refms._tensor`).
INPLACE_METHODS = {}


def inplace_method(fn):
    """Register ``fn`` as the Tensor method of its name (``add_``...)."""
    INPLACE_METHODS[fn.__name__] = fn
    return fn


def install(tensor_class):
    """Make every registered in-place method a method of ``tensor_class``."""
    for name, method in INPLACE_METHODS.items():
        setattr(tensor_class, name, method)


def _functional():
    """The functional ops the tensor layer was given (:func:`refms._tensor.install_ops`)."""
    return _tensor.F


def _is_tracer(tensor):
    return getattr(tensor, "node", None) is not None and tensor._data is None


def _check_leaf(tensor, op):
    """RuntimeError when ``tensor`` is a leaf that a recording gradient tape differentiates."""
    if _tensor.tensor_versions.is_differentiated_leaf(tensor):
        raise RuntimeError(f"A leaf tensor that requires grad is being used in an inplace "
                           f"operator, {op}, which is forbidden!")


def update(tensor, new, op):
    """Make ``new`` (broadcast and cast to ``tensor``'s shape and dtype) the value of ``tensor``;
    returns ``tensor`` (PyNative) or the new value (graph mode, where the parser rebinds)."""
    F = _functional()
    if not hasattr(new, "shape") or not hasattr(new, "dtype"):
        new = F.fill(tensor.dtype, tuple(tensor.shape), new)
    if tuple(new.shape) != tuple(tensor.shape):
        shape = np.broadcast_shapes(tuple(new.shape), tuple(tensor.shape))
        if shape != tuple(tensor.shape):
            raise RuntimeError(f"For '{op}', the output shape {list(shape)} of the in-place "
                               f"operation differs from the shape {list(tensor.shape)} of the "
                               f"Tensor it updates.")
        new = F.broadcast_to(new, tuple(tensor.shape))
    if new.dtype != tensor.dtype:
        new = F.cast(new, tensor.dtype)
    if _is_tracer(tensor):
        return new
    _check_leaf(tensor, op)
    if new is tensor:
        new = F.identity(new)
    tensor._replace_value(new)
    return tensor


def _scaled(other, alpha):
    return other if alpha == 1 else other * alpha


# -- arithmetic ------------------------------------------------------------------------------

@inplace_method
def add_(self, other, *, alpha=1):
    """self ← self + alpha·other."""
    return update(self, _functional().add(self, _scaled(other, alpha)), "InplaceAddExt")


@inplace_method
def sub_(self, other, *, alpha=1):
    """self ← self − alpha·other."""
    return update(self, _functional().sub(self, _scaled(other, alpha)), "InplaceSubExt")


@inplace_method
def mul_(self, other):
    """self ← self · other."""
    return update(self, _functional().mul(self, other), "InplaceMul")


@inplace_method
def div_(self, other, *, rounding_mode=None):
    """self ← self / other (``rounding_mode`` "trunc" or "floor" as in ``ops.div``)."""
    return update(self, _functional().div(self, other, rounding_mode=rounding_mode), "InplaceDiv")


@inplace_method
def floor_divide_(self, other):
    """self ← ⌊self / other⌋."""
    return update(self, _functional().floor_div(self, other), "InplaceFloorDivide")


@inplace_method
def remainder_(self, other):
    """self ← self − ⌊self / other⌋·other (the sign of ``other``)."""
    return update(self, _functional().floor_mod(self, other), "InplaceRemainderTensorTensor")


@inplace_method
def clamp_(self, min=None, max=None):             # noqa: A002  (MindSpore's parameter names)
    """self ← min(max(self, min), max)."""
    return update(self, _functional().clamp(self, min, max), "InplaceClampScalar")


@inplace_method
def exp_(self):
    """self ← eˢᵉˡᶠ."""
    return update(self, _functional().exp(self), "InplaceExp")


@inplace_method
def log_(self):
    """self ← ln self."""
    return update(self, _functional().log(self), "InplaceLog")


@inplace_method
def floor_(self):
    """self ← ⌊self⌋."""
    return update(self, _functional().floor(self), "InplaceFloor")


@inplace_method
def sigmoid_(self):
    """self ← 1 / (1 + e⁻ˢᵉˡᶠ)."""
    return update(self, _functional().sigmoid(self), "InplaceSigmoid")


@inplace_method
def tanh_(self):
    """self ← tanh self."""
    return update(self, _functional().tanh(self), "InplaceTanh")


@inplace_method
def sign_(self):
    """self ← sign(self)."""
    return update(self, _functional().sign(self), "InplaceSign")


@inplace_method
def erfinv_(self):
    """self ← erf⁻¹(self)."""
    return update(self, _functional().erfinv(self), "InplaceErfinv")


@inplace_method
def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    """self ← beta·self + alpha·(mat1 @ mat2)."""
    F = _functional()
    return update(self, F.add(_scaled(self, beta), _scaled(F.matmul(mat1, mat2), alpha)),
                  "InplaceAddmm")


# -- filling and copying ---------------------------------------------------------------------

@inplace_method
def fill_(self, value):
    """self ← value everywhere (a number or a 0-d Tensor)."""
    F = _functional()
    if hasattr(value, "shape"):
        if tuple(value.shape) != ():
            raise RuntimeError(f"For 'fill_', the value must be a number or a 0-d Tensor, but "
                               f"got a Tensor of shape {list(value.shape)}.")
        return update(self, F.broadcast_to(F.cast(value, self.dtype), tuple(self.shape)),
                      "InplaceFillTensor")
    return update(self, F.fill(self.dtype, tuple(self.shape), value), "InplaceFillScalar")


@inplace_method
def zero_(self):
    """self ← 0."""
    return update(self, _functional().zeros_like(self), "InplaceZero")


@inplace_method
def copy_(self, src, non_blocking=False):
    """self ← src (broadcast to self's shape, cast to self's dtype)."""
    return update(self, _functional().deepcopy(src), "InplaceCopy")


@inplace_method
def masked_fill_(self, mask, value):
    """self ← value where mask, else self."""
    return update(self, _functional().masked_fill(self, mask, value), "InplaceMaskedFillScalar")


# -- random fills (values from refms's seeded stream) -------------------------------------------

@inplace_method
def uniform_(self, from_=0, to=1, *, generator=None):
    """self ← samples of U[``from_``, ``to``)."""
    F = _functional()
    sample = F.uniform(tuple(self.shape), F.scalar_to_tensor(float(from_)),
                       F.scalar_to_tensor(float(to)))
    return update(self, sample, "InplaceUniform")


@inplace_method
def normal_(self, mean=0, std=1, *, generator=None):
    """self ← samples of N(mean, std²)."""
    sample = _functional().standard_normal(tuple(self.shape)) * std + mean
    return update(self, sample, "InplaceNormal")

