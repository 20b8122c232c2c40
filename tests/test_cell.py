"""Cell: registration, the naming rules of semantics 3.2, enumeration (3.3), modes (3.5),
``to_float`` (3.4 item 6) and ``set_grad`` forward reuse (6.3).

Every expected value was printed by MindSpore 2.10 for the same program.
"""
from collections import OrderedDict

import numpy as np
import pytest

import refms as ms
from refms import Parameter, ParameterTuple, Tensor, nn, ops


def names(cell):
    return [p.name for p in cell.get_parameters()]


def ones(*shape):
    return Tensor(np.ones(shape, np.float32))


class Wrap(nn.Cell):
    def __init__(self, net, auto_prefix=True):
        super().__init__(auto_prefix=auto_prefix)
        self.net = net

    def construct(self, x):
        return self.net(x)


class Named(nn.Cell):
    def __init__(self):
        super().__init__()
        self.z = Parameter(Tensor([1.0]), name="foo")


class Holder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.child = Named()


class Mid(nn.Cell):
    def __init__(self):
        super().__init__(auto_prefix=False)
        self.leaf = nn.Dense(2, 2)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mid = Mid()


class Seq(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 2)])
        self.fc = nn.SequentialCell(OrderedDict([("conv", nn.Dense(2, 2)), ("act", nn.ReLU())]))

    def construct(self, x):
        return self.fc(self.layer1(x))


class Late(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d = nn.Dense(2, 2)
        self.d.extra = Parameter(Tensor([1.0]), name="extra")


class BN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(2)


# -- 3.2 naming table ------------------------------------------------------------------------

NAMING_TABLE = [
    ("Conv2d alone", lambda: nn.Conv2d(120, 240, 4, has_bias=False), ["weight"]),
    ("adopted, auto_prefix", lambda: Wrap(nn.Conv2d(120, 240, 4)), ["net.weight"]),
    ("adopted, auto_prefix=False", lambda: Wrap(nn.Conv2d(120, 240, 4), auto_prefix=False),
     ["weight"]),
    ("nested twice", lambda: Wrap(Wrap(nn.Dense(2, 3))), ["net.net.weight", "net.net.bias"]),
    ("explicit name alone", Named, ["foo"]),
    ("explicit name nested", Holder, ["child.z"]),
    ("auto_prefix=False child alone", Mid, ["weight", "bias"]),
    ("auto_prefix=False child adopted", Outer, ["mid.leaf.weight", "mid.leaf.bias"]),
    ("SequentialCell numbering", Seq, ["layer1.0.weight", "layer1.0.bias", "layer1.2.weight",
                                       "layer1.2.bias", "fc.conv.weight", "fc.conv.bias"]),
    ("BatchNorm2d alone", lambda: nn.BatchNorm2d(2), ["mean", "variance", "gamma", "beta"]),
    ("BatchNorm2d nested", BN, ["bn.moving_mean", "bn.moving_variance", "bn.gamma", "bn.beta"]),
    ("parameter attached after adoption", Late, ["d.weight", "d.bias", "extra"]),
]


@pytest.mark.parametrize("build,expected", [row[1:] for row in NAMING_TABLE],
                         ids=[row[0] for row in NAMING_TABLE])
def test_naming_table(build, expected):
    assert names(build()) == expected


def test_the_adopted_cell_own_parameter_object_is_renamed():
    conv = nn.Conv2d(120, 240, 4, has_bias=False)
    my_net = Wrap(conv)
    assert conv.weight.name == "net.weight"
    assert repr(my_net.trainable_params()) == \
        "[Parameter (name=net.weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]"


def test_last_adoption_wins():
    dense = nn.Dense(2, 2)
    Wrap(dense)

    class Other(nn.Cell):
        def __init__(self):
            super().__init__()
            self.second = dense

    Other()
    assert names(dense) == ["second.weight", "second.bias"]


def test_auto_named_parameter_takes_the_attribute_name():
    class R(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor([1.0]))

    assert names(R()) == ["w"]


def test_parameter_tuple_members_are_renamed_with_a_dollar():
    class PT(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ps = ParameterTuple([Parameter(Tensor([1.0])), Parameter(Tensor([2.0]))])

    assert names(PT()) == ["Parameter$1", "Parameter$2"]


def test_insert_child_to_cell_does_not_rename():
    class I(nn.Cell):
        def __init__(self):
            super().__init__()
            self.insert_child_to_cell("sub", nn.Dense(2, 2))

        def construct(self, x):
            return self.sub(x)

    cell = I()
    assert names(cell) == ["weight", "bias"]
    assert [n for n, _ in cell.parameters_and_names()] == ["sub.weight", "sub.bias"]
    with pytest.raises(KeyError, match="can not contain '.'"):
        cell.insert_child_to_cell("a.b", nn.Dense(2, 2))
    with pytest.raises(TypeError, match="must be 'Cell'"):
        cell.insert_child_to_cell("c", 3)


def test_first_call_refreshes_colliding_names_to_full_paths():
    class Two(nn.Cell):
        def __init__(self):
            super().__init__()
            self.insert_child_to_cell("a", nn.Dense(2, 2))
            self.insert_child_to_cell("b", nn.Dense(2, 2))

        def construct(self, x):
            return self.b(self.a(x))

    cell = Two()
    assert names(cell) == ["weight", "bias", "weight", "bias"]
    cell(ones(1, 2))
    assert names(cell) == ["a.weight", "a.bias", "b.weight", "b.bias"]


def test_duplicate_names_that_survive_the_refresh_raise_naming_the_cell():
    class Clash(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(2, 2)
            self.ps = ParameterTuple([Parameter(Tensor([1.0]), name="a.weight")])

        def construct(self, x):
            return x

    with pytest.raises(ValueError, match="For cell 'Clash'.*its name 'a.weight' already exists"):
        Clash()(ones(1))


def test_duplicate_names_in_a_parameter_tuple_attribute():
    class Dup(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ps = ParameterTuple([Parameter(Tensor([1.0]), name="x")])
            self.qs = [Parameter(Tensor([1.0]), name="y"), Parameter(Tensor([1.0]), name="y")]

    with pytest.raises(ValueError, match=r"its name 'y' already exists.*cell 'Dup', attribute 'qs'"):
        Dup()


def test_containers_rename_on_append_and_delete():
    s = Seq()
    s.layer1.append(nn.Dense(2, 2))
    assert names(s)[4:6] == ["layer1.3.weight", "layer1.3.bias"]
    del s.layer1[0]
    assert list(s.layer1.name_cells()) == ["0", "1", "2"]
    assert names(s) == ["layer1.1.weight", "layer1.1.bias", "layer1.2.weight", "layer1.2.bias",
                        "fc.conv.weight", "fc.conv.bias"]


# -- registration details ---------------------------------------------------------------------

def test_tensor_assigned_to_a_parameter_attribute_sets_its_data():
    d = nn.Dense(2, 1)
    weight = d.weight
    d.weight = Tensor(np.full((1, 2), 3.0, np.float32))
    assert d.weight is weight and d.weight.asnumpy().tolist() == [[3.0, 3.0]]
    with pytest.raises(TypeError, match="already exists in network"):
        d.weight = "x"
    with pytest.raises(TypeError, match="Sub cell 'net' already exists"):
        Wrap(nn.Dense(2, 2)).net = 3


def test_primitives_and_plain_attributes():
    class P(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mul = ops.Mul()
            self.k = 3

        def construct(self, x, y):
            return self.mul(x, y) * self.k

    p = P()
    assert "mul" in p._primitives and p.k == 3
    assert p(Tensor([2.0]), Tensor([5.0])).asnumpy().tolist() == [30.0]
    with pytest.raises(AttributeError, match="'P' object has no attribute 'nope'"):
        p.nope


def test_assigning_before_super_init_is_explained():
    class Early(nn.Cell):
        def __init__(self):
            self.w = Parameter(Tensor([1.0]), name="w")
            super().__init__()

    with pytest.raises(AttributeError, match="super\\(\\).__init__\\(\\) first"):
        Early()


def test_missing_construct():
    with pytest.raises(AttributeError, match="the method 'construct' is not defined"):
        nn.Cell()(Tensor([1.0]))


# -- 3.3 enumeration -----------------------------------------------------------------------------

def test_enumeration():
    s = Seq()
    assert [n for n, _ in s.cells_and_names()] == \
        ["", "layer1", "layer1.0", "layer1.1", "layer1.2", "fc", "fc.conv", "fc.act"]
    assert list(s.name_cells()) == ["layer1", "fc"]
    assert len(list(s.cells())) == 2
    assert [n for n, _ in s.parameters_and_names()] == names(s)
    assert inspect_is_generator(s.get_parameters())
    assert list(nn.BatchNorm2d(2).parameters_dict()) == ["mean", "variance", "gamma", "beta"]


def inspect_is_generator(value):
    import types
    return isinstance(value, types.GeneratorType)


def test_shared_parameters_are_listed_once():
    dense = nn.Dense(2, 2)

    class Twice(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = dense
            self.b = dense

    assert len(list(Twice().get_parameters())) == 2


def test_trainable_and_untrainable_params():                  # seed 003's freezing prints
    net = nn.Dense(2, 1, has_bias=True)
    assert repr(net.trainable_params()) == (
        "[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
        "Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)]")
    for param in net.trainable_params():
        if "bias" in param.name:
            param.requires_grad = False
    assert repr(net.trainable_params()) == \
        "[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True)]"
    assert [p.name for p in net.untrainable_params()] == ["bias"]
    assert list(net.parameters_dict()) == ["weight", "bias"]


def test_init_parameters_data_returns_identity_mapping():
    conv = nn.Conv2d(3, 4, 3)
    replaced = conv.init_parameters_data()
    assert len(replaced) == 1
    (old, new), = replaced.items()
    assert old is new is conv.weight


# -- 3.5 modes and flags -----------------------------------------------------------------------

def test_cells_start_in_inference_mode():
    d = nn.Dense(2, 2)
    assert (d.training, d.requires_grad, d.phase) == (False, False, "train")
    assert bool(d) and not bool(nn.SequentialCell()) and not bool(nn.CellList())


def test_set_train_is_recursive_and_set_grad_is_not():
    s = Seq()
    assert s.set_train() is s
    assert s.training and s.layer1.training and s.layer1[0].training and s.phase == "train"
    s.set_train(False)
    assert not s.layer1[0].training and s.phase == "predict"
    assert s.set_grad() is s
    assert s.requires_grad and not s.fc.requires_grad


def test_to_float_casts_operator_inputs_not_parameters():
    x = ones(1, 2)
    d = nn.Dense(2, 2).to_float(ms.float16)
    assert d(x).dtype == ms.float16 and d.weight.dtype == ms.float32
    assert d.get_flags() == {"fp16": True, "fp32": False, "bf16": False}

    class Id(nn.Cell):
        def construct(self, x):
            return x

    assert Id().to_float(ms.float16)(x).dtype == ms.float32      # no operator, no cast
    with pytest.raises(ValueError, match="'dst_type' must be mstype.float32"):
        d.to_float(ms.int32)


def test_to_float_innermost_cell_wins_and_gradients_keep_parameter_dtypes():
    seen = []

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(2, 2)
            self.b = nn.Dense(2, 2)

        def construct(self, x):
            y = self.a(x)
            z = self.b(y)
            seen.append((y.dtype, z.dtype))
            return z * 2

    net = Net()
    net.to_float(ms.float16)
    net.b.to_float(ms.float32)
    x = ones(1, 2)
    assert net(x).dtype == ms.float16
    assert seen[-1] == (ms.float16, ms.float32)
    gx, gw = ms.grad(net, 0, net.trainable_params())(x)
    assert gx.dtype == ms.float32 and all(g.dtype == ms.float32 for g in gw)


def test_to_float_keeps_batchnorm_statistics_updating():
    bn = nn.BatchNorm2d(1).set_train().to_float(ms.float16)
    x = Tensor(np.arange(1, 9, dtype=np.float32).reshape(2, 1, 2, 2))
    assert bn(x).dtype == ms.float16
    assert bn.moving_mean.dtype == ms.float32
    assert np.allclose(bn.moving_mean.asnumpy(), [0.45])


# -- repr ---------------------------------------------------------------------------------------

def test_repr():
    assert repr(nn.Dense(2, 2)) == "Dense(input_channels=2, output_channels=2, has_bias=True)"
    assert repr(nn.SequentialCell([nn.Dense(2, 3), nn.ReLU()])) == (
        "SequentialCell(\n  (0): Dense(input_channels=2, output_channels=3, has_bias=True)\n"
        "  (1): ReLU()\n)")
    assert repr(nn.Dense(2, 3, activation="relu")) == (
        "Dense(\n  input_channels=2, output_channels=3, has_bias=True, activation=ReLU()\n"
        "  (activation): ReLU()\n)")
    assert str(nn.MaxPool2d(2, 2)) == "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"


# -- 6.3 set_grad: the forward runs once ------------------------------------------------------

class Counting(nn.Cell):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.w = Parameter(Tensor([2.0]), name="w")

    def construct(self, x):
        self.calls += 1
        return x * x * self.w


def test_without_set_grad_call_then_grad_runs_the_forward_twice():
    net, x = Counting(), Tensor([3.0])
    net(x)
    assert ms.grad(net)(x).asnumpy().tolist() == [12.0]
    assert net.calls == 2


def test_with_set_grad_the_recorded_forward_is_reused_once():
    net, x = Counting().set_grad(), Tensor([3.0])
    net(x)
    assert ms.grad(net, 0, net.trainable_params())(x)[0].asnumpy().tolist() == [12.0]
    assert net.calls == 1
    ms.grad(net)(x)                                   # consumed: a second grad runs it again
    assert net.calls == 2


def test_set_grad_reuse_needs_the_same_input_objects():
    net = Counting().set_grad()
    net(Tensor([3.0]))
    assert ms.ops.GradOperation()(net)(Tensor([3.0])).asnumpy().tolist() == [12.0]
    assert net.calls == 2


def test_set_grad_single_grad_updates_batchnorm_once():
    bn = nn.BatchNorm2d(1).set_train()
    x = Tensor(np.arange(1, 9, dtype=np.float32).reshape(2, 1, 2, 2))
    ms.grad(bn)(x)
    assert np.allclose(bn.moving_mean.asnumpy(), [0.45])
    bn2 = nn.BatchNorm2d(1).set_train().set_grad()
    bn2(x)
    ms.grad(bn2)(x)
    assert np.allclose(bn2.moving_mean.asnumpy(), [0.45])
