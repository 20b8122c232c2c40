// gemm.cu -- matrix product C = op(A) · op(B) of row-major matrices, batched by strides.
//
//     C[b][i][j] = sum_k op(A[b])[i][k] · op(B[b])[k][j],   op(X) = X or X^T,
// with X[b] = X + b · stride_X (a stride of 0 shares one matrix across the batch).
//
// A tiled shared-memory GEMM with register tiling and double buffering (the classic
// SIMT SGEMM design of CUTLASS and of the "128 x 128 x 8" kernels of the literature).
// Each block computes a BM x BN = 128 x 128 tile of C and walks K in slices of BK = 8:
//
//   1. its 256 threads load the 128 x 8 slice of op(A) and the 8 x 128 slice of op(B) from
//      global memory (4 + 4 elements each, zeros outside the matrices) into registers;
//   2. they store them into one of two shared-memory buffers ("ping-pong"): while the
//      block multiplies the slice in buffer p, the loads of the next slice are already
//      in flight and land in buffer 1 - p, so one barrier per slice suffices and the
//      global-memory latency hides behind the arithmetic;
//   3. each thread multiplies out its own 8 x 8 sub-tile of C, keeping the 64 sums in
//      registers: per kk it reads 8 values of the A slice and 8 of the B slice (as four
//      4-wide vectors) and does 64 multiply-adds -- 8 flops per shared-memory word read.
//
// Thread (ty, tx) = (t / 16, t % 16) owns rows {4 ty .. 4 ty + 3} and {64 + 4 ty .. 67 + 4 ty}
// and the same columns with tx: two 4-wide strips in each direction, so that its reads of
// the shared slices are 16-byte vectors (LDS.128), a half-warp's reads of B are 256
// consecutive bytes (no bank conflicts), and its stores to C are 4 consecutive elements
// beside those of its neighbours (coalesced).  The shared slices are stored k-major
// (a_tile[kk][mm]); a row of 4 spare words (kPad) keeps the transposing stores of step 2
// free of bank conflicts.
//
// Grid: (ceil(n / 128), ceil(m / 128), batch); block: 256 threads.
#include "common.cuh"

namespace refms {

constexpr int kTileM = 128, kTileN = 128, kTileK = 8;
constexpr int kGemmThreads = 256;               // 16 x 16 threads, each an 8 x 8 sub-tile
constexpr int kPad = 4;                         // spare words per shared row (bank conflicts)
constexpr int kLoads = kTileM * kTileK / kGemmThreads;     // elements of A (and of B) per thread

// Both slices are read the same way.  op(A) is an m x k matrix and op(B)^T an n x k one,
// each stored with a stride along its rows ("outer") and one along k:
//     op(A)[i][kk] = a[i * lda + kk] (A as is) or a[kk * lda + i] (A transposed), and
//     op(B)[kk][j] = b[kk * ldb + j] (B as is) or b[j * ldb + kk] (B transposed).
// Slice element e = t + 256 r (r = 0..3) of thread t goes to tile position (outer, kk), chosen
// so that consecutive threads read consecutive addresses of the stored matrix:
//     k is the stored fastest axis:   outer = e / 8,   kk = e % 8    (t / 8 + 32 r,  t % 8)
//     outer is the fastest axis:      outer = e % 128, kk = e / 128  (t % 128,       t / 128 + 2 r)
// i.e. an arithmetic progression in r, fixed for the whole product.
struct SliceMap {
    int outer0, outer_step, kk0, kk_step;
};

__device__ __forceinline__ SliceMap slice_map(bool k_fastest) {
    const int t = threadIdx.x;
    if (k_fastest) return SliceMap{t / kTileK, kGemmThreads / kTileK, t % kTileK, 0};
    return SliceMap{t % kTileM, 0, t / kTileM, kGemmThreads / kTileM};
}

// Step 1: thread t's elements of the slice (rows outer_base.., columns k0..k0 + 7) into
// registers; zeros outside the matrix.
template <class T>
__device__ __forceinline__ void load_slice(const T* x, int64_t stride_outer, int64_t stride_k,
                                           int64_t outer_size, int64_t k, int64_t outer_base,
                                           int64_t k0, SliceMap map, T (&regs)[kLoads]) {
#pragma unroll
    for (int r = 0; r < kLoads; ++r) {
        const int64_t outer = outer_base + map.outer0 + r * map.outer_step;
        const int64_t kk = k0 + map.kk0 + r * map.kk_step;
        regs[r] = (outer < outer_size && kk < k) ? x[outer * stride_outer + kk * stride_k] : (T)0;
    }
}

// Step 2: the registers of step 1 into a shared buffer, tile[kk][outer] (k-major).
template <class T, int kWidth>
__device__ __forceinline__ void store_slice(SliceMap map, const T (&regs)[kLoads], T (*tile)[kWidth]) {
#pragma unroll
    for (int r = 0; r < kLoads; ++r) tile[map.kk0 + r * map.kk_step][map.outer0 + r * map.outer_step] = regs[r];
}

// Launch bounds: 256 threads, and for float at least 2 blocks per SM (at most 128
// registers a thread), so that one block's barrier wait overlaps the other's arithmetic.
template <class T>
__global__ void __launch_bounds__(kGemmThreads, sizeof(T) == 4 ? 2 : 1)
gemm_kernel(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
            const T* a, int64_t lda, int64_t stride_a,
            const T* b, int64_t ldb, int64_t stride_b,
            T* c, int64_t ldc, int64_t stride_c) {
    // [buffer][kk][mm]: a_tile[p][kk][mm] = op(A)[m0 + mm][k0 + kk] of the slice in buffer p.
    __shared__ __align__(16) T a_tile[2][kTileK][kTileM + kPad];
    __shared__ __align__(16) T b_tile[2][kTileK][kTileN + kPad];
    a += blockIdx.z * stride_a;
    b += blockIdx.z * stride_b;
    c += blockIdx.z * stride_c;
    const int64_t m0 = (int64_t)blockIdx.y * kTileM, n0 = (int64_t)blockIdx.x * kTileN;
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;

    T sum[8][8];                                 // fully unrolled loops keep these in registers
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) sum[i][j] = 0;

    const SliceMap a_map = slice_map(!trans_a), b_map = slice_map(trans_b);
    const int64_t a_outer = trans_a ? 1 : lda, a_k = trans_a ? lda : 1;     // strides of op(A)
    const int64_t b_outer = trans_b ? ldb : 1, b_k = trans_b ? 1 : ldb;     // and of op(B)^T
    T a_next[kLoads], b_next[kLoads];            // the slice on its way to shared memory
    load_slice(a, a_outer, a_k, m, k, m0, 0, a_map, a_next);
    load_slice(b, b_outer, b_k, n, k, n0, 0, b_map, b_next);
    store_slice(a_map, a_next, a_tile[0]);
    store_slice(b_map, b_next, b_tile[0]);
    __syncthreads();

    const int slices = (int)((k + kTileK - 1) / kTileK);        // (k < 2^34: checked at launch)
    for (int s = 0; s < slices; ++s) {
        const int p = s & 1;
        const bool more = s + 1 < slices;
        if (more) {                              // issue the next slice's loads first ...
            load_slice(a, a_outer, a_k, m, k, m0, (s + 1) * kTileK, a_map, a_next);
            load_slice(b, b_outer, b_k, n, k, n0, (s + 1) * kTileK, b_map, b_next);
        }
        // ... then multiply the slice in buffer p: 8 rank-1 updates of the 8 x 8 sub-tile.
#pragma unroll
        for (int kk = 0; kk < kTileK; ++kk) {
            T a_frag[8], b_frag[8];
#pragma unroll
            for (int v = 0; v < 4; ++v) {
                a_frag[v] = a_tile[p][kk][4 * ty + v];
                a_frag[4 + v] = a_tile[p][kk][64 + 4 * ty + v];
                b_frag[v] = b_tile[p][kk][4 * tx + v];
                b_frag[4 + v] = b_tile[p][kk][64 + 4 * tx + v];
            }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) sum[i][j] += a_frag[i] * b_frag[j];
        }
        if (more) {                              // buffer 1 - p was last read before the
            store_slice(a_map, a_next, a_tile[1 - p]);    // previous barrier: free to fill
            store_slice(b_map, b_next, b_tile[1 - p]);
        }
        __syncthreads();
    }

    // sum[i][j] is C[row(i)][col(j)] with row(i) = 4 ty + i (i < 4) or 64 + 4 ty + i - 4.
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int64_t row = m0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + i - 4);
        if (row >= m) continue;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const int64_t col = n0 + (j < 4 ? 4 * tx + j : 64 + 4 * tx + j - 4);
            if (col < n) c[row * ldc + col] = sum[i][j];
        }
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_gemm(int dtype, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
               const void* a, int64_t lda, int64_t stride_a, const void* b, int64_t ldb,
               int64_t stride_b, void* c, int64_t ldc, int64_t stride_c, int64_t batch) {
    if (m == 0 || n == 0 || batch == 0) return 0;
    if (batch > 65535 || (m + kTileM - 1) / kTileM > 65535 || k >= ((int64_t)1 << 34))
        return REFMS_ERROR_SHAPE;
    dim3 grid((unsigned)((n + kTileN - 1) / kTileN), (unsigned)((m + kTileM - 1) / kTileM), (unsigned)batch);
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH_COOPERATIVE(grid, kGemmThreads, gemm_kernel<T>)(
            trans_a, trans_b, m, n, k, (const T*)a, lda, stride_a, (const T*)b, ldb, stride_b,
            (T*)c, ldc, stride_c));
    return launched();
}

}  // extern "C"
