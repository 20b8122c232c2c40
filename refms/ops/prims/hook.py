"""HookBackward: an identity op whose backward calls a user function with the gradient."""
import warnings

from ..primitive import Primitive, Abstract, register


@register
class HookBackward(Primitive):
    """y = x (one input -> a Tensor, several -> a tuple).

    Backward (PyNative only, semantics 5.1): ``hook_fn`` receives a tuple of
    the gradients w.r.t. the outputs; ``None`` keeps them, a tuple (or a bare
    Tensor for one input) replaces them.  Graph mode and ``jit`` ignore the
    hook, as MindSpore 2.10 does; setting ``cell_id`` disables it (with a warning).
    """
    n_tensor_inputs = None
    identity_in_graph = True

    def __init__(self, hook_fn, cell_id=""):
        if not callable(hook_fn):
            raise TypeError(f"For 'HookBackward', the 'hook_fn' should be a function, but got "
                            f"{type(hook_fn).__name__}.")
        self.hook_fn = hook_fn
        self.cell_id = cell_id
        if cell_id:
            warnings.warn("For 'HookBackward', 'cell_id' is deprecated; the hook is disabled "
                          "when it is set.", stacklevel=2)

    def infer(self, *inputs):
        if not inputs:
            raise TypeError("For 'HookBackward', the inputs should not be empty.")
        abstracts = tuple(Abstract(x.shape, x.dtype) for x in inputs)
        return abstracts[0] if len(abstracts) == 1 else abstracts

    def forward(self, *arrays):
        return arrays[0] if len(arrays) == 1 else tuple(arrays)

    def bprop(self, *args):
        inputs, dout = args[:-2], args[-1]
        douts = dout if isinstance(dout, tuple) else (dout,)
        if self.cell_id:
            return douts
        result = self.hook_fn(douts)
        if result is None:
            return douts
        if not isinstance(result, (tuple, list)):
            result = (result,)
        if len(result) != len(inputs):
            raise TypeError(f"For 'HookBackward', the hook function returned {len(result)} "
                            f"gradient(s) but the op has {len(inputs)} input(s).")
        return tuple(result)
