"""Record what MindSpore 2.10 does with ``Cell.set_inputs`` declarations (run with MindSpore's venv).

Prints, for a Cell declared with ``Tensor(shape=[None, 3], dtype=float32)``, the
result or the exception (type and first line) of calls in GRAPH_MODE and in
PyNative mode.  ``tests/test_set_inputs.py`` holds what it printed on
MindSpore 2.10.0 (CPU, Linux)::

    GLOG_v=3 python tests/recorders/set_inputs_mindspore.py
"""
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class RowSums(nn.Cell):
    def construct(self, x):
        return x.sum(axis=1)


def call(mode, array):
    ms.set_context(mode=mode)
    net = RowSums()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    try:
        return str(net(Tensor(array)))
    except Exception as error:      # noqa: BLE001 - the exception is the recorded result
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


declared = Tensor(shape=[None, 3], dtype=ms.float32)
print("declared", declared.shape, repr(declared.dtype))
for name, array in [("rows2", np.ones((2, 3), np.float32)), ("rows4", np.ones((4, 3), np.float32)),
                    ("cols4", np.ones((2, 4), np.float32)), ("rank1", np.ones((2,), np.float32)),
                    ("int32", np.ones((2, 3), np.int32))]:
    print("graph", name, call(ms.GRAPH_MODE, array))
print("pynative cols4", call(ms.PYNATIVE_MODE, np.ones((2, 4), np.float32)))
