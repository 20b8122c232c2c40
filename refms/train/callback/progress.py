"""``ProgressBar``: a one-line progress display for long training runs (a refms addition).

It writes to stderr only, redrawing one line with carriage returns::

    epoch 3/10 [##########..........] 23/45 loss 0.4123  1.9 s/epoch

so a script's stdout (what MindSpore scripts print, and what conformance
compares) is untouched.  ``Model.train`` adds one by itself when stderr is a
terminal and the run is long (more than :data:`LONG_RUN_SECONDS` expected);
``REFMS_PROGRESS=0`` turns that off and ``REFMS_PROGRESS=1`` forces it on.
"""
import os
import sys
import time

from .callback import Callback, handle_loss

__all__ = ["ProgressBar", "wants_progress_bar", "LONG_RUN_SECONDS"]

#: A run expected to take longer than this gets an automatic progress bar.
LONG_RUN_SECONDS = 10.0


def wants_progress_bar():
    """The REFMS_PROGRESS setting: True (force), False (never) or None (decide by the terminal)."""
    value = os.environ.get("REFMS_PROGRESS", "").strip()
    if value == "1":
        return True
    if value == "0":
        return False
    return None


class ProgressBar(Callback):
    """ProgressBar(width=20, stream=None, delay=0.0): drawn only after ``delay`` seconds of training."""

    def __init__(self, width=20, stream=None, delay=0.0):
        super().__init__()
        self.width = width
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self._start = None
        self._epoch_start = None
        self._drawn = False

    def on_train_begin(self, run_context):
        self._start = time.time()

    def on_train_epoch_begin(self, run_context):
        self._epoch_start = time.time()

    def on_train_step_end(self, run_context):
        if time.time() - self._start < self.delay:
            return
        cb = run_context.original_args()
        steps = cb.batch_num
        step = (cb.cur_step_num - 1) % steps + 1
        done = int(self.width * step / steps)
        loss = handle_loss(cb.get("net_outputs"))
        loss_text = f" loss {loss:.4f}" if isinstance(loss, float) else ""
        elapsed = time.time() - self._epoch_start
        per_epoch = elapsed * steps / step
        self.stream.write(f"\repoch {cb.cur_epoch_num}/{cb.epoch_num} "
                          f"[{'#' * done}{'.' * (self.width - done)}] {step}/{steps}{loss_text}  "
                          f"{per_epoch:.1f} s/epoch ")
        self.stream.flush()
        self._drawn = True

    def on_train_end(self, run_context):
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
