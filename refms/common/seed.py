"""``mindspore.common.seed``: the global seed functions (:mod:`refms.seed`)."""
from ..seed import set_seed, get_seed

__all__ = ["set_seed", "get_seed"]

