"""``HookHandle``: what every ``register_*hook`` returns; ``remove()`` deletes that one hook.

A handle refers weakly to the ordered dictionary its hook sits in (a
tensor's gradient hooks, one kind of a cell's hooks), so a handle kept by the
user keeps neither the tensor or cell nor the hook alive.
"""
import itertools
import weakref

__all__ = ["HookHandle"]

_IDS = itertools.count()


class HookHandle:
    """Returned by every ``register_*hook``; ``remove()`` deletes that hook."""

    def __init__(self, hooks=None, key=None):
        """``hooks``: the ``OrderedDict`` the hook is stored in (None: a handle of nothing)."""
        self._hooks = None if hooks is None else weakref.ref(hooks)
        self.handle_id = next(_IDS) if key is None else key

    def remove(self):
        hooks = None if self._hooks is None else self._hooks()
        if hooks is not None:
            hooks.pop(self.handle_id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
