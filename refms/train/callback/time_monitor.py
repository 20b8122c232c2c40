"""``TimeMonitor(data_size=None)``: print each epoch's wall time and time per step.

Line format (MindSpore 2.10): ``Train epoch time: 331.686 ms, per step time: 66.337 ms``.
"""
import time

from .callback import Callback

__all__ = ["TimeMonitor"]


class TimeMonitor(Callback):
    """TimeMonitor(data_size=None, data_time=False)"""

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        if data_size is not None and (isinstance(data_size, bool) or not isinstance(data_size, int)
                                      or data_size <= 0):
            raise ValueError(f"The argument 'data_size' must be a positive int, but got "
                             f"{data_size!r}.")
        if not isinstance(data_time, bool):
            raise TypeError(f"The argument 'data_time' must be bool, but got "
                            f"{type(data_time).__name__}.")
        self.data_size = data_size
        self.data_time = data_time
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = 0.0

    def on_train_step_begin(self, run_context):
        if self.data_time:
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context):
        if self.data_time:
            self.data_time_start = time.time()

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = time.time()

    def epoch_end(self, run_context):
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        step_size = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        if not step_size:
            raise ValueError("TimeMonitor needs 'data_size' when the steps per epoch are unknown.")
        mode = cb_params.get("mode", "")
        line = f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: " \
               f"{epoch_ms / step_size:5.3f} ms"
        if self.data_time:
            line += f" (data time: {self.data_time_sum * 1000 / step_size:5.3f} ms)"
        print(line, flush=True)
