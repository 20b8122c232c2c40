"""Gradient hooks on tensors (``Tensor.register_hook``) and the handle returned by every hook API."""
import itertools

from . import tape as _tape

__all__ = ["HookHandle", "register_tensor_hook"]

_IDS = itertools.count()


class HookHandle:
    """Returned by every ``register_*hook``; ``remove()`` deletes that hook."""

    def __init__(self, hooks=None, key=None):
        self._hooks = hooks
        self.handle_id = next(_IDS) if key is None else key

    def remove(self):
        if self._hooks is not None:
            self._hooks.pop(self.handle_id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_tensor_hook(tensor, hook_fn):
    """Run ``hook_fn(grad)`` when ``tensor``'s gradient is complete; a returned Tensor replaces it."""
    if not callable(hook_fn):
        raise TypeError(f"For 'Tensor.register_hook', the 'hook_fn' should be a function, but got "
                        f"{type(hook_fn).__name__}.")
    entry = _tape.TENSOR_HOOKS.get(id(tensor))
    if entry is None or entry[0] is not tensor:
        entry = _tape.TENSOR_HOOKS[id(tensor)] = (tensor, {})
    handle = HookHandle(entry[1])
    entry[1][handle.handle_id] = hook_fn
    return handle
