"""PyNative's remembered shape rules (refms.ops.known_calls): a call of a known signature gives
exactly what the full path gives — values, dtypes, errors, gradients — and the table stays small.

Expected values come from numpy on the same inputs and from the promotion rules of semantics 1.7
(int32 ⊕ float32 → Float32); errors must repeat with the same type and message.
"""
import numpy as np
import pytest

import refms
from refms import Tensor, ops
from refms import dtype as mstype
from refms.ops import known_calls
from refms.initializer import One
from refms.ops.apply import set_mixed_precision


def _fresh(prim_class):
    """A new primitive instance (an empty table) and its functional spelling through the executor."""
    prim = prim_class()
    return prim, (lambda *args: prim(*args))


def test_second_call_of_a_signature_is_looked_up_and_equal():
    prim, add = _fresh(ops.Add)
    a = np.array([1.5, -2.0, 3.25], np.float32)
    b = np.array([0.5, 4.0, -1.0], np.float32)
    first = add(Tensor(a), Tensor(b))
    assert prim._known_calls is not None and len(prim._known_calls) == 1
    second = add(Tensor(b), Tensor(a))
    assert len(prim._known_calls) == 1                 # same signature: looked up
    np.testing.assert_array_equal(first.asnumpy(), a + b)
    np.testing.assert_array_equal(second.asnumpy(), b + a)
    assert first.dtype is second.dtype is mstype.float32


def test_promoting_call_casts_its_inputs_on_the_known_path():
    prim, mul = _fresh(ops.Mul)
    i = Tensor(np.array([3, -2], np.int32))
    f = Tensor(np.array([0.5, 0.25], np.float32))
    for _ in range(2):                                 # the full path, then the known one
        out = mul(i, f)
        assert out.dtype is mstype.float32
        assert out.asnumpy().dtype == np.float32
        np.testing.assert_array_equal(out.asnumpy(), np.array([1.5, -0.5], np.float32))
    plan, = prim._known_calls.values()
    assert plan.cast_inputs


def test_weak_scalars_and_new_shapes_each_get_their_answer():
    prim, add = _fresh(ops.Add)
    x = Tensor(np.array([1, 2], np.int32))
    for _ in range(2):
        out = add(x, 2.5)                              # int tensor + Python float → Float32
        assert out.dtype is mstype.float32
        np.testing.assert_array_equal(out.asnumpy(), [3.5, 4.5])
        out = add(x, 2)                                # + Python int keeps Int32
        assert out.dtype is mstype.int32
        np.testing.assert_array_equal(out.asnumpy(), [3, 4])
    row = Tensor(np.ones((1, 3), np.float32))
    col = Tensor(np.arange(2, dtype=np.float32).reshape(2, 1))
    assert add(row, col).shape == (2, 3)
    assert add(row, row).shape == (1, 3)


def test_errors_are_not_remembered():
    prim, add = _fresh(ops.Add)
    t = Tensor(np.array([True, False]))
    messages = []
    for _ in range(2):
        with pytest.raises(TypeError) as info:
            add(t, t)
        messages.append(str(info.value))
    assert messages[0] == messages[1] and "For 'Add'" in messages[0]
    a, b = Tensor(np.ones(3, np.float32)), Tensor(np.ones(4, np.float32))
    for _ in range(2):
        with pytest.raises(ValueError, match="need to broadcast"):
            add(a, b)
    assert not prim._known_calls


def test_uninitialized_tensor_still_raises_after_its_signature_is_known():
    prim, add = _fresh(ops.Add)
    ready = Tensor(np.zeros((2,), np.float32))
    add(ready, ready)
    lazy = Tensor(shape=(2,), dtype=mstype.float32, init=One())
    with pytest.raises(RuntimeError, match="uninitialized"):
        add(lazy, ready)


def test_the_table_is_bounded():
    prim, neg = _fresh(ops.Neg)
    for n in range(1, known_calls.LIMIT + 10):
        out = neg(Tensor(np.arange(n, dtype=np.float32)))
        np.testing.assert_array_equal(out.asnumpy(), -np.arange(n, dtype=np.float32))
    assert 0 < len(prim._known_calls) <= known_calls.LIMIT


def test_mixed_precision_casts_before_the_lookup():
    prim, add = _fresh(ops.Add)
    x = Tensor(np.array([1.0, 2.0], np.float32))
    assert add(x, x).dtype is mstype.float32
    previous = set_mixed_precision(mstype.float16)
    try:
        out = add(x, x)
    finally:
        set_mixed_precision(previous)
    assert out.dtype is mstype.float16
    np.testing.assert_array_equal(out.asnumpy(), np.array([2.0, 4.0], np.float16))


def test_gradients_through_known_calls():
    """d/dx Σ (x·y + x) = y + 1 and d/dy = x, on the first and on a repeated call."""
    x = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
    y = Tensor(np.array([3.0, 4.0, -1.0], np.float32))

    def f(x, y):
        return ops.reduce_sum(ops.add(ops.mul(x, y), x))

    for _ in range(2):
        dx, dy = refms.grad(f, grad_position=(0, 1))(x, y)
        np.testing.assert_allclose(dx.asnumpy(), y.asnumpy() + 1)
        np.testing.assert_allclose(dy.asnumpy(), x.asnumpy())


def test_tensor_hook_sees_gradient_of_a_known_call():
    seen = []
    x = Tensor(np.array([2.0, 3.0], np.float32))

    def f(x):
        y = ops.mul(x, x)
        y.register_hook(lambda g: seen.append(g.asnumpy()))
        return ops.reduce_sum(ops.mul(y, x))

    for _ in range(2):
        dx = refms.grad(f)(x)
        np.testing.assert_allclose(dx.asnumpy(), 3 * x.asnumpy() ** 2)   # d/dx Σ x³
    assert len(seen) == 2
    np.testing.assert_allclose(seen[-1], x.asnumpy())                   # ∂(Σ y·x)/∂y = x
