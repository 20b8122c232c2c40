"""Learning-rate schedules: Cells mapping the optimizer's ``global_step`` to a learning rate.

With t = ``global_step`` (an Int32 tensor, cast to float32) and lr₀ the initial rate
(MindSpore 2.10 ``nn/learning_rate_schedule.py``; "stair" floors the exponent)::

    ExponentialDecayLR   lr₀ · rate^(t / steps)
    NaturalExpDecayLR    lr₀ · e^(−rate · t)                 (stair: t = ⌊t / steps⌋ · steps)
    InverseDecayLR       lr₀ / (1 + rate · t / steps)
    CosineDecayLR        min + ½(max − min)(1 + cos(π · min(t, steps) / steps))
    PolynomialDecayLR    (lr₀ − end)(1 − min(t, steps)/steps)^power + end
                         (update_decay_steps: steps · max(⌈t / steps⌉, 1) instead of the min)
    WarmUpLR             lr₀ · min(t, warmup_steps) / warmup_steps

An optimizer calls ``schedule(global_step)`` before each update (``Optimizer.get_lr``).
"""
import math

from .. import dtype as mstype
from ..ops import functional as F
from .cell import Cell

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR",
           "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR"]


def _positive_int(value, name, cls_name):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{cls_name}', the '{name}' must be a positive int, but got {value!r}.")
    return value


def _float(value, name, cls_name, positive=True):
    if not isinstance(value, float):
        raise TypeError(f"For '{cls_name}', the '{name}' must be float, but got "
                        f"{type(value).__name__}.")
    if value < 0 or (positive and value == 0):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"For '{cls_name}', the '{name}' must be {kind}, but got {value}.")
    return value


class LearningRateSchedule(Cell):
    """Base class: ``construct(global_step)`` returns the learning rate (a float32 Tensor)."""

    def construct(self, global_step):
        raise NotImplementedError(f"For '{self.cls_name}', the method 'construct' is not defined.")


class _DecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        self.learning_rate = _float(learning_rate, "learning_rate", self.cls_name)
        self.decay_rate = _float(decay_rate, "decay_rate", self.cls_name)
        self.decay_steps = _positive_int(decay_steps, "decay_steps", self.cls_name)
        if not isinstance(is_stair, bool):
            raise TypeError(f"For '{self.cls_name}', the 'is_stair' must be bool, but got "
                            f"{type(is_stair).__name__}.")
        self.is_stair = is_stair


class ExponentialDecayLR(_DecayLR):
    """lr₀ · rate^(t / decay_steps)"""

    def construct(self, global_step):
        p = F.cast(global_step, mstype.float32) / self.decay_steps
        if self.is_stair:
            p = F.floor(p)
        return self.learning_rate * F.pow(self.decay_rate, p)


class NaturalExpDecayLR(_DecayLR):
    """lr₀ · e^(−rate · t)"""

    def construct(self, global_step):
        p = F.cast(global_step, mstype.float32)
        if self.is_stair:
            p = F.floor_div(p, self.decay_steps) * self.decay_steps
        return self.learning_rate * F.pow(math.e, -self.decay_rate * p)


class InverseDecayLR(_DecayLR):
    """lr₀ / (1 + rate · t / decay_steps)"""

    def construct(self, global_step):
        p = F.cast(global_step, mstype.float32) / self.decay_steps
        if self.is_stair:
            p = F.floor(p)
        return self.learning_rate / (1 + self.decay_rate * p)


class CosineDecayLR(LearningRateSchedule):
    """min_lr + ½(max_lr − min_lr)(1 + cos(π · min(t, decay_steps) / decay_steps))"""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        self.min_lr = _float(min_lr, "min_lr", self.cls_name, positive=False)
        self.max_lr = _float(max_lr, "max_lr", self.cls_name)
        self.decay_steps = _positive_int(decay_steps, "decay_steps", self.cls_name)
        if min_lr >= max_lr:
            raise ValueError(f"For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', "
                             f"but got 'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step):
        p = F.cast(F.minimum(global_step, self.decay_steps), mstype.float32)
        # MindSpore writes cos(πx) as sin(π(x + ½)); the same value.
        return self.min_lr + self.delta * (1.0 + F.sin(math.pi * (p / self.decay_steps + 0.5)))


class PolynomialDecayLR(LearningRateSchedule):
    """(lr₀ − end) · (1 − min(t, decay_steps) / decay_steps)^power + end"""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        self.start_learning_rate = _float(learning_rate, "learning_rate", self.cls_name)
        self.end_learning_rate = _float(end_learning_rate, "end_learning_rate", self.cls_name,
                                        positive=False)
        self.decay_steps = _positive_int(decay_steps, "decay_steps", self.cls_name)
        self.power = _float(power, "power", self.cls_name)
        if not isinstance(update_decay_steps, bool):
            raise TypeError(f"For '{self.cls_name}', the 'update_decay_steps' must be bool.")
        self.update_decay_steps = update_decay_steps
        self.diff_learning_rate = learning_rate - end_learning_rate

    def construct(self, global_step):
        step = F.cast(global_step, mstype.float32)
        decay_steps = self.decay_steps
        if self.update_decay_steps:
            decay_steps = decay_steps * F.maximum(F.ceil(step / decay_steps), 1.0)
        else:
            step = F.minimum(step, float(decay_steps))
        p = step / decay_steps
        return self.diff_learning_rate * F.pow(1.0 - p, self.power) + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    """lr₀ · min(t, warmup_steps) / warmup_steps"""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        self.learning_rate = _float(learning_rate, "learning_rate", self.cls_name, positive=False)
        self.warmup_steps = _positive_int(warmup_steps, "warmup_steps", self.cls_name)

    def construct(self, global_step):
        done = F.cast(F.minimum(global_step, self.warmup_steps), mstype.float32)
        return self.learning_rate * done / self.warmup_steps
