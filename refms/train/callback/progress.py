"""``ProgressBar``: a one-line progress display for long training and evaluation runs (a refms
addition).

It writes to stderr only, redrawing one line::

    epoch 3/10 [##########..........] 23/45 loss 0.4123  1.9 s/epoch
    eval [####################] 12/12

so a script's stdout (what MindSpore scripts print, and what conformance
compares) is untouched.  The bar never shares a line with other output: while
it is shown, ``sys.stdout`` and ``sys.stderr`` pass through a small wrapper
that erases the bar's line (carriage return, then ``ESC[K``, "erase to end of
line") before anything else is written, and draws the bar again below each
finished line; at the end of the run the bar's line is erased, and the streams
are given back, also when the run raises.

The bar is drawn only on a terminal (``stream.isatty()``): redirected to a
file or a pipe it writes nothing.  ``Model.train`` and ``Model.eval`` add one
by themselves when stderr is a terminal and the run is long (more than
``LONG_RUN_SECONDS``); ``REFMS_PROGRESS=0`` turns that off and
``REFMS_PROGRESS=1`` forces the bar on, terminal or not.
"""
import os
import sys
import time

from .callback import Callback, handle_loss

__all__ = ["ProgressBar", "wants_progress_bar", "LONG_RUN_SECONDS", "CLEAR_LINE"]

#: A run expected to take longer than this gets an automatic progress bar.
LONG_RUN_SECONDS = 10.0

#: Back to the start of the line and erase it.
CLEAR_LINE = "\r\x1b[K"


def wants_progress_bar():
    """The REFMS_PROGRESS setting: True (force), False (never) or None (decide by the terminal)."""
    value = os.environ.get("REFMS_PROGRESS", "").strip()
    if value == "1":
        return True
    if value == "0":
        return False
    return None


class _MakeWay:
    """Stands in for ``sys.stdout``/``sys.stderr`` while a bar is shown: the bar's line is erased
    before any write, and the bar is drawn again after a finished line."""

    def __init__(self, wrapped, bar):
        self._wrapped = wrapped
        self._bar = bar

    def write(self, text):
        self._bar._erase()
        written = self._wrapped.write(text)
        if text.endswith("\n"):
            self._wrapped.flush()
            self._bar._draw()
        return written

    def __getattr__(self, name):
        return getattr(self._wrapped, name)


class ProgressBar(Callback):
    """ProgressBar(width=20, stream=None, delay=0.0, enabled=None).

    Drawn only after ``delay`` seconds of the run, and only when ``stream``
    (default: stderr) is a terminal — ``enabled=True`` draws it anyway,
    ``enabled=False`` never."""

    def __init__(self, width=20, stream=None, delay=0.0, enabled=None):
        super().__init__()
        self.width = width
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        if enabled is None:
            enabled = wants_progress_bar() or bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self._start = None
        self._epoch_start = None
        self._text = ""
        self._shown = False
        self._saved = None

    # -- drawing ------------------------------------------------------------------------------

    def _draw(self):
        if self._text and self.enabled:
            self.stream.write(CLEAR_LINE + self._text)
            self.stream.flush()
            self._shown = True

    def _erase(self):
        if self._shown:
            self.stream.write(CLEAR_LINE)
            self.stream.flush()
            self._shown = False

    def _bar(self, step, steps):
        done = int(self.width * step / steps) if steps else self.width
        return f"[{'#' * done}{'.' * (self.width - done)}] {step}/{steps}"

    def _show(self, text):
        if not self.enabled or time.time() - self._start < self.delay:
            return
        self._take_streams()
        self._text = text
        self._draw()

    # -- the streams ---------------------------------------------------------------------------

    def _take_streams(self):
        if self._saved is None:
            self._saved = (sys.stdout, sys.stderr)
            sys.stdout = _MakeWay(sys.stdout, self)
            sys.stderr = _MakeWay(sys.stderr, self)

    def close(self):
        """Erase the bar and give the streams back (idempotent)."""
        self._erase()
        self._text = ""
        if self._saved is not None:
            sys.stdout, sys.stderr = self._saved
            self._saved = None

    def __exit__(self, *err):
        self.close()
        return super().__exit__(*err)

    # -- training ------------------------------------------------------------------------------

    def on_train_begin(self, run_context):
        self._start = time.time()

    def on_train_epoch_begin(self, run_context):
        self._epoch_start = time.time()

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        steps = cb.batch_num
        step = (cb.cur_step_num - 1) % steps + 1
        loss = handle_loss(cb.get("net_outputs"))
        loss_text = f" loss {loss:.4f}" if isinstance(loss, float) else ""
        elapsed = time.time() - self._epoch_start
        per_epoch = elapsed * steps / step
        self._show(f"epoch {cb.cur_epoch_num}/{cb.epoch_num} {self._bar(step, steps)}{loss_text}  "
                   f"{per_epoch:.1f} s/epoch")

    def on_train_end(self, run_context):
        self.close()

    # -- evaluation ----------------------------------------------------------------------------

    def on_eval_begin(self, run_context):
        self._start = time.time()

    def on_eval_step_end(self, run_context):
        cb = run_context.original_args()
        self._show(f"eval {self._bar(cb.cur_step_num, cb.batch_num)}")

    def on_eval_end(self, run_context):
        self.close()
