"""``refms.train.callback``: callbacks for ``Model.train`` / ``Model.eval``."""
from .callback import Callback, CallbackManager, RunContext, InternalCallbackParam
from .loss_monitor import LossMonitor
from .time_monitor import TimeMonitor
from .checkpoint import CheckpointConfig, ModelCheckpoint
from .progress import ProgressBar

#: The private name MindSpore scripts import (``mindspore.train.callback._InternalCallbackParam``).
_InternalCallbackParam = InternalCallbackParam

__all__ = ["Callback", "CallbackManager", "RunContext", "InternalCallbackParam", "LossMonitor",
           "TimeMonitor", "CheckpointConfig", "ModelCheckpoint", "ProgressBar"]
