"""NMSWithMask: greedy non-maximum suppression of scored boxes (MindSpore 2.10 ``ops.NMSWithMask``).

``NMSWithMask(iou_threshold=0.5)(bboxes (N, 5))``, rows ``(x1, y1, x2, y2, score)``, returns
``(selected_boxes (N, 5), selected_idx (N,) Int32, selected_mask (N,) Bool)``: the rows
sorted by score (descending), their positions in that order (MindSpore 2.10's CPU kernel
returns 0 … N−1), and whether each survives: a row is dropped when its IoU with a kept,
higher-scored row is above ``iou_threshold`` (areas without the +1 of the detection
box ops).  It has no gradient (listed in ``NON_DIFFERENTIABLE``).
"""
from ... import dtype as mstype
from ... import kernels
from ..primitive import Primitive, Abstract, register, op_error
from ._base import check_tensor, shape_str

__all__ = ["NMSWithMask"]


@register
class NMSWithMask(Primitive):
    """(boxes sorted by score, 0..N−1, keep mask) of greedy NMS at ``iou_threshold``."""
    n_tensor_inputs = 1
    n_outputs = 3

    def __init__(self, iou_threshold=0.5):
        if isinstance(iou_threshold, bool) or not isinstance(iou_threshold, float):
            raise op_error("NMSWithMask", f"the 'iou_threshold' must be float, but got "
                                          f"{type(iou_threshold).__name__}.")
        if not 0.0 <= iou_threshold <= 1.0:
            raise op_error("NMSWithMask", f"the 'iou_threshold' must be in [0, 1], but got "
                                          f"{iou_threshold}.", ValueError)
        self.iou_threshold = iou_threshold

    def infer(self, bboxes):
        op = "NMSWithMask"
        check_tensor(op, "bboxes", bboxes)
        if bboxes.dtype not in (mstype.float16, mstype.float32):
            raise op_error(op, f"the input argument[bboxes] must be a type of {{Tensor[Float16], "
                               f"Tensor[Float32]}}, but got Tensor[{bboxes.dtype}].")
        if len(bboxes.shape) != 2 or bboxes.shape[1] != 5:
            raise op_error(op, f"the 'bboxes' must have shape (N, 5), but got "
                               f"{shape_str(bboxes.shape)}.", ValueError)
        n = bboxes.shape[0]
        return (Abstract((n, 5), bboxes.dtype), Abstract((n,), mstype.int32),
                Abstract((n,), mstype.bool_))

    def forward(self, bboxes):
        return kernels.call("nms_with_mask")(bboxes, self.iou_threshold)
