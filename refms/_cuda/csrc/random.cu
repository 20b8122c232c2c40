// random.cu -- a counter-based generator (Philox4x32-10), the distributions built on it, and
// dropout.
//
// Philox (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011) maps a
// 128-bit counter and a 64-bit key to 128 random bits with 10 rounds of
//     (c0, c1, c2, c3) <- (hi(B*c2) ^ c1 ^ k0, lo(B*c2), hi(A*c0) ^ c3 ^ k1, lo(A*c0))
//     (k0, k1) += (0x9E3779B9, 0xBB67AE85)
// with A = 0xD2511F53, B = 0xCD9E8D57.  No state lives on the device: the numbers of a call
// are a pure function of (seed, offset, element index), so every thread computes its own
// and a call is reproducible.  Key = seed; counter = (group, offset): group g = i / 4 gives
// the 4 words for elements 4g .. 4g + 3; the caller advances offset between calls.
#include "common.cuh"

namespace refms {

struct Philox4 { uint32_t v[4]; };

__device__ __forceinline__ Philox4 philox4x32_10(uint64_t counter_lo, uint64_t counter_hi, uint64_t key) {
    uint32_t c0 = (uint32_t)counter_lo, c1 = (uint32_t)(counter_lo >> 32);
    uint32_t c2 = (uint32_t)counter_hi, c3 = (uint32_t)(counter_hi >> 32);
    uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    for (int round = 0; round < 10; ++round) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1, n3 = (uint32_t)p0;
        c0 = n0; c1 = n1; c2 = n2; c3 = n3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    Philox4 out = {{c0, c1, c2, c3}};
    return out;
}

// One thread per group of 4 words (grid-stride): out[4g + r] = philox((g, offset), seed)[r].
__global__ void philox_kernel(int64_t n, uint64_t seed, uint64_t offset, uint32_t* out) {
    REFMS_GRID_LOOP(g, (n + 3) / 4) {
        Philox4 bits = philox4x32_10((uint64_t)g, offset, seed);
        for (int r = 0; r < 4 && 4 * g + r < n; ++r) out[4 * g + r] = bits.v[r];
    }
}

// Uniform [0, 1) from the top 24 bits of a word (exact in float and double).
__device__ __forceinline__ double unit_uniform(uint32_t word) {
    return (double)(word >> 8) * (1.0 / 16777216.0);
}

// out[i] = u_i uniform in [0, 1), one thread per group of 4 elements.
template <class T>
__global__ void uniform_kernel(int64_t n, uint64_t seed, uint64_t offset, T* out) {
    REFMS_GRID_LOOP(g, (n + 3) / 4) {
        Philox4 bits = philox4x32_10((uint64_t)g, offset, seed);
        for (int r = 0; r < 4 && 4 * g + r < n; ++r) out[4 * g + r] = (T)unit_uniform(bits.v[r]);
    }
}

// out[i] = [u_i < p] (1 or 0 in T), one thread per group of 4 elements.
template <class T>
__global__ void bernoulli_kernel(int64_t n, double p, uint64_t seed, uint64_t offset, T* out) {
    REFMS_GRID_LOOP(g, (n + 3) / 4) {
        Philox4 bits = philox4x32_10((uint64_t)g, offset, seed);
        for (int r = 0; r < 4 && 4 * g + r < n; ++r) out[4 * g + r] = unit_uniform(bits.v[r]) < p ? (T)1 : (T)0;
    }
}

// out[i] ~ N(0, 1) by the Box-Muller transform (Box and Muller, 1958): from two uniforms
// u1 in (0, 1] and u2 in [0, 1),
//     z1 = sqrt(-2 ln u1) cos(2 pi u2),   z2 = sqrt(-2 ln u1) sin(2 pi u2)
// are independent standard normals.  One thread per group of 4 elements: the 4 words make
// two pairs, i.e. 4 normals.  Computed in double, rounded once to T.
template <class T>
__global__ void normal_kernel(int64_t n, uint64_t seed, uint64_t offset, T* out) {
    const double two_pi = 6.283185307179586;
    REFMS_GRID_LOOP(g, (n + 3) / 4) {
        Philox4 bits = philox4x32_10((uint64_t)g, offset, seed);
        double z[4];
        for (int pair = 0; pair < 2; ++pair) {
            double u1 = 1.0 - unit_uniform(bits.v[2 * pair]);            // (0, 1]: log is finite
            double u2 = unit_uniform(bits.v[2 * pair + 1]);
            double radius = sqrt(-2.0 * log(u1));
            z[2 * pair] = radius * cos(two_pi * u2);
            z[2 * pair + 1] = radius * sin(two_pi * u2);
        }
        for (int r = 0; r < 4 && 4 * g + r < n; ++r) out[4 * g + r] = (T)z[r];
    }
}

// out[i] uniform over the integers low .. high - 1 (int32), one thread per group of 4:
//     out = low + floor(word * (high - low) / 2^32)
// (Lemire's multiply-shift: no division; the bias is at most (high - low) / 2^32).
__global__ void uniform_int_kernel(int64_t n, int64_t low, int64_t high, uint64_t seed,
                                   uint64_t offset, int32_t* out) {
    const uint64_t range = (uint64_t)(high - low);
    REFMS_GRID_LOOP(g, (n + 3) / 4) {
        Philox4 bits = philox4x32_10((uint64_t)g, offset, seed);
        for (int r = 0; r < 4 && 4 * g + r < n; ++r)
            out[4 * g + r] = (int32_t)(low + (int64_t)(((uint64_t)bits.v[r] * range) >> 32));
    }
}

// Dropout, one thread per group of 4 elements: u = (word >> 8) / 2^24 in [0, 1);
// mask = [u < keep_prob] (in x's dtype), y = x * mask / keep_prob (0 when keep_prob = 0).
template <class T>
__global__ void dropout_kernel(int64_t n, double keep_prob, uint64_t seed, uint64_t offset,
                               const T* x, T* y, T* mask) {
    const double scale = keep_prob > 0 ? 1.0 / keep_prob : 0.0;
    REFMS_GRID_LOOP(g, (n + 3) / 4) {
        Philox4 bits = philox4x32_10((uint64_t)g, offset, seed);
        for (int r = 0; r < 4 && 4 * g + r < n; ++r) {
            int64_t i = 4 * g + r;
            double u = unit_uniform(bits.v[r]);
            T keep = u < keep_prob ? (T)1 : (T)0;
            mask[i] = keep;
            y[i] = (T)((double)x[i] * (double)keep * scale);
        }
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_philox(int64_t n, uint64_t seed, uint64_t offset, uint32_t* out) {
    if (n == 0) return 0;
    REFMS_LAUNCH(blocks_for((n + 3) / 4), kThreads, philox_kernel)(n, seed, offset, out);
    return launched();
}

int refms_uniform(int dtype, int64_t n, uint64_t seed, uint64_t offset, void* out) {
    if (n == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for((n + 3) / 4), kThreads, uniform_kernel<T>)(n, seed, offset, (T*)out));
    return launched();
}

int refms_bernoulli(int dtype, int64_t n, double p, uint64_t seed, uint64_t offset, void* out) {
    if (n == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for((n + 3) / 4), kThreads, bernoulli_kernel<T>)(n, p, seed, offset, (T*)out));
    return launched();
}

int refms_normal(int dtype, int64_t n, uint64_t seed, uint64_t offset, void* out) {
    if (n == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for((n + 3) / 4), kThreads, normal_kernel<T>)(n, seed, offset, (T*)out));
    return launched();
}

int refms_uniform_int(int64_t n, int64_t low, int64_t high, uint64_t seed, uint64_t offset, int32_t* out) {
    if (n == 0) return 0;
    if (high <= low || high - low > ((int64_t)1 << 32)) return REFMS_ERROR_SHAPE;
    REFMS_LAUNCH(blocks_for((n + 3) / 4), kThreads, uniform_int_kernel)(n, low, high, seed, offset, out);
    return launched();
}

int refms_dropout(int dtype, int64_t n, double keep_prob, uint64_t seed, uint64_t offset, const void* x,
                  void* y, void* mask) {
    if (n == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for((n + 3) / 4), kThreads, dropout_kernel<T>)(
            n, keep_prob, seed, offset, (const T*)x, (T*)y, (T*)mask));
    return launched();
}

}  // extern "C"
