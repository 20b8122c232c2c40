// reduce.cu -- sum, mean, max, min, prod, argmax and argmin over any set of axes.
//
// The caller splits the input's axes into kept axes (the output's shape) and reduced
// axes; for each it passes the shape and the input strides.  Output element o reads
//     x[base(o) + red(r)],  r = 0 .. R-1,
// base(o) = unravel(o, out_shape) · out_strides, red(r) = unravel(r, red_shape) · red_strides.
//
// Thread mapping: one block per output element.  Pass 1: thread t folds r = t, t + B,
// t + 2B, ... (B = block size) into a private accumulator.  Pass 2: a tree in shared
// memory -- at step s the first s threads fold in the value s places above, then a
// barrier -- halves the live values until thread 0 holds the result (log2 B steps).
// Floating-point sums accumulate in double.
#include "common.cuh"

namespace refms {

// Fold b into a.  max/min propagate NaN (as numpy does): a NaN on either side wins.
template <class A>
__device__ __forceinline__ A fold(int op, A a, A b) {
    switch (op) {
        case REFMS_REDUCE_MAX: return a != a || a > b ? a : b;
        case REFMS_REDUCE_MIN: return a != a || a < b ? a : b;
        case REFMS_REDUCE_PROD: return a * b;
        default: return a + b;                        // SUM, MEAN
    }
}

template <class A>
__device__ __forceinline__ A identity(int op) {
    switch (op) {
        case REFMS_REDUCE_MAX: return lowest<A>();
        case REFMS_REDUCE_MIN: return highest<A>();
        case REFMS_REDUCE_PROD: return (A)1;
        default: return (A)0;
    }
}

// argmax/argmin: should (vb, ib) replace (va, ia)?  The first NaN wins; otherwise the
// larger (smaller) value; on ties the smaller index -- numpy's rule.
template <class T>
__device__ __forceinline__ bool arg_better(bool is_max, T va, int64_t ia, T vb, int64_t ib) {
    bool a_nan = va != va, b_nan = vb != vb;
    if (a_nan || b_nan) return b_nan && (!a_nan || ib < ia);
    if (vb == va) return ib < ia;
    return is_max ? vb > va : vb < va;
}

// One block per output element; see the file comment.  out[o] = fold over r of x[...].
template <class T>
__global__ void reduce_kernel(int op, Indexer out_ix, Indexer red_ix, int64_t red_n,
                              const T* x, T* out) {
    typedef typename Acc<T>::type A;
    __shared__ A partial[256];
    const int64_t o = blockIdx.x;
    const T* base = x + out_ix.offset(0, o);
    A acc = identity<A>(op);
    for (int64_t r = threadIdx.x; r < red_n; r += blockDim.x) {
        acc = fold<A>(op, acc, (A)base[red_ix.offset(0, r)]);
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] = fold<A>(op, partial[threadIdx.x], partial[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        A result = partial[0];
        if (op == REFMS_REDUCE_MEAN) result = result / (A)red_n;
        out[o] = (T)result;
    }
}

// argmax / argmin: the same two passes carrying (value, index); out[o] = index r of the best.
template <class T>
__global__ void arg_reduce_kernel(int op, Indexer out_ix, Indexer red_ix, int64_t red_n,
                                  const T* x, int64_t* out) {
    __shared__ T best_value[256];
    __shared__ int64_t best_index[256];
    const bool is_max = op == REFMS_REDUCE_ARGMAX;
    const T* base = x + out_ix.offset(0, blockIdx.x);
    T value = is_max ? lowest<T>() : highest<T>();
    int64_t index = INT64_MAX;                    // "no element yet": loses every tie
    for (int64_t r = threadIdx.x; r < red_n; r += blockDim.x) {
        T v = base[red_ix.offset(0, r)];
        if (arg_better<T>(is_max, value, index, v, r)) { value = v; index = r; }
    }
    best_value[threadIdx.x] = value;
    best_index[threadIdx.x] = index;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s && arg_better<T>(is_max, best_value[threadIdx.x], best_index[threadIdx.x],
                                             best_value[threadIdx.x + s], best_index[threadIdx.x + s])) {
            best_value[threadIdx.x] = best_value[threadIdx.x + s];
            best_index[threadIdx.x] = best_index[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = best_index[0];
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_reduce(int op, int dtype, int64_t n_out, int out_ndim, const int64_t* out_shape,
                 const int64_t* out_strides, int red_ndim, const int64_t* red_shape,
                 const int64_t* red_strides, const void* x, void* out) {
    if (out_ndim > REFMS_MAX_DIMS || red_ndim > REFMS_MAX_DIMS) return REFMS_ERROR_SHAPE;
    if (op < REFMS_REDUCE_SUM || op > REFMS_REDUCE_ARGMIN) return REFMS_ERROR_OP;
    if (n_out == 0) return 0;
    if (n_out > 2147483647) return REFMS_ERROR_SHAPE;
    int64_t red_n = 1;
    for (int d = 0; d < red_ndim; ++d) red_n *= red_shape[d];
    Indexer out_ix = make_indexer(out_ndim, out_shape, out_strides);
    Indexer red_ix = make_indexer(red_ndim, red_shape, red_strides);
    const int threads = reduction_threads(red_n);
    const unsigned blocks = (unsigned)n_out;
    if (op == REFMS_REDUCE_ARGMAX || op == REFMS_REDUCE_ARGMIN) {
        REFMS_DISPATCH_ALL(dtype,
            REFMS_LAUNCH_COOPERATIVE(blocks, threads, arg_reduce_kernel<T>)(
                op, out_ix, red_ix, red_n, (const T*)x, (int64_t*)out));
    } else {
        REFMS_DISPATCH_ALL(dtype,
            REFMS_LAUNCH_COOPERATIVE(blocks, threads, reduce_kernel<T>)(
                op, out_ix, red_ix, red_n, (const T*)x, (T*)out));
    }
    return launched();
}

}  // extern "C"
