// gemm.cu -- matrix product C = op(A) · op(B) of row-major matrices, batched by strides.
//
//     C[b][i][j] = sum_k op(A[b])[i][k] · op(B[b])[k][j],   op(X) = X or X^T,
// with X[b] = X + b · stride_X (a stride of 0 shares one matrix across the batch).
//
// A tiled shared-memory GEMM.  Each block computes a BM x BN = 128 x 128 tile of C and
// walks K in steps of BK = 8:
//   1. its 256 threads copy the 128 x 8 slice of op(A) and the 8 x 128 slice of op(B) into
//      shared memory (zeros outside the matrices), then wait at a barrier;
//   2. each thread multiplies out its own 8 x 8 sub-tile of C from those slices, keeping
//      the 64 sums and one column of A / row of B in registers, then waits again.
// Thread (ty, tx) = (t / 16, t % 16) owns rows ty + 16i and columns tx + 16j
// (i, j = 0..7) of the tile: interleaved so that the 16 threads of a half-warp read 16
// consecutive shared-memory words of B (no bank conflicts) and write 16 consecutive
// elements of C (coalesced stores).
// Each element of A and B is loaded from global memory 128 times fewer than in the naive
// one-thread-per-output product, which is what makes the kernel compute-bound.
//
// Grid: (ceil(n / 128), ceil(m / 128), batch); block: 256 threads.
#include "common.cuh"

namespace refms {

constexpr int kTileM = 128, kTileN = 128, kTileK = 8, kSubM = 8, kSubN = 8;
constexpr int kGemmThreads = 256;               // (kTileM / kSubM) * (kTileN / kSubN)

template <class T>
__global__ void gemm_kernel(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                            const T* a, int64_t lda, int64_t stride_a,
                            const T* b, int64_t ldb, int64_t stride_b,
                            T* c, int64_t ldc, int64_t stride_c) {
    __shared__ T a_tile[kTileK][kTileM];        // a_tile[kk][mm] = op(A)[m0 + mm][k0 + kk]
    __shared__ T b_tile[kTileK][kTileN];        // b_tile[kk][nn] = op(B)[k0 + kk][n0 + nn]
    a += blockIdx.z * stride_a;
    b += blockIdx.z * stride_b;
    c += blockIdx.z * stride_c;
    const int64_t m0 = (int64_t)blockIdx.y * kTileM, n0 = (int64_t)blockIdx.x * kTileN;
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;

    T sum[kSubM][kSubN];                         // fully unrolled loops keep these in registers
#pragma unroll
    for (int i = 0; i < kSubM; ++i)
#pragma unroll
        for (int j = 0; j < kSubN; ++j) sum[i][j] = 0;

    for (int64_t k0 = 0; k0 < k; k0 += kTileK) {
        // 1. Load the slices; consecutive threads read consecutive addresses of the stored
        //    matrix (its fastest axis), whichever way it is transposed.
        for (int e = threadIdx.x; e < kTileM * kTileK; e += kGemmThreads) {
            int mm = trans_a ? e % kTileM : e / kTileK;
            int kk = trans_a ? e / kTileM : e % kTileK;
            int64_t row = m0 + mm, col = k0 + kk;
            a_tile[kk][mm] = (row < m && col < k) ? (trans_a ? a[col * lda + row] : a[row * lda + col]) : (T)0;
        }
        for (int e = threadIdx.x; e < kTileK * kTileN; e += kGemmThreads) {
            int nn = trans_b ? e / kTileK : e % kTileN;
            int kk = trans_b ? e % kTileK : e / kTileN;
            int64_t row = k0 + kk, col = n0 + nn;
            b_tile[kk][nn] = (row < k && col < n) ? (trans_b ? b[col * ldb + row] : b[row * ldb + col]) : (T)0;
        }
        __syncthreads();
        // 2. Rank-1 updates of the thread's 8 x 8 sub-tile, one per kk.
#pragma unroll
        for (int kk = 0; kk < kTileK; ++kk) {
            T a_col[kSubM], b_row[kSubN];
#pragma unroll
            for (int i = 0; i < kSubM; ++i) a_col[i] = a_tile[kk][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < kSubN; ++j) b_row[j] = b_tile[kk][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < kSubM; ++i)
#pragma unroll
                for (int j = 0; j < kSubN; ++j) sum[i][j] += a_col[i] * b_row[j];
        }
        __syncthreads();                         // the tiles are overwritten next step
    }
#pragma unroll
    for (int i = 0; i < kSubM; ++i) {
        int64_t row = m0 + ty + 16 * i;
        if (row >= m) continue;
        for (int j = 0; j < kSubN; ++j) {
            int64_t col = n0 + tx + 16 * j;
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
    if (batch > 65535 || (m + kTileM - 1) / kTileM > 65535) return REFMS_ERROR_SHAPE;
    dim3 grid((unsigned)((n + kTileN - 1) / kTileN), (unsigned)((m + kTileM - 1) / kTileM), (unsigned)batch);
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH_COOPERATIVE(grid, kGemmThreads, gemm_kernel<T>)(
            trans_a, trans_b, m, n, k, (const T*)a, lda, stride_a, (const T*)b, ldb, stride_b,
            (T*)c, ldc, stride_c));
    return launched();
}

}  // extern "C"
