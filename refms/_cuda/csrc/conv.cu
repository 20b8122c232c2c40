// conv.cu -- im2col and col2im, the data movement of 2-D convolution (NCHW).
//
// Convolution (cross-correlation) y[n,o,i,j] = sum_{c,p,q} w[o,c,p,q] x_pad[n,c, i*sh + p*dh, j*sw + q*dw]
// becomes one matrix product per group after im2col gathers the input into
//     cols[(c*kh + p)*kw + q][(n*OH + i)*OW + j] = x_pad[n, c, i*sh + p*dh, j*sw + q*dw]
// a (C*kh*kw) x (N*OH*OW) matrix; the rows of group g are one contiguous block, so the
// grouped forward is the batched GEMM  Y'[g] = W[g] · cols[g]  over g (refms/_cuda/ops.py
// composes it).  The backward passes are GEMMs with transposes: dcols[g] = W[g]^T · dY'[g]
// then col2im (the adjoint of im2col) for dx, and dW[g] = dY'[g] · cols[g]^T.
#include "common.cuh"

namespace refms {

struct ConvGeom {
    int64_t n, c, h, w;          // input
    int64_t kh, kw, sh, sw;      // kernel and stride
    int64_t top, left, dh, dw;   // padding before, dilation
    int64_t oh, ow;              // output
};

inline ConvGeom make_geom(const int64_t* x_shape, const int64_t* kernel, const int64_t* stride,
                          const int64_t* pad, const int64_t* dilation, const int64_t* out_hw) {
    ConvGeom g;
    g.n = x_shape[0]; g.c = x_shape[1]; g.h = x_shape[2]; g.w = x_shape[3];
    g.kh = kernel[0]; g.kw = kernel[1]; g.sh = stride[0]; g.sw = stride[1];
    g.top = pad[0]; g.left = pad[2]; g.dh = dilation[0]; g.dw = dilation[1];
    g.oh = out_hw[0]; g.ow = out_hw[1];
    return g;
}

// One thread per element of cols (grid-stride): decode (c, p, q, n, i, j) from its index,
// read the input cell it copies, or 0 in the padding.
template <class T>
__global__ void im2col_kernel(ConvGeom g, const T* x, T* cols) {
    const int64_t columns = g.n * g.oh * g.ow;
    const int64_t total = g.c * g.kh * g.kw * columns;
    REFMS_GRID_LOOP(e, total) {
        int64_t col = e % columns, row = e / columns;
        int64_t j = col % g.ow, i = (col / g.ow) % g.oh, n = col / (g.ow * g.oh);
        int64_t q = row % g.kw, p = (row / g.kw) % g.kh, c = row / (g.kw * g.kh);
        int64_t h = i * g.sh - g.top + p * g.dh, w = j * g.sw - g.left + q * g.dw;
        bool inside = h >= 0 && h < g.h && w >= 0 && w < g.w;
        cols[e] = inside ? x[((n * g.c + c) * g.h + h) * g.w + w] : (T)0;
    }
}

// The adjoint: one thread per input cell x[n, c, h, w] (grid-stride) sums the cols entries
// that im2col copied from it -- for each tap (p, q), the output position (i, j) with
// i*sh + p*dh = h + top (if sh divides it and i is in range), likewise j.  Each thread
// writes only its own cell: no atomics, and the result is deterministic.
template <class T>
__global__ void col2im_kernel(ConvGeom g, const T* cols, T* x) {
    const int64_t columns = g.n * g.oh * g.ow;
    const int64_t total = g.n * g.c * g.h * g.w;
    REFMS_GRID_LOOP(e, total) {
        int64_t w = e % g.w, h = (e / g.w) % g.h, c = (e / (g.w * g.h)) % g.c, n = e / (g.w * g.h * g.c);
        typename Acc<T>::type sum = 0;
        for (int64_t p = 0; p < g.kh; ++p) {
            int64_t di = h + g.top - p * g.dh;
            if (di < 0 || di % g.sh != 0 || di / g.sh >= g.oh) continue;
            int64_t i = di / g.sh;
            for (int64_t q = 0; q < g.kw; ++q) {
                int64_t dj = w + g.left - q * g.dw;
                if (dj < 0 || dj % g.sw != 0 || dj / g.sw >= g.ow) continue;
                int64_t j = dj / g.sw;
                int64_t row = (c * g.kh + p) * g.kw + q;
                sum += cols[row * columns + (n * g.oh + i) * g.ow + j];
            }
        }
        x[e] = (T)sum;
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_im2col(int dtype, const int64_t* x_shape, const int64_t* kernel, const int64_t* stride,
                 const int64_t* pad, const int64_t* dilation, const int64_t* out_hw, const void* x,
                 void* cols) {
    ConvGeom g = make_geom(x_shape, kernel, stride, pad, dilation, out_hw);
    int64_t total = g.c * g.kh * g.kw * g.n * g.oh * g.ow;
    if (total == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, im2col_kernel<T>)(g, (const T*)x, (T*)cols));
    return launched();
}

int refms_col2im(int dtype, const int64_t* x_shape, const int64_t* kernel, const int64_t* stride,
                 const int64_t* pad, const int64_t* dilation, const int64_t* out_hw, const void* cols,
                 void* x) {
    ConvGeom g = make_geom(x_shape, kernel, stride, pad, dilation, out_hw);
    int64_t total = g.n * g.c * g.h * g.w;
    if (total == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, col2im_kernel<T>)(g, (const T*)cols, (T*)x));
    return launched();
}

}  // extern "C"
