"""Record MindSpore 2.10's results for the graph control-flow cases of
tests/test_graph_syntax.py::test_control_flow_matches_recorded_mindspore.

Run with the MindSpore environment (not refms)::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/graph_control_flow_mindspore.py

It prints a JSON object that is checked in as tests/golden/graph_control_flow.json.
"""
import json

import numpy as np
import mindspore as ms
from mindspore import Tensor, jit

ms.set_context(mode=ms.GRAPH_MODE)


@jit
def number_under_tensor_if(x):
    n = 0
    if x.sum() > 0:
        n = 1
    else:
        n = 2
    return x, n, n * 2.5, x * n


@jit
def number_in_tensor_while(x):
    n = 0
    while x.sum() < 50:
        x = x + 1
        n = n + 1
    return x, n


@jit
def closure_in_tensor_while(x):
    n = 0
    while x.sum() < 50:
        x = x + 1
        n = n + 1
        f = lambda y: y + n
        x = f(x)
    return x, n


@jit
def tensor_if_in_long_loop(x):
    z = x * 0
    for i in range(100):
        if x.sum() > i:
            z = z + 1
        else:
            z = z - 1
    return z


def plain(value):
    if isinstance(value, Tensor):
        return {"tensor": value.asnumpy().tolist(), "dtype": str(value.dtype)}
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return {"python": value, "type": type(value).__name__}


x = Tensor(np.array([1.0, 2.0], np.float32))
print(json.dumps({fn.__name__: plain(fn(x)) for fn in (
    number_under_tensor_if, number_in_tensor_while, closure_in_tensor_while,
    tensor_if_in_long_loop)}, indent=1))
