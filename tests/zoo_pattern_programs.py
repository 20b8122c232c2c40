"""Small training programs in the style of the MindSpore model zoo (mindspore-ai/models):
the patterns its ResNet, MobileNetV2 and BERT scripts rely on, each written here as a
self-contained script for MindSpore (none of the zoo's code).

``tests/recorders/record_zoo_patterns.py`` records what MindSpore 2.10 prints running each
(in its own process); ``tests/test_zoo_patterns.py`` replays them on refms.  Numbers are
printed to 4 decimals, which the comparison checks to one unit in the last place.
"""

#: The opening every zoo-style program shares (also tests/zoo_model_programs.py): imports,
#: the mode, ``seeded`` (weights drawn from a seeded generator) and ``show`` (4 decimals).
PRELUDE = """
import sys
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.{mode})


def seeded(net, seed=0):
    rng = np.random.default_rng(seed)
    for param in net.get_parameters():
        shape = tuple(param.shape)
        if "gamma" in param.name or "variance" in param.name:
            value = 1.0 + 0.1 * np.abs(rng.standard_normal(shape))
        elif len(shape) > 1:
            value = rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))
        else:
            value = 0.1 * rng.standard_normal(shape)
        param.set_data(Tensor(value.astype(np.float32)))


def show(name, values):
    flat = np.concatenate([np.asarray(v.asnumpy() if isinstance(v, Tensor) else v,
                                      np.float64).ravel() for v in values])
    print(name, " ".join(f"{{v:.4f}}" for v in flat))

"""

_HEADER = PRELUDE + """
rng = np.random.default_rng(7)
x = rng.standard_normal((8, 4)).astype(np.float32)
y = (np.arange(8) % 3).astype(np.int32)
"""

_BODIES = {
    # ResNet's blocks: `if self.use_se:` on a constant, inside a library SequentialCell,
    # trained by TrainOneStepCell(WithLossCell(...)).
    "constant_if_block": """
class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.use_se = False
        self.dense = nn.Dense(4, 5)

    def construct(self, x):
        if self.use_se:
            x = self.dense(x) * 2
        else:
            x = self.dense(x)
        return x


net = nn.SequentialCell([Block(), nn.ReLU(), nn.Dense(5, 3)])
seeded(net)
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                           nn.Momentum(net.trainable_params(), 0.1, 0.9))
show("losses", [step(Tensor(x), Tensor(y)) for _ in range(3)])
show("params", net.get_parameters())
""",
    # Model.train of a network with BatchNorm: the moving statistics move once per step.
    "batchnorm_model_train": """
net = nn.SequentialCell([nn.Dense(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Dense(6, 3)])
seeded(net)
opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
data = ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
model.train(2, data, dataset_sink_mode=False)
show("params", net.get_parameters())
""",
    # An effect in construct (a print, a counter) under TrainOneStepCell and under a
    # module-level step cell that calls the network and then GradOperation of it: once a step.
    "effects_once_per_step": """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.calls = ms.Parameter(Tensor(0.0, ms.float32), name="calls", requires_grad=False)

    def construct(self, x):
        print("construct runs")
        ops.assign_add(self.calls, Tensor(1.0, ms.float32))
        return self.dense(x).sum()


class Step(nn.Cell):
    def __init__(self, net, opt):
        super().__init__()
        self.net, self.opt = net, opt
        self.weights = opt.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, x):
        loss = self.net(x)
        grads = self.grad(self.net, self.weights)(x, ops.ones_like(loss) * 2)
        self.opt(grads)
        return loss


for kind in ("library", "user"):
    net = Net()
    seeded(net)
    net.calls.set_data(Tensor(0.0, ms.float32))
    opt = nn.SGD(net.trainable_params(), 0.1)
    step = nn.TrainOneStepCell(net, opt) if kind == "library" else Step(net, opt)
    show(kind + " losses", [step(Tensor(x)) for _ in range(2)])
    show(kind + " calls", [net.calls])
    show(kind + " params", net.trainable_params())
""",
    # ModelCheckpoint's files: in GRAPH_MODE also <prefix>-graph.meta, written at the first
    # step whether or not a checkpoint is saved then.
    "checkpoint_files": """
import os
import tempfile

net = nn.Dense(4, 3)
model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                 nn.SGD(net.trainable_params(), 0.1))
data = ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
directory = tempfile.mkdtemp()
for steps in (100, 1):
    config = ms.train.CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=5)
    saver = ms.train.ModelCheckpoint(prefix="net", directory=directory, config=config)
    model.train(1, data, callbacks=[saver], dataset_sink_mode=False)
    print(sorted(os.listdir(directory)))
""",
    # An optimizer written against MindSpore's Optimizer base class, as the zoo's ViT/BERT
    # AdamW: update rules registered for Tensor weight decays, mapped with hyper_map_reverse
    # over decay_flags and optim_filter, broadcast_params; plus the base class's attributes.
    "custom_optimizer": """
_adam_opt = ops.MultitypeFuncGraph("adam_opt")


@_adam_opt.register("Tensor", "Tensor", "Tensor", "Tensor", "Tensor", "Tensor", "Tensor",
                    "Tensor", "Tensor", "Bool", "Bool")
def _update(beta1, beta2, eps, lr, weight_decay, param, m, v, gradient, decay_flag,
            optim_filter):
    if not optim_filter:
        return gradient
    next_m = beta1 * m + (1.0 - beta1) * gradient
    next_v = beta2 * v + (1.0 - beta2) * ops.square(gradient)
    update = next_m / (ops.sqrt(next_v) + eps)
    if decay_flag:
        update = update + weight_decay * param
    next_param = param - lr * update
    next_param = ops.depend(next_param, ops.assign(param, next_param))
    next_param = ops.depend(next_param, ops.assign(m, next_m))
    next_param = ops.depend(next_param, ops.assign(v, next_v))
    return next_param


class AdamW(nn.Optimizer):
    def __init__(self, params, learning_rate, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.beta1 = Tensor(np.array([0.9]).astype(np.float32))
        self.beta2 = Tensor(np.array([0.999]).astype(np.float32))
        self.eps = Tensor(np.array([1e-6]).astype(np.float32))
        self.moments1 = self.parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="adam_v", init="zeros")

    def construct(self, gradients):
        lr = self.get_lr()
        if self.is_group:
            result = self.hyper_map_reverse(
                ops.partial(_adam_opt, self.beta1, self.beta2, self.eps, lr),
                self.weight_decay, self.parameters, self.moments1, self.moments2, gradients,
                self.decay_flags, self.optim_filter)
        else:
            result = self.hyper_map_reverse(
                ops.partial(_adam_opt, self.beta1, self.beta2, self.eps, lr, self.weight_decay),
                self.parameters, self.moments1, self.moments2, gradients, self.decay_flags,
                self.optim_filter)
        if self.use_parallel:
            self.broadcast_params(result)
        return result


net = nn.SequentialCell([nn.Dense(4, 6), nn.ReLU(), nn.Dense(6, 3)])
seeded(net)
decayed = [p for p in net.trainable_params() if "bias" not in p.name]
other = [p for p in net.trainable_params() if "bias" in p.name]
for groups in (False, True):
    seeded(net)
    params = ([{"params": decayed, "weight_decay": 0.05}, {"params": other}] if groups
              else net.trainable_params())
    opt = AdamW(params, 0.01, weight_decay=0.0 if groups else 0.01)
    print(opt.optim_filter, opt.use_parallel, opt.decay_flags,
          [type(w).__name__ for w in (opt.weight_decay if groups else [opt.weight_decay])])
    show("weight decay", list(opt.get_weight_decay()) if groups else [opt.get_weight_decay()])
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    show("losses", [step(Tensor(x), Tensor(y)) for _ in range(3)])
    show("params", net.trainable_params())

order = []
ops.HyperMap(None, True)(lambda a: order.append(a) or a, (1, (2, 3)))
ops.Map(None, True)(lambda a: order.append(a) or a, [4, 5])
print(order)
""",
    # A custom Initializer in the DCGAN/VGG style, with the helpers MindSpore keeps private in
    # mindspore.common.initializer but the zoo imports.
    "custom_initializer": """
from mindspore.common.initializer import (Initializer, _assignment, _calculate_correct_fan,
                                          _calculate_fan_in_and_fan_out, _calculate_gain)


class SeededNormal(Initializer):
    def __init__(self, mean=0.0, sigma=0.01):
        super().__init__()
        self.mean, self.sigma = mean, sigma

    def _initialize(self, arr):
        np.random.seed(999)
        _assignment(arr, np.random.normal(self.mean, self.sigma, arr.shape))


print(_calculate_fan_in_and_fan_out((4, 3, 2, 2)), _calculate_correct_fan((4, 3, 2, 2), "fan_out"))
show("gains", [np.array([_calculate_gain("leaky_relu", 0.2), _calculate_gain("tanh"),
                         _calculate_gain("relu"), _calculate_gain("conv2d")])])
conv = nn.Conv2dTranspose(3, 2, 4, weight_init=SeededNormal(0.0, 0.02), has_bias=False)
bn = nn.BatchNorm2d(2, gamma_init=SeededNormal(1.0, 0.02))
show("weights", [conv.weight, bn.gamma])
print(_assignment(np.zeros(()), np.array(5.0)), _assignment(np.zeros((2,)), 3.0))
""",
    # GradOperation's sens against the network output's shape: in PyNative any difference is
    # an error (RuntimeError); a graph accepts a sens that broadcasts to the output (the
    # scalar loss scale of BERT's loss-scaling step against its (1,) loss).
    "sens_shape": """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0], np.float32)), name="w")

    def construct(self, x):
        return ops.cast((x * self.w).sum(), ms.float32) * Tensor(np.ones((1,), np.float32))


class Step(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.weights = ms.ParameterTuple(net.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, x, sens):
        return self.grad(self.net, self.weights)(x, sens)


net = Net()
step = Step(net)
show("matching", step(Tensor(x[0]), Tensor(np.array([3.0], np.float32))))
show("scalar", step(Tensor(x[0]), Tensor(3.0, ms.float32)))
""",
    # nn.CentralCrop (UNet's skip connections): centred crops, and its argument checks.
    "central_crop": """
image = Tensor(np.arange(2 * 3 * 7 * 9, dtype=np.float32).reshape(2, 3, 7, 9))
for fraction in (1.0, 0.5, 56.0 / 64.0, 0.1):
    crop = nn.CentralCrop(central_fraction=fraction)
    out = crop(image)
    print(fraction, out.shape)
    show("crop", [out.sum(), out[0, 0, 0]])
print(nn.CentralCrop(0.5)(image[0]).shape)
for bad in (0.0, 1.5, 1):
    try:
        nn.CentralCrop(bad)
    except (TypeError, ValueError) as error:
        print(repr(bad), type(error).__name__)
""",
    # A Python number as the first input of a comparison (SSD's loss: `self.less(0, label)`):
    # MindSpore 2.10 refuses it for Less, Equal and LogicalAnd, accepts it for the others.
    "scalar_first_input": """
t = Tensor(np.array([1.0, -2.0], np.float32))
for name in ("Less", "Equal", "LogicalAnd", "LessEqual", "Greater", "NotEqual", "Add",
             "Maximum"):
    try:
        show(name, [getattr(ops, name)()(0, t)])
    except TypeError:
        print(name, "TypeError")
for name in ("less", "equal", "greater"):
    try:
        show(name, [getattr(ops, name)(0, t)])
    except TypeError:
        print(name, "TypeError")


class Masked(nn.Cell):
    def __init__(self):
        super().__init__()
        self.less = ops.Less()

    def construct(self, label):
        return ops.cast(self.less(0, label), ms.float32)


try:
    show("masked", [Masked()(Tensor(np.array([0, 2, 1], np.int32)))])
except TypeError:
    print("masked TypeError")
""",
    # A lambda compiled by itself (jit in any mode, a gradient in GRAPH_MODE at top level)
    # must be defined on a line of its own: TypeError inside a call or a tuple, SyntaxError
    # when its line starts inside an open bracket.  Inside a compiled def it is fine.
    "lambda_inline_jit": """
show("out", [ms.jit(lambda a: a * 2)(Tensor(x[0]))])
""",
    "lambda_inline_grad": """
show("out", ms.value_and_grad(lambda a: (a * a).sum())(Tensor(x[0])))
""",
    "lambda_in_tuple": """
double, triple = (lambda a: a * 2), (lambda a: a * 3)
show("out", [ms.jit(triple)(Tensor(x[0]))])
""",
    "lambda_continued": """
grad = ms.grad(
    lambda a: (a * a).sum())
show("out", [grad(Tensor(x[0]))])
""",
    "lambda_own_line": """
double = lambda a: a * 2
square = lambda a: (a * a).sum()
show("out", [ms.jit(double)(Tensor(x[0])), ms.grad(square)(Tensor(x[0]))])


@ms.jit
def inner(a):
    return ms.grad(lambda b: (b * b * b).sum())(a)


show("inner", [inner(Tensor(x[0]))])
""",
}

PROGRAMS = {f"{name}_{mode.lower()}": _HEADER.format(mode=mode) + body
            for name, body in _BODIES.items() for mode in ("PYNATIVE_MODE", "GRAPH_MODE")}
