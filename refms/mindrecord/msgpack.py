"""The subset of MessagePack (https://msgpack.org) a MindRecord raw record uses.

A MindRecord file stores each row's scalar fields (int32/int64, float32/float64,
string) as one MessagePack *map* from field name to value, keys in sorted order
(MindSpore builds the map from a JSON object with ordered keys).  Encoding
picks the smallest form, as MindSpore's JSON library does:

=======================  =================================================
non-negative int         fixint 0x00-0x7f, uint8 0xcc, uint16 0xcd, uint32 0xce, uint64 0xcf
negative int             fixint 0xe0-0xff, int8 0xd0, int16 0xd1, int32 0xd2, int64 0xd3
float                    float32 0xca when the value is exactly a float32, else float64 0xcb
str (UTF-8)              fixstr 0xa0-0xbf, str8 0xd9, str16 0xda, str32 0xdb
map                      fixmap 0x80-0x8f, map16 0xde, map32 0xdf
None                     nil 0xc0 (the raw record of a row with no scalar fields)
=======================  =================================================

All multi-byte numbers are big-endian.
"""
import struct

import numpy as np

__all__ = ["pack", "unpack"]


def _pack_int(value):
    if value >= 0:
        if value < 0x80:
            return bytes([value])
        for code, fmt, limit in ((0xcc, ">B", 1 << 8), (0xcd, ">H", 1 << 16),
                                 (0xce, ">I", 1 << 32), (0xcf, ">Q", 1 << 64)):
            if value < limit:
                return bytes([code]) + struct.pack(fmt, value)
    else:
        if value >= -32:
            return struct.pack(">b", value)
        for code, fmt, bits in ((0xd0, ">b", 7), (0xd1, ">h", 15), (0xd2, ">i", 31),
                                (0xd3, ">q", 63)):
            if value >= -(1 << bits):
                return bytes([code]) + struct.pack(fmt, value)
    raise OverflowError(f"MessagePack: the integer {value} does not fit in 64 bits.")


def _pack_str(text):
    data = text.encode("utf-8")
    n = len(data)
    if n < 32:
        head = bytes([0xa0 | n])
    elif n < 1 << 8:
        head = b"\xd9" + struct.pack(">B", n)
    elif n < 1 << 16:
        head = b"\xda" + struct.pack(">H", n)
    else:
        head = b"\xdb" + struct.pack(">I", n)
    return head + data


def pack(value):
    """The MessagePack bytes of None, an int, float, str or dict of those."""
    if value is None:
        return b"\xc0"
    if isinstance(value, (bool, np.bool_)):
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, (int, np.integer)):
        return _pack_int(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if float(np.float32(value)) == value or value != value:
            return b"\xca" + struct.pack(">f", value)
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        return _pack_str(value)
    if isinstance(value, dict):
        n = len(value)
        head = bytes([0x80 | n]) if n < 16 else \
            (b"\xde" + struct.pack(">H", n) if n < 1 << 16 else b"\xdf" + struct.pack(">I", n))
        return head + b"".join(_pack_str(k) + pack(value[k]) for k in sorted(value))
    raise TypeError(f"MessagePack: cannot pack a value of type {type(value).__name__}.")


def unpack(data):
    """The value encoded by ``data`` (one complete MessagePack object)."""
    value, end = _unpack(data, 0)
    if end != len(data):
        raise ValueError(f"MessagePack: {len(data) - end} bytes left after the value.")
    return value


_FIXED = {0xcc: ">B", 0xcd: ">H", 0xce: ">I", 0xcf: ">Q", 0xd0: ">b", 0xd1: ">h", 0xd2: ">i",
          0xd3: ">q", 0xca: ">f", 0xcb: ">d"}


def _unpack(data, pos):
    code = data[pos]
    pos += 1
    if code < 0x80:
        return code, pos
    if code >= 0xe0:
        return code - 0x100, pos
    if 0xa0 <= code <= 0xbf:
        return _text(data, pos, code & 0x1f)
    if 0x80 <= code <= 0x8f:
        return _map(data, pos, code & 0x0f)
    if code in _FIXED:
        fmt = _FIXED[code]
        size = struct.calcsize(fmt)
        return struct.unpack_from(fmt, data, pos)[0], pos + size
    if code in (0xd9, 0xda, 0xdb):
        fmt = {0xd9: ">B", 0xda: ">H", 0xdb: ">I"}[code]
        n = struct.unpack_from(fmt, data, pos)[0]
        return _text(data, pos + struct.calcsize(fmt), n)
    if code in (0xde, 0xdf):
        fmt = ">H" if code == 0xde else ">I"
        n = struct.unpack_from(fmt, data, pos)[0]
        return _map(data, pos + struct.calcsize(fmt), n)
    if code in (0xc2, 0xc3):
        return code == 0xc3, pos
    if code == 0xc0:
        return None, pos
    raise ValueError(f"MessagePack: unsupported type byte 0x{code:02x} at offset {pos - 1}.")


def _text(data, pos, n):
    if pos + n > len(data):
        raise ValueError("MessagePack: a string runs past the end of the record.")
    return data[pos:pos + n].decode("utf-8"), pos + n


def _map(data, pos, n):
    out = {}
    for _ in range(n):
        key, pos = _unpack(data, pos)
        out[key], pos = _unpack(data, pos)
    return out, pos
