"""``ops``/``nn`` arguments and Cells refms gained late, replayed from MindSpore 2.10
(``tests/recorders/record_api_gaps.py`` -> ``api_gaps.json``): ``ops.gather(..., batch_dims)``,
``ops.pad`` in 'replicate'/'circular' mode and with cropping paddings, the ``nn`` padding
Cells, ``initial``/``where`` of ``ops.amax/amin/max/min`` and ``Tensor.max``,
``ops.subtract(..., alpha)``, ``nn.MaxPool3d(return_indices=True)``, ``Tensor.set_``,
``Parameter.requires_grad_`` and ``Tensor.to_``.

Outputs and exception types are MindSpore's; gradients are MindSpore's and also checked
against float64 central differences; each case runs in PyNative and GRAPH_MODE.
"""

import numpy as np
import pytest

import refms
from recorded_op_cases import (load_recorded, case_inputs, as_tuple, check_outputs, calling,
                               check_recorded_gradient, check_numerical_gradient, check_raises)
from refms import Tensor, ops

record_api_gaps, RECORDED, CASES, ERRORS = load_recorded("api_gaps")


def test_every_case_is_recorded():
    missing = sorted(set(CASES) - set(RECORDED)) + sorted(set(ERRORS) - set(RECORDED))
    assert not missing, f"run tests/recorders/record_api_gaps.py for: {missing}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_matches_mindspore(name):
    fn, _ = CASES[name]
    check_outputs(name, as_tuple(fn(*case_inputs(RECORDED[name]))), RECORDED[name])


#: Cases of PyNative only: ``set_`` and ``requires_grad_`` change a Tensor or Parameter object
#: (its storage, its flag) rather than compute a value, which refms's graph compiler does not
#: trace (its in-place methods are the value-computing ones of refms._tensor_inplace).
PYNATIVE_ONLY = ("Tensor.set_", "Parameter.")


@pytest.mark.parametrize("name", sorted(n for n in CASES if not n.startswith(PYNATIVE_ONLY)))
def test_graph_mode_matches_mindspore(name):
    fn, _ = CASES[name]
    refms.set_context(mode=refms.GRAPH_MODE)
    run = fn if name.startswith("nn.") else refms.jit(calling(fn))   # a Cell compiles itself
    check_outputs(name, as_tuple(run(*case_inputs(RECORDED[name]))), RECORDED[name])


#: Gathers with batch dims whose recorded indices include negative ones, with their axis.
#: MindSpore 2.10's forward wraps a negative index (−1 is the last entry), but its gradient
#: scatter-adds each row into the flat row β·n + index of the (batch, axis) dims without
#: wrapping: a negative index's row lands in the previous batch entry's rows (n + index), or
#: is dropped before the first.  refms's gradient is the derivative of the forward
#: (test_gradient_numerically_float64 checks it for these cases too); here MindSpore's
#: recorded gradient is checked against that offset rule, so the difference is explained.
NEGATIVE_INDEX_GRADIENT = {"gather-batch_dims1-axis1": 1, "gather-batch_dims1-axis2": 2}


def mindspore_unwrapped_gather_gradient(x, index, axis, cotangent):
    """dx as MindSpore 2.10 computes it for batch_dims=1 (see NEGATIVE_INDEX_GRADIENT)."""
    n = x.shape[axis]
    grad = np.zeros(x.shape)
    for beta in range(x.shape[0]):
        for i in np.ndindex(*index.shape[1:]):
            flat = beta * n + index[(beta,) + i]
            if flat < 0:
                continue
            target, row = divmod(flat, n)
            for between in np.ndindex(*x.shape[1:axis]):
                grad[(target,) + between + (row,)] += cotangent[(beta,) + between + i]
    return grad


@pytest.mark.parametrize("name", sorted(NEGATIVE_INDEX_GRADIENT))
def test_mindspore_gather_gradient_does_not_wrap_negative_indices(name):
    case = RECORDED[name]
    x, index = np.array(case["inputs"][0]), np.array(case["inputs"][1])
    assert (index < 0).any(), name
    expected = mindspore_unwrapped_gather_gradient(x, index, NEGATIVE_INDEX_GRADIENT[name],
                                                   np.array(case["cotangents"][0]))
    np.testing.assert_allclose(np.array(case["grads"][0]), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(n for n in CASES if "grads" in RECORDED[n] and
                                         n not in NEGATIVE_INDEX_GRADIENT))
def test_gradient_matches_mindspore(name):
    check_recorded_gradient(name, RECORDED[name], CASES[name][0])


@pytest.mark.parametrize("name", sorted(n for n in CASES if CASES[n][1]))
def test_gradient_numerically_float64(name):
    check_numerical_gradient(RECORDED[name], CASES[name][0])


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_input_raises_mindspore_exception_type(name):
    check_raises(name, RECORDED[name]["error"], ERRORS[name])


def test_circular_padding_wider_than_the_axis_is_refused():
    """MindSpore 2.10's CPU kernel accepts a circular padding wider than the axis and returns
    a wrong first entry ([0 0 1 2 3 0 1 2 3 0] for arange(4) padded (5, 1), where wrapping
    gives [3 0 1 2 3 0 1 2 3 0]); refms refuses it, as PyTorch does."""
    x = Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 4))
    with pytest.raises(ValueError, match="at most 4"):
        ops.pad(x, (5, 1), mode="circular")
    np.testing.assert_array_equal(ops.pad(x, (4, 1), mode="circular").asnumpy().ravel(),
                                  [0, 1, 2, 3, 0, 1, 2, 3, 0])


def test_gather_batch_dims_is_one_gather_per_batch_entry():
    """The definition: y[β] = take(x[β], indices[β], axis − batch_dims)."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    index = rng.integers(-5, 5, (2, 3, 2, 2)).astype(np.int64)
    out = ops.gather(Tensor(x), Tensor(index), 3, batch_dims=2).asnumpy()
    for b in np.ndindex(2, 3):
        np.testing.assert_array_equal(out[b], np.take(x[b], index[b], axis=1))


def test_to_cpu_keeps_the_tensor():
    """refms runs on the host: ``to_("CPU")`` returns the tensor itself, unchanged.  (MindSpore
    2.10's CPU build fails there: its 'Free' kernel is missing; its device-name check is
    recorded: bad:Tensor.to_-device.)"""
    x = Tensor(np.array([1.0, 2.0], np.float32))
    assert x.to_("CPU") is x
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])
    with pytest.raises(RuntimeError):
        x.to_("Ascend")


def test_ops_multinomial_is_mint_multinomial_in_int32_with_replacement_by_default():
    """ops.multinomial (MindSpore 2.10: Int32, replacement=True by default; its dtypes and
    shapes are differential cases) draws w / Σw: a chi-square fit of 20000 draws."""
    from scipy.stats import chisquare
    w = np.array([0.2, 0.0, 0.3, 0.5], np.float32)
    refms.set_seed(21)
    draws = ops.multinomial(Tensor(w), 20000)
    assert draws.dtype == refms.int32 and draws.shape == (20000,)
    counts = np.bincount(draws.asnumpy(), minlength=4)
    assert counts[1] == 0
    keep = w > 0
    assert chisquare(counts[keep], w[keep] / w.sum() * 20000).pvalue > 1e-3, counts
    once = ops.multinomial(Tensor(np.array([[1.0, 2.0, 3.0]], np.float32)), 3, False).asnumpy()
    np.testing.assert_array_equal(np.sort(once[0]), [0, 1, 2])
