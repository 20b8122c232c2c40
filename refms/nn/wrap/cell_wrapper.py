"""Training wrappers: ``WithLossCell``, ``WithGradCell``, ``TrainOneStepCell``, ``WithEvalCell``
(MindSpore ``nn/wrap/cell_wrapper.py``; semantics 8.4).

All are built with ``auto_prefix=False``, so wrapping a network does not
rename its parameters (``weight`` stays ``weight``, semantics 3.2).

``TrainOneStepCell`` is one training step::

    loss  = network(*inputs)                         # recorded: network.set_grad() was called
    grads = ∂(sens · loss)/∂weights                  # reuses that recording (semantics 6.3)
    optimizer(grads)                                 # updates the weights in place
    return loss                                      # the loss *before* the update

``sens`` (default 1.0) fills the output cotangent; ``sens=0`` is rejected.
"""
from ... import dtype as mstype
from ...autograd.grad import GradOperation
from ...ops import functional as F
from ..._tensor import Tensor
from ..cell import Cell
from ..layer.reshape import Identity

__all__ = ["WithLossCell", "WithGradCell", "TrainOneStepCell", "WithEvalCell",
           "mixed_precision_cast"]


def mixed_precision_cast(dst_type, x):
    """Cast floating Tensors (also inside tuples/lists) to ``dst_type``; leave the rest alone."""
    if isinstance(x, Tensor):
        return F.cast(x, dst_type) if x.dtype.kind == "float" and x.dtype is not dst_type else x
    if isinstance(x, (tuple, list)):
        return tuple(mixed_precision_cast(dst_type, item) for item in x)
    return x


class WithLossCell(Cell):
    """WithLossCell(backbone, loss_fn): ``construct(data, label) = loss_fn(backbone(data), label)``."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        return self._backbone


class WithGradCell(Cell):
    """WithGradCell(network, loss_fn=None, sens=None): returns the gradients of the trainable parameters."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = tuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class TrainOneStepCell(Cell):
    """TrainOneStepCell(network, optimizer, sens=None, return_grad=False)"""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        if sens is not None and sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = sens is not None
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        if return_grad:
            self.weights_name = [p.name for p in self.optimizer.parameters]
        self.grad_no_sens = GradOperation(get_by_list=True)
        # One device: no gradient all-reduce (subclasses in the model zoo read these flags
        # to decide whether to build a distributed reducer).
        self.parallel_mode = "stand_alone"
        self.reducer_flag = False
        self.grad_reducer = Identity()

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = F.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        if self.return_grad:
            grad_with_param_name = {}
            for index in range(len(grads)):
                grad_with_param_name[self.weights_name[index]] = grads[index]
            return loss, grad_with_param_name
        return loss


class WithEvalCell(Cell):
    """WithEvalCell(network, loss_fn, add_cast_fp32=False): returns ``(loss, outputs, label)``.

    ``add_cast_fp32`` (set by ``Model`` under amp levels O2/O3) computes the loss on float32
    outputs and labels.
    """

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(f"For 'WithEvalCell', the 'add_cast_fp32' must be bool, but got "
                            f"{type(add_cast_fp32).__name__}.")
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = mixed_precision_cast(mstype.float32, label)
            outputs = F.cast(outputs, mstype.float32)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label
