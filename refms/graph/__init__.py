"""``refms.graph``: GRAPH_MODE and ``jit`` — a compiler from Python source to a MindIR-style IR.

Pipeline (each stage is dumped by ``set_context(save_graphs=True)``; ``ir_text`` returns
one; ``python -m refms ir script.py`` prints them)::

    Python source ──parse──▶ IR ──resolve──▶ ──infer (specialize)──▶ typed IR
        ──inline, simplify, cconv, constant_fold, cse, dce, fusion──▶ validate ──▶ executor

Reading order (each module opens with what it does and which algorithm):

1. :mod:`~refms.graph.ir` — the IR and its grammar; :mod:`~refms.graph.graph_ops` its own ops
2. :mod:`~refms.graph.parser`, :mod:`~refms.graph.parse_expr`, :mod:`~refms.graph.source` —
   Python ``ast`` → IR
3. :mod:`~refms.graph.resolve`, :mod:`~refms.graph.builtins` — names → objects
4. :mod:`~refms.graph.abstract`, :mod:`~refms.graph.infer` (with :mod:`~refms.graph.bridge`,
   :mod:`~refms.graph.op_rules`, :mod:`~refms.graph.attributes`, :mod:`~refms.graph.cells`,
   :mod:`~refms.graph.tracer`) — inference; :mod:`~refms.graph.fallback` — Python code
   that needs a run-time value, run on the host when the graph runs (JIT Fallback);
   :mod:`~refms.graph.mutable` — variable inputs;
   :mod:`~refms.graph.cells` is also where upper layers register how their objects (Cells)
   are called in a graph
5. :mod:`~refms.graph.passes` — inline, simplify, closure conversion, constant folding, CSE,
   DCE, fusion (:mod:`~refms.graph.clone` copies graphs for them)
6. :mod:`~refms.graph.executor` — running the IR
7. :mod:`~refms.graph.autodiff` — gradients as an IR → IR transform;
   :mod:`~refms.graph.grad_dispatch` — when gradients are compiled
8. :mod:`~refms.graph.printer`, :mod:`~refms.graph.dot` — dumps; :mod:`~refms.graph.compiler` —
   the driver
9. :mod:`~refms.graph.api` — ``jit``, ``ms_function``, compiled Cells, ``ir_text``;
   :mod:`~refms.graph.cache` — the bounded per-function cache of compiled programs

Known limits (each raises a clear error rather than computing something else):

* Python numbers are compile-time constants: a number changed inside a ``while`` on a
  Tensor condition cannot be compiled (MindSpore turns it into a run-time scalar);
* ``x[mask]`` with a run-time boolean mask must use a mask of ``x``'s own shape;
  ``x[i] = v`` on a Tensor with an index known only at run time writes one value (broadcast
  to every element or row the index picks);
* a gradient through a run-time ``if``/``while`` cannot be differentiated again
  (higher-order gradients of straight-line code work);
* a compiled program cannot return a function; ``Tensor.register_hook`` on values inside
  a compiled program is not called;
* a user function whose source cannot be read (typed into the REPL, ``exec``) is run on
  abstract stand-ins instead of being parsed (on the host at run time, whole, when it needs
  a value known only then);
* a value made on the host at run time (JIT Fallback) cannot be iterated by a comprehension
  or unpacked into ``*args``, and graph functions (lambdas, nested ``def``) cannot be passed
  to host code.
"""
from .api import jit, ms_function, JitFunction, run_cell_graph, in_graph_context, ir_text
from .cache import get_compile_cache_size, set_compile_cache_size
from .errors import GraphSyntaxError, GraphCompileError
from .mutable import mutable

__all__ = ["jit", "ms_function", "JitFunction", "run_cell_graph", "in_graph_context", "ir_text",
           "GraphSyntaxError", "GraphCompileError", "get_compile_cache_size",
           "set_compile_cache_size", "mutable"]
