"""A Parameter written with ``ops.assign`` and read again, against MindSpore 2.10 (programs in
``tests/graph_assign_programs.py``, recorded by ``tests/recorders/record_graph_assign.py``).

In GRAPH_MODE each primitive reads the Parameter's value when it runs, and the gradient
uses that value (MindSpore's ``Load(w, U)``, copied where a later write would change it):
``for i in range(3): ops.assign(self.w, i); out = x * self.w + out`` has d out / dx =
0 + 1 + 2 = 3.  PyNative's backward reads the Parameter when it runs (its final value:
6).  The graph-mode gradient with respect to the input is therefore the derivative of
the function the forward computes, which the float64 central differences below check.
"""
import importlib.util

import numpy as np
import pytest

import refms as ms
from refms import Tensor

from graph_assign_programs import PROGRAMS, READS, net_source
from test_graph_static_syntax import check_program, program_param, recorded_programs

RECORDED = recorded_programs("graph_assign.json")

#: program -> what refms lacks to reproduce MindSpore's result.
KNOWN_DIFFERENCES = {
    "grad_operation_read_then_assign":
        "MindSpore 2.10's default Load elimination (MS_DEV_SIDE_EFFECT_LOAD_ELIM=1) copies "
        "no value for a single read followed by a write when the gradient comes from "
        "GradOperation(get_all=True, get_by_list=True) or value_and_grad, so the backward "
        "reads the final value (grad x = 10); ms.grad, and every API with "
        "MS_DEV_SIDE_EFFECT_LOAD_ELIM=0 (the program ..._load_elim_0), use the value read "
        "(2), which refms always does",
    "conditional_assign_and_nested_function":
        "MindSpore 2.10's default Load elimination copies only the read between the two "
        "writes, so the first read's gradient uses the final value of w (grad x = [8, 422]); "
        "with MS_DEV_SIDE_EFFECT_LOAD_ELIM=0 (the program ..._load_elim_0) every read is "
        "copied and the gradient is [7, 224], which refms gives",
}


@pytest.mark.parametrize("name", [program_param(name, KNOWN_DIFFERENCES) for name in PROGRAMS])
def test_program_matches_mindspore(name, tmp_path):
    check_program(PROGRAMS[name], RECORDED[name], str(tmp_path))


def test_every_program_is_recorded():
    assert set(PROGRAMS) == set(RECORDED)


def _float64_net(name, body, directory):
    """The class ``Net`` of ``body`` in float64 on refms, from a module file (graph mode
    reads the source of ``construct``)."""
    path = directory / f"net_{name}.py"
    path.write_text(net_source(body, "float64").replace("mindspore", "refms"))
    spec = importlib.util.spec_from_file_location(f"graph_assign_net_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Net


@pytest.mark.parametrize("name", list(READS))
def test_graph_gradient_is_the_central_difference(name, tmp_path):
    """d out / dx of each program, in float64, against (f(x + h) − f(x − h)) / 2h where f
    runs the program on a fresh network (the weight starts at 2 every time)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    Net = _float64_net(name, READS[name], tmp_path)

    def f(x):
        return Net()(Tensor(np.float64(x))).asnumpy()

    x, h = 5.0, 1e-6
    expected = (f(x + h) - f(x - h)) / (2 * h)
    gx = ms.grad(Net(), 0)(Tensor(np.float64(x))).asnumpy()
    np.testing.assert_allclose(gx, expected, rtol=1e-7, atol=1e-7)
