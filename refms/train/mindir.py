"""``export`` / ``load``: MindIR files, the graph format MindSpore serialises networks in.

``export(net, *inputs, file_name=..., file_format="MINDIR")`` compiles ``net``
for ``inputs`` and writes the graph and its weights as MindSpore writes them
(:mod:`refms.train.mindir_export`); ``load(file)`` reads a ``.mindir`` file —
refms's or MindSpore's — into a graph that :class:`~refms.nn.graph_cell.GraphCell` runs
(:mod:`refms.train.mindir_load`).  The bytes are protocol buffers
(:mod:`refms.train.protobuf`) of the messages in :mod:`refms.train.mindir_schema`.
AIR and ONNX are not supported.
"""
__all__ = ["export", "load"]


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    """Write ``net`` compiled for ``inputs`` to ``file_name`` (``.mindir`` appended); returns
    None, as MindSpore 2.10's ``export`` does."""
    if file_format != "MINDIR":
        raise NotImplementedError(f"For 'export', refms writes only the MINDIR format, not "
                                  f"{file_format}.")
    from .mindir_export import export_mindir
    export_mindir(net, inputs, file_name)


def load(file_name, **kwargs):
    """The graph of a MindIR file, to be run by ``nn.GraphCell(graph)``."""
    from .mindir_load import read_mindir
    return read_mindir(file_name)
