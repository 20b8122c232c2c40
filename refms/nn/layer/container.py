"""Containers: ``SequentialCell`` (run children in order) and ``CellList`` (hold children).

Children are named ``'0'``, ``'1'``, ... (or by the keys of an OrderedDict),
and each child's parameters are renamed ``<key>.<path>`` as it is added —
so inside ``self.layer1 = SequentialCell([...])`` they become
``layer1.0.weight`` (semantics 3.2).  When a container was already adopted
by a parent, a child added later gets the same leading prefix, recovered from
the names of the parameters already there (MindSpore ``_get_prefix_and_index``).
An empty container is falsy.
"""
from collections import OrderedDict

from ..cell import Cell

__all__ = ["SequentialCell", "CellList"]


def _check_cell(cell, owner):
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{owner}', each cell should be subclass of Cell, but got "
                        f"{type(cell).__name__}.")
    return cell


def _check_index(length, index, owner):
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"For '{owner}', the type of 'index' must be int or slice, but got "
                        f"{type(index).__name__}.")
    if not -length <= index < length:
        raise IndexError(f"For '{owner}', the value of 'index' must be a number in range "
                         f"[{-length}, {length}), but got {index}.")
    return index % length


def _existing_prefix(cells):
    """The prefix a parent gave this container's children (``'layer1.'``), or ''.

    Found by locating the first child's key inside the name of its first parameter.
    """
    for key, cell in cells.items():
        first = next(cell.parameters_and_names(), None)
        if first is None:
            continue
        parts = first[1].name.split(".")
        if key in parts:
            index = parts.index(key)
            return ".".join(parts[:index]) + ("." if index else "")
        return ""
    return ""


class _CellContainer(Cell):
    """Shared by both containers: children by position, renamed as they are added."""

    def _add_child(self, key, cell):
        _check_cell(cell, self.cls_name)
        self.insert_child_to_cell(key, cell)
        cell.update_parameters_name(key + ".")

    def _renumber(self):
        """After a deletion or insertion: keys '0', '1', ... again and parameters renamed."""
        prefix = _existing_prefix(self._cells)
        renumbered = OrderedDict()
        for index, (key, cell) in enumerate(self._cells.items()):
            new_key = str(index) if key.isdigit() else key
            if new_key != key:
                cell.update_parameters_name(prefix + new_key + ".")
            renumbered[new_key] = cell
        self.__dict__["_cells"] = renumbered

    def __len__(self):
        return len(self._cells)

    def __bool__(self):
        return len(self._cells) != 0

    def __iter__(self):
        return iter(self._cells.values())

    def append(self, cell):
        _check_cell(cell, self.cls_name)
        prefix = _existing_prefix(self._cells)
        key = str(len(self))
        cell.update_parameters_name(prefix + key + ".")
        self._cells[key] = cell

    def extend(self, cells):
        if not isinstance(cells, (list, tuple)):
            raise TypeError(f"For '{self.cls_name}', the new cells wanted to append should be "
                            f"instance of list, but got {type(cells).__name__}.")
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index, cell):
        """Insert before position ``index`` (as ``list.insert``); children are renumbered."""
        _check_cell(cell, self.cls_name)
        prefix = _existing_prefix(self._cells)
        cells = list(self._cells.values())
        cells.insert(index, cell)
        self.__dict__["_cells"] = OrderedDict((str(i), c) for i, c in enumerate(cells))
        for key, child in self._cells.items():
            child.update_parameters_name(prefix + key + ".")

    def __delitem__(self, index):
        keys = list(self._cells.keys())
        if isinstance(index, slice):
            doomed = keys[index]
        else:
            doomed = [keys[_check_index(len(keys), index, self.cls_name)]]
        for key in doomed:
            del self._cells[key]
        self._renumber()

    def __setitem__(self, index, cell):
        _check_cell(cell, self.cls_name)
        keys = list(self._cells.keys())
        key = keys[_check_index(len(keys), index, self.cls_name)]
        prefix = _existing_prefix(self._cells)
        self._cells[key] = cell
        cell.update_parameters_name(prefix + key + ".")

    def set_grad(self, requires_grad=True):
        """Unlike a plain Cell, containers pass ``set_grad`` on to their children (as 2.10 does)."""
        self.__dict__["requires_grad"] = requires_grad
        for cell in self._cells.values():
            cell.set_grad(requires_grad)
        return self


class SequentialCell(_CellContainer):
    """``SequentialCell(*args)``: a list, an OrderedDict, one Cell, or cells as arguments; y = fₙ(…f₁(x))."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, cell in args[0].items():
                self._add_child(key, cell)
        elif len(args) == 1 and isinstance(args[0], list):
            for index, cell in enumerate(args[0]):
                self._add_child(str(index), cell)
        elif len(args) == 1 and not isinstance(args[0], Cell):
            raise TypeError(f"For '{self.cls_name}', the 'args[0]' must be Cell, list or "
                            f"orderedDict, but got {type(args[0]).__name__}")
        else:
            for index, cell in enumerate(args):
                self._add_child(str(index), cell)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return SequentialCell(OrderedDict(list(self._cells.items())[index]))
        return list(self._cells.values())[_check_index(len(self), index, self.cls_name)]

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(_CellContainer):
    """CellList(cells=None): a list of Cells, indexed and iterated like a Python list; not callable."""

    #: ``vmap(cell_list)`` maps over the cells (model ensembling, MindSpore 2.10): example ``i``
    #: runs through cell ``i`` (:func:`refms.vmap`).
    vmap_over_cells = True

    def __init__(self, *args, auto_prefix=True):
        super().__init__(auto_prefix=auto_prefix)
        if len(args) == 1 and args[0] is not None:
            self.extend(args[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return CellList(list(self._cells.values())[index])
        return list(self._cells.values())[_check_index(len(self), index, self.cls_name)]

    def __iadd__(self, cells):
        return self.extend(cells)

    def construct(self, *inputs):
        raise NotImplementedError(f"For '{self.cls_name}', a CellList holds cells; call them "
                                  f"one by one instead of the list.")
