"""``refms.dataset``: data pipelines in pure Python (mirrors ``mindspore.dataset``).

Reading order: :mod:`~refms.dataset.dataset` (the pipeline and its
operations), :mod:`~refms.dataset.iterators` (epochs, Tensor output),
:mod:`~refms.dataset.sources` and :mod:`~refms.dataset.mnist` (where rows come
from), :mod:`~refms.dataset.config` (the seed).  Everything runs in the
calling thread; ``num_parallel_workers`` and similar arguments are accepted
and ignored.
"""
from . import config, transforms, vision
from .dataset import Dataset
from .sources import NumpySlicesDataset, GeneratorDataset
from .mnist import MnistDataset

__all__ = ["Dataset", "NumpySlicesDataset", "GeneratorDataset", "MnistDataset", "config",
           "transforms", "vision"]
