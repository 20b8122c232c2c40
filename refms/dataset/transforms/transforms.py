"""``refms.dataset.transforms.transforms``: the 2.x import path of :mod:`refms.dataset.transforms` (same operations)."""
from . import *  # noqa: F401,F403
from . import __all__  # noqa: F401,E402
