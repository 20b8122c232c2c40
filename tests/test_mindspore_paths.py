"""MindSpore's module paths and one-device distributed semantics (issue 13).

Expected values come from MindSpore 2.10 (``tests/recorders/record_api_paths.py``
-> ``tests/recorders/api_paths.json``); the import lines from public MindSpore
code (``tests/imports``).
"""
import json
import os
import sys

import numpy as np
import pytest

import refms
from refms import Tensor, nn, ops
from refms.ops import composite as C, functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "recorders", "api_paths.json")) as _f:
    MS = json.load(_f)


# -- import lines of public MindSpore code ---------------------------------------------------

def test_import_lines_of_public_code_resolve():
    """≥ 90% of the import lines of mindspore-ai/models that resolve on MindSpore 2.10
    (weighted by how often each line occurs) resolve on refms through the alias."""
    sys.path.insert(0, os.path.join(HERE, "imports"))
    try:
        import resolve
    finally:
        sys.path.pop(0)
    results = resolve.resolve_all(resolve.load_lines())
    weighted, distinct = resolve.rates(results)
    failing = [(c, line, e) for c, line, e in results if e is not None][:15]
    assert weighted >= 0.90, f"{weighted:.1%} of import-line uses resolve; most used failing: {failing}"
    assert distinct >= 0.70, f"{distinct:.1%} of distinct import lines resolve"


def test_tensor_is_a_function_and_common_paths():
    assert callable(refms.tensor) and not isinstance(refms.tensor, type)
    t = refms.tensor([1, 2], refms.float32)
    assert isinstance(t, Tensor) and str(t.dtype) == "Float32"
    from refms.common.tensor import Tensor as T2
    from refms.common.parameter import Parameter
    from refms.common import set_seed, dtype as mstype
    assert T2 is Tensor and Parameter is refms.Parameter and set_seed is refms.set_seed
    assert mstype is refms.dtype
    with pytest.raises(ValueError):
        refms.tensor([1.0], device="Ascend")


def test_ops_operations_and_composite_paths():
    from refms.ops import operations as P
    assert P.Add is ops.Add and P.ReduceSum is ops.ReduceSum and ops.P is P
    assert C.GradOperation is ops.GradOperation
    from refms.ops.primitive import constexpr
    assert constexpr(len) is len


# -- meta ops and constant helpers -----------------------------------------------------------

def test_shape_dtype_rank_size():
    x = Tensor(np.zeros((2, 3, 4), np.float16))
    got = [list(ops.Shape()(x)), str(ops.DType()(x)), ops.Rank()(x), ops.Size()(x),
           list(F.shape(x)), str(F.dtype(x))]
    assert got == MS["meta"]
    with pytest.raises(TypeError, match="Shape"):
        ops.Shape()([1, 2])


def test_tuple_to_array_and_scalar_to_tensor_dtypes():
    assert [str(F.tuple_to_array((1, 2, 3)).dtype), str(F.tuple_to_array((1.0, 2.0)).dtype),
            str(F.tuple_to_array((1, 2.5)).dtype)] == MS["tuple_to_array"]
    assert [str(F.scalar_to_tensor(3).dtype), str(F.scalar_to_tensor(3.0).dtype),
            str(F.scalar_to_tensor(3, refms.int32).dtype)] == MS["scalar_to_tensor"]
    with pytest.raises(TypeError):
        F.tuple_to_array(("a",))
    assert [list(F.make_range(4)), list(F.make_range(1, 7, 2))] == MS["make_range"]


def test_depend_is_value_and_keeps_gradient_on_value():
    x, y = Tensor([1.0, 2.0]), Tensor([5.0])
    assert F.depend(x, y).asnumpy().tolist() == MS["depend"]
    gx, gy = refms.grad(lambda a, b: (F.depend(a, b * 2.0) * 3.0).sum(), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), [3.0, 3.0])
    np.testing.assert_allclose(gy.asnumpy(), [0.0])


def test_depend_keeps_side_effect_in_graph_mode():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = refms.Parameter(Tensor([1.0]), name="w")

        def construct(self, x):
            return F.depend(x * 2.0, ops.assign(self.w, x))

    net = Net()
    refms.set_context(mode=refms.GRAPH_MODE)
    out = net(Tensor([4.0]))
    np.testing.assert_allclose(out.asnumpy(), [8.0])
    np.testing.assert_allclose(net.w.asnumpy(), [4.0])


# -- composite: MultitypeFuncGraph, HyperMap, Map, clip_by_global_norm ------------------------

def _add():
    add = C.MultitypeFuncGraph("add")

    @add.register("Number", "Tensor")
    def _scale(x, y):
        return y * x

    @add.register("Tensor", "Tensor")
    def _sum(x, y):
        return x + y
    return add


@pytest.mark.parametrize("mode", [refms.PYNATIVE_MODE, refms.GRAPH_MODE])
def test_hypermap_over_multitype(mode):
    add = _add()
    t = (Tensor([1.0, 2.0]), Tensor([[3.0]]))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.hyper_map = C.HyperMap()

        def construct(self, a, b):
            return self.hyper_map(add, (a, b), (a, b)), self.hyper_map(F.partial(add, 3.0), (a, b))

    refms.set_context(mode=mode)
    both, scaled = Net()(*t)
    assert [v.asnumpy().tolist() for v in both] == MS["hypermap"]
    assert [v.asnumpy().tolist() for v in scaled] == MS["hypermap_partial"]


def test_hypermap_nested_map_and_dispatch_errors():
    add = _add()
    t = (Tensor([1.0, 2.0]), Tensor([[3.0]]))
    nested = C.HyperMap()(add, (t, t), (t, t))
    assert [[v.asnumpy().tolist() for v in inner] for inner in nested] == MS["hypermap_nested"]
    assert [v.asnumpy().tolist() for v in C.Map()(add, t, t)] == MS["map"]
    assert add(True, Tensor([2.0])).asnumpy().tolist() == MS["bool_is_number"]
    with pytest.raises(ValueError, match="MultitypeFuncGraph"):
        add("a", Tensor([1.0]))
    assert MS["no_match"] == "ValueError"
    with pytest.raises(ValueError, match="same length"):
        C.HyperMap()(add, t, t[:1])


def test_clip_by_global_norm():
    grads = (Tensor(np.array([3.0, 4.0], np.float32)), Tensor(np.array([[12.0]], np.float32)))
    for clip, key in ((1.0, "clip_by_global_norm"), (100.0, "clip_by_global_norm_big")):
        got = C.clip_by_global_norm(grads, clip)
        for g, expected in zip(got, MS[key]):
            np.testing.assert_allclose(g.asnumpy(), expected, rtol=1e-6)
    with pytest.raises(ValueError):
        C.clip_by_global_norm(grads, -1.0)


# -- learning-rate lists -----------------------------------------------------------------------

def test_dynamic_lr_matches_mindspore():
    sys.path.insert(0, os.path.join(HERE, "recorders"))
    try:
        from record_api_paths import LR_CASES
    finally:
        sys.path.pop(0)
    from refms.nn import dynamic_lr
    for name, cases in LR_CASES.items():
        for args, expected in zip(cases, MS["lr"][name]):
            np.testing.assert_allclose(getattr(dynamic_lr, name)(*args), expected, rtol=1e-12,
                                       err_msg=f"{name}{args}")
    with pytest.raises(ValueError):
        nn.piecewise_constant_lr([1, 2], [0.1])


# -- one-device distributed semantics ----------------------------------------------------------

def test_communication_is_a_world_of_one():
    from refms.communication.management import init, get_rank, get_group_size, create_group
    from refms.communication import management as m
    init()
    assert (get_rank(), get_group_size()) == (0, 1)
    assert [m.HCCL_WORLD_COMM_GROUP, m.NCCL_WORLD_COMM_GROUP,
            m.GlobalComm.WORLD_COMM_GROUP] == MS["world_groups"]
    with pytest.raises(ValueError):
        create_group("pair", [0, 1])
    with pytest.raises(ValueError):
        get_rank("no_such_group")


def test_auto_parallel_context_single_device():
    for key, value in MS["parallel_defaults"].items():
        assert refms.get_auto_parallel_context(key) == value, key
    from refms.parallel import _utils
    assert [_utils._get_device_num(), _utils._get_gradients_mean(), _utils._get_parallel_mode(),
            _utils._get_enable_parallel_optimizer(), _utils._get_pipeline_stages()] == \
        MS["parallel_utils"]
    refms.set_auto_parallel_context(parallel_mode=refms.ParallelMode.DATA_PARALLEL,
                                    gradients_mean=True, device_num=1)
    assert refms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    refms.reset_auto_parallel_context()
    assert refms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    with pytest.raises(ValueError):
        refms.set_auto_parallel_context(parallel_mode="bogus")
    with pytest.raises(ValueError):
        refms.get_auto_parallel_context("bogus")
    with pytest.raises(ValueError):
        refms.set_auto_parallel_context(device_num=8)


def test_grad_reducer_and_allreduce_are_identities_on_one_device():
    from refms.ops.operations.comm_ops import ReduceOp
    assert [ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD] == MS["reduce_op"]
    grads = (Tensor([1.0, -2.0]), Tensor([[3.0]]))
    reduced = nn.DistributedGradReducer([None, None], mean=True, degree=1)(grads)
    for a, b in zip(reduced, grads):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    x = Tensor([1.5, 2.5])
    np.testing.assert_array_equal(ops.AllReduce()(x).asnumpy(), x.asnumpy())
    g = refms.grad(lambda v: (ops.AllReduce(ReduceOp.MAX)(v) * 2.0).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), [2.0, 2.0])
    with pytest.raises(ValueError):
        nn.DistributedGradReducer([None], degree=8)


def test_multi_device_and_unimplemented_functions_raise_clearly():
    from refms.train.serialization import load_distributed_checkpoint, export
    with pytest.raises(RuntimeError, match="one device"):
        load_distributed_checkpoint(None, [])
    with pytest.raises(NotImplementedError, match="MINDIR"):
        export(nn.Dense(2, 2), Tensor(np.zeros((1, 2), np.float32)), file_name="x",
               file_format="AIR")
    from refms.profiler import Profiler
    with pytest.raises(RuntimeError, match="Profiler"):
        Profiler(output_path="/tmp")
