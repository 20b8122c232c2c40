"""``refms.dataset``: data pipelines in pure Python (mirrors ``mindspore.dataset``).

Reading order: :mod:`~refms.dataset.dataset` (the pipeline and its
operations), :mod:`~refms.dataset.iterators` (epochs, Tensor output),
:mod:`~refms.dataset.samplers` (which rows a source reads),
:mod:`~refms.dataset.sources` and the file formats (:mod:`~refms.dataset.mnist`,
:mod:`~refms.dataset.cifar`, :mod:`~refms.dataset.image_folder`,
:mod:`~refms.dataset.mindrecord_source`, :mod:`~refms.dataset.text_files`),
:mod:`~refms.dataset.parallel` (ordered worker pools), :mod:`~refms.dataset.config`
(the seed); then the transforms: :mod:`~refms.dataset.transforms`,
:mod:`~refms.dataset.vision`, :mod:`~refms.dataset.text`, :mod:`~refms.dataset.audio`.
``Dataset.save`` writes a pipeline to MindRecord (:mod:`~refms.dataset.save`).

Not provided: ``TFRecordDataset``.  A TFRecord file is a sequence of
length-prefixed, CRC-32C-checked frames, each a ``tf.train.Example`` protocol
buffer; none of refms's dependencies (numpy, scipy, Pillow) reads that format
or computes CRC-32C, and writing a TensorFlow-format reader is outside this
package.  Convert such data to MindRecord (or numpy) with TensorFlow first.
"""
from . import config, transforms, vision, text, audio
from .dataset import Dataset
from .combine import zip_datasets as zip
from . import filter as _filter, sync as _sync  # noqa: F401  (they fill dataset.COMBINATORS)
from .samplers import (Sampler, SequentialSampler, RandomSampler, SubsetSampler,
                       SubsetRandomSampler, WeightedRandomSampler, DistributedSampler, PKSampler)
from .sources import NumpySlicesDataset, GeneratorDataset
from .mnist import MnistDataset, FashionMnistDataset, KMnistDataset
from .mindrecord_source import MindDataset, Shuffle
from .cifar import Cifar10Dataset, Cifar100Dataset
from .image_folder import ImageFolderDataset
from .text_files import TextFileDataset, CSVDataset

__all__ = ["Dataset", "NumpySlicesDataset", "GeneratorDataset", "MnistDataset", "FashionMnistDataset", "KMnistDataset",
           "MindDataset",
           "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "TextFileDataset",
           "CSVDataset",
           "Shuffle", "Sampler", "SequentialSampler", "RandomSampler", "SubsetSampler",
           "SubsetRandomSampler", "WeightedRandomSampler", "DistributedSampler", "PKSampler",
           "config", "transforms", "vision", "text", "audio"]


def __getattr__(name):
    if name == "TFRecordDataset":
        raise AttributeError("refms.dataset has no TFRecordDataset: reading TFRecord files needs "
                             "TensorFlow's record framing and protocol buffers, which refms's "
                             "dependencies do not provide; convert the data to MindRecord first.")
    raise AttributeError(f"module 'refms.dataset' has no attribute '{name}'")
