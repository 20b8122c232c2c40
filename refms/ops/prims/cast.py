"""Cast, Identity and StopGradient: ops that keep values and change type or gradient flow."""
from ... import dtype as mstype
from ... import kernels
from .. import batching
from ..primitive import Primitive, Abstract, register, alias, op_error


@register
class Cast(Primitive):
    """y = x converted to ``dtype`` (float -> int truncates toward zero; ints wrap).

    ∂y/∂x = 1, cast back to x's dtype, so gradients flow through casts
    (semantics 4.3).
    """
    elementwise = True
    keeps_input_dtypes = True
    n_tensor_inputs = 1

    def infer(self, x, dtype):
        if dtype is None or isinstance(dtype, str):
            mstype.check_dtype("Cast", dtype)
        if not isinstance(dtype, mstype.Type):
            try:
                dtype = mstype.to_dtype(dtype)
            except TypeError:
                raise op_error("Cast", f"the 'dst_type' should be a mindspore dtype, but got "
                                       f"{dtype!r}.") from None
        return Abstract(x.shape, dtype)

    def forward(self, x, dtype):
        dtype = mstype.to_dtype(dtype)
        if dtype is mstype.bfloat16:
            return kernels.call("round_to_bfloat16")(x)
        return kernels.call("cast")(x, dtype.np_type)

    def bprop(self, x, dtype, out, dout):
        return F.cast(dout, x.dtype), None


@register
class Identity(Primitive):
    """y = x (a new tensor with the same values); ∂y/∂x = 1."""
    n_tensor_inputs = 1

    def infer(self, x):
        return Abstract(x.shape, x.dtype)

    def batch(self, batched, x):
        """vmap: the batch passes straight through."""
        return self(x)

    def forward(self, x):
        return kernels.call("copy")(x)

    def bprop(self, x, out, dout):
        return (dout,)


@register
class StopGradient(Primitive):
    """y = x, and no gradient flows back through it (declared non-differentiable)."""
    n_tensor_inputs = 1

    def infer(self, x):
        return Abstract(x.shape, x.dtype)

    def batch(self, batched, x):
        """vmap: the batch passes straight through."""
        return self(x)

    def forward(self, x):
        return x


_CAST = Cast()


def cast(input, dtype):
    """ops.cast(input, dtype)."""
    return _CAST(input, dtype)


from ..primitive import EXECUTOR, F, functional  # noqa: E402
from ..._tensor import Tensor
functional("cast", cast)
_IDENTITY = Identity()


def identity(x):
    """ops.identity / F.identity: a Tensor's copy (:class:`Identity`); anything else — a tuple
    of gradients, a number — is returned as it is (MindSpore's ``P.identity()``, which the
    model zoo's BERT-style steps use as a no-op ``grad_reducer`` on the gradient tuple)."""
    if isinstance(x, Tensor):
        return EXECUTOR[0](_IDENTITY, (x,))
    return x


functional("identity", identity)
alias("deepcopy", Identity())
_STOP = StopGradient()


def stop_gradient(value):
    """ops.stop_gradient: a new Tensor (tuples recursively) that blocks gradients (semantics 4.5)."""
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    if isinstance(value, Tensor):
        return _STOP(value)
    return value


functional("stop_gradient", stop_gradient)
