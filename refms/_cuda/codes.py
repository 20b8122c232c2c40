"""The numeric codes of ``csrc/refms_cuda.h``'s enums, for Python callers.

``tests/test_cuda_prototypes.py`` checks every value against the header.
"""
import numpy as np

#: dtype codes, by numpy dtype
DTYPES = {np.dtype(np.bool_): 0, np.dtype(np.int8): 1, np.dtype(np.uint8): 2,
          np.dtype(np.int16): 3, np.dtype(np.int32): 4, np.dtype(np.int64): 5,
          np.dtype(np.float32): 6, np.dtype(np.float64): 7}
FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

UNARY = {"copy": 0, "neg": 1, "abs": 2, "exp": 3, "log": 4, "sqrt": 5, "rsqrt": 6, "square": 7,
         "reciprocal": 8, "sin": 9, "cos": 10, "tanh": 11, "sigmoid": 12, "relu": 13,
         "floor": 14, "ceil": 15, "round": 16, "sign": 17, "log1p": 18, "expm1": 19, "erf": 20,
         "logical_not": 21, "softplus": 22, "isnan": 23, "gelu": 24, "trunc": 25, "isinf": 26,
         "isfinite": 27, "asin": 28, "acos": 29, "atan": 30}
UNARY_BOOL_RESULT = ("logical_not", "isnan", "isinf", "isfinite")

BINARY = {"add": 0, "sub": 1, "mul": 2, "div": 3, "floor_div": 4, "floor_mod": 5, "pow": 6,
          "maximum": 7, "minimum": 8, "equal": 9, "not_equal": 10, "less": 11, "less_equal": 12,
          "greater": 13, "greater_equal": 14, "logical_and": 15, "logical_or": 16,
          "squared_difference": 17, "relu_grad": 18, "sigmoid_grad": 19, "tanh_grad": 20,
          "atan2": 21, "fmod": 22}
BINARY_BOOL_RESULT = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                      "logical_and", "logical_or")

BITWISE = {"bitwise_and": 0, "bitwise_or": 1, "invert": 2}

REDUCE = {"sum": 0, "mean": 1, "max": 2, "min": 3, "prod": 4, "argmax": 5, "argmin": 6}

#: status codes of the library itself (CUDA's own are below 1000)
ERROR_DTYPE, ERROR_OP, ERROR_SHAPE, ERROR_NOT_INITIALIZED = 1001, 1002, 1003, 1004
#: codes a kernel writes into the device error record
KERNEL_INDEX_OUT_OF_RANGE = 1             # valid range [0, bound)
KERNEL_SIGNED_INDEX_OUT_OF_RANGE = 2      # valid range [-bound, bound)
MAX_DIMS = 8


def dtype_code(dtype):
    """The library's code of a numpy dtype (KeyError when the library has no kernels for it)."""
    return DTYPES[np.dtype(dtype)]
