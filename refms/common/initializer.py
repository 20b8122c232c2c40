"""``refms.common.initializer`` mirrors ``mindspore.common.initializer`` (defined in :mod:`refms.initializer`)."""
from ..initializer import *  # noqa: F401,F403
from ..initializer import __all__  # noqa: F401
