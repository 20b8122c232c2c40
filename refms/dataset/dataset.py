"""``Dataset``: a lazy pipeline of rows, and the operations that extend it.

A dataset is a tree (here always a chain) of nodes; each node yields *rows*,
tuples of numpy arrays, one per column.  Sources (:mod:`refms.dataset.sources`,
:mod:`refms.dataset.mnist`) produce rows; every operation below wraps its
child (MindSpore ``dataset/engine/datasets.py``)::

    batch(n, drop_remainder)    stack n consecutive rows column by column
    shuffle(buffer_size)        MindSpore's buffer shuffle: fill a buffer, emit a random element,
                                refill from the input (buffer ≥ size = a full permutation)
    map(ops, input_columns)     apply callables to the chosen columns (default: the first)
    repeat(count)               run the child count times
    project(columns), rename(input, output), take(n), skip(n)
    filter(predicate), flat_map(func), apply(func)   (:mod:`refms.dataset.filter`)
    sync_wait(name), sync_update(name)               (:mod:`refms.dataset.sync`)

Nothing runs until iterated: ``create_tuple_iterator`` / ``create_dict_iterator``
(:mod:`refms.dataset.iterators`) or a plain ``for``.  Each epoch a node's
``rows(epoch)`` is called again; ``epoch.rng`` is the generator random steps draw from.
"""
from collections import deque

import numpy as np

from .._tensor import Tensor
from . import config
from .config import check_num_parallel_workers, get_num_parallel_workers
from .iterators import DictIterator
from .iterators import Epoch
from .iterators import TupleIterator
from .parallel import parallel_map

__all__ = ["Dataset", "BatchDataset", "ShuffleDataset", "MapDataset", "RepeatDataset",
           "ProjectDataset", "RenameDataset", "TakeDataset", "SkipDataset", "to_array"]


def to_array(value, where):
    """A column value as a numpy array (Tensors, numbers and lists accepted).

    A dict is a *dict-valued column*: it stays a dict, each of its values an array.
    """
    if isinstance(value, dict):
        return {key: to_array(v, where) for key, v in value.items()}
    if isinstance(value, Tensor):
        return value.asnumpy()
    array = np.asarray(value)
    if array.dtype == object:
        raise TypeError(f"{where}: a column value must be a number, string or numpy array, but got "
                        f"{type(value).__name__} {value!r}.")
    return array


#: The datasets built from others — ``zip``, ``concat``, ``split``, ``bucket_batch_by_length``
#: (:mod:`refms.dataset.combine`), ``filter``, ``flat_map``, ``apply``
#: (:mod:`refms.dataset.filter`) and the ``sync_wait`` gate (:mod:`refms.dataset.sync`) — live
#: in modules that build on this one (they subclass :class:`Dataset`) and fill this table
#: when they are imported (``refms.dataset`` imports them all).
COMBINATORS = {}


class Dataset:
    """The base of every dataset node: ``children``, ``column_names``, ``rows(epoch)``, ``size()``."""

    def __init__(self, children=()):
        self.children = list(children)

    # -- what every node defines ---------------------------------------------------------
    def rows(self, epoch):
        """Yield this node's rows (tuples of numpy arrays) for one epoch."""
        raise NotImplementedError

    def size(self):
        """Rows per epoch, or None when only iterating can tell."""
        return self.children[0].size()

    def get_col_names(self):
        return self.children[0].get_col_names()

    # -- information -------------------------------------------------------------------------
    def get_dataset_size(self):
        """The number of rows (batches, after ``batch``) in one epoch."""
        size = self.size()
        if size is None:
            size = sum(1 for _ in self.rows(Epoch(None, 0)))
        return size

    def output_shapes(self, estimate=False):
        """Each column's shape in the first row (a dict-valued column: [0], as MindSpore)."""
        return [[0] if isinstance(a, dict) else list(a.shape) for a in self._first_row()]

    def output_types(self):
        return [np.dtype(object) if isinstance(a, dict) else a.dtype for a in self._first_row()]

    def _first_row(self):
        for row in self.rows(Epoch(None, 0)):
            return row
        raise RuntimeError("The dataset is empty: no row to describe.")

    def get_batch_size(self):
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self):
        return self.children[0].get_repeat_count() if self.children else 1

    def reset(self):
        """Kept for MindSpore's ``Model``: iterators restart by themselves."""

    # -- operations -----------------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
              per_batch_map=None, input_columns=None, output_columns=None, pad_info=None,
              **kwargs):
        check_num_parallel_workers(num_parallel_workers, "batch")
        return BatchDataset(self, batch_size, drop_remainder, per_batch_map, input_columns,
                            output_columns, pad_info)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
                     pad_info=None):
        """Batch, padding rows to one shape per column (see ``BatchDataset``)."""
        return BatchDataset(self, batch_size, drop_remainder, pad_info=pad_info or {})

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        return COMBINATORS["bucket_batch_by_length"](
            self, column_names, bucket_boundaries, bucket_batch_sizes, element_length_function,
            pad_info, pad_to_bucket_boundary, drop_remainder)

    def zip(self, datasets):
        others = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]
        return COMBINATORS["zip"]([self] + others)

    def concat(self, datasets):
        others = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]
        return COMBINATORS["concat"]([self] + others)

    def __add__(self, other):
        return self.concat(other)

    def split(self, sizes, randomize=True):
        return COMBINATORS["split"](self, sizes, randomize)

    def shuffle(self, buffer_size):
        return ShuffleDataset(self, buffer_size)

    def map(self, operations=None, input_columns=None, output_columns=None,
            num_parallel_workers=None, python_multiprocessing=False, **kwargs):
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers,
                          python_multiprocessing)

    def repeat(self, count=None):
        return RepeatDataset(self, count)

    def project(self, columns):
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        return RenameDataset(self, input_columns, output_columns)

    def take(self, count=-1):
        return TakeDataset(self, count)

    def skip(self, count):
        return SkipDataset(self, count)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """The rows for which ``predicate(*columns)`` is true (:mod:`refms.dataset.filter`)."""
        check_num_parallel_workers(num_parallel_workers, "filter")
        return COMBINATORS["filter"](self, predicate, input_columns)

    def flat_map(self, func):
        """Each row replaced by the rows of the Dataset ``func(value)`` returns."""
        return COMBINATORS["flat_map"](self, func)

    def apply(self, apply_func):
        """``apply_func(self)``, which must return a Dataset."""
        return COMBINATORS["apply"](self, apply_func)

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """A gate passing ``num_batch`` rows per ``sync_update`` (:mod:`refms.dataset.sync`)."""
        return COMBINATORS["sync_wait"](self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Call the gate's callback with ``data`` and let its next rows through."""
        COMBINATORS["sync_update"](self, condition_name, num_batch, data)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        """Write one epoch of the rows to MindRecord files (:mod:`refms.dataset.save`)."""
        from .save import save_dataset
        save_dataset(self, file_name, num_files, file_type)

    # -- iteration ---------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        """An iterator of lists of Tensors (numpy arrays with ``output_numpy``), one per row."""
        return TupleIterator(self, columns, num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        """An iterator of ``{column name: Tensor}`` dicts, one per row."""
        return DictIterator(self, num_epochs, output_numpy)

    def __iter__(self):
        return iter(self.create_tuple_iterator())

    def _column_indices(self, columns, what):
        names = self.get_col_names()
        if isinstance(columns, str):
            columns = [columns]
        indices = []
        for name in columns:
            if name not in names:
                raise ValueError(f"{what}: column '{name}' does not exist; the columns are {names}.")
            indices.append(names.index(name))
        return indices


def _check_positive(value, name, op):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{op}', the '{name}' must be a positive int, but got {value!r}.")
    return value


def _pad_rows(values, spec, name):
    """Pad a column's row values to one shape: ``spec`` = (shape or None, pad value)."""
    shape, value = spec if spec is not None else (None, 0)
    if isinstance(values[0], dict):
        raise RuntimeError(f"For 'batch', the dict-valued column '{name}' can not be padded.")
    rank = values[0].ndim
    if any(v.ndim != rank for v in values):
        raise RuntimeError(f"For 'batch', the rows of column '{name}' have different ranks "
                           f"{sorted({v.ndim for v in values})}; padding needs one rank.")
    longest = [max(v.shape[d] for v in values) for d in range(rank)]
    target = [longest[d] if shape is None or shape[d] is None else shape[d]
              for d in range(rank)]
    dtype = values[0].dtype
    if value is None:
        value = "" if dtype.kind == "U" else 0
    out = []
    for v in values:
        padded = np.full(target, value, dtype if dtype.kind != "U" else
                         np.result_type(dtype, np.asarray(value)))
        region = tuple(slice(0, min(t, n)) for t, n in zip(target, v.shape))
        padded[region] = v[region]
        out.append(padded)
    return out


class BatchDataset(Dataset):
    """Rows grouped ``batch_size`` at a time and stacked column by column.

    The last, short batch is kept unless ``drop_remainder``.  ``per_batch_map(*columns,
    batch_info)`` receives, for each of ``input_columns``, the *list* of the batch's row
    values (as MindSpore 2.x) and returns one list (or array) per output column, with one
    value per row; ``output_columns`` then replace the input columns.  ``pad_info``
    ``{column: (shape or None, value)}`` pads rows to one shape first (None: the longest
    row); ``pad_info={}`` pads every column that way with 0.
    """

    def __init__(self, child, batch_size, drop_remainder=False, per_batch_map=None,
                 input_columns=None, output_columns=None, pad_info=None):
        super().__init__([child])
        self.batch_size = _check_positive(batch_size, "batch_size", "batch")
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"For 'batch', the 'drop_remainder' must be bool, but got "
                            f"{type(drop_remainder).__name__}.")
        self.drop_remainder = drop_remainder
        self.per_batch_map = per_batch_map
        self.input_columns = input_columns
        self.output_columns = [output_columns] if isinstance(output_columns, str) else \
            output_columns
        self.pad_info = pad_info
        if pad_info is not None:
            child._column_indices([c for c in pad_info], "batch pad_info")

    def size(self):
        child = self.children[0].size()
        if child is None:
            return None
        return child // self.batch_size if self.drop_remainder else \
            -(-child // self.batch_size)

    def get_col_names(self):
        names = self.children[0].get_col_names()
        if self.output_columns is None:
            return names
        inputs = self._inputs()
        out = []
        for name in names:
            if name == inputs[0]:
                out.extend(self.output_columns)
            elif name not in inputs:
                out.append(name)
        return out

    def _inputs(self):
        if self.input_columns is None:
            return self.children[0].get_col_names()
        return [self.input_columns] if isinstance(self.input_columns, str) else \
            list(self.input_columns)

    def get_batch_size(self):
        return self.batch_size

    def rows(self, epoch):
        pending, number = [], 0
        for row in self.children[0].rows(epoch):
            pending.append(row)
            if len(pending) == self.batch_size:
                yield self._stack(pending, epoch, number)
                pending, number = [], number + 1
        if pending and not self.drop_remainder:
            yield self._stack(pending, epoch, number)

    def _stack(self, rows, epoch, number):
        names = self.children[0].get_col_names()
        columns = {name: [row[i] for row in rows] for i, name in enumerate(names)}
        batched = {}
        if self.pad_info is not None:
            for name in names:
                if name in self.pad_info or not self.pad_info:
                    columns[name] = _pad_rows(columns[name], self.pad_info.get(name), name)
        if self.per_batch_map is not None:
            inputs = self._inputs()
            try:
                outputs = self.per_batch_map(*[columns[n] for n in inputs],
                                             _BatchInfo(epoch, number))
            except Exception as e:
                raise RuntimeError(f"For 'batch', per_batch_map failed on batch {number} (input "
                                   f"columns {inputs}): {type(e).__name__}: {e}") from e
            if not isinstance(outputs, tuple):
                outputs = (outputs,)
            out_names = self.output_columns or inputs
            if len(outputs) != len(out_names):
                raise RuntimeError(f"For 'batch', per_batch_map returned {len(outputs)} columns "
                                   f"but {len(out_names)} are expected: {out_names}.")
            for name in inputs:
                del columns[name]
            for name, value in zip(out_names, outputs):
                if isinstance(value, dict):
                    # a Python dict is the whole batch's value of a dict-valued column, kept
                    # as it is (MindSpore tutorial "Supporting Python Objects")
                    batched[name] = value
                    continue
                value = [to_array(v, "per_batch_map") for v in value]
                if len(value) != len(rows):
                    raise RuntimeError(f"Invalid data, column: {name} expects: {len(rows)} rows "
                                       f"returned from 'per_batch_map', got: {len(value)}.")
                columns[name] = value
        return tuple(batched[name] if name in batched else _stack_column(columns[name], name)
                     for name in self.get_col_names())


def _stack_column(values, name):
    """Stack one column's values (dict-valued columns key by key)."""
    if isinstance(values[0], dict):
        return {key: _stack_column([v[key] for v in values], f"{name}.{key}") for key in values[0]}
    shapes = {v.shape for v in values}
    if len(shapes) > 1:
        raise RuntimeError(f"For 'batch', the rows of column '{name}' have different shapes "
                           f"{sorted(shapes)}; every row in a batch must have the same shape (pad "
                           f"or resize them in a map first, or use padded_batch).")
    return np.stack(values)


class _BatchInfo:
    """The ``BatchInfo`` argument of a ``per_batch_map`` function."""

    def __init__(self, epoch, number=0):
        self._epoch = epoch
        self._number = number

    def get_epoch_num(self):
        return self._epoch.number

    def get_batch_num(self):
        return self._number


class ShuffleDataset(Dataset):
    """MindSpore's buffer shuffle: keep ``buffer_size`` rows, emit a random one, refill."""

    def __init__(self, child, buffer_size):
        super().__init__([child])
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int) or buffer_size < 2:
            raise ValueError(f"For 'shuffle', the 'buffer_size' must be an int greater than 1, but "
                             f"got {buffer_size!r}.")
        self.buffer_size = buffer_size

    def rows(self, epoch):
        buffer = []
        rng = epoch.generator(self)
        for row in self.children[0].rows(epoch):
            if len(buffer) < self.buffer_size:
                buffer.append(row)
                continue
            index = int(rng.integers(len(buffer)))
            yield buffer[index]
            buffer[index] = row
        while buffer:
            index = int(rng.integers(len(buffer)))
            buffer[index], buffer[-1] = buffer[-1], buffer[index]
            yield buffer.pop()


class MapDataset(Dataset):
    """Apply ``operations`` (one callable or a list, in order) to ``input_columns``.

    Each row gets its own random generator, seeded in row order from the epoch's
    generator (``refms.dataset.config.row_generator``), so random transforms give
    the same results with any ``num_parallel_workers``; workers are threads, or
    forked processes with ``python_multiprocessing=True``.  A failing operation is
    reported with the row number, the operation and the input columns.
    """

    def __init__(self, child, operations, input_columns=None, output_columns=None,
                 num_parallel_workers=None, python_multiprocessing=False):
        super().__init__([child])
        if operations is None:
            raise ValueError("For 'map', the 'operations' can not be None.")
        self.operations = list(operations) if isinstance(operations, (list, tuple)) else \
            [operations]
        for op in self.operations:
            if not callable(op):
                raise TypeError(f"For 'map', every operation must be callable, but got "
                                f"{type(op).__name__}.")
        names = child.get_col_names()
        if input_columns is None:
            input_columns = [names[0]]
        self.input_columns = [input_columns] if isinstance(input_columns, str) else \
            list(input_columns)
        self._indices = child._column_indices(self.input_columns, "map")
        if output_columns is None:
            output_columns = self.input_columns
        self.output_columns = [output_columns] if isinstance(output_columns, str) else \
            list(output_columns)
        check_num_parallel_workers(num_parallel_workers, "map")
        self.num_parallel_workers = num_parallel_workers or get_num_parallel_workers()
        self.python_multiprocessing = python_multiprocessing

    def get_col_names(self):
        """The outputs take the place of the first input column; other inputs drop out."""
        names = []
        for name in self.children[0].get_col_names():
            if name == self.input_columns[0]:
                names.extend(self.output_columns)
            elif name not in self.input_columns:
                names.append(name)
        return names

    def _apply(self, task):
        number, seed, values = task
        with config.row_generator(seed):
            for op in self.operations:
                try:
                    values = op(*values)
                except Exception as e:
                    name = getattr(op, "__name__", type(op).__name__)
                    raise RuntimeError(f"For 'map', the operation {name} failed on row {number} "
                                       f"(input columns {self.input_columns}): "
                                       f"{type(e).__name__}: {e}") from e
                if not isinstance(values, tuple):
                    values = (values,)
        if len(values) != len(self.output_columns):
            raise RuntimeError(f"For 'map', the operations returned {len(values)} columns for "
                               f"row {number} but 'output_columns' names "
                               f"{len(self.output_columns)}: {self.output_columns} (input "
                               f"columns {self.input_columns}).")
        return tuple(to_array(v, "map") for v in values)

    def rows(self, epoch):
        names = self.children[0].get_col_names()
        out_names = self.get_col_names()
        child_rows = deque()
        rng = epoch.generator(self)

        def tasks():
            for number, row in enumerate(self.children[0].rows(epoch)):
                child_rows.append(row)
                seed = int(rng.integers(0, 2 ** 63))
                yield number, seed, tuple(row[i] for i in self._indices)

        if self.num_parallel_workers > 1:
            results = parallel_map(self._apply, tasks(), self.num_parallel_workers,
                                   self.python_multiprocessing)
        else:
            results = map(self._apply, tasks())
        for produced in results:
            row = child_rows.popleft()
            current = dict(zip(names, row))
            current.update(zip(self.output_columns, produced))
            yield tuple(current[name] for name in out_names)


class RepeatDataset(Dataset):
    """The child's rows ``count`` times (None or −1: forever)."""

    def __init__(self, child, count):
        super().__init__([child])
        if count is not None and (isinstance(count, bool) or not isinstance(count, int)
                                  or (count <= 0 and count != -1)):
            raise ValueError(f"For 'repeat', the 'count' must be -1 or a positive int, but got "
                             f"{count!r}.")
        self.count = -1 if count is None else count

    def size(self):
        child = self.children[0].size()
        if self.count == -1:
            return -1                    # endless: MindSpore reports -1 too
        return None if child is None else child * self.count

    def get_repeat_count(self):
        return self.count

    def rows(self, epoch):
        n = 0
        while self.count == -1 or n < self.count:
            yield from self.children[0].rows(epoch)
            n += 1


class ProjectDataset(Dataset):
    """Keep only ``columns``, in that order."""

    def __init__(self, child, columns):
        super().__init__([child])
        self.columns = [columns] if isinstance(columns, str) else list(columns)
        self._indices = child._column_indices(self.columns, "project")

    def get_col_names(self):
        return list(self.columns)

    def rows(self, epoch):
        for row in self.children[0].rows(epoch):
            yield tuple(row[i] for i in self._indices)


class RenameDataset(Dataset):
    """Rename columns ``input_columns`` to ``output_columns``."""

    def __init__(self, child, input_columns, output_columns):
        super().__init__([child])
        inputs = [input_columns] if isinstance(input_columns, str) else list(input_columns)
        outputs = [output_columns] if isinstance(output_columns, str) else list(output_columns)
        if len(inputs) != len(outputs):
            raise ValueError("For 'rename', 'input_columns' and 'output_columns' must have the "
                             "same length.")
        child._column_indices(inputs, "rename")
        self.mapping = dict(zip(inputs, outputs))

    def get_col_names(self):
        return [self.mapping.get(n, n) for n in self.children[0].get_col_names()]

    def rows(self, epoch):
        return self.children[0].rows(epoch)


class TakeDataset(Dataset):
    """The first ``count`` rows (−1: all)."""

    def __init__(self, child, count):
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, int) or (count <= 0 and count != -1):
            raise ValueError(f"For 'take', the 'count' must be -1 or a positive int, but got "
                             f"{count!r}.")
        self.count = count

    def size(self):
        child = self.children[0].size()
        if self.count == -1:
            return child
        return None if child is None else min(child, self.count)

    def rows(self, epoch):
        for n, row in enumerate(self.children[0].rows(epoch)):
            if self.count != -1 and n >= self.count:
                return
            yield row


class SkipDataset(Dataset):
    """All rows but the first ``count``."""

    def __init__(self, child, count):
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"For 'skip', the 'count' must be a non-negative int, but got "
                             f"{count!r}.")
        self.count = count

    def size(self):
        child = self.children[0].size()
        return None if child is None else max(child - self.count, 0)

    def rows(self, epoch):
        for n, row in enumerate(self.children[0].rows(epoch)):
            if n >= self.count:
                yield row
