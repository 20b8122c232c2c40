"""Normalisation layers: BatchNorm1d/2d, LayerNorm, GroupNorm.

All compute y = (x − μ) / √(σ² + ε) · γ + β; they differ in which axes μ and σ²
are taken over.  σ² is always the mean of squared deviations from μ (two
passes), never E[x²] − E[x]², which cancels catastrophically when ``|μ| ≫ σ``.

BatchNorm (Ioffe & Szegedy 2015; semantics 8.3): statistics per channel
(axis 1) over the batch and spatial axes.  MindSpore's conventions:

* ``momentum`` is the weight of the OLD running value:
  ``moving = momentum·moving + (1 − momentum)·batch`` (PyTorch's is the opposite);
* training normalises with the **biased** batch variance, the moving variance
  is updated with the **unbiased** (n − 1) one;
* ``use_batch_statistics=None`` follows ``training`` (Cells start in eval
  mode, so an un-``set_train()`` BatchNorm divides by √(1 + ε): 0.999995);
  ``True`` always uses and updates batch statistics; ``False`` never.

The arithmetic is the ``ops.BatchNorm`` primitive's (which updates the moving
Parameters in place).  LayerNorm and GroupNorm are composed from refms ops.
"""
from ... import dtype as mstype
from ...initializer import initializer
from ...ops import functional as F
from ...ops.prims.batchnorm import BatchNorm
from ...parameter import Parameter
from ..cell import Cell
from ._checks import check_positive_int, check_bool

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LayerNorm", "GroupNorm"]


def _normalize(x, axes, epsilon):
    """(x − mean) / √(var + ε) over ``axes``, var = mean((x − mean)²) (biased, two-pass)."""
    centered = x - F.reduce_mean(x, axes, True)
    variance = F.reduce_mean(centered * centered, axes, True)
    return centered * F.rsqrt(variance + epsilon)


class _BatchNorm(Cell):
    """Shared by BatchNorm1d and BatchNorm2d; ``ndims`` lists the input ranks they accept."""
    ndims = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=mstype.float32):
        super().__init__()
        if isinstance(num_features, bool) or not isinstance(num_features, int):
            raise TypeError(f"For '{self.cls_name}', the 'num_features' must be int, but got "
                            f"{type(num_features).__name__}.")
        if num_features < 1:
            raise ValueError(f"For '{self.cls_name}', the 'num_features' must be at least 1, but "
                             f"got {num_features}.")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For '{self.cls_name}', the 'momentum' must be a number in range "
                             f"[0, 1], but got {momentum}.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{self.cls_name}', the 'use_batch_statistics' must be a boolean "
                             f"value or None, but got {use_batch_statistics}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{self.cls_name}', the 'NHWC' format only support in GPU "
                             f"target, but got device target CPU.")
        self.format = data_format
        self.use_batch_statistics = use_batch_statistics
        self.num_features = num_features
        self.eps = eps
        self.gamma_init, self.beta_init = gamma_init, beta_init
        self.moving_mean_init, self.moving_var_init = moving_mean_init, moving_var_init
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, dtype),
                                     name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, dtype),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype), name="beta",
                              requires_grad=affine)
        #: The primitive's momentum is the weight of the NEW value, hence 1 − momentum.
        self.momentum = 1.0 - momentum
        self.bn_train = BatchNorm(is_training=True, epsilon=float(eps), momentum=self.momentum)
        self.bn_infer = BatchNorm(is_training=False, epsilon=float(eps))

    def construct(self, x):
        if len(x.shape) not in self.ndims or x.shape[1] != self.num_features:
            raise ValueError(f"For '{self.cls_name}', the input must have rank "
                             f"{' or '.join(map(str, self.ndims))} and {self.num_features} "
                             f"channels (axis 1), but got input shape {tuple(x.shape)}.")
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        bn = self.bn_train if use_batch else self.bn_infer
        return bn(x, self.gamma, self.beta, self.moving_mean, self.moving_variance)[0]

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={1.0 - self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """BatchNorm over (N, C) or (N, C, L) inputs."""
    ndims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """BatchNorm over (N, C, H, W) inputs."""
    ndims = (4,)


class BatchNorm3d(_BatchNorm):
    """BatchNorm over (N, C, D, H, W) inputs: normalised as (N, C, D·H, W), per channel."""
    ndims = (5,)

    def construct(self, x):
        if len(x.shape) != 5 or x.shape[1] != self.num_features:
            raise ValueError(f"For '{self.cls_name}', the input must have rank 5 and "
                             f"{self.num_features} channels (axis 1), but got input shape "
                             f"{tuple(x.shape)}.")
        n, c, d, h, w = x.shape
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        bn = self.bn_train if use_batch else self.bn_infer
        y = bn(x.reshape((n, c, d * h, w)), self.gamma, self.beta, self.moving_mean,
               self.moving_variance)[0]
        return y.reshape((n, c, d, h, w))


class SyncBatchNorm(_BatchNorm):
    """BatchNorm whose statistics span every device of ``process_groups``; in one process
    (refms: rank 0 of 1) it is the BatchNorm of (N, C) or (N, C, H, W) inputs."""
    ndims = (2, 4)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, process_groups=None, dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, dtype=dtype)
        if process_groups is not None and not isinstance(process_groups, (list, int)):
            raise TypeError(f"For '{self.cls_name}', the 'process_groups' must be a list, but "
                            f"got {type(process_groups).__name__}.")
        self.process_groups = process_groups
        self.is_global = False          # a group of one device: no cross-device reduction

    def construct(self, x):
        if len(x.shape) not in self.ndims:
            raise ValueError(f"For '{self.cls_name}', the must have 2 dims or 4 dims, but got "
                             f"{len(x.shape)}.")
        return super().construct(x)


class LayerNorm(Cell):
    """LayerNorm(normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init='ones', beta_init='zeros', epsilon=1e-7)

    Statistics over the axes from ``begin_norm_axis`` on, per sample; γ, β have
    shape ``normalized_shape`` and broadcast over the trailing axes (Ba et al. 2016).
    """

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init="ones", beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the type of 'normalized_shape' must be "
                            f"tuple[int] or list[int], but got {normalized_shape} and the type is "
                            f"{type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"Expected normalized_shape to be at least 1-dimensional, i.e., "
                             f"containing at least one element, but got normalized_shape = "
                             f"{normalized_shape}")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype), name="beta")

    def construct(self, x):
        ndim = len(x.shape)
        begin = self.begin_norm_axis % ndim
        params_at = self.begin_params_axis % ndim
        if tuple(x.shape[params_at:]) != tuple(self.gamma.shape):
            raise ValueError(f"For '{self.cls_name}', the input shape {tuple(x.shape)} from axis "
                             f"{self.begin_params_axis} must equal normalized_shape "
                             f"{tuple(self.gamma.shape)}.")
        y = _normalize(x, tuple(range(begin, ndim)), self.epsilon)
        return y * F.cast(self.gamma, x.dtype) + F.cast(self.beta, x.dtype)

    def extend_repr(self):
        # "gamma" without "=" is MindSpore 2.10's own repr, reproduced as printed.
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    """GroupNorm(num_groups, num_channels, eps=1e-05, affine=True, gamma_init='ones', beta_init='zeros')

    Channels are split into ``num_groups`` groups; statistics per sample and
    group over the group's channels and all spatial axes (Wu & He 2018); γ, β per channel.
    """

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=mstype.float32):
        super().__init__()
        self.num_groups = check_positive_int(num_groups, "num_groups", self.cls_name)
        self.num_channels = check_positive_int(num_channels, "num_channels", self.cls_name)
        if num_channels % num_groups != 0:
            raise ValueError(f"For '{self.cls_name}', the 'num_channels' must be divided by "
                             f"'num_groups', but got 'num_channels': {num_channels}, 'num_groups': "
                             f"{num_groups}.")
        if not isinstance(eps, float):
            raise TypeError(f"For '{self.cls_name}', the 'eps' must be float, but got "
                            f"{type(eps).__name__}.")
        self.eps = eps
        self.affine = check_bool(affine, "affine", self.cls_name)
        self.gamma = Parameter(initializer(gamma_init, num_channels, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_channels, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        if len(x.shape) < 2 or x.shape[1] != self.num_channels:
            raise ValueError(f"For '{self.cls_name}', the channel(the second dim of the input 'x') "
                             f"must be equal to num_channels, but got input shape "
                             f"{tuple(x.shape)}, num_channels: {self.num_channels}.")
        shape = tuple(x.shape)
        grouped = F.reshape(x, (shape[0], self.num_groups, -1))
        y = F.reshape(_normalize(grouped, (2,), self.eps), shape)
        per_channel = (1, self.num_channels) + (1,) * (len(shape) - 2)
        gamma = F.reshape(F.cast(self.gamma, x.dtype), per_channel)
        beta = F.reshape(F.cast(self.beta, x.dtype), per_channel)
        return y * gamma + beta

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"
