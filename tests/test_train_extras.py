"""train.MAE/MSE, amp.StaticLossScaler/DynamicLossScaler/all_finite, Adam(use_amsgrad=True)
and jit_class (issue 13),
against MindSpore 2.10's recorded results (``tests/recorders/record_train_extras.py``)."""
import json
import os
import sys

import numpy as np
import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_train_extras
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "train_extras.json")) as _f:
    RECORDED = json.load(_f)


def test_metrics_and_loss_scalers_match_mindspore():
    ours = record_train_extras.run(refms)
    assert ours.pop("amsgrad_parameter_names") == RECORDED["amsgrad_parameter_names"]
    for key, value in ours.items():
        np.testing.assert_allclose(np.array(value, np.float64),
                                   np.array(RECORDED[key], np.float64), rtol=1e-7, err_msg=key)


def test_mae_without_updates_raises():
    with pytest.raises(RuntimeError, match="MAE"):
        refms.train.MAE().eval()


def test_jit_class_object_in_graph_mode():
    @refms.jit_class
    class Scale:
        def __init__(self, k):
            self.k = k

        def apply(self, x):
            return x * self.k

    class Net(refms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale = Scale(3.0)

        def construct(self, x):
            return self.scale.apply(x) + 1.0

    refms.set_context(mode=refms.GRAPH_MODE)
    out = Net()(refms.Tensor([1.0, 2.0]))
    np.testing.assert_allclose(out.asnumpy(), [4.0, 7.0])
    with pytest.raises(TypeError):
        refms.jit_class(lambda: None)
