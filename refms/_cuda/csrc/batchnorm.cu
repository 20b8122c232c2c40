// batchnorm.cu -- batch normalisation: statistics, normalisation, and the backward pass.
//
// x is viewed as (N, C, HW): channel c owns the M = N*HW elements x[(n*C + c)*HW + k].
//     mean_c = (1/M) sum x,   var_c = (1/M) sum (x - mean_c)^2     (two passes: never E[x^2] - E[x]^2)
//     y = (x - mean_c) / sqrt(var_c + eps) * scale_c + bias_c
// Backward, with xhat = (x - mean_c) / sqrt(var_c + eps):
//     dbias_c = sum dy,   dscale_c = sum dy * xhat
//     training (mean, var are the batch's own):  dx = scale_c/sqrt(var_c+eps) * (dy - dbias_c/M - xhat * dscale_c/M)
//     inference (running statistics, constants): dx = scale_c/sqrt(var_c+eps) * dy
//
// Thread mapping: statistics and backward -- one block per channel, whose threads stride
// over the channel's M elements and combine sums with block_reduce (in double).
// Normalisation -- one thread per element (grid-stride).
#include "common.cuh"

namespace refms {

// Element k of channel c: n = k / hw, position k % hw.
__device__ __forceinline__ int64_t channel_at(int64_t k, int64_t c, int64_t channels, int64_t hw) {
    return ((k / hw) * channels + c) * hw + k % hw;
}

template <class T>
__global__ void batch_norm_statistics_kernel(int64_t n, int64_t channels, int64_t hw, const T* x,
                                             T* mean, T* variance) {
    __shared__ double buffer[256];
    const int64_t c = blockIdx.x, count = n * hw;
    double s = 0;
    for (int64_t k = threadIdx.x; k < count; k += blockDim.x) s += (double)x[channel_at(k, c, channels, hw)];
    const double mu = block_reduce(s, buffer, SumOp()) / (double)count;
    double d2 = 0;
    for (int64_t k = threadIdx.x; k < count; k += blockDim.x) {
        double d = (double)x[channel_at(k, c, channels, hw)] - mu;
        d2 += d * d;
    }
    d2 = block_reduce(d2, buffer, SumOp());
    if (threadIdx.x == 0) {
        mean[c] = (T)mu;
        variance[c] = (T)(d2 / (double)count);
    }
}

template <class T>
__global__ void batch_norm_kernel(int64_t total, int64_t channels, int64_t hw, const T* x,
                                  const T* scale, const T* bias, const T* mean, const T* variance,
                                  double epsilon, T* y) {
    REFMS_GRID_LOOP(e, total) {
        int64_t c = (e / hw) % channels;
        double inv_std = 1.0 / sqrt((double)variance[c] + epsilon);
        y[e] = (T)(((double)x[e] - (double)mean[c]) * inv_std * (double)scale[c] + (double)bias[c]);
    }
}

template <class T>
__global__ void batch_norm_backward_kernel(int training, int64_t n, int64_t channels, int64_t hw,
                                           const T* dy, const T* x, const T* scale, const T* mean,
                                           const T* variance, double epsilon, T* dx, T* dscale,
                                           T* dbias) {
    __shared__ double buffer[256];
    const int64_t c = blockIdx.x, count = n * hw;
    const double mu = (double)mean[c], inv_std = 1.0 / sqrt((double)variance[c] + epsilon);
    double sum_dy = 0, sum_dy_xhat = 0;
    for (int64_t k = threadIdx.x; k < count; k += blockDim.x) {
        int64_t at = channel_at(k, c, channels, hw);
        sum_dy += (double)dy[at];
        sum_dy_xhat += (double)dy[at] * ((double)x[at] - mu) * inv_std;
    }
    sum_dy = block_reduce(sum_dy, buffer, SumOp());
    sum_dy_xhat = block_reduce(sum_dy_xhat, buffer, SumOp());
    const double g = (double)scale[c] * inv_std;
    for (int64_t k = threadIdx.x; k < count; k += blockDim.x) {
        int64_t at = channel_at(k, c, channels, hw);
        double d = (double)dy[at];
        if (training) {
            double xhat = ((double)x[at] - mu) * inv_std;
            d = d - sum_dy / (double)count - xhat * sum_dy_xhat / (double)count;
        }
        dx[at] = (T)(g * d);
    }
    if (threadIdx.x == 0) {
        dscale[c] = (T)sum_dy_xhat;
        dbias[c] = (T)sum_dy;
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_batch_norm_statistics(int dtype, int64_t n, int64_t c, int64_t hw, const void* x, void* mean,
                                void* variance) {
    if (c == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH_COOPERATIVE((unsigned)c, reduction_threads(n * hw), batch_norm_statistics_kernel<T>)(
            n, c, hw, (const T*)x, (T*)mean, (T*)variance));
    return launched();
}

int refms_batch_norm(int dtype, int64_t n, int64_t c, int64_t hw, const void* x, const void* scale,
                     const void* bias, const void* mean, const void* variance, double epsilon, void* y) {
    const int64_t total = n * c * hw;
    if (total == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, batch_norm_kernel<T>)(
            total, c, hw, (const T*)x, (const T*)scale, (const T*)bias, (const T*)mean,
            (const T*)variance, epsilon, (T*)y));
    return launched();
}

int refms_batch_norm_backward(int dtype, int training, int64_t n, int64_t c, int64_t hw, const void* dy,
                              const void* x, const void* scale, const void* mean, const void* variance,
                              double epsilon, void* dx, void* dscale, void* dbias) {
    if (c == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH_COOPERATIVE((unsigned)c, reduction_threads(n * hw), batch_norm_backward_kernel<T>)(
            training, n, c, hw, (const T*)dy, (const T*)x, (const T*)scale, (const T*)mean,
            (const T*)variance, epsilon, (T*)dx, (T*)dscale, (T*)dbias));
    return launched();
}

}  // extern "C"
