"""Keyword arguments with MindSpore's parameter names on the functional ops.

Many functional ops are registered as ``fn(*args)`` (one spelling of a
primitive call), so ``ops.add(input=x, other=y)`` or
``ops.expand_dims(x, axis=0)`` would fail.  ``apply_signatures`` wraps
every functional op listed in ``refms.ops.signature_table.SIGNATURES``
(MindSpore 2.10's parameter lists, recorded from MindSpore) so that it also
accepts keywords:

* a call without keywords goes straight to the op (unchanged behaviour);
* with keywords, the arguments are bound to MindSpore's parameter list,
  then passed by position up to the last one given (gaps take MindSpore's
  default); MindSpore's keyword-only parameters are passed as keywords;
* an unknown keyword raises ``TypeError`` naming the op and its parameters,
  as Python would for MindSpore's own function;
* a value that is not a Tensor where the op needs one (``None``, a list, a
  string, a dtype) raises ``TypeError`` naming the op and the argument, as
  MindSpore's argument checks do (refms's op bodies are written for Tensors, so
  such a value would otherwise surface as an ``AttributeError`` from inside).

The wrapper shows MindSpore's signature to ``inspect.signature``.
"""
import ast
import functools
import inspect

from .primitive import EXECUTOR
from .signature_table import SIGNATURES


class NotATensorError(TypeError, AttributeError):
    """A value that is not a Tensor (None, a list, a string, a dtype) where an op needs one.

    A ``TypeError`` whose message names the op and the argument.  It is also an
    ``AttributeError`` because MindSpore 2.10 lets several ops and layers (``ops.max``,
    ``ops.argmax``, ``ops.conv2d``, ``nn.MaxPool2d``...) leak ``AttributeError`` for such
    inputs (recorded): a script that catches either type keeps working on refms.
    """

__all__ = ["apply_signatures", "signature_of", "not_a_tensor", "NotATensorError"]

_KINDS = {"p": inspect.Parameter.POSITIONAL_OR_KEYWORD, "k": inspect.Parameter.KEYWORD_ONLY,
          "v": inspect.Parameter.VAR_POSITIONAL, "w": inspect.Parameter.VAR_KEYWORD}
_NO_DEFAULT = inspect.Parameter.empty


def _default(text):
    if text is None:
        return _NO_DEFAULT
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return _NO_DEFAULT if text.startswith("<") else _Unparsed(text)


class _Unparsed:
    """A default whose source text is not a literal (``mstype.float32``...): shown, never passed."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def signature_of(name):
    """MindSpore's :class:`inspect.Signature` of the functional op ``name``."""
    params = []
    for pname, kind, default in SIGNATURES[name]:
        value = _default(default)
        if kind in ("v", "w"):
            value = _NO_DEFAULT
        params.append(inspect.Parameter(pname, _KINDS[kind], default=value))
    return inspect.Signature(params)


def _wrap(name, fn, sig):
    positional = [p for p in sig.parameters.values()
                  if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    has_var = any(p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
                  for p in sig.parameters.values())

    prim = getattr(fn, "primitive", None)     # set by ``alias``: fn(*args) = prim(*args)

    @functools.wraps(fn)
    def op(*args, **kwargs):
        try:
            if not kwargs:                  # the common call: straight to the op
                if prim is not None:        # one call less: the executor runs the primitive
                    return EXECUTOR[0](prim, args)
                return fn(*args)
            return _call(args, kwargs)
        except (AttributeError, NotATensorError) as exc:
            error = not_a_tensor(name, sig, args, kwargs, exc)
            if error is None:
                raise
            raise error from None

    def _call(args, kwargs):
        if not kwargs or has_var:
            return fn(*args, **kwargs)
        try:
            bound = sig.bind_partial(*args, **kwargs)
        except TypeError as exc:
            names = ", ".join(sig.parameters)
            raise TypeError(f"For '{name}', {exc} (the parameters are: {names}).") from None
        given = bound.arguments
        last = max((i for i, p in enumerate(positional) if p.name in given), default=-1)
        call = []
        for p in positional[:last + 1]:
            if p.name in given:
                call.append(given[p.name])
            elif p.default is _NO_DEFAULT or isinstance(p.default, _Unparsed):
                raise TypeError(f"For '{name}', missing the argument '{p.name}'.")
            else:
                call.append(p.default)
        extra = {k: v for k, v in given.items()
                 if sig.parameters[k].kind is inspect.Parameter.KEYWORD_ONLY}
        return fn(*call, **extra)

    op.__signature__ = sig
    op.__wrapped_op__ = fn
    return op


#: Values that are never Tensors, by the type name Python's AttributeError message uses.
_NOT_TENSORS = (type(None), list, tuple, str, dict)


def not_a_tensor(name, sig, args, kwargs, exc):
    """The ``TypeError`` for an ``AttributeError`` (or :class:`NotATensorError`) that a
    non-Tensor argument caused in the call of ``name`` with signature ``sig``, or None."""
    try:
        given = sig.bind_partial(*args, **kwargs).arguments
    except TypeError:
        return None
    message = str(exc)
    failed_on = getattr(exc, "obj", None)      # the object an attribute lookup failed on
    for pname, value in given.items():
        kind = type(value).__name__
        is_dtype = type(value).__module__.endswith("dtype")
        if isinstance(exc, NotATensorError):
            named = message.endswith(f"got {kind}.")
        elif value is None or failed_on is None:
            named = f"'{kind}' object" in message
        else:                                  # the lookup failed on this very argument
            named = failed_on is value
        if (isinstance(value, _NOT_TENSORS) or is_dtype) and named:
            return NotATensorError(f"For '{name}', the argument '{pname}' must be a Tensor, "
                                   f"but got {kind}.")
    return None


def apply_signatures(functional):
    """Wrap, in place, every entry of the ``functional`` dict that has a recorded signature."""
    for name, fn in list(functional.items()):
        if name in SIGNATURES and not hasattr(fn, "__wrapped_op__"):
            functional[name] = _wrap(name, fn, signature_of(name))
    return functional
