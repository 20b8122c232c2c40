"""The ctypes prototype table and the enum codes agree with the C header, entry by entry."""
import ctypes
import re

import numpy as np

from refms._cuda import codes, prototypes
from refms._cuda.build import CSRC

HEADER = open(f"{CSRC}/refms_cuda.h").read()

C_TO_CTYPES = {
    "int": ctypes.c_int, "int64_t": ctypes.c_int64, "size_t": ctypes.c_size_t,
    "uint64_t": ctypes.c_uint64, "double": ctypes.c_double, "void*": ctypes.c_void_p,
    "const void*": ctypes.c_void_p, "const int64_t*": prototypes.I64P,
    "int64_t*": prototypes.I64P, "uint32_t*": ctypes.c_void_p,
    "int32_t*": ctypes.c_void_p, "int*": ctypes.POINTER(ctypes.c_int),
    "void**": ctypes.POINTER(ctypes.c_void_p), "size_t*": ctypes.POINTER(ctypes.c_size_t),
    "const char*": ctypes.c_char_p, "RefmsErrorRecord*": ctypes.POINTER(prototypes.ErrorRecord),
}


def _declarations():
    """name -> (return type, [parameter types]) of every REFMS_API function in the header."""
    found = {}
    for ret, name, params in re.findall(r"REFMS_API\s+([\w\s\*]+?)\s*(\w+)\s*\(([^)]*)\);", HEADER):
        types = []
        for param in params.split(","):
            param = " ".join(param.split())
            if param in ("void", ""):
                continue
            type_part = re.sub(r"\s*\b\w+$", "", param)       # drop the parameter name
            types.append(type_part.replace(" *", "*"))
        found[name] = (ret.replace(" *", "*").strip(), types)
    return found


def test_table_lists_every_entry_point_in_header_order():
    declared = _declarations()
    assert len(declared) >= 40
    assert list(prototypes.PROTOTYPES) == list(declared)


def test_table_types_match_the_header():
    for name, (ret, params) in _declarations().items():
        restype, argtypes = prototypes.PROTOTYPES[name]
        assert restype is C_TO_CTYPES[ret], name
        assert len(argtypes) == len(params), name
        for position, (c_type, py_type) in enumerate(zip(params, argtypes)):
            assert C_TO_CTYPES[c_type] is py_type, f"{name} parameter {position}: {c_type} vs {py_type}"


def test_error_record_layout_matches_header():
    fields = re.search(r"typedef struct RefmsErrorRecord \{(.*?)\}", HEADER, re.S).group(1)
    names = re.findall(r"(\w+);", fields)
    assert names == [name for name, _ in prototypes.ErrorRecord._fields_]


def _enum_values():
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"(REFMS_\w+)\s*=\s*(\d+)", HEADER)}


def test_codes_match_header_enums():
    values = _enum_values()
    for dtype, code in codes.DTYPES.items():
        name = {"bool": "BOOL"}.get(dtype.name, dtype.name.upper())
        assert values[f"REFMS_{name}"] == code, dtype
    for name, code in codes.UNARY.items():
        assert values[f"REFMS_{name.upper()}"] == code, name
    for name, code in codes.BINARY.items():
        assert values[f"REFMS_{name.upper()}"] == code, name
    for name, code in codes.BITWISE.items():
        assert values[f"REFMS_{name.upper().replace('INVERT', 'BITWISE_NOT')}"] == code, name
    for name, code in codes.REDUCE.items():
        assert values[f"REFMS_REDUCE_{name.upper()}"] == code, name
    assert values["REFMS_ERROR_DTYPE"] == codes.ERROR_DTYPE
    assert values["REFMS_ERROR_NOT_INITIALIZED"] == codes.ERROR_NOT_INITIALIZED
    assert values["REFMS_KERNEL_INDEX_OUT_OF_RANGE"] == codes.KERNEL_INDEX_OUT_OF_RANGE
    assert values["REFMS_KERNEL_SIGNED_INDEX_OUT_OF_RANGE"] == codes.KERNEL_SIGNED_INDEX_OUT_OF_RANGE
    assert int(re.search(r"#define REFMS_MAX_DIMS (\d+)", HEADER).group(1)) == codes.MAX_DIMS
    assert codes.dtype_code(np.float32) == values["REFMS_FLOAT32"]
