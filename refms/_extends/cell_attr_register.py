"""``cell_attr_register``: a decorator for a Cell's ``__init__`` that records the arguments
it was built with as the string ``cell.cell_init_args`` (MindSpore
``mindspore/graph/_utils/cell_attr_register.py``).

``@cell_attr_register`` records ``ClassName`` + ``str(dict_values([arg, ...]))`` of the
bound arguments (``self`` left out, defaults not filled in), e.g.
``"Tdict_values([1, 5])"`` for ``T(1, c=5)``; ``@cell_attr_register(attrs=[...])``
records the listed attributes the cell has after ``__init__`` (a list), or one named
attribute's value (a string).
"""
import inspect
from functools import wraps

__all__ = ["cell_attr_register"]


def _listed_attributes(cell, attrs):
    if isinstance(attrs, list):
        values = []
        for item in attrs:
            if not isinstance(item, str):
                raise ValueError("attr must be a string")
            if hasattr(cell, item):
                values.append(getattr(cell, item))
        return values
    if isinstance(attrs, str):
        return getattr(cell, attrs) if hasattr(cell, attrs) else []
    raise ValueError("attrs must be list or string")


def cell_attr_register(fn=None, attrs=None):
    """``@cell_attr_register`` or ``@cell_attr_register(attrs=...)`` on ``__init__``."""

    def wrap_cell(init):
        @wraps(init)
        def deco(self, *args, **kwargs):
            arguments = []
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
                del bound["self"]
                arguments = bound.values()
            init(self, *args, **kwargs)
            if attrs is not None:
                arguments = _listed_attributes(self, attrs)
            self.cell_init_args = type(self).__name__ + str(arguments)

        return deco

    if fn is not None:
        return wrap_cell(fn)
    return wrap_cell
