"""``mindspore.train.callback._callback``: MindSpore's private module path for these callbacks."""
from .callback import Callback, RunContext, CallbackManager, InternalCallbackParam

__all__ = ["Callback", "RunContext", "CallbackManager", "InternalCallbackParam"]
