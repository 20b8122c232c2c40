"""``refms.nn.optim``: optimizers as Cells (mirrors ``mindspore.nn.optim``).

Reading order: :mod:`~refms.nn.optim.optimizer` (learning rates, groups,
weight decay, loss scale — what every optimizer shares), then one module per
update rule: :mod:`~refms.nn.optim.momentum`, :mod:`~refms.nn.optim.sgd`,
:mod:`~refms.nn.optim.adam`,
:mod:`~refms.nn.optim.adafactor`, :mod:`~refms.nn.optim.rmsprop`,
:mod:`~refms.nn.optim.ada_grad`, :mod:`~refms.nn.optim.lamb`.
"""
from .optimizer import Optimizer
from .momentum import Momentum
from .sgd import SGD
from .adam import Adam, AdamWeightDecay
from .adafactor import AdaFactor
from .rmsprop import RMSProp
from .ada_grad import Adagrad
from .lamb import Lamb

__all__ = ["Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "AdaFactor", "RMSProp", "Adagrad", "Lamb"]
