// runtime.cu -- the device, its one stream, memory, copies and the error record.
//
// refms uses one device at a time and one stream on it: every kernel of the library is
// launched on that stream, so kernels run in launch order, asynchronously with respect to
// Python.  Copies to the host wait for the stream.  A kernel that finds bad input (an index
// out of range) writes the device error record; refms_cuda_read_error waits for the stream,
// reads the record and clears it.
#include "common.cuh"

namespace refms {

static cudaStream_t g_stream = nullptr;
static RefmsErrorRecord* g_error = nullptr;     // device memory
static bool g_initialized = false;

cudaStream_t stream() { return g_stream; }
RefmsErrorRecord* error_record() { return g_error; }

}  // namespace refms

using namespace refms;

extern "C" {

int refms_cuda_device_count(int* count) {
    *count = 0;
    return (int)cudaGetDeviceCount(count);
}

// Select `device`, create the stream and the error record.  Call once before anything else.
int refms_cuda_init(int device) {
    cudaError_t status = cudaSetDevice(device);
    if (status != cudaSuccess) return (int)status;
    if (g_initialized) return 0;
    status = cudaStreamCreate(&g_stream);
    if (status != cudaSuccess) return (int)status;
    status = cudaMalloc((void**)&g_error, sizeof(RefmsErrorRecord));
    if (status != cudaSuccess) return (int)status;
    status = cudaMemsetAsync(g_error, 0, sizeof(RefmsErrorRecord), g_stream);
    if (status != cudaSuccess) return (int)status;
    g_initialized = true;
    return (int)cudaStreamSynchronize(g_stream);
}

int refms_cuda_is_shim(void) {
#ifdef REFMS_CUDA_SHIM
    return 1;
#else
    return 0;
#endif
}

void* refms_cuda_stream(void) { return (void*)g_stream; }

int refms_cuda_malloc(void** ptr, size_t bytes) { return (int)cudaMalloc(ptr, bytes); }

// cudaFree waits for the device: the caching allocator of refms/_cuda/device.py calls it
// rarely (it keeps freed blocks for reuse).
int refms_cuda_free(void* ptr) { return (int)cudaFree(ptr); }

// Host -> device: enqueued on the stream (the source is copied out before the call returns
// for pageable host memory, so the caller may reuse it).
int refms_cuda_memcpy_h2d(void* dst, const void* src, size_t bytes) {
    return (int)cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, g_stream);
}

// Device -> host: waits for every kernel launched before it (a synchronizing point).
int refms_cuda_memcpy_d2h(void* dst, const void* src, size_t bytes) {
    cudaError_t status = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, g_stream);
    if (status != cudaSuccess) return (int)status;
    return (int)cudaStreamSynchronize(g_stream);
}

int refms_cuda_memcpy_d2d(void* dst, const void* src, size_t bytes) {
    return (int)cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, g_stream);
}

int refms_cuda_memset(void* dst, int value, size_t bytes) {
    return (int)cudaMemsetAsync(dst, value, bytes, g_stream);
}

// Wait for every launched kernel; returns the first error a kernel raised (sticky errors
// such as an illegal address stay set for the rest of the process, as in CUDA).
int refms_cuda_synchronize(void) {
    if (!g_initialized) return REFMS_ERROR_NOT_INITIALIZED;
    return (int)cudaStreamSynchronize(g_stream);
}

// Wait for the stream, copy the error record to *out and clear it on the device.
int refms_cuda_read_error(RefmsErrorRecord* out) {
    if (!g_initialized) return REFMS_ERROR_NOT_INITIALIZED;
    int status = refms_cuda_memcpy_d2h(out, g_error, sizeof(RefmsErrorRecord));
    if (status != 0) return status;
    if (out->code != 0) {
        status = (int)cudaMemsetAsync(g_error, 0, sizeof(RefmsErrorRecord), g_stream);
    }
    return status;
}

int refms_cuda_mem_info(size_t* free_bytes, size_t* total_bytes) {
    return (int)cudaMemGetInfo(free_bytes, total_bytes);
}

const char* refms_cuda_error_string(int status) {
    switch (status) {
        case REFMS_ERROR_DTYPE: return "dtype not supported by this kernel";
        case REFMS_ERROR_OP: return "unknown op code";
        case REFMS_ERROR_SHAPE: return "unsupported or inconsistent shape";
        case REFMS_ERROR_NOT_INITIALIZED: return "refms_cuda_init was not called";
        default: return cudaGetErrorString((cudaError_t)status);
    }
}

}  // extern "C"
