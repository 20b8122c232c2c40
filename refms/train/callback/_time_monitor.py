"""``mindspore.train.callback._time_monitor``: MindSpore's private module path for these callbacks."""
from .time_monitor import TimeMonitor

__all__ = ["TimeMonitor"]
