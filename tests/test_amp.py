"""Mixed precision: Cell.to_float, amp.auto_mixed_precision, build_train_network, Model(amp_level).

O2 keeps BatchNorm (and the loss) in float32 and scales the loss dynamically;
O3 runs everything in float16 (refms.amp module docstring; MindSpore train/amp.py).
"""
import numpy as np
import pytest

import refms as ms
import refms.dataset as ds
from refms import Tensor, amp, nn
from refms.train import Model

from conformance.cases import seed003_migration_network_20
from seed_scripts import exec_page_code


class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="same", weight_init="ones")
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 4 * 4, 3, weight_init="ones", bias_init="zeros")
        self.seen = {}

    def construct(self, x):
        x = self.conv(x)
        self.seen["conv"] = x.dtype
        x = self.bn(x)
        self.seen["bn"] = x.dtype
        return self.fc(self.flatten(self.relu(x)))


X = Tensor(np.random.RandomState(0).rand(2, 1, 4, 4).astype(np.float32))


def test_o2_keeps_batchnorm_in_float32_and_returns_float32():
    net = ConvNet()
    wrapped = amp.auto_mixed_precision(net, "O2")
    out = wrapped(X)
    assert out.dtype is ms.float32
    assert net.seen == {"conv": ms.float16, "bn": ms.float16}     # BN output cast back to fp16
    assert type(net._cells["bn"]).__name__ == "_OutputTo16"
    assert net.bn._backbone.mixed_precision_type is ms.float32
    assert all(p.dtype is ms.float32 for p in net.get_parameters())   # master weights stay fp32
    assert [p.name for p in wrapped.get_parameters()] == [p.name for p in ConvNet().get_parameters()]


def test_o3_runs_everything_in_float16():
    net = ConvNet()
    out = amp.auto_mixed_precision(net, "O3")(X)
    assert out.dtype is ms.float32
    assert net.seen == {"conv": ms.float16, "bn": ms.float16}
    assert net.bn.mixed_precision_type is ms.float16


def test_o0_changes_nothing_and_bad_levels_are_refused():
    net = ConvNet()
    assert amp.auto_mixed_precision(net, "O0") is net
    with pytest.raises(ValueError, match="not supported"):
        amp.auto_mixed_precision(net, "O7")
    with pytest.raises(ValueError, match="dtype"):
        amp.auto_mixed_precision(net, "O2", ms.float32)


def test_float16_network_computes_forward_and_backward():
    net = ConvNet()
    net.to_float(ms.float16)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    labels = Tensor(np.array([0, 2], np.int32))
    grads = ms.grad(lambda x: loss_fn(net(x), labels), weights=net.trainable_params(),
                    grad_position=None)(X)
    assert all(g.dtype is ms.float32 for g in grads)          # gradients of the fp32 parameters
    assert all(np.isfinite(g.asnumpy()).all() for g in grads)


def _train(amp_level, **kwargs):
    ms.set_seed(0)
    net = ConvNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    model = Model(net, loss, opt, amp_level=amp_level, **kwargs)
    rng = np.random.RandomState(1)
    images = rng.rand(16, 1, 4, 4).astype(np.float32)
    labels = (images.mean((1, 2, 3)) * 3).astype(np.int32).clip(0, 2)
    data = ds.NumpySlicesDataset({"x": images, "y": labels}, shuffle=False).batch(8)
    losses = []

    class Record(ms.train.Callback):
        def on_train_step_end(self, run_context):
            out = run_context.original_args().net_outputs
            losses.append(float((out[0] if isinstance(out, tuple) else out).asnumpy()))

    model.train(4, data, callbacks=Record())
    return model, net, losses


@pytest.fixture
def gpu_target(monkeypatch):
    """The device target GPU, where MindSpore builds the overflow-checking (update cell)
    training network; only the setting changes (the kernels stay on the host)."""
    from refms import context
    monkeypatch.setitem(context._SETTINGS, "device_target", "GPU")


def test_update_cell_loss_scale_is_refused_on_cpu():
    # MindSpore 2.10 on CPU (tests/recorders/record_tutorials.py, "amp_cpu_loss_scale"):
    # O2's default DynamicLossScaleManager and an explicit one raise ValueError; O3 and
    # FixedLossScaleManager(drop_overflow_update=False) build a TrainOneStepCell.
    with pytest.raises(ValueError, match="CPU"):
        _train("O2")
    with pytest.raises(ValueError, match="DynamicLossScaleManager"):
        _train("O0", loss_scale_manager=ms.DynamicLossScaleManager())
    manager = ms.FixedLossScaleManager(drop_overflow_update=False)
    assert type(_train("O2", loss_scale_manager=manager)[0].train_network).__name__ == \
        "TrainOneStepCell"


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_model_o2_uses_a_dynamic_loss_scale_that_skips_overflowing_steps(gpu_target):
    model, net, losses = _train("O2")
    assert type(model.train_network).__name__ == "TrainOneStepWithLossScaleCell"
    assert type(model.train_network.loss_scaling_manager).__name__ == "DynamicLossScaleUpdateCell"
    # 2**24 · grad overflows float16: all 8 steps are skipped and the scale halves each time
    assert float(model.train_network.scale_sense.asnumpy()) == 2.0 ** 16
    assert losses[-1] == losses[0]


def test_model_o2_trains_with_a_smaller_initial_scale(gpu_target):
    manager = ms.DynamicLossScaleManager(init_loss_scale=2 ** 10)
    model, net, losses = _train("O2", loss_scale_manager=manager)
    assert float(model.train_network.scale_sense.asnumpy()) == 2.0 ** 10
    assert losses[-1] < losses[0]
    assert net.bn._backbone.moving_mean.dtype is ms.float32
    assert np.abs(net.bn._backbone.moving_mean.asnumpy()).sum() > 0     # updated in float32


def test_model_o3_trains_without_loss_scale():
    model, net, losses = _train("O3")
    assert type(model.train_network).__name__ == "TrainOneStepCell"
    assert losses[-1] < losses[0]
    assert all(p.dtype is ms.float32 for p in net.get_parameters())


def test_fixed_loss_scale_manager_without_overflow_checks_uses_sens():
    manager = ms.FixedLossScaleManager(128.0, drop_overflow_update=False)
    model, _, losses = _train("O2", loss_scale_manager=manager)
    assert type(model.train_network).__name__ == "TrainOneStepCell"
    assert model.train_network.sens == 128.0


def test_build_train_network_checks_its_arguments():
    net = ConvNet()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    with pytest.raises(ValueError, match="Unsupported arg"):
        amp.build_train_network(net, opt, nn.MSELoss(), level="O2", cast=1)
    with pytest.raises(ValueError, match="level"):
        amp.build_train_network(net, opt, nn.MSELoss(), level="O9")
    with pytest.raises(TypeError, match="Optimizer"):
        amp.build_train_network(net, None)


def test_loss_scale_managers():
    dynamic = ms.DynamicLossScaleManager(init_loss_scale=8, scale_factor=2, scale_window=2)
    for overflow, expected in ((False, 8), (False, 16), (True, 8), (False, 8), (False, 16)):
        dynamic.update_loss_scale(overflow)
        assert dynamic.get_loss_scale() == expected
    assert ms.FixedLossScaleManager(4).get_update_cell().get_loss_scale() == 4
    assert ms.FixedLossScaleManager(4, drop_overflow_update=False).get_update_cell() is None
    with pytest.raises(ValueError, match=">= 1"):
        ms.FixedLossScaleManager(0.5)


def test_seed003_to_float_example_builds():
    """Seed 003 "手动混合精度": network to float16, BatchNorm and the loss back to float32.

    Case network_20.to_float checks the dtypes this computes under the page's 2.0; here, under the
    default compat, the cells' flags."""
    namespace = {"nn": nn}
    exec_page_code(seed003_migration_network_20.NETWORK, "<seed 003 Network>", namespace)
    Network = namespace["Network"]
    net = Network()
    net.to_float(ms.float16)
    for _, cell in net.cells_and_names():
        if isinstance(cell, (nn.BatchNorm1d, nn.BatchNorm2d)):
            cell.to_float(ms.float32)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean').to_float(ms.float32)
    net_with_loss = nn.WithLossCell(net, loss_fn=loss)
    assert net.layer1[0].mixed_precision_type is ms.float16
    assert net.layer1[1].mixed_precision_type is ms.float32
    assert net_with_loss._loss_fn.mixed_precision_type is ms.float32
