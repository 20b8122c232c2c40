"""``nn.Embedding``: a lookup table; y[..., :] = table[ids[...], :].

``embedding_table`` (vocab_size, embedding_size) is initialised with
``embedding_table`` (default ``'normal'``, N(0, 0.01²)); ``padding_idx``
zeroes that row at construction.  ``use_one_hot=True`` computes the lookup as
one_hot(ids) · table (same values, a dense gradient path).
"""
from ... import dtype as mstype
from ...initializer import initializer
from ...ops import functional as F
from ...parameter import Parameter
from ..._tensor import Tensor
from ..cell import Cell

__all__ = ["Embedding"]


class Embedding(Cell):
    """Embedding(vocab_size, embedding_size, use_one_hot=False, embedding_table='normal', dtype=float32, padding_idx=None)"""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.float32, padding_idx=None):
        super().__init__()
        for name, value in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For '{self.cls_name}', the '{name}' must be int, but got "
                                f"{type(value).__name__}.")
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"For '{self.cls_name}', the 'use_one_hot' must be bool, but got "
                            f"{type(use_one_hot).__name__}.")
        self.vocab_size = vocab_size
        self.embedding_size = embedding_size
        self.use_one_hot = use_one_hot
        self.dtype = mstype.to_dtype(dtype)
        table = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) \
                    or not 0 <= padding_idx < vocab_size:
                raise ValueError(f"For '{self.cls_name}', the 'padding_idx' must be in range "
                                 f"[0, {vocab_size}), but got {padding_idx}.")
            values = (table.init_data() if table.has_init else table).asnumpy()
            values[padding_idx] = 0
            table = Tensor(values, table.dtype)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat_ids = F.reshape(ids, (-1,))
        if self.use_one_hot:
            one_hot = F.cast(F.one_hot(flat_ids, self.vocab_size), self.embedding_table.dtype)
            rows = F.matmul(one_hot, self.embedding_table)
        else:
            rows = F.gather(self.embedding_table, flat_ids, 0)
        return F.reshape(rows, out_shape)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")
