// softmax.cu -- softmax and log-softmax (forward and backward) and the softmax
// cross-entropies.
//
// The softmax axis has length n; the array is viewed as (outer, n, inner), so the n
// entries of row (o, j) sit `inner` elements apart.  Numerically safe forms (m = max of
// the row, the log-sum-exp trick):
//     softmax:     y_k = exp(x_k - m) / sum_i exp(x_i - m)
//     log-softmax: y_k = (x_k - m) - log sum_i exp(x_i - m)
// Thread mapping: one block per row; the block's threads stride over the row's n entries
// and combine partial maxima and sums with block_reduce (shared memory + barriers).
// Sums accumulate in double.
#include "common.cuh"

namespace refms {

// One block per row (outer * inner rows).  y = softmax(x) or log_softmax(x) along the row.
template <class T>
__global__ void softmax_kernel(int log_softmax, int64_t n, int64_t inner, const T* x, T* y) {
    __shared__ double buffer[256];
    const int64_t row = blockIdx.x;
    const int64_t offset = (row / inner) * n * inner + row % inner;
    const T* xr = x + offset;
    T* yr = y + offset;
    double m = -INFINITY;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) m = MaxOp()(m, (double)xr[k * inner]);
    m = block_reduce(m, buffer, MaxOp());
    double s = 0;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) s += exp((double)xr[k * inner] - m);
    s = block_reduce(s, buffer, SumOp());
    const double log_s = log(s);
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) {
        double z = (double)xr[k * inner] - m;
        yr[k * inner] = (T)(log_softmax ? z - log_s : exp(z) / s);
    }
}

// Backward, one block per row, from the forward output y:
//     softmax:     dx_k = y_k (dy_k - sum_i dy_i y_i)
//     log-softmax: dx_k = dy_k - exp(y_k) sum_i dy_i
template <class T>
__global__ void softmax_backward_kernel(int log_softmax, int64_t n, int64_t inner, const T* y,
                                        const T* dy, T* dx) {
    __shared__ double buffer[256];
    const int64_t row = blockIdx.x;
    const int64_t offset = (row / inner) * n * inner + row % inner;
    double s = 0;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) {
        int64_t at = offset + k * inner;
        s += log_softmax ? (double)dy[at] : (double)dy[at] * (double)y[at];
    }
    s = block_reduce(s, buffer, SumOp());
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) {
        int64_t at = offset + k * inner;
        dx[at] = (T)(log_softmax ? (double)dy[at] - exp((double)y[at]) * s
                                 : (double)y[at] * ((double)dy[at] - s));
    }
}

// Log-sum-exp of one contiguous row of c logits, with every thread of the block: returns
// (m, log sum exp(l - m)).
template <class T>
__device__ void row_log_sum_exp(const T* l, int64_t c, double* buffer, double* m_out, double* lse_out) {
    double m = -INFINITY;
    for (int64_t k = threadIdx.x; k < c; k += blockDim.x) m = MaxOp()(m, (double)l[k]);
    m = block_reduce(m, buffer, MaxOp());
    double s = 0;
    for (int64_t k = threadIdx.x; k < c; k += blockDim.x) s += exp((double)l[k] - m);
    s = block_reduce(s, buffer, SumOp());
    *m_out = m;
    *lse_out = log(s);
}

// Dense labels, one block per row r of (rows, classes):
//     loss_r = -sum_c labels_rc log_softmax(logits)_rc,   dlogits_rc = softmax_rc - labels_rc
template <class T>
__global__ void softmax_cross_entropy_kernel(int64_t classes, const T* logits, const T* labels,
                                             T* loss, T* dlogits) {
    __shared__ double buffer[256];
    const int64_t r = blockIdx.x;
    const T* l = logits + r * classes;
    const T* y = labels + r * classes;
    double m, lse;
    row_log_sum_exp(l, classes, buffer, &m, &lse);
    double partial = 0;
    for (int64_t k = threadIdx.x; k < classes; k += blockDim.x) {
        double log_p = (double)l[k] - m - lse;
        partial -= (double)y[k] * log_p;
        dlogits[r * classes + k] = (T)(exp(log_p) - (double)y[k]);
    }
    partial = block_reduce(partial, buffer, SumOp());
    if (threadIdx.x == 0) loss[r] = (T)partial;
}

// Sparse labels (class indices), one block per row r:
//     row_loss_r = -log_softmax(logits)_r,label_r          (into workspace, in double)
//     is_grad:  out_rc = (softmax_rc - [c == label_r]) / rows
// A label outside [0, classes) is written to the error record (and the row counts 0).
template <class T, class I>
__global__ void sparse_softmax_cross_entropy_kernel(int64_t rows, int64_t classes, const T* logits,
                                                    const I* labels, int is_grad, double* row_loss,
                                                    T* out, RefmsErrorRecord* error, int launch_id) {
    __shared__ double buffer[256];
    const int64_t r = blockIdx.x;
    const T* l = logits + r * classes;
    const int64_t label = (int64_t)labels[r];
    const bool valid = label >= 0 && label < classes;
    if (!valid && threadIdx.x == 0) report_error(error, REFMS_KERNEL_INDEX_OUT_OF_RANGE, launch_id, label, classes);
    double m, lse;
    row_log_sum_exp(l, classes, buffer, &m, &lse);
    if (threadIdx.x == 0) row_loss[r] = valid ? -((double)l[label] - m - lse) : 0.0;
    if (is_grad) {
        for (int64_t k = threadIdx.x; k < classes; k += blockDim.x) {
            double p = exp((double)l[k] - m - lse);
            out[r * classes + k] = (T)((p - (k == label ? 1.0 : 0.0)) / (double)rows);
        }
    }
}

// One block: out[0] = (sum_r row_loss_r) / rows.
template <class T>
__global__ void mean_of_rows_kernel(int64_t rows, const double* row_loss, T* out) {
    __shared__ double buffer[256];
    double s = 0;
    for (int64_t r = threadIdx.x; r < rows; r += blockDim.x) s += row_loss[r];
    s = block_reduce(s, buffer, SumOp());
    if (threadIdx.x == 0) out[0] = (T)(s / (double)(rows > 0 ? rows : 1));
}

template <class T, class I>
int sparse_xent(int64_t rows, int64_t classes, const void* logits, const void* labels, int is_grad,
                void* workspace, void* out, int launch_id) {
    if (rows > 0) {
        REFMS_LAUNCH_COOPERATIVE((unsigned)rows, reduction_threads(classes), sparse_softmax_cross_entropy_kernel<T, I>)(
            rows, classes, (const T*)logits, (const I*)labels, is_grad, (double*)workspace, (T*)out,
            error_record(), launch_id);
    }
    if (!is_grad) {
        REFMS_LAUNCH_COOPERATIVE(1, 256, mean_of_rows_kernel<T>)(rows, (const double*)workspace, (T*)out);
    }
    return launched();
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_softmax(int dtype, int log, int64_t outer, int64_t n, int64_t inner, const void* x, void* y) {
    const int64_t rows = outer * inner;
    if (rows == 0 || n == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH_COOPERATIVE((unsigned)rows, reduction_threads(n), softmax_kernel<T>)(
            log, n, inner, (const T*)x, (T*)y));
    return launched();
}

int refms_softmax_backward(int dtype, int log, int64_t outer, int64_t n, int64_t inner,
                           const void* y, const void* dy, void* dx) {
    const int64_t rows = outer * inner;
    if (rows == 0 || n == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH_COOPERATIVE((unsigned)rows, reduction_threads(n), softmax_backward_kernel<T>)(
            log, n, inner, (const T*)y, (const T*)dy, (T*)dx));
    return launched();
}

int refms_softmax_cross_entropy(int dtype, int64_t rows, int64_t classes, const void* logits,
                                const void* labels, void* loss, void* dlogits) {
    if (rows == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH_COOPERATIVE((unsigned)rows, reduction_threads(classes), softmax_cross_entropy_kernel<T>)(
            classes, (const T*)logits, (const T*)labels, (T*)loss, (T*)dlogits));
    return launched();
}

// workspace: `rows` doubles of device memory.
int refms_sparse_softmax_cross_entropy(int dtype, int label_dtype, int64_t rows, int64_t classes,
                                       const void* logits, const void* labels, int is_grad,
                                       void* workspace, void* out, int launch_id) {
    if (label_dtype == REFMS_INT32) {
        REFMS_DISPATCH_FLOAT(dtype,
            return sparse_xent<T, int32_t>(rows, classes, logits, labels, is_grad, workspace, out, launch_id));
    } else if (label_dtype == REFMS_INT64) {
        REFMS_DISPATCH_FLOAT(dtype,
            return sparse_xent<T, int64_t>(rows, classes, logits, labels, is_grad, workspace, out, launch_id));
    }
    return REFMS_ERROR_DTYPE;
}

}  // extern "C"
