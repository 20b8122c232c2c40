// elementwise.cu -- unary and binary elementwise kernels with broadcasting, casts, fill,
// arange and where.
//
// Thread mapping (every kernel here): a grid-stride loop over the n elements of the
// contiguous output; thread t handles outputs t, t + T, t + 2T, ... (T = threads in the
// grid).  Inputs are read through an Indexer: output index i is unravelled over the output
// shape and dotted with each input's strides, so a broadcast input has stride 0 on the
// broadcast axes and a transposed view is read in place.  The op is a run-time switch:
// every thread of a launch takes the same branch, so it costs little and keeps one kernel
// per dtype instead of one per (op, dtype).
#include "common.cuh"
#include <type_traits>

namespace refms {

template <class T> __device__ __forceinline__ bool is_nan(T x) { return x != x; }

// y = f(x) for the unary op `op`.  Transcendental functions are evaluated in float (double
// for double); integer types only meet the ops that are exact in them.
template <class T>
__device__ __forceinline__ T apply_unary(int op, T x) {
    typedef typename Real<T>::type R;
    R r = (R)x;
    switch (op) {
        case REFMS_COPY: return x;
        case REFMS_NEG: return (T)(-x);
        case REFMS_ABS: return x < (T)0 ? (T)(-x) : x;
        case REFMS_EXP: return (T)exp(r);
        case REFMS_LOG: return (T)log(r);
        case REFMS_SQRT: return (T)sqrt(r);
        case REFMS_RSQRT: return (T)((R)1 / sqrt(r));
        case REFMS_SQUARE: return (T)(x * x);
        case REFMS_RECIPROCAL: return (T)((R)1 / r);
        case REFMS_SIN: return (T)sin(r);
        case REFMS_COS: return (T)cos(r);
        case REFMS_ASIN: return (T)asin(r);                                   // NaN outside [-1, 1]
        case REFMS_ACOS: return (T)acos(r);
        case REFMS_ATAN: return (T)atan(r);
        case REFMS_TANH: return (T)tanh(r);
        case REFMS_SIGMOID: return (T)((R)1 / ((R)1 + exp(-r)));            // 1 / (1 + e^-x)
        case REFMS_RELU: return x > (T)0 ? x : (T)0;                          // NaN -> 0 (MindSpore)
        case REFMS_FLOOR: return (T)floor(r);
        case REFMS_CEIL: return (T)ceil(r);
        case REFMS_ROUND: return (T)rint(r);                                  // half to even
        case REFMS_SIGN: return (T)((x > (T)0) - (x < (T)0));                // NaN -> 0 (MindSpore)
        case REFMS_LOG1P: return (T)log1p(r);
        case REFMS_EXPM1: return (T)expm1(r);
        case REFMS_ERF: return (T)erf(r);
        case REFMS_SOFTPLUS:                                                  // log(1 + e^x), stable
            return (T)(r > (R)0 ? r + log1p(exp(-r)) : log1p(exp(r)));
        case REFMS_GELU: {                     // x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            const R c = (R)0.7978845608028654, a = (R)0.044715;
            return (T)((R)0.5 * r * ((R)1 + tanh(c * (r + a * r * r * r))));
        }
        case REFMS_TRUNC: return (T)trunc(r);
        default: return x;
    }
}

// Integer types: the exact ops in T; rounding ops are the identity.
#define REFMS_INTEGER_UNARY(type)                                                       \
    template <> __device__ __forceinline__ type apply_unary<type>(int op, type x) {     \
        switch (op) {                                                                    \
            case REFMS_NEG: return (type)(-x);                                           \
            case REFMS_ABS: return x < 0 ? (type)(-x) : x;                               \
            case REFMS_SQUARE: return (type)(x * x);                                     \
            case REFMS_RELU: return x > 0 ? x : (type)0;                                 \
            case REFMS_SIGN: return (type)((x > 0) - (x < 0));                           \
            default: return x;             /* COPY, FLOOR, CEIL, ROUND, TRUNC */         \
        }                                                                                \
    }
REFMS_INTEGER_UNARY(int8_t)
REFMS_INTEGER_UNARY(uint8_t)
REFMS_INTEGER_UNARY(int16_t)
REFMS_INTEGER_UNARY(int32_t)
REFMS_INTEGER_UNARY(int64_t)

// out[i] = f(x[offset(i)]).
template <class T>
__global__ void unary_kernel(int op, int64_t n, Indexer ix, const T* x, T* out) {
    REFMS_GRID_LOOP(i, n) { out[i] = apply_unary<T>(op, x[ix.offset(0, i)]); }
}

template <class T> __device__ __forceinline__ bool is_inf(T x) {
    return is_float<T>() && (x == lowest<T>() || x == highest<T>());
}

// out[i] = predicate(x[offset(i)]) as bool: LOGICAL_NOT x == 0, ISNAN x != x,
// ISINF |x| = inf, ISFINITE neither NaN nor inf.
template <class T>
__global__ void unary_predicate_kernel(int op, int64_t n, Indexer ix, const T* x, uint8_t* out) {
    REFMS_GRID_LOOP(i, n) {
        T v = x[ix.offset(0, i)];
        switch (op) {
            case REFMS_LOGICAL_NOT: out[i] = v == (T)0; break;
            case REFMS_ISNAN: out[i] = is_nan(v); break;
            case REFMS_ISINF: out[i] = is_inf(v); break;
            default: out[i] = !is_nan(v) && !is_inf(v); break;       // ISFINITE
        }
    }
}

// dst[offset_dst(i)] = src[offset_src(i)]: a copy between two strided views of one shape
// (concatenation writes each piece into a view of the output; flips read negative strides).
template <class T>
__global__ void copy_strided_kernel(int64_t n, Indexer ix, const T* src, T* dst) {
    REFMS_GRID_LOOP(i, n) { dst[ix.offset(1, i)] = src[ix.offset(0, i)]; }
}

// Floor division and modulo with Python's signs (the quotient rounds toward -inf).
template <class T> __device__ __forceinline__ T floor_div(T a, T b) {
    if (b == 0) return 0;
    T q = a / b;
    return (q * b != a && ((a < 0) != (b < 0))) ? (T)(q - 1) : q;
}
__device__ __forceinline__ float floor_div(float a, float b) { return floor(a / b); }
__device__ __forceinline__ double floor_div(double a, double b) { return floor(a / b); }
template <class T> __device__ __forceinline__ T floor_mod(T a, T b) {
    return b == 0 ? (T)0 : (T)(a - floor_div(a, b) * b);
}
__device__ __forceinline__ float floor_mod(float a, float b) { return a - floor(a / b) * b; }
__device__ __forceinline__ double floor_mod(double a, double b) { return a - floor(a / b) * b; }

// C's remainder: a - trunc(a / b) * b, the sign of a (numpy's fmod); integers: 0 when b = 0.
template <class T> __device__ __forceinline__ T c_fmod(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }
__device__ __forceinline__ float c_fmod(float a, float b) { return fmod(a, b); }
__device__ __forceinline__ double c_fmod(double a, double b) { return fmod(a, b); }

template <class T> __device__ __forceinline__ T power(T a, T b) {      // integers: a^b, b >= 0
    T result = 1;
    for (; b > 0; --b) result *= a;
    return result;
}
__device__ __forceinline__ float power(float a, float b) { return pow(a, b); }
__device__ __forceinline__ double power(double a, double b) { return pow(a, b); }

// c = f(a, b) for the arithmetic binary ops (result in T).
template <class T>
__device__ __forceinline__ T apply_binary(int op, T a, T b) {
    switch (op) {
        case REFMS_ADD: return (T)(a + b);
        case REFMS_SUB: return (T)(a - b);
        case REFMS_MUL: return (T)(a * b);
        case REFMS_DIV: return b == (T)0 && !is_float<T>() ? (T)0 : (T)(a / b);
        case REFMS_FLOOR_DIV: return floor_div(a, b);
        case REFMS_FLOOR_MOD: return floor_mod(a, b);
        case REFMS_POW: return power(a, b);
        case REFMS_FMOD: return c_fmod(a, b);
        case REFMS_MAXIMUM: return a > b ? a : b;               // MindSpore: NaN in a -> b
        case REFMS_MINIMUM: return a < b ? a : b;
        case REFMS_SQUARED_DIFFERENCE: return (T)((a - b) * (a - b));
        case REFMS_RELU_GRAD: return b > (T)0 ? a : (T)0;                   // a = dy, b = x
        case REFMS_SIGMOID_GRAD: return (T)(b * a * ((T)1 - a));            // a = y, b = dy
        case REFMS_TANH_GRAD: return (T)(b * ((T)1 - a * a));               // a = y, b = dy
        case REFMS_ATAN2: return (T)atan2((typename Real<T>::type)a, (typename Real<T>::type)b);
        default: return a;
    }
}

// bool c = f(a, b) for comparisons and logical ops.
template <class T>
__device__ __forceinline__ uint8_t apply_compare(int op, T a, T b) {
    switch (op) {
        case REFMS_EQUAL: return a == b;
        case REFMS_NOT_EQUAL: return a != b;
        case REFMS_LESS: return a < b;
        case REFMS_LESS_EQUAL: return a <= b;
        case REFMS_GREATER: return a > b;
        case REFMS_GREATER_EQUAL: return a >= b;
        case REFMS_LOGICAL_AND: return a != (T)0 && b != (T)0;
        case REFMS_LOGICAL_OR: return a != (T)0 || b != (T)0;
        default: return 0;
    }
}

// out[i] = f(a[offset_a(i)], b[offset_b(i)]).
template <class T>
__global__ void binary_kernel(int op, int64_t n, Indexer ix, const T* a, const T* b, T* out) {
    REFMS_GRID_LOOP(i, n) { out[i] = apply_binary<T>(op, a[ix.offset(0, i)], b[ix.offset(1, i)]); }
}

template <class T>
__global__ void compare_kernel(int op, int64_t n, Indexer ix, const T* a, const T* b, uint8_t* out) {
    REFMS_GRID_LOOP(i, n) { out[i] = apply_compare<T>(op, a[ix.offset(0, i)], b[ix.offset(1, i)]); }
}

// (D) v, with one case made explicit: C++ leaves a float out of an unsigned type's range
// undefined (the GPU saturates -1.0f to 0), while the CPU kernels (numpy on x86) truncate
// toward zero and wrap modulo 2^bits (-1.0 -> 255, -3.5 -> 253).  Going through int64
// gives the CPU's answer on both.
template <class D, class S>
__device__ D convert(S v) {
    if constexpr (std::is_floating_point<S>::value && std::is_unsigned<D>::value) {
        return (D)(int64_t)v;
    } else {
        return (D)v;
    }
}

// dst[i] = (D) src[i]; to bool: src[i] != 0; float -> integer truncates toward zero.
template <class S, class D>
__global__ void cast_kernel(int64_t n, const S* src, D* dst) {
    REFMS_GRID_LOOP(i, n) { dst[i] = convert<D>(src[i]); }
}
template <class S>
__global__ void cast_to_bool_kernel(int64_t n, const S* src, uint8_t* dst) {
    REFMS_GRID_LOOP(i, n) { dst[i] = src[i] != (S)0; }
}

// out[i] = value.
template <class T>
__global__ void fill_kernel(int64_t n, T value, T* out) {
    REFMS_GRID_LOOP(i, n) { out[i] = value; }
}

// out[i] = start + i * step (computed in double, then rounded once to T).
template <class T>
__global__ void arange_kernel(int64_t n, double start, double step, T* out) {
    REFMS_GRID_LOOP(i, n) { out[i] = (T)(start + (double)i * step); }
}

// out[i] = cond[offset_c(i)] ? a[offset_a(i)] : b[offset_b(i)].
template <class T>
__global__ void where_kernel(int64_t n, Indexer ix, const uint8_t* cond, const T* a, const T* b,
                             T* out) {
    REFMS_GRID_LOOP(i, n) {
        out[i] = cond[ix.offset(2, i)] ? a[ix.offset(0, i)] : b[ix.offset(1, i)];
    }
}

template <class S>
int cast_from(int dst_dtype, int64_t n, const void* src, void* dst) {
    if (dst_dtype == REFMS_BOOL) {
        REFMS_LAUNCH(blocks_for(n), kThreads, cast_to_bool_kernel<S>)(n, (const S*)src, (uint8_t*)dst);
        return launched();
    }
    REFMS_DISPATCH_ALL(dst_dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, cast_kernel<S, T>)(n, (const S*)src, (T*)dst));
    return launched();
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_unary(int op, int dtype, int64_t n, int ndim, const int64_t* shape, const void* x,
                const int64_t* x_strides, void* out) {
    if (ndim > REFMS_MAX_DIMS) return REFMS_ERROR_SHAPE;
    if (op < REFMS_COPY || op > REFMS_ATAN) return REFMS_ERROR_OP;
    if (n == 0) return 0;
    Indexer ix = make_indexer(ndim, shape, x_strides);
    bool predicate = op == REFMS_LOGICAL_NOT || op == REFMS_ISNAN || op == REFMS_ISINF ||
                     op == REFMS_ISFINITE;
    REFMS_DISPATCH_ALL(dtype,
        if (predicate) {
            REFMS_LAUNCH(blocks_for(n), kThreads, unary_predicate_kernel<T>)(
                op, n, ix, (const T*)x, (uint8_t*)out);
        } else {
            REFMS_LAUNCH(blocks_for(n), kThreads, unary_kernel<T>)(op, n, ix, (const T*)x, (T*)out);
        });
    return launched();
}

int refms_binary(int op, int dtype, int64_t n, int ndim, const int64_t* shape, const void* a,
                 const int64_t* a_strides, const void* b, const int64_t* b_strides, void* out) {
    if (ndim > REFMS_MAX_DIMS) return REFMS_ERROR_SHAPE;
    if (op < REFMS_ADD || op > REFMS_FMOD) return REFMS_ERROR_OP;
    if (n == 0) return 0;
    Indexer ix = make_indexer(ndim, shape, a_strides, b_strides);
    bool compare = op >= REFMS_EQUAL && op <= REFMS_LOGICAL_OR;
    REFMS_DISPATCH_ALL(dtype,
        if (compare) {
            REFMS_LAUNCH(blocks_for(n), kThreads, compare_kernel<T>)(
                op, n, ix, (const T*)a, (const T*)b, (uint8_t*)out);
        } else {
            REFMS_LAUNCH(blocks_for(n), kThreads, binary_kernel<T>)(
                op, n, ix, (const T*)a, (const T*)b, (T*)out);
        });
    return launched();
}

int refms_copy_strided(int dtype, int64_t n, int ndim, const int64_t* shape, const void* src,
                       const int64_t* src_strides, void* dst, const int64_t* dst_strides) {
    if (ndim > REFMS_MAX_DIMS) return REFMS_ERROR_SHAPE;
    if (n == 0) return 0;
    Indexer ix = make_indexer(ndim, shape, src_strides, dst_strides);
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, copy_strided_kernel<T>)(n, ix, (const T*)src, (T*)dst));
    return launched();
}

int refms_cast(int src_dtype, int dst_dtype, int64_t n, const void* src, void* dst) {
    if (n == 0) return 0;
    REFMS_DISPATCH_ALL(src_dtype, return cast_from<T>(dst_dtype, n, src, dst));
    return 0;
}

int refms_fill(int dtype, int64_t n, double value, int64_t int_value, void* out) {
    if (n == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        T v = is_float<T>() ? (T)value : (T)int_value;
        REFMS_LAUNCH(blocks_for(n), kThreads, fill_kernel<T>)(n, v, (T*)out));
    return launched();
}

int refms_arange(int dtype, int64_t n, double start, double step, void* out) {
    if (n == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, arange_kernel<T>)(n, start, step, (T*)out));
    return launched();
}

int refms_where(int dtype, int64_t n, int ndim, const int64_t* shape, const void* cond,
                const int64_t* cond_strides, const void* a, const int64_t* a_strides,
                const void* b, const int64_t* b_strides, void* out) {
    if (ndim > REFMS_MAX_DIMS) return REFMS_ERROR_SHAPE;
    if (n == 0) return 0;
    Indexer ix = make_indexer(ndim, shape, a_strides, b_strides, cond_strides);
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, where_kernel<T>)(
            n, ix, (const uint8_t*)cond, (const T*)a, (const T*)b, (T*)out));
    return launched();
}

}  // extern "C"
