"""Tensor gradient hooks are stored with the tensor (semantics 5.1): ``handle.remove()``
deletes one, and a tensor that is no longer used is freed together with its hooks."""
import gc
import weakref

import refms as ms
from refms import Tensor


class Recorder:
    """A hook that remembers the gradients it saw (an object, so a weak reference can watch it)."""

    def __init__(self):
        self.seen = []

    def __call__(self, grad):
        self.seen.append(grad.asnumpy().tolist())


def test_remove_deletes_the_hook_from_the_tensor():
    x = Tensor(3.0)
    hook = Recorder()
    handle = x.register_hook(hook)
    assert ms.grad(lambda a: a * a)(x).item() == 6.0
    assert hook.seen == [6.0]
    handle.remove()
    assert not x._grad_hooks
    ms.grad(lambda a: a * a)(x)
    assert hook.seen == [6.0]
    handle.remove()                      # removing twice is harmless


def test_a_hooked_tensor_and_its_hook_are_garbage_collected():
    x = Tensor([1.0, 2.0])
    hook = Recorder()
    handle = x.register_hook(hook)
    assert ms.grad(lambda a: (a * a).sum())(x).asnumpy().tolist() == [2.0, 4.0]
    assert hook.seen == [[2.0, 4.0]]
    tensor_ref, hook_ref = weakref.ref(x), weakref.ref(hook)
    del x, hook
    gc.collect()
    assert tensor_ref() is None          # no global table keeps the tensor alive
    assert hook_ref() is None            # nor its hook (the handle holds only the hook table)
    handle.remove()                      # a handle outliving its tensor is harmless
