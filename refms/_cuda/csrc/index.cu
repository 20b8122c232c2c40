// index.cu -- gather along an axis, and one-hot.
//
// gather: x viewed as (outer, axis_size, inner), index as a flat list of n_index entries;
//     out[o, t, j] = x[o, index[t], j]          (index in [-axis_size, axis_size); negatives wrap)
// take_along_axis: out has index's shape; along `axis` the index picks the position:
//     out[a, t, b] = x[a, index[a, t, b], b]
// An index outside its range is not a crash: the thread writes 0 and records the first
// bad index, with the caller's launch_id, in the device error record; the host reports it
// at the next synchronizing point (refms/_cuda/device.py).
// one_hot: out[t, d] = on_value if d == index[t] else off_value (an index outside
// [0, depth) gives a row of off_value, as MindSpore's OneHot does).
// Thread mapping: one thread per output element (grid-stride).
#include "common.cuh"

namespace refms {

template <class T, class I>
__global__ void gather_kernel(int64_t axis_size, int64_t inner, int64_t n_index, int64_t total,
                              const T* x, const I* index, T* out, RefmsErrorRecord* error, int launch_id) {
    REFMS_GRID_LOOP(e, total) {
        int64_t j = e % inner, t = (e / inner) % n_index, o = e / (inner * n_index);
        int64_t at = (int64_t)index[t];
        if (at < -axis_size || at >= axis_size) {
            report_error(error, REFMS_KERNEL_SIGNED_INDEX_OUT_OF_RANGE, launch_id, at, axis_size);
            out[e] = (T)0;
        } else {
            out[e] = x[(o * axis_size + (at < 0 ? at + axis_size : at)) * inner + j];
        }
    }
}

// One thread per element of out (= per element of index, contiguous), grid-stride:
// unravel e over index's shape, read x at those coordinates with `axis` replaced by the index.
template <class T, class I>
__global__ void take_along_axis_kernel(int64_t total, Indexer ix, int axis, int64_t axis_size,
                                       const T* x, const I* index, T* out, RefmsErrorRecord* error,
                                       int launch_id) {
    REFMS_GRID_LOOP(e, total) {
        int64_t rest = e, offset = 0;
        for (int d = ix.ndim - 1; d >= 0; --d) {
            int64_t coord = rest % ix.shape[d];
            rest /= ix.shape[d];
            if (d != axis) offset += coord * ix.stride[0][d];
        }
        int64_t at = (int64_t)index[e];
        if (at < -axis_size || at >= axis_size) {
            report_error(error, REFMS_KERNEL_SIGNED_INDEX_OUT_OF_RANGE, launch_id, at, axis_size);
            out[e] = (T)0;
        } else {
            out[e] = x[offset + (at < 0 ? at + axis_size : at) * ix.stride[0][axis]];
        }
    }
}

template <class T, class I>
__global__ void one_hot_kernel(int64_t depth, int64_t total, const I* index, T on_value, T off_value, T* out) {
    REFMS_GRID_LOOP(e, total) { out[e] = (int64_t)index[e / depth] == e % depth ? on_value : off_value; }
}

template <class I>
int gather_with(int dtype, int64_t outer, int64_t axis_size, int64_t inner, int64_t n_index,
                const void* x, const void* index, void* out, int launch_id) {
    const int64_t total = outer * n_index * inner;
    if (total == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, gather_kernel<T, I>)(
            axis_size, inner, n_index, total, (const T*)x, (const I*)index, (T*)out, error_record(), launch_id));
    return launched();
}

template <class I>
int take_along_axis_with(int dtype, int ndim, const int64_t* index_shape, const int64_t* x_strides,
                         int axis, int64_t axis_size, const void* x, const void* index, void* out,
                         int launch_id) {
    int64_t total = 1;
    for (int d = 0; d < ndim; ++d) total *= index_shape[d];
    if (total == 0) return 0;
    Indexer ix = make_indexer(ndim, index_shape, x_strides);
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, take_along_axis_kernel<T, I>)(
            total, ix, axis, axis_size, (const T*)x, (const I*)index, (T*)out, error_record(), launch_id));
    return launched();
}

template <class I>
int one_hot_with(int dtype, int64_t n_index, int64_t depth, const void* index, double on_value,
                 double off_value, void* out) {
    const int64_t total = n_index * depth;
    if (total == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, one_hot_kernel<T, I>)(
            depth, total, (const I*)index, (T)on_value, (T)off_value, (T*)out));
    return launched();
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_gather(int dtype, int index_dtype, int64_t outer, int64_t axis_size, int64_t inner,
                 int64_t n_index, const void* x, const void* index, void* out, int launch_id) {
    if (index_dtype == REFMS_INT32) return gather_with<int32_t>(dtype, outer, axis_size, inner, n_index, x, index, out, launch_id);
    if (index_dtype == REFMS_INT64) return gather_with<int64_t>(dtype, outer, axis_size, inner, n_index, x, index, out, launch_id);
    return REFMS_ERROR_DTYPE;
}

int refms_take_along_axis(int dtype, int index_dtype, int ndim, const int64_t* index_shape,
                          const int64_t* x_strides, int axis, int64_t axis_size, const void* x,
                          const void* index, void* out, int launch_id) {
    if (ndim > REFMS_MAX_DIMS) return REFMS_ERROR_SHAPE;
    if (index_dtype == REFMS_INT32)
        return take_along_axis_with<int32_t>(dtype, ndim, index_shape, x_strides, axis, axis_size, x, index, out, launch_id);
    if (index_dtype == REFMS_INT64)
        return take_along_axis_with<int64_t>(dtype, ndim, index_shape, x_strides, axis, axis_size, x, index, out, launch_id);
    return REFMS_ERROR_DTYPE;
}

int refms_one_hot(int dtype, int index_dtype, int64_t n_index, int64_t depth, const void* index,
                  double on_value, double off_value, void* out) {
    if (index_dtype == REFMS_INT32) return one_hot_with<int32_t>(dtype, n_index, depth, index, on_value, off_value, out);
    if (index_dtype == REFMS_INT64) return one_hot_with<int64_t>(dtype, n_index, depth, index, on_value, off_value, out);
    return REFMS_ERROR_DTYPE;
}

}  // extern "C"
