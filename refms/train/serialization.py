"""``refms.train.serialization``: MindSpore's import path for the checkpoint functions.

Also ``export``/``load`` (MindIR files: :mod:`refms.train.mindir`)
and the multi-device checkpoint functions of :mod:`refms.parallel`, which
raise ``RuntimeError`` on one device.
"""
from ..checkpoint.serialization import save_checkpoint, load_checkpoint, load_param_into_net
from .mindir import export, load
from ..parallel import load_distributed_checkpoint, build_searched_strategy, merge_sliced_parameter
from .._tensor import Tensor
from .. import context

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "export", "load",
           "load_distributed_checkpoint", "build_searched_strategy", "merge_sliced_parameter",
           "Tensor", "context"]
