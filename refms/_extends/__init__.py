"""``mindspore._extends``: the one helper of MindSpore's extension package that model code
imports, :func:`cell_attr_register` (the model zoo's GAT layers decorate ``__init__``
with it)."""
from .cell_attr_register import cell_attr_register

__all__ = ["cell_attr_register"]
