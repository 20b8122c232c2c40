"""Optimizers: updates against hand-computed numpy steps, MindSpore's figures, names, groups, rates.

Every expected number here is computed with numpy from the documented update
rule (the module docstrings of refms.nn.optim), in float32 like the kernels
(Adam's 1 − β₂ᵗ loses five digits in float32, so a float64 reference would
differ by ~2e-6); they agree with MindSpore 2.10 to float32 rounding (checked
when this suite was written).
"""
import numpy as np
import pytest

import refms as ms
from refms import Parameter, Tensor, nn

X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], np.float32)
Y = np.array([[0.5, -1.0], [1.0, 2.0]], np.float32)
W0 = np.arange(6, dtype=np.float32).reshape(2, 3) / 10
B0 = np.array([0.1, -0.2], np.float32)


def dense_net():
    return nn.Dense(3, 2, weight_init=Tensor(W0), bias_init=Tensor(B0))


def loss_and_grads(w, b):
    """MSE of x·wᵀ + b against y and its gradients (float32)."""
    d = X @ w.T + b - Y
    dout = 2 * d / d.size
    return (d * d).mean(), (dout.T @ X, dout.sum(0))


def train_three_steps(optimizer_factory):
    net = dense_net()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer_factory(net))
    step.set_train()
    history = []
    for _ in range(3):
        loss = float(step(Tensor(X), Tensor(Y)))
        history.append((loss, net.weight.asnumpy(), net.bias.asnumpy()))
    return history


def reference(update):
    """Three steps of ``update(step, params, grads, state)`` in float32 from W0, B0."""
    params = [W0, B0]
    state = {}
    history = []
    for t in range(1, 4):
        loss, grads = loss_and_grads(*params)
        params = update(t, params, grads, state)
        history.append((loss, params[0], params[1]))
    return history


def assert_same(history, expected):
    for (loss, w, b), (loss_ref, w_ref, b_ref) in zip(history, expected):
        assert abs(loss - loss_ref) < 1e-6
        np.testing.assert_allclose(w, w_ref, atol=1e-6)
        np.testing.assert_allclose(b, b_ref, atol=1e-6)


def momentum_update(lr, momentum, weight_decay=0.0, nesterov=False):
    def update(t, params, grads, state):
        new = []
        for i, (p, g) in enumerate(zip(params, grads)):
            g = g + weight_decay * p
            v = momentum * state.get(i, 0.0) + g
            state[i] = v
            new.append(p - (lr * g + lr * momentum * v) if nesterov else p - lr * v)
        return new
    return update


def test_momentum_three_steps():
    history = train_three_steps(lambda net: nn.Momentum(net.trainable_params(), 0.1, 0.9))
    assert_same(history, reference(momentum_update(0.1, 0.9)))


def test_momentum_weight_decay_and_nesterov():
    history = train_three_steps(lambda net: nn.Momentum(net.trainable_params(), 0.1, 0.9,
                                                        weight_decay=0.01))
    assert_same(history, reference(momentum_update(0.1, 0.9, weight_decay=0.01)))
    history = train_three_steps(lambda net: nn.Momentum(net.trainable_params(), 0.1, 0.9,
                                                        use_nesterov=True))
    assert_same(history, reference(momentum_update(0.1, 0.9, nesterov=True)))


def sgd_update(lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
    def update(t, params, grads, state):
        new = []
        for i, (p, g) in enumerate(zip(params, grads)):
            g = g + weight_decay * p
            if momentum > 0:
                a = g if t == 1 else momentum * state[i] + (1 - dampening) * g
                state[i] = a
                g = g + momentum * a if nesterov else a
            new.append(p - lr * g)
        return new
    return update


@pytest.mark.parametrize("kwargs", [dict(), dict(momentum=0.9),
                                    dict(momentum=0.9, dampening=0.1, weight_decay=0.01),
                                    dict(momentum=0.9, nesterov=True)], ids=str)
def test_sgd_three_steps(kwargs):
    history = train_three_steps(lambda net: nn.SGD(net.trainable_params(), 0.1, **kwargs))
    assert_same(history, reference(sgd_update(0.1, **kwargs)))


def adam_update(lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, nesterov=False):
    beta1, beta2 = np.float32(beta1), np.float32(beta2)

    def update(t, params, grads, state):
        new = []
        beta1_power = state["beta1_power"] = state.get("beta1_power", np.float32(1)) * beta1
        beta2_power = state["beta2_power"] = state.get("beta2_power", np.float32(1)) * beta2
        lr_t = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
        for i, (p, g) in enumerate(zip(params, grads)):
            g = g + weight_decay * p
            m, v = state.get(i, (0.0, 0.0))
            m = m + (g - m) * (1 - beta1)
            v = v + (g * g - v) * (1 - beta2)
            state[i] = (m, v)
            direction = beta1 * m + (1 - beta1) * g if nesterov else m
            new.append(p - lr_t * direction / (np.sqrt(v) + eps))
        return new
    return update


def test_adam_three_steps():
    history = train_three_steps(lambda net: nn.Adam(net.trainable_params(), 0.1))
    assert_same(history, reference(adam_update(0.1)))
    history = train_three_steps(lambda net: nn.Adam(net.trainable_params(), 0.1,
                                                    weight_decay=0.01, use_nesterov=True))
    assert_same(history, reference(adam_update(0.1, weight_decay=0.01, nesterov=True)))


def test_adam_weight_decay_three_steps():
    def update(t, params, grads, state, lr=0.1, beta1=0.9, beta2=0.999, eps=1e-6, wd=0.01):
        beta1, beta2 = np.float32(beta1), np.float32(beta2)
        new = []
        for i, (p, g) in enumerate(zip(params, grads)):
            m, v = state.get(i, (0.0, 0.0))
            m = beta1 * m + (1 - beta1) * g
            v = beta2 * v + (1 - beta2) * g * g
            state[i] = (m, v)
            new.append(p - lr * (m / (np.sqrt(v) + eps) + wd * p))
        return new
    history = train_three_steps(lambda net: nn.AdamWeightDecay(net.trainable_params(), 0.1,
                                                               weight_decay=0.01))
    assert_same(history, reference(update))


# -- MindSpore's worked example (semantics 8.4) -------------------------------------------

def _momentum_on_vector(steps, **kwargs):
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    opt = nn.Momentum([w], 0.1, 0.9, **kwargs)
    g = (Tensor(np.array([0.5, -1.0], np.float32)),)
    results = [opt(g) for _ in range(steps)]
    return w.asnumpy(), opt.moments[0].asnumpy(), results


def test_momentum_semantics_figures():
    w, v, results = _momentum_on_vector(3)
    np.testing.assert_allclose(w, [0.7195, 2.561], rtol=1e-6)
    np.testing.assert_allclose(v, [1.355, -2.71], rtol=1e-6)
    assert results[0] == (True,)
    w, v, _ = _momentum_on_vector(1, weight_decay=0.01)
    np.testing.assert_allclose(w, [0.949, 2.098], rtol=1e-6)
    np.testing.assert_allclose(v, [0.51, -0.98], rtol=1e-6)
    w, _, _ = _momentum_on_vector(1, loss_scale=2.0)
    np.testing.assert_allclose(w, [0.975, 2.05], rtol=1e-6)


def test_weight_decay_skips_beta_and_gamma_names():
    gamma = Parameter(Tensor(np.ones(2, np.float32)), name="bn.gamma")
    weight = Parameter(Tensor(np.ones(2, np.float32)), name="fc.weight")
    opt = nn.Momentum([gamma, weight], 0.1, 0.0, weight_decay=0.5)
    zeros = Tensor(np.zeros(2, np.float32))
    opt((zeros, zeros))
    np.testing.assert_allclose(gamma.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(weight.asnumpy(), [0.95, 0.95])


# -- names, order and return values ------------------------------------------------------------

@pytest.mark.parametrize("factory, names", [
    (lambda p: nn.Momentum(p, 0.1, 0.9),
     ["global_step", "learning_rate", "weight", "bias", "momentum", "moments.weight",
      "moments.bias"]),
    (lambda p: nn.SGD(p, 0.1, 0.9),
     ["global_step", "learning_rate", "weight", "bias", "momentum", "accum.weight", "accum.bias",
      "stat.weight", "stat.bias"]),
    (lambda p: nn.Adam(p, 0.1),
     ["global_step", "learning_rate", "weight", "bias", "beta1_power", "beta2_power",
      "moment1.weight", "moment1.bias", "moment2.weight", "moment2.bias"]),
    (lambda p: nn.AdamWeightDecay(p, 0.1),
     ["global_step", "learning_rate", "weight", "bias", "adam_m.weight", "adam_m.bias",
      "adam_v.weight", "adam_v.bias"]),
])
def test_state_parameter_names_and_order(factory, names):
    opt = factory(dense_net().trainable_params())
    assert [p.name for p in opt.get_parameters()] == names
    assert opt.global_step.shape == (1,) and opt.global_step.dtype is ms.int32
    assert opt.learning_rate.shape == () and opt.learning_rate.dtype is ms.float32
    grads = tuple(Tensor(np.ones(p.shape, np.float32)) for p in opt.parameters)
    assert opt(grads) == (True, True)
    assert int(opt.global_step.asnumpy()[0]) == 1


def test_optimizer_is_a_cell_that_keeps_names():
    net = dense_net()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    assert [p.name for p in step.get_parameters()] == [
        "weight", "bias", "global_step", "learning_rate", "momentum", "moments.weight",
        "moments.bias"]


# -- learning rates -------------------------------------------------------------------------

def test_list_learning_rate_is_one_rate_per_step():
    w = Parameter(Tensor(np.zeros(1, np.float32)), name="w")
    opt = nn.SGD([w], learning_rate=[0.1, 0.2, 0.3])
    assert [p.name for p in opt.get_parameters()] == ["global_step", "w", "momentum", "accum.w",
                                                      "stat.w", "learning_rate"]
    g = (Tensor(np.ones(1, np.float32)),)
    for expected in (-0.1, -0.3, -0.6):
        opt(g)
        np.testing.assert_allclose(w.asnumpy(), [expected], rtol=1e-6)
    with pytest.raises(RuntimeError, match="Gather"):
        opt(g)                                                 # past the end, as in MindSpore


def test_schedule_learning_rate():
    w = Parameter(Tensor(np.zeros(1, np.float32)), name="w")
    opt = nn.SGD([w], learning_rate=nn.ExponentialDecayLR(0.1, 0.9, 4))
    g = (Tensor(np.ones(1, np.float32)),)
    rates = []
    for _ in range(3):
        rates.append(float(opt.get_lr()))
        opt(g)
    np.testing.assert_allclose(rates, [0.1 * 0.9 ** (t / 4) for t in range(3)], rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy(), [-sum(rates)], rtol=1e-6)


@pytest.mark.parametrize("schedule, formula", [
    (nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True), lambda t: 0.1 * 0.9 ** (t // 4)),
    (nn.NaturalExpDecayLR(0.1, 0.9, 4), lambda t: 0.1 * np.exp(-0.9 * t)),
    (nn.InverseDecayLR(0.1, 0.5, 2), lambda t: 0.1 / (1 + 0.5 * t / 2)),
    (nn.CosineDecayLR(0.01, 0.1, 5), lambda t: 0.01 + 0.045 * (1 + np.cos(np.pi * min(t, 5) / 5))),
    (nn.PolynomialDecayLR(0.1, 0.01, 5, 2.0), lambda t: 0.09 * (1 - min(t, 5) / 5) ** 2 + 0.01),
    (nn.WarmUpLR(0.1, 4), lambda t: 0.1 * min(t, 4) / 4),
])
def test_learning_rate_schedules(schedule, formula):
    for t in (0, 1, 3, 7):
        value = float(schedule(Tensor(np.array([t], np.int32))).asnumpy().reshape(()))
        np.testing.assert_allclose(value, formula(t), rtol=1e-5, atol=1e-7)


def test_parameter_groups():
    net = dense_net()
    opt = nn.Momentum([{"params": [net.weight], "weight_decay": 0.01, "lr": 0.5},
                       {"params": [net.bias]}], learning_rate=0.1, momentum=0.9)
    assert [p.name for p in opt.get_parameters()] == [
        "global_step", "learning_rate_group_0", "learning_rate", "weight", "bias", "momentum",
        "moments.weight", "moments.bias"]
    assert opt.is_group and opt.is_group_lr
    ones = (Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones(2, np.float32)))
    opt(ones)
    np.testing.assert_allclose(net.weight.asnumpy(), W0 - 0.5 * (1 + 0.01 * W0), rtol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), B0 - 0.1, rtol=1e-6)
    assert opt.get_lr_parameter(net.weight).name == "learning_rate_group_0"
    ordered = nn.Momentum([{"params": [net.bias]}, {"params": [net.weight]},
                           {"order_params": [net.weight, net.bias]}], 0.1, 0.9)
    assert [p.name for p in ordered.parameters] == ["weight", "bias"]


def test_gradient_centralization_in_a_group():
    w = Parameter(Tensor(np.zeros((2, 16), np.float32)), name="w")
    opt = nn.SGD([{"params": [w], "grad_centralization": True}], learning_rate=1.0)
    g = np.arange(32, dtype=np.float32).reshape(2, 16)
    opt((Tensor(g),))
    np.testing.assert_allclose(w.asnumpy(), -(g - g.mean(1, keepdims=True)))


def test_optimizer_errors():
    net = dense_net()
    with pytest.raises(ValueError, match="must not be empty"):
        nn.Momentum([], 0.1, 0.9)
    with pytest.raises(TypeError, match="'momentum' must be float"):
        nn.Momentum(net.trainable_params(), 0.1, 1)
    with pytest.raises(ValueError, match="at least 0.0"):
        nn.Momentum(net.trainable_params(), 0.1, -0.5)
    with pytest.raises(ValueError, match="non-negative"):
        nn.SGD(net.trainable_params(), -0.1)
    with pytest.raises(ValueError, match="'nesterov' is true"):
        nn.SGD(net.trainable_params(), 0.1, nesterov=True)
    with pytest.raises(ValueError, match="beta1"):
        nn.Adam(net.trainable_params(), beta1=1.0)
    with pytest.raises(KeyError, match="key in group params"):
        nn.Momentum([{"params": [net.weight], "momentum": 0.1}], 0.1, 0.9)
    with pytest.raises(RuntimeError, match="already exists"):
        nn.Momentum([{"params": [net.weight]}, {"params": [net.weight]}], 0.1, 0.9)
    with pytest.raises(ValueError, match="dimension of it should be 0 or 1"):
        nn.SGD(net.trainable_params(), Tensor(np.ones((2, 2), np.float32)))
