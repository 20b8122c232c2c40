"""The checks of one op-table row, written against any implementation ``ms``.

Each check raises :class:`CheckFailed` (an ``AssertionError``) with a message
naming the row and what differs, or returns None:

* :func:`check_forward` — ``row.fn`` on Tensors against ``row.ref`` on the same
  numpy arrays: dtype (``out_dtype`` or numpy's result dtype under its
  MindSpore name), shape, and values within ``rtol``/``atol``; tuple outputs
  element-wise.  ``property_only`` rows check ``ref``'s boolean property.
* :func:`check_gradient` — the random-projection check in float64 (HIPS/autograd's
  ``check_grads``): float inputs become float64 and are mapped into the row's
  ``domain``; for random cotangents ``u`` (one per float output) and a random
  direction ``v`` (one per differentiated input), the central difference of
  ``Σ⟨u, f(x + h·v)⟩`` must equal ``Σᵢ⟨gradᵢ, vᵢ⟩`` with the gradients from
  ``ms.grad``.
* :func:`check_error` — ``row.errors[k]``'s inputs raise its exception type.

Samples come from generators seeded by the row's name, so every run (and
every implementation) sees the same inputs.
"""
import inspect
import zlib

import numpy as np

from . import missing_in
from .spec import NO_GRADIENT

__all__ = ["CheckFailed", "STEP", "checks_of", "check_forward", "check_gradient", "check_error",
           "wants_gradient", "rng", "to_tensor", "as_tuple", "apply_domain", "grad_positions",
           "projection"]

#: Step of the central difference (float64: truncation ~h², round-off ~ε/h).
STEP = 1e-6

#: MindSpore's names of the numpy dtypes.
DTYPE_NAMES = {np.dtype(k): v for k, v in [
    ("bool", "Bool"), ("int8", "Int8"), ("int16", "Int16"), ("int32", "Int32"), ("int64", "Int64"),
    ("uint8", "UInt8"), ("uint16", "UInt16"), ("uint32", "UInt32"), ("uint64", "UInt64"),
    ("float16", "Float16"), ("float32", "Float32"), ("float64", "Float64"),
    ("complex64", "Complex64"), ("complex128", "Complex128")]}


class CheckFailed(AssertionError):
    """A row's check found a difference; the message says which."""


def require(condition, message):
    if not condition:
        raise CheckFailed(message)


# -- helpers ------------------------------------------------------------------------------------

def run_row(row, args):
    """``row.fn(*args)``; a name the implementation lacks fails the check, naming it."""
    out = row.fn(*args)
    missing = missing_in(out)
    if missing is not None:
        raise CheckFailed(f"{row.prim} ({row.name}): the implementation has no {missing.name}")
    return out


def rng(row, purpose):
    """A generator seeded by the row's name, so every run samples the same values."""
    return np.random.default_rng(zlib.crc32(f"{row.name}/{purpose}".encode()))


def to_tensor(ms, value):
    """numpy arrays become Tensors (keeping their dtype); everything else passes unchanged."""
    if isinstance(value, np.ndarray):
        return ms.Tensor(value)
    return value


def as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _is_float_array(value):
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"


def _is_tensor(ms, value):
    return isinstance(value, ms.Tensor)


def _expected_dtype(row, k, expected):
    if isinstance(row.out_dtype, (tuple, list)):
        name = row.out_dtype[k]
    else:
        name = row.out_dtype if k == 0 else None
    return DTYPE_NAMES.get(expected.dtype, str(expected.dtype)) if name is None else name


def _check_output(ms, row, k, actual, expected):
    require(_is_tensor(ms, actual), f"output {k} is {type(actual).__name__}, not a Tensor")
    expected = np.asarray(expected)
    want = _expected_dtype(row, k, expected)
    require(str(actual.dtype) == want, f"dtype of output {k}: {actual.dtype}, expected {want}")
    require(tuple(actual.shape) == expected.shape,
            f"shape of output {k}: {tuple(actual.shape)}, expected {expected.shape}")
    values = actual.asnumpy()
    try:
        if values.dtype.kind in "biu" and expected.dtype.kind in "biu":
            np.testing.assert_array_equal(values, expected, err_msg=f"output {k}")
        else:
            np.testing.assert_allclose(values.astype(np.float64), expected.astype(np.float64),
                                       rtol=row.rtol, atol=row.atol, equal_nan=True,
                                       err_msg=f"output {k}")
    except AssertionError as error:
        raise CheckFailed(str(error).strip()) from None


def _check_property(ms, row, inputs, outs):
    """``property_only`` rows: ``ref(out, *inputs)`` is True, or ``ref(*inputs)`` gives the
    shapes and dtypes the outputs must have."""
    arrays = tuple(o.asnumpy() for o in outs)
    out = arrays[0] if len(arrays) == 1 else arrays
    try:
        inspect.signature(row.ref).bind(out, *inputs)
        takes_output = True
    except (TypeError, ValueError):
        takes_output = False
    if takes_output:
        verdict = row.ref(out, *inputs)
        require(bool(np.all(verdict)), f"{row.name}: the output lacks ref's property")
        for k, o in enumerate(outs):
            name = _expected_dtype(row, k, arrays[k]) if row.out_dtype else str(o.dtype)
            require(str(o.dtype) == name, f"dtype of output {k}: {o.dtype}, expected {name}")
        return
    expected = as_tuple(row.ref(*inputs))
    require(len(outs) == len(expected), f"{len(outs)} outputs, expected {len(expected)}")
    for k, (o, e) in enumerate(zip(outs, expected)):
        e = np.asarray(e)
        want = _expected_dtype(row, k, e)
        require(str(o.dtype) == want, f"dtype of output {k}: {o.dtype}, expected {want}")
        require(tuple(o.shape) == e.shape, f"shape of output {k}: {tuple(o.shape)}, expected {e.shape}")


# -- the checks ---------------------------------------------------------------------------------

def check_forward(ms, row):
    inputs = row.sample(rng(row, "forward"))
    outs = as_tuple(run_row(row, [to_tensor(ms, v) for v in inputs]))
    if row.property_only:
        _check_property(ms, row, inputs, outs)
        return
    expected = as_tuple(row.ref(*inputs))
    require(len(outs) == len(expected), f"{len(outs)} outputs, expected {len(expected)}")
    for k, (actual, want) in enumerate(zip(outs, expected)):
        _check_output(ms, row, k, actual, want)


def apply_domain(domain, x):
    """Map float64 samples into the row's input domain."""
    if domain == "any":
        return x
    if domain == "positive":
        return np.abs(x) + 0.5
    if domain == "nonzero":
        return np.where(x < 0, x - 0.5, x + 0.5)
    if domain == "unit":
        return 0.9 * np.tanh(x)
    raise ValueError(f"unknown domain {domain!r}")


def grad_positions(row, inputs):
    if row.grad_inputs is not None:
        return tuple(row.grad_inputs)
    return tuple(i for i, v in enumerate(inputs) if _is_float_array(v))


def wants_gradient(row):
    """Whether the row gets a gradient check (a differentiable primitive with a float input)."""
    if not row.grad or row.property_only or row.prim in NO_GRADIENT:
        return False
    return bool(grad_positions(row, row.sample(rng(row, "gradient"))))


def projection(ms, outs, cotangents):
    """Σₖ ⟨uₖ, outₖ⟩ over the float outputs, as a scalar of the implementation (differentiable)."""
    total = None
    for out, u in zip(outs, cotangents):
        if u is None:
            continue
        term = ms.ops.ReduceSum()(out * ms.Tensor(u), ())
        total = term if total is None else total + term
    return total


def _projection_value(outs, cotangents):
    """The same projection computed in numpy float64 (for the finite differences)."""
    return sum(float(np.sum(out.asnumpy().astype(np.float64) * u))
               for out, u in zip(outs, cotangents) if u is not None)


def gradient_setup(ms, row):
    """``(xs, positions, cotangents, directions, generator)`` of the row's gradient check."""
    generator = rng(row, "gradient")
    inputs = row.sample(generator)
    positions = grad_positions(row, inputs)
    xs = [apply_domain(row.domain, v.astype(np.float64)) if _is_float_array(v) else v
          for v in inputs]
    outs = as_tuple(run_row(row, [to_tensor(ms, x) for x in xs]))
    cotangents = [generator.standard_normal(tuple(o.shape)) if o.asnumpy().dtype.kind in "fc"
                  else None for o in outs]
    require(any(u is not None for u in cotangents),
            f"{row.name}: no floating output to differentiate; set grad=False")
    directions = {i: generator.standard_normal(np.shape(xs[i])) for i in positions}
    return xs, positions, cotangents, directions


def check_gradient(ms, row):
    xs, positions, cotangents, directions = gradient_setup(ms, row)

    def projected(*args):
        return projection(ms, as_tuple(row.fn(*args)), cotangents)

    grads = as_tuple(ms.grad(projected, grad_position=positions)(*[to_tensor(ms, x) for x in xs]))
    require(len(grads) == len(positions),
            f"{len(grads)} gradients for {len(positions)} differentiated inputs")
    analytic = 0.0
    for i, g in zip(positions, grads):
        require(tuple(g.shape) == np.shape(xs[i]),
                f"gradient of input {i} has shape {tuple(g.shape)}, the input {np.shape(xs[i])}")
        analytic += float(np.sum(g.asnumpy().astype(np.float64) * directions[i]))

    def value_at(step):
        shifted = [np.asarray(x + step * directions[i]) if i in directions else x
                   for i, x in enumerate(xs)]
        return _projection_value(as_tuple(run_row(row, [to_tensor(ms, x) for x in shifted])),
                                 cotangents)

    numeric = (value_at(STEP) - value_at(-STEP)) / (2 * STEP)
    require(np.isclose(analytic, numeric, rtol=row.grad_tol, atol=row.grad_tol),
            f"{row.prim} ({row.name}): wrong gradient: ⟨grad, v⟩ = {analytic!r} but the central "
            f"difference gives {numeric!r}")


def error_inputs(row, k):
    inputs, error = row.errors[k]
    return (inputs(rng(row, "errors")) if callable(inputs) else inputs), error


def check_error(ms, row, k):
    inputs, error = error_inputs(row, k)
    arguments = [to_tensor(ms, v) for v in inputs]
    try:
        outs = run_row(row, arguments)
        for out in as_tuple(outs):              # surface lazily raised errors, if any
            if _is_tensor(ms, out):
                out.asnumpy()
    except CheckFailed:
        raise
    except error:
        return
    except Exception as other:  # noqa: BLE001 - the type is what is checked
        raise CheckFailed(f"{row.prim} ({row.name}): raised {type(other).__name__}: {other}; "
                          f"expected {error.__name__}") from None
    raise CheckFailed(f"{row.prim} ({row.name}): no exception; expected {error.__name__}")


def checks_of(row):
    """``[(check name, function(ms, row))]``: the checks this row gets."""
    checks = [("forward", check_forward)]
    if wants_gradient(row):
        checks.append(("gradient", check_gradient))
    for k in range(len(row.errors)):
        checks.append((f"error{k}", lambda ms, row, k=k: check_error(ms, row, k)))
    return checks
