"""Training patterns of the MindSpore model zoo (``tests/zoo_pattern_programs.py``) compared
with what MindSpore 2.10 printed running the same programs (recorded by
``tests/recorders/record_zoo_patterns.py``): a constant ``if`` in a block under a library
container trained by ``TrainOneStepCell`` (it failed to compile), BatchNorm statistics and
``construct``'s effects once per training step in GRAPH_MODE (they ran twice)."""

import pytest

from test_graph_static_syntax import check_program, recorded_programs
from zoo_pattern_programs import PROGRAMS

RECORDED = recorded_programs("zoo_patterns.json")


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_mindspore(name, tmp_path):
    check_program(PROGRAMS[name], RECORDED[name], str(tmp_path))


def test_every_program_is_recorded():
    assert set(PROGRAMS) == set(RECORDED)


# -- loss scaling: MindSpore 2.10 on CPU cannot run these cells (its overflow check is an
# Ascend kernel, "Unsupported op [NPUGetFloatStatusV2] on CPU"), so graph mode is checked
# against PyNative and against the update rule's arithmetic.

import numpy as np  # noqa: E402

import refms as ms  # noqa: E402
from refms import Tensor, nn, ops  # noqa: E402


class _BertStyleStep(nn.TrainOneStepWithLossScaleCell):
    """A user step written like the zoo's BERT/Transformer ones: the overflow check is
    started before the gradient and read from the gradients after it."""

    def construct(self, x, y):
        loss = self.network(x, y)
        scaling_sens = self.scale_sense
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        grads = self.grad(self.network, self.weights)(x, y, ops.cast(scaling_sens, ms.float32))
        grads = tuple(g / scaling_sens for g in grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        if not overflow:
            self.optimizer(grads)
        return loss, cond, scaling_sens


def _loss_scale_run(mode, cls, inputs):
    ms.set_context(mode=mode)
    try:
        net = nn.Dense(3, 2, weight_init=Tensor(np.array([[0.5, -0.2, 0.1], [0.3, 0.4, -0.6]],
                                                         np.float32)), bias_init="zeros")
        loss = nn.WithLossCell(net, nn.MSELoss())
        manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 8, scale_factor=2,
                                                scale_window=2)
        step = cls(loss, nn.Momentum(net.trainable_params(), 0.1, 0.9), manager)
        outs = [[o.asnumpy() for o in step(Tensor(x), Tensor(y))] for x, y in inputs]
        return outs, net.weight.asnumpy(), step.scale_sense.asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


_RNG = np.random.default_rng(3)
_GOOD = [(_RNG.standard_normal((4, 3)).astype(np.float32),
          _RNG.standard_normal((4, 2)).astype(np.float32)) for _ in range(3)]
_BAD_X = _GOOD[0][0].copy()
_BAD_X[0, 0] = np.inf


@pytest.mark.parametrize("cls", [nn.TrainOneStepWithLossScaleCell, _BertStyleStep],
                         ids=["library", "bert_style"])
def test_loss_scale_step_graph_matches_pynative(cls):
    eager = _loss_scale_run(ms.PYNATIVE_MODE, cls, _GOOD)
    graph = _loss_scale_run(ms.GRAPH_MODE, cls, _GOOD)
    for a, b in zip(eager[0], graph[0]):
        for u, v in zip(a, b):
            np.testing.assert_allclose(v, u, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(graph[1], eager[1], rtol=1e-5, atol=1e-6)
    # no overflow in 3 steps, window 2: the scale doubled once
    assert float(graph[2]) == 2.0 ** 9 == float(eager[2])


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_loss_scale_step_skips_the_update_on_overflow(mode):
    outs, weight, scale = _loss_scale_run(mode, nn.TrainOneStepWithLossScaleCell,
                                          [(_BAD_X, _GOOD[0][1])] * 2)
    assert [bool(o[1]) for o in outs] == [True, True]
    np.testing.assert_array_equal(weight, np.array([[0.5, -0.2, 0.1], [0.3, 0.4, -0.6]], np.float32))
    assert float(scale) == 2.0 ** 6          # halved at each overflow: 256 / 2 / 2


# -- FloatStatus: MindSpore 2.10 has no CPU kernel for it (GPU only); its definition is
# checked here: [1] when the input holds a NaN or an infinity, else [0], in the input's dtype.

@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_float_status_flags_non_finite_values(mode):
    ms.set_context(mode=mode)
    try:
        status = ops.FloatStatus()
        run = ms.jit(_status_of) if mode == ms.GRAPH_MODE else _status_of
        for values, dtype, flag in (([1.0, 2.0], np.float32, 0.0), ([1.0, np.inf], np.float32, 1.0),
                                    ([np.nan], np.float16, 1.0), ([-np.inf, 0.0], np.float64, 1.0)):
            out = run(status, Tensor(np.array(values, dtype)))
            assert out.shape == (1,) and out.asnumpy().dtype == dtype
            assert out.asnumpy().tolist() == [flag]
        with pytest.raises(TypeError):
            status(Tensor(np.array([1, 2], np.int32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _status_of(status, x):
    return status(x)


def test_train_one_step_cell_reports_a_single_device():
    """Zoo subclasses (BERT's) read these flags before building a distributed reducer."""
    net = nn.Dense(3, 2)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))
    assert step.reducer_flag is False and step.parallel_mode == "stand_alone"
