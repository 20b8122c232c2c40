"""refms — a readable reference implementation of the MindSpore programming model.

``import refms as ms`` and use it like ``mindspore``: ``Tensor``,
:class:`Parameter`, :mod:`refms.ops`, :func:`grad`, :func:`value_and_grad`,
``set_context`` (``GRAPH_MODE`` / ``PYNATIVE_MODE``), ``set_seed``,
dtypes (``refms.float32``).  Importing refms prints nothing, picks no kernel
backend and needs neither a compiler nor a GPU.
"""
from . import dtype
from .dtype import (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
                    float64, bfloat16, bool_, complex64, complex128, half, single, double, float_,
                    int_, uint, dtype_to_nptype, pytype_to_dtype, nptype_to_dtype,
                    get_py_obj_dtype)
from ._tensor import Tensor
from .common.tensor import tensor
from_numpy = Tensor.from_numpy      # ``mindspore.from_numpy(array)``: a Tensor sharing memory
from .parameter import Parameter, ParameterTuple
from . import ops
from .autograd import pynative as _pynative  # noqa: F401  (installs the PyNative executor)
from .autograd.grad import grad, value_and_grad
from .autograd.vmap import vmap
from .autograd.jacobians import vjp, jvp, jacrev, jacfwd
from . import context
from .context import (GRAPH_MODE, PYNATIVE_MODE, set_context, get_context, set_device,
                      ParallelMode, set_auto_parallel_context, get_auto_parallel_context,
                      reset_auto_parallel_context)
from .seed import set_seed, get_seed
from . import common
from . import nn
from .graph import jit, ms_function, mutable       # GRAPH_MODE and jit: refms.graph
from .common.api import jit_class, lazy_inline, no_inline
from .checkpoint import save_checkpoint, load_checkpoint, load_param_into_net
from . import dataset, train, amp
from . import communication, parallel, log, profiler, runtime
from . import numpy                                # mindspore.numpy (ms.numpy.zeros...)
from . import mint                                 # mindspore.mint (PyTorch-like functions)
from .train.mindir import export, load
from . import cuda                                 # is_available / why_unavailable: loads nothing
from .train import (Model, Callback, RunContext, LossMonitor, TimeMonitor, CheckpointConfig,
                    ModelCheckpoint, Accuracy, Loss, FixedLossScaleManager,
                    DynamicLossScaleManager, LossScaleManager)
# Names MindSpore 2.10 also exposes at the top level (``mindspore.STRICT``, ``mindspore.MAE``, ...)
from .graph.syntax_level import STRICT, COMPATIBLE, LAX
from .train import (MAE, MSE, Metric, TopKCategoricalAccuracy, Top1CategoricalAccuracy,
                    Top5CategoricalAccuracy, names, get_metric_fn, Precision, Recall, Fbeta, F1,
                    ConfusionMatrix, Perplexity, Dice, CosineSimilarity, auc, ROC)
from .train.metrics import rearrange_inputs
from .amp import build_train_network
from .ops.primitive import constexpr
from .mindrecord import FileWriter, FileReader
from .ops.meta import is_tensor

__version__ = "0.1.0"

__all__ = [
    # tensors and dtypes
    "Tensor", "tensor", "from_numpy", "Parameter", "ParameterTuple", "dtype", "common",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
    "float32", "float64", "bfloat16", "bool_", "complex64", "complex128", "half", "single",
    "double", "float_", "int_", "uint", "dtype_to_nptype", "pytype_to_dtype", "nptype_to_dtype",
    "get_py_obj_dtype",
    # ops, autodiff, execution modes
    "ops", "grad", "value_and_grad", "jit", "ms_function", "mutable", "jit_class", "context",
    "GRAPH_MODE", "PYNATIVE_MODE", "set_context", "get_context", "set_device", "set_seed",
    "get_seed", "ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context",
    "reset_auto_parallel_context", "communication", "parallel", "log", "profiler", "runtime",
    "export",
    "load",
    # cells, training, data, checkpoints
    "nn", "mint", "dataset", "train", "amp", "Model", "Callback", "RunContext", "LossMonitor",
    "TimeMonitor", "CheckpointConfig", "ModelCheckpoint", "Accuracy", "Loss",
    "FixedLossScaleManager", "DynamicLossScaleManager", "LossScaleManager",
    "save_checkpoint", "load_checkpoint", "load_param_into_net",
    # the optional GPU library
    "cuda",
    # top-level spellings of names that live in submodules
    "STRICT", "COMPATIBLE", "LAX", "MAE", "MSE", "Metric", "TopKCategoricalAccuracy",
    "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "names", "get_metric_fn",
    "Precision", "Recall", "Fbeta", "F1", "ConfusionMatrix", "Perplexity", "Dice",
    "CosineSimilarity", "auc", "ROC",
    "rearrange_inputs", "build_train_network", "constexpr", "FileWriter", "FileReader",
    "is_tensor", "lazy_inline", "no_inline", "byte", "short", "long", "ubyte", "ushort", "intc",
    "uintc", "intp", "uintp",
    "cfloat", "cdouble",
]

# MindSpore's PyTorch-style dtype aliases (``mindspore.long is mindspore.int64``).  The ones
# that shadow Python builtins (``mindspore.int``, ``float``, ``bool``) are set last so that
# nothing in this module reads them by mistake.
byte, short, long = int8, int16, int64
ubyte, ushort = uint8, uint16
intc, uintc, intp, uintp = int32, uint32, int64, uint64
cfloat, cdouble = complex64, complex128
globals().update({"int": int32, "float": float32, "bool": bool_})
