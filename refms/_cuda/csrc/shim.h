// shim.h -- run the CUDA C kernels of this directory on the CPU (test infrastructure only).
//
// The library's .cu files compile unchanged as C++20 with -DREFMS_CUDA_SHIM; this header
// then stands in for the CUDA runtime.  It is how CI, which has no GPU, checks every
// kernel's logic against the numpy reference kernels.
//
//   __global__, __device__          -> nothing (plain functions)
//   threadIdx, blockIdx, ...        -> thread-local variables set by the launcher
//   __align__, __launch_bounds__    -> GCC's aligned attribute, nothing
//   __shared__                      -> a function-local static: one copy, shared by the
//                                      threads of the block that runs now (blocks run
//                                      one after another, so that is one copy per block)
//   __syncthreads()                 -> std::barrier::arrive_and_wait
//   atomicAdd / atomicCAS / ...     -> std::atomic_ref
//   cudaMalloc / cudaMemcpyAsync... -> malloc / memcpy; there is one host "device"
//
// Launches (the REFMS_LAUNCH macros of common.cuh) run the grid in one of two ways:
//
//   plain loops       for kernels whose threads never wait for each other: every block,
//                     every thread, one after another, on the calling thread.  Exact for
//                     those kernels.  A __syncthreads() reached in this mode aborts the
//                     process with the kernel's name: it would silently compute garbage.
//   std::thread each  for kernels launched with REFMS_LAUNCH_COOPERATIVE (shared memory +
//                     __syncthreads): one std::thread per CUDA thread of a block, a
//                     std::barrier of the block's size for __syncthreads, and the blocks in
//                     turn.  ThreadSanitizer on this build finds a missing barrier.
//
// Not covered (these need a GPU): warp intrinsics, cooperative groups, streams and
// asynchronous copies, tensor cores, fast-math rounding, atomics ordering, speed.
#pragma once

#include <math.h>      // C++ <math.h>: float and double overloads of exp, log, ... in ::
#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __restrict__
#define __align__(bytes) __attribute__((aligned(bytes)))
#define __launch_bounds__(...)

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

namespace shim {
inline thread_local dim3 thread_idx, block_idx, block_dim, grid_dim;
inline thread_local std::barrier<>* block_barrier = nullptr;   // null in plain-loop mode
inline thread_local const char* kernel_name = "";
}  // namespace shim

#define threadIdx (::shim::thread_idx)
#define blockIdx (::shim::block_idx)
#define blockDim (::shim::block_dim)
#define gridDim (::shim::grid_dim)

inline void __syncthreads() {
    if (shim::block_barrier == nullptr) {
        std::fprintf(stderr, "shim: kernel %s calls __syncthreads but was launched with "
                             "REFMS_LAUNCH (plain loops); launch it with "
                             "REFMS_LAUNCH_COOPERATIVE\n", shim::kernel_name);
        std::abort();
    }
    shim::block_barrier->arrive_and_wait();
}

template <class T> T atomicAdd(T* address, T value) { return std::atomic_ref<T>(*address).fetch_add(value); }
inline int atomicCAS(int* address, int expected, int desired) {
    std::atomic_ref<int>(*address).compare_exchange_strong(expected, desired);
    return expected;     // the old value, as CUDA's atomicCAS returns
}

namespace shim {

// One kernel launch: the grid and block sizes, and how the threads run.
struct Launch {
    dim3 grid, block;
    bool cooperative;
    const char* name;

    // Bind the kernel; the call operator of the result takes the kernel's arguments.
    template <class... Params>
    auto with(void (*kernel)(Params...)) const {
        Launch self = *this;
        return [self, kernel](auto... args) { self.run([&] { kernel(Params(args)...); }); };
    }

    void run(const std::function<void()>& body) const {
        if (!cooperative) {
            run_loops(body);
        } else {
            run_threads(body);
        }
    }

    void set_block(unsigned bx, unsigned by, unsigned bz) const {
        block_idx = dim3(bx, by, bz);
    }

    void run_loops(const std::function<void()>& body) const {
        grid_dim = grid; block_dim = block; kernel_name = name; block_barrier = nullptr;
        for (unsigned bz = 0; bz < grid.z; ++bz)
            for (unsigned by = 0; by < grid.y; ++by)
                for (unsigned bx = 0; bx < grid.x; ++bx) {
                    set_block(bx, by, bz);
                    for (unsigned tz = 0; tz < block.z; ++tz)
                        for (unsigned ty = 0; ty < block.y; ++ty)
                            for (unsigned tx = 0; tx < block.x; ++tx) {
                                thread_idx = dim3(tx, ty, tz);
                                body();
                            }
                }
    }

    void run_threads(const std::function<void()>& body) const {
        const unsigned size = block.x * block.y * block.z;
        std::barrier<> barrier(size);
        std::vector<std::thread> threads;
        threads.reserve(size);
        for (unsigned t = 0; t < size; ++t) {
            threads.emplace_back([&, t] {
                grid_dim = grid; block_dim = block; kernel_name = name; block_barrier = &barrier;
                thread_idx = dim3(t % block.x, (t / block.x) % block.y, t / (block.x * block.y));
                for (unsigned bz = 0; bz < grid.z; ++bz)
                    for (unsigned by = 0; by < grid.y; ++by)
                        for (unsigned bx = 0; bx < grid.x; ++bx) {
                            set_block(bx, by, bz);
                            body();
                            barrier.arrive_and_wait();   // the block ends: its shared memory is reused
                        }
            });
        }
        for (auto& thread : threads) thread.join();
    }
};

}  // namespace shim

// ---- the CUDA runtime calls the library uses, on host memory -----------------------------
typedef int cudaError_t;
typedef void* cudaStream_t;
enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2, cudaErrorInvalidValue = 1 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };

inline cudaError_t cudaGetDeviceCount(int* count) { *count = 1; return cudaSuccess; }
inline cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidValue; }
inline cudaError_t cudaStreamCreate(cudaStream_t* stream) { *stream = nullptr; return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaMalloc(void** ptr, size_t bytes) {
    *ptr = std::malloc(bytes ? bytes : 1);
    return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaFree(void* ptr) { std::free(ptr); return cudaSuccess; }
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind, cudaStream_t) {
    if (bytes) std::memmove(dst, src, bytes);
    return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t) {
    std::memset(dst, value, bytes);
    return cudaSuccess;
}
inline cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
    *free_bytes = 0; *total_bytes = 0;
    return cudaSuccess;
}
inline const char* cudaGetErrorString(cudaError_t error) {
    return error == cudaSuccess ? "no error" : "shim error";
}
