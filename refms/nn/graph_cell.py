"""``GraphCell``: a Cell that runs a graph loaded from a MindIR file (MindSpore ``nn.GraphCell``).

::

    graph = refms.load("net.mindir")          # a refms.train.mindir_load.MindIRGraph
    net = nn.GraphCell(graph)
    out = net(x)

The graph's weights are the Cell's parameters (named by their ``ref_key``);
``params_init`` (a dict name → Tensor/Parameter) replaces some of them.  The
graph runs node by node in either mode (it is already a graph: nothing is
compiled again).
"""
from .._tensor import Tensor
from .cell import Cell

__all__ = ["GraphCell"]


class GraphCell(Cell):
    """GraphCell(graph, params_init=None, obf_random_seed=None)"""

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__()
        if not (hasattr(graph, "run") and hasattr(graph, "parameters")):   # a MindIRGraph
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be a graph returned by "
                            f"load(), but got {type(graph).__name__}.")
        self.graph = graph
        by_key = {param.name: file_name for file_name, param in graph.parameters.items()}
        for name, value in (params_init or {}).items():
            if name not in by_key:
                raise ValueError(f"For 'GraphCell', 'params_init' names {name!r}, which is not a "
                                 f"parameter of the graph: {sorted(by_key)}.")
            value = value if isinstance(value, Tensor) else Tensor(value)
            graph.parameters[by_key[name]].set_data(value)
        for param in graph.parameters.values():
            self.insert_param_to_cell(param.name.replace(".", "_"), param)

    def construct(self, *inputs):
        return self.graph.run(*inputs)

    def __call__(self, *inputs):
        return self.graph.run(*inputs)


