"""MindSpore's dtype objects: ``refms.float32`` prints ``Float32`` and reprs ``mindspore.float32``.

A dtype is a small immutable object carrying its MindSpore name, its numpy
storage type and its kind (bool, int, uint, float, complex).  MindSpore dtypes
are *not* numpy dtypes (``refms.float32 == np.float32`` is False, as in
MindSpore 2.10, semantics 1.2); :func:`dtype_to_nptype` converts.

BFloat16 has no numpy type; refms stores it as float32 values rounded to
bfloat16 precision (see ``round_to_bfloat16``).
"""
import numpy as np

__all__ = [
    "Type", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "bfloat16", "bool_", "complex64", "complex128",
    "half", "single", "double", "float_", "int_", "uint", "number", "tensor_type",
    "dtype_to_nptype", "nptype_to_dtype", "pytype_to_dtype", "get_py_obj_dtype",
    "is_float", "is_int", "is_bool", "all_types",
]


class Type:
    """A MindSpore data type.

    ``str(t)`` is the MindSpore name (``Float32``); ``repr(t)`` the import path
    (``mindspore.float32``).  ``kind`` is one of ``bool int uint float complex``;
    ``bits`` the storage width.
    """

    __slots__ = ("name", "short", "kind", "bits", "np_type")

    def __init__(self, name, short, kind, bits, np_type):
        self.name = name
        self.short = short
        self.kind = kind
        self.bits = bits
        self.np_type = np_type

    def __str__(self):
        return self.name

    def __repr__(self):
        return "mindspore." + self.short

    def __reduce__(self):
        return (_lookup, (self.short,))

    @property
    def itemsize(self):
        return self.bits // 8


class Bool(Type):
    """The class of ``bool_`` (``type(mindspore.bool_).__name__`` is ``'Bool'``)."""
    __slots__ = ()


class Int(Type):
    """The class of the signed integer types, as in MindSpore."""
    __slots__ = ()


class UInt(Type):
    """The class of the unsigned integer types, as in MindSpore."""
    __slots__ = ()


class Float(Type):
    """The class of the floating types, as in MindSpore."""
    __slots__ = ()


class Complex(Type):
    """The class of the complex types, as in MindSpore."""
    __slots__ = ()


def _lookup(short):
    return _BY_SHORT[short]


bool_ = Bool("Bool", "bool", "bool", 8, np.bool_)
int8 = Int("Int8", "int8", "int", 8, np.int8)
int16 = Int("Int16", "int16", "int", 16, np.int16)
int32 = Int("Int32", "int32", "int", 32, np.int32)
int64 = Int("Int64", "int64", "int", 64, np.int64)
uint8 = UInt("UInt8", "uint8", "uint", 8, np.uint8)
uint16 = UInt("UInt16", "uint16", "uint", 16, np.uint16)
uint32 = UInt("UInt32", "uint32", "uint", 32, np.uint32)
uint64 = UInt("UInt64", "uint64", "uint", 64, np.uint64)
float16 = Float("Float16", "float16", "float", 16, np.float16)
float32 = Float("Float32", "float32", "float", 32, np.float32)
float64 = Float("Float64", "float64", "float", 64, np.float64)
bfloat16 = Float("BFloat16", "bfloat16", "float", 16, np.float32)
complex64 = Complex("Complex64", "complex64", "complex", 64, np.complex64)
complex128 = Complex("Complex128", "complex128", "complex", 128, np.complex128)

all_types = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
             float16, float32, float64, bfloat16, complex64, complex128)
_BY_SHORT = {t.short: t for t in all_types}

# Aliases (semantics 1.2): ``half`` *is* float16; ``float_``/``int_``/``uint``
# are MindSpore's generic number types and print ``Float``/``Int``/``UInt``.
half = float16
single = float32
double = float64
float_ = Float("Float", "float_", "float", 32, np.float32)
int_ = Int("Int", "int_", "int", 64, np.int64)
uint = UInt("UInt", "uint", "uint", 64, np.uint64)
number = Type("Number", "number", "float", 32, np.float32)
tensor_type = Type("TensorType", "tensor_type", "float", 32, np.float32)
_BY_SHORT.update({"float_": float_, "int_": int_, "uint": uint})

_FROM_NUMPY = {np.dtype(t.np_type): t for t in all_types if t is not bfloat16}


def dtype_to_nptype(dtype):
    """The numpy scalar type that stores ``dtype`` (``float32`` -> ``numpy.float32``)."""
    return to_dtype(dtype).np_type


def nptype_to_dtype(np_dtype):
    """The MindSpore dtype of a numpy dtype or scalar type."""
    try:
        return _FROM_NUMPY[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"numpy dtype {np_dtype!r} has no MindSpore equivalent") from None


def pytype_to_dtype(obj):
    """MindSpore dtype of a Python type: ``bool`` -> Bool, ``int`` -> Int64, ``float`` -> Float32."""
    if isinstance(obj, Type):
        return obj
    if obj is bool:
        return bool_
    if obj is int:
        return int64
    if obj is float:
        return float32
    return nptype_to_dtype(obj)


def get_py_obj_dtype(obj):
    """dtype of a Python object (a Tensor's dtype, or the type of a scalar)."""
    if hasattr(obj, "dtype") and isinstance(obj.dtype, Type):
        return obj.dtype
    return pytype_to_dtype(type(obj))


def check_dtype(op, value, name="dtype"):
    """``value`` if it is a MindSpore dtype; else MindSpore's TypeError (``ops.zeros``,
    ``ops.cast``, ``ops.eye`` and ``Tensor(dtype=...)`` reject strings and None, recorded)."""
    if not isinstance(value, Type):
        raise TypeError(f"For '{op}', the input '{name}' should be mindspore dtype, but got "
                        f"{value!r}.")
    return value


def to_dtype(obj):
    """Accept a refms dtype, a numpy dtype/type, a Python type or a dtype name; return the
    refms dtype.  None is not a dtype (numpy would read it as float64)."""
    if isinstance(obj, Type):
        return obj
    if obj is None:
        raise TypeError("the dtype must be a mindspore dtype, but got None.")
    if obj in (bool, int, float):
        return pytype_to_dtype(obj)
    if isinstance(obj, str) and obj in _BY_SHORT:
        return _BY_SHORT[obj]
    return nptype_to_dtype(obj)


def is_float(dtype):
    return dtype.kind == "float"


def is_int(dtype):
    return dtype.kind in ("int", "uint")


def is_bool(dtype):
    return dtype.kind == "bool"


def round_to_bfloat16(array):
    """Round float32 values to the nearest bfloat16 (round half to even on the 16 dropped bits)."""
    a = np.ascontiguousarray(array, dtype=np.float32).reshape(np.shape(array))
    bits = a.view(np.uint32).astype(np.uint64)
    rounding = ((bits >> 16) & 1) + 0x7FFF
    rounded = ((bits + rounding) >> 16) << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), a, out).reshape(a.shape)
