"""The op table (``conformance/optable``) run against refms under pytest.

The rows live in the conformance suite (``conformance/optable/rows_*.py``; its
package docstring says how to add rows), so the same table judges every
implementation through ``python -m conformance``.  Here each row runs as
pytest cases, with the suite's own checks (:mod:`conformance.optable.checks`):

* **forward** — values, shape and dtype against the row's numpy reference;
* **gradient** — the float64 random-projection check against central differences;
* **errors** — each ``(inputs, exception type)`` in ``row.errors`` raises;

and refms-only checks that the suite cannot make of other implementations:

* **mode agreement** — the row compiled by the graph compiler (``refms.jit``) gives the
  same dtypes, shapes and values as PyNative, and for differentiable rows the graph
  autodiff transform gives the same gradients as the tape;
* the suite's list of primitives without a gradient matches refms's registry.
"""
import numpy as np
import pytest

import refms
from refms import Tensor
from refms.ops.primitive import NON_DIFFERENTIABLE

from conformance import optable
from conformance.optable import checks
from conformance.optable.spec import NO_GRADIENT

AREAS, IMPORT_FAILURES = optable.load(refms)
ROWS = [row for area in AREAS.values() for row in area]


def test_every_rows_module_imports():
    assert not IMPORT_FAILURES, "\n".join(f"{name}:\n{tb}" for name, tb in
                                          IMPORT_FAILURES.items())


def test_no_gradient_list_matches_the_registry():
    assert NO_GRADIENT == NON_DIFFERENTIABLE


def _params(rows):
    return [pytest.param(row, id=row.name) for row in rows]


def _to_tensor(value):
    return checks.to_tensor(refms, value)


_as_tuple = checks.as_tuple


@pytest.mark.parametrize("row", _params(ROWS))
def test_forward(row):
    checks.check_forward(refms, row)


@pytest.mark.parametrize("row", _params([r for r in ROWS if checks.wants_gradient(r)]))
def test_gradient(row):
    checks.check_gradient(refms, row)


ERROR_CASES = [pytest.param(row, k, id=f"{row.name}-{k}")
               for row in ROWS for k in range(len(row.errors))]


@pytest.mark.parametrize("row,k", ERROR_CASES)
def test_error(row, k):
    checks.check_error(refms, row, k)


# -- mode agreement ----------------------------------------------------------------------------
# Every row runs twice: in PyNative, and compiled by the graph compiler (refms.jit: parse,
# infer, optimize, execute).  Dtypes, shapes and values must agree; for differentiable rows the
# gradients (from the graph autodiff transform vs the PyNative tape) must agree too.

#: Row functions that cannot be compiled, with the reason (they are not graph-mode programs).
NOT_COMPILABLE = {
    "assign_and_read": "creates a Parameter from a run-time Tensor inside the function; graph "
                       "mode creates Parameters in __init__ only",
    "apply_momentum_and_read": "creates its Parameters from run-time Tensors inside the "
                               "function, as assign_and_read (graph mode: the LeNet step)",
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
    inputs = row.sample(checks.rng(row, "forward"))
    tensors = [_to_tensor(v) for v in inputs]
    eager = _as_tuple(row.fn(*tensors))
    compiled = _as_tuple(_staged(row.fn)(*tensors))
    assert len(compiled) == len(eager), "number of outputs"
    for k, (e, c) in enumerate(zip(eager, compiled)):
        if row.property_only:
            assert str(c.dtype) == str(e.dtype) and tuple(c.shape) == tuple(e.shape)
        else:
            _agree(k, e, c, row.rtol, row.atol)


@pytest.mark.parametrize("row", _params([r for r in ROWS if checks.wants_gradient(r)
                                          and _compilable(r)]))
def test_gradient_mode_agreement(row):
    xs, positions, cotangents, _ = checks.gradient_setup(refms, row)
    tensors = [_to_tensor(x) for x in xs]
    fn = row.fn

    def projected(*args):
        return checks.projection(refms, _as_tuple(fn(*args)), cotangents)

    eager = _as_tuple(refms.grad(projected, grad_position=positions)(*tensors))
    compiled = _as_tuple(refms.grad(refms.jit(projected), grad_position=positions)(*tensors))
    assert len(compiled) == len(eager)
    for k, (e, c) in enumerate(zip(eager, compiled)):
        _agree(k, e, c, rtol=1e-7, atol=1e-9)
