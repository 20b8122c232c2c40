"""``sync_wait`` / ``sync_update``: a pipeline that waits for the training loop.

``dataset.sync_wait(condition_name, num_batch=1, callback=None)`` inserts a
gate: it lets ``num_batch`` rows through, then waits until the loop calls
``dataset.sync_update(condition_name, num_batch=None, data=None)`` on the
pipeline (any node above the gate), which calls ``callback(data)`` and lets
the next ``num_batch`` rows (default: the gate's own) through.  The count of
rows let through runs on across epochs.  The loop can so change what later
rows become, e.g. an augmentation policy updated after each step (MindSpore
tutorial "Auto Augmentation", ``sync_wait``).

refms pulls rows only when the consumer asks, so a gate never runs ahead: a
row the gate may not yet pass means the loop asked for it without calling
``sync_update`` first, which in MindSpore would wait forever; here it is a
``RuntimeError`` saying so.
"""
from .dataset import COMBINATORS, Dataset

__all__ = ["SyncWaitDataset", "sync_update"]


class SyncWaitDataset(Dataset):
    """The child's rows, ``num_batch`` at a time between ``sync_update`` calls."""

    def __init__(self, child, condition_name, num_batch=1, callback=None):
        super().__init__([child])
        if not isinstance(condition_name, str):
            raise TypeError(f"For 'sync_wait', the 'condition_name' must be a str, but got "
                            f"{type(condition_name).__name__}.")
        if isinstance(num_batch, bool) or not isinstance(num_batch, int) or num_batch <= 0:
            raise ValueError(f"For 'sync_wait', the 'num_batch' must be a positive int, but got "
                             f"{num_batch!r}.")
        if callback is not None and not callable(callback):
            raise TypeError(f"For 'sync_wait', the 'callback' must be callable, but got "
                            f"{type(callback).__name__}.")
        self.condition_name = condition_name
        self.num_batch = num_batch
        self.callback = callback
        self.allowed = num_batch        # rows the gate may pass in all, so far
        self.passed = 0

    def update(self, num_batch=None, data=None):
        if self.callback is not None:
            self.callback(data)
        self.allowed += self.num_batch if num_batch is None else num_batch

    def rows(self, epoch):
        for row in self.children[0].rows(epoch):
            if self.passed >= self.allowed:
                raise RuntimeError(f"The pipeline waits at sync_wait('{self.condition_name}') "
                                   f"for a sync_update call: {self.passed} rows passed, and "
                                   f"sync_update was not called before the next was asked for.")
            self.passed += 1
            yield row


def sync_update(dataset, condition_name, num_batch=None, data=None):
    """Release the gate named ``condition_name`` below ``dataset``."""
    if num_batch is not None and (isinstance(num_batch, bool) or not isinstance(num_batch, int)
                                  or num_batch <= 0):
        raise RuntimeError(f"For 'sync_update', the 'num_batch' must be a positive int, but got "
                           f"{num_batch!r}.")
    stack = [dataset]
    while stack:
        node = stack.pop()
        if isinstance(node, SyncWaitDataset) and node.condition_name == condition_name:
            node.update(num_batch, data)
            return
        stack.extend(node.children)
    raise RuntimeError(f"For 'sync_update', the pipeline has no sync_wait named "
                       f"'{condition_name}'.")


COMBINATORS.update(sync_wait=SyncWaitDataset, sync_update=sync_update)
