"""``MnistDataset``: MNIST read from the four standard IDX files in a directory (LeCun et al.).

IDX format (http://yann.lecun.com/exdb/mnist/, "file formats")::

    magic  := 0x00 0x00 <type> <ndim>          type 0x08 ubyte, 0x09 byte, 0x0B short,
                                                0x0C int, 0x0D float, 0x0E double
    dims   := ndim big-endian uint32
    data   := the values, big-endian, C order

Files: ``train-images-idx3-ubyte`` / ``train-labels-idx1-ubyte`` and
``t10k-images-idx3-ubyte`` / ``t10k-labels-idx1-ubyte``.  ``usage`` is
``'train'``, ``'test'`` or ``'all'`` (None; test then train, the order MindSpore
2.10 reads them in).  Columns: ``image`` UInt8 (28, 28, 1) and ``label``
UInt32 0-d, as in MindSpore.  The images are shuffled by default.

``FashionMnistDataset`` (Zalando's Fashion-MNIST) and ``KMnistDataset``
(Kuzushiji-MNIST) are drop-in replacements stored in the same four files, read the
same way.
"""
import os
import struct

import numpy as np

from .sources import _RandomAccessSource

__all__ = ["MnistDataset", "FashionMnistDataset", "KMnistDataset", "read_idx", "write_idx"]

_IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
_FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
          "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}


def read_idx(path):
    """The array stored in an IDX file (ValueError naming the file when it is malformed)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] not in _IDX_TYPES:
        raise ValueError(f"Invalid IDX file {path}: the magic number must be 00 00 <type> <ndim> "
                         f"with a known type, but the file starts with {data[:4].hex()}.")
    ndim = data[3]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise ValueError(f"Invalid IDX file {path}: truncated header ({len(data)} bytes).")
    dims = struct.unpack(f">{ndim}I", data[4:header])
    dtype = np.dtype(_IDX_TYPES[data[2]])
    expected = int(np.prod(dims, dtype=np.int64)) * dtype.itemsize
    if len(data) - header != expected:
        raise ValueError(f"Invalid IDX file {path}: shape {list(dims)} needs {expected} bytes of "
                         f"data but the file holds {len(data) - header}.")
    return np.frombuffer(data, dtype=dtype, offset=header).reshape(dims).astype(dtype.newbyteorder("="))


def write_idx(path, array):
    """Write ``array`` (uint8, int8, int16, int32, float32 or float64) as an IDX file."""
    array = np.asarray(array)
    codes = {np.dtype(v).newbyteorder("="): k for k, v in _IDX_TYPES.items()}
    code = codes.get(array.dtype)
    if code is None:
        raise TypeError(f"write_idx: unsupported dtype {array.dtype}.")
    with open(path, "wb") as f:
        f.write(bytes([0, 0, code, array.ndim]))
        f.write(struct.pack(f">{array.ndim}I", *array.shape))
        f.write(array.astype(np.dtype(_IDX_TYPES[code])).tobytes())


class MnistDataset(_RandomAccessSource):
    """MnistDataset(dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
    shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None)"""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        # the folder is checked before the other arguments, as MindSpore 2.10 checks it
        if not os.path.isdir(dataset_dir):
            raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory or "
                             f"permission denied!")
        super().__init__(shuffle, num_samples, sampler, num_shards, shard_id,
                         num_parallel_workers, type(self).__name__)
        name = type(self).__name__
        usage = "all" if usage is None else usage
        if usage not in ("train", "test", "all"):
            raise ValueError(f"For '{name}', the 'usage' must be 'train', 'test' or 'all', "
                             f"but got {usage!r}.")
        parts = ("test", "train") if usage == "all" else (usage,)
        images, labels = [], []
        for part in parts:
            image_file, label_file = (os.path.join(dataset_dir, name) for name in _FILES[part])
            if not (os.path.exists(image_file) and os.path.exists(label_file)):
                if usage == "all":
                    continue
                raise RuntimeError(f"For '{name}', the {part} files {image_file} and "
                                   f"{label_file} must both exist.")
            part_images, part_labels = read_idx(image_file), read_idx(label_file)
            if len(part_images) != len(part_labels):
                raise RuntimeError(f"Invalid mnist file, the images number of {image_file} should "
                                   f"be equal to the labels number of {label_file}, but got images "
                                   f"number: {len(part_images)}, labels number: "
                                   f"{len(part_labels)}.")
            images.append(part_images.astype(np.uint8))
            labels.append(part_labels.astype(np.uint32))
        if not images:
            raise RuntimeError(f"For '{name}', no MNIST IDX files were found in "
                               f"{dataset_dir}.")
        self.images = np.concatenate(images)[..., None]
        self.labels = np.concatenate(labels)
        self.dataset_dir = dataset_dir
        self.usage = usage

    def __len__(self):
        return len(self.labels)

    def row_at(self, index):
        return self.images[index], np.array(self.labels[index])

    def get_col_names(self):
        return ["image", "label"]


class FashionMnistDataset(MnistDataset):
    """FashionMnistDataset(dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
    shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None): Fashion-MNIST,
    the MNIST file layout with 10 clothing classes."""


class KMnistDataset(MnistDataset):
    """KMnistDataset(dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
    shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None): Kuzushiji-MNIST,
    the MNIST file layout with 10 cursive Japanese characters."""
