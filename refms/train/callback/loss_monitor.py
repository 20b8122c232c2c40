"""``LossMonitor(per_print_times=1)``: print the loss every ``per_print_times`` steps.

The line is MindSpore 2.10's, e.g. ``epoch: 1 step: 2, loss is 0.5781376361846924``
(the loss as a Python float of the batch mean; the step counted within the
epoch).  A NaN or infinite loss stops training with ValueError.
"""
import numpy as np

from .callback import Callback, handle_loss

__all__ = ["LossMonitor"]


class LossMonitor(Callback):
    """LossMonitor(per_print_times=1)"""

    def __init__(self, per_print_times=1):
        super().__init__()
        if isinstance(per_print_times, bool) or not isinstance(per_print_times, int) or \
                per_print_times < 0:
            raise ValueError(f"The argument 'per_print_times' must be a non-negative int, but got "
                             f"{per_print_times!r}.")
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        epoch = cb_params.get("cur_epoch_num", 1)
        loss = handle_loss(cb_params.net_outputs)
        step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss is NAN or INF, "
                             f"training process cannot continue, terminating training.")
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= max(self._per_print_times, 1)
        if self._per_print_times != 0 and \
                cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {cb_params.cur_epoch_num}, metrics: {metrics}")
