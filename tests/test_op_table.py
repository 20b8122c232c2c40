"""The op-table driver (STYLE.md 10): one table of rows drives every per-op test.

The rows live in ``tests/op_table/rows_*.py`` (each module defines ``ROWS``, a
list of :class:`op_table.spec.OpRow`); this file finds every such module by
scanning the directory, so a new area's rows are picked up without editing
anything here.  For each row it runs:

* **forward** — ``row.fn`` on Tensors against ``row.ref`` on the same numpy
  arrays: dtype (``out_dtype`` or numpy's result dtype under its MindSpore
  name), shape, and values within ``rtol``/``atol``; tuple outputs element-wise;
* **gradient** — the random-projection check in float64 (HIPS/autograd's
  ``check_grads``): float inputs become float64 and are mapped into the row's
  ``domain``; for random cotangents ``u`` (one per float output) and a random
  direction ``v`` (one per differentiated input), the central difference of
  ``Σ⟨u, f(x + h·v)⟩`` must equal ``Σᵢ⟨gradᵢ, vᵢ⟩`` with the gradients from
  ``refms.grad``;
* **errors** — each ``(inputs, exception type)`` in ``row.errors`` raises;
* **mode agreement** — the row compiled by the graph compiler (``refms.jit``) gives the
  same dtypes, shapes and values as PyNative, and for differentiable rows the graph
  autodiff transform gives the same gradients as the tape.

Non-differentiable primitives (``NON_DIFFERENTIABLE``) get no gradient test:
their outputs are constants to autodiff by declaration.
"""
import importlib
import inspect
import pathlib
import traceback
import zlib

import numpy as np
import pytest

import refms
from refms import Tensor
from refms import dtype as mstype
from refms.ops import functional as F
from refms.ops.primitive import NON_DIFFERENTIABLE

#: Step of the central difference (float64: truncation ~h², round-off ~ε/h).
STEP = 1e-6


# -- collecting the table ---------------------------------------------------------------------

def collect_rows():
    """Every ``ROWS`` of every ``op_table/rows_*.py``, in file order; plus import failures."""
    rows, failures = [], {}
    folder = pathlib.Path(__file__).parent / "op_table"
    for path in sorted(folder.glob("rows_*.py")):
        name = f"op_table.{path.stem}"
        try:
            module = importlib.import_module(name)
        except Exception:                       # one broken module must not hide the others
            failures[name] = traceback.format_exc()
            continue
        rows.extend(getattr(module, "ROWS", []))
    return rows, failures


ROWS, IMPORT_FAILURES = collect_rows()


def test_every_rows_module_imports():
    assert not IMPORT_FAILURES, "\n".join(f"{name}:\n{tb}" for name, tb in
                                          IMPORT_FAILURES.items())


# -- helpers ------------------------------------------------------------------------------------

def _rng(row, purpose):
    """A generator seeded by the row's name, so every run samples the same values."""
    return np.random.default_rng(zlib.crc32(f"{row.name}/{purpose}".encode()))


def _to_tensor(value):
    """numpy arrays become Tensors (keeping their dtype); everything else passes unchanged."""
    if isinstance(value, np.ndarray):
        return Tensor(value)
    return value


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _is_float_array(value):
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"


def _ms_name(np_dtype):
    """The MindSpore name (``Float32``) of a numpy dtype."""
    return str(mstype.nptype_to_dtype(np_dtype))


def _expected_dtype(row, k, expected):
    if isinstance(row.out_dtype, (tuple, list)):
        name = row.out_dtype[k]
    else:
        name = row.out_dtype if k == 0 else None
    return _ms_name(expected.dtype) if name is None else name


def _sample_errors(row, inputs):
    return inputs(_rng(row, "errors")) if callable(inputs) else inputs


def _params(rows):
    return [pytest.param(row, id=row.name) for row in rows]


# -- forward ----------------------------------------------------------------------------------

def _check_output(row, k, actual, expected):
    assert isinstance(actual, Tensor), f"output {k} is {type(actual).__name__}, not a Tensor"
    expected = np.asarray(expected)
    assert str(actual.dtype) == _expected_dtype(row, k, expected), f"dtype of output {k}"
    assert tuple(actual.shape) == expected.shape, f"shape of output {k}"
    values = actual.asnumpy()
    if values.dtype.kind in "biu" and expected.dtype.kind in "biu":
        np.testing.assert_array_equal(values, expected, err_msg=f"output {k}")
    else:
        np.testing.assert_allclose(values.astype(np.float64), expected.astype(np.float64),
                                   rtol=row.rtol, atol=row.atol, equal_nan=True,
                                   err_msg=f"output {k}")


def _check_property(row, inputs, outs):
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
        assert bool(np.all(verdict)), f"{row.name}: the output lacks ref's property"
        for k, o in enumerate(outs):
            name = _expected_dtype(row, k, arrays[k]) if row.out_dtype else str(o.dtype)
            assert str(o.dtype) == name, f"dtype of output {k}"
        return
    expected = _as_tuple(row.ref(*inputs))
    assert len(outs) == len(expected), "number of outputs"
    for k, (o, e) in enumerate(zip(outs, expected)):
        e = np.asarray(e)
        assert str(o.dtype) == _expected_dtype(row, k, e), f"dtype of output {k}"
        assert tuple(o.shape) == e.shape, f"shape of output {k}"


@pytest.mark.parametrize("row", _params(ROWS))
def test_forward(row):
    inputs = row.sample(_rng(row, "forward"))
    outs = _as_tuple(row.fn(*[_to_tensor(v) for v in inputs]))
    if row.property_only:
        _check_property(row, inputs, outs)
        return
    expected = _as_tuple(row.ref(*inputs))
    assert len(outs) == len(expected), "number of outputs"
    for k, (actual, want) in enumerate(zip(outs, expected)):
        _check_output(row, k, actual, want)


# -- gradient ---------------------------------------------------------------------------------

def _apply_domain(domain, x):
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


def _grad_positions(row, inputs):
    if row.grad_inputs is not None:
        return tuple(row.grad_inputs)
    return tuple(i for i, v in enumerate(inputs) if _is_float_array(v))


def _wants_grad_test(row):
    if not row.grad or row.property_only or row.prim in NON_DIFFERENTIABLE:
        return False
    return bool(_grad_positions(row, row.sample(_rng(row, "gradient"))))


def _projection(outs, cotangents):
    """Σₖ ⟨uₖ, outₖ⟩ over the float outputs, as a refms scalar (differentiable)."""
    total = None
    for out, u in zip(outs, cotangents):
        if u is None:
            continue
        term = F.reduce_sum(out * Tensor(u), (), False)
        total = term if total is None else total + term
    return total


def _projection_value(outs, cotangents):
    """The same projection computed in numpy float64 (for the finite differences)."""
    return sum(float(np.sum(out.asnumpy().astype(np.float64) * u))
               for out, u in zip(outs, cotangents) if u is not None)


@pytest.mark.parametrize("row", _params([r for r in ROWS if _wants_grad_test(r)]))
def test_gradient(row):
    rng = _rng(row, "gradient")
    inputs = row.sample(rng)
    positions = _grad_positions(row, inputs)
    xs = [_apply_domain(row.domain, v.astype(np.float64)) if _is_float_array(v) else v
          for v in inputs]
    outs = _as_tuple(row.fn(*[_to_tensor(x) for x in xs]))
    cotangents = [rng.standard_normal(o.shape) if o.dtype.kind in ("float", "complex") else None
                  for o in outs]
    assert any(u is not None for u in cotangents), \
        f"{row.name}: no floating output to differentiate; set grad=False"
    directions = {i: rng.standard_normal(np.shape(xs[i])) for i in positions}

    def projected(*args):
        return _projection(_as_tuple(row.fn(*args)), cotangents)

    grads = refms.grad(projected, grad_position=positions)(*[_to_tensor(x) for x in xs])
    grads = _as_tuple(grads)
    assert len(grads) == len(positions), "one gradient per differentiated input"
    analytic = 0.0
    for i, g in zip(positions, grads):
        assert tuple(g.shape) == np.shape(xs[i]), f"gradient {i} shape"
        analytic += float(np.sum(g.asnumpy().astype(np.float64) * directions[i]))

    def value_at(step):
        shifted = [np.asarray(x + step * directions[i]) if i in directions else x
                   for i, x in enumerate(xs)]
        return _projection_value(_as_tuple(row.fn(*[_to_tensor(x) for x in shifted])),
                                 cotangents)

    numeric = (value_at(STEP) - value_at(-STEP)) / (2 * STEP)
    assert np.isclose(analytic, numeric, rtol=row.grad_tol, atol=row.grad_tol), \
        f"{row.name}: ⟨grad, v⟩ = {analytic!r} but central difference gives {numeric!r}"


# -- errors -----------------------------------------------------------------------------------

ERROR_CASES = [pytest.param(row, k, id=f"{row.name}-{k}")
               for row in ROWS for k in range(len(row.errors))]


@pytest.mark.parametrize("row,k", ERROR_CASES)
def test_error(row, k):
    inputs, error = row.errors[k]
    arguments = [_to_tensor(v) for v in _sample_errors(row, inputs)]
    with pytest.raises(error):
        outs = row.fn(*arguments)
        for out in _as_tuple(outs):              # surface lazily raised errors, if any
            if isinstance(out, Tensor):
                out.asnumpy()


# -- mode agreement ----------------------------------------------------------------------------
# Every row runs twice: in PyNative, and compiled by the graph compiler (refms.jit: parse,
# infer, optimize, execute).  Dtypes, shapes and values must agree; for differentiable rows the
# gradients (from the graph autodiff transform vs the PyNative tape) must agree too.

#: Row functions that cannot be compiled, with the reason (they are not graph-mode programs).
NOT_COMPILABLE = {
    "assign_and_read": "creates a Parameter from a run-time Tensor inside the function; graph "
                       "mode creates Parameters in __init__ only",
    "GetItem-bool-rows": "x[mask] with a run-time mask over leading axes only: graph mode "
                         "selects with a mask of the Tensor's own shape",
}


def _compilable(row):
    """Rows are excluded by row id or by the name of their function."""
    return (row.name not in NOT_COMPILABLE
            and getattr(row.fn, "__name__", None) not in NOT_COMPILABLE)


def _staged(fn):
    """``fn`` called from a parsed function, so the row's callable is compiled into a graph."""
    def staged(*args):
        return fn(*args)
    return refms.jit(staged)


def _agree(k, eager, compiled, rtol=1e-6, atol=1e-6):
    assert isinstance(compiled, Tensor), f"output {k} is {type(compiled).__name__}"
    assert str(compiled.dtype) == str(eager.dtype), f"dtype of output {k}"
    assert tuple(compiled.shape) == tuple(eager.shape), f"shape of output {k}"
    np.testing.assert_allclose(compiled.asnumpy().astype(np.float64),
                               eager.asnumpy().astype(np.float64), rtol=rtol, atol=atol,
                               equal_nan=True, err_msg=f"output {k}")


@pytest.mark.parametrize("row", _params([r for r in ROWS if _compilable(r)]))
def test_mode_agreement(row):
    inputs = row.sample(_rng(row, "forward"))
    tensors = [_to_tensor(v) for v in inputs]
    eager = _as_tuple(row.fn(*tensors))
    compiled = _as_tuple(_staged(row.fn)(*tensors))
    assert len(compiled) == len(eager), "number of outputs"
    for k, (e, c) in enumerate(zip(eager, compiled)):
        if row.property_only:
            assert str(c.dtype) == str(e.dtype) and tuple(c.shape) == tuple(e.shape)
        else:
            _agree(k, e, c, row.rtol, row.atol)


@pytest.mark.parametrize("row", _params([r for r in ROWS if _wants_grad_test(r)
                                          and _compilable(r)]))
def test_gradient_mode_agreement(row):
    rng = _rng(row, "gradient")
    inputs = row.sample(rng)
    positions = _grad_positions(row, inputs)
    xs = [_apply_domain(row.domain, v.astype(np.float64)) if _is_float_array(v) else v
          for v in inputs]
    tensors = [_to_tensor(x) for x in xs]
    outs = _as_tuple(row.fn(*tensors))
    cotangents = [rng.standard_normal(o.shape) if o.dtype.kind in ("float", "complex") else None
                  for o in outs]
    fn = row.fn

    def projected(*args):
        return _projection(_as_tuple(fn(*args)), cotangents)

    eager = _as_tuple(refms.grad(projected, grad_position=positions)(*tensors))
    compiled = _as_tuple(refms.grad(refms.jit(projected), grad_position=positions)(*tensors))
    assert len(compiled) == len(eager)
    for k, (e, c) in enumerate(zip(eager, compiled)):
        _agree(k, e, c, rtol=1e-7, atol=1e-9)
