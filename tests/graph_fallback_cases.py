"""JIT Fallback at run time: programs that need a computed Tensor's value inside ``jit``.

Each case takes the framework module (``mindspore`` or ``refms``) and returns a plain,
JSON-friendly result (:func:`plain`).  ``tests/recorders/record_graph_fallback.py`` runs
them on MindSpore 2.10 into ``tests/golden/graph_fallback.json``;
``tests/test_graph_fallback.py`` runs them on refms and compares.
"""
import numpy as np


def plain(value):
    """A JSON-friendly description of a result: type names, values and dtypes."""
    if hasattr(value, "asnumpy") and hasattr(value, "dtype"):
        return {"tensor": value.asnumpy().tolist(), "dtype": str(value.dtype)}
    if isinstance(value, np.ndarray):
        return {"ndarray": value.tolist(), "dtype": str(value.dtype)}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [plain(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": {str(k): plain(v) for k, v in value.items()}}
    if isinstance(value, np.generic):
        return {"numpy_scalar": value.item(), "type": type(value).__name__}
    return {"python": value, "type": type(value).__name__}


def host_add(ms):
    """``x.asnumpy() + y.asnumpy()`` is a numpy array made when the graph runs."""
    @ms.jit
    def f(x, y):
        return x.asnumpy() + y.asnumpy()
    return plain(f(ms.tensor([4, 5]), ms.tensor([1, 2])))


def int_of_computed_tensor(ms):
    """``int(t)`` of a computed Tensor is a Python int at run time; Tensor ops use it."""
    @ms.jit
    def f(x):
        n = int(x.sum())
        return x * n, n
    return plain(f(ms.tensor([1.0, 2.0])))


def grad_through_int(ms):
    """The gradient flows through ``x * n`` but not into ``n = int(...)``."""
    def f(x):
        n = int(x.sum())
        return (x * n).sum()
    return plain(ms.grad(ms.jit(f))(ms.tensor([1.0, 2.0])))


def grad_through_host_tensor(ms):
    """An op with a Tensor made on the host runs on the host: no gradient flows through it
    (MindSpore 2.10: zeros, even for ``x``'s own path)."""
    def f(x):
        y = ms.tensor(x.asnumpy() * 3)
        return (x * y).sum()
    return plain(ms.grad(ms.jit(f))(ms.tensor([1.0, 2.0])))


def host_value_in_if(ms):
    """An ``if`` on a host value is decided when the graph runs."""
    @ms.jit
    def f(x):
        if x.asnumpy()[0] > 0:
            y = x * 2
        else:
            y = x * 3
        return y
    return [plain(f(ms.tensor([1.0, 2.0]))), plain(f(ms.tensor([-1.0, 2.0])))]


def loop_over_run_time_range(ms):
    """``for _ in range(int(t))``: a loop whose length is known only at run time."""
    @ms.jit
    def f(x):
        a = 0
        for _ in range(int(x.sum())):
            a = a + 2
        return a
    return [plain(f(ms.tensor([1, 2]))), plain(f(ms.tensor([2, 3])))]


def computed_tensor_as_python_index(ms):
    """A computed Tensor indexes a Python tuple at run time."""
    @ms.jit
    def f(x):
        return (10, 20, 30)[int(x.argmax())]
    return plain(f(ms.tensor([1.0, 5.0, 2.0])))


def assert_on_tensor(ms):
    """``assert t in [2, 3, 4]`` is checked when the graph runs (-1 is not in the list)."""
    @ms.jit
    def f(x):
        assert x in [2, 3, 4]
        return x
    try:
        f(ms.tensor(-1))
    except Exception as error:                   # the type is what is compared
        return type(error).__name__
    return None


def host_value_in_list(ms):
    """``in`` on host values (MindSpore 2.10's compiled ``t in [2, 3, 4]`` on a Tensor is
    always False, unlike PyNative's; refms runs it as PyNative does)."""
    @ms.jit
    def f(x):
        return x.asnumpy() in [2, 3, 4], int(x) in [2, 3, 4], int(x) in [5]
    return plain(f(ms.tensor(3)))


def host_tensor_in_ops(ms):
    """A Tensor made on the host goes through ops; its dtype is the host value's."""
    @ms.jit
    def f(x):
        return ms.ops.abs(ms.Tensor(x.asnumpy())) + x
    return plain(f(ms.tensor([1.0, -2.0])))


def shape_times_host_int(ms):
    @ms.jit
    def f(x):
        return x.shape[0] * int(x[0])
    return plain(f(ms.tensor([3, -2])))


GLOBAL_LIST = [1, 2, 3]


def global_list_in_place(ms):
    """``extend``/``insert``/``reverse`` statements change a global list every run."""
    @ms.jit
    def f(x):
        GLOBAL_LIST.extend([4])
        GLOBAL_LIST.insert(0, 9)
        GLOBAL_LIST.reverse()
        return GLOBAL_LIST
    GLOBAL_LIST[:] = [1, 2, 3]
    first = f(ms.tensor(1.0))
    same = first is GLOBAL_LIST
    second = list(f(ms.tensor(1.0)))
    return [same, second, list(GLOBAL_LIST)]


def numpy_on_computed_tensor(ms):
    """numpy functions on a computed Tensor's array; the result becomes a Tensor again."""
    @ms.jit
    def f(x):
        y = x * 2
        m = np.max(y.asnumpy())
        return ms.tensor(np.arange(3) * m, ms.float32), len(y.asnumpy())
    return plain(f(ms.tensor([1.0, 3.0])))


def while_on_host_condition(ms):
    """A ``while`` whose condition is a host value: a loop decided at run time."""
    @ms.jit
    def f(x):
        n = 0
        while x.asnumpy().sum() < 10:
            x = x + 1
            n = n + 1
        return x, n
    return plain(f(ms.tensor([1.0, 2.0])))


def for_over_host_array(ms):
    """``for v in x.asnumpy()``: iterating a host array of a length known at run time."""
    @ms.jit
    def f(x):
        total = 0.0
        for v in x.asnumpy():
            total = total + float(v) * 2
        return total
    return plain(f(ms.tensor([1.0, 2.0, 4.0])))


def grad_of_host_output(ms):
    """The gradient of a function whose result is made on the host."""
    def f(x):
        return ms.tensor(x.asnumpy() * 2).sum() + (x * 3).sum()
    return plain(ms.grad(ms.jit(f))(ms.tensor([1.0, 2.0])))


def lambda_called_by_host_code(ms):
    """A lambda given to ``map`` over a host array is called by the host.  (The values are
    compared: MindSpore 2.10 returned numpy float64 numbers in the list.)"""
    @ms.jit
    def f(x):
        return list(map(lambda v: v * 2, x.asnumpy()))
    return plain([float(v) for v in f(ms.tensor([1.0, 2.0]))])


GLOBAL_DICT = {"a": 1, "b": 2}


def global_pop(ms):
    """``y = xs.pop()`` pops from a global list every run; a global dict is left as it was."""
    @ms.jit
    def f(x):
        GLOBAL_LIST.extend([4])
        y = GLOBAL_LIST.pop()
        z = GLOBAL_LIST.pop(0)
        return y, z, GLOBAL_DICT.pop("a", 0)
    GLOBAL_LIST[:] = [1, 2, 3]
    first = plain(f(ms.tensor(1.0)))
    second = plain(f(ms.tensor(1.0)))
    return [first, second, list(GLOBAL_LIST), dict(GLOBAL_DICT)]


def weight_values_at_run_time(ms):
    """``int``/``float`` of a weight read its value when the graph runs (set_data between
    calls is seen); ``asnumpy()`` of a weight is a compile error."""
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.tensor([1.0, 2.0]), name="w")

        @ms.jit
        def construct(self, x):
            return int(self.w[0]) + 1, float(self.w.sum())

    class Reads(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.tensor([1.0, 2.0]), name="w")

        @ms.jit
        def construct(self, x):
            return self.w.asnumpy() * 2

    net = Net()
    first = plain(net(ms.tensor(1.0)))
    net.w.set_data(ms.tensor([5.0, 6.0]))
    second = plain(net(ms.tensor(1.0)))
    try:
        Reads()(ms.tensor(1.0))
        raised = None
    except Exception as error:                   # the type is what is compared
        raised = type(error).__name__
    return [first, second, raised]


CASES = [host_add, int_of_computed_tensor, grad_through_int, grad_through_host_tensor,
         host_value_in_if, loop_over_run_time_range, computed_tensor_as_python_index,
         assert_on_tensor, host_value_in_list, host_tensor_in_ops, shape_times_host_int,
         global_list_in_place, numpy_on_computed_tensor, while_on_host_condition,
         for_over_host_array, grad_of_host_output, lambda_called_by_host_code,
         weight_values_at_run_time, global_pop]
