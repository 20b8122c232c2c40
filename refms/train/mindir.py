"""``export`` / ``load`` of MindIR files: not implemented in refms.

MindSpore serialises a compiled graph as MindIR (a protobuf of the graph and
its weights).  refms does not write or read that format yet, so both
functions raise ``NotImplementedError`` naming what is missing; checkpoints
(``save_checkpoint`` / ``load_checkpoint``, MindSpore's ``.ckpt`` format) are
implemented.
"""
__all__ = ["export", "load"]


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    """Raises ``NotImplementedError``: refms cannot write MindIR/AIR/ONNX files."""
    raise NotImplementedError(f"For 'export', refms does not implement the {file_format} format "
                              f"(the graph is not serialised); save the weights with "
                              f"save_checkpoint instead.")


def load(file_name, **kwargs):
    """Raises ``NotImplementedError``: refms cannot read MindIR files."""
    raise NotImplementedError("For 'load', refms does not implement reading MindIR files; load "
                              "weights from a checkpoint with load_checkpoint instead.")
