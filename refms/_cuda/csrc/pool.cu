// pool.cu -- 2-D max and average pooling, forward and backward (NCHW).
//
// Window (i, j) of plane (n, c) covers input rows i*sh - top .. + kh - 1 and columns
// j*sw - left .. + kw - 1.  Max pooling ignores padded cells; argmax is the flat index
// h*W + w in the plane of the first maximum in row-major order (NaN counts as the maximum).
// Average pooling sums the window over the zero-padded input and divides by divisor[i, j]
// (an (OH, OW) array: real-cell counts or kh*kw, computed by the caller).
//
// Thread mapping: forward -- one thread per output cell (grid-stride).  Average-pool
// backward -- one thread per *input* cell, which gathers from every window that covers
// it (no atomics, deterministic).  Max-pool backward scatters through argmax.
#include "common.cuh"

namespace refms {

struct PoolGeom {
    int64_t n, c, h, w, kh, kw, sh, sw, top, left, oh, ow;
};

inline PoolGeom make_pool_geom(const int64_t* x_shape, const int64_t* kernel, const int64_t* stride,
                               const int64_t* pad, const int64_t* out_hw) {
    PoolGeom g;
    g.n = x_shape[0]; g.c = x_shape[1]; g.h = x_shape[2]; g.w = x_shape[3];
    g.kh = kernel ? kernel[0] : 1; g.kw = kernel ? kernel[1] : 1;
    g.sh = stride ? stride[0] : 1; g.sw = stride ? stride[1] : 1;
    g.top = pad ? pad[0] : 0; g.left = pad ? pad[2] : 0;
    g.oh = out_hw[0]; g.ow = out_hw[1];
    return g;
}

// The windows that cover input row h: i in [first, last] (empty when first > last).
__device__ __forceinline__ void covering(int64_t h, int64_t top, int64_t k, int64_t s, int64_t out,
                                         int64_t* first, int64_t* last) {
    // i*s - top <= h <= i*s - top + k - 1   <=>   (h + top - k + 1)/s <= i <= (h + top)/s
    int64_t lo = h + top - k + 1;
    *first = lo <= 0 ? 0 : (lo + s - 1) / s;
    int64_t hi = (h + top) / s;
    *last = hi < out - 1 ? hi : out - 1;
}

// y[n,c,i,j] = max over the window's real cells; argmax = flat index of the first maximum.
template <class T>
__global__ void max_pool2d_kernel(PoolGeom g, const T* x, T* y, int64_t* argmax) {
    REFMS_GRID_LOOP(e, g.n * g.c * g.oh * g.ow) {
        int64_t j = e % g.ow, i = (e / g.ow) % g.oh, plane = e / (g.ow * g.oh);
        const T* xp = x + plane * g.h * g.w;
        T best = 0;
        int64_t best_at = -1;
        for (int64_t p = 0; p < g.kh; ++p) {
            int64_t h = i * g.sh - g.top + p;
            if (h < 0 || h >= g.h) continue;
            for (int64_t q = 0; q < g.kw; ++q) {
                int64_t w = j * g.sw - g.left + q;
                if (w < 0 || w >= g.w) continue;
                T v = xp[h * g.w + w];
                bool wins = v > best;   // a NaN never wins after the first cell (MindSpore's MaxPool)
                if (best_at < 0 || wins) { best = v; best_at = h * g.w + w; }
            }
        }
        y[e] = best;
        argmax[e] = best_at;
    }
}

// dx[n, c, argmax[n,c,i,j]] += dout[n,c,i,j]: one thread per *output* cell scatters its
// gradient with atomicAdd into the zeroed dx (windows may overlap, and only argmax says
// which input cell each window picked).  The order of the additions is not fixed.
template <class T>
__global__ void max_pool2d_grad_kernel(PoolGeom g, const T* dout, const int64_t* argmax, T* dx) {
    REFMS_GRID_LOOP(e, g.n * g.c * g.oh * g.ow) {
        int64_t plane = e / (g.ow * g.oh);
        if (argmax[e] >= 0) atomicAdd(&dx[plane * g.h * g.w + argmax[e]], dout[e]);
    }
}

// ddy[n,c,i,j] = ddx[n, c, argmax[n,c,i,j]] (0 for an empty window).
template <class T>
__global__ void max_pool2d_grad_grad_kernel(PoolGeom g, const T* ddx, const int64_t* argmax, T* ddy) {
    REFMS_GRID_LOOP(e, g.n * g.c * g.oh * g.ow) {
        int64_t plane = e / (g.ow * g.oh);
        ddy[e] = argmax[e] >= 0 ? ddx[plane * g.h * g.w + argmax[e]] : (T)0;
    }
}

// y[n,c,i,j] = (sum of the window over the zero-padded input) / divisor[i, j].
template <class T>
__global__ void avg_pool2d_kernel(PoolGeom g, const T* x, const T* divisor, T* y) {
    REFMS_GRID_LOOP(e, g.n * g.c * g.oh * g.ow) {
        int64_t j = e % g.ow, i = (e / g.ow) % g.oh, plane = e / (g.ow * g.oh);
        const T* xp = x + plane * g.h * g.w;
        typename Acc<T>::type sum = 0;
        for (int64_t p = 0; p < g.kh; ++p) {
            int64_t h = i * g.sh - g.top + p;
            if (h < 0 || h >= g.h) continue;
            for (int64_t q = 0; q < g.kw; ++q) {
                int64_t w = j * g.sw - g.left + q;
                if (w >= 0 && w < g.w) sum += xp[h * g.w + w];
            }
        }
        y[e] = (T)(sum / divisor[i * g.ow + j]);
    }
}

// dx[n,c,h,w] = sum over the windows (i, j) covering (h, w) of dout[n,c,i,j] / divisor[i, j].
template <class T>
__global__ void avg_pool2d_grad_kernel(PoolGeom g, const T* dout, const T* divisor, T* dx) {
    REFMS_GRID_LOOP(e, g.n * g.c * g.h * g.w) {
        int64_t w = e % g.w, h = (e / g.w) % g.h, plane = e / (g.w * g.h);
        int64_t i0, i1, j0, j1;
        covering(h, g.top, g.kh, g.sh, g.oh, &i0, &i1);
        covering(w, g.left, g.kw, g.sw, g.ow, &j0, &j1);
        typename Acc<T>::type sum = 0;
        for (int64_t i = i0; i <= i1; ++i)
            for (int64_t j = j0; j <= j1; ++j)
                sum += dout[(plane * g.oh + i) * g.ow + j] / divisor[i * g.ow + j];
        dx[e] = (T)sum;
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_max_pool2d(int dtype, const int64_t* x_shape, const int64_t* kernel, const int64_t* stride,
                     const int64_t* pad, const int64_t* out_hw, const void* x, void* y, int64_t* argmax) {
    PoolGeom g = make_pool_geom(x_shape, kernel, stride, pad, out_hw);
    int64_t total = g.n * g.c * g.oh * g.ow;
    if (total == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, max_pool2d_kernel<T>)(g, (const T*)x, (T*)y, argmax));
    return launched();
}

// dx must not alias dout; it is zeroed here, then the gradients are scattered into it.
int refms_max_pool2d_grad(int dtype, const int64_t* x_shape, const int64_t* out_hw, const void* dout,
                          const int64_t* argmax, void* dx) {
    PoolGeom g = make_pool_geom(x_shape, nullptr, nullptr, nullptr, out_hw);
    int64_t total = g.n * g.c * g.oh * g.ow;
    REFMS_DISPATCH_FLOAT(dtype,
        cudaError_t status = cudaMemsetAsync(dx, 0, sizeof(T) * g.n * g.c * g.h * g.w, stream());
        if (status != cudaSuccess) return (int)status;
        if (total == 0) return 0;
        REFMS_LAUNCH(blocks_for(total), kThreads, max_pool2d_grad_kernel<T>)(g, (const T*)dout, argmax, (T*)dx));
    return launched();
}

int refms_max_pool2d_grad_grad(int dtype, const int64_t* x_shape, const int64_t* out_hw, const void* ddx,
                               const int64_t* argmax, void* ddy) {
    PoolGeom g = make_pool_geom(x_shape, nullptr, nullptr, nullptr, out_hw);
    int64_t total = g.n * g.c * g.oh * g.ow;
    if (total == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, max_pool2d_grad_grad_kernel<T>)(g, (const T*)ddx, argmax, (T*)ddy));
    return launched();
}

int refms_avg_pool2d(int dtype, const int64_t* x_shape, const int64_t* kernel, const int64_t* stride,
                     const int64_t* pad, const int64_t* out_hw, const void* x, const void* divisor, void* y) {
    PoolGeom g = make_pool_geom(x_shape, kernel, stride, pad, out_hw);
    int64_t total = g.n * g.c * g.oh * g.ow;
    if (total == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, avg_pool2d_kernel<T>)(g, (const T*)x, (const T*)divisor, (T*)y));
    return launched();
}

int refms_avg_pool2d_grad(int dtype, const int64_t* x_shape, const int64_t* kernel, const int64_t* stride,
                          const int64_t* pad, const int64_t* out_hw, const void* dout, const void* divisor,
                          void* dx) {
    PoolGeom g = make_pool_geom(x_shape, kernel, stride, pad, out_hw);
    int64_t total = g.n * g.c * g.h * g.w;
    if (total == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, avg_pool2d_grad_kernel<T>)(g, (const T*)dout, (const T*)divisor, (T*)dx));
    return launched();
}

}  // extern "C"
