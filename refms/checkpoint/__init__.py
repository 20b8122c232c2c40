"""Checkpoints in MindSpore's ``.ckpt`` format.

Reading order: :mod:`~refms.checkpoint.wire` (protocol-buffer wire format),
:mod:`~refms.checkpoint.ckpt_format` (the ``checkpoint.proto`` schema), then
:mod:`~refms.checkpoint.serialization` (the public functions).
"""
from .serialization import save_checkpoint, load_checkpoint, load_param_into_net

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]
