"""``mindspore.nn.metrics``: the metrics, which live in :mod:`refms.train.metrics`."""
from ..train.metrics import *  # noqa: F401,F403
from ..train.metrics import __all__  # noqa: F401
from ..train.metrics import Metric
