"""A seeded generator of small, valid graph-mode programs, and the differential check that
runs each one three ways: op by op (PyNative), under ``jit``, and as a GRAPH_MODE Cell.

Every generated program is valid Python that MindSpore's static-graph syntax accepts: it
mixes Tensor arithmetic and ops, Python ints and floats, ``if``/``elif``/``else`` on Tensor
and Python conditions, ``for`` over ranges and tuples, ``while`` on Python and Tensor
conditions, ``break``/``continue``, nested loops, nested functions (closures), lambdas,
tuples, lists and dicts.  Each run must give the eager result; the only error allowed is
a documented :class:`~refms.graph.GraphSyntaxError` (which names file:line:col).

Variables keep one type each (``t*``: float32 Tensors of shape (3,), ``n*``: Python ints,
``f*``: Python floats) and every loop is bounded, so a program never fails eagerly.

``check_gradient`` compares the gradients with respect to both inputs the same way (op by
op against ``jit(grad(fn))``).

Used by ``tests/test_graph_random_programs.py`` (a few hundred programs) and
``benchmarks/bench_graph_random_programs.py`` (a longer run with timings).
"""
import importlib.util
import math
import os
import random
import signal
import sys
import time

import numpy as np

__all__ = ["generate_program", "write_module", "check_program", "check_gradient", "Outcome",
           "time_limit"]

TENSORS = ("t0", "t1", "t2")
INTS = ("n0", "n1")
FLOATS = ("f0",)

UNARY_OPS = ("ops.sin({})", "ops.tanh({})", "ops.relu({})", "ops.abs({})", "ops.cos({})",
             "ops.sigmoid({})", "({} * 0.5)", "(-{})", "ops.neg({})")
BINARY_OPS = ("({} + {})", "({} - {})", "({} * {})", "ops.maximum({}, {})", "ops.minimum({}, {})",
              "ops.add({}, {})", "ops.mul({}, {})")


class Generator:
    """One program's source: a recursive walk choosing statements and expressions."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.loop_vars = []          # Python ints bound by enclosing for-loops (readable)
        self.in_loop = 0
        self.helpers = 0
        self.budget = rng.randint(6, 16)  # statements

    # -- expressions ----------------------------------------------------------------------
    def tensor(self, depth=0):
        r = self.rng.random()
        if depth > 2 or r < 0.3:
            return self.rng.choice(TENSORS)
        if r < 0.5:
            return self.rng.choice(UNARY_OPS).format(self.tensor(depth + 1))
        if r < 0.75:
            return self.rng.choice(BINARY_OPS).format(self.tensor(depth + 1), self.tensor(depth + 1))
        if r < 0.85:
            return f"({self.tensor(depth + 1)} * {self.scalar()})"
        if r < 0.92:
            return f"({self.tensor(depth + 1)} + {self.tensor(depth + 1)}.mean())"
        return f"ops.tanh({self.tensor(depth + 1)} * {self.tensor(depth + 1)}.sum())"

    def integer(self):
        r = self.rng.random()
        if r < 0.35:
            return self.rng.choice(INTS)
        if r < 0.5 and self.loop_vars:
            return self.rng.choice(self.loop_vars)
        if r < 0.65:
            return str(self.rng.randint(0, 4))
        if r < 0.8:
            return f"(({self.integer()} * 3 + {self.integer()}) % 7)"
        return f"({self.rng.choice(INTS)} + {self.rng.randint(1, 3)})"

    def scalar(self):
        r = self.rng.random()
        if r < 0.4:
            return self.integer()
        if r < 0.7:
            return self.rng.choice(FLOATS)
        return repr(round(self.rng.uniform(-1.5, 1.5), 2))

    def condition(self):
        r = self.rng.random()
        if r < 0.45:
            reduce_ = self.rng.choice(("sum", "mean", "max", "min"))
            op = self.rng.choice(("<", ">"))
            return f"{self.tensor(1)}.{reduce_}() {op} {round(self.rng.uniform(-1, 1), 2)}"
        if r < 0.75:
            return f"{self.integer()} {self.rng.choice(('<', '>', '==', '!='))} {self.rng.randint(0, 4)}"
        if r < 0.85:
            return f"{self.rng.choice(FLOATS)} > {round(self.rng.uniform(-1, 1), 2)}"
        return f"({self.condition()}) {self.rng.choice(('and', 'or'))} ({self.condition()})"

    # -- statements -----------------------------------------------------------------------
    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def block(self, indent, depth, size=None):
        size = size or self.rng.randint(1, 3)
        for _ in range(size):
            self.statement(indent, depth)

    def statement(self, indent, depth):
        self.budget -= 1
        r = self.rng.random()
        if depth >= 3 or self.budget <= 0:
            r = r * 0.4                  # only simple statements
        if r < 0.22:
            self.emit(indent, f"{self.rng.choice(TENSORS)} = {self.tensor()}")
        elif r < 0.3:
            self.emit(indent, f"{self.rng.choice(INTS)} = {self.integer()}")
        elif r < 0.36:
            self.emit(indent, f"f0 = {self.rng.choice(('f0 * 0.5', 'f0 + 1.0', 'f0 - n0', '-f0'))}")
        elif r < 0.4:
            self.emit(indent, f"{self.rng.choice(TENSORS)} += {self.tensor(2)}")
        elif r < 0.5:
            self.if_statement(indent, depth)
        elif r < 0.6:
            self.for_range(indent, depth)
        elif r < 0.66:
            self.for_tuple(indent, depth)
        elif r < 0.72:
            self.while_int(indent, depth)
        elif r < 0.77:
            self.while_tensor(indent, depth)
        elif r < 0.83:
            self.closure(indent, depth)
        elif r < 0.87:
            self.lambda_(indent)
        elif r < 0.92:
            self.containers(indent)
        elif r < 0.96 and self.in_loop:
            keyword = self.rng.choice(("break", "continue"))
            self.emit(indent, f"if {self.condition()}:")
            self.emit(indent + 1, keyword)
        else:
            self.emit(indent, f"{self.rng.choice(TENSORS)} = {self.tensor()}")

    def if_statement(self, indent, depth):
        self.emit(indent, f"if {self.condition()}:")
        self.block(indent + 1, depth + 1)
        if self.rng.random() < 0.3:
            self.emit(indent, f"elif {self.condition()}:")
            self.block(indent + 1, depth + 1)
        if self.rng.random() < 0.6:
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1)

    def loop_body(self, indent, depth):
        self.in_loop += 1
        self.block(indent + 1, depth + 1)
        self.in_loop -= 1

    def for_range(self, indent, depth):
        var = f"i{len(self.loop_vars)}"
        bound = self.rng.choice(("range({})".format(self.rng.randint(1, 4)),
                                 "range(1, {})".format(self.rng.randint(2, 5)),
                                 "range({}, -1, -1)".format(self.rng.randint(0, 3))))
        self.emit(indent, f"for {var} in {bound}:")
        self.loop_vars.append(var)
        self.loop_body(indent, depth)
        self.loop_vars.pop()

    def for_tuple(self, indent, depth):
        var = f"u{indent}"
        items = ", ".join(self.rng.sample(TENSORS, self.rng.randint(1, 3)))
        self.emit(indent, f"for {var} in ({items},):")
        self.emit(indent + 1, f"{self.rng.choice(TENSORS)} = {var} * 0.5 + {self.tensor(2)}")
        self.loop_body(indent, depth)

    def while_int(self, indent, depth):
        var = f"w{indent}"
        self.emit(indent, f"{var} = 0")
        self.emit(indent, f"while {var} < {self.rng.randint(1, 4)}:")
        self.emit(indent + 1, f"{var} = {var} + 1")
        self.loop_body(indent, depth)

    def while_tensor(self, indent, depth):
        var = f"c{indent}"
        self.emit(indent, f"{var} = ops.reduce_sum(t0 * 0.0)")
        self.emit(indent, f"while {var} < {self.rng.randint(1, 3)}:")
        self.emit(indent + 1, f"{var} = {var} + 1.0")
        self.loop_body(indent, depth)

    def closure(self, indent, depth):
        self.helpers += 1
        name = f"h{self.helpers}"
        captured = self.rng.choice(TENSORS + INTS + FLOATS)
        self.emit(indent, f"def {name}(a, b={self.rng.randint(0, 2)}):")
        self.emit(indent + 1, f"r = a * b + {captured}")
        if self.rng.random() < 0.5:
            self.emit(indent + 1, f"if {self.condition().replace('t0', 'a').replace('t1', 'a')}:")
            self.emit(indent + 2, "r = r - 1.0")
        self.emit(indent + 1, "return ops.tanh(r)")
        call = f"{name}({self.rng.choice(TENSORS)})" if self.rng.random() < 0.5 else \
            f"{name}({self.rng.choice(TENSORS)}, b={self.integer()})"
        self.emit(indent, f"{self.rng.choice(TENSORS)} = {call}")

    def lambda_(self, indent):
        self.helpers += 1
        name = f"g{self.helpers}"
        self.emit(indent, f"{name} = lambda a: {self.rng.choice(UNARY_OPS).format('a')} + "
                          f"{self.rng.choice(TENSORS + FLOATS)}")
        self.emit(indent, f"{self.rng.choice(TENSORS)} = {name}({self.tensor(2)})")

    def containers(self, indent):
        r = self.rng.random()
        a, b = self.rng.choice(TENSORS), self.rng.choice(TENSORS)
        if r < 0.35:
            self.emit(indent, f"p = ({a}, n0, {b})")
            self.emit(indent, f"{self.rng.choice(TENSORS)} = p[0] * p[1] - p[2]")
        elif r < 0.7:
            self.emit(indent, f"q = [{a}, {b}]")
            self.emit(indent, f"q.append({self.tensor(2)})")
            self.emit(indent, f"{self.rng.choice(TENSORS)} = q[-1] + q[0] * len(q)")
        else:
            self.emit(indent, f"d = {{'a': {a}, 'k': n1}}")
            self.emit(indent, f"{self.rng.choice(TENSORS)} = d['a'] * d['k'] + d.get('z', 1.0)")

    def program(self, name, method=False):
        self.lines = []
        params = "self, x, y" if method else "x, y"
        self.emit(0, f"def {name}({params}):")
        self.emit(1, "t0 = x")
        self.emit(1, "t1 = y")
        self.emit(1, "t2 = x * y")
        self.emit(1, "n0 = 1")
        self.emit(1, "n1 = 2")
        self.emit(1, "f0 = 0.5")
        while self.budget > 0:
            self.statement(1, 0)
        self.emit(1, "return t0, t1, t2, n0, n1, f0")
        return "\n".join(self.lines)


def generate_program(seed, name="program", method=False):
    """The source of one program (a function of two float32 Tensors of shape (3,))."""
    return Generator(random.Random(seed)).program(name, method)


def write_module(directory, seeds, module_name="generated_programs"):
    """Write a module with ``p<seed>`` functions and ``C<seed>`` Cells for ``seeds``; import it."""
    parts = ["import refms as ms", "from refms import ops, nn", ""]
    for seed in seeds:
        parts.append(generate_program(seed, f"p{seed}"))
        parts.append("")
        method = generate_program(seed, "construct", method=True)
        parts.append(f"class C{seed}(nn.Cell):")
        parts.extend("    " + line for line in method.splitlines())
        parts.append("")
    path = os.path.join(str(directory), module_name + ".py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts) + "\n")
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


class time_limit:
    """Context manager: raise TimeoutError after ``seconds`` (SIGALRM; main thread only)."""

    def __init__(self, seconds):
        self.seconds = seconds

    def _expired(self, signum, frame):
        raise TimeoutError(f"over {self.seconds} s")

    def __enter__(self):
        self.previous = signal.signal(signal.SIGALRM, self._expired)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        return False


def check_gradient(module, seed, inputs, limit_s=30.0):
    """The gradient of program ``seed`` with respect to both inputs (of the sum of its Tensor
    outputs, semantics 4.4), op by op and compiled as ``jit(grad(fn))``: the same values.
    Loops on Tensor conditions that leave early (``break``) are where the two part."""
    import refms as ms
    fn = getattr(module, f"p{seed}")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    expected = ms.grad(fn, (0, 1))(*inputs)
    compile_s = 0.0
    try:
        with time_limit(limit_s):
            start = time.perf_counter()
            got = ms.jit(ms.grad(fn, (0, 1)))(*inputs)
            compile_s = time.perf_counter() - start
    except TimeoutError as error:
        return Outcome(seed, "hang", str(error), limit_s)
    except Exception as error:
        kind = "documented" if _documented(error, module.__file__) else "internal"
        return Outcome(seed, kind, f"{type(error).__name__}: {str(error)[:300]}", compile_s)
    if not _same(expected, got):
        return Outcome(seed, "wrong", f"jit(grad): {got!r} != eager {expected!r}", compile_s)
    return Outcome(seed, "agree", "", compile_s)


class Outcome:
    """What happened to one program: ``kind`` is 'agree', 'documented' (a GraphSyntaxError
    naming file:line:col), 'wrong', 'internal' or 'hang'; ``compile_s`` the jit compile
    time (the first call)."""

    def __init__(self, seed, kind, detail="", compile_s=0.0):
        self.seed = seed
        self.kind = kind
        self.detail = detail
        self.compile_s = compile_s

    def __repr__(self):
        return f"Outcome(seed={self.seed}, {self.kind}, {self.compile_s:.2f} s, {self.detail})"


def _same(a, b):
    """Equal structure and types; Tensor values equal to float32 rounding (NaN equals NaN)."""
    from refms import Tensor
    if isinstance(a, Tensor):
        if not isinstance(b, Tensor) or a.dtype != b.dtype or a.shape != b.shape:
            return False
        return np.allclose(a.asnumpy(), b.asnumpy(), rtol=1e-4, atol=1e-5, equal_nan=True)
    if isinstance(a, (tuple, list)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b)))
    if isinstance(a, float):
        return isinstance(b, float) and (math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)
                                         or (math.isnan(a) and math.isnan(b)))
    return type(a) is type(b) and a == b


def _documented(error, source_file):
    from refms.graph import GraphSyntaxError
    return isinstance(error, GraphSyntaxError) and os.path.basename(source_file) in str(error)


def check_program(module, seed, inputs, limit_s=30.0):
    """Run program ``seed`` of ``module`` eagerly, under jit and as a GRAPH_MODE Cell."""
    import refms as ms
    fn = getattr(module, f"p{seed}")
    cell_class = getattr(module, f"C{seed}")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    expected = fn(*inputs)
    compile_s = 0.0
    try:
        with time_limit(limit_s):
            start = time.perf_counter()
            jitted = ms.jit(fn)
            got = jitted(*inputs)
            compile_s = time.perf_counter() - start
            if not _same(expected, got):
                return Outcome(seed, "wrong", f"jit: {got!r} != eager {expected!r}", compile_s)
            ms.set_context(mode=ms.GRAPH_MODE)
            got = cell_class()(*inputs)
            if not _same(expected, got):
                return Outcome(seed, "wrong", f"cell: {got!r} != eager {expected!r}", compile_s)
    except TimeoutError as error:
        return Outcome(seed, "hang", str(error), limit_s)
    except Exception as error:          # classified: documented or internal
        kind = "documented" if _documented(error, module.__file__) else "internal"
        return Outcome(seed, kind, f"{type(error).__name__}: {str(error)[:300]}", compile_s)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return Outcome(seed, "agree", "", compile_s)
