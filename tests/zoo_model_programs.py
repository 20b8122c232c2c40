"""Small programs exercising what model-zoo networks (mindspore-ai/models) need beyond the
patterns of ``tests/zoo_pattern_programs.py``: the layers, losses and training entry points
found missing or different while running zoo models on refms (Inception-v4's
``DenseBnAct`` head, CRNN's blank-padded ``CTCLoss`` labels and its ``Model`` around a
user training cell, Transformer's tied ``Parameter.value()``, GAT's
``cell_attr_register``, YOLO's ``tuple_to_array(range(n))`` grid, FastText's (1,)-shaped
sens for a scalar loss, TinyBERT's ``F.identity`` gradient reducer, ...).  Each is written
here as a self-contained script (none of the zoo's code).

``tests/recorders/record_zoo_models.py`` records what MindSpore 2.10 prints running each
(in its own process); ``tests/test_zoo_models.py`` replays them on refms.  Numbers are
printed to 4 decimals.
"""

from zoo_pattern_programs import PRELUDE

_HEADER = PRELUDE + """
def error_name(thunk):
    # (a thunk ends with asnumpy(): MindSpore's PyNative runs kernels asynchronously and
    # reports a kernel's error at the next synchronisation)
    try:
        thunk()
    except Exception as error:
        return type(error).__name__
    return "no error"


rng = np.random.default_rng(11)
"""

_BODIES = {
    # nn.DenseBnAct (Inception-v4's head: Dense, BatchNorm1d, LogSoftmax) and
    # nn.Conv2dBnAct; training steps move the BatchNorm statistics.
    "dense_bn_act": """
x = Tensor(rng.standard_normal((4, 6)).astype(np.float32))
images = Tensor(rng.standard_normal((2, 3, 5, 5)).astype(np.float32))
head = nn.DenseBnAct(6, 3, has_bn=True, activation="logsoftmax")
seeded(head)
print(sorted(name for name, _ in head.cells_and_names() if name))
print(head.has_bn, head.has_act, head.after_fake)
head.set_train(False)
show("eval", [head(x)])
step = nn.TrainOneStepCell(nn.WithLossCell(head, nn.NLLLoss()), nn.SGD(head.trainable_params(), 0.1))
labels = Tensor(np.array([0, 2, 1, 2], np.int32))
show("losses", [step(x, labels) for _ in range(2)])
show("moving", [head.batchnorm.moving_mean, head.batchnorm.moving_variance])
plain = nn.DenseBnAct(6, 2, activation="leakyrelu", alpha=0.3, after_fake=False)
seeded(plain, 1)
print(plain.has_bn, plain.after_fake, type(plain.activation).__name__)
show("plain", [plain(x)])
conv = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation=nn.ReLU6())
seeded(conv, 2)
conv.set_train(False)
show("conv", [conv(images)])
print("no bn attribute", not hasattr(nn.Conv2dBnAct(3, 4, 3), "batchnorm"),
      not hasattr(nn.DenseBnAct(3, 4), "batchnorm"))
print(error_name(lambda: nn.DenseBnAct(6, 2, activation=3)))
print(error_name(lambda: nn.DenseBnAct(6, 2, has_bn=1)))
print(error_name(lambda: nn.Conv2dBnAct(3, 4, 3, after_fake=0)))
print(error_name(lambda: nn.DenseBnAct(6, 2, activation="no_such")))
""",
    # Model(network) with neither loss nor optimizer: train calls the network on each
    # batch as it is (CRNN wraps its own TrainOneStepCell with gradient clipping).
    "model_around_a_training_cell": """
class ClippedStep(nn.Cell):
    def __init__(self, network, optimizer):
        super().__init__(auto_prefix=False)
        self.network, self.optimizer = network, optimizer
        self.weights = optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True)

    def construct(self, data, label):
        loss = self.network(data, label)
        grads = self.grad(self.network, self.weights)(data, label)
        grads = ops.clip_by_global_norm(grads, 0.5)
        self.optimizer(grads)
        return loss


class Record(ms.train.Callback):
    def on_train_step_end(self, run_context):
        show("step", [run_context.original_args().net_outputs])


net = nn.Dense(4, 3)
seeded(net)
data = {"x": rng.standard_normal((6, 4)).astype(np.float32),
        "y": np.array([0, 1, 2, 0, 1, 2], np.int32)}
with_loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
model = ms.Model(ClippedStep(with_loss, nn.Momentum(net.trainable_params(), 0.1, 0.9)))
dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(3)
model.train(2, dataset, callbacks=[Record()], dataset_sink_mode=False)
show("weights", [net.weight, net.bias])
""",
    # Parameter.value() as the zoo's Transformer ties its output projection to the
    # embedding table: a copy taken when called, through which gradients reach the table.
    "parameter_value_tied_weights": """
class Tied(nn.Cell):
    def __init__(self):
        super().__init__()
        self.table = ms.Parameter(Tensor(rng.standard_normal((7, 4)).astype(np.float32)),
                                  name="table")
        self.gather = ops.Gather()

    def construct(self, ids):
        hidden = self.gather(self.table, ids, 0)
        logits = ops.matmul(ops.tanh(hidden), self.table.value().T)
        return logits


net = Tied()
ids = Tensor(np.array([1, 3, 3, 6], np.int32))
labels = Tensor(np.array([2, 3, 0, 6], np.int32))
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
with_loss = nn.WithLossCell(net, loss_fn)
grads = ops.GradOperation(get_by_list=True)(with_loss, net.trainable_params())(ids, labels)
show("grad", grads)
step = nn.TrainOneStepCell(with_loss, nn.Adam(net.trainable_params(), 0.05))
show("losses", [step(ids, labels) for _ in range(3)])
show("table", [net.table])
snapshot = net.table.value()
ops.assign(net.table, ops.zeros((7, 4), ms.float32))
print(type(snapshot).__name__, float(snapshot.abs().sum()) > 0, float(net.table.abs().sum()))
""",
    # mindspore._extends.cell_attr_register (the zoo's GAT layers decorate __init__ with it):
    # the arguments the cell was built with, as a string.
    "cell_attr_register": """
from mindspore._extends import cell_attr_register


class Transform(nn.Cell):
    @cell_attr_register
    def __init__(self, in_channels, out_channels, has_bias=True, *, scale=1.0):
        super().__init__()
        self.dense = nn.Dense(in_channels, out_channels, has_bias=has_bias)
        self.scale = scale

    def construct(self, x):
        return self.dense(x) * self.scale


class Listed(nn.Cell):
    @cell_attr_register(attrs=["width", "missing"])
    def __init__(self, width):
        super().__init__()
        self.width = width

    def construct(self, x):
        return x * self.width


net = Transform(3, 2, scale=0.5)
print(net.cell_init_args)
print(Transform(4, 1, False).cell_init_args)
print(Listed(7).cell_init_args, Transform.__init__.__name__)
seeded(net)
show("out", [net(Tensor(np.ones((2, 3), np.float32))), Listed(3)(Tensor(np.ones(2, np.float32)))])
print(hasattr(nn.Cell(), "cell_init_args"))
try:
    cell_attr_register(attrs=3)(lambda self: None)(nn.Cell())
except ValueError as error:
    print("ValueError", error)
""",
    # A YOLO detection head: the cell grid built with ops.tuple_to_array(range(n)) from the
    # feature map's shape, box centres and sizes from it, trained a step.
    "yolo_grid_head": """
class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 2 * 5, 1, has_bias=True)
        self.anchors = Tensor([[2.0, 3.0], [4.0, 1.5]], ms.float32)

    def construct(self, x):
        out = self.conv(x)
        batch, _, rows, cols = ops.shape(out)
        pred = ops.transpose(ops.reshape(out, (batch, 2, 5, rows, cols)), (0, 3, 4, 1, 2))
        grid_x = ops.cast(ops.tuple_to_array(range(cols)), ms.float32)
        grid_y = ops.cast(ops.tuple_to_array(range(rows)), ms.float32)
        grid_x = ops.tile(ops.reshape(grid_x, (1, 1, -1, 1, 1)), (1, rows, 1, 1, 1))
        grid_y = ops.tile(ops.reshape(grid_y, (1, -1, 1, 1, 1)), (1, 1, cols, 1, 1))
        grid = ops.concat((grid_x, grid_y), -1)
        size = ops.cast(ops.tuple_to_array((cols, rows)), ms.float32)
        xy = (ops.sigmoid(pred[..., :2]) + grid) / size
        wh = ops.exp(pred[..., 2:4]) * self.anchors / size
        return ops.concat((xy, wh, ops.sigmoid(pred[..., 4:5])), -1)


head = Head()
seeded(head)
x = Tensor(rng.standard_normal((1, 3, 3, 4)).astype(np.float32))
out = head(x)
print(out.shape)
show("boxes", [out[0, :, :, 0]])
target = Tensor(rng.uniform(0, 1, out.shape).astype(np.float32))
step = nn.TrainOneStepCell(nn.WithLossCell(head, nn.MSELoss()), nn.SGD(head.trainable_params(), 0.5))
show("losses", [step(x, target) for _ in range(2)])
print(ops.tuple_to_array(range(2, 7, 2)), ops.tuple_to_array((True, False)).dtype)
""",
    # A training step that seeds a scalar loss with ops.tuple_to_array((sens,)), shape (1,),
    # as the zoo's FastText and Transformer steps do; then other sens shapes.
    "sens_of_another_shape": """
class Step(nn.Cell):
    def __init__(self, network, optimizer):
        super().__init__(auto_prefix=False)
        self.network, self.optimizer = network, optimizer
        self.weights = ms.ParameterTuple(network.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, x, y):
        loss = self.network(x, y)
        grads = self.grad(self.network, self.weights)(
            x, y, ops.cast(ops.tuple_to_array((1.0,)), ms.float32))
        self.optimizer(grads)
        return loss


net = nn.Dense(4, 3)
seeded(net)
x = Tensor(rng.standard_normal((5, 4)).astype(np.float32))
y = Tensor(np.array([0, 1, 2, 1, 0], np.int32))
loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
step = Step(loss_net, nn.SGD(net.trainable_params(), 0.5))
show("losses", [step(x, y) for _ in range(3)])


class Scaled(nn.Cell):
    def __init__(self, reshape):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")
        self.reshape = reshape

    def construct(self, v):
        out = (self.w * v).sum()
        if self.reshape:
            out = out.reshape((1,))
        return out


v = Tensor(np.array([1.0, 1.0, 2.0], np.float32))
for reshape, sens in ((False, (1, 1)), (False, (3,)), (True, (1, 1)), (True, (2,))):
    scaled = Scaled(reshape)
    grad = ops.GradOperation(get_by_list=True, sens_param=True)(scaled, scaled.trainable_params())
    seed = Tensor(np.arange(1, 1 + int(np.prod(sens)), dtype=np.float32).reshape(sens))
    try:
        show(f"{reshape} {sens}", grad(v, seed))
    except (ValueError, RuntimeError) as error:
        print(reshape, sens, type(error).__name__)
""",
    # F.identity as the no-op grad_reducer of the zoo's BERT-style steps (TinyBERT): it is
    # given the whole gradient tuple and returns it.
    "identity_grad_reducer": """
from mindspore.ops import functional as F


class Step(nn.Cell):
    def __init__(self, network, optimizer):
        super().__init__(auto_prefix=False)
        self.network, self.optimizer = network, optimizer
        self.weights = optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True)
        self.grad_reducer = F.identity

    def construct(self, x, y):
        loss = self.network(x, y)
        grads = self.grad(self.network, self.weights)(x, y)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return loss


net = nn.Dense(4, 2)
seeded(net)
x = Tensor(rng.standard_normal((3, 4)).astype(np.float32))
y = Tensor(rng.standard_normal((3, 2)).astype(np.float32))
step = Step(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
show("losses", [step(x, y) for _ in range(3)])
print(F.identity((1, 2.5)), F.identity(3))
show("tensor", [F.identity(x[0])])
""",
    # ops.CTCLoss as CRNN uses it: every sample's labels padded with the blank (the last
    # class) to a fixed length; the sparse values are read in order.
    "ctc_loss_padded_labels": """
steps, batch, classes = 6, 3, 5
logits = Tensor(rng.standard_normal((steps, batch, classes)).astype(np.float32))
padded = np.array([[1, 2, 4, 4], [3, 3, 0, 4], [4, 4, 4, 4]], np.int32)
indices = Tensor(np.array([[b, j] for b in range(batch) for j in range(4)], np.int64))
values = Tensor(padded.reshape(-1))
lengths = Tensor(np.array([6, 6, 5], np.int32))
for collapse, merge in ((False, True), (True, True), (False, False)):
    ctc = ops.CTCLoss(preprocess_collapse_repeated=collapse, ctc_merge_repeated=merge)
    loss, grad = ctc(logits, indices, values, lengths)
    show(f"loss {collapse} {merge}", [loss])
    show(f"grad {collapse} {merge}", [grad])


class PaddedCTC(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ctc = ops.CTCLoss()

    def construct(self, x, label):
        return self.ctc(x, indices, label.reshape((-1,)), lengths)[0].mean()


show("value and grad", ms.value_and_grad(PaddedCTC())(logits, Tensor(padded)))
# positions in labels_indices are not read: only the sample column counts values
swapped = Tensor(np.array([[0, 1], [0, 0], [1, 0]], np.int64))
show("order", [ops.CTCLoss()(logits, swapped, Tensor(np.array([2, 1, 3], np.int32)),
                             lengths)[0]])
# a label longer than the frames allow: an error, or loss inf and gradient 0 when ignored
long_values = Tensor(np.array([1, 2, 1, 2, 1, 2, 1], np.int32))
long_indices = Tensor(np.array([[0, j] for j in range(7)], np.int64))
print(error_name(lambda: ops.CTCLoss()(logits, long_indices, long_values, lengths)[0].asnumpy()))
loss, grad = ops.CTCLoss(ignore_longer_outputs_than_inputs=True)(logits, long_indices,
                                                                 long_values, lengths)
print(loss.asnumpy()[0], np.abs(grad.asnumpy()[:, 0]).sum())
show("others", [loss[1:], grad[:, 1:]])
print(error_name(lambda: ops.CTCLoss()(logits, indices, Tensor(np.array(
    [1, 4, 2, 4, 3, 3, 0, 4, 4, 4, 4, 4], np.int32)), lengths)[0].asnumpy()))
print(error_name(lambda: ops.CTCLoss()(logits, indices, values, Tensor(np.array([6, 0, 5], np.int32)))[0].asnumpy()))
print(error_name(lambda: ops.CTCLoss()(logits, indices, values, Tensor(np.array([6, 1, 5], np.int32)))[0].asnumpy()))
print(error_name(lambda: ops.CTCLoss()(logits, indices, values, Tensor(np.array([6, 7, 5], np.int32)))[0].asnumpy()))
""",
}

PROGRAMS = {f"{name}_{mode.lower()}": _HEADER.format(mode=mode) + body
            for name, body in _BODIES.items() for mode in ("PYNATIVE_MODE", "GRAPH_MODE")}
