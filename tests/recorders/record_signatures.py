"""Record MindSpore 2.10's signatures of the functional ops and Tensor methods.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_signatures.py

Writes ``tests/recorders/ms_signatures.json``: for every public callable of
``mindspore.ops`` (functions) and every public method of ``mindspore.Tensor``
whose signature Python can read, its parameters as
``[name, kind, default-repr or null]``.  ``refms/ops/signature_table.py`` is
generated from it (``python tests/recorders/make_signature_table.py``).
"""
import inspect
import json
import os
import types

HERE = os.path.dirname(os.path.abspath(__file__))


def _params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    out = []
    for p in sig.parameters.values():
        default = None if p.default is inspect.Parameter.empty else repr(p.default)
        out.append([p.name, p.kind.name, default])
    return out


def main():
    import mindspore as ms
    from mindspore import ops
    functions, methods = {}, {}
    for name in dir(ops):
        if name.startswith("_"):
            continue
        obj = getattr(ops, name)
        if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)) or (
                callable(obj) and not isinstance(obj, type) and not isinstance(obj, types.ModuleType)):
            params = _params(obj)
            if params is not None:
                functions[name] = params
    for name in dir(ms.Tensor):
        if name.startswith("_"):
            continue
        obj = getattr(ms.Tensor, name)
        if callable(obj):
            params = _params(obj)
            if params is not None:
                methods[name] = params
    with open(os.path.join(HERE, "ms_signatures.json"), "w") as f:
        json.dump({"mindspore": ms.__version__, "functions": functions, "methods": methods}, f,
                  indent=0, sort_keys=True)
    print(len(functions), "functions,", len(methods), "methods")


if __name__ == "__main__":
    main()
