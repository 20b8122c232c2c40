"""``Optimizer``: the base every optimizer Cell shares (MindSpore ``nn/optim/optimizer.py``).

An optimizer is a Cell called with the gradients of its parameters, in the
order of ``optimizer.parameters``; it updates the Parameters in place (with
``ops.assign``, which a graph compiler keeps as an ``Assign`` node) and returns
one ``True`` per parameter.  Each call runs, in MindSpore's order::

    g ← g + wd · ℓ · p     (decay_weight; ℓ = loss_scale, only where the decay flag is set)
    g ← g − mean(g)        (gradients_centralization; grouped parameters that ask for it)
    g ← g / ℓ              (scale_grad)
    lr ← get_lr()          (before the step counter moves)
    global_step ← global_step + 1
    <the optimizer's own update>

Weight decay is multiplied by the loss scale so that, after the division, it
is exactly ``wd · p``.  Without groups it applies to every parameter whose name
contains neither ``beta`` nor ``gamma`` (normalisation offsets and scales).

The learning rate may be a number (a Float32 Parameter ``learning_rate``), a
list / 1-D Tensor with one rate per step (gathered at ``global_step``), or a
:class:`~refms.nn.learning_rate_schedule.LearningRateSchedule` Cell.  Parameter
groups are dicts with ``params`` and optional ``lr``, ``weight_decay``,
``grad_centralization``; a dict ``{'order_params': ...}`` fixes the order.

State parameters are named after MindSpore's (``moments.<name>``, ...), and
enumeration gives ``global_step, learning_rate, <params>, <state>`` (semantics 3.3).
"""
from collections.abc import Iterable

import numpy as np

from ... import dtype as mstype
from ...ops import functional as F
from ...ops.composites.assign_add import AssignAdd
from ...ops.multitype import HyperMap, Map
from ...parameter import Parameter, ParameterTuple
from ..._tensor import Tensor
from ..cell import Cell
from ..layer.container import CellList
from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Optimizer", "opt_init_args_register"]

_GROUP_KEYS = ("params", "lr", "weight_decay", "order_params", "grad_centralization")


def opt_init_args_register(fn):
    """Kept for MindSpore compatibility: records nothing, calls ``fn``."""
    return fn


def _non_negative_float(value, name, cls_name):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{cls_name}', the '{name}' must be int or float, but got "
                        f"{type(value).__name__}.")
    if value < 0:
        raise ValueError(f"For '{cls_name}', the '{name}' must be non-negative, but got {value}.")
    return float(value)


class _ConvertToCell(LearningRateSchedule):
    """A fixed rate seen as a schedule (grouped optimizers mixing fixed and dynamic rates)."""

    def __init__(self, learning_rate):
        super().__init__()
        self.learning_rate = learning_rate

    def construct(self, global_step):
        return self.learning_rate + 1.0 - 1.0


class _IteratorLearningRate(LearningRateSchedule):
    """One rate per step: ``learning_rate[global_step]`` (an index past the end is an error)."""

    def __init__(self, learning_rate, name):
        super().__init__()
        if len(learning_rate.shape) != 1:
            raise ValueError(f"For 'Optimizer', the dimension of the argument 'learning_rate' should "
                             f"be 1, but got {len(learning_rate.shape)}.")
        self.learning_rate = Parameter(learning_rate, name)

    def construct(self, global_step):
        return F.gather(self.learning_rate, global_step, 0)


class Optimizer(Cell):
    """Optimizer(learning_rate, parameters, weight_decay=0.0, loss_scale=1.0)"""

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        parameters = self._parameters_base_check(parameters, "parameters")
        if not all(isinstance(x, Parameter) for x in parameters) and \
                not all(isinstance(x, dict) for x in parameters):
            raise TypeError("For 'Optimizer', all elements of the argument 'parameters' must be "
                            "'Parameter' or 'dict', please check the 'parameters'.")
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)):
            raise TypeError(f"For '{self.cls_name}', the 'loss_scale' must be float, but got "
                            f"{type(loss_scale).__name__}.")
        if loss_scale <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'loss_scale' must be positive, but got "
                             f"{loss_scale}.")
        self.loss_scale = float(loss_scale)
        self.dynamic_lr = False
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self.global_step = Parameter(Tensor(np.zeros([1], np.int32), mstype.int32),
                                     name="global_step")
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params = []
            self.group_lr = []
            self.group_weight_decay = []
            self.group_grad_centralization = []
            self._init_group_params(parameters, learning_rate, weight_decay)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)

    # -- construction ---------------------------------------------------------------
    @staticmethod
    def _parameters_base_check(parameters, what):
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {what} can not be None.")
        if not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {what} must be Iterable type, but got "
                            f"{type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {what} must not be empty.")
        return parameters

    def _init_opt_attrs(self, learning_rate, parameters, weight_decay):
        weight_decay = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            if self.dynamic_lr:
                self.learning_rate = CellList(self.group_lr, auto_prefix=False)
            else:
                self.learning_rate = ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self.decay_flags = tuple(wd > 0 for wd in self.group_weight_decay)
            # float32 scalars, as in MindSpore (optimizers written for it register their
            # update functions for Tensor weight decays)
            self.weight_decay = tuple(Tensor(wd, mstype.float32) for wd in self.group_weight_decay)
            self._decay_values = tuple(self.group_weight_decay)
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self.decay_flags = tuple("beta" not in p.name and "gamma" not in p.name
                                     for p in self.parameters)
            self.weight_decay = Tensor(weight_decay, mstype.float32)
            self._decay_values = (weight_decay,) * len(self.parameters)
            self.exec_weight_decay = weight_decay > 0
        self._parameters = self.parameters
        self.reciprocal_scale = 1.0 / self.loss_scale
        self.need_scale = self.loss_scale != 1.0
        self.param_length = len(self._parameters)
        # What optimizers written against MindSpore's base class use in their construct:
        # maps over the parameters, and the parallel optimizer's switches, off on one device
        # (every parameter is updated here).
        self.map_ = Map()
        self.map_reverse = Map(None, True)
        self.hyper_map = HyperMap()
        self.hyper_map_reverse = HyperMap(None, True)
        self.use_parallel = False
        self.optim_filter = (True,) * self.param_length
        self.assignadd = AssignAdd()
        self.global_step_increase_tensor = Tensor(1, mstype.int32)

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, Cell):
            raise TypeError(f"For '{self.cls_name}', a dynamic weight decay (a Cell) is not "
                            f"supported by refms; give a number.")
        return _non_negative_float(weight_decay, "weight_decay", self.cls_name) * self.loss_scale

    def _preprocess_single_lr(self, learning_rate):
        """A float, a 0-d Float32 Tensor, a 1-D Float32 Tensor of per-step rates, or a schedule."""
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            return _non_negative_float(learning_rate, "learning rate", self.cls_name)
        if isinstance(learning_rate, Tensor) and len(learning_rate.shape) == 0:
            return Tensor(learning_rate.asnumpy(), mstype.float32)
        self.dynamic_lr = True
        if isinstance(learning_rate, LearningRateSchedule):
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if len(learning_rate.shape) > 1:
                raise ValueError(f"For 'Optimizer', if 'learning_rate' is Tensor type, then the "
                                 f"dimension of it should be 0 or 1, but got "
                                 f"{len(learning_rate.shape)}.")
            return Tensor(learning_rate.asnumpy(), mstype.float32)
        if isinstance(learning_rate, Iterable):
            return Tensor(np.array(list(learning_rate)).astype(np.float32))
        raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, "
                        f"Iterable or LearningRateSchedule, but got {type(learning_rate)}.")

    def _build_single_lr(self, learning_rate, name):
        """The Parameter or Cell that holds one learning rate."""
        if isinstance(learning_rate, float) or \
                (isinstance(learning_rate, Tensor) and len(learning_rate.shape) == 0):
            lr = Parameter(Tensor(learning_rate, mstype.float32), name)
            if self.is_group_lr and self.dynamic_lr:
                lr = _ConvertToCell(lr)
            return lr
        if isinstance(learning_rate, Tensor) and len(learning_rate.shape) == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _init_group_params(self, parameters, learning_rate, weight_decay):
        for group in parameters:
            invalid = [key for key in group if key not in _GROUP_KEYS]
            if invalid:
                raise KeyError(f"For 'Optimizer', the key in group params must be one of in "
                               f"{list(_GROUP_KEYS)}, but got {invalid}.")
            if "order_params" in group:
                if len(group) > 1:
                    raise ValueError(f"For 'Optimizer', the order params dict in group parameters "
                                     f"should only include the 'order_params' key, but got "
                                     f"{list(group)}.")
                self.is_group_params_ordered = True
                continue
            if "lr" in group:
                self.is_group_lr = True
                self._preprocess_single_lr(group["lr"])      # marks dynamic_lr
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        seen, ordered = set(), []
        for number, group in enumerate(parameters):
            if "order_params" in group:
                ordered = list(group["order_params"])
                continue
            params = self._parameters_base_check(group["params"], "group `params`")
            if "lr" in group:
                lr = self._build_single_lr(self._preprocess_single_lr(group["lr"]),
                                           f"learning_rate_group_{number}")
            else:
                lr = default_lr
            decay = self._preprocess_weight_decay(group.get("weight_decay", weight_decay))
            centralize = group.get("grad_centralization", False)
            if not isinstance(centralize, bool):
                raise TypeError(f"For 'Optimizer', the 'gradients_centralization' must be bool "
                                f"type, but got {type(centralize)}.")
            for index, param in enumerate(params):
                if not isinstance(param, Parameter):
                    raise TypeError(f"For 'Optimizer', the element in group parameters must be "
                                    f"Parameter type, but got {type(param)} at index {index}.")
                if param.name in seen:
                    raise RuntimeError(f"For 'Optimizer', the {param.name} parameter already "
                                       f"exists, it does not support repeated setting. Please "
                                       f"check whether the optimizer parameter has been set "
                                       f"multiple times.")
                seen.add(param.name)
                self.group_params.append(param)
                self.group_lr.append(lr)
                self.group_weight_decay.append(decay)
                self.group_grad_centralization.append(centralize)
        if self.is_group_params_ordered and ordered:
            self._order_group_params(ordered)

    def _order_group_params(self, ordered):
        if len(ordered) != len(self.group_params):
            raise ValueError(f"For 'Optimizer',the length of order parameters must be the same as "
                             f"the length of group parameters, but got order parameters' length "
                             f"{len(ordered)}, group parameters' length {len(self.group_params)}.")
        names = [p.name for p in ordered]
        columns = list(zip(self.group_params, self.group_lr, self.group_weight_decay,
                           self.group_grad_centralization))
        columns.sort(key=lambda column: names.index(column[0].name))
        self.group_params = [c[0] for c in columns]
        self.group_lr = [c[1] for c in columns]
        self.group_weight_decay = [c[2] for c in columns]
        self.group_grad_centralization = [c[3] for c in columns]

    # -- the steps every update shares --------------------------------------------------
    def decay_weight(self, gradients):
        """g + wd · p for every parameter whose decay flag is set."""
        if not self.exec_weight_decay:
            return gradients
        result = ()
        for i in range(self.param_length):
            decay = self.decay_of(i)
            if self.decay_flags[i]:
                param = self._parameters[i]
                result += (gradients[i] + F.cast(param * decay, gradients[i].dtype),)
            else:
                result += (gradients[i],)
        return result

    def gradients_centralization(self, gradients):
        """g − mean over all axes but the first, for grouped parameters that ask (and whose
        second dimension is a multiple of 16, as MindSpore's kernel requires)."""
        if not self.is_group:
            return gradients
        result = ()
        for i in range(self.param_length):
            grad = gradients[i]
            shape = grad.shape
            if self.grad_centralization_flags[i] and len(shape) > 1 and shape[1] % 16 == 0:
                axes = tuple(range(1, len(shape)))
                grad = grad - F.reduce_mean(grad, axes, True)
            result += (grad,)
        return result

    def scale_grad(self, gradients):
        """g / loss_scale."""
        if not self.need_scale:
            return gradients
        result = ()
        for grad in gradients:
            result += (grad * F.cast(self.reciprocal_scale, grad.dtype),)
        return result

    def broadcast_params(self, optim_result):
        """The parallel optimizer's step that shares updated parameters between devices;
        on one device there is nothing to share: returns ``optim_result``."""
        return optim_result

    def decay_of(self, index):
        """The weight decay of parameter ``index`` as a Python number (``weight_decay``
        holds it as a float32 Tensor, as MindSpore does)."""
        return self._decay_values[index]

    def get_weight_decay(self):
        return self.weight_decay

    def get_lr(self):
        """The learning rate of this step (a tuple, one per parameter, with group rates)."""
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                lr = ()
                for schedule in self.learning_rate:
                    lr += (F.reshape(schedule(self.global_step), ()),)
            else:
                lr = F.reshape(self.learning_rate(self.global_step), ())
        return lr

    def get_lr_parameter(self, param):
        """The learning-rate Parameter (or schedule) used for ``param`` (or a list of them)."""
        params = [param] if isinstance(param, Parameter) else param
        if not isinstance(params, list):
            raise TypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' "
                            f"type, but got {type(param)}.")
        ids = [id(p) for p in self._parameters]
        result = []
        for p in params:
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in "
                                 f"optimizer, please check whether the argument 'param' is "
                                 f"correct.")
            lr = self.learning_rate[ids.index(id(p))] if self.is_group_lr else self.learning_rate
            if isinstance(lr, (_ConvertToCell, _IteratorLearningRate)):
                lr = lr.learning_rate
            result.append(lr)
        return result if isinstance(param, list) else result[0]

    def lr_of(self, lr, index):
        """Parameter ``index``'s rate out of :meth:`get_lr`'s result."""
        return lr[index] if self.is_group_lr else lr

    def advance_global_step(self):
        """global_step ← global_step + 1 (an Assign, like MindSpore's AssignAdd)."""
        F.assign(self.global_step, self.global_step + 1)

    def update_parameter(self, param, value):
        """Write ``value`` (cast to the parameter's dtype) into ``param`` in place."""
        F.assign(param, F.cast(value, param.dtype))

    def construct(self, *hyper_params):
        raise NotImplementedError(f"For '{self.cls_name}', the method 'construct' is not defined.")

    @property
    def unique(self):
        return True

    @property
    def target(self):
        return "CPU"
