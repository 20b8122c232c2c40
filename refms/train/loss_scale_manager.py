"""Loss-scale managers for mixed-precision training (MindSpore ``train/loss_scale_manager.py``).

A manager gives ``Model`` / ``build_train_network`` the initial loss scale and
the cell that updates it (:mod:`refms.nn.wrap.loss_scale`):

``FixedLossScaleManager(loss_scale=128.0, drop_overflow_update=True)``
    a constant scale; with ``drop_overflow_update`` steps whose gradients
    overflow are skipped (``TrainOneStepWithLossScaleCell``), otherwise the
    scale is simply passed to the optimizer's ``loss_scale``.
``DynamicLossScaleManager(init_loss_scale=2**24, scale_factor=2, scale_window=2000)``
    halve on overflow, double after ``scale_window`` clean steps.
"""
from ..nn.wrap.loss_scale import DynamicLossScaleUpdateCell
from ..nn.wrap.loss_scale import FixedLossScaleUpdateCell
__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]


class LossScaleManager:
    """Base class: ``get_loss_scale``, ``update_loss_scale``, ``get_update_cell``."""

    def get_loss_scale(self):
        raise NotImplementedError

    def update_loss_scale(self, overflow):
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError

    def get_drop_overflow_update(self):
        return True


class FixedLossScaleManager(LossScaleManager):
    """FixedLossScaleManager(loss_scale=128.0, drop_overflow_update=True)"""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """A fixed scale never changes."""

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """DynamicLossScaleManager(init_loss_scale=2**24, scale_factor=2, scale_window=2000)"""

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got "
                             f"{init_loss_scale}")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or scale_window <= 0:
            raise ValueError(f"The argument 'scale_window' must be a positive int, but got "
                             f"{scale_window!r}.")
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.loss_scale = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        return self.loss_scale

    def update_loss_scale(self, overflow):
        """The Python-side copy of the scale, kept in step with the update cell's."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale Continuous overflow {self.bad_step} times, has "
                               f"exceeded maximum threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        return True

    def get_update_cell(self):
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
