"""Printing tensors: ``str`` is numpy's, ``repr`` is MindSpore's own format (SEMANTICS.md 1.4-1.5).

PLACEHOLDER: the full MindSpore repr is being written; this minimal version is replaced.
"""
import numpy as np


def tensor_str(t):
    if t._data is None:
        return f"Tensor(shape={list(t.shape)}, dtype={t.dtype}, value=\n<uninitialized>)"
    return str(t._data)


def tensor_repr(t):
    return f"Tensor(shape={list(t.shape)}, dtype={t.dtype}, value={t._data!r})"
