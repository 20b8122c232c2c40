"""The protocol buffer wire format, just enough to read and write MindIR files.

A message is a sequence of *fields*; each starts with a varint key
``field_number << 3 | wire_type``::

    wire type 0  varint            int32/int64/uint64/bool/enum: 7 bits a byte, low
                                   group first, high bit set on every byte but the last;
                                   a negative int is its 64-bit two's complement (10 bytes)
    wire type 1  64-bit            double, little-endian
    wire type 2  length-delimited  varint length · bytes: string (UTF-8), bytes, a nested
                                   message, or a *packed* run of repeated numbers
    wire type 5  32-bit            float, little-endian

A repeated field is the field written once per element (or, packed, one
length-delimited run); an absent optional field is simply not written.  What a
field number means comes from a *schema*: here a dict ``{message name: {number:
(field name, kind, repeated)}}`` where kind is a scalar kind above or another
message's name (see :mod:`refms.train.mindir_schema`).  Decoded messages are
plain dicts ``{field name: value}``, a repeated field a list; unknown field
numbers are skipped, as protobuf readers do.
(Encoding rules: https://protobuf.dev/programming-guides/encoding/.)
"""
import struct

__all__ = ["encode", "decode"]

_VARINT_KINDS = ("int32", "int64", "uint64", "bool", "enum")
_WIRE_TYPES = {"double": 1, "float": 5, "string": 2, "bytes": 2}


def _varint(value):
    value &= (1 << 64) - 1                      # negative numbers: 64-bit two's complement
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _read_varint(data, pos):
    result, shift = 0, 0
    while True:
        if pos >= len(data):
            raise ValueError("protobuf: the data ends inside a varint.")
        byte = data[pos]
        result |= (byte & 0x7F) << shift
        pos += 1
        if not byte & 0x80:
            return result, pos
        shift += 7


def _signed(value, kind):
    if kind in ("int32", "int64") and value >= 1 << 63:
        return value - (1 << 64)
    if kind == "bool":
        return bool(value)
    return value


def _encode_scalar(kind, value):
    if kind in _VARINT_KINDS:
        return _varint(int(value))
    if kind == "double":
        return struct.pack("<d", value)
    if kind == "float":
        return struct.pack("<f", value)
    data = value.encode("utf-8") if kind == "string" else bytes(value)
    return _varint(len(data)) + data


def encode(schema, message, values):
    """The bytes of ``values`` (a dict) as message ``message`` of ``schema``, fields in number
    order (as protobuf writers do)."""
    out = bytearray()
    for number, (name, kind, repeated) in sorted(schema[message].items()):
        if name not in values or values[name] is None:
            continue
        items = values[name] if repeated else [values[name]]
        for item in items:
            if kind in schema:                              # a nested message
                body = encode(schema, kind, item)
                out += _varint(number << 3 | 2) + _varint(len(body)) + body
            else:
                wire = 0 if kind in _VARINT_KINDS else _WIRE_TYPES[kind]
                out += _varint(number << 3 | wire) + _encode_scalar(kind, item)
    return bytes(out)


def _decode_packed(kind, data):
    values, pos = [], 0
    while pos < len(data):
        if kind in _VARINT_KINDS:
            value, pos = _read_varint(data, pos)
            values.append(_signed(value, kind))
        else:
            size = 8 if kind == "double" else 4
            values.append(struct.unpack_from("<d" if size == 8 else "<f", data, pos)[0])
            pos += size
    return values


def decode(schema, message, data):
    """The dict of message ``message`` read from ``data`` (ValueError when malformed)."""
    fields = schema[message]
    out = {name: [] for name, _, repeated in fields.values() if repeated}
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            raw, pos = _read_varint(data, pos)
        elif wire == 1:
            raw, pos = data[pos:pos + 8], pos + 8
        elif wire == 5:
            raw, pos = data[pos:pos + 4], pos + 4
        elif wire == 2:
            size, pos = _read_varint(data, pos)
            raw, pos = data[pos:pos + size], pos + size
        else:
            raise ValueError(f"protobuf: unsupported wire type {wire} in message {message}.")
        if pos > len(data):
            raise ValueError(f"protobuf: message {message} ends inside field {number}.")
        if number not in fields:
            continue
        name, kind, repeated = fields[number]
        if kind in schema:
            value = decode(schema, kind, raw)
        elif wire == 2 and kind not in ("string", "bytes"):    # a packed run of numbers
            out[name].extend(_decode_packed(kind, raw))
            continue
        elif wire == 0:
            value = _signed(raw, kind)
        elif wire == 1:
            value = struct.unpack("<d", raw)[0]
        elif wire == 5:
            value = struct.unpack("<f", raw)[0]
        else:
            value = bytes(raw).decode("utf-8") if kind == "string" else bytes(raw)
        if repeated:
            out[name].append(value)
        else:
            out[name] = value
    return out
