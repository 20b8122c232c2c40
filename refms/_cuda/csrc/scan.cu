// scan.cu -- prefix sums and products along one axis.
//
// cumsum: x viewed as (outer, n, inner) (the scanned axis in the middle, contiguous);
//     inclusive:  y[o, i, j] = sum_{t <= i} x[o, t, j]
//     exclusive:  y[o, i, j] = sum_{t <  i} x[o, t, j]       (y[o, 0, j] = 0)
//     reverse:    the same with t running from the end (t >= i, or t > i)
//   accumulated in x's dtype, one addition after another, as numpy's cumsum does.
// exclusive_cumprod_both: x viewed as (rows, n) (the last axis);
//     y[r, i] = prod_{t != i} x[r, t] = (prod_{t < i} x[r, t]) * (prod_{t > i} x[r, t])
//   without a division (a zero in x is no problem): a forward pass writes the left
//   products, a backward pass multiplies in the right products.
//
// Thread mapping: one thread per line (outer * inner lines for cumsum, rows for the
// product), grid-stride; each thread walks its line sequentially.  Simple and exact; a
// line of length n costs n steps of one thread, so very long scans would want a
// work-efficient parallel scan (Blelloch 1990) instead.
#include "common.cuh"

namespace refms {

template <class T>
__global__ void cumsum_kernel(int64_t outer, int64_t n, int64_t inner, int exclusive, int reverse,
                              const T* x, T* y) {
    REFMS_GRID_LOOP(line, outer * inner) {
        const int64_t o = line / inner, j = line % inner;
        const T* src = x + o * n * inner + j;
        T* dst = y + o * n * inner + j;
        T total = 0;
        for (int64_t step = 0; step < n; ++step) {
            const int64_t i = reverse ? n - 1 - step : step;
            const T value = src[i * inner];
            if (exclusive) {
                dst[i * inner] = total;
                total = (T)(total + value);
            } else {
                total = (T)(total + value);
                dst[i * inner] = total;
            }
        }
    }
}

template <class T>
__global__ void exclusive_cumprod_both_kernel(int64_t rows, int64_t n, const T* x, T* y) {
    REFMS_GRID_LOOP(r, rows) {
        const T* src = x + r * n;
        T* dst = y + r * n;
        T left = 1;
        for (int64_t i = 0; i < n; ++i) {         // dst[i] = prod_{t < i} x[t]
            dst[i] = left;
            left = (T)(left * src[i]);
        }
        T right = 1;
        for (int64_t i = n - 1; i >= 0; --i) {    // dst[i] *= prod_{t > i} x[t]
            dst[i] = (T)(dst[i] * right);
            right = (T)(right * src[i]);
        }
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_cumsum(int dtype, int64_t outer, int64_t n, int64_t inner, int exclusive, int reverse,
                 const void* x, void* y) {
    if (outer * n * inner == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(outer * inner), kThreads, cumsum_kernel<T>)(
            outer, n, inner, exclusive, reverse, (const T*)x, (T*)y));
    return launched();
}

int refms_exclusive_cumprod_both(int dtype, int64_t rows, int64_t n, const void* x, void* y) {
    if (rows * n == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(rows), kThreads, exclusive_cumprod_both_kernel<T>)(
            rows, n, (const T*)x, (T*)y));
    return launched();
}

}  // extern "C"
