"""Record MindSpore 2.10's results for the functional transforms and ``Tensor.__setitem__``
gradients checked by ``tests/test_transforms.py`` and ``tests/test_setitem_grad.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_transforms.py

The cases are written once, against a namespace ``ms`` (MindSpore here, refms in the
tests), and run in both PyNative and GRAPH_MODE (``jit``).  A case that raises is
run again in a process of its own (a failed op can disturb the next one in
MindSpore) and its exception type is the record.  Writes ``transforms.json``:
per mode and case, the nested structure of the result (tuples of tensors with
dtype, shape and values) or the exception type.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def _arange(T, *shape, start=1.0, scale=0.25):
    size = int(np.prod(shape))
    return T((start + scale * np.arange(size, dtype=np.float32)).reshape(shape))


def cases(ms, graph=False):
    """label -> thunk, written against the ``ms`` namespace (MindSpore or refms).

    ``graph``: the transform is applied inside a ``jit`` function (GRAPH_MODE), so the
    transform itself is compiled, not only the function it maps.
    """
    ops, T, nn = ms.ops, ms.Tensor, ms.nn

    def compiled(fn):
        return ms.jit(fn) if graph else fn

    x34 = _arange(T, 3, 4)
    y34 = _arange(T, 3, 4, start=-1.0, scale=0.5)
    x43 = _arange(T, 4, 3)
    v4 = _arange(T, 4, start=0.5)
    x234 = _arange(T, 2, 3, 4, scale=0.1)
    w3 = _arange(T, 3, start=-0.5, scale=0.5)

    def elementwise(a, b):
        return ops.sin(a) * b + ops.exp(-a * a) - b / (1.0 + a * a)

    def rowdot(a, b):
        return ops.reduce_sum(a * b, -1)

    def pair_fn(pair, c):
        a, b = pair
        return a * c + b

    def two_out(a, b):
        return a + b, ops.reduce_sum(a * a)

    def cube_sum(a):
        return ops.reduce_sum(a ** 3)

    def mixed_net(a):
        h = ops.matmul(ops.reshape(a, (2, 2)), ops.transpose(ops.reshape(a, (2, 2)), (1, 0)))
        return ops.softmax(ops.reshape(h, (4,)), -1) * ops.concat((a[:2], a[2:]), 0)

    class Dense(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(T(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)), name="w")
            self.b = ms.Parameter(T(np.array([0.1, -0.2, 0.3], np.float32)), name="b")

        def construct(self, a):
            return ops.tanh(ops.matmul(self.w, a) + self.b)

    def case(run, *args):
        """The thunk of one case: ``run(*args)``, compiled when ``graph`` (MindSpore's
        parser needs ``run`` to be a ``def``: a lambda among others on a line fails)."""
        return lambda: compiled(run)(*args)

    class Scale(nn.Cell):
        def __init__(self, k):
            super().__init__()
            self.w = ms.Parameter(T(np.linspace(-1, 1, 4, dtype=np.float32) * k), name="w")

        def construct(self, a):
            return ops.sin(a * self.w)

    ensemble = nn.CellList([Scale(1.0), Scale(2.0), Scale(-0.5)])

    def vmap_case(fn, args, **kw):
        def run(*a):
            return ops.vmap(fn, **kw)(*a)
        return case(run, *args)

    def f_x3y(a, b):
        return a ** 3 + b

    def f_2out(a, b, c):
        return a ** 2 + b ** 2 + c ** 2, a * b * c

    def setitem_scalar(a):
        y = a * 2
        y[1] = 5.0
        return ops.reduce_sum(y * y)

    def setitem_slice(a, v):
        y = a * 1
        y[1:3] = v
        return ops.reduce_sum(y * y)

    def setitem_repeated(a, v):
        y = a * 1
        y[T(np.array([0, 0, 2], np.int32))] = v
        return ops.reduce_sum(y * y)

    def setitem_row(a, v):
        y = a + 0
        y[1] = v * 3
        return ops.reduce_sum(ops.sin(y) * y)

    def setitem_value(a, v):
        y = a + 0
        y[0, 1:3] = v
        return y

    def affine(a):
        return a * 2.0 + 1.0

    def prod_and_const(a, b):
        return a * b, b

    def mul(a, b):
        return a * b

    def mean0(a):
        return ops.reduce_mean(a, 0)

    def jacrev_single(a):
        return ops.jacrev(mixed_net)(a)

    def jacfwd_single(a):
        return ops.jacfwd(mixed_net)(a)

    def jacrev_positions(a, b, c):
        return ops.jacrev(f_2out, grad_position=(0, 1))(a, b, c)

    def jacfwd_positions(a, b, c):
        return ops.jacfwd(f_2out, grad_position=(0, 1))(a, b, c)

    def jacrev_aux(a, b, c):
        return ops.jacrev(f_2out, has_aux=True)(a, b, c)

    def jacfwd_aux(a, b, c):
        return ops.jacfwd(f_2out, has_aux=True)(a, b, c)

    def vjp_two_inputs(a, b, v):
        out, fn = ops.vjp(f_x3y, a, b)
        return out, fn(v)

    def vjp_single(a, v):
        out, fn = ops.vjp(ops.sin, a)
        return out, fn(v)

    def vjp_aux(a, b, c, v):
        out, fn, aux = ops.vjp(f_2out, a, b, c, has_aux=True)
        return out, fn(v), aux

    def jvp_two_inputs(a, b, v):
        return ops.jvp(f_x3y, (a, b), (v, v))

    def jvp_single(a, v):
        return ops.jvp(ops.sin, a, v)

    def jvp_two_outputs(a, b, c, v):
        return ops.jvp(f_2out, (a, b, c), (v, v, v))

    def jvp_aux(a, b, c, v):
        return ops.jvp(f_2out, (a, b, c), (v, v, v), has_aux=True)

    def grad_all(fn):
        return ms.grad(fn, grad_position=(0, 1))

    return {
        # vmap ------------------------------------------------------------------------------
        "vmap-elementwise": vmap_case(elementwise, (x34, y34)),
        "vmap-in_axes-None": vmap_case(rowdot, (x34, v4), in_axes=(0, None)),
        "vmap-in_axes-1": vmap_case(rowdot, (x43, y34), in_axes=(1, 0)),
        "vmap-out_axes-1": vmap_case(affine, (x234,), in_axes=1, out_axes=1),
        "vmap-in_axes-nested": vmap_case(pair_fn, ((x34, y34.T), v4), in_axes=((0, 1), None)),
        "vmap-out_axes-tuple": vmap_case(two_out, (x34, y34), out_axes=(1, 0)),
        "vmap-out_axes-None": vmap_case(prod_and_const, (x34, v4), in_axes=(0, None),
                                        out_axes=(0, None)),
        "vmap-nested": vmap_case(ops.vmap(mul, in_axes=(None, 0)), (v4, w3),
                                 in_axes=(0, None)),
        "vmap-matmul": vmap_case(ops.matmul, (x234, x43), in_axes=(0, None)),
        "vmap-reduce-axis": vmap_case(mean0, (x234,)),
        "vmap-mixed-net": vmap_case(mixed_net, (x34,)),
        "vmap-cell": vmap_case(Dense(), (x34.T,), in_axes=1),
        "vmap-grad": vmap_case(ms.grad(cube_sum), (x34,)),
        "vmap-celllist": vmap_case(ensemble, (x34,)),
        "vmap-celllist-shared-input": vmap_case(ensemble, (v4,), in_axes=None, out_axes=1),
        "vmap-size-mismatch": vmap_case(rowdot, (x34, x43)),
        "vmap-axis-out-of-range": vmap_case(rowdot, (x34, y34), in_axes=(2, 0)),
        # jacrev / jacfwd --------------------------------------------------------------------
        "jacrev-single": case(jacrev_single, v4),
        "jacfwd-single": case(jacfwd_single, v4),
        "jacrev-positions": case(jacrev_positions, v4, w3[:1] + v4, v4),
        "jacfwd-positions": case(jacfwd_positions, v4, w3[:1] + v4, v4),
        "jacrev-aux": case(jacrev_aux, v4, v4, v4),
        "jacfwd-aux": case(jacfwd_aux, v4, v4, v4),
        # vjp / jvp ---------------------------------------------------------------------------
        "vjp-two-inputs": case(vjp_two_inputs, x34, y34, y34),
        "vjp-single": case(vjp_single, x34, y34),
        "vjp-aux": case(vjp_aux, v4, v4, v4, v4),
        "jvp-two-inputs": case(jvp_two_inputs, x34, y34, y34),
        "jvp-single": case(jvp_single, x34, y34),
        "jvp-two-outputs": case(jvp_two_outputs, v4, v4, v4, v4),
        "jvp-aux": case(jvp_aux, v4, v4, v4, v4),
        # Tensor.__setitem__ gradients --------------------------------------------------------
        "setitem-scalar-grad": case(ms.grad(setitem_scalar), v4),
        "setitem-slice-grad": case(grad_all(setitem_slice), v4, T(np.float32(7.0))),
        "setitem-repeated-grad": case(grad_all(setitem_repeated), v4, T(np.float32(7.0))),
        "setitem-row-grad": case(grad_all(setitem_row), x34, v4),
        "setitem-value": case(setitem_value, x34, T(np.array([9.0, 8.0], np.float32))),
    }


def describe(result):
    """A JSON-able record of a (nested) result."""
    if isinstance(result, (tuple, list)):
        return {"tuple": [describe(r) for r in result]}
    return {"dtype": str(result.dtype), "shape": list(result.shape),
            "value": result.asnumpy().tolist()}


def run_one(mode, label):
    import mindspore as ms
    graph = mode == "graph"
    try:
        out = {"result": describe(cases(ms, graph)[label]())}
    except Exception as exc:                    # noqa: BLE001  (the type is the record)
        out = {"error": type(exc).__name__}
    return out


def run_mode(mode, labels):
    """All cases of one mode in one process; the ones that raise again, each alone."""
    record = {}
    for label in labels:
        record[label] = run_one(mode, label)
    return record


def main():
    import mindspore as ms
    record = {"mindspore": ms.__version__, "modes": {}}
    for mode in ("pynative", "graph"):
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), mode], capture_output=True,
                              text=True, env=dict(os.environ, GLOG_v="3"), cwd=tempfile.gettempdir())
        results = json.loads(proc.stdout.strip().splitlines()[-1])
        for label, value in results.items():
            if "error" in value:
                alone = subprocess.run([sys.executable, os.path.abspath(__file__), mode, label],
                                       capture_output=True, text=True, cwd=tempfile.gettempdir(),
                                       env=dict(os.environ, GLOG_v="3"))
                results[label] = json.loads(alone.stdout.strip().splitlines()[-1])
        record["modes"][mode] = results
    with open(os.path.join(HERE, "transforms.json"), "w") as f:
        json.dump(record, f, indent=0)


if __name__ == "__main__":
    if len(sys.argv) == 2:
        import mindspore
        print(json.dumps(run_mode(sys.argv[1], list(cases(mindspore)))))
    elif len(sys.argv) == 3:
        print(json.dumps(run_one(sys.argv[1], sys.argv[2])))
    else:
        main()
