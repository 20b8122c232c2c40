"""The ``.ckpt`` layout: MindSpore's ``checkpoint.proto``, encoded and decoded by hand.

The schema (MindSpore ``mindspore/ccsrc/utils/checkpoint.proto``; field
numbers checked against the 2.10 descriptor, semantics 10.1)::

    syntax = "proto2";
    message Checkpoint {
      message Value {
        required string tag = 1;                 // the parameter's name
        optional TensorProto tensor = 2;
        optional MapTensorProto maptensor = 3;   // 2.x MapParameter; refms has none
      }
      repeated Value value = 1;
    }
    message TensorProto {
      repeated int64 dims = 1;                   // written unpacked: one key per dimension
      required string tensor_type = 2;           // "Float32", "Int64", "Bool", "BFloat16", "str", ...
      required bytes tensor_content = 3;         // raw little-endian, C order
    }
    message MapTensorProto { repeated TensorProto tensor = 1; }

A file is one serialised ``Checkpoint`` and nothing else, optionally followed
by MindSpore's CRC trailer ``b"crc_num" + crc32.to_bytes(10, "big")``.
MindSpore writes each parameter as its own one-value ``Checkpoint`` and
concatenates them (which protobuf reads as one message); a tensor larger
than 512 MiB is split into several consecutive values with the same tag.
"""
import collections

from .wire import (Reader, WireError, VARINT, LENGTH_DELIMITED, encode_key, encode_varint,
                   encode_length_delimited, wire_type_name)

__all__ = ["Entry", "encode_entry", "decode_checkpoint", "CRC_MARK", "split_crc_trailer"]

#: One ``Checkpoint.Value``: ``dims`` a tuple of ints, ``content`` bytes.
Entry = collections.namedtuple("Entry", "tag dims tensor_type content")

CRC_MARK = b"crc_num"
_CRC_TRAILER = len(CRC_MARK) + 10


def encode_tensor(dims, tensor_type, content):
    """A serialised ``TensorProto``."""
    out = bytearray()
    for d in dims:
        out += encode_key(1, VARINT) + encode_varint(int(d))
    out += encode_length_delimited(2, tensor_type.encode("utf-8"))
    out += encode_length_delimited(3, bytes(content))
    return bytes(out)


def encode_entry(tag, dims, tensor_type, content):
    """A serialised ``Checkpoint`` holding one ``Value`` (files are concatenations of these)."""
    value = encode_length_delimited(1, tag.encode("utf-8"))
    value += encode_length_delimited(2, encode_tensor(dims, tensor_type, content))
    return encode_length_delimited(1, value)


def _expect(wire_type, wanted, where, field):
    if wire_type != wanted:
        raise WireError(f"{where}: field '{field}' has wire type {wire_type_name(wire_type)}, "
                        f"expected {wire_type_name(wanted)}")


def _decode_tensor(data, start, end, where):
    reader = Reader(data, start, end)
    dims, tensor_type, content = [], None, None
    while not reader.at_end():
        field, wire_type = reader.read_key()
        if field == 1 and wire_type == VARINT:
            dims.append(reader.read_int64())
        elif field == 1 and wire_type == LENGTH_DELIMITED:       # packed repeated int64
            begin, stop = reader.read_length_delimited()
            packed = Reader(data, begin, stop)
            while not packed.at_end():
                dims.append(packed.read_int64())
        elif field == 2:
            _expect(wire_type, LENGTH_DELIMITED, where, "tensor_type")
            begin, stop = reader.read_length_delimited()
            tensor_type = _utf8(data[begin:stop], where, "tensor_type")
        elif field == 3:
            _expect(wire_type, LENGTH_DELIMITED, where, "tensor_content")
            begin, stop = reader.read_length_delimited()
            content = bytes(data[begin:stop])
        else:
            reader.skip(wire_type)
    if tensor_type is None or content is None:
        missing = "tensor_type" if tensor_type is None else "tensor_content"
        raise WireError(f"{where}: the TensorProto has no required field '{missing}'")
    return tuple(dims), tensor_type, content


def _utf8(raw, where, field):
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise WireError(f"{where}: field '{field}' is not valid UTF-8") from None


def _decode_value(data, start, end, index):
    where = f"value #{index}"
    reader = Reader(data, start, end)
    tag, tensor, has_map = None, None, False
    while not reader.at_end():
        try:
            field, wire_type = reader.read_key()
        except WireError as error:
            named = f"{where} ('{tag}')" if tag is not None else where
            raise WireError(f"{named}: {error}") from None
        if field == 1:
            _expect(wire_type, LENGTH_DELIMITED, where, "tag")
            begin, stop = reader.read_length_delimited()
            tag = _utf8(data[begin:stop], where, "tag")
        elif field == 2:
            _expect(wire_type, LENGTH_DELIMITED, where, "tensor")
            begin, stop = reader.read_length_delimited()
            tensor = (begin, stop)
        elif field == 3:
            _expect(wire_type, LENGTH_DELIMITED, where, "maptensor")
            reader.read_length_delimited()
            has_map = True
        else:
            reader.skip(wire_type)
    if tag is None:
        raise WireError(f"{where}: the Checkpoint.Value has no required field 'tag'")
    if tensor is None:
        if has_map:
            raise WireError(f"{where} ('{tag}') is a MapTensor (MindSpore MapParameter), which refms "
                            f"does not support")
        raise WireError(f"{where} ('{tag}') has no tensor")
    dims, tensor_type, content = _decode_tensor(data, tensor[0], tensor[1], f"{where} ('{tag}')")
    return Entry(tag, dims, tensor_type, content)


def _peek_tag(data, start):
    """The tag of a value whose bytes are cut short (a truncated file), or None."""
    try:
        reader = Reader(data, start)
        reader.read_varint()                         # the value's (too large) length
        field, wire_type = reader.read_key()
        if field == 1 and wire_type == LENGTH_DELIMITED:
            begin, stop = reader.read_length_delimited()
            return bytes(data[begin:stop]).decode("utf-8")
    except (WireError, UnicodeDecodeError):
        pass
    return None


def decode_checkpoint(data):
    """The ``Value`` entries of a serialised ``Checkpoint``, in file order (raises WireError).

    Every error names the value: its index and, when its tag could be read, the
    parameter (``value #3 ('fc.bias'): ...``); a value cut short by a truncated
    file is named by the tag at its start, or by the value before it when the
    cut falls inside its own name."""
    reader = Reader(data)
    entries = []
    while not reader.at_end():
        field, wire_type = reader.read_key()
        if field == 1:
            _expect(wire_type, LENGTH_DELIMITED, "Checkpoint", "value")
            start = reader.offset
            try:
                begin, stop = reader.read_length_delimited()
            except WireError as error:
                tag = _peek_tag(data, start)
                if tag is not None:
                    named = f" ('{tag}')"
                elif entries:
                    named = f" (the one after '{entries[-1].tag}'; its own name is cut off)"
                else:
                    named = " (its name is cut off)"
                raise WireError(f"value #{len(entries)}{named}: {error}") from None
            entries.append(_decode_value(data, begin, stop, len(entries)))
        else:
            reader.skip(wire_type)
    return entries


def split_crc_trailer(data):
    """``(message bytes, crc or None)``: MindSpore's optional ``crc_num`` trailer taken off."""
    if len(data) >= _CRC_TRAILER and data[-_CRC_TRAILER:-10] == CRC_MARK:
        return data[:-_CRC_TRAILER], int.from_bytes(data[-10:], "big")
    return data, None
