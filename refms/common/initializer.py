"""``refms.common.initializer`` mirrors ``mindspore.common.initializer`` (defined in :mod:`refms.initializer`)."""
from ..initializer import *  # noqa: F401,F403
from ..initializer import __all__  # noqa: F401
from ..initializer import (_assignment, _calculate_correct_fan,  # noqa: F401
                           _calculate_fan_in_and_fan_out, _calculate_gain, _register)
