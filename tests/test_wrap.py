"""Training wrappers (semantics 3.2, 8.4): WithLossCell, TrainOneStepCell, WithEvalCell,
WithGradCell and the loss-scale cells."""
import numpy as np
import pytest

import refms as ms
from refms import Parameter, Tensor, nn, ops

X = Tensor(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32))
Y = Tensor(np.array([[1.0], [0.0]], np.float32))


def dense():
    return nn.Dense(2, 1, weight_init=Tensor(np.array([[0.5, -0.25]], np.float32)),
                    bias_init="zeros")


def test_with_loss_cell_keeps_names_and_computes_the_loss():
    net = dense()
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    assert [p.name for p in with_loss.get_parameters()] == ["weight", "bias"]
    assert with_loss.backbone_network is net
    expected = np.mean((X.asnumpy() @ np.array([[0.5], [-0.25]]) - Y.asnumpy()) ** 2)
    np.testing.assert_allclose(float(with_loss(X, Y)), expected, rtol=1e-6)


def test_train_one_step_returns_the_loss_before_the_update():
    net = dense()
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    before = float(with_loss(X, Y))
    step = nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(), 0.1))
    loss = step(X, Y)
    assert loss.shape == () and float(loss) == pytest.approx(before)
    assert float(with_loss(X, Y)) < before
    assert with_loss.requires_grad            # TrainOneStepCell called network.set_grad()


def test_sens_scales_the_gradient():
    nets = [dense(), dense()]
    for net, sens in zip(nets, (None, 2.0)):
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.SGD(net.trainable_params(), 0.1), sens=sens)
        step(X, Y)
    w0 = np.array([[0.5, -0.25]])
    np.testing.assert_allclose(nets[1].weight.asnumpy() - w0, 2 * (nets[0].weight.asnumpy() - w0),
                               rtol=1e-5)
    with pytest.raises(ValueError, match="can not be 0"):
        nn.TrainOneStepCell(nets[0], nn.SGD(nets[0].trainable_params()), sens=0)


def test_the_forward_runs_once_per_step():
    """The gradient reuses the recorded forward: BatchNorm's moving mean moves once per step."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = dense()
            self.bn = nn.BatchNorm1d(1, momentum=0.5)
            self.calls = 0

        def construct(self, x):
            self.calls += 1
            return self.bn(self.fc(x))

    net = Net()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.0))
    step.set_train()
    step(X, Y)
    assert net.calls == 1
    batch_mean = float(np.mean(X.asnumpy() @ np.array([0.5, -0.25])))
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), [0.5 * batch_mean], rtol=1e-6)


def test_return_grad_gives_named_gradients():
    net = dense()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.1), return_grad=True)
    loss, grads = step(X, Y)
    assert list(grads) == ["weight", "bias"] and grads["weight"].shape == (1, 2)


def test_with_grad_cell():
    net = dense()
    grads = nn.WithGradCell(net, nn.MSELoss())(X, Y)
    d = X.asnumpy() @ np.array([[0.5], [-0.25]]) - Y.asnumpy()
    np.testing.assert_allclose(grads[0].asnumpy(), (2 * d / 2).T @ X.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(grads[1].asnumpy(), (2 * d / 2).sum(0), rtol=1e-5)


def test_with_eval_cell_returns_loss_outputs_and_label():
    net = dense()
    loss, outputs, label = nn.WithEvalCell(net, nn.MSELoss())(X, Y)
    assert label is Y and outputs.shape == (2, 1)
    np.testing.assert_allclose(float(loss), float(nn.MSELoss()(outputs, Y)))
    net.to_float(ms.float16)
    loss, outputs, label = nn.WithEvalCell(net, nn.MSELoss(), add_cast_fp32=True)(X, Y)
    assert outputs.dtype is ms.float32 and loss.dtype is ms.float32


def test_names_when_a_wrapper_is_adopted():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.wrapped = nn.WithLossCell(dense(), nn.MSELoss())

    assert [p.name for p in Outer().get_parameters()] == ["wrapped._backbone.weight",
                                                          "wrapped._backbone.bias"]


# -- loss scaling ---------------------------------------------------------------------------

def test_loss_scale_cell_unscales_gradients():
    reference, scaled = dense(), dense()
    nn.TrainOneStepCell(nn.WithLossCell(reference, nn.MSELoss()),
                        nn.SGD(reference.trainable_params(), 0.1))(X, Y)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(scaled, nn.MSELoss()),
                                            nn.SGD(scaled.trainable_params(), 0.1),
                                            scale_sense=Tensor(1024.0, ms.float32))
    loss, overflow, scale = cell(X, Y)
    assert not bool(overflow) and float(scale) == 1024.0
    np.testing.assert_allclose(scaled.weight.asnumpy(), reference.weight.asnumpy(), rtol=1e-6)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_overflow_skips_the_update_and_shrinks_the_dynamic_scale():
    net = dense()
    net.to_float(ms.float16)
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 24, scale_factor=2,
                                            scale_window=2)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.SGD(net.trainable_params(), 0.1), manager)
    before = net.weight.asnumpy()
    _, overflow, scale = cell(X, Y)                  # 2**24 · grad overflows float16
    assert bool(overflow)
    np.testing.assert_array_equal(net.weight.asnumpy(), before)
    assert float(cell.scale_sense.asnumpy()) == 2.0 ** 23


def test_dynamic_scale_grows_after_a_clean_window():
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=4.0, scale_factor=2, scale_window=2)
    scale = Parameter(Tensor(4.0, ms.float32), name="scale")
    clean = Tensor(False)
    seen = []
    for _ in range(4):
        manager(scale, clean)
        seen.append(float(scale.asnumpy()))
    assert seen == [4.0, 8.0, 8.0, 16.0]
    manager(scale, Tensor(True))
    assert float(scale.asnumpy()) == 8.0
    assert nn.FixedLossScaleUpdateCell(3.0)(scale, clean) is clean


def test_scale_sense_must_be_a_cell_or_a_small_tensor():
    net = dense()
    with pytest.raises(ValueError, match="shape of 'scale_sense'"):
        nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params()),
                                         Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="must be Cell or Tensor"):
        nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params()), 2.0)


def test_gradients_through_grad_operation_in_a_cell():
    """The r1.x pattern: GradOperation(get_by_list=True) inside a Cell, then the optimizer."""
    class GradWrap(nn.Cell):
        def __init__(self, network):
            super(GradWrap, self).__init__(auto_prefix=False)
            self.network = network
            self.weights = ms.ParameterTuple(filter(lambda x: x.requires_grad,
                                                    network.get_parameters()))

        def construct(self, x, label):
            return ops.GradOperation(get_by_list=True)(self.network, self.weights)(x, label)

    net = dense()
    grads = GradWrap(nn.WithLossCell(net, nn.MSELoss()))(X, Y)
    assert nn.Momentum(net.trainable_params(), 0.1, 0.9)(grads) == (True, True)
