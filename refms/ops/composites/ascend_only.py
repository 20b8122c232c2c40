"""The Ascend float-status primitives (``NPUAllocFloatStatus``, ``NPUGetFloatStatus``,
``NPUClearFloatStatus``): they read the overflow flags of an Ascend NPU.

refms has no NPU: the classes can be created (scripts create them in
``__init__`` for the Ascend branch) and raise ``RuntimeError`` when called.
Loss scaling on refms detects overflow with ``IsFinite`` instead
(``nn.TrainOneStepWithLossScaleCell``).
"""
from ._common import CompositeOp

__all__ = ["NPUAllocFloatStatus", "NPUGetFloatStatus", "NPUClearFloatStatus"]


class _AscendOnly(CompositeOp):
    def __call__(self, *args):
        raise RuntimeError(f"For '{type(self).__name__}', this primitive reads the float status "
                           f"registers of an Ascend NPU, which refms does not have; check "
                           f"overflow with ops.isfinite instead.")


class NPUAllocFloatStatus(_AscendOnly):
    """Ascend only: calling it raises ``RuntimeError``."""


class NPUGetFloatStatus(_AscendOnly):
    """Ascend only: calling it raises ``RuntimeError``."""


class NPUClearFloatStatus(_AscendOnly):
    """Ascend only: calling it raises ``RuntimeError``."""
