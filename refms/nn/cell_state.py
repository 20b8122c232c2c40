"""A Cell's buffers and its state dict (MindSpore 2.10's ``Cell.register_buffer``, ``state_dict``).

A *buffer* is a Tensor that belongs to a cell's state without being a trainable
Parameter (a running statistic, a fixed mask).  ``register_buffer(name, tensor)``
keeps it in the cell's ``_buffers`` ordered dict; ``cell.name`` reads it.

``state_dict()`` is an ordered dict of the cell's state: first the cell's own
Parameters, then its persistent buffers, then each child cell's entries under
``child_name.`` (the keys are attribute paths, not ``Parameter.name``).
``load_state_dict(d)`` copies the values of ``d`` into that state and reports the
keys that were missing or unexpected.  The order and the ``<All keys matched
successfully>`` result follow MindSpore 2.10's ``mindspore/nn/cell.py``.
"""
from collections import OrderedDict, namedtuple

from .. import dtype as mstype
from .._tensor import Tensor
from ..hook_handle import HookHandle
from ..parameter import Parameter

__all__ = ["CellState", "IncompatibleKeys"]


class IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it did not find, the keys it did not use."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class CellState:
    """The buffer and state-dict methods of :class:`refms.nn.Cell` (a mixin)."""

    def _state_registry(self, name):
        """The cell's ordered dict ``name`` (``_buffers``, ``_state_dict_pre_hooks``…), made
        on first use."""
        registry = self.__dict__.get(name)
        if registry is None:
            registry = OrderedDict()
            self.__dict__[name] = registry
        return registry

    def register_buffer(self, name, tensor, persistent=True):
        """Keep ``tensor`` as the buffer ``name`` (``None`` reserves the name); a
        non-persistent buffer is left out of ``state_dict``."""
        if not isinstance(name, str):
            raise TypeError(f"For 'register_buffer', the buffer name must be str, but got "
                            f"{type(name).__name__}.")
        if not name or "." in name:
            raise KeyError(f"For 'register_buffer', the buffer name can not be empty or "
                           f"contain '.', but got '{name}'.")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"For 'register_buffer', the buffer '{name}' must be a Tensor or "
                            f"None, but got {type(tensor).__name__}.")
        if name in self.__dict__.get("_params", {}) or name in self.__dict__.get("_cells", {}):
            raise KeyError(f"For 'register_buffer', the attribute '{name}' already exists.")
        self.__dict__.pop(name, None)
        self._state_registry("_buffers")[name] = tensor
        non_persistent = self._state_registry("_non_persistent_buffers")
        if persistent:
            non_persistent.pop(name, None)
        else:
            non_persistent[name] = True

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """``(path, buffer)`` of this cell's buffers and, with ``recurse``, its children's."""
        seen = set()
        cells = self.cells_and_names() if recurse else [("", self)]
        for cell_name, cell in cells:
            for name, buffer in cell.__dict__.get("_buffers", {}).items():
                if buffer is None or (remove_duplicate and id(buffer) in seen):
                    continue
                seen.add(id(buffer))
                path = ".".join(p for p in (prefix, cell_name, name) if p)
                yield path, buffer

    def buffers(self, recurse=True):
        """The buffers of ``named_buffers``, without their names."""
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_sub_cell(self, target):
        """The cell at the attribute path ``target`` (``"net_b.net_c"``; ``""`` is this cell)."""
        cell = self
        for part in target.split(".") if target else []:
            children = cell.__dict__.get("_cells", {})
            if part not in children:
                raise AttributeError(f"For 'get_sub_cell', the cell '{type(cell).__name__}' has "
                                     f"no sub cell '{part}' (target '{target}').")
            cell = children[part]
        return cell

    def get_buffer(self, target):
        """The buffer at the attribute path ``target`` (``"net_b.net_c.buffer_c"``)."""
        cell_path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        buffers = cell.__dict__.get("_buffers", {})
        if name not in buffers:
            raise AttributeError(f"For 'get_buffer', the cell '{type(cell).__name__}' has no "
                                 f"buffer '{name}' (target '{target}').")
        return buffers[name]

    def register_state_dict_pre_hook(self, hook):
        """Call ``hook(cell, prefix, keep_vars)`` before ``state_dict`` collects this cell."""
        hooks = self._state_registry("_state_dict_pre_hooks")
        handle = HookHandle(hooks)
        hooks[handle.handle_id] = hook
        return handle

    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """The ordered dict of this cell's Parameters and persistent buffers, then its
        children's under ``child_name.``."""
        if destination is None:
            destination = OrderedDict()
        for hook in list(self.__dict__.get("_state_dict_pre_hooks", {}).values()):
            hook(self, prefix, keep_vars)
        for name, param in self.__dict__.get("_params", {}).items():
            if param is not None:
                destination[prefix + name] = param
        skip = self.__dict__.get("_non_persistent_buffers", {})
        for name, buffer in self.__dict__.get("_buffers", {}).items():
            if buffer is not None and name not in skip:
                destination[prefix + name] = buffer
        for name, child in self.__dict__.get("_cells", {}).items():
            if child is not None:
                child.state_dict(destination=destination, prefix=prefix + name + ".",
                                 keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True):
        """Copy the values of ``state_dict`` into this cell's Parameters and buffers; returns
        the missing and unexpected keys (``strict``: either is a RuntimeError)."""
        own = self.state_dict()
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        if strict and (missing or unexpected):
            raise RuntimeError(f"For 'load_state_dict', the keys do not match: missing "
                               f"{missing}, unexpected {unexpected}.")
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            value = value if isinstance(value, Tensor) else Tensor(value)
            if isinstance(target, Parameter):
                target.set_data(value.astype(target.dtype))
            else:                      # a buffer: a plain Tensor with the loaded values
                cell_path, _, name = key.rpartition(".")
                buffer = Tensor(value.asnumpy(), target.dtype)
                self.get_sub_cell(cell_path).__dict__["_buffers"][name] = buffer
        return IncompatibleKeys(missing, unexpected)

    def to(self, *args, device=None, dtype=None, non_blocking=False):
        """``to(dtype)``, ``to(device=None, dtype=None)`` or ``to(tensor)``: cast the floating
        Parameters and buffers to ``dtype`` (refms runs on one host device, so ``device``
        only names it); returns the cell."""
        for arg in args:
            if isinstance(arg, Tensor):
                dtype = arg.dtype
            elif isinstance(arg, str):
                device = arg
            else:
                dtype = arg
        if dtype is None:
            return self
        dtype = mstype.to_dtype(dtype)
        if dtype.kind not in ("float", "complex"):
            raise TypeError(f"For 'Cell.to', the dtype must be floating point or complex, but "
                            f"got {dtype}.")
        for _, cell in self.cells_and_names():
            for param in cell.__dict__.get("_params", {}).values():
                if param is not None and param.dtype.kind == "float":
                    param.set_data(param.astype(dtype))
            buffers = cell.__dict__.get("_buffers", {})
            for name, buffer in buffers.items():
                if buffer is not None and buffer.dtype.kind == "float":
                    buffers[name] = buffer.astype(dtype)
        return self
