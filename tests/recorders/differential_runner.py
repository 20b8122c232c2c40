"""Run one differential case on a framework (MindSpore or refms) and describe the result.

Shared by ``record_differential.py`` (on MindSpore 2.10) and
``tests/test_differential.py`` (on refms), so both sides convert inputs, call
the API, take the gradient and describe outputs the same way.  The stored form
is JSON: arrays as ``{"nd": dtype, "shape": [...], "data": [...]}``, tuples as
``{"tuple": [...]}``, framework dtypes as ``{"dtype": name}``.
"""
import numpy as np

from differential_cases import ATTRIBUTES, CALLS, DType, cotangent

# ---------------------------------------------------------------- JSON encoding


def encode(value):
    """Python/numpy value -> JSON-able value."""
    if isinstance(value, np.ndarray):
        return {"nd": str(value.dtype), "shape": list(value.shape),
                "data": value.reshape(-1).tolist()}
    if isinstance(value, DType):
        return {"dtype": value.name}
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"dict": {k: encode(v) for k, v in value.items()}}
    if isinstance(value, np.generic):
        return value.item()
    return value


def decode(value):
    """The inverse of :func:`encode`."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "nd" in value:
            return np.array(value["data"], dtype=value["nd"]).reshape(value["shape"])
        if "dtype" in value:
            return DType(value["dtype"])
        if "tuple" in value:
            return tuple(decode(v) for v in value["tuple"])
        if "dict" in value:
            return {k: decode(v) for k, v in value["dict"].items()}
    return value


# ---------------------------------------------------------------- framework side

def to_framework(ms, value):
    """numpy arrays -> Tensors, DType -> ms dtype, recursively through tuples and lists."""
    if isinstance(value, np.ndarray):
        return ms.Tensor(value)
    if isinstance(value, DType):
        return getattr(ms, value.name)
    if isinstance(value, tuple):
        return tuple(to_framework(ms, v) for v in value)
    if isinstance(value, list):
        return [to_framework(ms, v) for v in value]
    return value


def invoke(ms, api, args, kw):
    """Call ``api`` on framework ``ms`` with framework-typed ``args``/``kw``."""
    if api in CALLS:
        return CALLS[api](ms, *args, **kw)
    space, name = api.split(".", 1)
    if space == "ops":
        return getattr(ms.ops, name)(*args, **kw)
    if space == "mint":
        function = ms.mint
        for part in name.split("."):
            function = getattr(function, part)
        return function(*args, **kw)
    if space == "Tensor":
        if name in ATTRIBUTES:
            return getattr(args[0], name)
        return getattr(args[0], name)(*args[1:], **kw)
    raise KeyError(f"no way to call {api!r}")


def flatten(out):
    if isinstance(out, (tuple, list)) and not isinstance(out, str):
        items = []
        for item in out:
            items.extend(flatten(item))
        return items
    return [out]


def _is_tensor(ms, value):
    return isinstance(value, ms.Tensor)


def describe(ms, out):
    """A framework result -> JSON-able description (values as numpy)."""
    if _is_tensor(ms, out):
        array = out.asnumpy()
        return {"tensor": encode(np.asarray(array)), "dtype": str(out.dtype)}
    if isinstance(out, (tuple, list)):
        kind = "tuple" if isinstance(out, tuple) else "list"
        return {kind: [describe(ms, o) for o in out]}
    if isinstance(out, np.ndarray):
        return {"numpy": encode(out)}
    if isinstance(out, (bool, int, float, str)) or out is None:
        return {"py": out, "type": type(out).__name__}
    if isinstance(out, np.generic):
        return {"py": out.item(), "type": type(out).__name__}
    return {"other": str(out), "type": type(out).__name__}


def float_positions(args):
    return [i for i, a in enumerate(args)
            if isinstance(a, np.ndarray) and a.dtype.kind == "f"]


def gradient(ms, api, args, kw):
    """Gradients of sum(out * cotangent(out)) over float outputs wrt float array args."""
    positions = float_positions(args)
    static = [to_framework(ms, a) for a in args]
    kw_f = {k: to_framework(ms, v) for k, v in kw.items()}

    def loss(*diff):
        full = list(static)
        for p, t in zip(positions, diff):
            full[p] = t
        total = None
        for o in flatten(invoke(ms, api, full, kw_f)):
            if _is_tensor(ms, o) and np.dtype(o.asnumpy().dtype).kind == "f":
                c = ms.Tensor(cotangent(tuple(o.shape), o.asnumpy().dtype))
                term = (o * c).sum()
                total = term if total is None else total + term
        return total

    grads = ms.grad(loss, grad_position=tuple(range(len(positions))))(*[static[p] for p in positions])
    if not isinstance(grads, (tuple, list)):
        grads = (grads,)
    return [describe(ms, g) for g in grads]


def run_case(ms, api, case):
    """Forward (and gradient) of one case -> {"outputs"|"error", "grads"|"grad_error"}."""
    args = [to_framework(ms, a) for a in case["args"]]
    kw = {k: to_framework(ms, v) for k, v in case["kw"].items()}
    record = {}
    try:
        record["outputs"] = describe(ms, invoke(ms, api, args, kw))
    except Exception as exc:                     # noqa: BLE001 (the type is the record)
        record["error"] = type(exc).__name__
        record["error_types"] = [c.__name__ for c in type(exc).__mro__]
        record["message"] = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
        return record
    if case["grad"] and float_positions(case["args"]):
        try:
            record["grads"] = gradient(ms, api, case["args"], case["kw"])
        except Exception as exc:                 # noqa: BLE001
            record["grad_error"] = type(exc).__name__
            record["grad_error_types"] = [c.__name__ for c in type(exc).__mro__]
            record["grad_message"] = str(exc).strip().splitlines()[0][:300] if str(
                exc).strip() else ""
    return record
