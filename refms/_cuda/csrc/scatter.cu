// scatter.cu -- moving elements by computed positions: numpy indexing through a list of
// element offsets, scatter along an axis, segment sums, and masked select / scatter.
//
// gather_offsets:   out[i] = x[offsets[i]]
// scatter_offsets:  x[offsets[i]] = values[i]        (add = 0; a position written twice
//                                                      keeps one of the values)
//                   x[offsets[i]] += values[i]       (add = 1; repeats accumulate)
//   x[index] for any numpy index is a list of element offsets into x; refms/_cuda/indexing.py
//   computes that list on the host from the (host) index, and these kernels move the data.
// scatter_along_axis (the index's shape; along `axis` the index gives the position):
//   out[a, index[a, t, b], b] = updates[a, t, b]      (add = 0)   or += (add = 1)
//   an index outside [-axis_size, axis_size) is recorded in the device error record.
// segment_sum: x viewed as (n_ids, inner), ids of length n_ids;
//   out[s, j] += x[e, j] for every e with ids[e] = s (ids < 0 are dropped; ids >= n_segments
//   are recorded as errors); out must be zeroed first.
// masked_select:  where mask[i]: out[positions[i]] = x[i]
// masked_scatter: where mask[i]: out[i] = source[positions[i]]   (out holds a copy of x)
//   positions = the exclusive prefix sum of the mask (scan.cu), i.e. how many true
//   elements come before i; a position past the source's end is recorded as an error.
//
// Thread mapping: one thread per element of the list / index / x (grid-stride).  Adds
// into shared targets are atomic (atomic_add: int32, int64, float32, float64).
#include "common.cuh"

namespace refms {

template <class T>
__global__ void gather_offsets_kernel(int64_t n, const T* x, const int64_t* offsets, T* out) {
    REFMS_GRID_LOOP(i, n) { out[i] = x[offsets[i]]; }
}

template <class T>
__global__ void scatter_offsets_kernel(int64_t n, const int64_t* offsets, const T* values, T* x) {
    REFMS_GRID_LOOP(i, n) { x[offsets[i]] = values[i]; }
}

template <class T>
__global__ void scatter_add_offsets_kernel(int64_t n, const int64_t* offsets, const T* values, T* x) {
    REFMS_GRID_LOOP(i, n) { atomic_add(&x[offsets[i]], values[i]); }
}

// One thread per element e of index (contiguous, index's shape = ix.shape); ix.stride[0]
// holds out's strides.  Unravel e, replace the coordinate on `axis` by index[e].
template <class T, class I, bool kAdd>
__global__ void scatter_along_axis_kernel(int64_t total, Indexer ix, int axis, int64_t axis_size,
                                          const I* index, const T* updates, T* out,
                                          RefmsErrorRecord* error, int launch_id) {
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
            continue;
        }
        T* target = out + offset + (at < 0 ? at + axis_size : at) * ix.stride[0][axis];
        if constexpr (kAdd) {               // (compiled for the atomic dtypes only)
            atomic_add(target, updates[e]);
        } else {
            *target = updates[e];
        }
    }
}

template <class T, class I>
__global__ void segment_sum_kernel(int64_t n_ids, int64_t inner, int64_t n_segments, const T* x,
                                   const I* ids, T* out, RefmsErrorRecord* error, int launch_id) {
    REFMS_GRID_LOOP(e, n_ids * inner) {
        const int64_t s = (int64_t)ids[e / inner];
        if (s < 0) continue;
        if (s >= n_segments) {
            report_error(error, REFMS_KERNEL_INDEX_OUT_OF_RANGE, launch_id, s, n_segments);
            continue;
        }
        atomic_add(&out[s * inner + e % inner], x[e]);
    }
}

template <class T>
__global__ void masked_select_kernel(int64_t n, const T* x, const uint8_t* mask,
                                     const int64_t* positions, T* out) {
    REFMS_GRID_LOOP(i, n) {
        if (mask[i]) out[positions[i]] = x[i];
    }
}

template <class T>
__global__ void masked_scatter_kernel(int64_t n, const uint8_t* mask, const int64_t* positions,
                                      int64_t source_size, const T* source, T* out,
                                      RefmsErrorRecord* error, int launch_id) {
    REFMS_GRID_LOOP(i, n) {
        if (!mask[i]) continue;
        if (positions[i] >= source_size) {
            report_error(error, REFMS_KERNEL_INDEX_OUT_OF_RANGE, launch_id, positions[i], source_size);
            continue;
        }
        out[i] = source[positions[i]];
    }
}

template <class I>
int scatter_along_axis_with(int dtype, int add, int ndim, const int64_t* index_shape,
                            const int64_t* out_strides, int axis, int64_t axis_size,
                            const void* index, const void* updates, void* out, int launch_id) {
    int64_t total = 1;
    for (int d = 0; d < ndim; ++d) total *= index_shape[d];
    if (total == 0) return 0;
    Indexer ix = make_indexer(ndim, index_shape, out_strides);
    if (add) {
        REFMS_DISPATCH_ATOMIC(dtype,
            REFMS_LAUNCH(blocks_for(total), kThreads, scatter_along_axis_kernel<T, I, true>)(
                total, ix, axis, axis_size, (const I*)index, (const T*)updates, (T*)out,
                error_record(), launch_id));
    } else {
        REFMS_DISPATCH_ALL(dtype,
            REFMS_LAUNCH(blocks_for(total), kThreads, scatter_along_axis_kernel<T, I, false>)(
                total, ix, axis, axis_size, (const I*)index, (const T*)updates, (T*)out,
                error_record(), launch_id));
    }
    return launched();
}

template <class I>
int segment_sum_with(int dtype, int64_t n_ids, int64_t inner, int64_t n_segments, const void* x,
                     const void* ids, void* out, int launch_id) {
    if (n_ids * inner == 0) return 0;
    REFMS_DISPATCH_ATOMIC(dtype,
        REFMS_LAUNCH(blocks_for(n_ids * inner), kThreads, segment_sum_kernel<T, I>)(
            n_ids, inner, n_segments, (const T*)x, (const I*)ids, (T*)out, error_record(), launch_id));
    return launched();
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_gather_offsets(int dtype, int64_t n, const void* x, const int64_t* offsets, void* out) {
    if (n == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, gather_offsets_kernel<T>)(n, (const T*)x, offsets, (T*)out));
    return launched();
}

int refms_scatter_offsets(int dtype, int add, int64_t n, const int64_t* offsets, const void* values,
                          void* x) {
    if (n == 0) return 0;
    if (add) {
        REFMS_DISPATCH_ATOMIC(dtype,
            REFMS_LAUNCH(blocks_for(n), kThreads, scatter_add_offsets_kernel<T>)(
                n, offsets, (const T*)values, (T*)x));
    } else {
        REFMS_DISPATCH_ALL(dtype,
            REFMS_LAUNCH(blocks_for(n), kThreads, scatter_offsets_kernel<T>)(
                n, offsets, (const T*)values, (T*)x));
    }
    return launched();
}

int refms_scatter_along_axis(int dtype, int index_dtype, int add, int ndim, const int64_t* index_shape,
                             const int64_t* out_strides, int axis, int64_t axis_size,
                             const void* index, const void* updates, void* out, int launch_id) {
    if (ndim > REFMS_MAX_DIMS) return REFMS_ERROR_SHAPE;
    if (index_dtype == REFMS_INT32)
        return scatter_along_axis_with<int32_t>(dtype, add, ndim, index_shape, out_strides, axis,
                                                axis_size, index, updates, out, launch_id);
    if (index_dtype == REFMS_INT64)
        return scatter_along_axis_with<int64_t>(dtype, add, ndim, index_shape, out_strides, axis,
                                                axis_size, index, updates, out, launch_id);
    return REFMS_ERROR_DTYPE;
}

int refms_segment_sum(int dtype, int ids_dtype, int64_t n_ids, int64_t inner, int64_t n_segments,
                      const void* x, const void* ids, void* out, int launch_id) {
    if (ids_dtype == REFMS_INT32)
        return segment_sum_with<int32_t>(dtype, n_ids, inner, n_segments, x, ids, out, launch_id);
    if (ids_dtype == REFMS_INT64)
        return segment_sum_with<int64_t>(dtype, n_ids, inner, n_segments, x, ids, out, launch_id);
    return REFMS_ERROR_DTYPE;
}

int refms_masked_select(int dtype, int64_t n, const void* x, const void* mask,
                        const int64_t* positions, void* out) {
    if (n == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, masked_select_kernel<T>)(
            n, (const T*)x, (const uint8_t*)mask, positions, (T*)out));
    return launched();
}

int refms_masked_scatter(int dtype, int64_t n, const void* mask, const int64_t* positions,
                         int64_t source_size, const void* source, void* out, int launch_id) {
    if (n == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, masked_scatter_kernel<T>)(
            n, (const uint8_t*)mask, positions, source_size, (const T*)source, (T*)out,
            error_record(), launch_id));
    return launched();
}

}  // extern "C"
