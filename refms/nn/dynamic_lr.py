"""``mindspore.nn.dynamic_lr``: learning-rate lists, one value per training step.

Each function returns a Python list of ``total_step`` floats that an
optimizer takes as its ``learning_rate``.  With ``i`` the step and
``e = ⌊i / step_per_epoch⌋`` its epoch (``p = e / decay_epoch``, ``⌊p⌋``
when ``is_stair``):

* ``piecewise_constant_lr``: ``learning_rates[k]`` for ``milestone[k-1] ≤ i < milestone[k]``
* ``exponential_decay_lr``:  lr · rate^p
* ``natural_exp_decay_lr``:  lr · exp(−rate · e′), e′ = e (or ⌊e/decay_epoch⌋·decay_epoch when stair)
* ``inverse_decay_lr``:      lr / (1 + rate · p)
* ``cosine_decay_lr``:       min + ½(max − min)(1 + cos(π · min(e, D) / D)), D = decay_epoch
* ``polynomial_decay_lr``:   (lr − end)(1 − min(e, D′)/D′)^power + end, D′ = D, or D·⌈e/D⌉
  when ``update_decay_epoch`` (D′ grows so decay restarts)
* ``warmup_lr``:             lr · min(e, W) / W
"""
import math
import numbers

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
           "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def _positive_int(name, value, fn):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{fn}', the '{name}' should be int, but got "
                        f"{type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"For '{fn}', the '{name}' should be a positive int, but got {value}.")


def _float(name, value, fn, positive=True):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"For '{fn}', the '{name}' should be float, but got "
                        f"{type(value).__name__}.")
    if positive and value <= 0:
        raise ValueError(f"For '{fn}', the '{name}' should be greater than 0, but got {value}.")


def _check_common(fn, learning_rate, total_step, step_per_epoch, decay_epoch):
    _float("learning_rate", learning_rate, fn)
    _positive_int("total_step", total_step, fn)
    _positive_int("step_per_epoch", step_per_epoch, fn)
    _positive_int("decay_epoch", decay_epoch, fn)


def piecewise_constant_lr(milestone, learning_rates):
    """``learning_rates[k]`` for the steps before ``milestone[k]`` (and after ``milestone[k-1]``)."""
    if not isinstance(milestone, (tuple, list)) or not isinstance(learning_rates, (tuple, list)):
        raise TypeError("For 'piecewise_constant_lr', 'milestone' and 'learning_rates' should be "
                        "lists or tuples.")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same "
                         f"with the size of 'learning_rates', but got {len(milestone)} and "
                         f"{len(learning_rates)}.")
    last = 0
    for m in milestone:
        _positive_int("milestone", m, "piecewise_constant_lr")
        if m <= last and last != 0:
            raise ValueError("For 'piecewise_constant_lr', the 'milestone' should be increasing.")
        last = m
    for lr in learning_rates:
        _float("learning_rates", lr, "piecewise_constant_lr", positive=False)
    result, start = [], 0
    for m, lr in zip(milestone, learning_rates):
        result += [lr] * (m - start)
        start = m
    return result


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """lr · decay_rate^p for each step (see the module docstring)."""
    _check_common("exponential_decay_lr", learning_rate, total_step, step_per_epoch, decay_epoch)
    _float("decay_rate", decay_rate, "exponential_decay_lr")
    result = []
    for i in range(total_step):
        p = (i // step_per_epoch) / decay_epoch
        result.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return result


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """lr · exp(−decay_rate · e′) for each step (see the module docstring)."""
    _check_common("natural_exp_decay_lr", learning_rate, total_step, step_per_epoch, decay_epoch)
    _float("decay_rate", decay_rate, "natural_exp_decay_lr")
    result = []
    for i in range(total_step):
        epoch = i // step_per_epoch
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        result.append(learning_rate * math.e ** (-decay_rate * epoch))
    return result


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False):
    """lr / (1 + decay_rate · p) for each step (see the module docstring)."""
    _check_common("inverse_decay_lr", learning_rate, total_step, step_per_epoch, decay_epoch)
    _float("decay_rate", decay_rate, "inverse_decay_lr")
    result = []
    for i in range(total_step):
        p = (i // step_per_epoch) / decay_epoch
        result.append(learning_rate / (1 + decay_rate * (math.floor(p) if is_stair else p)))
    return result


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """A half cosine from ``max_lr`` down to ``min_lr`` over ``decay_epoch`` epochs."""
    _float("min_lr", min_lr, "cosine_decay_lr", positive=False)
    if min_lr < 0:
        raise ValueError(f"For 'cosine_decay_lr', the 'min_lr' should be >= 0, but got {min_lr}.")
    _float("max_lr", max_lr, "cosine_decay_lr")
    if min_lr >= max_lr:
        raise ValueError(f"For 'cosine_decay_lr', the 'max_lr' should be greater than "
                         f"'min_lr', but got max_lr {max_lr} and min_lr {min_lr}.")
    _positive_int("total_step", total_step, "cosine_decay_lr")
    _positive_int("step_per_epoch", step_per_epoch, "cosine_decay_lr")
    _positive_int("decay_epoch", decay_epoch, "cosine_decay_lr")
    delta = 0.5 * (max_lr - min_lr)
    result = []
    for i in range(total_step):
        epoch = min(i // step_per_epoch, decay_epoch)
        result.append(min_lr + delta * (1.0 + math.cos(math.pi * epoch / decay_epoch)))
    return result


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch,
                        decay_epoch, power, update_decay_epoch=False):
    """(lr − end)(1 − e/D′)^power + end for each step (see the module docstring)."""
    _check_common("polynomial_decay_lr", learning_rate, total_step, step_per_epoch, decay_epoch)
    _float("end_learning_rate", end_learning_rate, "polynomial_decay_lr", positive=False)
    _float("power", power, "polynomial_decay_lr")
    result = []
    for i in range(total_step):
        epoch = i // step_per_epoch
        decay = decay_epoch
        if update_decay_epoch:
            decay = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            epoch = min(epoch, decay_epoch)
        result.append((learning_rate - end_learning_rate) * (1 - epoch / decay) ** power
                      + end_learning_rate)
    return result


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """A linear rise from 0 to ``learning_rate`` over ``warmup_epoch`` epochs."""
    _check_common("warmup_lr", learning_rate, total_step, step_per_epoch, warmup_epoch)
    return [learning_rate * min(i // step_per_epoch, warmup_epoch) / warmup_epoch
            for i in range(total_step)]
