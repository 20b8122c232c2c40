"""ROIAlign (MindSpore 2.10 ``ops.ROIAlign``) and its gradient helper ROIAlignGrad.

``ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1)
(features (N, C, H, W), rois (R, 5))`` -> (R, C, pooled_height, pooled_width): each RoI's
bins averaged from bilinear samples (the sampling rule is in :mod:`refms.kernels.roi_align`).
The output is linear in ``features``; the gradient to ``features`` scatters the same
bilinear weights (``ROIAlignGrad``), and ``rois`` get zeros (MindSpore's bprop).
"""
from ... import dtype as mstype
from ... import kernels
from ..primitive import F, Primitive, Abstract, register, op_error
from ._base import check_tensor, shape_str

__all__ = ["ROIAlign", "ROIAlignGrad"]

#: MindSpore 2.10 takes Float16 and Float32; refms also Float64 (the float64 gradient checks).
_DTYPES = (mstype.float16, mstype.float32, mstype.float64)


def _check_attrs(op, pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode):
    for name, value in (("pooled_height", pooled_height), ("pooled_width", pooled_width),
                        ("sample_num", sample_num), ("roi_end_mode", roi_end_mode)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise op_error(op, f"the '{name}' must be int, but got {type(value).__name__}.")
    if not isinstance(spatial_scale, float):
        raise op_error(op, f"the 'spatial_scale' must be float, but got "
                           f"{type(spatial_scale).__name__}.")
    if roi_end_mode not in (0, 1):
        raise op_error(op, f"the 'roi_end_mode' must be 0 or 1, but got {roi_end_mode}.",
                       ValueError)


def _taps(prim, rois, height, width):
    return kernels.call("roi_align_taps")(rois, height, width, prim.pooled_height,
                                          prim.pooled_width, prim.spatial_scale,
                                          prim.sample_num, prim.roi_end_mode)


@register
class ROIAlign(Primitive):
    """out[r, c, i, j] = mean over the bin's samples of bilinear(features[rois[r, 0], c], y, x)."""
    n_tensor_inputs = 2

    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2,
                 roi_end_mode=1):
        _check_attrs("ROIAlign", pooled_height, pooled_width, spatial_scale, sample_num,
                     roi_end_mode)
        self.pooled_height, self.pooled_width = pooled_height, pooled_width
        self.spatial_scale, self.sample_num = spatial_scale, sample_num
        self.roi_end_mode = roi_end_mode

    def infer(self, features, rois):
        op = "ROIAlign"
        for name, value in (("features", features), ("rois", rois)):
            check_tensor(op, name, value)
            if value.dtype not in _DTYPES:
                raise op_error(op, f"the input argument[{name}] must be a type of "
                                   f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, "
                                   f"but got "
                                   f"Tensor[{value.dtype}].")
        if len(features.shape) != 4:
            raise op_error(op, f"the 'features' must be 4-D (N, C, H, W), but got shape "
                               f"{shape_str(features.shape)}.", ValueError)
        if len(rois.shape) != 2 or rois.shape[1] != 5:
            raise op_error(op, f"the 'rois' must have shape (rois_n, 5), but got "
                               f"{shape_str(rois.shape)}.", ValueError)
        return Abstract((rois.shape[0], features.shape[1], self.pooled_height,
                         self.pooled_width), features.dtype)

    def forward(self, features, rois):
        taps = _taps(self, rois, features.shape[2], features.shape[3])
        images = taps[1]
        if len(images) and (images.min() < 0 or images.max() >= features.shape[0]):
            raise op_error("ROIAlign", f"the image index of every RoI must be in "
                                       f"[0, {features.shape[0]}), but got "
                                       f"{sorted(set(images.tolist()))}.", RuntimeError)
        return kernels.call("roi_align")(features, taps, rois.shape[0], self.pooled_height,
                                         self.pooled_width)

    def bprop(self, features, rois, out, dout):
        grad = ROIAlignGrad(self.pooled_height, self.pooled_width, self.spatial_scale,
                            self.sample_num, self.roi_end_mode)(dout, rois, tuple(features.shape))
        return grad, F.zeros_like(rois)


@register
class ROIAlignGrad(Primitive):
    """d features of ROIAlign: ``dout`` scattered back with the bilinear sample weights."""
    n_tensor_inputs = 2

    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2,
                 roi_end_mode=1):
        self.pooled_height, self.pooled_width = pooled_height, pooled_width
        self.spatial_scale, self.sample_num = spatial_scale, sample_num
        self.roi_end_mode = roi_end_mode

    def infer(self, dout, rois, features_shape):
        return Abstract(tuple(features_shape), dout.dtype)

    def forward(self, dout, rois, features_shape):
        taps = _taps(self, rois, features_shape[2], features_shape[3])
        return kernels.call("roi_align_grad")(dout, taps, tuple(features_shape))

    def bprop(self, dout, rois, features_shape, out, ddx):
        return ROIAlign(self.pooled_height, self.pooled_width, self.spatial_scale,
                        self.sample_num, self.roi_end_mode)(ddx, rois), F.zeros_like(rois), None
