"""``ops`` functions MindSpore 2.10 computes with the kernels of their ``mint`` twins.

MindSpore's ``ops.tril``, ``ops.logsumexp``, ``ops.randn``... run the same
operations as ``mint.tril``, ``mint.logsumexp``, ``mint.randn``; several differ
only in the names and defaults of their parameters (``axis``/``keep_dims`` in
``ops``, ``dim``/``keepdim`` in ``mint``; ``ddof=0`` against ``correction=1``).
Each function here is the ``ops`` spelling, forwarding to :mod:`refms.mint`
(imported on first use: ``mint`` is built on ``ops``).

* ``SAME_AS_MINT``: the names whose ``ops`` and ``mint`` signatures are one and
  the same (checked on MindSpore 2.10), forwarded as they are;
* the functions below: the ``ops`` signatures, translated.

Every one checks its Tensor parameters first (``TENSOR_PARAMETERS``): None, a
string, a list or a dtype there is a ``TypeError`` naming the op and the parameter,
where ``mint`` would fail later on a missing attribute.
"""
import functools
import importlib
import inspect

from ... import dtype as mstype
from ..keywords import NotATensorError, signature_of
from ..signature_table import SIGNATURES

__all__ = ["SAME_AS_MINT", "FUNCTIONS"]


def _mint():
    return importlib.import_module("refms.mint")


#: ``ops.<name>`` is ``mint.<name>`` (MindSpore 2.10's signatures are identical).
SAME_AS_MINT = (
    "acosh", "addbmm", "addmm", "addmv", "arccos", "arccosh", "arcsin", "arcsinh", "arctan",
    "arctan2", "arctanh", "asinh", "atan2", "atanh", "bitwise_xor", "cosh", "cross",
    "cumprod", "dstack", "einsum", "erfc", "exp2", "float_power", "full_like", "hstack",
    "inverse", "isneginf", "log10", "log2", "logaddexp", "logaddexp2", "logical_xor",
    "logsumexp", "mm", "nan_to_num", "nonzero", "outer", "ravel", "roll", "searchsorted", "sinc",
    "sinh", "take", "tan", "trace", "tril", "triu", "unbind")


def _forward(name):
    def forward(*args, **kwargs):
        return getattr(_mint(), name)(*args, **kwargs)
    forward.__name__ = forward.__qualname__ = name
    forward.__doc__ = f"``ops.{name}``: the same operation as ``mint.{name}``."
    if name in SIGNATURES:              # MindSpore's parameter list, shown by inspect/help
        forward.__signature__ = signature_of(name)
    return forward


# -- the ops signatures, translated ----------------------------------------------------------

def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``."""
    return _mint().addcmul(input, tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 / tensor2``."""
    return _mint().addcdiv(input, tensor1, tensor2, value=value)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)``, batched."""
    return _mint().baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def all(input, axis=None, keep_dims=False):   # noqa: A001  (MindSpore's name)
    """True where every element along ``axis`` (all axes when None) is nonzero."""
    return _mint().all(input, axis, keep_dims)


def any(input, axis=None, keep_dims=False):   # noqa: A001  (MindSpore's name)
    """True where some element along ``axis`` (all axes when None) is nonzero."""
    return _mint().any(input, axis, keep_dims)


def chunk(input, chunks, axis=0):
    """``input`` split along ``axis`` into ``chunks`` nearly equal parts."""
    return _mint().chunk(input, chunks, axis)


def cummax(input, axis):
    """Running maxima along ``axis`` and the index of each: ``(values, indices)``."""
    return _mint().cummax(input, axis)


def cummin(input, axis):
    """Running minima along ``axis`` and the index of each: ``(values, indices)``; the
    indices are Int32 here (``mint.cummin``'s are Int64), as MindSpore 2.10 gives them."""
    values, indices = _mint().cummin(input, axis)
    return values, indices.astype(mstype.int32)


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The first forward difference along ``axis``: ``x[1:] - x[:-1]``.  MindSpore 2.10's
    ``ops.diff`` takes only ``n=1`` (a RuntimeError otherwise; ``mint.diff`` takes any n)."""
    if n != 1:
        raise RuntimeError(f"For 'diff', only n=1 is supported, but got n={n}.")
    return _mint().diff(x, n, axis, prepend, append)


def bincount(input, weights=None, minlength=0):
    """How often each value 0, 1, ... occurs in ``input`` (summing ``weights`` when given), at
    least ``minlength`` bins; Float32, as MindSpore 2.10's CPU ``ops.bincount`` returns it."""
    return _mint().bincount(input, weights, minlength).astype(mstype.float32)


def eq(input, other):
    """``input == other`` elementwise."""
    return _mint().eq(input, other)


def fmod(input, other):
    """The remainder of ``input / other`` with the sign of ``input`` (C's ``fmod``)."""
    return _mint().fmod(input, other)


def frac(x):
    """``x - trunc(x)``: the fractional part, with the sign of ``x``."""
    return _mint().frac(x)


def index_select(input, axis, index):
    """The entries ``index`` (1-D integers) of ``input`` along ``axis``."""
    return _mint().index_select(input, axis, index)


def lerp(input, end, weight):
    """``input + weight * (end - input)``."""
    return _mint().lerp(input, end, weight)


def median(input, axis=-1, keepdims=False):
    """The median along ``axis`` (the lower of the two middle values) and its index."""
    return _mint().median(input, axis, keepdims)


def mv(mat, vec):
    """Matrix times vector."""
    return _mint().mv(mat, vec)


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """The sum along ``axis``, NaNs counted as zero."""
    return _mint().nansum(input, axis, keepdims, dtype=dtype)


def narrow(input, axis, start, length):
    """``length`` entries of ``input`` from ``start`` along ``axis``."""
    return _mint().narrow(input, axis, start, length)


def repeat_interleave(input, repeats, axis=None):
    """Each entry along ``axis`` repeated ``repeats`` times (``input`` flattened when None)."""
    return _mint().repeat_interleave(input, repeats, axis)


def scatter(input, axis, index, src):
    """A copy of ``input`` with ``out[index[i]][...] = src[i]`` along ``axis``."""
    return _mint().scatter(input, axis, index, src)


def t(input):
    """The transpose of a 1-D or 2-D tensor."""
    return _mint().t(input)


def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0."""
    return _mint().xlogy(input, other)


def std(input, axis=None, ddof=0, keepdims=False):
    """Standard deviation along ``axis``: ``sqrt(sum((x - mean)^2) / (N - ddof))``."""
    return _mint().std(input, axis, correction=int(ddof), keepdim=keepdims)


def var(input, axis=None, ddof=0, keepdims=False):
    """Variance along ``axis``: ``sum((x - mean)^2) / (N - ddof)``."""
    return _mint().var(input, axis, correction=int(ddof), keepdim=keepdims)


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """``(std, mean)`` along ``axis`` (see :func:`std`)."""
    return _mint().std_mean(input, axis, correction=int(ddof), keepdim=keepdims)


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """``(var, mean)`` along ``axis`` (see :func:`var`)."""
    return _mint().var_mean(input, axis, correction=int(ddof), keepdim=keepdims)


def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    """How many elements along ``axis`` (all axes when ``()``) are nonzero, as ``dtype``."""
    nonzero = _mint().ne(x, 0)
    dims = None if axis in ((), None) else axis
    counted = _mint().sum(nonzero, dims, keep_dims)
    return counted.astype(dtype)


# -- random numbers: ``seed`` is MindSpore's op seed; refms draws from its own generator ---

def randn(*size, dtype=None, seed=None):
    """Samples of the standard normal distribution, of shape ``size`` (float32 by default)."""
    return _mint().randn(*size, dtype=dtype)


def rand(*size, dtype=None, seed=None):
    """Samples of the uniform distribution on [0, 1), of shape ``size`` (float32 by default)."""
    return _mint().rand(*size, dtype=dtype)


def multinomial(input, num_samples, replacement=True, seed=None):
    """Int32 category indices drawn from each row of the weights ``input``: ``mint.multinomial``
    with replacement by default (``refms.mint._multinomial``)."""
    draws = importlib.import_module("refms.mint._multinomial").sample(input, num_samples,
                                                                      replacement, seed)
    return draws.astype(mstype.int32)


def randn_like(input, seed=None, *, dtype=None):
    """``randn`` of ``input``'s shape (and dtype, unless ``dtype`` is given)."""
    return _mint().randn_like(input, dtype=dtype)


def rand_like(input, seed=None, *, dtype=None):
    """``rand`` of ``input``'s shape (and dtype, unless ``dtype`` is given)."""
    return _mint().rand_like(input, dtype=dtype)


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers drawn uniformly from [low, high), of shape ``size`` (int64 by default)."""
    return _mint().randint(low, high, size, dtype=dtype)


#: Parameters (by MindSpore's names) that must be Tensors.
TENSOR_PARAMETERS = frozenset({
    "input", "x", "x1", "x2", "other", "mat", "mat1", "mat2", "vec", "vec1", "vec2", "batch1",
    "batch2", "tensor1", "tensor2", "end", "sorted_sequence", "index", "src", "input_x"})


def _bad(value):
    return value is None or isinstance(value, (str, list, mstype.Type))


def _checked(name, fn, signature):
    """``fn`` checking its Tensor parameters before it runs (see the module docstring)."""
    params = [p for p in signature.parameters if p in TENSOR_PARAMETERS]

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        arguments = signature.bind_partial(*args, **kwargs).arguments
        for param in params:
            if param in arguments and _bad(arguments[param]):
                raise NotATensorError(f"For '{name}', the argument '{param}' must be a Tensor, "
                                      f"but got {type(arguments[param]).__name__}.")
        return fn(*args, **kwargs)
    return checked


def _signature(name, fn):
    return signature_of(name) if name in SIGNATURES else inspect.signature(fn)


def diag(input):                                            # noqa: A002
    """``ops.diag(input)``: the tensor of rank 2k with ``input`` (rank k) on its diagonal,
    ``out[i₁…iₖ, i₁…iₖ] = input[i₁…iₖ]`` and zeros elsewhere (MindSpore's ``ops.diag``:
    the diagonal matrix of the flattened input, reshaped to ``shape + shape``)."""
    shape = tuple(input.shape)
    flat = _mint().reshape(input, (-1,))
    return _mint().reshape(_mint().diag(flat), shape + shape)


FUNCTIONS = {name: _forward(name) for name in SAME_AS_MINT}
FUNCTIONS.update({f.__name__: f for f in (
    addcmul, addcdiv, baddbmm, all, any, bincount, chunk, diag, cummax, cummin, diff, eq, fmod, frac,
    index_select, lerp, median, mv, nansum, narrow, repeat_interleave, scatter, t, xlogy,
    std, var, std_mean, var_mean, count_nonzero, randn, rand, randn_like, rand_like, randint,
    multinomial)})
FUNCTIONS = {name: _checked(name, fn, _signature(name, fn)) for name, fn in FUNCTIONS.items()}
