"""``mint.nn.functional.grid_sample``: sample an image at the points of a grid (the spatial
transformer's sampler; Jaderberg et al., *Spatial Transformer Networks*, 2015, eq. 5).

``input`` is (N, C, H, W), ``grid`` (N, Ho, Wo, 2) holds (x, y) in [−1, 1] (−1: the left/top
edge); the result is (N, C, Ho, Wo).  A grid point becomes a pixel coordinate

    align_corners=True:   i = (x + 1)/2 · (W − 1)        (−1 and 1: the corner pixels' centres)
    align_corners=False:  i = ((x + 1)·W − 1)/2          (−1 and 1: the corner pixels' edges)

``mode="bilinear"`` takes Σ over the four neighbours of ``(1 − |i − iₖ|)(1 − |j − jₖ|)·input[jₖ, iₖ]``;
``"nearest"`` the pixel at the rounded coordinate (halves to even).  ``padding_mode`` says what
lies outside: ``"zeros"`` (0), ``"border"`` (coordinates clamped to the image) or
``"reflection"`` (coordinates reflected at the borders, then clamped).  This is
``torch.nn.functional.grid_sample``'s definition, which MindSpore's mint documents.

A composition of registered ops (Floor, GatherD, Select...), so gradients flow to ``input``
and to ``grid`` (through the bilinear weights; the nearest mode's grid gradient is zero).
``mode="bicubic"`` and 5-D inputs are not implemented.
"""
from ... import dtype as mstype
from ...ops import functional as F

__all__ = ["grid_sample"]

MODES = ("bilinear", "nearest")
PADDING_MODES = ("zeros", "border", "reflection")


def _pixel(coord, size, align_corners):
    """Grid coordinate in [−1, 1] -> pixel coordinate along an axis of ``size`` pixels."""
    if align_corners:
        return (coord + 1) * ((size - 1) / 2)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, low2, high2):
    """Reflect ``coord`` into [low2/2, high2/2] (the mirror images of a coordinate)."""
    if low2 == high2:
        return F.zeros_like(coord)
    low, span = low2 / 2, (high2 - low2) / 2
    distance = F.abs(coord - low)
    extra = F.fmod(distance, span)
    flips = F.floor(distance / span)
    even = F.equal(F.floor_mod(flips, 2), 0)
    return F.select(even, extra + low, span - extra + low)


def _padded(coord, size, padding_mode, align_corners):
    if padding_mode == "reflection":
        if align_corners:
            coord = _reflect(coord, 0, 2 * (size - 1))
        else:
            coord = _reflect(coord, -1, 2 * size - 1)
    if padding_mode in ("border", "reflection"):
        coord = F.clamp(coord, 0, size - 1)
    return coord


def _tap(flat, width, height, xs, ys, weight):
    """weight · input[ys, xs] (0 where (xs, ys) lies outside); xs, ys, weight (N, Ho·Wo)."""
    inside = F.logical_and(F.logical_and(F.greater_equal(xs, 0), F.less_equal(xs, width - 1)),
                           F.logical_and(F.greater_equal(ys, 0), F.less_equal(ys, height - 1)))
    index = F.cast(F.clamp(ys, 0, height - 1) * width + F.clamp(xs, 0, width - 1), mstype.int64)
    n, c = flat.shape[0], flat.shape[1]
    index = F.broadcast_to(F.expand_dims(index, 1), (n, c, index.shape[1]))
    values = F.gather_d(flat, 2, index)
    weight = F.select(inside, weight, F.zeros_like(weight))
    return values * F.expand_dims(weight, 1)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros",  # noqa: A002
                align_corners=False):
    """Sample ``input`` (N, C, H, W) at the (x, y) points of ``grid`` (N, Ho, Wo, 2)."""
    op = "GridSampler2D"
    if mode not in MODES:
        raise ValueError(f"For '{op}', mode must be one of {MODES}, but got {mode!r} (bicubic "
                         f"sampling is not implemented in refms).")
    if padding_mode not in PADDING_MODES:
        raise ValueError(f"For '{op}', padding_mode must be one of {PADDING_MODES}, but got "
                         f"{padding_mode!r}.")
    if len(input.shape) != 4 or len(grid.shape) != 4 or grid.shape[3] != 2:
        raise ValueError(f"For '{op}', expected 'input' (N, C, H, W) and 'grid' (N, Ho, Wo, 2), "
                         f"but got shapes {tuple(input.shape)} and {tuple(grid.shape)} (5-D "
                         f"sampling is not implemented in refms).")
    if input.shape[0] != grid.shape[0]:
        raise ValueError(f"For '{op}', 'input' and 'grid' must have the same batch size, but "
                         f"got {input.shape[0]} and {grid.shape[0]}.")
    if input.dtype.kind != "float" or grid.dtype != input.dtype:
        raise TypeError(f"For '{op}', 'input' and 'grid' must be float tensors of one dtype, "
                        f"but got {input.dtype} and {grid.dtype}.")
    n, c, height, width = input.shape
    out_h, out_w = grid.shape[1], grid.shape[2]
    points = F.reshape(grid, (n, out_h * out_w, 2))
    xs = _padded(_pixel(points[:, :, 0], width, align_corners), width, padding_mode,
                 align_corners)
    ys = _padded(_pixel(points[:, :, 1], height, align_corners), height, padding_mode,
                 align_corners)
    flat = F.reshape(input, (n, c, height * width))
    if mode == "nearest":
        out = _tap(flat, width, height, F.round(xs), F.round(ys), F.ones_like(xs))
    else:
        x0, y0 = F.floor(xs), F.floor(ys)
        right, down = xs - x0, ys - y0
        left, up = 1 - right, 1 - down
        out = (_tap(flat, width, height, x0, y0, left * up)
               + _tap(flat, width, height, x0 + 1, y0, right * up)
               + _tap(flat, width, height, x0, y0 + 1, left * down)
               + _tap(flat, width, height, x0 + 1, y0 + 1, right * down))
    return F.reshape(out, (n, c, out_h, out_w))
