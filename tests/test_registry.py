"""The primitive registry is complete and is the one place both op spellings come from
(docs/architecture.rst).

* every registered primitive has a shape/dtype rule and a forward, and either a
  bprop or its name in ``NON_DIFFERENTIABLE`` (the one explicit list);
* every name in ``NON_DIFFERENTIABLE`` is a registered primitive;
* every registered primitive is exercised by at least one op-table row;
* ``ops.Add()`` and ``ops.add`` run the same registry entry.
"""
import numpy as np
import pytest

import refms as ms
from refms import Tensor, ops
from refms.ops import functional as F
from refms.ops import primitive
from refms.ops.primitive import FUNCTIONAL, NON_DIFFERENTIABLE, REGISTRY, Primitive

from test_op_table import ROWS

#: Registered primitives that no op-table row exercises, each with the reason.
#: Keep this short: a missing row is a missing test.
NOT_IN_OP_TABLE = {
    "GetNext": "reads the device dataset queue, which refms has no equivalent of: running it only "
               "raises RuntimeError, as MindSpore 2.10 does on CPU (semantics 7.2), so there "
               "is no forward value to compare",
    **{name: "mint's im2col/col2im, unique and histogram primitives: MindSpore 2.10 has no CPU "
             "kernel for them ('The kernel Im2ColExt unregistered'), so an op-table row would "
             "fail on every MindSpore run; tests/test_mint_gaps.py checks them against numpy "
             "and the definitions (forward, float64 gradients, both modes, MindSpore's "
             "exception types)"
       for name in ("Im2ColExt", "Col2ImExt", "Unique2", "UniqueDim", "UniqueConsecutive",
                    "HistcExt")},
    **{name: "mint.triangular_solve's and mint.linalg.qr's primitives: MindSpore 2.10 has their "
             "kernels on Ascend only ('The kernel TriangularSolve unregistered' on CPU); "
             "tests/test_mint_ascend_only.py checks them against numpy's LU solver and "
             "Gram-Schmidt (forward, float64 gradients, both modes)"
       for name in ("TriangularSolve", "LinalgQr")},
}


def _overrides(cls, method):
    return getattr(cls, method) is not getattr(Primitive, method)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_entry_has_infer_and_forward(name):
    cls = REGISTRY[name]
    assert issubclass(cls, Primitive)
    assert cls.name == name
    assert _overrides(cls, "infer"), f"{name} has no shape/dtype rule (infer)"
    assert _overrides(cls, "forward"), f"{name} has no forward"


@pytest.mark.parametrize("name", list(REGISTRY))
def test_entry_has_bprop_or_is_declared_non_differentiable(name):
    cls = REGISTRY[name]
    assert _overrides(cls, "bprop") or name in NON_DIFFERENTIABLE, \
        f"{name} has no bprop and is not listed in NON_DIFFERENTIABLE"


def test_non_differentiable_names_are_registered():
    unknown = sorted(NON_DIFFERENTIABLE - set(REGISTRY))
    assert not unknown, f"NON_DIFFERENTIABLE names that are not registered primitives: {unknown}"


def test_every_row_names_a_registered_primitive():
    unknown = sorted({row.prim for row in ROWS} - set(REGISTRY))
    assert not unknown, f"op-table rows for unregistered primitives: {unknown}"


def test_every_entry_is_covered_by_the_op_table():
    covered = {row.prim for row in ROWS}
    missing = [name for name in REGISTRY if name not in covered and name not in NOT_IN_OP_TABLE]
    assert not missing, f"registered primitives without an op-table row: {missing}"


def test_exemptions_are_still_needed():
    covered = {row.prim for row in ROWS}
    stale = sorted(name for name in NOT_IN_OP_TABLE if name in covered or name not in REGISTRY)
    assert not stale, f"remove from NOT_IN_OP_TABLE (now covered or gone): {stale}"


def test_classes_are_the_registry_entries():
    for name, cls in REGISTRY.items():
        assert getattr(ops, name) is cls, f"ops.{name} is not REGISTRY[{name!r}]"
    for name, fn in FUNCTIONAL.items():
        assert getattr(ops, name) is fn, f"ops.{name} is not FUNCTIONAL[{name!r}]"
        assert getattr(F, name) is fn, f"ops.functional.{name} is not FUNCTIONAL[{name!r}]"


class _Recorder:
    """An executor that notes which primitive classes run, then runs them as usual."""

    def __init__(self, inner):
        self.inner = inner
        self.seen = []

    def __call__(self, prim, args):
        self.seen.append(type(prim))
        return self.inner(prim, args)


def _prims_run_by(fn, *args):
    recorder = _Recorder(primitive.get_executor())
    previous = primitive.set_executor(recorder)
    try:
        fn(*args)
    finally:
        primitive.set_executor(previous)
    return recorder.seen


X = Tensor(np.array([[1.0, -2.0], [3.0, 4.0]], np.float32))
Y = Tensor(np.array([[0.5, 2.0], [-1.0, 1.0]], np.float32))

#: (functional spelling, Primitive spelling, arguments): both must run the same registry entry.
SPELLINGS = [
    (ops.add, ops.Add(), (X, Y)),
    (ops.sub, ops.Sub(), (X, Y)),
    (ops.mul, ops.Mul(), (X, Y)),
    (ops.div, ops.Div(), (X, Y)),
    (ops.maximum, ops.Maximum(), (X, Y)),
    (ops.neg, ops.Neg(), (X,)),
    (ops.exp, ops.Exp(), (X,)),
    (ops.equal, ops.Equal(), (X, Y)),
    (ops.cast, ops.Cast(), (X, ms.int32)),
    (ops.reshape, ops.Reshape(), (X, (4,))),
    (ops.transpose, ops.Transpose(), (X, (1, 0))),
    (ops.matmul, ops.MatMul(), (X, Y)),
    (ops.reduce_sum, ops.ReduceSum(), (X, 1)),
    (ops.zeros_like, ops.ZerosLike(), (X,)),
]


@pytest.mark.parametrize("functional,prim,args", SPELLINGS,
                         ids=[type(p).__name__ for _, p, _ in SPELLINGS])
def test_functional_and_class_reach_the_same_entry(functional, prim, args):
    cls = REGISTRY[type(prim).__name__]
    assert _prims_run_by(prim, *args) == [cls]
    assert _prims_run_by(functional, *args) == [cls]
    np.testing.assert_array_equal(functional(*args).asnumpy(), prim(*args).asnumpy())


def test_executor_is_restored():
    before = primitive.get_executor()
    _prims_run_by(ops.add, X, Y)
    assert primitive.get_executor() is before
