// sort.cu -- a stable sort along one axis, by ranking.
//
// x viewed as (outer, n, inner), the sorted axis in the middle (contiguous).  For a line
// v_0 .. v_{n-1} the sorted position of element i is its rank
//     ascending:   r_i = #{t : v_t < v_i} + #{t < i : v_t == v_i}
//     descending:  r_i = #{t : v_t > v_i} + #{t < i : v_t == v_i}
// (equal values keep their order: the sort is stable), and
//     values[o, r_i, j] = v_i,   indices[o, r_i, j] = i.
// NaN sorts as larger than every number (numpy puts NaN last in an ascending sort and,
// since a descending sort is the ascending one read backwards with ties kept in order,
// first in a descending sort); NaNs are equal to each other.
//
// Thread mapping: one thread per element (o, i, j), grid-stride; it compares its value
// with the n values of its line.  O(n^2) work per line but every thread independent and
// no barrier -- the clear version; a bitonic or radix sort is the fast one for long lines.
// topk is this sort (descending) followed by taking the first k positions.
#include "common.cuh"

namespace refms {

// a < b with NaN above every number.
template <class T> __device__ __forceinline__ bool sort_less(T a, T b) {
    if (b != b) return a == a;          // b is NaN: a < b unless a is NaN too
    return a < b;                       // a NaN compares false
}
template <class T> __device__ __forceinline__ bool sort_equal(T a, T b) {
    return a == b || (a != a && b != b);
}

template <class T>
__global__ void sort_kernel(int64_t outer, int64_t n, int64_t inner, int descending,
                            const T* x, T* values, int64_t* indices) {
    REFMS_GRID_LOOP(e, outer * n * inner) {
        const int64_t j = e % inner, i = (e / inner) % n, o = e / (inner * n);
        const T* line = x + o * n * inner + j;
        const T v = line[i * inner];
        int64_t rank = 0;
        for (int64_t t = 0; t < n; ++t) {
            const T u = line[t * inner];
            const bool before = descending ? sort_less(v, u) : sort_less(u, v);
            rank += before || (t < i && sort_equal(u, v));
        }
        const int64_t at = (o * n + rank) * inner + j;
        values[at] = v;
        indices[at] = i;
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_sort(int dtype, int64_t outer, int64_t n, int64_t inner, int descending, const void* x,
               void* values, int64_t* indices) {
    const int64_t total = outer * n * inner;
    if (total == 0) return 0;
    REFMS_DISPATCH_ALL(dtype,
        REFMS_LAUNCH(blocks_for(total), kThreads, sort_kernel<T>)(
            outer, n, inner, descending, (const T*)x, (T*)values, indices));
    return launched();
}

}  // extern "C"
