"""Parameter and ParameterTuple (semantics 2.1-2.5); expected values printed by MindSpore 2.10."""
import numpy as np
import pytest

import refms as ms
from refms import Parameter, ParameterTuple, Tensor
from refms.common.initializer import initializer


def test_constructor_dtypes():
    assert Parameter(2, name="a").dtype == ms.int32          # unlike Tensor(2) -> Int64
    assert Parameter(2.0, name="b").dtype == ms.float32
    assert Parameter(np.array([1.0, 2.0]), name="c").dtype == ms.float64
    assert Parameter([1, 2], name="d").dtype == ms.int64
    with pytest.raises(ValueError, match="Parameter data can not be `bool`"):
        Parameter(True)


def test_is_a_tensor_and_copies_its_data():
    t = Tensor([1.0, 2.0])
    p = Parameter(t, name="p")
    assert isinstance(p, Tensor)
    p.set_data(Tensor([5.0, 6.0]))
    assert t.asnumpy().tolist() == [1.0, 2.0]


def test_repr_and_str():
    p = Parameter(Tensor([1.0, 2.0]), name="z")
    text = "Parameter (name=z, shape=(2,), dtype=Float32, requires_grad=True)"
    assert repr(p) == str(p) == text
    assert repr([p]) == f"[{text}]"
    assert repr(Parameter(Tensor(1.0), name="s")).startswith("Parameter (name=s, shape=()")


def test_arithmetic_gives_plain_tensors_and_data_is_a_tensor():
    p = Parameter(Tensor([1.0, 2.0]), name="z")
    assert type(p + 1) is Tensor
    assert type(p.data) is Tensor
    assert repr(p.data) == "Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])"


def test_auto_names_and_name_rules():
    assert Parameter(Tensor([1.0])).name.startswith("Parameter#")
    assert Parameter(Tensor([1.0]), name="   ").name.startswith("Parameter#")
    assert Parameter(Tensor([1.0]), name="  sp  ").name == "sp"
    with pytest.raises(ValueError, match="should be 'string' or 'None'"):
        Parameter(Tensor([1.0]), name=3)
    with pytest.raises(ValueError, match="name should be less than 1024"):
        Parameter(Tensor([1.0]), name="x" * 1025)


def test_set_data_casts_to_the_parameter_dtype_and_accepts_new_shapes():
    p = Parameter(Tensor([1.0, 2.0]), name="z")
    assert p.set_data(Tensor([3, 4], ms.int32)) is p
    assert p.dtype == ms.float32 and p.asnumpy().tolist() == [3.0, 4.0]
    p.set_data(Tensor([1.0, 2.0, 3.0]))
    assert p.shape == (3,)


def test_set_data_errors():
    q = Parameter(Tensor([1], ms.int32), name="q")
    with pytest.raises(TypeError, match="Current dtype is Int32, and incoming is Float"):
        q.set_data(1.5)
    with pytest.raises(TypeError, match="Parameter data must be"):
        q.set_data("x")


def test_set_data_from_a_lazy_initializer():
    p = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
    p.set_data(initializer(0.1, p.shape, p.dtype))            # seed 003's pattern
    assert np.allclose(p.asnumpy(), 0.1)


def test_built_from_an_initializer_it_is_materialised():
    p = Parameter(initializer("normal", [2, 2]), name="w")
    assert not p.has_init and p.shape == (2, 2)
    assert p.init_data() is p


def test_requires_grad_is_a_settable_bool():
    p = Parameter(Tensor([1.0]), name="p")
    p.requires_grad = False
    assert "requires_grad=False" in repr(p)
    with pytest.raises(TypeError):
        p.requires_grad = 1


def test_clone():
    p = Parameter(Tensor([1.0, 2.0]), name="z", requires_grad=False)
    c = p.clone()
    assert c is not p and c.name == "z" and not c.requires_grad
    assert c.asnumpy().tolist() == [1.0, 2.0]
    assert p.clone(init="zeros").asnumpy().tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="class corresponding to 'x' was not found"):
        p.clone("x")                   # the first positional argument is init, not a name


def test_parameter_tuple():
    a = Parameter(Tensor([1.0]), name="a")
    b = Parameter(Tensor([2.0]), name="b")
    pt = ParameterTuple([a, b])
    assert isinstance(pt, tuple) and pt == (a, b)
    assert ParameterTuple(filter(lambda p: True, [a])) == (a,)
    with pytest.raises(TypeError, match="ParameterTuple input should be 'Parameter' collection"):
        ParameterTuple([a, 1])
    with pytest.raises(ValueError, match="its name 'a' already exists"):
        ParameterTuple([a, Parameter(Tensor([3.0]), name="a")])
    clones = pt.clone("m", init="zeros")
    assert [p.name for p in clones] == ["m.a", "m.b"]
    assert clones[0].asnumpy().tolist() == [0.0]


def test_pickle_round_trip():
    import pickle
    p = Parameter(Tensor([1.0, 2.0]), name="z", requires_grad=False)
    q = pickle.loads(pickle.dumps(p))
    assert q.name == "z" and not q.requires_grad and q.asnumpy().tolist() == [1.0, 2.0]
