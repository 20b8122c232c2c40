"""``refms.dataset.text.transforms``: the 2.x import path of :mod:`refms.dataset.text` (same operations)."""
from . import *  # noqa: F401,F403
from . import __all__  # noqa: F401,E402
