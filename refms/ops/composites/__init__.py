"""Operations MindSpore offers as primitives or functions that refms composes from registered ones.

Each module here defines one operation (its ``ops.Name`` class and its
``ops.name`` function) as a short composition of registered primitives
(``Gather``, ``Select``, ``Concat``, ``ReduceMax``...).  Gradients, graph
mode and dtype rules therefore come from those primitives; the docstrings
state the definition each composition implements.
"""
from .padding import Pad, pad
from .gather_nd import GatherNd, gather_nd
from .slicing import Slice, slice, swapaxes, Unstack, unstack, expand_as
from .resize import ResizeNearestNeighbor
from .ctc_loss import ctc_loss
from .pool3d import MaxPool3D, AvgPool3D, max_pool3d, avg_pool3d
from .interpolate import interpolate, ResizeBilinearV2, ResizeNearestNeighborV2
from .activations import LeakyReLU, ReLU6, PReLU, leaky_relu, relu6, prelu
from .losses import SigmoidCrossEntropyWithLogits, binary_cross_entropy_with_logits
from .bias_add import BiasAdd, bias_add
from .creation import Eye, eye
from .grids import LinSpace, linspace, Meshgrid, meshgrid
from .l2_loss import L2Loss
from .inv import Inv, inv
from .masking import masked_fill
from .assign_add import AssignAdd, assign_add
from .segment import UnsortedSegmentMax, unsorted_segment_max
from . import reductions
from .strided_slice import StridedSlice, strided_slice
from .normalize import L2Normalize
from .reverse import ReverseV2, reverse, flip
from .reverse_sequence import ReverseSequence, reverse_sequence
from .scatter_nd import ScatterNd, scatter_nd
from .ranges import range as _range, arange
from .activations_smooth import (Elu, HSwish, HSigmoid, Softplus, elu, hardswish, hardsigmoid,
                                 silu, softplus)
from .losses import SmoothL1Loss, smooth_l1_loss, binary_cross_entropy, BinaryCrossEntropy
from .depth_to_space import DepthToSpace
from .scatter_update import ScatterNdUpdate, ScatterAdd
from .adaptive_pool import AdaptiveAvgPool2D
from .repeat_dot import repeat_elements, tensor_dot, dot
from .transpose_view import TransposeView
from .ascend_only import NPUAllocFloatStatus, NPUGetFloatStatus, NPUClearFloatStatus
from .float_status import FloatStatus
from .mint_based import FUNCTIONS as _MINT_BASED

CLASSES = {"Pad": Pad, "GatherNd": GatherNd, "Slice": Slice, "Unstack": Unstack,
           "ResizeNearestNeighbor": ResizeNearestNeighbor, "LeakyReLU": LeakyReLU,
           "ReLU6": ReLU6, "PReLU": PReLU,
           "SigmoidCrossEntropyWithLogits": SigmoidCrossEntropyWithLogits, "BiasAdd": BiasAdd,
           "Eye": Eye, "LinSpace": LinSpace, "Meshgrid": Meshgrid, "L2Loss": L2Loss, "BinaryCrossEntropy": BinaryCrossEntropy,
           "DepthToSpace": DepthToSpace, "ScatterNdUpdate": ScatterNdUpdate,
           "ScatterAdd": ScatterAdd, "AdaptiveAvgPool2D": AdaptiveAvgPool2D, "AssignAdd": AssignAdd, "UnsortedSegmentMax": UnsortedSegmentMax,
           "StridedSlice": StridedSlice, "L2Normalize": L2Normalize, "ReverseV2": ReverseV2,
           "ReverseSequence": ReverseSequence,
           "ScatterNd": ScatterNd, "Elu": Elu, "HSwish": HSwish, "HSigmoid": HSigmoid,
           "Softplus": Softplus, "SmoothL1Loss": SmoothL1Loss,
           "NPUAllocFloatStatus": NPUAllocFloatStatus, "NPUGetFloatStatus": NPUGetFloatStatus,
           "NPUClearFloatStatus": NPUClearFloatStatus, "FloatStatus": FloatStatus,
           "ResizeBilinearV2": ResizeBilinearV2,
           "ResizeNearestNeighborV2": ResizeNearestNeighborV2,
           "MaxPool3D": MaxPool3D, "AvgPool3D": AvgPool3D, "TransposeView": TransposeView,
           "Inv": Inv}
FUNCTIONS = {"pad": pad, "gather_nd": gather_nd, "slice": slice, "swapaxes": swapaxes,
             "unstack": unstack, "expand_as": expand_as, "leaky_relu": leaky_relu,
             "relu6": relu6, "prelu": prelu,
             "binary_cross_entropy_with_logits": binary_cross_entropy_with_logits,
             "bias_add": bias_add, "eye": eye, "linspace": linspace, "meshgrid": meshgrid, "masked_fill": masked_fill,
             "assign_add": assign_add, "unsorted_segment_max": unsorted_segment_max,
             "max": reductions.max, "min": reductions.min, "amax": reductions.amax,
             "amin": reductions.amin, "norm": reductions.norm, "strided_slice": strided_slice,
             "reverse": reverse, "flip": flip, "reverse_sequence": reverse_sequence,
             "scatter_nd": scatter_nd, "range": _range,
             "arange": arange, "elu": elu, "hardswish": hardswish, "hardsigmoid": hardsigmoid,
             "silu": silu, "softplus": softplus, "smooth_l1_loss": smooth_l1_loss,
             "binary_cross_entropy": binary_cross_entropy, "repeat_elements": repeat_elements,
             "tensor_dot": tensor_dot, "dot": dot, "interpolate": interpolate, "upsample": interpolate,
             "ctc_loss": ctc_loss, "max_pool3d": max_pool3d, "avg_pool3d": avg_pool3d,
             "inv": inv}
FUNCTIONS.update({name: f for name, f in _MINT_BASED.items() if name not in FUNCTIONS})

__all__ = list(CLASSES) + list(FUNCTIONS) + ["CLASSES", "FUNCTIONS"]
