"""The protocol-buffer wire format, proto2 flavour: just enough to read and write a ``.ckpt``.

A serialised message is a sequence of *fields*; each field is a key and a
value (Protocol Buffers encoding guide, "Message Structure")::

    field   := key value
    key     := varint(field_number << 3 | wire_type)
    value   := varint                                   wire_type 0 (int32/int64/bool/enum)
             | 8 bytes, little endian                    wire_type 1 (fixed64/double)
             | varint(length) bytes                      wire_type 2 (string/bytes/message/packed)
             | 4 bytes, little endian                    wire_type 5 (fixed32/float)
    varint  := 7 bits per byte, least significant group first, high bit set on all but the last

Negative int64 values are their 64-bit two's complement (ten varint bytes).
Fields may come in any order, a repeated field is its key repeated, and a
repeated scalar may also arrive *packed* (one wire-type-2 field holding the
varints back to back).  Concatenating two serialised messages gives one
message whose repeated fields are the concatenations, which is how MindSpore
appends parameters to a checkpoint file one by one.

:class:`Reader` raises :class:`WireError` (naming the byte offset) for every
way a buffer can be malformed: a varint longer than ten bytes, a length that
runs past the end, a wire type that does not exist.
"""
__all__ = ["WireError", "VARINT", "FIXED64", "LENGTH_DELIMITED", "FIXED32",
           "encode_varint", "encode_key", "encode_length_delimited", "Reader"]

VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5
_WIRE_TYPE_NAMES = {VARINT: "varint", FIXED64: "64-bit", LENGTH_DELIMITED: "length-delimited",
                    FIXED32: "32-bit"}


class WireError(ValueError):
    """A buffer that is not a well-formed protocol-buffer message."""


def encode_varint(value):
    """Unsigned base-128 encoding; a negative int64 is written as its 64-bit two's complement."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def encode_key(field_number, wire_type):
    return encode_varint(field_number << 3 | wire_type)


def encode_length_delimited(field_number, payload):
    """A wire-type-2 field: key, length, then the bytes (a string, bytes or a sub-message)."""
    return encode_key(field_number, LENGTH_DELIMITED) + encode_varint(len(payload)) + payload


class Reader:
    """Reads fields from ``data[start:end]``; ``offset`` says where the next one begins."""

    def __init__(self, data, start=0, end=None):
        self.data = data
        self.offset = start
        self.end = len(data) if end is None else end

    def at_end(self):
        return self.offset >= self.end

    def read_varint(self):
        result, shift, start = 0, 0, self.offset
        while True:
            if self.offset >= self.end:
                raise WireError(f"truncated varint at byte {start}")
            byte = self.data[self.offset]
            self.offset += 1
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return result
            shift += 7
            if shift >= 70:
                raise WireError(f"varint longer than ten bytes at byte {start}")

    def read_int64(self):
        """A varint read as a signed 64-bit integer."""
        value = self.read_varint() & ((1 << 64) - 1)
        return value - (1 << 64) if value >= 1 << 63 else value

    def read_key(self):
        """``(field_number, wire_type)`` of the next field."""
        start = self.offset
        key = self.read_varint()
        field_number, wire_type = key >> 3, key & 7
        if field_number == 0 or wire_type not in _WIRE_TYPE_NAMES:
            raise WireError(f"invalid field key {key} (field {field_number}, wire type {wire_type}) "
                            f"at byte {start}")
        return field_number, wire_type

    def read_length_delimited(self):
        """``(start, end)`` of a wire-type-2 payload inside ``data`` (no copy)."""
        start = self.offset
        length = self.read_varint()
        if self.offset + length > self.end:
            raise WireError(f"a field starting at byte {start} claims {length} bytes but only "
                            f"{self.end - self.offset} remain (truncated file?)")
        begin = self.offset
        self.offset += length
        return begin, self.offset

    def skip(self, wire_type):
        """Step over a field's value (unknown fields are ignored, as proto2 parsers do)."""
        if wire_type == VARINT:
            self.read_varint()
        elif wire_type == LENGTH_DELIMITED:
            self.read_length_delimited()
        else:
            size = 8 if wire_type == FIXED64 else 4
            if self.offset + size > self.end:
                raise WireError(f"truncated {_WIRE_TYPE_NAMES[wire_type]} value at byte {self.offset}")
            self.offset += size


def wire_type_name(wire_type):
    return _WIRE_TYPE_NAMES.get(wire_type, str(wire_type))
