"""Reference kernels of ROIAlign (He et al., "Mask R-CNN", 2017; Caffe2's sampling, which
MindSpore's kernels follow), numpy.

A RoI row is ``(image, x1, y1, x2, y2)``.  Scaled by ``spatial_scale`` (the end by
``x2 + roi_end_mode``; with ``roi_end_mode = 0``, the legacy mode, at least one pixel wide
and high), its box is cut into ``ph × pw`` bins; each bin averages
``g_h × g_w`` samples (``g = sample_num``, or ⌊box size / bins⌋ when ``sample_num ≤ 0`` —
MindSpore truncates where Caffe2 takes the ceiling, so a box smaller than its bins has no
samples and its cells are NaN, 0/0, as in MindSpore)
at the sample centres, each read by bilinear interpolation of the feature map:

    sample y = y1 + (i + (k + ½)/g_h) · bin_h,   a sample outside [−1, H] × [−1, W] reads 0,
    coordinates below 0 read row/column 0, at or beyond the last index read the last one.

So the output is linear in the features: ``out[r, c, i, j] = Σ w · features[b, c, y, x]``
over the taps built here; the gradient scatters the same weights back.

Contract::

    roi_align_taps(rois, height, width, ph, pw, spatial_scale, sample_num, roi_end_mode)
        -> (out_index (K,), image (K,), flat_pixel (K,), weight (K,), empty (E,)): tap k adds
           weight · features[image, :, flat_pixel // W, flat_pixel % W] to output cell
           out_index = (r · ph + i) · pw + j; the cells in ``empty`` have no samples (NaN)
    roi_align(features, taps, n_rois, ph, pw) -> (R, C, ph, pw)
    roi_align_grad(dout, taps, features_shape) -> (N, C, H, W)
"""
import numpy as np

from . import reference


def _bilinear_taps(y, x, height, width):
    if y < -1.0 or y > height or x < -1.0 or x > width:
        return []
    y, x = max(y, 0.0), max(x, 0.0)
    y_low, x_low = int(y), int(x)
    if y_low >= height - 1:
        y_low = y_high = height - 1
        y = float(y_low)
    else:
        y_high = y_low + 1
    if x_low >= width - 1:
        x_low = x_high = width - 1
        x = float(x_low)
    else:
        x_high = x_low + 1
    ly, lx = y - y_low, x - x_low
    hy, hx = 1.0 - ly, 1.0 - lx
    return [(y_low * width + x_low, hy * hx), (y_low * width + x_high, hy * lx),
            (y_high * width + x_low, ly * hx), (y_high * width + x_high, ly * lx)]


@reference
def roi_align_taps(rois, height, width, ph, pw, spatial_scale, sample_num, roi_end_mode):
    cells, images, pixels, weights, empty = [], [], [], [], []
    for r, (image, x1, y1, x2, y2) in enumerate(np.asarray(rois, dtype=np.float64)):
        start_w, start_h = x1 * spatial_scale, y1 * spatial_scale
        end_w, end_h = (x2 + roi_end_mode) * spatial_scale, (y2 + roi_end_mode) * spatial_scale
        roi_w, roi_h = end_w - start_w, end_h - start_h
        if roi_end_mode == 0:               # the legacy mode: at least one pixel
            roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
        bin_h, bin_w = roi_h / ph, roi_w / pw
        grid_h = sample_num if sample_num > 0 else int(roi_h / ph)
        grid_w = sample_num if sample_num > 0 else int(roi_w / pw)
        count = grid_h * grid_w
        if count <= 0:
            empty.extend((r * ph + i) * pw + j for i in range(ph) for j in range(pw))
            continue
        for i in range(ph):
            for j in range(pw):
                cell = (r * ph + i) * pw + j
                for a in range(grid_h):
                    y = start_h + i * bin_h + (a + 0.5) * bin_h / grid_h
                    for b in range(grid_w):
                        x = start_w + j * bin_w + (b + 0.5) * bin_w / grid_w
                        for pixel, w in _bilinear_taps(y, x, height, width):
                            cells.append(cell)
                            images.append(int(image))
                            pixels.append(pixel)
                            weights.append(w / count)
    return (np.array(cells, dtype=np.int64), np.array(images, dtype=np.int64),
            np.array(pixels, dtype=np.int64), np.array(weights, dtype=np.float64),
            np.array(empty, dtype=np.int64))


@reference
def roi_align(features, taps, n_rois, ph, pw):
    cells, images, pixels, weights, empty = taps
    n, c, h, w = features.shape
    flat = features.reshape(n, c, h * w).astype(np.float64)
    out = np.zeros((n_rois * ph * pw, c))
    np.add.at(out, cells, flat[images, :, pixels] * weights[:, None])
    out[empty] = np.nan
    return out.reshape(n_rois, ph, pw, c).transpose(0, 3, 1, 2).astype(features.dtype)


@reference
def roi_align_grad(dout, taps, features_shape):
    cells, images, pixels, weights, _ = taps
    n, c, h, w = features_shape
    r, _, ph, pw = dout.shape
    rows = dout.transpose(0, 2, 3, 1).reshape(r * ph * pw, c).astype(np.float64)
    grad = np.zeros((n, h * w, c))
    np.add.at(grad, (images, pixels), rows[cells] * weights[:, None])
    return grad.transpose(0, 2, 1).reshape(n, c, h, w).astype(dout.dtype)
