"""``refms.mint`` (``mindspore.mint``): MindSpore 2.x's PyTorch-like functional namespace.

``mint.add(x, y, alpha=2)``, ``mint.sum(x, dim=1, keepdim=True)``,
``mint.nn.functional.relu``, ``mint.nn.Linear``, ``mint.optim.Adam``...  Every
function is a refms op or a short composition of ops (see each module), so
PyNative, graph mode and gradients work as for ``refms.ops``:

* :mod:`refms.mint._pointwise`: arithmetic, exponentials, trigonometry, rounding,
  comparison and logic;
* :mod:`refms.mint._reduction`: sums, means, extrema, var/std, logsumexp, cumsum, norm;
* :mod:`refms.mint._tensor_ops`: creation, shape, joining, indexing (``narrow``,
  ``select``... are view operations) and random sampling;
* :mod:`refms.mint._blas`: matrix products;
* submodules ``nn`` (with ``nn.functional``), ``optim``, ``special``, ``linalg``.

MindSpore documents ``mint`` at ``api_python/mindspore.mint.rst``.
"""
from .. import dtype as _mstype
from ..ops import functional as _F
from . import nn, optim, special, linalg
from ._pointwise import (
    add, sub, mul, div, divide, floor_divide, remainder, fmod, gcd, pow, float_power, neg, negative,
    abs, reciprocal, square, sqrt, rsqrt, sign, addcmul, addcdiv, lerp, xlogy, exp, exp2, expm1,
    log, log2, log10, log1p, logaddexp, logaddexp2, sin, cos, tan, asin, acos, atan, atan2, sinh,
    cosh, tanh, asinh, acosh, atanh, sinc, arcsin, arccos, arctan, arctan2, arcsinh, arccosh,
    arctanh, erf, erfc, sigmoid, floor, ceil, trunc, fix, round, frac, clamp, clip, nan_to_num,
    eq, ne, gt, ge, lt, le, not_equal, greater, greater_equal, less, less_equal, maximum,
    minimum, logical_and, logical_or, logical_not, logical_xor, bitwise_and, bitwise_or,
    bitwise_not, bitwise_xor, isfinite, isinf, isnan, isneginf, isclose, allclose, equal, where)
from ._reduction import (
    sum, mean, prod, nansum, max, min, amax, amin, argmax, argmin, all, any, count_nonzero, var,
    std, var_mean, std_mean, logsumexp, cumsum, norm, trace)
from ._tensor_ops import (
    zeros, ones, full, empty, zeros_like, ones_like, empty_like, full_like, arange, linspace, eye,
    clone, reshape, transpose, swapaxes, permute, t, squeeze, unsqueeze, flatten, ravel,
    broadcast_to, tile, flip, roll, cat, concat, stack, hstack, dstack, split, chunk, unbind,
    meshgrid, narrow, select, index_select, gather, take, masked_select, scatter, scatter_add,
    index_add, tril, triu, diag, rand, rand_like, randn, randn_like, randint, randint_like,
    normal, bernoulli, randperm)
from ._blas import (matmul, mm, bmm, mv, dot, vdot, outer, addmm, addmv, baddbmm, addbmm, cdist)
from ._blas import addr as addr_
from ._einsum import einsum
from ._counting import unique, unique_consecutive, histc
from ._multinomial import multinomial
from ._search import (kthvalue, median, cummax, cummin, searchsorted, nonzero, bincount,
                      repeat_interleave, cross)
from .._tensor import Tensor
from .nn.functional import softmax, conv2d


def erfinv(input):                                             # noqa: A002
    """erf⁻¹(input) (``ops.Erfinv``)."""
    return _F.erfinv(input)


def inverse(input):                                            # noqa: A002
    """The inverse of each (..., n, n) matrix (``ops.MatrixInverse``)."""
    return _F.matrix_inverse(input)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):  # noqa: N803
    """(X, A) with op(T)·X = b, T the upper (lower) triangle of A (``TriangularSolve``)."""
    from ..ops.prims.linalg import TriangularSolve
    return TriangularSolve(upper, transpose, unitriangular)(b, A)


def argsort(input, dim=-1, descending=False, stable=False):    # noqa: A002
    """The indices that sort ``input`` along ``dim``."""
    return _F.argsort(input, dim, descending)


def sort(input, *, dim=-1, descending=False, stable=False):    # noqa: A002
    """(values, indices) of ``input`` sorted along ``dim``."""
    return _F.sort(input, dim, descending)


def topk(input, k, dim=-1, largest=True, sorted=True):         # noqa: A002,A001
    """(values, indices) of the k largest (smallest when not ``largest``) along ``dim``."""
    return _F.topk(input, k, dim, largest, sorted)


def cumprod(input, dim, dtype=None):                           # noqa: A002
    """Running products along ``dim``: exp(cumsum(ln abs(x))) with the sign's parity (x ≠ 0);
    integers (and bools) multiply step by step, exactly (out[k] = out[k − 1] · x[k]), in Int64
    unless ``dtype`` says otherwise (MindSpore 2.10: ``ops.cumprod`` of Int32 gives Int64)."""
    x = input if dtype is None else _F.cast(input, dtype)
    if x.dtype.kind in ("int", "uint", "bool"):
        if dtype is None:
            x = _F.cast(x, _mstype.int64)
        length = x.shape[dim]
        steps = [narrow(x, dim, 0, 1)]
        for k in range(1, length):
            steps.append(_F.mul(steps[-1], narrow(x, dim, k, 1)))
        return _F.concat(tuple(steps), dim) if length else x
    magnitude = _F.exp(_F.cumsum(_F.log(_F.abs(x)), dim))
    negatives = _F.cumsum(_F.cast(_F.less(x, 0), x.dtype), dim)
    parity = 1 - 2 * _F.floor_mod(negatives, 2)
    return _F.mul(magnitude, parity)


def diff(input, n=1, dim=-1, prepend=None, append=None):      # noqa: A002
    """out[i] = input[i + 1] − input[i] along ``dim``, applied ``n`` times."""
    x = input
    if prepend is not None or append is not None:
        parts = [p for p in (prepend, x, append) if p is not None]
        x = _F.concat(tuple(parts), dim)
    for _ in range(n):
        length = x.shape[dim]
        x = _F.sub(narrow(x, dim, 1, length - 1), narrow(x, dim, 0, length - 1))
    return x


__all__ = sorted(name for name in dir() if not name.startswith("_"))
