"""Detection box ops: IOU, BoundingBoxEncode, BoundingBoxDecode, CheckValid (MindSpore 2.10).

Boxes are (N, 4) rows (x1, y1, x2, y2) of Float16/Float32 with the pixel
convention w = x2 − x1 + 1 (MindSpore's kernels; Girshick, "Fast R-CNN", 2015,
for the box deltas), p an anchor, g a ground-truth box, c their centres::

    IOU(a, g)   = |a ∩ g| / |a ∪ g|   ('iou');   |a ∩ g| / |g|   ('iof');   (M, N) for M g's
    Encode      d = ((g_cx − p_cx)/p_w, (g_cy − p_cy)/p_h, log(g_w/p_w), log(g_h/p_h)),
                output (d − means) / stds
    Decode      the inverse: d = δ·stds + means, log-size deltas clipped to |log(wh_ratio_clip)|,
                corners clipped to [0, W] × [0, H] of ``max_shape = (H, W)``
    CheckValid  x1 ≥ 0, y1 ≥ 0, x2 ≤ W·r − 1, y2 ≤ H·r − 1 for ``img_metas = (H, W, r)`` (Bool)

None has a gradient (MindSpore 2.10: IOU's is zero; the others have no bprop), so all four
are listed in ``NON_DIFFERENTIABLE``.
"""
from ... import dtype as mstype
from ... import kernels
from ..primitive import Primitive, Abstract, register, op_error
from ._base import check_tensor, shape_str

__all__ = ["IOU", "BoundingBoxEncode", "BoundingBoxDecode", "CheckValid"]

_BOX_DTYPES = (mstype.float16, mstype.float32, mstype.float64)
#: CheckValid also takes Int16 and UInt8 boxes (and not Float64), as MindSpore 2.10.
_CHECK_VALID_DTYPES = (mstype.float16, mstype.float32, mstype.int16, mstype.uint8)


def _check_boxes(op, name, boxes, columns=4, dtypes=_BOX_DTYPES):
    check_tensor(op, name, boxes)
    if boxes.dtype not in dtypes:
        listed = ", ".join(f"Tensor[{d}]" for d in dtypes)
        raise op_error(op, f"the input argument[{name}] must be a type of {{{listed}}}, but got "
                           f"Tensor[{boxes.dtype}].")
    if len(boxes.shape) != 2 or boxes.shape[1] != columns:
        raise op_error(op, f"the '{name}' must have shape (N, {columns}), but got "
                           f"{shape_str(boxes.shape)}.", ValueError)


def _check_four_floats(op, name, values):
    if not isinstance(values, (tuple, list)):
        raise op_error(op, f"the type of '{name}' should be 'tuple', but got type "
                           f"'{type(values).__name__}'.")
    if len(values) != 4:
        raise op_error(op, f"the '{name} len' must be 4, but got {len(values)}.", ValueError)
    for k, value in enumerate(values):
        if not isinstance(value, float):
            raise op_error(op, f"the type of '{name}[{k}]' should be 'float', but got type "
                               f"'{type(value).__name__}'.")
    return tuple(values)


@register
class IOU(Primitive):
    """(M, N) overlaps of M ground-truth boxes with N anchors, 'iou' or 'iof'."""
    n_tensor_inputs = 2

    def __init__(self, mode="iou"):
        if mode not in ("iou", "iof"):        # KeyError, as MindSpore 2.10 raises
            raise op_error("IOU", f"only 'iou' or 'iof' are supported, but got 'mode': {mode}.",
                           KeyError)
        self.mode = mode

    def infer(self, anchor_boxes, gt_boxes):
        _check_boxes("IOU", "anchor_boxes", anchor_boxes)
        _check_boxes("IOU", "gt_boxes", gt_boxes)
        return Abstract((gt_boxes.shape[0], anchor_boxes.shape[0]), anchor_boxes.dtype)

    def forward(self, anchor_boxes, gt_boxes):
        return kernels.call("box_overlap")(anchor_boxes, gt_boxes, self.mode)


@register
class BoundingBoxEncode(Primitive):
    """(N, 4) normalised deltas taking each anchor to its ground-truth box."""
    n_tensor_inputs = 2

    def __init__(self, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
        self.means = _check_four_floats("BoundingBoxEncode", "means", means)
        self.stds = _check_four_floats("BoundingBoxEncode", "stds", stds)

    def infer(self, anchor_box, groundtruth_box):
        _check_boxes("BoundingBoxEncode", "anchor_box", anchor_box)
        _check_boxes("BoundingBoxEncode", "groundtruth_box", groundtruth_box)
        if anchor_box.shape[0] != groundtruth_box.shape[0]:
            raise op_error("BoundingBoxEncode", f"'anchor_box' and 'groundtruth_box' must have "
                                                f"the same number of boxes, but got "
                                                f"{anchor_box.shape[0]} and "
                                                f"{groundtruth_box.shape[0]}.", ValueError)
        return Abstract(tuple(anchor_box.shape), anchor_box.dtype)

    def forward(self, anchor_box, groundtruth_box):
        return kernels.call("box_encode")(anchor_box, groundtruth_box, self.means, self.stds)


@register
class BoundingBoxDecode(Primitive):
    """(N, 4) boxes from anchors and deltas (the inverse of BoundingBoxEncode), clipped."""
    n_tensor_inputs = 2

    def __init__(self, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                 wh_ratio_clip=0.016):
        if not isinstance(max_shape, (tuple, list)):
            raise op_error("BoundingBoxDecode", f"the type of 'max_shape' should be 'tuple', but "
                                                f"got type '{type(max_shape).__name__}'.")
        if len(max_shape) != 2:
            raise op_error("BoundingBoxDecode", f"the 'max_shape' must be (H, W), but got "
                                                f"{max_shape!r}.", ValueError)
        if not isinstance(wh_ratio_clip, float):
            raise op_error("BoundingBoxDecode", f"the 'wh_ratio_clip' must be a float, but got "
                                                f"{type(wh_ratio_clip).__name__}.")
        self.max_shape = tuple(max_shape)
        self.means = _check_four_floats("BoundingBoxDecode", "means", means)
        self.stds = _check_four_floats("BoundingBoxDecode", "stds", stds)
        self.wh_ratio_clip = wh_ratio_clip

    def infer(self, anchor_box, deltas):
        _check_boxes("BoundingBoxDecode", "anchor_box", anchor_box)
        _check_boxes("BoundingBoxDecode", "deltas", deltas)
        if anchor_box.shape[0] != deltas.shape[0]:
            raise op_error("BoundingBoxDecode", f"'anchor_box' and 'deltas' must have the same "
                                                f"number of boxes, but got {anchor_box.shape[0]} "
                                                f"and {deltas.shape[0]}.", ValueError)
        return Abstract(tuple(anchor_box.shape), anchor_box.dtype)

    def forward(self, anchor_box, deltas):
        return kernels.call("box_decode")(anchor_box, deltas, self.max_shape, self.means,
                                          self.stds, self.wh_ratio_clip)


@register
class CheckValid(Primitive):
    """(N,) Bool: whether each box lies inside the image ``img_metas = (H, W, ratio)``."""
    n_tensor_inputs = 2

    def infer(self, bboxes, img_metas):
        _check_boxes("CheckValid", "bboxes", bboxes, dtypes=_CHECK_VALID_DTYPES)
        check_tensor("CheckValid", "img_metas", img_metas)
        if tuple(img_metas.shape) != (3,):
            raise op_error("CheckValid", f"the 'img_metas' must have shape (3,), but got "
                                         f"{shape_str(img_metas.shape)}.", ValueError)
        return Abstract((bboxes.shape[0],), mstype.bool_)

    def forward(self, bboxes, img_metas):
        return kernels.call("box_check_valid")(bboxes, img_metas)
