// common.cuh -- what every kernel file of the refms CUDA library shares.
//
// * the runtime: the real CUDA runtime under nvcc, or the CPU shim (shim.h) when the
//   sources are compiled as C++ with -DREFMS_CUDA_SHIM for the tests;
// * the launch macros: every kernel is launched on the library's one stream with
//       REFMS_LAUNCH(grid, block, kernel)(arguments...)              threads independent
//       REFMS_LAUNCH_COOPERATIVE(grid, block, kernel)(arguments...)  shared memory + barriers
//   (the two are the same launch on a GPU; the shim runs them differently);
// * dtype codes and a switch that instantiates a kernel template for a dtype;
// * the Indexer that maps a flat output index to input offsets through strides
//   (broadcasting is a stride of 0);
// * the device error record through which a kernel reports bad input (an index out of
//   range) without stopping: the host reads it at the next synchronizing point.
#pragma once

#include <stdint.h>

#ifdef REFMS_CUDA_SHIM
#include "shim.h"
#define REFMS_LAUNCH(grid, block, ...) \
    ::shim::Launch{dim3(grid), dim3(block), false, #__VA_ARGS__}.with(__VA_ARGS__)
#define REFMS_LAUNCH_COOPERATIVE(grid, block, ...) \
    ::shim::Launch{dim3(grid), dim3(block), true, #__VA_ARGS__}.with(__VA_ARGS__)
#else
#include <cuda_runtime.h>
#include <math.h>
#define REFMS_LAUNCH(grid, block, ...) __VA_ARGS__<<<(grid), (block), 0, refms::stream()>>>
#define REFMS_LAUNCH_COOPERATIVE(grid, block, ...) __VA_ARGS__<<<(grid), (block), 0, refms::stream()>>>
#endif

#include "refms_cuda.h"

namespace refms {

cudaStream_t stream();              // the library's stream (runtime.cu)
RefmsErrorRecord* error_record();   // the device error record (runtime.cu)

// After a launch: the launch error (bad configuration), or cudaSuccess.  Errors raised by
// a running kernel appear later, at refms_cuda_synchronize.
inline int launched() { return (int)cudaGetLastError(); }

constexpr int kThreads = 256;       // threads per block of the elementwise kernels

// Blocks for a grid-stride loop over n elements (capped: each thread then takes several).
inline unsigned blocks_for(int64_t n, int threads = kThreads) {
    int64_t blocks = (n + threads - 1) / threads;
    if (blocks < 1) blocks = 1;
    if (blocks > 65535) blocks = 65535;
    return (unsigned)blocks;
}

// The smallest power of two >= n, between 32 and 256: the block size of a tree reduction
// over n elements.
inline int reduction_threads(int64_t n) {
    int threads = 32;
    while (threads < n && threads < 256) threads *= 2;
    return threads;
}

// Grid-stride loop: thread t of the grid handles i = t, t + T, t + 2T, ... (T threads in all).
#define REFMS_GRID_LOOP(i, n)                                                              \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);             \
         i += (int64_t)blockDim.x * gridDim.x)

// Type in which transcendental functions are evaluated: double for double, float otherwise.
template <class T> struct Real { typedef float type; };
template <> struct Real<double> { typedef double type; };

template <class T> __host__ __device__ __forceinline__ constexpr bool is_float() { return false; }
template <> __host__ __device__ __forceinline__ constexpr bool is_float<float>() { return true; }
template <> __host__ __device__ __forceinline__ constexpr bool is_float<double>() { return true; }

// The identity elements of max and min: -inf/+inf for floats, the extreme values otherwise.
template <class T> struct Limits;
#define REFMS_LIMITS(type, low, high)                                                   \
    template <> struct Limits<type> {                                                   \
        static __host__ __device__ __forceinline__ type lowest() { return low; }        \
        static __host__ __device__ __forceinline__ type highest() { return high; }      \
    };
REFMS_LIMITS(int8_t, INT8_MIN, INT8_MAX)
REFMS_LIMITS(uint8_t, 0, UINT8_MAX)
REFMS_LIMITS(int16_t, INT16_MIN, INT16_MAX)
REFMS_LIMITS(int32_t, INT32_MIN, INT32_MAX)
REFMS_LIMITS(int64_t, INT64_MIN, INT64_MAX)
REFMS_LIMITS(float, -INFINITY, INFINITY)
REFMS_LIMITS(double, -INFINITY, INFINITY)
template <class T> __host__ __device__ __forceinline__ T lowest() { return Limits<T>::lowest(); }
template <class T> __host__ __device__ __forceinline__ T highest() { return Limits<T>::highest(); }

// Accumulator type of reductions: double for floating point, the type itself for integers.
template <class T> struct Acc { typedef T type; };
template <> struct Acc<float> { typedef double type; };

// ---- strided indexing ---------------------------------------------------------------------

// A contiguous output of shape `shape` (ndim <= REFMS_MAX_DIMS) read from up to three
// inputs through their element strides (a stride of 0 repeats the input: broadcasting).
struct Indexer {
    int ndim;
    int64_t shape[REFMS_MAX_DIMS];
    int64_t stride[3][REFMS_MAX_DIMS];

    // Offset into input `k` of output element i (row-major unravel of i over shape).
    __device__ __forceinline__ int64_t offset(int k, int64_t i) const {
        int64_t off = 0;
        for (int d = ndim - 1; d >= 0; --d) {
            int64_t coord = i % shape[d];
            i /= shape[d];
            off += coord * stride[k][d];
        }
        return off;
    }
};

inline Indexer make_indexer(int ndim, const int64_t* shape, const int64_t* stride0,
                            const int64_t* stride1 = nullptr, const int64_t* stride2 = nullptr) {
    Indexer ix;
    ix.ndim = ndim;
    for (int d = 0; d < ndim; ++d) {
        ix.shape[d] = shape[d];
        ix.stride[0][d] = stride0 ? stride0[d] : 0;
        ix.stride[1][d] = stride1 ? stride1[d] : 0;
        ix.stride[2][d] = stride2 ? stride2[d] : 0;
    }
    return ix;
}

// ---- device error record ------------------------------------------------------------------

// Record the first error of a kernel: only the first thread that finds one writes it.
__device__ __forceinline__ void report_error(RefmsErrorRecord* rec, int code, int launch_id,
                                             int64_t value, int64_t bound) {
    if (atomicCAS(&rec->code, 0, code) == 0) {
        rec->launch_id = launch_id;
        rec->value = value;
        rec->bound = bound;
    }
}

// ---- atomic accumulation -------------------------------------------------------------------

// *p += v as one indivisible step, for the dtypes of REFMS_DISPATCH_ATOMIC (many threads
// may add into one element: scatter-add, segment sums).  int64 goes through CUDA's unsigned
// 64-bit add, which is the same operation on two's-complement bits.
__device__ __forceinline__ void atomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(int32_t* p, int32_t v) { atomicAdd((int*)p, (int)v); }
__device__ __forceinline__ void atomic_add(int64_t* p, int64_t v) {
    atomicAdd((unsigned long long*)p, (unsigned long long)v);
}

// ---- block-wide reduction (for kernels launched with REFMS_LAUNCH_COOPERATIVE) --------------

struct SumOp { template <class A> __device__ __forceinline__ A operator()(A a, A b) const { return a + b; } };
struct MaxOp { template <class A> __device__ __forceinline__ A operator()(A a, A b) const { return a != a || a > b ? a : b; } };

// Every thread of the block passes its value v; every thread gets back f(v_0, v_1, ...).
// A tree in shared memory `buffer` (one slot per thread, blockDim.x a power of two): at
// step s the first s threads fold in the value s places above, then all wait.
template <class A, class F>
__device__ A block_reduce(A v, A* buffer, F f) {
    buffer[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) buffer[threadIdx.x] = f(buffer[threadIdx.x], buffer[threadIdx.x + s]);
        __syncthreads();
    }
    A result = buffer[0];
    __syncthreads();                       // all have read it before the buffer is reused
    return result;
}

}  // namespace refms

// ---- dtype switch -------------------------------------------------------------------------

// Run BODY with T bound to the C type of dtype code `dtype` (float types only or all).
#define REFMS_CASE(code, type, ...) case code: { typedef type T; __VA_ARGS__; break; }
#define REFMS_DISPATCH_FLOAT(dtype, ...)                                  \
    switch (dtype) {                                                      \
        REFMS_CASE(REFMS_FLOAT32, float, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_FLOAT64, double, __VA_ARGS__)                    \
        default: return REFMS_ERROR_DTYPE;                                \
    }
#define REFMS_DISPATCH_ALL(dtype, ...)                                    \
    switch (dtype) {                                                      \
        REFMS_CASE(REFMS_BOOL, uint8_t, __VA_ARGS__)                      \
        REFMS_CASE(REFMS_INT8, int8_t, __VA_ARGS__)                       \
        REFMS_CASE(REFMS_UINT8, uint8_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_INT16, int16_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_INT32, int32_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_INT64, int64_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_FLOAT32, float, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_FLOAT64, double, __VA_ARGS__)                    \
        default: return REFMS_ERROR_DTYPE;                                \
    }
#define REFMS_DISPATCH_INTEGER(dtype, ...)                                \
    switch (dtype) {                                                      \
        REFMS_CASE(REFMS_BOOL, uint8_t, __VA_ARGS__)                      \
        REFMS_CASE(REFMS_INT8, int8_t, __VA_ARGS__)                       \
        REFMS_CASE(REFMS_UINT8, uint8_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_INT16, int16_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_INT32, int32_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_INT64, int64_t, __VA_ARGS__)                     \
        default: return REFMS_ERROR_DTYPE;                                \
    }
// The dtypes atomic_add supports (CUDA has atomic adds of 32/64-bit ints and floats only).
#define REFMS_DISPATCH_ATOMIC(dtype, ...)                                 \
    switch (dtype) {                                                      \
        REFMS_CASE(REFMS_INT32, int32_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_INT64, int64_t, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_FLOAT32, float, __VA_ARGS__)                     \
        REFMS_CASE(REFMS_FLOAT64, double, __VA_ARGS__)                    \
        default: return REFMS_ERROR_DTYPE;                                \
    }
