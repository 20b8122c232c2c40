/* refms_cuda.h -- the C ABI of the refms CUDA library: every entry point, nothing else.
 *
 * Python loads the library with ctypes (refms/_cuda/loader.py) and declares each function
 * below with the argtypes/restype of refms/_cuda/prototypes.py; a test checks that table
 * against this header.
 *
 * Conventions
 *   - Every function returns an int status: 0 (cudaSuccess) or a CUDA error code, or one
 *     of the REFMS_ERROR_* codes below.  Kernels are launched asynchronously on the
 *     library's one stream; an error *inside* a running kernel is returned later, by
 *     refms_cuda_synchronize (or any call that waits for the stream).
 *   - Arrays are device pointers (void*) of the dtype given by a REFMS_<dtype> code;
 *     shapes and strides are host arrays of int64_t, strides counted in elements.
 *   - Matrices are row-major.  Image tensors are NCHW.
 *   - Entry points that read indices take a launch_id: a bad index is written, with that
 *     id, into the device error record, read back by refms_cuda_read_error.
 */
#ifndef REFMS_CUDA_H
#define REFMS_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REFMS_API __attribute__((visibility("default")))
#define REFMS_MAX_DIMS 8

/* dtype codes */
enum RefmsDtype {
    REFMS_BOOL = 0, REFMS_INT8 = 1, REFMS_UINT8 = 2, REFMS_INT16 = 3, REFMS_INT32 = 4,
    REFMS_INT64 = 5, REFMS_FLOAT32 = 6, REFMS_FLOAT64 = 7
};

/* status codes of our own (CUDA's codes are below 1000) */
enum RefmsStatus {
    REFMS_ERROR_DTYPE = 1001,        /* dtype not supported by this entry point */
    REFMS_ERROR_OP = 1002,           /* unknown op code */
    REFMS_ERROR_SHAPE = 1003,        /* too many dimensions or an inconsistent shape */
    REFMS_ERROR_NOT_INITIALIZED = 1004
};

/* codes a kernel writes into the device error record */
enum RefmsKernelError {
    REFMS_KERNEL_OK = 0,
    REFMS_KERNEL_INDEX_OUT_OF_RANGE = 1,        /* valid range [0, bound) */
    REFMS_KERNEL_SIGNED_INDEX_OUT_OF_RANGE = 2  /* valid range [-bound, bound), negatives wrap */
};

typedef struct RefmsErrorRecord {
    int code;          /* RefmsKernelError of the first failing thread, 0 if none */
    int launch_id;     /* the launch_id argument of the entry point that launched it */
    int64_t value;     /* the offending value (an index) */
    int64_t bound;     /* the valid range is [0, bound) */
} RefmsErrorRecord;

/* unary op codes (elementwise.cu) */
enum RefmsUnaryOp {
    REFMS_COPY = 0, REFMS_NEG = 1, REFMS_ABS = 2, REFMS_EXP = 3, REFMS_LOG = 4, REFMS_SQRT = 5,
    REFMS_RSQRT = 6, REFMS_SQUARE = 7, REFMS_RECIPROCAL = 8, REFMS_SIN = 9, REFMS_COS = 10,
    REFMS_TANH = 11, REFMS_SIGMOID = 12, REFMS_RELU = 13, REFMS_FLOOR = 14, REFMS_CEIL = 15,
    REFMS_ROUND = 16, REFMS_SIGN = 17, REFMS_LOG1P = 18, REFMS_EXPM1 = 19, REFMS_ERF = 20,
    REFMS_LOGICAL_NOT = 21, REFMS_SOFTPLUS = 22, REFMS_ISNAN = 23, REFMS_GELU = 24,
    REFMS_TRUNC = 25, REFMS_ISINF = 26, REFMS_ISFINITE = 27, REFMS_ASIN = 28, REFMS_ACOS = 29,
    REFMS_ATAN = 30
};

/* binary op codes (elementwise.cu) */
enum RefmsBinaryOp {
    REFMS_ADD = 0, REFMS_SUB = 1, REFMS_MUL = 2, REFMS_DIV = 3, REFMS_FLOOR_DIV = 4,
    REFMS_FLOOR_MOD = 5, REFMS_POW = 6, REFMS_MAXIMUM = 7, REFMS_MINIMUM = 8,
    REFMS_EQUAL = 9, REFMS_NOT_EQUAL = 10, REFMS_LESS = 11, REFMS_LESS_EQUAL = 12,
    REFMS_GREATER = 13, REFMS_GREATER_EQUAL = 14, REFMS_LOGICAL_AND = 15,
    REFMS_LOGICAL_OR = 16, REFMS_SQUARED_DIFFERENCE = 17, REFMS_RELU_GRAD = 18,
    REFMS_SIGMOID_GRAD = 19, REFMS_TANH_GRAD = 20, REFMS_ATAN2 = 21, REFMS_FMOD = 22
};

/* bitwise op codes (bits.cu) */
enum RefmsBitwiseOp { REFMS_BITWISE_AND = 0, REFMS_BITWISE_OR = 1, REFMS_BITWISE_NOT = 2 };

/* reduction op codes (reduce.cu) */
enum RefmsReduceOp {
    REFMS_REDUCE_SUM = 0, REFMS_REDUCE_MEAN = 1, REFMS_REDUCE_MAX = 2, REFMS_REDUCE_MIN = 3,
    REFMS_REDUCE_PROD = 4, REFMS_REDUCE_ARGMAX = 5, REFMS_REDUCE_ARGMIN = 6
};

/* ---- runtime.cu: device, memory, stream, errors ---------------------------------------- */
REFMS_API int refms_cuda_device_count(int* count);
REFMS_API int refms_cuda_init(int device);
REFMS_API int refms_cuda_is_shim(void);
REFMS_API void* refms_cuda_stream(void);
REFMS_API int refms_cuda_malloc(void** ptr, size_t bytes);
REFMS_API int refms_cuda_free(void* ptr);
REFMS_API int refms_cuda_memcpy_h2d(void* dst, const void* src, size_t bytes);
REFMS_API int refms_cuda_memcpy_d2h(void* dst, const void* src, size_t bytes);
REFMS_API int refms_cuda_memcpy_d2d(void* dst, const void* src, size_t bytes);
REFMS_API int refms_cuda_memset(void* dst, int value, size_t bytes);
REFMS_API int refms_cuda_synchronize(void);
REFMS_API int refms_cuda_read_error(RefmsErrorRecord* out);
REFMS_API int refms_cuda_mem_info(size_t* free_bytes, size_t* total_bytes);
REFMS_API const char* refms_cuda_error_string(int status);

/* ---- elementwise.cu ------------------------------------------------------------------------ */
REFMS_API int refms_unary(int op, int dtype, int64_t n, int ndim, const int64_t* shape,
                          const void* x, const int64_t* x_strides, void* out);
REFMS_API int refms_binary(int op, int dtype, int64_t n, int ndim, const int64_t* shape,
                           const void* a, const int64_t* a_strides,
                           const void* b, const int64_t* b_strides, void* out);
REFMS_API int refms_copy_strided(int dtype, int64_t n, int ndim, const int64_t* shape,
                                 const void* src, const int64_t* src_strides, void* dst,
                                 const int64_t* dst_strides);
REFMS_API int refms_cast(int src_dtype, int dst_dtype, int64_t n, const void* src, void* dst);
REFMS_API int refms_fill(int dtype, int64_t n, double value, int64_t int_value, void* out);
REFMS_API int refms_arange(int dtype, int64_t n, double start, double step, void* out);
REFMS_API int refms_where(int dtype, int64_t n, int ndim, const int64_t* shape,
                          const void* cond, const int64_t* cond_strides,
                          const void* a, const int64_t* a_strides,
                          const void* b, const int64_t* b_strides, void* out);

/* ---- bits.cu ------------------------------------------------------------------------------ */
REFMS_API int refms_bitwise(int op, int dtype, int64_t n, int ndim, const int64_t* shape,
                            const void* a, const int64_t* a_strides,
                            const void* b, const int64_t* b_strides, void* out);
REFMS_API int refms_round_to_bfloat16(int64_t n, const void* x, void* out);

/* ---- reduce.cu ----------------------------------------------------------------------------- */
REFMS_API int refms_reduce(int op, int dtype, int64_t n_out, int out_ndim, const int64_t* out_shape,
                           const int64_t* out_strides, int red_ndim, const int64_t* red_shape,
                           const int64_t* red_strides, const void* x, void* out);

/* ---- scan.cu ------------------------------------------------------------------------------ */
REFMS_API int refms_cumsum(int dtype, int64_t outer, int64_t n, int64_t inner, int exclusive,
                           int reverse, const void* x, void* y);
REFMS_API int refms_exclusive_cumprod_both(int dtype, int64_t rows, int64_t n, const void* x,
                                           void* y);

/* ---- sort.cu ------------------------------------------------------------------------------ */
REFMS_API int refms_sort(int dtype, int64_t outer, int64_t n, int64_t inner, int descending,
                         const void* x, void* values, int64_t* indices);

/* ---- softmax.cu ---------------------------------------------------------------------------- */
REFMS_API int refms_softmax(int dtype, int log, int64_t outer, int64_t n, int64_t inner,
                            const void* x, void* y);
REFMS_API int refms_softmax_backward(int dtype, int log, int64_t outer, int64_t n, int64_t inner,
                                     const void* y, const void* dy, void* dx);
REFMS_API int refms_softmax_cross_entropy(int dtype, int64_t rows, int64_t classes,
                                          const void* logits, const void* labels,
                                          void* loss, void* dlogits);
REFMS_API int refms_sparse_softmax_cross_entropy(int dtype, int label_dtype, int64_t rows,
                                                 int64_t classes, const void* logits,
                                                 const void* labels, int is_grad, void* workspace,
                                                 void* out, int launch_id);

/* ---- gemm.cu ------------------------------------------------------------------------------- */
REFMS_API int refms_gemm(int dtype, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                         const void* a, int64_t lda, int64_t stride_a,
                         const void* b, int64_t ldb, int64_t stride_b,
                         void* c, int64_t ldc, int64_t stride_c, int64_t batch);

/* ---- conv.cu ------------------------------------------------------------------------------- */
REFMS_API int refms_im2col(int dtype, const int64_t* x_shape, const int64_t* kernel,
                           const int64_t* stride, const int64_t* pad, const int64_t* dilation,
                           const int64_t* out_hw, const void* x, void* cols);
REFMS_API int refms_col2im(int dtype, const int64_t* x_shape, const int64_t* kernel,
                           const int64_t* stride, const int64_t* pad, const int64_t* dilation,
                           const int64_t* out_hw, const void* cols, void* x);

/* ---- pool.cu ------------------------------------------------------------------------------- */
REFMS_API int refms_max_pool2d(int dtype, const int64_t* x_shape, const int64_t* kernel,
                               const int64_t* stride, const int64_t* pad, const int64_t* out_hw,
                               const void* x, void* y, int64_t* argmax);
REFMS_API int refms_max_pool2d_grad(int dtype, const int64_t* x_shape, const int64_t* out_hw,
                                    const void* dout, const int64_t* argmax, void* dx);
REFMS_API int refms_max_pool2d_grad_grad(int dtype, const int64_t* x_shape, const int64_t* out_hw,
                                         const void* ddx, const int64_t* argmax, void* ddy);
REFMS_API int refms_avg_pool2d(int dtype, const int64_t* x_shape, const int64_t* kernel,
                               const int64_t* stride, const int64_t* pad, const int64_t* out_hw,
                               const void* x, const void* divisor, void* y);
REFMS_API int refms_avg_pool2d_grad(int dtype, const int64_t* x_shape, const int64_t* kernel,
                                    const int64_t* stride, const int64_t* pad,
                                    const int64_t* out_hw, const void* dout,
                                    const void* divisor, void* dx);

/* ---- batchnorm.cu -------------------------------------------------------------------------- */
REFMS_API int refms_batch_norm_statistics(int dtype, int64_t n, int64_t c, int64_t hw,
                                          const void* x, void* mean, void* variance);
REFMS_API int refms_batch_norm(int dtype, int64_t n, int64_t c, int64_t hw, const void* x,
                               const void* scale, const void* bias, const void* mean,
                               const void* variance, double epsilon, void* y);
REFMS_API int refms_batch_norm_backward(int dtype, int training, int64_t n, int64_t c,
                                        int64_t hw, const void* dy, const void* x,
                                        const void* scale, const void* mean,
                                        const void* variance, double epsilon, void* dx,
                                        void* dscale, void* dbias);

/* ---- optim.cu ------------------------------------------------------------------------------ */
REFMS_API int refms_apply_momentum(int dtype, int64_t n, void* var, void* accum, const void* grad,
                                   const void* lr, const void* momentum, int use_nesterov);
REFMS_API int refms_sgd(int dtype, int64_t n, void* param, void* accum, const void* grad,
                        double lr, double momentum, double dampening, double weight_decay,
                        int nesterov, int first_step);
REFMS_API int refms_adam(int dtype, int64_t n, void* var, void* m, void* v, const void* grad,
                         double lr, double beta1, double beta2, double epsilon,
                         double beta1_power, double beta2_power, int use_nesterov);

/* ---- random.cu ----------------------------------------------------------------------------- */
REFMS_API int refms_philox(int64_t n, uint64_t seed, uint64_t offset, uint32_t* out);
REFMS_API int refms_uniform(int dtype, int64_t n, uint64_t seed, uint64_t offset, void* out);
REFMS_API int refms_bernoulli(int dtype, int64_t n, double p, uint64_t seed, uint64_t offset,
                              void* out);
REFMS_API int refms_normal(int dtype, int64_t n, uint64_t seed, uint64_t offset, void* out);
REFMS_API int refms_uniform_int(int64_t n, int64_t low, int64_t high, uint64_t seed,
                                uint64_t offset, int32_t* out);
REFMS_API int refms_dropout(int dtype, int64_t n, double keep_prob, uint64_t seed,
                            uint64_t offset, const void* x, void* y, void* mask);

/* ---- index.cu ------------------------------------------------------------------------------ */
REFMS_API int refms_gather(int dtype, int index_dtype, int64_t outer, int64_t axis_size,
                           int64_t inner, int64_t n_index, const void* x, const void* index,
                           void* out, int launch_id);
REFMS_API int refms_take_along_axis(int dtype, int index_dtype, int ndim, const int64_t* index_shape,
                                    const int64_t* x_strides, int axis, int64_t axis_size,
                                    const void* x, const void* index, void* out, int launch_id);
REFMS_API int refms_one_hot(int dtype, int index_dtype, int64_t n_index, int64_t depth,
                            const void* index, double on_value, double off_value, void* out);

/* ---- scatter.cu ---------------------------------------------------------------------------- */
REFMS_API int refms_gather_offsets(int dtype, int64_t n, const void* x, const int64_t* offsets,
                                   void* out);
REFMS_API int refms_scatter_offsets(int dtype, int add, int64_t n, const int64_t* offsets,
                                    const void* values, void* x);
REFMS_API int refms_scatter_along_axis(int dtype, int index_dtype, int add, int ndim,
                                       const int64_t* index_shape, const int64_t* out_strides,
                                       int axis, int64_t axis_size, const void* index,
                                       const void* updates, void* out, int launch_id);
REFMS_API int refms_segment_sum(int dtype, int ids_dtype, int64_t n_ids, int64_t inner,
                                int64_t n_segments, const void* x, const void* ids, void* out,
                                int launch_id);
REFMS_API int refms_masked_select(int dtype, int64_t n, const void* x, const void* mask,
                                  const int64_t* positions, void* out);
REFMS_API int refms_masked_scatter(int dtype, int64_t n, const void* mask, const int64_t* positions,
                                   int64_t source_size, const void* source, void* out,
                                   int launch_id);

#ifdef __cplusplus
}
#endif

#endif /* REFMS_CUDA_H */
