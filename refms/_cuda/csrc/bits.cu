// bits.cu -- kernels that work on the bits of a number: bitwise and / or / not of integers
// and bools, and rounding float32 to bfloat16.
//
// bitwise:  out[i] = a[offset_a(i)] & b[offset_b(i)]   (REFMS_BITWISE_AND)
//           out[i] = a[offset_a(i)] | b[offset_b(i)]   (REFMS_BITWISE_OR)
//           out[i] = ~a[offset_a(i)]                   (REFMS_BITWISE_NOT; b unused)
//   for bool, NOT is the logical not (numpy's invert of a bool), so the result stays 0 or 1.
// round_to_bfloat16: out[i] = x[i] rounded to the nearest bfloat16 (the top 16 bits of a
//   float32), ties to even, kept in a float32:
//       bits' = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000,   NaN stays NaN.
//
// Thread mapping: a grid-stride loop over the n elements of the contiguous output; inputs
// are read through an Indexer (broadcasting by zero strides), as in elementwise.cu.
#include "common.cuh"

namespace refms {

template <class T>
__global__ void bitwise_kernel(int op, int is_bool, int64_t n, Indexer ix, const T* a, const T* b, T* out) {
    REFMS_GRID_LOOP(i, n) {
        T x = a[ix.offset(0, i)];
        switch (op) {
            case REFMS_BITWISE_AND: out[i] = (T)(x & b[ix.offset(1, i)]); break;
            case REFMS_BITWISE_OR: out[i] = (T)(x | b[ix.offset(1, i)]); break;
            default: out[i] = is_bool ? (T)(x == 0) : (T)(~x); break;          // NOT
        }
    }
}

__global__ void round_to_bfloat16_kernel(int64_t n, const uint32_t* x, uint32_t* out) {
    REFMS_GRID_LOOP(i, n) {
        uint32_t bits = x[i];
        bool nan = (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
        uint64_t rounded = ((uint64_t)bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16 << 16;
        out[i] = nan ? bits : (uint32_t)rounded;
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_bitwise(int op, int dtype, int64_t n, int ndim, const int64_t* shape, const void* a,
                  const int64_t* a_strides, const void* b, const int64_t* b_strides, void* out) {
    if (ndim > REFMS_MAX_DIMS) return REFMS_ERROR_SHAPE;
    if (op < REFMS_BITWISE_AND || op > REFMS_BITWISE_NOT) return REFMS_ERROR_OP;
    if (n == 0) return 0;
    Indexer ix = make_indexer(ndim, shape, a_strides, b_strides);
    const int is_bool = dtype == REFMS_BOOL;
    REFMS_DISPATCH_INTEGER(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, bitwise_kernel<T>)(
            op, is_bool, n, ix, (const T*)a, (const T*)b, (T*)out));
    return launched();
}

int refms_round_to_bfloat16(int64_t n, const void* x, void* out) {
    if (n == 0) return 0;
    REFMS_LAUNCH(blocks_for(n), kThreads, round_to_bfloat16_kernel)(n, (const uint32_t*)x, (uint32_t*)out);
    return launched();
}

}  // extern "C"
