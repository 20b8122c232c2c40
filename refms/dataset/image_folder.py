"""``ImageFolderDataset``: one sub-folder per class, images decoded with Pillow.

Classes are the sub-folder names in sorted order, numbered 0, 1, … (or as
``class_indexing`` says); files are listed in sorted order within each
class.  Without ``extensions`` every file counts (MindSpore does the same, so a
stray text file fails at decode time); extensions match case-sensitively.

Rows: ``image`` — the file's bytes as a uint8 1-D array, or with ``decode=True``
the RGB image (H, W, 3) uint8 — and ``label`` int32 0-d.
"""
import os

import numpy as np

from .sources import _RandomAccessSource

__all__ = ["ImageFolderDataset", "decode_image"]


def decode_image(data, where):
    """RGB uint8 (H, W, 3) from encoded bytes (RuntimeError naming ``where`` when broken)."""
    import io
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(io.BytesIO(data)) as image:
            return np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as e:
        raise RuntimeError(f"Invalid image, {where} decode failed, the image is broken or "
                           f"permission denied ({e}).") from None


class ImageFolderDataset(_RandomAccessSource):
    """ImageFolderDataset(dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
    sampler=None, extensions=None, class_indexing=None, decode=False, num_shards=None,
    shard_id=None, cache=None, decrypt=None)"""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False,
                 num_shards=None, shard_id=None, cache=None, decrypt=None):
        # the folder is checked before the other arguments, as MindSpore 2.10 checks it
        if not isinstance(dataset_dir, str) or not os.path.isdir(dataset_dir):
            raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory or "
                             f"permission denied!")
        super().__init__(shuffle, num_samples, sampler, num_shards, shard_id,
                         num_parallel_workers, "ImageFolderDataset")
        classes = sorted(d for d in os.listdir(dataset_dir)
                         if os.path.isdir(os.path.join(dataset_dir, d)))
        if class_indexing is None:
            class_indexing = {name: i for i, name in enumerate(classes)}
        else:
            unknown = [name for name in class_indexing if name not in classes]
            if unknown:
                raise RuntimeError(f"For 'ImageFolderDataset', the classes {unknown} of "
                                   f"'class_indexing' are not sub-folders of {dataset_dir}.")
        self.class_indexing = dict(class_indexing)
        self.items = []
        for name in classes:
            if name not in self.class_indexing:
                continue
            folder = os.path.join(dataset_dir, name)
            for file in sorted(os.listdir(folder)):
                path = os.path.join(folder, file)
                if os.path.isfile(path) and (extensions is None or
                                             os.path.splitext(file)[1] in extensions):
                    self.items.append((path, self.class_indexing[name]))
        self.decode = decode

    def __len__(self):
        return len(self.items)

    def row_at(self, index):
        path, label = self.items[index]
        with open(path, "rb") as f:
            data = np.frombuffer(f.read(), np.uint8)
        image = decode_image(data, path) if self.decode else data
        return image, np.array(label, np.int32)

    def labels(self, column):
        return [label for _, label in self.items]

    def get_class_indexing(self):
        return dict(self.class_indexing)

    def get_col_names(self):
        return ["image", "label"]
