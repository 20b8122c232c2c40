"""The ctypes prototype of every entry point of ``csrc/refms_cuda.h``: one table.

The loader (:mod:`refms._cuda.loader`) sets ``argtypes`` and ``restype`` from this table
on the loaded library; ``tests/test_cuda_prototypes.py`` parses the header and checks
that the table lists every function, with the same parameter types, and nothing else.
Codes (dtypes, op numbers) of the header's enums are mirrored in :mod:`refms._cuda.codes`,
checked the same way.
"""
import ctypes
from ctypes import POINTER, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint64, c_void_p


class ErrorRecord(ctypes.Structure):
    """``RefmsErrorRecord``: the first bad value a kernel met, and who launched it."""
    _fields_ = [("code", c_int), ("launch_id", c_int), ("value", c_int64), ("bound", c_int64)]


I64P = POINTER(c_int64)      # host int64_t arrays (shapes, strides) and int64 device arrays
VP = c_void_p                # device pointers

#: name -> (restype, argtypes), in the order of the header.
PROTOTYPES = {
    # runtime.cu
    "refms_cuda_device_count": (c_int, [POINTER(c_int)]),
    "refms_cuda_init": (c_int, [c_int]),
    "refms_cuda_is_shim": (c_int, []),
    "refms_cuda_stream": (c_void_p, []),
    "refms_cuda_malloc": (c_int, [POINTER(c_void_p), c_size_t]),
    "refms_cuda_free": (c_int, [VP]),
    "refms_cuda_memcpy_h2d": (c_int, [VP, VP, c_size_t]),
    "refms_cuda_memcpy_d2h": (c_int, [VP, VP, c_size_t]),
    "refms_cuda_memcpy_d2d": (c_int, [VP, VP, c_size_t]),
    "refms_cuda_memset": (c_int, [VP, c_int, c_size_t]),
    "refms_cuda_synchronize": (c_int, []),
    "refms_cuda_read_error": (c_int, [POINTER(ErrorRecord)]),
    "refms_cuda_mem_info": (c_int, [POINTER(c_size_t), POINTER(c_size_t)]),
    "refms_cuda_error_string": (c_char_p, [c_int]),
    # elementwise.cu
    "refms_unary": (c_int, [c_int, c_int, c_int64, c_int, I64P, VP, I64P, VP]),
    "refms_binary": (c_int, [c_int, c_int, c_int64, c_int, I64P, VP, I64P, VP, I64P, VP]),
    "refms_copy_strided": (c_int, [c_int, c_int64, c_int, I64P, VP, I64P, VP, I64P]),
    "refms_cast": (c_int, [c_int, c_int, c_int64, VP, VP]),
    "refms_fill": (c_int, [c_int, c_int64, c_double, c_int64, VP]),
    "refms_arange": (c_int, [c_int, c_int64, c_double, c_double, VP]),
    "refms_where": (c_int, [c_int, c_int64, c_int, I64P, VP, I64P, VP, I64P, VP, I64P, VP]),
    # bits.cu
    "refms_bitwise": (c_int, [c_int, c_int, c_int64, c_int, I64P, VP, I64P, VP, I64P, VP]),
    "refms_round_to_bfloat16": (c_int, [c_int64, VP, VP]),
    # reduce.cu
    "refms_reduce": (c_int, [c_int, c_int, c_int64, c_int, I64P, I64P, c_int, I64P, I64P, VP, VP]),
    # scan.cu
    "refms_cumsum": (c_int, [c_int, c_int64, c_int64, c_int64, c_int, c_int, VP, VP]),
    "refms_exclusive_cumprod_both": (c_int, [c_int, c_int64, c_int64, VP, VP]),
    # sort.cu
    "refms_sort": (c_int, [c_int, c_int64, c_int64, c_int64, c_int, VP, VP, I64P]),
    # softmax.cu
    "refms_softmax": (c_int, [c_int, c_int, c_int64, c_int64, c_int64, VP, VP]),
    "refms_softmax_backward": (c_int, [c_int, c_int, c_int64, c_int64, c_int64, VP, VP, VP]),
    "refms_softmax_cross_entropy": (c_int, [c_int, c_int64, c_int64, VP, VP, VP, VP]),
    "refms_sparse_softmax_cross_entropy": (c_int, [c_int, c_int, c_int64, c_int64, VP, VP, c_int,
                                                   VP, VP, c_int]),
    # gemm.cu
    "refms_gemm": (c_int, [c_int, c_int, c_int, c_int64, c_int64, c_int64,
                           VP, c_int64, c_int64, VP, c_int64, c_int64, VP, c_int64, c_int64,
                           c_int64]),
    # conv.cu
    "refms_im2col": (c_int, [c_int, I64P, I64P, I64P, I64P, I64P, I64P, VP, VP]),
    "refms_col2im": (c_int, [c_int, I64P, I64P, I64P, I64P, I64P, I64P, VP, VP]),
    # pool.cu
    "refms_max_pool2d": (c_int, [c_int, I64P, I64P, I64P, I64P, I64P, VP, VP, I64P]),
    "refms_max_pool2d_grad": (c_int, [c_int, I64P, I64P, VP, I64P, VP]),
    "refms_max_pool2d_grad_grad": (c_int, [c_int, I64P, I64P, VP, I64P, VP]),
    "refms_avg_pool2d": (c_int, [c_int, I64P, I64P, I64P, I64P, I64P, VP, VP, VP]),
    "refms_avg_pool2d_grad": (c_int, [c_int, I64P, I64P, I64P, I64P, I64P, VP, VP, VP]),
    # batchnorm.cu
    "refms_batch_norm_statistics": (c_int, [c_int, c_int64, c_int64, c_int64, VP, VP, VP]),
    "refms_batch_norm": (c_int, [c_int, c_int64, c_int64, c_int64, VP, VP, VP, VP, VP, c_double, VP]),
    "refms_batch_norm_backward": (c_int, [c_int, c_int, c_int64, c_int64, c_int64, VP, VP, VP, VP,
                                          VP, c_double, VP, VP, VP]),
    # optim.cu
    "refms_apply_momentum": (c_int, [c_int, c_int64, VP, VP, VP, VP, VP, c_int]),
    "refms_sgd": (c_int, [c_int, c_int64, VP, VP, VP, c_double, c_double, c_double, c_double,
                          c_int, c_int]),
    "refms_adam": (c_int, [c_int, c_int64, VP, VP, VP, VP, c_double, c_double, c_double, c_double,
                           c_double, c_double, c_int]),
    # random.cu
    "refms_philox": (c_int, [c_int64, c_uint64, c_uint64, VP]),
    "refms_uniform": (c_int, [c_int, c_int64, c_uint64, c_uint64, VP]),
    "refms_bernoulli": (c_int, [c_int, c_int64, c_double, c_uint64, c_uint64, VP]),
    "refms_normal": (c_int, [c_int, c_int64, c_uint64, c_uint64, VP]),
    "refms_uniform_int": (c_int, [c_int64, c_int64, c_int64, c_uint64, c_uint64, VP]),
    "refms_dropout": (c_int, [c_int, c_int64, c_double, c_uint64, c_uint64, VP, VP, VP]),
    # index.cu
    "refms_gather": (c_int, [c_int, c_int, c_int64, c_int64, c_int64, c_int64, VP, VP, VP, c_int]),
    "refms_take_along_axis": (c_int, [c_int, c_int, c_int, I64P, I64P, c_int, c_int64, VP, VP, VP,
                                      c_int]),
    "refms_one_hot": (c_int, [c_int, c_int, c_int64, c_int64, VP, c_double, c_double, VP]),
    # scatter.cu
    "refms_gather_offsets": (c_int, [c_int, c_int64, VP, I64P, VP]),
    "refms_scatter_offsets": (c_int, [c_int, c_int, c_int64, I64P, VP, VP]),
    "refms_scatter_along_axis": (c_int, [c_int, c_int, c_int, c_int, I64P, I64P, c_int, c_int64,
                                         VP, VP, VP, c_int]),
    "refms_segment_sum": (c_int, [c_int, c_int, c_int64, c_int64, c_int64, VP, VP, VP, c_int]),
    "refms_masked_select": (c_int, [c_int, c_int64, VP, VP, I64P, VP]),
    "refms_masked_scatter": (c_int, [c_int, c_int64, VP, I64P, c_int64, VP, VP, c_int]),
}


def declare(library):
    """Set argtypes/restype of every entry point on a loaded ctypes library; returns it.

    Raises AttributeError naming the first entry point the library lacks.
    """
    for name, (restype, argtypes) in PROTOTYPES.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes
    return library
