"""The vision and sequence ops of issue 13 (``ops.interpolate`` and the resize primitives,
``CTCLoss``, ``ROIAlign``, ``NMSWithMask``, 3-D pooling, ``Conv3dTranspose``, ``SSIM``/``PSNR``...)
against MindSpore 2.10's recorded outputs, gradients and exception types.

``tests/recorders/record_vision_ops.py`` defines the cases once against an
``ms`` namespace and recorded them on MindSpore, one process per case
(``vision_ops.json``); here the same case functions run on refms:

* forward: values and dtypes of every output;
* gradient: of ``Σ out·cotangent`` for every float input, equal to MindSpore's,
  and in float64 equal to central differences along a random direction;
* mode agreement: the same results when the case runs compiled (``GRAPH_MODE``);
* errors: every error case raises MindSpore's exception type.
"""

import numpy as np
import pytest

import refms
from recorded_op_cases import (load_recorded, case_inputs, as_tuple, check_outputs, calling,
                               central_difference_check, check_recorded_gradient, check_raises)

record_vision_ops, RECORDED, CASES, ERRORS = load_recorded("vision_ops")
#: Cases whose function builds a Cell (graph mode compiles its construct, not the lambda).
CELL_CASES = {name for name in CASES if name.startswith("nn.")}
#: Cases that draw random numbers: compared by properties, not values (see their own tests).
RANDOM_CASES = {name for name in CASES if name.startswith(("RandomChoiceWithMask",
                                                             "choice_with_mask"))}


#: Cases whose recorded gradient is MindSpore's convention rather than the derivative of the
#: forward, so the float64 central-difference check does not apply (the MindSpore check does).
NOT_THE_DERIVATIVE = {
    "ctc_loss-raw-log-probs": "CTCLossV2's gradient is exp(log_probs) − posterior, the derivative "
                              "through a log_softmax; on raw inputs that do not sum to one it "
                              "differs from the derivative of the loss (MindSpore 2.10, PyTorch)",
    "ctc_loss-zero-infinity": "one loss is inf (its central difference is nan); zero_infinity "
                              "zeroes that sample's gradient",
    "ctc_loss-mean": "the 'mean' reduction divides in float32 and casts back (MindSpore 2.10), "
                     "so a float64 central difference sees float32 rounding; ctc_loss-none and "
                     "-sum-blank3 check the same gradient in float64",
    "nn.CTCLoss": "reduction 'mean' (as ctc_loss-mean); nn.CTCLoss-unbatched uses 'sum'",
    **{name: "PSNR and SSIM compute in Float32 whatever the input (MindSpore casts the images), "
             "so float64 central differences see float32 rounding; the gradient is checked "
             "against MindSpore's recorded one" for name in ("nn.PSNR", "nn.PSNR-max255",
                                                             "nn.SSIM", "nn.SSIM-small-window")},
    "ROIAlign-adaptive-samples": "a RoI smaller than its bins has no samples, so its cells are "
                                 "NaN (as MindSpore's) and Σ out·u is NaN",
}


#: Cases where MindSpore 2.10's own gradient is not the gradient of its forward: refms keeps the
#: true gradient, checked against float64 central differences (test_gradient_numerically_float64).
MINDSPORE_GRADIENT_BUGS = {
    "ROIAlign-scale-legacy": "ROIAlignGrad ignores roi_end_mode=0: it scatters with the "
                             "roi_end_mode=1 boxes (refms's transpose of the legacy forward, "
                             "built with roi_end_mode=1, equals MindSpore's gradient to 6e-7)",
}
#: Inputs the float64 check moves, where not every float input (RoI boxes get no gradient in
#: MindSpore: its bprop returns zeros for them; their first column is an image index).
NUMERIC_INPUTS = {"ROIAlign": (0,)}












FORWARD = sorted(n for n in CASES if n in RECORDED and n not in RANDOM_CASES)


@pytest.mark.parametrize("name", FORWARD)
def test_forward_matches_mindspore(name):
    case = RECORDED[name]
    fn, _ = CASES[name]
    check_outputs(name, as_tuple(fn(*case_inputs(case))), case)


@pytest.mark.parametrize("name", sorted(n for n in FORWARD if "grads" in RECORDED[n]
                                        and n not in MINDSPORE_GRADIENT_BUGS))
def test_gradient_matches_mindspore(name):
    check_recorded_gradient(name, RECORDED[name], CASES[name][0])


#: Case prefixes whose Cells hold Float32 Parameters (MindSpore's default), which a float64 input
#: cannot meet; their gradients come from primitives whose op-table rows check them in float64.
FLOAT32_PARAMETERS = {"nn.Conv3dTranspose": "Conv2DBackpropInput, GetItem and Stack rows"}


@pytest.mark.parametrize("name", sorted(n for n in FORWARD if CASES[n][1]
                                        and n not in NOT_THE_DERIVATIVE
                                        and not n.startswith(tuple(FLOAT32_PARAMETERS))))
def test_gradient_numerically_float64(name):
    """⟨refms gradient, v⟩ equals the float64 central difference of ``Σ out·u`` along ``v``."""
    case = RECORDED[name]
    fn, _ = CASES[name]
    inputs = case_inputs(case, float64=True)
    positions = [k for k, t in enumerate(inputs) if t.dtype == refms.float64]
    for prefix, chosen in NUMERIC_INPUTS.items():
        if name.startswith(prefix):
            positions = list(chosen)
    rng = np.random.default_rng(7)
    u = [rng.standard_normal(np.array(o).shape) for o in case["outputs"]]
    central_difference_check(fn, inputs, positions, u, rng=rng)     # v drawn after u


@pytest.mark.parametrize("name", FORWARD)
def test_graph_mode_matches_mindspore(name):
    case = RECORDED[name]
    fn, _ = CASES[name]
    refms.set_context(mode=refms.GRAPH_MODE)
    run = fn if name in CELL_CASES else refms.jit(calling(fn))
    check_outputs(name, as_tuple(run(*case_inputs(case))), case)




@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_input_raises_mindspore_exception_type(name):
    check_raises(name, RECORDED[name]["error"], ERRORS[name])


@pytest.mark.parametrize("name", sorted(RANDOM_CASES))
def test_random_choice_matches_mindspore_in_kind(name):
    """Shapes and dtypes as MindSpore's; distinct True positions first, as many as MindSpore
    found, zero rows after them."""
    case = RECORDED[name]
    fn, _ = CASES[name]
    (x,) = case_inputs(case)
    index, mask = fn(x)
    for out, expected, dtype in zip((index, mask), case["outputs"], case["output_dtypes"]):
        assert str(out.dtype) == dtype and tuple(out.shape) == np.array(expected).shape
    index, mask = index.asnumpy(), mask.asnumpy()
    assert int(mask.sum()) == int(np.array(case["outputs"][1]).sum())
    chosen = [tuple(row) for row in index[mask]]
    assert len(set(chosen)) == len(chosen) and all(x.asnumpy()[p] for p in chosen)
    assert not index[~mask].any() and mask[:int(mask.sum())].all()


def test_every_case_is_recorded():
    missing = sorted(set(CASES) - set(RECORDED)) + sorted(set(ERRORS) - set(RECORDED))
    assert not missing, f"run tests/recorders/record_vision_ops.py for: {missing}"
