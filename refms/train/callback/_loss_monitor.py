"""``mindspore.train.callback._loss_monitor``: MindSpore's private module path for these callbacks."""
from .loss_monitor import LossMonitor

__all__ = ["LossMonitor"]
