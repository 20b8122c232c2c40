"""``refms.mindrecord``: MindSpore's MindRecord file format, written and read in Python.

:mod:`~refms.mindrecord.layout` describes the bytes (read it first),
:mod:`~refms.mindrecord.msgpack` the encoding of scalar fields,
:mod:`~refms.mindrecord.writer` writes shards (``FileWriter``) and
:mod:`~refms.mindrecord.reader` reads them (``FileReader``, and
``refms.dataset.MindDataset`` on top).  Files are exchangeable with MindSpore.
"""
from .writer import FileWriter, SUCCESS
from .reader import FileReader

__all__ = ["FileWriter", "FileReader", "SUCCESS"]
