"""Automatic mixed precision: ``auto_mixed_precision`` and ``build_train_network``
(MindSpore ``train/amp.py``; levels as in ``Model(amp_level=...)``).

=======  ==================================================================================
level    what happens to the network
=======  ==================================================================================
``O0``   nothing: float32 throughout
``O2``   ``to_float(float16)`` on the network; every BatchNorm/LayerNorm cell is set back to
         float32 and its output cast to float16 (``_OutputTo16``); the network output is cast
         to float32 (``_OutputTo32``); the loss is computed in float32; loss scaling with a
         ``DynamicLossScaleManager`` unless another manager is given
``O3``   ``to_float(float16)`` on the whole network, output cast to float32, no loss scaling
=======  ==================================================================================

``to_float`` (semantics 3.4 item 6) makes the operators inside a cell cast
their floating inputs, Parameters included, to the given type; the Parameters
themselves stay float32, so the optimizer updates float32 master weights.

MindSpore 2.10 refuses O2's dynamic loss scaling on ``device_target='CPU'`` (its
CPU backend lacks the control flow); refms has no such limit and behaves as
MindSpore does on GPU.
"""
from . import context
from . import dtype as mstype
from .nn.cell import Cell
from .nn.layer.normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .nn.optim.optimizer import Optimizer
from .nn.wrap.cell_wrapper import TrainOneStepCell, WithLossCell, mixed_precision_cast
from .nn.wrap.loss_scale import TrainOneStepWithLossScaleCell
from .ops import functional as F
from .train.loss_scale_manager import (DynamicLossScaleManager, FixedLossScaleManager,
                                       LossScaleManager)

from .amp_loss_scaler import StaticLossScaler, DynamicLossScaler, all_finite  # noqa: E402

__all__ = ["auto_mixed_precision", "build_train_network", "get_black_list",
           "DynamicLossScaleManager", "FixedLossScaleManager", "LossScaleManager",
           "StaticLossScaler", "DynamicLossScaler", "all_finite"]

#: Cells kept in float32 under O2 (MindSpore ``AMP_BLACK_LIST``).
AMP_BLACK_LIST = [BatchNorm1d, BatchNorm2d, LayerNorm]

_LEVELS = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32,
           "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32,
           "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16,
           "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16,
           "loss_scale_manager": None},
}


def get_black_list():
    """The cell types O2 keeps in float32."""
    return list(AMP_BLACK_LIST)


class _OutputTo16(Cell):
    """Run ``backbone`` and cast its output to float16 (wraps the float32 cells under O2)."""

    def __init__(self, backbone, dtype=mstype.float16):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype

    def construct(self, x):
        return F.cast(self._backbone(x), self.dtype)


class _OutputTo32(Cell):
    """Run ``backbone`` and cast its floating outputs to float32."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args):
        return mixed_precision_cast(mstype.float32, self._backbone(*args))


class _WithLossCell32(Cell):
    """WithLossCell computing the loss on float32 outputs and labels (the O2/O3 loss network)."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        label = mixed_precision_cast(mstype.float32, label)
        return self._loss_fn(mixed_precision_cast(mstype.float32, out), label)


def _keep_fp32(network, black_list, dtype):
    """Set every black-listed descendant back to float32, wrapped to output ``dtype``."""
    for name, child in list(network.name_cells().items()):
        if isinstance(child, tuple(black_list)):
            network._cells[name] = _OutputTo16(child.to_float(mstype.float32), dtype)
        else:
            _keep_fp32(child, black_list, dtype)


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """Return ``network`` converted for ``amp_level`` (O0, O2 or O3; see the table above)."""
    if not isinstance(network, Cell):
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got "
                         f"{dtype}.")
    if amp_level == "O0":
        return network
    if amp_level == "O2":
        network.to_float(dtype)
        _keep_fp32(network, AMP_BLACK_LIST, dtype)
        network = _OutputTo32(network)
    elif amp_level == "O3":
        network.to_float(dtype)
        network = _OutputTo32(network)
    elif amp_level == "O1":
        raise ValueError("refms does not implement amp_level 'O1' (per-operator white list); use "
                         "'O0', 'O2' or 'O3'.")
    else:
        raise ValueError(f"The amp level {amp_level} is not supported")
    network.__dict__["_amp_level"] = amp_level
    return network


def _check_level(level, boost_level):
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', "
                        f"'auto'], but got type {type(level)}.")
    if level not in ("O0", "O1", "O2", "O3", "auto"):
        raise ValueError(f"The argument `level` must be in ['O0', 'O1', 'O2', 'O3', 'auto'], but "
                         f"got {level!r}.")
    if level in ("O1", "auto"):
        raise ValueError(f"refms does not implement amp_level {level!r}; use 'O0', 'O2' or 'O3'.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The argument 'boost_level' must be in ['O0', 'O1', 'O2'], but got "
                         f"{boost_level!r}.")


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0", **kwargs):
    """The training cell ``Model`` uses: mixed precision, loss, then one-step (loss-scaled) training.

    ``kwargs``: ``cast_model_type``, ``keep_batchnorm_fp32``, ``loss_scale_manager``.

    A manager with an update cell (``DynamicLossScaleManager``, the default of level
    ``O2``, or ``FixedLossScaleManager(drop_overflow_update=True)``) is a ``ValueError``
    on device ``CPU``, as in MindSpore 2.10; ``None`` or
    ``FixedLossScaleManager(drop_overflow_update=False)`` train on any device.
    """
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"For 'build_train_network', the 'optimizer' must be an Optimizer, but got "
                        f"{type(optimizer).__name__}.")
    _check_level(level, boost_level)
    for key in kwargs:
        if key not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{key}'")
    config = dict(_LEVELS[level], **kwargs)
    if config["loss_scale_manager"] == "dynamic":
        config["loss_scale_manager"] = DynamicLossScaleManager()
    manager = config["loss_scale_manager"]
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"The 'loss_scale_manager' must be a LossScaleManager, but got "
                        f"{type(manager).__name__}.")
    if config["cast_model_type"] is mstype.float16:
        network.to_float(mstype.float16)
        if config["keep_batchnorm_fp32"]:
            _keep_fp32(network, AMP_BLACK_LIST, mstype.float16)
        network.__dict__["_amp_level"] = level
    if loss_fn is not None:
        if config["cast_model_type"] is mstype.float16:
            network = _WithLossCell32(network, loss_fn)
        else:
            network = WithLossCell(network, loss_fn)
    loss_scale = None
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            # MindSpore 2.10 builds no overflow-checking (update-cell) training network on CPU,
            # where its TrainOneStepWithLossScaleCell's control flow is not supported.
            if context.get_context("device_target") == "CPU":
                raise ValueError(f"On device `CPU` the loss scale manager must be None or "
                                 f"FixedLossScaleManager(drop_overflow_update=False); "
                                 f"{type(manager).__name__} needs an overflow-checking update "
                                 f"cell, which only GPU and Ascend run.")
            return TrainOneStepWithLossScaleCell(network, optimizer,
                                                 scale_sense=update_cell).set_train()
    return TrainOneStepCell(network, optimizer, loss_scale).set_train()
