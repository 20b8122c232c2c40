"""``Cell.set_inputs`` with dynamic-shape declarations, as MindSpore 2.10 behaves.

The expected lines were printed by ``tests/recorders/set_inputs_mindspore.py``
on MindSpore 2.10.0; this test runs the same calls on refms and compares.
"""
import numpy as np
import pytest

import refms as ms
from refms import nn, Tensor

RECORDED = {
    ("graph", "rows2"): "[3. 3.]",
    ("graph", "rows4"): "[3. 3. 3. 3.]",
    ("graph", "cols4"): "ValueError: For set_inputs and tuple(list) in set_inputs, the shape of "
                        "1th input must be the same as expected, but got expected: 3, and input: 4!",
    ("graph", "rank1"): "ValueError: For set_inputs and tuple(list) in set_inputs, the dims of "
                        "1th input must be the same as expected, but got expected: 2, and input: 1!",
    ("graph", "int32"): "TypeError: For set_inputs or tuple(list) in set_inputs, the 1th type "
                        "should be Tensor[Float32], but got Tensor[Int32]!",
    ("pynative", "cols4"): "[4. 4.]",
}
INPUTS = {"rows2": np.ones((2, 3), np.float32), "rows4": np.ones((4, 3), np.float32),
          "cols4": np.ones((2, 4), np.float32), "rank1": np.ones((2,), np.float32),
          "int32": np.ones((2, 3), np.int32)}


class RowSums(nn.Cell):
    def construct(self, x):
        return x.sum(axis=1)


@pytest.fixture(autouse=True)
def pynative_afterwards():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode, name", sorted(RECORDED))
def test_calls_against_a_declaration(mode, name):
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    net = RowSums()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    try:
        got = str(net(Tensor(INPUTS[name])))
    except (TypeError, ValueError) as error:
        got = f"{type(error).__name__}: {error}"
    assert got == RECORDED[(mode, name)]


def test_declaration_has_a_shape_and_no_values():
    declared = Tensor(shape=[None, 3], dtype=ms.float32)
    assert declared.shape == (-1, 3)
    assert repr(declared.dtype) == "mindspore.float32"
    with pytest.raises(RuntimeError, match="dynamic shape"):
        declared + 1
