"""Seed 003: "网络搭建" (migration guide, MindSpore master of the 2.0 era).

A Markdown page that compares MindSpore with PyTorch.  PyTorch is not a
dependency of the suite: where an example prints both sides, the PyTorch lines
are dropped (recorded as edits) or, when the comparison itself is the point,
replaced by an independent numpy reference.  Some examples document behaviour
in prose rather than in printed output (``to_float``, lazy initializers,
``stop_gradient``, custom initialisation); their cases check exactly the
sentence quoted in ``documented``.
"""
import math

import numpy as np

from .. import compare
from ..case import PROPERTY, Edit, Page, Structured, Transcript, Uncased
from ._common import conv2d_reference

PAGE = Page(seed="003_ff90047c9720afb0.txt", title="网络搭建",
            english="Building a network (migration guide)", version="master (2.0 era)", compat="2.0")

NO_TORCH = "PyTorch is not a dependency of the suite; the PyTorch half of the comparison is dropped"

GRAD_TUPLE_2X = ("From MindSpore 2.1 `ms.grad(fn, grad_position=0)` returns a bare Tensor, not a "
                 "1-tuple (semantics 4.2), so 2.10 prints `dx [[0. 1. 0. 2. 0.] ...` (numpy form) "
                 "where the page prints `dx (Tensor(shape=[2, 5], ...),)`; the values agree. The page's "
                 "release and refms compat 2.0 print the tuple.")

MY_CELL_CLASS = '''\
class MyCell(nn.Cell):
    def __init__(self, forward_net):
        super(MyCell, self).__init__(auto_prefix=True)
        self.net = forward_net
        self.relu = ops.ReLU()

    def construct(self, x):
        y = self.net(x)
        return self.relu(y)
'''

MY_CELL = ("import mindspore.nn as nn\nimport mindspore.ops as ops\n\n" + MY_CELL_CLASS + '''
inner_net = nn.Conv2d(120, 240, 4, has_bias=False)
my_net = MyCell(inner_net)
print(my_net.trainable_params())
''')

SAMPLER_HEAD = '''\
import numpy as np
import mindspore as ms
import mindspore.nn as nn
import mindspore.ops as ops

ms.set_context(mode=ms.PYNATIVE_MODE)
ms.set_seed(1)

class MySampler(nn.Cell):
    # 自定义取样器，在每个batch选取max_num个大于0.5的值
    def __init__(self, max_num):
        super(MySampler, self).__init__()
        self.max_num = max_num

    def random_positive(self, x):
        # 三方库numpy的方法，选取大于0.5的位置
        pos = np.where(x > 0.5)[0]
        pos_indice = np.random.choice(pos, self.max_num)
        return pos_indice

    def construct(self, x):
        # 正向网络构造
        batch = x.shape[0]
        pos_value = []
        pos_indice = []
        for i in range(batch):
            a = x[i].asnumpy()
            pos_ind = self.random_positive(a)
            pos_value.append(ms.Tensor(a[pos_ind], ms.float32))
            pos_indice.append(ms.Tensor(pos_ind, ms.int32))
        pos_values = ops.stack(pos_value, axis=0)
        pos_indices = ops.stack(pos_indice, axis=0)
        print("pos_values forword", pos_values)
        print("pos_indices forword", pos_indices)
        return pos_values, pos_indices
'''

SAMPLER_RUN = '''
x = ms.Tensor(np.random.uniform(0, 3, (2, 5)), ms.float32)
print("x", x)
sampler = MySampler(3)
pos_values, pos_indices = sampler(x)
grad = ms.grad(sampler, grad_position=0)(x)
print("dx", grad)
'''

SAMPLER_BPROP = '''
    def bprop(self, x, out, dout):
        # 反向网络构造
        pos_indices = out[1]
        print("pos_indices backward", pos_indices)
        grad_x = dout[0]
        print("grad_x backward", grad_x)
        batch = x.shape[0]
        dx = []
        for i in range(batch):
            dx.append(ops.UnsortedSegmentSum()(grad_x[i], pos_indices[i], x.shape[1]))
        return ops.stack(dx, axis=0)

x = ms.Tensor(np.random.uniform(0, 3, (2, 5)), ms.float32)
print("x", x)
sampler = MySampler(3).set_grad()
pos_values, pos_indices = sampler(x)
grad = ms.grad(sampler, grad_position=0)(x)
print("dx", grad)
'''

NETWORK = '''\
class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.SequentialCell([
            nn.Conv2d(3, 12, kernel_size=3, pad_mode='pad', padding=1),
            nn.BatchNorm2d(12),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2)
        ])
        self.layer2 = nn.SequentialCell([
            nn.Conv2d(12, 4, kernel_size=3, pad_mode='pad', padding=1),
            nn.BatchNorm2d(4),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2)
        ])
        self.pool = nn.AdaptiveMaxPool2d((5, 5))
        self.fc = nn.Dense(100, 10)

    def construct(self, x):
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.pool(x)
        x = x.view((-1, 100))
        out = nn.Dense(x)
        return out
'''


def _define(ms, source, names):
    """Run a class definition from the page with ``nn``/``ops``/``ms`` bound to the implementation."""
    namespace = {"ms": ms, "nn": ms.nn, "ops": ms.ops, "np": np, "math": math}
    exec(compile(source, f"<{PAGE.seed}>", "exec"), namespace)  # noqa: S102 - the page's own code
    return [namespace[name] for name in names]


def _my_cell_with(ms, conv):
    """The page's ``MyCell`` around ``conv``, with the conv weight set to 0.1 as the page does."""
    nn = ms.nn
    (my_cell,) = _define(ms, MY_CELL_CLASS, ["MyCell"])
    my_net = my_cell(conv)
    for _, cell in my_net.cells_and_names():
        if isinstance(cell, nn.Conv2d):
            cell.weight.set_data(ms.common.initializer.initializer(0.1, cell.weight.shape, cell.weight.dtype))
    return my_net


def _torch_stand_in(x):
    """What ``torch.nn.Conv2d(120, 240, kernel_size=4, bias=False)`` with weight 0.1, then ReLU, computes.

    All 240 output channels are equal (constant weight), so one is computed and repeated.
    """
    one = conv2d_reference(x, np.full((1, 120, 4, 4), 0.1))
    return np.maximum(np.repeat(one, 240, axis=1), 0)


def _conv_default_pad_mode(ms, check):
    """单元测试 (first try): MindSpore's default pad_mode 'same' keeps 12x12, PyTorch's default gives 9x9."""
    inner_net = ms.nn.Conv2d(120, 240, 4, has_bias=False)
    my_net = _my_cell_with(ms, inner_net)
    x = np.random.uniform(-1, 1, (2, 120, 12, 12)).astype(np.float32)
    y_ms = my_net(ms.Tensor(x))
    y_pt = _torch_stand_in(x)
    check.shape(y_ms, (2, 240, 12, 12), "MindSpore output")
    error = check.raises("ValueError", lambda: np.max(np.abs(y_ms.asnumpy() - y_pt)),
                         "diff = np.max(np.abs(y_ms.asnumpy() - y_pt...))")
    if error is not None:
        check.text(str(error), "operands could not be broadcast together with shapes (2,240,12,12) (2,240,9,9)",
                   "the documented error")


def _conv_pad_mode_pad(ms, check):
    """单元测试 (pad_mode="pad"): the outputs agree to about 1e-4."""
    inner_net = ms.nn.Conv2d(120, 240, 4, has_bias=False, pad_mode="pad")
    my_net = _my_cell_with(ms, inner_net)
    x = np.random.uniform(-1, 1, (2, 120, 12, 12)).astype(np.float32)
    y_ms = my_net(ms.Tensor(x))
    check.shape(y_ms, (2, 240, 9, 9), "MindSpore output")
    check.dtype(y_ms, "Float32", "MindSpore output")
    diff = float(np.max(np.abs(y_ms.asnumpy() - _torch_stand_in(x))))
    check.note(f"diff = {diff:.8g} (the page printed 2.9355288e-06)")
    check.true(diff <= 1e-4, f"diff {diff:.3g} exceeds the page's 'about 1e-4' (万分之一左右)")


def _to_float(ms, check):
    """手动混合精度: the page's code, then the effect its text describes."""
    nn = ms.nn
    (network,) = _define(ms, NETWORK, ["Network"])
    net = network()
    net.to_float(ms.float16)  # 将net里所有的操作加float16的标志，框架会在编译时在输入加cast方法
    for _, cell in net.cells_and_names():
        if isinstance(cell, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
            cell.to_float(ms.float32)

    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean').to_float(ms.float32)
    net_with_loss = nn.WithLossCell(net, loss_fn=loss)
    check.true(net_with_loss is not None, "WithLossCell was not built")

    x = ms.Tensor(np.random.uniform(0, 1, (2, 3, 20, 20)).astype(np.float32))
    conv_out = net.layer1[0](x)
    check.dtype(conv_out, "Float16", "Conv2d under to_float(float16)")
    check.dtype(net.layer1[1](conv_out), "Float32", "BatchNorm2d set back to float32")
    features = net.pool(net.layer2(net.layer1(x)))
    check.dtype(features, "Float16", "the rest of the network")
    logits = net.fc(features.view((-1, 100)))
    check.dtype(logits, "Float16", "Dense under to_float(float16)")
    value = loss(logits, ms.Tensor(np.array([1, 2], np.int32)))
    check.dtype(value, "Float32", "loss set to float32")
    check.dtype(net.layer1[0].weight, "Float32", "a Parameter keeps its stored dtype")


def _initializer_lazy(ms, check):
    """参数初始化API对比: ``initializer(Uniform(), [1, 2, 3], float32)`` is lazy; init_data fills U(-0.07, 0.07)."""
    initializer, uniform = ms.common.initializer.initializer, ms.common.initializer.Uniform
    x = initializer(uniform(), [1, 2, 3], ms.float32)
    check.shape(x, (1, 2, 3))
    check.dtype(x, "Float32")
    check.true(x.has_init, "x is already initialised; the page says it is not until init_data()")
    x.init_data()
    check.true(not x.has_init, "x.has_init is still True after init_data()")
    check.bounds(x.asnumpy(), -0.07, 0.07, "Uniform() (default scale 0.07)")


def _initializer_lazy_semantics(ms, check):
    """The page: an uninitialised x computes as 0, and printing it calls init_data()."""
    initializer, uniform = ms.common.initializer.initializer, ms.common.initializer.Uniform
    x = initializer(uniform(), [1, 2, 3], ms.float32)
    y = x + 1
    check.text(str(y), "[[[1. 1. 1.]\n  [1. 1. 1.]]]", "x + 1 with x treated as 0")
    printed = str(x)
    try:
        values = compare.parse_printed_array(printed)
    except ValueError:
        check.true(False, f"print(x) shows {printed!r}, not initialised values")
        return
    check.bounds(values, -0.07, 0.07, "print(x) after auto init_data()")


def _custom_init(ms, check):
    """自定义初始化参数: the page's loop over cells_and_names() sets each parameter's distribution."""
    nn = ms.nn
    (network,) = _define(ms, NETWORK, ["Network"])
    net = network()
    for _, cell in net.cells_and_names():
        if isinstance(cell, nn.Conv2d):
            cell.weight.set_data(ms.common.initializer.initializer(
                ms.common.initializer.HeNormal(negative_slope=0, mode='fan_out', nonlinearity='relu'),
                cell.weight.shape, cell.weight.dtype))
        elif isinstance(cell, (nn.BatchNorm2d, nn.GroupNorm)):
            cell.gamma.set_data(ms.common.initializer.initializer("ones", cell.gamma.shape, cell.gamma.dtype))
            cell.beta.set_data(ms.common.initializer.initializer("zeros", cell.beta.shape, cell.beta.dtype))
        elif isinstance(cell, (nn.Dense)):
            cell.weight.set_data(ms.common.initializer.initializer(
                ms.common.initializer.HeUniform(negative_slope=math.sqrt(5)),
                cell.weight.shape, cell.weight.dtype))
            cell.bias.set_data(ms.common.initializer.initializer("zeros", cell.bias.shape, cell.bias.dtype))

    for name, conv in (("layer1.0", net.layer1[0]), ("layer2.0", net.layer2[0])):
        w = conv.weight.asnumpy().astype(np.float64)
        out_channels, _, kh, kw = w.shape
        sigma = math.sqrt(2.0 / (out_channels * kh * kw))   # HeNormal, fan_out, ReLU gain sqrt(2)
        check.bounds(w, -6 * sigma, 6 * sigma, f"{name}.weight HeNormal(sigma={sigma:.4f})")
        check.true(0.8 * sigma <= w.std() <= 1.2 * sigma,
                   f"{name}.weight: sample std {w.std():.4f} is not HeNormal's {sigma:.4f} (+-20%)")
    for bn in (net.layer1[1], net.layer2[1]):
        check.true(np.all(bn.gamma.asnumpy() == 1) and np.all(bn.beta.asnumpy() == 0),
                   "BatchNorm gamma/beta are not ones/zeros")
    dense_w = net.fc.weight.asnumpy()
    bound = math.sqrt(2.0 / (1 + 5)) * math.sqrt(3.0 / 100)     # HeUniform gain * sqrt(3 / fan_in) = 0.1
    check.bounds(dense_w, -bound, bound, f"fc.weight HeUniform(sqrt(5)) bound {bound:.3f}")
    check.true(np.abs(dense_w).max() > bound / 2, "fc.weight does not fill its HeUniform range")
    check.true(np.all(net.fc.bias.asnumpy() == 0), "fc.bias is not zeros")


def _stop_gradient(ms, check):
    """参数冻结: ``a = A(x); a = ops.stop_gradient(a); y = B(a)`` cuts the gradient through A."""
    ops = ms.ops

    def A(x):
        return x * 3

    def B(a):
        return a * a

    def net(x):
        a = A(x)
        a = ops.stop_gradient(a)
        y = B(a)
        return y

    def net_without_stop(x):
        return B(A(x))

    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    check.text(str(net(x)), "[ 9. 36.]", "forward value unchanged by stop_gradient")
    check.text(str(ops.GradOperation()(net)(x)), "[0. 0.]", "gradient through stop_gradient")
    check.text(str(ops.GradOperation()(net_without_stop)(x)), "[18. 36.]", "gradient without it")


def _checkpoint(ms, check):
    """参数保存和加载: save_checkpoint / load_checkpoint / load_param_into_net on nn.Dense(2, 1)."""
    nn, ops = ms.nn, ms.ops
    net = nn.Dense(2, 1, has_bias=True)
    before = [(param.name, param.data.asnumpy().copy()) for param in net.get_parameters()]
    check.true([name for name, _ in before] == ["weight", "bias"],
               f"parameter names {[name for name, _ in before]} (documented: weight, bias)")
    limit = math.sqrt(1 / 2)   # the page: U(-sqrt(k), sqrt(k)), k = 1/in_features
    for name, value in before:
        check.bounds(value, -limit, limit, f"initial {name}")

    ms.save_checkpoint(net, "dense.ckpt")
    dense_params = ms.load_checkpoint("dense.ckpt")
    check.text(str(dense_params),
               "{'weight': Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
               "'bias': Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)}",
               "print(dense_params)")
    new_params = {}
    for param_name in dense_params:
        saved = dict(before).get(param_name)
        loaded = dense_params[param_name].data.asnumpy()
        check.true(saved is not None and np.array_equal(saved, loaded),
                   f"{param_name}: loaded {loaded} != saved {saved}")
        new_params[param_name] = ms.Parameter(ops.ones_like(dense_params[param_name].data), name=param_name)

    ms.load_param_into_net(net, new_params)
    after = "\n".join(f"{param.name} {param.data.asnumpy()}" for param in net.get_parameters())
    check.text(after, "weight [[1. 1.]]\nbias [1.]", "after load_param_into_net")


def _uniform_seed_properties(stdouts):
    """随机种子: two calls in one program differ; running the program again repeats them."""
    problems = []
    runs = []
    for out in stdouts:
        try:
            runs.append(compare.parse_printed_arrays(out))
        except ValueError as error:
            return [f"output is not four printed arrays: {error}: {out!r}"]
    for arrays in runs:
        if len(arrays) != 4:
            return [f"printed {len(arrays)} arrays, the page prints 4"]
        for array in arrays:
            problems += compare.check_shape(array.shape, (1, 4))
            problems += compare.check_bounds(array, 1.0, 2.0, "ops.uniform(minval=1, maxval=2)")
            if array.max() >= 2.0:
                problems.append("ops.uniform reached maxval, which is excluded")
        if np.array_equal(arrays[0], arrays[1]):
            problems.append("the second call repeated the first ('A2' must differ from 'A1')")
    if compare.normalise_whitespace(stdouts[0]) != compare.normalise_whitespace(stdouts[1]):
        problems.append("running the program again gave different values (the page: it repeats them)")
    return problems


CASES = [
    Transcript(
        id="network_20.cell_param_naming", page=PAGE, section="网络基本构成单元 Cell", area="cells",
        script=MY_CELL,
        expected="[Parameter (name=net.weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]\n"),
    Transcript(
        id="network_20.cell_auto_prefix_false", page=PAGE, section="网络基本构成单元 Cell", area="cells",
        script=MY_CELL,
        edits=(Edit("auto_prefix=True", "auto_prefix=False",
                    "the page's next paragraph: with auto_prefix=False the printed name is `weight`"),),
        expected="[Parameter (name=weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]\n",
        notes="Documented in prose: 如果auto_prefix设置为False，则上面这个例子中打印的Parameter的name是weight."),
    Structured(
        id="network_20.conv_default_pad_mode", page=PAGE, section="单元测试", area="cells",
        body=_conv_default_pad_mode,
        documented="# ValueError: operands could not be broadcast together with shapes (2,240,12,12) (2,240,9,9)",
        notes="PyTorch's side (Conv2d without padding, weight 0.1) is computed by a numpy direct "
              "convolution; the documented error is numpy's, raised by the page's own `diff` line."),
    Structured(
        id="network_20.conv_pad_mode_pad", page=PAGE, section="单元测试", area="cells",
        body=_conv_pad_mode_pad, tier=PROPERTY,
        documented="2.9355288e-06 (整体误差在万分之一左右)",
        notes="The input is unseeded np.random.uniform, so the difference itself is random: checked "
              "are the shape (2, 240, 9, 9) and a difference of at most 1e-4 from a float64 numpy "
              "convolution standing in for PyTorch."),
    Structured(
        id="network_20.to_float", page=PAGE, section="Cell常用的方法介绍 / 手动混合精度", area="mixed-precision",
        body=_to_float,
        documented="prose: 如果 dst_type 是 ms.float16，Cell的所有输入(包括作为常量的input，Parameter，Tensor)"
                   "都会被转换为float16 … 将一个网络里所有的BN和loss改成float32类型，其余操作是float16类型",
        notes="The page's code builds the network (its construct, `nn.Dense(x)`, is never called); the "
              "case then calls the sub-cells and checks the dtypes the text describes."),
    Structured(
        id="network_20.initializer_lazy", page=PAGE, section="参数初始化 / 参数初始化API对比", area="init",
        body=_initializer_lazy, tier=PROPERTY,
        documented="prose: 只有在调用了 init_data() 之后，才会使用指定的 init 来初始化Tensor的数据",
        notes="Uniform() draws from U(-0.07, 0.07): shape, dtype, laziness and bounds are checked."),
    Structured(
        id="network_20.initializer_lazy_semantics", page=PAGE, section="参数初始化 / 参数初始化API对比", area="init",
        body=_initializer_lazy_semantics,
        documented="prose: 如果此时 x 被用来计算，将会作为0来处理。然而，在打印时，会自动调用 init_data()",
        differs_in="2.10",
        later="MindSpore 2.10 raises RuntimeError ('The Tensor ... is uninitialized') when a lazy "
              "tensor is used in an op, and str(x) prints `<uninitialized>` (semantics 2.4, 1.4)."),
    Structured(
        id="network_20.custom_init", page=PAGE, section="参数初始化 / 自定义初始化参数", area="init",
        body=_custom_init, tier=PROPERTY,
        documented="no printed output: the loop sets HeNormal(fan_out, relu) conv weights, ones/zeros "
                   "BatchNorm gamma/beta, HeUniform(sqrt(5)) dense weights and zero dense biases",
        notes="Random initialisers: each parameter's distribution is checked (bounds, spread)."),
    Transcript(
        id="network_20.param_freeze", page=PAGE, section="参数冻结", area="cells",
        script='''\
import mindspore.nn as nn

net = nn.Dense(2, 1, has_bias=True)
print(net.trainable_params())

for param in net.trainable_params():
    param_name = param.name
    if "bias" in param_name:
        param.requires_grad = False
print(net.trainable_params())
''',
        expected='''\
[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)]
[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True)]
'''),
    Structured(
        id="network_20.stop_gradient", page=PAGE, section="参数冻结", area="autodiff",
        body=_stop_gradient,
        documented="prose: stop_gradient会直接截断反向梯度 (a = A(x); a = ops.stop_gradient(a); y = B(a))",
        notes="The page's fragment with A(x) = 3x and B(a) = a*a."),
    Structured(
        id="network_20.checkpoint", page=PAGE, section="参数保存和加载", area="checkpoints",
        body=_checkpoint, tier=PROPERTY,
        documented='''\
weight [[-0.0042482  -0.00427286]]
bias [0.]
{'weight': Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), 'bias': Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)}
weight [[-0.0042482  -0.00427286]]
bias [0.]
weight [[1. 1.]]
bias [1.]''',
        notes="The first values are unseeded initial weights: checked by the page's own stated "
              "distribution U(-sqrt(k), sqrt(k)), k = 1/in_features, and by the save/load round "
              "trip; the loaded dictionary's print and the values after load_param_into_net are "
              "checked exactly.",
        later="The page's `bias [0.]` and weight of order 0.004 come from a release with the r1.x "
              "defaults (Normal(0.01) weight, zero bias); 2.x draws a Uniform bias (semantics "
              "8.2). Both lie inside the checked bounds."),
    Transcript(
        id="network_20.sampler_twice_forward", page=PAGE, section="自定义反向", area="bprop",
        script=SAMPLER_HEAD + SAMPLER_RUN,
        expected='''\
x [[1.2510660e+00 2.1609735e+00 3.4312444e-04 9.0699774e-01 4.4026768e-01]
 [2.7701578e-01 5.5878061e-01 1.0366821e+00 1.1903024e+00 1.6164502e+00]]
pos_values forword [[0.90699774 2.1609735  0.90699774]
 [0.5587806  1.6164502  0.5587806 ]]
pos_indices forword [[3 1 3]
 [1 4 1]]
pos_values forword [[0.90699774 1.251066   2.1609735 ]
 [1.1903024  1.1903024  0.5587806 ]]
pos_indices forword [[3 0 1]
 [3 3 1]]
dx (Tensor(shape=[2, 5], dtype=Float32, value=
[[0.00000000e+000, 0.00000000e+000, 0.00000000e+000, 0.00000000e+000, 0.00000000e+000],
 [0.00000000e+000, 0.00000000e+000, 0.00000000e+000, 0.00000000e+000, 0.00000000e+000]]),)
''',
        differs_in="2.1",
        later=GRAD_TUPLE_2X),
    Transcript(
        id="network_20.sampler_set_grad", page=PAGE, section="自定义反向", area="bprop",
        prelude=SAMPLER_HEAD + SAMPLER_RUN,
        script='''\
x = ms.Tensor(np.random.uniform(0, 3, (2, 5)), ms.float32)
print("x", x)
sampler = MySampler(3).set_grad()
pos_values, pos_indices = sampler(x)
grad = ms.grad(sampler, grad_position=0)(x)
print("dx", grad)
''',
        expected='''\
x [[1.2519144  1.6760695  0.42116082 0.59430444 2.4022336 ]
 [2.9047847  0.9402725  2.076968   2.6291676  2.68382   ]]
pos_values forword [[1.2519144 1.2519144 1.6760695]
 [2.6291676 2.076968  0.9402725]]
pos_indices forword [[0 0 1]
 [3 2 1]]
dx (Tensor(shape=[2, 5], dtype=Float32, value=
[[0.00000000e+000, 0.00000000e+000, 0.00000000e+000, 0.00000000e+000, 0.00000000e+000],
 [0.00000000e+000, 0.00000000e+000, 0.00000000e+000, 0.00000000e+000, 0.00000000e+000]]),)
''',
        notes="Continues the previous block in the same program (its numpy random stream), so that "
              "block runs first as the prelude.",
        differs_in="2.1",
        later=GRAD_TUPLE_2X),
    Transcript(
        id="network_20.sampler_bprop", page=PAGE, section="自定义反向", area="bprop",
        script=SAMPLER_HEAD + SAMPLER_BPROP,
        expected='''\
x [[1.2510660e+00 2.1609735e+00 3.4312444e-04 9.0699774e-01 4.4026768e-01]
 [2.7701578e-01 5.5878061e-01 1.0366821e+00 1.1903024e+00 1.6164502e+00]]
pos_values forword [[0.90699774 2.1609735  0.90699774]
 [0.5587806  1.6164502  0.5587806 ]]
pos_indices forword [[3 1 3]
 [1 4 1]]
pos_indices backward [[3 1 3]
 [1 4 1]]
grad_x backward [[1. 1. 1.]
 [1. 1. 1.]]
dx (Tensor(shape=[2, 5], dtype=Float32, value=
[[0.00000000e+000, 1.00000000e+000, 0.00000000e+000, 2.00000000e+000, 0.00000000e+000],
 [0.00000000e+000, 2.00000000e+000, 0.00000000e+000, 0.00000000e+000, 1.00000000e+000]]),)
''',
        differs_in="2.1",
        later=GRAD_TUPLE_2X),
    Transcript(
        id="network_20.masked_select", page=PAGE, section="动态shape规避策略 / 网络执行过程中有引发shape变化的操作",
        area="dynamic-shape",
        prelude='''\
import mindspore as ms
from mindspore import ops

ms.set_seed(1)

def box_select_ms(box, iou_score):
    mask = (iou_score > 0.3).expand_dims(1)
    return ops.masked_select(box, mask)
''',
        script='''\
import torch
import numpy as np
import mindspore as ms

ms.set_seed(1)

box = np.random.uniform(0, 1, (3, 4)).astype(np.float32)
iou_score = np.random.uniform(0, 1, (3,)).astype(np.float32)

print("box_select_ms", box_select_ms(ms.Tensor(box), ms.Tensor(iou_score)))
print("box_select_torch", box_select_torch(torch.from_numpy(box), torch.from_numpy(iou_score)))
''',
        edits=(Edit("import torch\n", "", NO_TORCH),
               Edit('print("box_select_torch", box_select_torch(torch.from_numpy(box), '
                    'torch.from_numpy(iou_score)))\n', "", NO_TORCH)),
        expected="box_select_ms [0.14675589 0.09233859 0.18626021 0.34556073]\n",
        notes="The page's second line, `box_select_torch tensor([[0.1468, ...]])`, is PyTorch's."),
    Transcript(
        id="network_20.topk_by_sort", page=PAGE, section="动态shape规避策略 / 网络执行过程中有引发shape变化的操作",
        area="dynamic-shape",
        prelude='''\
import mindspore as ms
from mindspore import ops
from mindspore import nn as ms_nn

class ClassLoss_ms(ms_nn.Cell):
    def __init__(self):
        super(ClassLoss_ms, self).__init__()
        self.con_loss = ms_nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="none")
        self.sort_descending = ops.Sort(descending=True)

    def construct(self, pred, label):
        mask = label > 0
        vaild_label = label * mask
        pos_num = ops.maximum(mask.sum() * 0.7, 1).astype(ms.int32)
        con = self.con_loss(pred, vaild_label.astype(ms.int32)) * mask
        con_sort, _ = self.sort_descending(con)
        con_k = con_sort[pos_num - 1]
        con_mask = (con >= con_k).astype(con.dtype)
        loss = con * con_mask
        return loss.sum() / con_mask.sum()
''',
        script='''\
import torch
import numpy as np
import mindspore as ms
ms.set_seed(1)

pred = np.random.uniform(0, 1, (5, 2)).astype(np.float32)
label = np.array([-1, 0, 1, 1, 0]).astype(np.int32)
print("pred", pred)
print("label", label)
t_loss = ClassLoss_pt()
cls_loss_pt = t_loss(torch.from_numpy(pred), torch.from_numpy(label))
print("cls_loss_pt", cls_loss_pt)
m_loss = ClassLoss_ms()
cls_loss_ms = m_loss(ms.Tensor(pred), ms.Tensor(label))
print("cls_loss_ms", cls_loss_ms)
''',
        edits=(Edit("import torch\n", "", NO_TORCH),
               Edit("t_loss = ClassLoss_pt()\n"
                    "cls_loss_pt = t_loss(torch.from_numpy(pred), torch.from_numpy(label))\n"
                    'print("cls_loss_pt", cls_loss_pt)\n', "", NO_TORCH)),
        expected='''\
pred [[4.17021990e-01 7.20324516e-01]
 [1.14374816e-04 3.02332580e-01]
 [1.46755889e-01 9.23385918e-02]
 [1.86260208e-01 3.45560730e-01]
 [3.96767467e-01 5.38816750e-01]]
label [-1  0  1  1  0]
cls_loss_ms 0.7207259
''',
        notes="The page's `cls_loss_pt tensor(0.7207)` line is PyTorch's and is not expected."),
    Transcript(
        id="network_20.control_flow_masked_select", page=PAGE,
        section="动态shape规避策略 / 控制流不同分支引入shape上的变化", area="dynamic-shape",
        script='''\
import numpy as np
import mindspore as ms
from mindspore import ops
np.random.seed(1)
x = ms.Tensor(np.random.uniform(0, 1, (10)).astype(np.float32))
cond = (x > 0.5).any()

if cond:
    y = ops.masked_select(x, x > 0.5)
else:
    y = ops.zeros_like(x)
print(x)
print(cond)
print(y)
''',
        expected='''\
[4.17021990e-01 7.20324516e-01 1.14374816e-04 3.02332580e-01
 1.46755889e-01 9.23385918e-02 1.86260208e-01 3.45560730e-01
 3.96767467e-01 5.38816750e-01]
True
[0.7203245  0.53881675]
'''),
    Transcript(
        id="network_20.control_flow_mask", page=PAGE,
        section="动态shape规避策略 / 控制流不同分支引入shape上的变化", area="dynamic-shape",
        script='''\
import numpy as np
import mindspore as ms
from mindspore import ops
np.random.seed(1)
x = ms.Tensor(np.random.uniform(0, 1, (10)).astype(np.float32))
cond = (x > 0.5).any()

if cond:
    mask = (x > 0.5).astype(x.dtype)
else:
    mask = ops.zeros_like(x)
y = x * mask
print(x)
print(cond)
print(y)
''',
        expected='''\
[4.17021990e-01 7.20324516e-01 1.14374816e-04 3.02332580e-01
 1.46755889e-01 9.23385918e-02 1.86260208e-01 3.45560730e-01
 3.96767467e-01 5.38816750e-01]
True
[0.         0.7203245  0.         0.         0.         0.
 0.         0.         0.         0.53881675]
'''),
    Transcript(
        id="network_20.random_seed", page=PAGE, section="随机数策略对比 / 随机种子和生成器", area="random",
        script='''\
# If a random op is called twice within one program, the two results will be different:
import mindspore as ms
from mindspore import Tensor, ops

minval = Tensor(1.0, ms.float32)
maxval = Tensor(2.0, ms.float32)
print(ops.uniform((1, 4), minval, maxval, seed=1))  # generates 'A1'
print(ops.uniform((1, 4), minval, maxval, seed=1))  # generates 'A2'
# If the same program runs again, it repeat the results:
print(ops.uniform((1, 4), minval, maxval, seed=1))  # generates 'A1'
print(ops.uniform((1, 4), minval, maxval, seed=1))  # generates 'A2'
''',
        tier=PROPERTY, runs=2, check=_uniform_seed_properties,
        expected="A1, A2 (two different (1, 4) draws in [1, 2)); the same two again when the program runs again",
        notes="The values come from the implementation's generator, so properties are checked: "
              "four (1, 4) arrays in [1, 2), the first two different, and a second run of the "
              "program printing exactly the same."),
]

UNCASED = [
    Uncased(PAGE, "单元测试", "`class MyCell_pt(torch_nn.Module)` … `print(i.shape)`",
            "PyTorch code; its output `torch.Size([240, 120, 4, 4])` is PyTorch's (the MindSpore "
            "weight shape is checked by network_20.cell_param_naming)"),
    Uncased(PAGE, "Cell常用的方法介绍 / 参数初始化 / 参数初始化API对比", "`torch.nn.init.uniform_(x)`",
            "PyTorch code, no output"),
    Uncased(PAGE, "动态shape规避策略 / 网络执行过程中有引发shape变化的操作", "`def box_select_torch`",
            "PyTorch code; the prelude of network_20.masked_select defines the MindSpore half"),
    Uncased(PAGE, "动态shape规避策略 / 网络执行过程中有引发shape变化的操作", "`def box_select_ms2`",
            "definition only, no output"),
    Uncased(PAGE, "动态shape规避策略 / 网络执行过程中有引发shape变化的操作", "`class ClassLoss_pt`",
            "PyTorch code; the MindSpore ClassLoss_ms is the prelude of network_20.topk_by_sort"),
    Uncased(PAGE, "随机数策略对比 / 随机种子和生成器", "`G = torch.Generator()`", "PyTorch code, no output"),
]
