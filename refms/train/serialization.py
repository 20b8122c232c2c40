"""``refms.train.serialization``: MindSpore's import path for the checkpoint functions."""
from ..checkpoint.serialization import save_checkpoint, load_checkpoint, load_param_into_net

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]
