"""``Cifar10Dataset`` and ``Cifar100Dataset``: the binary versions of CIFAR (Krizhevsky 2009).

A binary batch file is a run of fixed-size records::

    CIFAR-10 record  := label (1 byte) · image (3072 bytes)
    CIFAR-100 record := coarse label (1 byte) · fine label (1 byte) · image (3072 bytes)
    image            := the red, green and blue 32×32 planes, row-major (CHW)

Files: CIFAR-10 ``data_batch_1.bin`` … ``data_batch_5.bin`` (train) and
``test_batch.bin``; CIFAR-100 ``train.bin`` and ``test.bin``.  ``usage`` is
``'train'``, ``'test'`` or ``'all'`` (train then test).  Rows: ``image`` uint8
(32, 32, 3) HWC, then ``label`` (or ``coarse_label``, ``fine_label``) as
uint32 0-d arrays, as in MindSpore.  Files are memory-mapped: rows are read
when asked for.
"""
import glob
import os

import numpy as np

from .sources import _RandomAccessSource

__all__ = ["Cifar10Dataset", "Cifar100Dataset"]

_IMAGE_BYTES = 3 * 32 * 32


class _CifarDataset(_RandomAccessSource):
    labels_per_record = 1
    label_names = ("label",)
    kind = "cifar10"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = type(self).__name__
        # the folder is checked before the other arguments, as MindSpore 2.10 checks it
        if not isinstance(dataset_dir, str) or not os.path.isdir(dataset_dir):
            raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory or "
                             f"permission denied!")
        super().__init__(shuffle, num_samples, sampler, num_shards, shard_id,
                         num_parallel_workers, op)
        usage = "all" if usage is None else usage
        if usage not in ("train", "test", "all"):
            raise ValueError(f"For '{op}', the 'usage' must be 'train', 'test' or 'all', but got "
                             f"{usage!r}.")
        files = []
        for part in ("train", "test"):
            if usage in (part, "all"):
                files += self.files(dataset_dir, part)
        if not files:
            raise RuntimeError(f"Invalid file, no {self.kind} {usage} files were found in "
                               f"{dataset_dir}.")
        record = self.labels_per_record + _IMAGE_BYTES
        self.maps = []
        for path in files:
            size = os.path.getsize(path)
            if size % record:
                raise RuntimeError(f"Invalid {self.kind} file, {path} holds {size} bytes, not a "
                                   f"whole number of {record}-byte records: the file is truncated "
                                   f"or not the {self.kind.upper()} binary version.")
            self.maps.append(np.memmap(path, np.uint8, "r", shape=(size // record, record)))
        self.starts = np.cumsum([0] + [len(m) for m in self.maps])

    def __len__(self):
        return int(self.starts[-1])

    def row_at(self, index):
        which = int(np.searchsorted(self.starts, index, side="right")) - 1
        record = self.maps[which][index - int(self.starts[which])]
        image = np.ascontiguousarray(
            record[self.labels_per_record:].reshape(3, 32, 32).transpose(1, 2, 0))
        labels = tuple(np.array(record[i], np.uint32) for i in range(self.labels_per_record))
        return (image,) + labels

    def get_col_names(self):
        return ["image"] + list(self.label_names)


class Cifar10Dataset(_CifarDataset):
    """Cifar10Dataset(dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
    shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None)"""

    @staticmethod
    def files(folder, part):
        if part == "test":
            path = os.path.join(folder, "test_batch.bin")
            return [path] if os.path.exists(path) else []
        return sorted(glob.glob(os.path.join(folder, "data_batch_*.bin")))


class Cifar100Dataset(_CifarDataset):
    """Cifar100Dataset(dataset_dir, usage=None, ...): columns image, coarse_label, fine_label."""

    labels_per_record = 2
    label_names = ("coarse_label", "fine_label")
    kind = "cifar100"

    @staticmethod
    def files(folder, part):
        path = os.path.join(folder, f"{part}.bin")
        return [path] if os.path.exists(path) else []
