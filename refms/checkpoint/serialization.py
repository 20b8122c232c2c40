"""``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net`` (MindSpore
``mindspore/train/serialization.py``).

Files use MindSpore's real ``.ckpt`` layout (:mod:`refms.checkpoint.ckpt_format`),
so they move both ways between refms and MindSpore.

* Saving writes every parameter in ``parameters_and_names()`` order, keyed by
  ``param.name``; each value's ``tensor_type`` is the dtype's name and its
  content the raw little-endian bytes (BFloat16: the high 16 bits of each
  float32; ``str`` entries of ``append_dict``: UTF-32LE, dims ``[0]``).
  The write is atomic: a temporary file in the same directory, flushed and
  fsync'ed, then ``os.replace``; the finished file is made read-only
  (``S_IRUSR``), as MindSpore does.  A failed or interrupted write removes its
  temporary file; one left by a killed process (``<name>.<pid>.<random>.tmp``)
  is removed by the next save of the same path once that process is gone.
* Loading parses the whole file before anything is returned or written into
  a network, so a truncated or corrupt file raises ``ValueError`` naming the
  file and the parameter, and leaves the network untouched; ``load_param_into_net`` likewise checks every shape
  and dtype before it writes the first parameter (MindSpore itself stops
  half-way through).
* ``load_param_into_net`` returns ``(param_not_load, ckpt_not_load)`` since
  2.0 and only ``param_not_load`` before (compat switch
  ``load_param_into_net_returns_tuple``).

Not supported (clear errors): encryption (``enc_key``/``dec_key``),
``format='safetensors'``, MapParameter values.
"""
import glob
import math
import os
import stat
import tempfile
import zlib

import numpy as np

from .. import compat
from .. import dtype as mstype
from .._tensor import Tensor
from ..nn.cell import Cell
from ..parameter import Parameter
from .ckpt_format import CRC_MARK, Entry, decode_checkpoint, encode_entry, split_crc_trailer
from .wire import WireError

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "tensor_to_entry",
           "entry_to_value"]

#: ``tensor_type`` name -> numpy storage type (BFloat16 is handled apart).
_NUMPY_TYPES = {t.name: np.dtype(t.np_type).newbyteorder("<")
                for t in mstype.all_types if t is not mstype.bfloat16}
_DTYPES = {t.name: t for t in mstype.all_types}

#: MindSpore splits a tensor larger than this many KiB into several values (``SLICE_SIZE``).
SLICE_SIZE_KB = 512 * 1024


# -- tensors <-> entries ------------------------------------------------------------

def tensor_to_entries(name, tensor):
    """The ``Entry`` list of one named Tensor (one entry unless it exceeds ``SLICE_SIZE_KB``)."""
    array = np.asarray(tensor.asnumpy(), order="C")
    dims = tuple(int(d) for d in array.shape)
    type_name = str(tensor.dtype)
    if tensor.dtype is mstype.bfloat16:
        array = (array.astype(np.float32).view(np.uint32) >> 16).astype("<u2")
    else:
        array = array.astype(_NUMPY_TYPES[type_name], copy=False)
    pieces = [array]
    if array.nbytes / 1024 > SLICE_SIZE_KB and array.ndim > 0:
        pieces = np.array_split(array, int(np.ceil(array.nbytes / 1024 / SLICE_SIZE_KB)))
    return [Entry(name, dims, type_name, np.asarray(p, order="C").tobytes()) for p in pieces]


def tensor_to_entry(name, tensor):
    """The single ``Entry`` of a small Tensor (tests and tools)."""
    return tensor_to_entries(name, tensor)[0]


def string_to_entry(name, text):
    """An ``append_dict`` string: dims ``[0]``, type ``str``, numpy's UTF-32LE ``U`` bytes."""
    content = np.array(text, dtype=f"<U{max(len(text), 1)}").tobytes()
    return Entry(name, (0,), "str", content)


#: The most dimensions a tensor in a checkpoint may have (numpy's limit, far above MindSpore's).
MAX_DIMS = 64


def entry_to_value(entry, path):
    """A Parameter named ``entry.tag`` (or a str) from one, possibly re-joined, entry."""
    if entry.tensor_type == "str":
        count = len(entry.content) // 4
        return str(np.frombuffer(entry.content, dtype=f"<U{max(count, 1)}")[0]) if count else ""
    if entry.tensor_type not in _DTYPES:
        raise ValueError(f"For 'load_checkpoint', parameter '{entry.tag}' in {path} has the unknown "
                         f"tensor_type {entry.tensor_type!r}; known: {', '.join(sorted(_DTYPES))}.")
    dtype = _DTYPES[entry.tensor_type]
    storage = np.dtype("<u2") if dtype is mstype.bfloat16 else _NUMPY_TYPES[entry.tensor_type]
    dims = tuple(entry.dims)
    if len(dims) > MAX_DIMS:
        raise ValueError(f"For 'load_checkpoint', parameter '{entry.tag}' in {path} claims "
                         f"{len(dims)} dimensions; a tensor has at most {MAX_DIMS}: the file is "
                         f"corrupted.")
    count = math.prod(dims)          # exact: a product that overflows int64 is still caught
    if dims == (0,) and len(entry.content) == storage.itemsize:
        dims, count = (), 1          # MindSpore reads dims [0] as a scalar
    if any(d < 0 for d in dims) or count * storage.itemsize != len(entry.content):
        raise ValueError(f"For 'load_checkpoint', parameter '{entry.tag}' in {path} claims shape "
                         f"{list(dims)} of {entry.tensor_type} ({count * storage.itemsize} bytes) but "
                         f"holds {len(entry.content)} bytes: the file is corrupted.")
    array = np.frombuffer(entry.content, dtype=storage).reshape(dims)
    if dtype is mstype.bfloat16:
        array = (array.astype(np.uint32) << 16).view(np.float32)
    array = array.astype(array.dtype.newbyteorder("="))
    return Parameter(Tensor(array, dtype), name=entry.tag)


# -- saving ----------------------------------------------------------------------------

def _named_values(save_obj, choice_func):
    """``[(name, Tensor or str)]`` to save, from a Cell, a list or a dict (MindSpore's rules)."""
    named = []
    if isinstance(save_obj, Cell):
        seen = {}
        for _, param in save_obj.parameters_and_names():
            if choice_func is None or choice_func(param.name):
                seen[param.name] = param
        named = list(seen.items())
    elif isinstance(save_obj, list):
        if save_obj and isinstance(save_obj[0], dict):
            for item in save_obj:
                if not (isinstance(item, dict) and "name" in item and "data" in item):
                    raise TypeError(f"For save_checkpoint, save_obj should be a list of dict items, "
                                    f"and the dict should have key values 'name' and 'data', but got "
                                    f"{type(item)} and {item}.")
                if not isinstance(item["name"], str):
                    raise TypeError(f"For save_checkpoint, when save_obj is a list of dict items, the "
                                    f"name in dict should be string, but got {type(item['name'])}.")
                if not isinstance(item["data"], Tensor):
                    raise TypeError(f"For save_checkpoint, when save_obj is a list of dict items, the "
                                    f"data in dict should be parameter, but got {type(item['data'])}.")
                if choice_func is None or choice_func(item["name"]):
                    named.append((item["name"], item["data"]))
        else:
            for item in save_obj:
                if not isinstance(item, Parameter):
                    raise TypeError(f"For save_checkpoint, when save_obj is made up by list of "
                                    f"Parameter, the param should be parameter, but got {type(item)}")
                if choice_func is None or choice_func(item.name):
                    named.append((item.name, item))
    elif isinstance(save_obj, dict):
        for key, value in save_obj.items():
            if not isinstance(key, str) or not isinstance(value, (Tensor, str, np.ndarray)):
                raise TypeError(f"For save_checkpoint, when save_obj is made up by dict, the key "
                                f"should be str and value should be Parameter, but got the type of "
                                f"key is {type(key)} and the type of value is {type(value)}")
            if choice_func is None or choice_func(key):
                named.append((key, Tensor(value) if isinstance(value, np.ndarray) else value))
    else:
        raise TypeError(f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or "
                        f"dict, but got {type(save_obj)}.")
    return named


def _append_values(append_dict):
    if append_dict is None:
        return []
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got "
                        f"{type(append_dict)}.")
    named = []
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError(f"For 'save_checkpoint', the type of dict 'append_info' must be key: "
                            f"string, value: int, float, bool or Generator, but got key: {type(key)}, "
                            f"value: {type(value)}")
        named.append((key, value if isinstance(value, (str, Tensor)) else Tensor(value)))
    return named


def _checkpoint_path(ckpt_file_name, fmt):
    if fmt not in ("ckpt", "safetensors"):
        raise ValueError(f"For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but "
                         f"got {fmt}.")
    if fmt == "safetensors":
        raise ValueError("For 'save_checkpoint', refms writes only the protobuf 'ckpt' format; "
                         "'safetensors' is not supported.")
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', the parameter {ckpt_file_name} for checkpoint file "
                        f"name is invalid,'ckpt_file_name' must be string, but got "
                        f"{type(ckpt_file_name)}.")
    path = os.path.realpath(os.fspath(ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {path} is a "
                                f"directory, it must be a file name.")
    if not path.endswith(fmt):
        path += f".{fmt}"
    return path


def _temp_prefix(path, pid):
    """Temporary files of a save of ``path`` by process ``pid``: ``<name>.<pid>.<random>.tmp``."""
    return f"{os.path.basename(path)}.{pid}."


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:          # someone else's live process
        return True
    return True


def remove_stale_temporaries(path):
    """Delete the temporary files that earlier saves of ``path`` left when their process died
    mid-write (killed, power lost): those whose process no longer runs.  A save in progress in
    another live process keeps its file.  Returns the removed paths."""
    directory = os.path.dirname(path) or "."
    pattern = os.path.join(glob.escape(directory), glob.escape(os.path.basename(path)) + ".*.tmp")
    removed = []
    for candidate in glob.glob(pattern):
        middle = os.path.basename(candidate)[len(os.path.basename(path)) + 1:-len(".tmp")]
        pid = middle.split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        try:
            os.remove(candidate)
            removed.append(candidate)
        except FileNotFoundError:
            pass
    return removed


def write_atomically(path, payload):
    """Write ``payload`` to ``path`` through a temporary file and ``os.replace``; make it read-only.

    The temporary file is removed if the write fails or is interrupted
    (an exception, ``KeyboardInterrupt``); one left by a process that was killed
    outright is removed by the next save of the same path."""
    directory = os.path.dirname(path) or "."
    remove_stale_temporaries(path)
    handle, temp = tempfile.mkstemp(prefix=_temp_prefix(path, os.getpid()), suffix=".tmp",
                                    dir=directory)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.remove(temp)
        raise
    os.chmod(path, stat.S_IRUSR)


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs):
    """Save a Cell's parameters (or a list of ``{'name', 'data'}`` dicts / Parameters, or a dict)
    plus ``append_dict`` entries to ``ckpt_file_name`` (``.ckpt`` appended if missing). Returns None."""
    if enc_key is not None:
        raise ValueError("For 'save_checkpoint', refms does not implement checkpoint encryption "
                         "('enc_key'); save without it.")
    path = _checkpoint_path(ckpt_file_name, format)
    if not isinstance(crc_check, bool):
        raise TypeError(f"For 'save_checkpoint', the 'crc_check' must be bool, but got "
                        f"{type(crc_check)}.")
    named = _named_values(save_obj, choice_func) + _append_values(append_dict)
    payload = bytearray()
    for name, value in named:
        entries = [string_to_entry(name, value)] if isinstance(value, str) else \
            tensor_to_entries(name, value)
        for entry in entries:
            payload += encode_entry(*entry)
    if crc_check:
        payload += CRC_MARK + zlib.crc32(bytes(payload)).to_bytes(10, "big")
    write_atomically(path, bytes(payload))


# -- loading ---------------------------------------------------------------------------

def _check_prefix(prefix):
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError(f"For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must "
                        f"be string, list[string] or tuple[string], but got {type(prefix)}.")
    prefix = (prefix,) if isinstance(prefix, str) else tuple(prefix)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' "
                         "can't be empty when 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, item in enumerate(prefix):
        if not isinstance(item, str):
            raise TypeError(f"For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list "
                            f"or tuple, the element in it must be string, but got {type(item)} at "
                            f"index {index}.")
        if item == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or "
                             "'filter_prefix' can't include ''.")
    return prefix


def _wanted(name, specify_prefix, filter_prefix, choice_func):
    if specify_prefix and not name.startswith(specify_prefix):
        return False
    if filter_prefix and name.startswith(filter_prefix):
        return False
    if specify_prefix is None and filter_prefix is None and choice_func is not None:
        return bool(choice_func(name))
    return True


def read_checkpoint_entries(path, crc_check=False):
    """Parse a ``.ckpt`` file into entries, consecutive slices of one tag joined (ValueError if bad)."""
    with open(path, "rb") as f:
        data = f.read()
    data, crc = split_crc_trailer(data)
    if crc_check and crc is not None and zlib.crc32(data) != crc:
        raise ValueError(f"For 'load_checkpoint', the crc check is failed, please check whether the "
                         f"ckpt file is damaged: {path}.")
    try:
        entries = decode_checkpoint(data)
    except WireError as error:
        raise ValueError(f"Failed to read the checkpoint file {path}. The file may be corrupted, and "
                         f"the content cannot be parsed: {error}.") from None
    joined = []
    for entry in entries:
        if joined and joined[-1].tag == entry.tag and joined[-1].dims == entry.dims:
            last = joined[-1]
            joined[-1] = last._replace(content=last.content + entry.content)
        else:
            joined.append(entry)
    return joined


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False,
                    remove_redundancy=False, format="ckpt"):
    """A dict ``name -> Parameter`` (``str`` for string entries) read from ``ckpt_file_name``;
    with ``net`` the values are also loaded into it (:func:`load_param_into_net`)."""
    if dec_key is not None:
        raise ValueError("For 'load_checkpoint', refms does not implement checkpoint decryption "
                         "('dec_key').")
    if format != "ckpt":
        raise ValueError(f"For 'load_checkpoint', refms reads only the protobuf 'ckpt' format, but "
                         f"got format={format!r}.")
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'load_checkpoint', the argument 'ckpt_file_name' must be string, but "
                        f"got {type(ckpt_file_name)}.")
    path = os.fspath(ckpt_file_name)
    if not path.endswith(format):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file format must same with "
                         f"'format', but got file_name:'{path}', format:'{format}'")
    path = os.path.realpath(path)
    if not os.path.exists(path):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {path} does not exist, please "
                         f"check whether the 'ckpt_file_name' is correct.")
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    parameter_dict = {}
    for entry in read_checkpoint_entries(path, crc_check):
        if _wanted(entry.tag, specify_prefix, filter_prefix, choice_func):
            parameter_dict[entry.tag] = entry_to_value(entry, path)
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check "
                         "whether 'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load)
    return parameter_dict


def _check_update(param, new_param, strict_load):
    """The array to write into ``param`` from ``new_param`` (raises RuntimeError on a mismatch)."""
    new_data = new_param.asnumpy()
    if tuple(param.shape) != tuple(new_param.shape):
        extra = tuple(new_param.shape)[len(param.shape):]
        if len(new_param.shape) > len(param.shape) and all(d == 1 for d in extra) \
                and tuple(new_param.shape)[:len(param.shape)] == tuple(param.shape):
            new_data = new_data.reshape(param.shape)        # MindSpore's _special_process_par
        else:
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same "
                f"shape as {param.name} in the argument 'parameter_dict'. But got its shape "
                f"{tuple(param.shape)} in the argument 'net' and shape {tuple(new_param.shape)} in the "
                f"argument 'parameter_dict'.May you need to check whether the checkpoint you loaded is "
                f"correct or the batch size and so on in the 'net' and 'parameter_dict' are same.")
    if param.dtype is not new_param.dtype:
        kinds = {param.dtype.kind, new_param.dtype.kind}
        convertible = kinds == {"float"} or (kinds <= {"int"})
        if strict_load or not convertible:
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same "
                f"type as {param.name} in the argument 'parameter_dict'. but got its type "
                f"{param.dtype} in the argument 'net' and type {new_param.dtype} in the argument "
                f"'parameter_dict'.May you need to check whether the checkpoint you loaded is correct.")
    return Tensor(new_data, new_param.dtype)


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Copy ``parameter_dict[param.name]`` into each parameter of ``net``.

    Returns ``(param_not_load, ckpt_not_load)`` (2.x) or ``param_not_load`` (r1.x compat).
    Every update is checked before the first one is written.
    """
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got "
                        f"{type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', the argument 'parameter_dict' should be a dict, "
                        f"but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError(f"For 'parameter_dict', the element in the argument 'parameter_dict' "
                            f"should be a 'str' and 'Parameter' , but got {type(key)} and "
                            f"{type(value)}.")
    if not isinstance(strict_load, bool):
        raise TypeError(f"For 'load_param_into_net', the 'strict_load' must be bool, but got "
                        f"{type(strict_load)}.")
    updates, param_not_load = [], []
    ckpt_not_load = list(parameter_dict)
    params = [p for _, p in net.parameters_and_names()]
    for param in params:
        value = parameter_dict.get(param.name)
        if value is None:
            param_not_load.append(param.name)
        elif isinstance(value, Parameter):
            updates.append((param, _check_update(param, value, strict_load)))
            ckpt_not_load.remove(param.name)
    if param_not_load and not strict_load:
        _match_by_suffix(params, parameter_dict, param_not_load, updates, strict_load)
    for param, data in updates:          # only now is the network written
        param.set_data(data)
    if compat.behaviour("load_param_into_net_returns_tuple"):
        return param_not_load, ckpt_not_load
    return param_not_load


def _match_by_suffix(params, parameter_dict, param_not_load, updates, strict_load):
    """MindSpore's ``_load_dismatch_prefix_params``: a key ``<prefix><name>`` loads into ``name``.

    The prefix is taken from the first missing name that some key ends with; the matched keys
    stay in ``ckpt_not_load`` (as in 2.10).
    """
    longest = param_not_load[0]
    prefix = ""
    while prefix != longest and param_not_load:
        prefix = longest
        for name in param_not_load:
            for key in parameter_dict:
                if key.endswith(name):
                    prefix = key[:-len(name)]
                    break
            if prefix != longest:
                break
        if prefix == longest:
            break
        progress = False
        for param in params:
            key = prefix + param.name
            value = parameter_dict.get(key)
            if param.name in param_not_load and isinstance(value, Parameter):
                updates.append((param, _check_update(param, value, strict_load)))
                param_not_load.remove(param.name)
                progress = True
        if not progress:
            break
