"""A one-line progress bar for the console run that never glues itself to other output.

The bar is drawn on one terminal line with a carriage return and no newline.
Anything else printed while it is shown goes through :meth:`Progress.write`,
which first clears the bar's line (``\\r`` + ``ESC[K``), prints the text with its
own newline, then draws the bar again below it.  :meth:`Progress.close` clears
the line for good.  When the stream is not a terminal (a pipe, a file, CI
logs) the bar is off: :meth:`write` just prints, and no control characters
reach the output.
"""
import sys
import time

__all__ = ["Progress"]

CLEAR_LINE = "\r\x1b[K"


class Progress:
    def __init__(self, total, label="", stream=None, enabled=None, width=30):
        self.total = max(int(total), 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty and isatty()) if enabled is None else enabled
        self.width = width
        self.done = 0
        self.start = time.monotonic()
        self.shown = False

    def render(self):
        filled = int(self.width * self.done / self.total)
        bar = "#" * filled + "-" * (self.width - filled)
        elapsed = time.monotonic() - self.start
        return f"{self.label}[{bar}] {self.done}/{self.total} {elapsed:5.0f}s"

    def _draw(self):
        if self.enabled:
            self.stream.write(CLEAR_LINE + self.render())
            self.stream.flush()
            self.shown = True

    def _clear(self):
        if self.enabled and self.shown:
            self.stream.write(CLEAR_LINE)
            self.stream.flush()
            self.shown = False

    def write(self, text, stream=None):
        """Print ``text`` (a newline is added) above the bar."""
        self._clear()
        target = stream if stream is not None else sys.stdout
        target.write(text + "\n")
        target.flush()
        self._draw()

    def update(self, count=1):
        self.done = min(self.done + count, self.total)
        self._draw()

    def close(self):
        self._clear()
