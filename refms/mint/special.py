"""``mint.special``: erfc, expm1, exp2, round, sinc, log1p, log_softmax (the same functions as
``mint``'s)."""
from ._pointwise import erfc, expm1, exp2, round, sinc, log1p  # noqa: F401,A004
from .nn.functional import log_softmax  # noqa: F401

__all__ = ["erfc", "expm1", "exp2", "round", "sinc", "log1p", "log_softmax"]
