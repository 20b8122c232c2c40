"""``Model``: train, evaluate and predict with a network, a loss, an optimizer and metrics
(MindSpore ``train/model.py``; the non-sink path, which is all a CPU runs).

``Model(network, loss_fn, optimizer, metrics, eval_network, eval_indexes, amp_level)`` builds

* the training network: ``build_train_network`` (:mod:`refms.amp`) —
  ``TrainOneStepCell(WithLossCell(network, loss_fn), optimizer)``, with mixed
  precision and loss scaling for ``amp_level`` O2/O3; without an optimizer,
  just ``WithLossCell``; with neither, ``network`` itself (a network that
  already wraps its own training step, such as a user's ``TrainOneStepCell``);
* the evaluation network: ``WithEvalCell(network, loss_fn)`` returning
  ``(loss, logits, label)`` (when ``metrics`` are given);
* the prediction network: ``network`` itself.

``train(epoch, dataset, callbacks)``::

    for each epoch:   (callbacks: on_train_epoch_begin)
        for each batch (data, label) of dataset:
            outputs = train_network(data, label)        (on_train_step_begin / _end)
        (on_train_epoch_end)

``fit(epoch, train_dataset, valid_dataset, valid_frequency)`` is ``train`` with
an evaluation after the steps of every epoch e with ``e % valid_frequency == 0``
(or ``e in valid_frequency`` for a list), before ``on_train_epoch_end`` — so an
epoch-end callback sees ``cb_params.metrics`` and ``cb_params.eval_results``
(the metrics plus ``eval_loss`` — in MindSpore 2.10 the loss of the last validation
batch only, its ``Loss`` metric being re-created at every step).  The evaluation calls the ``on_eval_*`` hooks
of the user's own callbacks and of ``TimeMonitor``, not of MindSpore's other
built-in callbacks (MindSpore 2.x ``Model.fit``, ``_eval_during_train``).

``eval(dataset)`` runs the eval network over the dataset in eval mode,
updates every metric with (logits, label) — ``Loss`` with the loss — and
returns ``{name: value}``.  ``predict(*data)`` calls the network in eval mode.
"""
import sys

import numpy as np

from .. import amp
from .._tensor import Tensor
from ..context import ParallelMode  # noqa: F401  (MindSpore scripts import it from here)
from ..nn.cell import Cell
from ..nn.wrap.cell_wrapper import WithEvalCell, WithLossCell
from .callback.callback import CallbackManager, InternalCallbackParam, RunContext
from .callback.progress import LONG_RUN_SECONDS, ProgressBar, wants_progress_bar
from .metrics import Loss, get_metrics

__all__ = ["Model"]

#: The callbacks MindSpore ships (``mindspore.train.callback.__all__``, 2.10): during
#: ``fit``'s evaluations only ``TimeMonitor`` among them gets the ``on_eval_*`` calls.
BUILTIN_CALLBACKS = frozenset([
    "Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "FlopsUtilizationCollector",
    "SummaryCollector", "CheckpointConfig", "RunContext", "LearningRateScheduler",
    "SummaryLandscape", "History", "LambdaCallback", "ReduceLROnPlateau", "EarlyStopping",
    "OnRequestExit", "BackupAndRestore", "TrainFaultTolerance", "ProgressBar"])

#: 1.x callback method names that ``fit`` rejects on user callbacks (2.x: ``on_train_*``).
OLD_CALLBACK_METHODS = frozenset(["begin", "end", "epoch_begin", "epoch_end", "step_begin",
                                  "step_end"])


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For 'Model.train', the '{name}' must be a positive int, but got "
                         f"{value!r}.")
    return value


class Model:
    """``Model(network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
    eval_indexes=None, amp_level='O0', boost_level='O0', **kwargs)``"""

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs):
        for key in kwargs:
            if key not in ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict",
                           "acc_level"):
                raise ValueError(f"The argument in 'kwargs' should be 'loss_scale_manager' or "
                                 f"'keep_batchnorm_fp32' or 'boost_config_dict' or 'acc_level', but "
                                 f"got '{key}'.")
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', the 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None.Please "
                             "set amp_level='O0' to disable auto mixed precision or set 'optimizer' "
                             "not be None to use auto mixed precision.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._amp_kwargs = {k: v for k, v in kwargs.items()
                            if k in ("loss_scale_manager", "keep_batchnorm_fp32")}
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._train_network = self._build_train_network()
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = network
        self._backbone_is_train = True
        self._current_epoch_num = 0
        self._current_step_num = 0

    # -- networks -------------------------------------------------------------------
    def _build_train_network(self):
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set "
                             "'loss_scale_manager'.")
        if self._optimizer is not None:
            return amp.build_train_network(self._network, self._optimizer, self._loss_fn,
                                           level=self._amp_level, boost_level=self._boost_level,
                                           **self._amp_kwargs)
        if self._loss_fn is not None:
            return WithLossCell(self._network, self._loss_fn)
        return self._network

    def _build_eval_network(self, metrics, eval_network, eval_indexes):
        self._metric_fns = get_metrics(metrics)
        self._eval_network = eval_network
        self._eval_indexes = eval_indexes
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list)
                                                 and len(eval_indexes) == 3):
                raise ValueError(f"The argument 'eval_indexes' must be a list or None. If "
                                 f"'eval_indexes' is a list, length of it must be three. But got "
                                 f"'eval_indexes' {eval_indexes}")
            return
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set "
                             "`metrics` if you don't want an evaluation.")
        self._eval_network = WithEvalCell(self._network, self._loss_fn,
                                          self._amp_level in ("O2", "O3"))
        self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self):
        return self._train_network

    @property
    def predict_network(self):
        return self._predict_network

    @property
    def eval_network(self):
        return self._eval_network

    def _set_mode(self, network, is_train):
        if self._backbone_is_train != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        if not is_train:
            network.set_grad(False)

    # -- training ---------------------------------------------------------------------
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1,
              initial_epoch=0):
        """Train for ``epoch`` epochs over ``train_dataset`` (batches of ``(data, label)``)."""
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, initial_epoch)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1,
            initial_epoch=0):
        """Train as :meth:`train`, evaluating on ``valid_dataset`` every ``valid_frequency``
        epochs (an int) or after the epochs listed (a list)."""
        if not isinstance(valid_dataset_sink_mode, bool):
            raise TypeError("For 'Model.fit', the 'valid_dataset_sink_mode' must be bool.")
        if not isinstance(valid_frequency, (int, list)) or isinstance(valid_frequency, bool):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an "
                            f"integer, but got type {type(valid_frequency)}.")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument "
                             "'metrics' can not beNone or empty, you should set the argument "
                             "'metrics' for model.")
        for callback in self._callback_list(callbacks):
            if type(callback).__name__ in BUILTIN_CALLBACKS:
                continue
            old = sorted(set(type(callback).__dict__) & OLD_CALLBACK_METHODS)
            if old:
                raise ValueError(f"For {type(callback).__name__} callback, {set(old)} methods may "
                                 f"not be supported in later version, Use methods prefixed with "
                                 f"'on_train' or 'on_eval' instead when using customized "
                                 f"callbacks.")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, initial_epoch,
                    (valid_dataset, valid_frequency))

    def _train(self, epoch, train_dataset, callbacks, dataset_sink_mode, initial_epoch,
               valid_infos=(None, 1)):
        _positive_int(epoch, "epoch")
        if isinstance(initial_epoch, bool) or not isinstance(initial_epoch, int) or \
                initial_epoch < 0:
            raise ValueError(f"For 'Model.train', the 'initial_epoch' must be a non-negative int, "
                             f"but got {initial_epoch!r}.")
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.train', the parameter 'epoch' must bigger than parameter "
                             f"'initial_epoch', but got the parameter 'epoch' is {epoch}, "
                             f"'initial_epoch' is {initial_epoch}.")
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError("For 'Model.train', the 'dataset_sink_mode' must be bool.")
        dataset_size = train_dataset.get_dataset_size()
        if dataset_size == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        cb_params = InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        cb_params.batch_num = dataset_size
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = "stand_alone"
        cb_params.device_number = 1
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._callback_list(callbacks)
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.dataset_sink_mode = False
        cb_params.loss_scale_mananger = self._loss_scale_manager
        progress = self._auto_progress_bar(cb_params.list_callback)
        callback_list = cb_params.list_callback + ([progress] if progress is not None else [])
        with CallbackManager(callback_list) as manager:
            self._train_process(epoch, train_dataset, manager, cb_params, initial_epoch,
                                valid_infos)

    @staticmethod
    def _callback_list(callbacks):
        if callbacks is None:
            return []
        if isinstance(callbacks, (list, tuple)):
            return list(callbacks)
        return [callbacks]

    @staticmethod
    def _auto_progress_bar(callbacks):
        """A ProgressBar for long runs (train or eval) on a terminal, unless one is given or
        REFMS_PROGRESS=0."""
        if any(isinstance(cb, ProgressBar) for cb in callbacks):
            return None
        wanted = wants_progress_bar()
        if wanted is False:
            return None
        if wanted is None and not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()):
            return None
        return ProgressBar(delay=0.0 if wanted else LONG_RUN_SECONDS)

    def _train_process(self, epoch, train_dataset, manager, cb_params, initial_epoch,
                       valid_infos):
        iterator = train_dataset.create_tuple_iterator(num_epochs=epoch - initial_epoch)
        run_context = RunContext(cb_params)
        manager.on_train_begin(run_context)
        self._train_network.set_train(True)
        self._backbone_is_train = True
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = i + 1
            self._current_step_num = 0
            manager.on_train_epoch_begin(run_context)
            for element in iterator:
                element = tuple(element)
                if self._loss_fn is not None and len(element) != 2:
                    raise ValueError(f"When 'loss_fn' is not None, 'train_dataset' should return "
                                     f"two elements, but got {len(element)}, please check the "
                                     f"number of elements returned by 'train_dataset'")
                cb_params.cur_step_num += 1
                self._current_step_num = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
                cb_params.train_dataset_element = element
                manager.on_train_step_begin(run_context)
                self._set_mode(self._train_network, True)
                outputs = self._train_network(*element)
                cb_params.net_outputs = outputs
                if self._loss_scale_manager is not None and \
                        self._loss_scale_manager.get_drop_overflow_update():
                    self._loss_scale_manager.update_loss_scale(bool(np.all(outputs[1].asnumpy())))
                manager.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            self._eval_during_train(valid_infos, cb_params, manager)
            manager.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        manager.on_train_end(run_context)

    # -- evaluation and prediction ---------------------------------------------------------
    @staticmethod
    def _should_eval(epoch, valid_frequency):
        if isinstance(valid_frequency, int):
            return epoch % valid_frequency == 0
        return epoch in valid_frequency

    def _eval_during_train(self, valid_infos, cb_params, manager):
        """``fit``: evaluate after this epoch's steps if it is one of the validation epochs;
        the training fields of ``cb_params`` are restored afterwards."""
        valid_dataset, valid_frequency = valid_infos
        if valid_dataset is None or not self._should_eval(cb_params.cur_epoch_num,
                                                          valid_frequency):
            return
        saved = {key: cb_params.get(key) for key in ("cur_step_num", "batch_num", "net_outputs")}
        eval_callbacks = [cb for cb in manager.callbacks
                          if type(cb).__name__ not in BUILTIN_CALLBACKS
                          or type(cb).__name__ == "TimeMonitor"]
        with CallbackManager(eval_callbacks) as eval_manager:
            self._eval_process(valid_dataset, eval_manager, cb_params, add_eval_loss=True)
        cb_params.mode = "train"
        for key, value in saved.items():
            setattr(cb_params, key, value)
        self._train_network.set_train(True)
        self._backbone_is_train = True

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """``{metric name: value}`` over ``valid_dataset`` (the network runs in eval mode)."""
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or "
                             "empty, you should set the argument 'metrics' for model.")
        cb_params = InternalCallbackParam()
        cb_params.list_callback = self._callback_list(callbacks)
        cb_params.network = self._network
        progress = self._auto_progress_bar(cb_params.list_callback)
        callback_list = cb_params.list_callback + ([progress] if progress is not None else [])
        with CallbackManager(callback_list) as manager:
            return self._eval_process(valid_dataset, manager, cb_params)

    def _eval_process(self, valid_dataset, manager, cb_params, add_eval_loss=False):
        """Run the eval network over ``valid_dataset``; the metrics (and, in ``fit``, with
        ``eval_loss`` as ``cb_params.eval_results``)."""
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = False
        for metric in self._metric_fns.values():
            metric.clear()
        with_loss = add_eval_loss and self._eval_indexes is not None
        eval_loss = None
        run_context = RunContext(cb_params)
        manager.on_eval_begin(run_context)
        manager.on_eval_epoch_begin(run_context)
        self._eval_network.set_train(False)
        self._eval_network.set_grad(False)
        self._backbone_is_train = False
        for element in valid_dataset.create_tuple_iterator(num_epochs=1):
            cb_params.cur_step_num += 1
            cb_params.eval_dataset_element = tuple(element)
            manager.on_eval_step_begin(run_context)
            outputs = self._eval_network(*element)
            cb_params.net_outputs = outputs
            manager.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if with_loss:       # a new Loss each step, as MindSpore 2.10 does: the last batch's
                eval_loss = Loss()                                   # loss is what it reports
                eval_loss.update(outputs[self._eval_indexes[0]])
            if run_context.get_stop_requested():
                break
        manager.on_eval_epoch_end(run_context)
        metrics = {name: metric.eval() for name, metric in self._metric_fns.items()}
        cb_params.metrics = metrics
        if eval_loss is not None:
            cb_params.eval_results = dict(metrics, eval_loss=eval_loss.eval())
        manager.on_eval_end(run_context)
        return metrics

    def _update_metrics(self, outputs):
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def predict(self, *predict_data, backend=None, config=None):
        """The network's output on ``predict_data`` (in eval mode)."""
        for item in predict_data:
            if isinstance(item, Tensor) and item.size == 0:
                raise ValueError("The input data can not be empty.")
        self._predict_network.set_train(False)
        self._predict_network.set_grad(False)
        self._backbone_is_train = False
        return self._predict_network(*predict_data)

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1):
        """Nothing to compile ahead of time in refms; kept for MindSpore scripts."""
        return None
