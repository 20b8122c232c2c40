"""The three small programs whose IR dumps are golden files (tests/test_graph_ir.py).

Regenerate the ``.ir`` files after an intended change of the dump format with
``REFMS_UPDATE_GOLDEN=1 python -m pytest tests/test_graph_ir.py``.
"""
from refms import ops


def straight_line(x, y):
    a = x * y
    b = a + 1
    return ops.relu(b) - x


def closure(x, y):
    a = x - 1

    def inner(z):
        return a * z
    b = inner(y)
    return b + a


def if_on_tensor(x, y):
    if x.sum() > 2:
        z = x * y
    else:
        z = x - y
    return z
