"""Callbacks: hooks ``Model.train`` / ``Model.eval`` call around epochs and steps
(MindSpore ``train/callback/_callback.py``).

Order of calls during ``Model.train``::

    on_train_begin
      per epoch:  on_train_epoch_begin
                    per step:  on_train_step_begin  (train network runs)  on_train_step_end
                  on_train_epoch_end
    on_train_end

Each receives a :class:`RunContext` whose ``original_args()`` is the
``cb_params`` dict (attribute access allowed): ``cur_epoch_num``,
``cur_step_num`` (counted over all epochs), ``batch_num`` (steps per epoch),
``epoch_num``, ``net_outputs``, ``train_network``, ``optimizer``, ``mode``, ...
``run_context.request_stop()`` ends training after the current step.
The 1.x names ``begin``, ``epoch_begin``, ``step_begin``, ``step_end``,
``epoch_end``, ``end`` are what the ``on_train_*`` methods call by default.
"""
from contextlib import ExitStack

import numpy as np

from ..._tensor import Tensor

__all__ = ["Callback", "CallbackManager", "RunContext", "InternalCallbackParam", "handle_loss"]


class Callback:
    """Base class; override the hooks you need (all default to doing nothing)."""

    def __enter__(self):
        return self

    def __exit__(self, *err):
        return None

    def begin(self, run_context):
        """Before training starts."""

    def epoch_begin(self, run_context):
        """Before each epoch."""

    def epoch_end(self, run_context):
        """After each epoch."""

    def step_begin(self, run_context):
        """Before each step."""

    def step_end(self, run_context):
        """After each step."""

    def end(self, run_context):
        """After training."""

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


_HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
          "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
          "on_train_step_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
          "on_eval_epoch_end", "on_eval_step_begin", "on_eval_step_end", "on_eval_end")


class CallbackManager(Callback):
    """Calls every hook on a list of callbacks, in order; a context manager over all of them."""

    def __init__(self, callbacks):
        super().__init__()
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError("When the 'callbacks' is a list, the elements in 'callbacks' "
                                    "must be Callback functions.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")

    @property
    def callbacks(self):
        """The managed callbacks, in call order."""
        return list(self._callbacks)

    def __enter__(self):
        if self._stack is None:
            self._stack = ExitStack().__enter__()
            self._callbacks = [self._stack.enter_context(cb) or cb for cb in self._callbacks]
        return self

    def __exit__(self, *err):
        return self._stack.__exit__(*err)

    def _broadcast(self, hook, run_context):
        for cb in self._callbacks:
            getattr(cb, hook)(run_context)


def _make_hook(name):
    def hook(self, run_context):
        self._broadcast(name, run_context)
    hook.__name__ = name
    hook.__doc__ = f"Call ``{name}`` on every callback."
    return hook


for _name in _HOOKS:
    setattr(CallbackManager, _name, _make_hook(_name))


class InternalCallbackParam(dict):
    """``cb_params``: a dict whose keys are also attributes."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"cb_params has no attribute '{key}'") from None

    def __setattr__(self, key, value):
        self[key] = value


class RunContext:
    """What a callback sees: ``original_args()`` (the cb_params) and ``request_stop()``."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"The argument 'original_args' of RunContext should be dict type, but "
                            f"got {type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self):
        self._stop_requested = True

    def get_stop_requested(self):
        return self._stop_requested


def handle_loss(loss):
    """The loss a monitor prints: a Tensor's mean as a Python float; the first of a tuple."""
    if isinstance(loss, (tuple, list)):
        if loss and isinstance(loss[0], Tensor):
            loss = loss[0]
    if isinstance(loss, Tensor):
        loss = float(np.mean(loss.asnumpy()))
    return loss
