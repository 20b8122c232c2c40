"""Record MindSpore 2.10's behaviour on calls the application tutorials make (cv, nlp,
generative pages), for ``tests/test_apps_compat.py``.

Each probe is a small program of its own, written against the ``ms`` namespace given,
exercising one call such a tutorial makes; it returns plain Python values (printed text,
shapes, dtype names, values) or ``{"raises": name}``.  The same probes run on refms in
the test::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_apps.py

writes ``tests/recorders/apps.json``.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROBES = {}


def probe(fn):
    """Register ``fn(ms)`` as a probe under its name."""
    PROBES[fn.__name__] = fn
    return fn


def outcome(fn, *args):
    """``fn(*args)``, or ``{"raises": exception class name}``."""
    try:
        return fn(*args)
    except Exception as error:           # the exception type is the recorded behaviour
        return {"raises": type(error).__name__}


def values(tensor):
    """dtype name, shape and values of a Tensor."""
    return [str(tensor.dtype), list(tensor.shape), tensor.asnumpy().tolist()]


# -- a CRF masks its scores with mnp.where on an Int64 mask ---------------------------------

@probe
def numpy_where_non_bool_condition(ms):
    """mnp.where with integer, float and list conditions (nonzero counts as True)."""
    mnp = ms.numpy
    T = ms.Tensor
    mask = T(np.array([[1, 0, 2]], np.int64))
    return {
        "int64": outcome(lambda: values(mnp.where(mask, T(np.array([1.0, 2, 3], np.float32)),
                                                  T(np.array([[9.0], [8.0]], np.float32))))),
        "float": outcome(lambda: values(mnp.where(T(np.array([0.5, 0.0, 1.0], np.float32)), 1, 2))),
        "list": outcome(lambda: values(mnp.where([True, False, True],
                                                 T(np.array([1, 2, 3], np.int32)), 0.5))),
    }


def run(ms):
    return {name: fn(ms) for name, fn in PROBES.items()}


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "apps.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f, indent=0)
