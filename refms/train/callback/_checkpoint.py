"""``mindspore.train.callback._checkpoint``: MindSpore's private module path for these callbacks."""
from .checkpoint import CheckpointConfig, ModelCheckpoint

__all__ = ["CheckpointConfig", "ModelCheckpoint"]
