"""``refms.graph``: GRAPH_MODE and ``jit`` — a compiler from Python source to a MindIR-style IR.

Reading order (each module opens with what it does and which algorithm):

1. :mod:`~refms.graph.ir` — the IR and its grammar; :mod:`~refms.graph.graph_ops` its own ops
2. :mod:`~refms.graph.parser`, :mod:`~refms.graph.parse_expr` — Python ``ast`` → IR
3. :mod:`~refms.graph.resolve`, :mod:`~refms.graph.builtins` — names → objects
4. :mod:`~refms.graph.abstract`, :mod:`~refms.graph.infer` (with :mod:`~refms.graph.bridge`,
   :mod:`~refms.graph.op_rules`, :mod:`~refms.graph.cells`, :mod:`~refms.graph.tracer`) — inference
5. :mod:`~refms.graph.passes` — inline, constant folding, CSE, DCE, fusion…
6. :mod:`~refms.graph.executor` — running the IR
7. :mod:`refms.autograd.graph_grad` — gradients as an IR → IR transform;
   :mod:`refms.autograd.graph_dispatch` — when gradients are compiled
8. :mod:`~refms.graph.printer`, :mod:`~refms.graph.dot` — dumps; :mod:`~refms.graph.compiler` — the driver
9. :mod:`~refms.graph.api` — ``jit``, ``ms_function``, compiled Cells, ``ir_text``
"""
from .api import jit, ms_function, JitFunction, run_cell_graph, in_graph_context, ir_text
from .errors import GraphSyntaxError, GraphCompileError

__all__ = ["jit", "ms_function", "JitFunction", "run_cell_graph", "in_graph_context", "ir_text",
           "GraphSyntaxError", "GraphCompileError"]
