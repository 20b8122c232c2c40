"""``refms.nn.layer``: the built-in layers, one concept per module (mirrors ``mindspore.nn.layer``)."""
from .activation import ReLU, Sigmoid, Tanh, GELU, Softmax, LogSoftmax, get_activation
from .container import SequentialCell, CellList
from .conv import Conv2d
from .dense import Dense, Linear
from .matmul import MatMul
from .dropout import Dropout, Dropout1d, Dropout2d, Dropout3d
from .embedding import Embedding
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, GroupNorm,
                            SyncBatchNorm)
from .pooling import MaxPool2d, AvgPool2d, AdaptiveMaxPool2d, AdaptiveAvgPool2d, MaxPool1d
from .reshape import Flatten, Identity
from .activation_piecewise import LeakyReLU, ReLU6, PReLU
from .padding import (Pad, ConstantPad1d, ConstantPad2d, ConstantPad3d, ZeroPad2d,
                      ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d,
                      ReplicationPad2d, ReplicationPad3d)
from .conv_variants import Conv1d, Conv2dTranspose
from .activation_smooth import ELU, HSwish, HSigmoid, SiLU
from .clip import ClipByNorm
from .conv3d import Conv3d
from .conv_bn_act import Conv2dBnAct, DenseBnAct
from .rnn_cells import RNNCell, LSTMCell, GRUCell
from .rnns import RNN, LSTM, GRU
from .upsample import Upsample
from .pooling3d import MaxPool3d, AvgPool3d
from .image import PSNR, SSIM
from .central_crop import CentralCrop
from .conv3d_transpose import Conv3dTranspose

__all__ = ["ReLU", "Sigmoid", "Tanh", "GELU", "Softmax", "LogSoftmax", "get_activation",
           "SequentialCell", "CellList", "Conv2d", "Dense", "Linear", "MatMul", "Dropout", "Dropout1d", "Dropout2d",
           "Dropout3d", "Embedding",
           "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm",
           "SyncBatchNorm",
           "MaxPool2d", "AvgPool2d", "AdaptiveMaxPool2d", "AdaptiveAvgPool2d", "MaxPool1d",
           "Flatten", "Identity", "LeakyReLU", "ReLU6", "PReLU", "Pad", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ZeroPad2d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "Conv1d",
           "Conv2dTranspose", "ELU", "HSwish", "HSigmoid", "SiLU", "ClipByNorm", "Conv3d", "Conv2dBnAct", "DenseBnAct",
           "RNNCell", "LSTMCell", "GRUCell", "RNN", "LSTM", "GRU", "Upsample", "MaxPool3d", "AvgPool3d", "PSNR", "SSIM", "Conv3dTranspose", "CentralCrop"]
