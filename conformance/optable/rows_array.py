"""Op-table rows for the array primitives: joining and splitting, gathering and scattering,
selection, sorting, state and the assorted ops of ``refms/ops/prims/{join,index,sort,state,misc}.py``.

Expected values and dtypes that differ from numpy's are MindSpore 2.10's, checked by
running it (CPU): Sort/TopK/Argmax indices are Int32, ``ops.argmax`` Int64 but
``ops.argmin`` Int32, ArgMaxWithValue's index Int64, ``ops.one_hot`` with the default
on/off values Int64, ``clip_by_value`` keeps x's dtype while ``clamp`` promotes.
Sorting keeps ties in their original order (checked on MindSpore 2.10).
"""
import numpy as np

from . import ms
from .samples import bools, constants_then, f32, f64, i32, i64, randn, with_constants
from .spec import OpRow

#: The implementation under test (see the package docstring).
ops, Parameter, Tensor = ms.ops, ms.Parameter, ms.Tensor


# -- sampling helpers ----------------------------------------------------------------------------

def distinct(*shapes):
    """Float32 samples with no two values equal (sorting and argmax are then differentiable)."""
    def make(rng):
        result = []
        for shape in shapes:
            n = int(np.prod(shape))
            values = rng.permutation(n) + rng.uniform(0.1, 0.4, n)
            result.append((values / n).reshape(shape).astype(np.float32))
        return result
    return make


ONES_23 = np.ones((2, 3), np.float32)


# -- join.py: Concat, Stack, Split, SplitV -----------------------------------------------------

def split_ref(sections, axis):
    def ref(x):
        return tuple(np.split(x, sections, axis))
    return ref


JOIN = [
    OpRow("Concat", lambda a, b: ops.Concat()((a, b)), lambda a, b: np.concatenate([a, b]),
          randn((2, 3), (1, 3)),
          errors=[([ONES_23, np.ones((2, 2), np.float32)], ValueError),
                  ([ONES_23, np.ones((1, 3), np.int32)], TypeError),
                  ([ONES_23, np.ones((3,), np.float32)], ValueError),
                  ([f32(1.0), f32(2.0)], ValueError)]),
    OpRow("Concat", lambda a, b, c: ops.concat([a, b, c], axis=-1),
          lambda a, b, c: np.concatenate([a, b, c], -1), randn((2, 1), (2, 3), (2, 2)),
          id="Concat-three-last-axis"),
    OpRow("Concat", lambda a, b: ops.cat((a, b), 1), lambda a, b: np.concatenate([a, b], 1),
          [i32([[1], [2]]), i32([[3, 4], [5, 6]])], id="Concat-cat-int32"),
    OpRow("Concat", lambda a, b: ops.Concat(2)((a, b)), lambda a, b: np.concatenate([a, b], 2),
          randn((2, 2, 3), (2, 2, 1)),
          errors=[([ONES_23, ONES_23], ValueError)], id="Concat-axis-out-of-range"),
    OpRow("Stack", lambda a, b: ops.Stack(axis=1)((a, b)), lambda a, b: np.stack([a, b], 1),
          randn((2, 3), (2, 3)),
          errors=[([i32([1, 2]), f32([1, 2])], TypeError),
                  ([ONES_23, np.ones((1, 3), np.float32)], ValueError)]),
    OpRow("Stack", lambda a, b, c: ops.stack([a, b, c]), lambda a, b, c: np.stack([a, b, c]),
          randn((4,), (4,), (4,)), id="Stack-three"),
    OpRow("Stack", lambda a, b: ops.stack((a, b), -1), lambda a, b: np.stack([a, b], -1),
          [f32(1.0), f32(2.0)], id="Stack-0d"),
    OpRow("Stack", lambda a, b: ops.stack((a, b), 3), lambda a, b: np.stack([a, b], 3),
          randn((2, 3, 4), (2, 3, 4)),
          errors=[([ONES_23, ONES_23], ValueError)], id="Stack-axis-out-of-range"),
    OpRow("Split", ops.Split(1, 2), split_ref(2, 1), randn((3, 4))),
    OpRow("Split", ops.Split(0, 2), split_ref(2, 0), randn((4, 3)),
          errors=[([np.ones((3, 4), np.float32)], ValueError)], id="Split-not-divisible"),
    OpRow("Split", lambda x: ops.split(x, 1), split_ref(3, 0), randn((3, 4)), id="Split-size-1"),
    OpRow("SplitV", lambda x: ops.split(x, [1, 3], 1), split_ref([1], 1), randn((3, 4)),
          errors=[([np.ones((3, 5), np.float32)], ValueError)], id="SplitV-sections"),
    OpRow("SplitV", lambda x: ops.split(x, 2), split_ref([2], 0), randn((3, 4)),
          id="SplitV-uneven-size"),
    OpRow("SplitV", ops.SplitV((1, -1), 1, 2), split_ref([1], 1), randn((2, 4)),
          id="SplitV-rest"),
]


# -- index.py: Gather, GatherD, TensorScatterElements, OneHot, Select, MaskedSelect,
#    MaskedScatter, UnsortedSegmentSum --------------------------------------------------------

def scatter_elements_ref(axis, reduction):
    def ref(x, indices, updates):
        result = np.array(x, copy=True)
        grids = list(np.indices(indices.shape, sparse=True))
        grids[axis] = indices
        if reduction == "add":
            np.add.at(result, tuple(grids), updates)
        else:
            result[tuple(grids)] = updates
        return result
    return ref


def one_hot_ref(depth, axis=-1):
    def ref(indices, on, off):
        hot = np.expand_dims(indices, -1) == np.arange(depth)
        return np.moveaxis(np.where(hot, on, off), -1, axis)
    return ref


def masked_select_ref(x, mask):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]


def masked_scatter_ref(x, mask, source):
    mask = np.broadcast_to(mask, x.shape)
    result = np.array(x, copy=True)
    result[mask] = source.reshape(-1)[:int(mask.sum())]
    return result


def segment_sum_ref(num_segments):
    def ref(x, ids):
        result = np.zeros((num_segments,) + x.shape[ids.ndim:], x.dtype)
        for position in np.ndindex(ids.shape):
            if ids[position] >= 0:
                result[ids[position]] += x[position]
        return result
    return ref


INDEX = [
    OpRow("Gather", lambda x, i: ops.Gather()(x, i, 0), lambda x, i: np.take(x, i, 0),
          with_constants(randn((3, 4)), i32([2, 0, 2])),
          errors=[([ONES_23, i32([5])], RuntimeError),
                  ([ONES_23, f32([1.0])], TypeError)]),
    OpRow("Gather", lambda x, i: ops.gather(x, i, 1), lambda x, i: np.take(x, i, 1),
          with_constants(randn((3, 4)), i64([[0, 1], [3, 3]])),
          errors=[([np.ones(3, np.float32), i64([0])], ValueError)], id="Gather-axis1-2d-indices"),
    OpRow("Gather", lambda x, i: ops.gather(x, i, 0), lambda x, i: np.take(x, i, 0),
          with_constants(randn((3, 2)), i32([-1, 0, -3])), id="Gather-negative-indices"),
    OpRow("Gather", lambda x, i: ops.gather(x, i, 0), lambda x, i: np.take(x, i, 0),
          with_constants(randn((3, 2)), np.array(1, np.int32)), id="Gather-0d-index"),
    OpRow("GatherD", lambda x, i: ops.GatherD()(x, 1, i),
          lambda x, i: np.take_along_axis(x, i, 1),
          with_constants(randn((3, 4)), i32([[0, 0], [3, 1], [2, 2]])),
          errors=[([np.ones((3, 4), np.float32), i32([[4, 0], [0, 0], [0, 0]])], RuntimeError),
                  ([np.ones((3, 4), np.float32), i32([0, 1])], ValueError)]),
    OpRow("GatherD", lambda x, i: ops.gather_elements(x, 0, i),
          lambda x, i: np.take_along_axis(x, i, 0),
          with_constants(randn((2, 3)), i64([[1, 0, 1], [1, 1, 0]])), id="GatherD-dim0"),
    OpRow("TensorScatterElements",
          lambda x, i, u: ops.TensorScatterElements(1, "add")(x, i, u),
          scatter_elements_ref(1, "add"),
          lambda rng: [rng.standard_normal((2, 3)).astype(np.float32), i32([[0, 0], [2, 1]]),
                       rng.standard_normal((2, 2)).astype(np.float32)],
          errors=[([ONES_23, i32([[0, 3], [0, 0]]), np.ones((2, 2), np.float32)], RuntimeError),
                  ([ONES_23, i32([[0, 1], [0, 0]]), np.ones((2, 2), np.float64)], TypeError)]),
    OpRow("TensorScatterElements",
          lambda x, i, u: ops.tensor_scatter_elements(x, i, u, axis=0),
          scatter_elements_ref(0, "none"),
          lambda rng: [rng.standard_normal((3, 2)).astype(np.float32), i32([[2, 0]]),
                       rng.standard_normal((1, 2)).astype(np.float32)],
          id="TensorScatterElements-none"),
    OpRow("OneHot", lambda i, on, off: ops.OneHot()(i, 3, on, off), one_hot_ref(3),
          [i32([0, 2, 1, 5, -1]), f32(1.0), f32(0.0)],
          errors=[([f32([0.0]), f32(1.0), f32(0.0)], TypeError),
                  ([i32([0]), np.array(1.0, np.float16), f32(0.0)], TypeError)]),
    OpRow("OneHot", lambda i, on, off: ops.OneHot(axis=0)(i, 4, on, off), one_hot_ref(4, 0),
          [i64([[0, 3], [1, 1]]), f64(5.0), f64(-1.0)], id="OneHot-axis0"),
    OpRow("OneHot", lambda i, depth: ops.one_hot(i, depth),
          lambda i, depth: (np.expand_dims(i, -1) == np.arange(depth)).astype(np.int64),
          [i32([0, 2, 1]), 3],
          errors=[([i32([0]), -1], ValueError)], id="OneHot-defaults-int64"),
    OpRow("Select", ops.Select(), np.where,
          constants_then(randn((2, 3), (2, 3)), bools([[True, False, True], [False, False, True]])),
          errors=[([f32([1.0, 0.0]), f32([1.0, 2.0]), f32([3.0, 4.0])], TypeError),
                  ([bools([True, False, True]), f32([1.0, 2.0, 3.0]), f32([1.0, 2.0])],
                   ValueError)]),
    OpRow("Select", ops.select, np.where,
          constants_then(randn((3,), (2, 3)), bools([[True], [False]])), id="Select-broadcast"),
    OpRow("Select", ops.where, np.where,
          [bools([True, False, True]), i32([1, 2, 3]), f32([4.0, 5.0, 6.0])],
          out_dtype="Float32", id="Select-where-int32-float32"),
    OpRow("Select", lambda c, x: ops.where(c, x, 0.0), lambda c, x: np.where(c, x, 0),
          constants_then(randn((3,)), bools([False, True, True])), id="Select-python-scalar"),
    OpRow("MaskedSelect", ops.masked_select, masked_select_ref,
          with_constants(randn((3, 4)), bools([[True], [False], [True]])),
          errors=[([ONES_23, np.ones((2, 1), np.int32)], TypeError),
                  ([np.ones((3, 4), np.float32), bools([[True], [False]])], ValueError)]),
    OpRow("MaskedSelect", ops.MaskedSelect(), masked_select_ref,
          with_constants(randn((3,)), bools([[True, False, True], [False, True, True]])),
          id="MaskedSelect-input-broadcast"),
    OpRow("MaskedScatter", ops.MaskedScatter(), masked_scatter_ref,
          lambda rng: [rng.standard_normal((2, 3)).astype(np.float32), bools([[True], [False]]),
                       rng.standard_normal((4,)).astype(np.float32)],
          errors=[([ONES_23, bools([[True], [True]]), np.ones((4,), np.float32)], RuntimeError),
                  ([ONES_23, bools([[True], [True]]), np.ones((9,), np.float64)], TypeError)]),
    # MindSpore 2.10: [1, 1, 1], ids [3, 1, 3], 5 segments -> [0, 1, 0, 2, 0].
    OpRow("UnsortedSegmentSum", lambda x, ids: ops.UnsortedSegmentSum()(x, ids, 5),
          segment_sum_ref(5), [f32([1, 1, 1]), i32([3, 1, 3])],
          errors=[([f32([1, 1, 1]), i32([3, 1, 7])], RuntimeError),
                  ([f32([1, 1, 1]), f32([3, 1, 3])], TypeError),
                  ([f32([1, 1, 1]), i32([3, 1])], ValueError)],
          id="UnsortedSegmentSum-seed"),
    OpRow("UnsortedSegmentSum", lambda x, ids: ops.unsorted_segment_sum(x, ids, 3),
          segment_sum_ref(3), with_constants(randn((4, 2)), i32([2, 0, 2, -1]))),
    OpRow("UnsortedSegmentSum", lambda x, ids: ops.unsorted_segment_sum(x, ids, 2),
          segment_sum_ref(2), with_constants(randn((2, 3, 2)), i64([[1, 0, 1], [0, 0, 1]])),
          id="UnsortedSegmentSum-2d-ids"),
    OpRow("UnsortedSegmentSum", lambda x, ids, n: ops.unsorted_segment_sum(x, ids, n),
          lambda x, ids, n: segment_sum_ref(n)(x, ids), [i32([1, 2, 3]), i32([1, 0, 1]), 2],
          errors=[([i32([1, 2, 3]), i32([1, 0, 1]), 0], ValueError)],
          id="UnsortedSegmentSum-int32"),
]


# -- sort.py: Sort, TopK, Argmax, Argmin, ArgMaxWithValue, ArgMinWithValue ----------------------

def sort_ref(axis=-1, descending=False):
    """numpy's stable argsort; descending sorts −x, which keeps ties in their original order."""
    def ref(x):
        order = np.argsort(-x if descending else x, axis=axis, kind="stable")
        return np.take_along_axis(x, order, axis), order.astype(np.int32)
    return ref


def topk_ref(k, axis=-1, largest=True, keep_order=False):
    def ref(x):
        order = np.argsort(-x if largest else x, axis=axis, kind="stable")
        order = np.take(order, np.arange(k), axis=axis)
        if keep_order:
            order = np.sort(order, axis=axis)
        return np.take_along_axis(x, order, axis), order.astype(np.int32)
    return ref


def with_value_ref(pick, axis, keep_dims=False):
    def ref(x):
        index = np.expand_dims(pick(x, axis), axis)
        value = np.take_along_axis(x, index, axis)
        if not keep_dims:
            index, value = index.squeeze(axis), value.squeeze(axis)
        return index.astype(np.int64), value
    return ref


SORT = [
    OpRow("Sort", ops.Sort(), sort_ref(), distinct((2, 5)),
          errors=[([bools([True, False])], TypeError), ([f32(1.0)], ValueError)]),
    OpRow("Sort", ops.Sort(axis=0, descending=True), sort_ref(0, True), distinct((4, 3)),
          id="Sort-axis0-descending"),
    # MindSpore 2.10: ties keep their original order in both directions.
    OpRow("Sort", ops.Sort(descending=True), sort_ref(descending=True), [f32([3, 1, 2, 3])],
          grad=False, id="Sort-ties-descending"),
    OpRow("Sort", lambda x: ops.sort(x, descending=True), sort_ref(descending=True),
          [f32([1, 5, 1, 5, 1])], grad=False, id="Sort-ties-descending-2"),
    OpRow("Sort", ops.Sort(), sort_ref(), [f32([3, 1, 2, 3])], grad=False, id="Sort-ties"),
    OpRow("Sort", ops.Sort(), sort_ref(), [i64([[3, -1, 2], [0, 0, 7]])], id="Sort-int64"),
    OpRow("Sort", lambda x: ops.argsort(x), lambda x: sort_ref()(x)[1], distinct((3, 4)),
          grad=False, id="Sort-argsort"),
    OpRow("Sort", lambda x: ops.topk(x, 2, dim=0), topk_ref(2, axis=0), distinct((4, 3)),
          id="Sort-topk-dim0"),
    OpRow("Sort", lambda x: ops.topk(x, 3, largest=False), topk_ref(3, largest=False),
          distinct((2, 5)), id="Sort-topk-smallest"),
    OpRow("TopK", lambda x, k: ops.TopK()(x, k), lambda x, k: topk_ref(k)(x),
          with_constants(distinct((3, 5)), 2),
          errors=[([ONES_23, 4], ValueError), ([ONES_23, 0], ValueError),
                  ([f32(1.0), 1], ValueError)]),
    OpRow("TopK", lambda x: ops.TopK(sorted=False)(x, 3), topk_ref(3, keep_order=True),
          distinct((2, 6)), id="TopK-unsorted"),
    OpRow("TopK", lambda x: ops.topk(x, 3), topk_ref(3), [f32([1, 5, 1, 5, 1])], grad=False,
          id="TopK-ties"),
    OpRow("TopK", lambda x: ops.TopK()(x, 2), topk_ref(2), [i32([[4, 9, 1], [7, 7, 0]])],
          id="TopK-int32"),
    OpRow("Argmax", ops.Argmax(), lambda x: np.argmax(x, -1).astype(np.int32),
          [f32([[1, 5, 5], [4, 2, 6]])],
          errors=[([f32(1.0)], ValueError)]),
    OpRow("Argmax", ops.Argmax(axis=0, output_type=ms.int64),
          lambda x: np.argmax(x, 0).astype(np.int64), [i32([[1, 5, 3], [4, 2, 6]])],
          id="Argmax-axis0-int64"),
    OpRow("Argmax", lambda x: ops.argmax(x), lambda x: np.argmax(x).astype(np.int64),
          [f32([[1, 5, 3], [4, 2, 6]])], id="Argmax-functional-flat"),
    OpRow("Argmax", lambda x: ops.argmax(x, 1, True),
          lambda x: np.argmax(x, 1, keepdims=True).astype(np.int64),
          [f32([[1, 5, 3], [4, 2, 6]])], id="Argmax-functional-keepdim"),
    OpRow("Argmax", lambda x: x.argmax(0), lambda x: np.argmax(x, 0).astype(np.int64),
          [bools([[False, True], [True, True]])], id="Argmax-tensor-method-bool"),
    OpRow("Argmax", lambda x, axis: ops.Argmax(axis=axis)(x),
          lambda x, axis: np.argmax(x, axis).astype(np.int32), [f32([[1, 5, 3], [4, 2, 6]]), 1],
          errors=[([ONES_23, 2], ValueError)], id="Argmax-axis-out-of-range"),
    OpRow("Argmin", ops.Argmin(axis=0), lambda x: np.argmin(x, 0).astype(np.int32),
          [f32([[1, 1, 3], [0, 2, 3]])]),
    OpRow("Argmin", lambda x: ops.argmin(x), lambda x: np.argmin(x).astype(np.int32),
          [f32([[1, 5, 3], [4, 0, 6]])], id="Argmin-functional-int32"),
    OpRow("Argmin", lambda x: ops.argmin(x, 1, keepdims=True),
          lambda x: np.argmin(x, 1, keepdims=True).astype(np.int32),
          [f32([[1, 5, 3], [4, 0, 6]])], id="Argmin-functional-keepdims"),
    OpRow("ArgMaxWithValue", ops.ArgMaxWithValue(), with_value_ref(np.argmax, 0),
          distinct((3, 4))),
    OpRow("ArgMaxWithValue", ops.ArgMaxWithValue(axis=1, keep_dims=True),
          with_value_ref(np.argmax, 1, True), distinct((2, 3)), id="ArgMaxWithValue-keep-dims"),
    OpRow("ArgMinWithValue", ops.ArgMinWithValue(axis=-1), with_value_ref(np.argmin, -1),
          distinct((2, 4))),
]


# -- state.py: Assign (GetNext only raises: see the module docstring) ---------------------------

def assign_and_read(variable, value):
    """ops.assign on a fresh Parameter: (the returned value, the Parameter afterwards)."""
    parameter = Parameter(variable, name="variable")
    return ops.assign(parameter, value), parameter


def assign_ref(variable, value):
    new = np.asarray(value).astype(variable.dtype)
    return new, new


def assign_tensor(variable, value):
    """ops.assign on a plain Tensor also writes in place (MindSpore 2.10 did not raise)."""
    return ops.Assign()(variable, value), variable


def apply_momentum_and_read(variable, accumulation, learning_rate, gradient, momentum):
    """ops.ApplyMomentum on fresh Parameters: (the returned value, both Parameters afterwards)."""
    var = Parameter(variable, name="variable")
    accum = Parameter(accumulation, name="accumulation")
    return ops.ApplyMomentum()(var, accum, learning_rate, gradient, momentum), var, accum


def apply_momentum_ref(variable, accumulation, learning_rate, gradient, momentum):
    accum = accumulation * momentum + gradient
    var = variable - accum * learning_rate
    return var, var, accum


STATE = [
    # MindSpore 2.10: Int32 [7, 8] into a Float32 Parameter -> [7. 8.] Float32.
    OpRow("Assign", assign_and_read, assign_ref, [f32([1, 2]), i32([7, 8])],
          errors=[([f32([1, 2]), f32([1, 2, 3])], ValueError),
                  ([f32([1, 2]), f32(5.0)], ValueError),
                  ([f32([1, 2]), f64([1, 2])], TypeError)]),
    OpRow("Assign", assign_tensor, assign_ref, randn((2, 3), (2, 3)), id="Assign-tensor"),
    OpRow("Assign", assign_and_read, assign_ref, [i64([1, 2]), i32([-3, 4])],
          id="Assign-int32-into-int64"),
    # v ← momentum·v + g, p ← p − lr·v, both Parameters written in place.
    OpRow("ApplyMomentum", apply_momentum_and_read, apply_momentum_ref,
          [f32([1, 2, 3]), f32([0.5, 0, -1]), f32(0.1), f32([0.5, -1, 2]), f32(0.9)],
          grad=False,
          errors=[([f32([1, 2]), f32([1, 2, 3]), f32(0.1), f32([1, 2]), f32(0.9)], ValueError),
                  ([f32([1, 2]), f32([1, 2]), f64(0.1), f32([1, 2]), f32(0.9)], TypeError)]),
]


# -- misc.py: ClipByValue, Clamp, CumSum, Invert, BitwiseAnd, BitwiseOr, AddN ------------------

def clip_ref(x, low, high):
    return np.minimum(np.maximum(x, low), high)


def cumsum_ref(axis, exclusive=False, reverse=False):
    def ref(x):
        y = np.flip(x, axis) if reverse else x
        total = np.cumsum(y, axis, dtype=x.dtype)
        if exclusive:
            total = total - y
        return np.flip(total, axis) if reverse else total
    return ref


MISC = [
    OpRow("ClipByValue", lambda x: ops.clip_by_value(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5),
          randn((3, 4))),
    OpRow("ClipByValue", lambda x, low, high: ops.clip_by_value(x, low, high), clip_ref,
          lambda rng: [rng.standard_normal((3, 4)).astype(np.float32), f32(-0.5),
                       (0.2 + rng.uniform(0, 1, (4,))).astype(np.float32)],
          id="ClipByValue-tensor-bounds"),
    OpRow("ClipByValue", lambda x, low: ops.clip_by_value(x, low), lambda x, low: np.maximum(x, low),
          with_constants(randn((5,)), -0.3),
          errors=[([ONES_23, None], ValueError)], id="ClipByValue-min-only"),
    OpRow("ClipByValue", lambda x: ops.clip_by_value(x, 2.5, 6),
          lambda x: clip_ref(x, 2.5, 6).astype(np.int32), [i32([1, 5, 9])],
          id="ClipByValue-int32-keeps-dtype"),
    OpRow("Clamp", lambda x: ops.clamp(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5),
          randn((3, 4))),
    OpRow("Clamp", lambda x, low, high: ops.clamp(x, low, high), clip_ref,
          lambda rng: [rng.standard_normal((2, 4)).astype(np.float32),
                       (rng.uniform(-1, 0, (2, 1))).astype(np.float32), f32(0.5)],
          id="Clamp-tensor-bounds"),
    OpRow("Clamp", lambda x, low, high: ops.clip(x, low, high), clip_ref,
          lambda rng: [rng.standard_normal((4,)).astype(np.float32), f32(0.5), f32(-0.5)],
          id="Clamp-min-above-max"),
    OpRow("Clamp", lambda x: ops.clamp(x, 2.5, 6), lambda x: clip_ref(x, 2.5, 6),
          [i32([1, 5, 9])], out_dtype="Float32", id="Clamp-int32-promotes"),
    OpRow("Clamp", lambda x, high: ops.clamp(x, max=high), lambda x, high: np.minimum(x, high),
          with_constants(randn((2, 3)), 0.1),
          errors=[([ONES_23, None], ValueError)], id="Clamp-max-only"),
    OpRow("CumSum", lambda x: ops.CumSum()(x, 1), cumsum_ref(1), randn((2, 4)),
          errors=[([bools([True, False])], TypeError), ([np.ones(3, np.float32)], ValueError)]),
    OpRow("CumSum", lambda x: ops.CumSum(exclusive=True)(x, 1), cumsum_ref(1, exclusive=True),
          randn((2, 4)), id="CumSum-exclusive"),
    OpRow("CumSum", lambda x: ops.CumSum(reverse=True)(x, 0), cumsum_ref(0, reverse=True),
          randn((3, 2)), id="CumSum-reverse"),
    OpRow("CumSum", lambda x: ops.CumSum(True, True)(x, -1), cumsum_ref(-1, True, True),
          randn((2, 5)), id="CumSum-exclusive-reverse"),
    OpRow("CumSum", lambda x: ops.cumsum(x, 0), cumsum_ref(0), [i32([1, 2, 3])], id="CumSum-int32"),
    OpRow("CumSum", lambda x: ops.cumsum(x, 0, ms.float32),
          lambda x: np.cumsum(x).astype(np.float32), [i32([1, 2, 3])], id="CumSum-dtype"),
    OpRow("Invert", ops.Invert(), np.invert, [i32([0, 5, -3])],
          errors=[([f32([1.0])], TypeError), ([bools([True])], TypeError)]),
    OpRow("Invert", ops.invert, np.invert, [np.array([0, 5, 255], np.uint8)], id="Invert-uint8"),
    OpRow("Invert", ops.invert, np.invert, [np.array([0, 5, -128], np.int8)], id="Invert-int8"),
    OpRow("BitwiseAnd", ops.BitwiseAnd(), np.bitwise_and, [i32([0, 5, -3]), i32([3, 3, 3])],
          errors=[([f32([1.0]), f32([1.0])], TypeError),
                  ([i32([1, 2, 3]), i32([1, 2])], ValueError)]),
    OpRow("BitwiseAnd", ops.bitwise_and, np.bitwise_and, [i32([0, 5, -3]), i64([3, 6, 3])],
          id="BitwiseAnd-int32-int64"),
    OpRow("BitwiseAnd", lambda x: ops.bitwise_and(x, 3), lambda x: np.bitwise_and(x, 3),
          [i32([[0, 5], [-3, 7]])], id="BitwiseAnd-python-int"),
    OpRow("BitwiseAnd", ops.bitwise_and, np.bitwise_and, [bools([True, False]), bools([True, True])],
          id="BitwiseAnd-bool"),
    OpRow("Gcd", ops.gcd, np.gcd, [i32([12, 18, -4, 0, 7]), i32([8, 27, 6, 0, -21])],
          grad=False, errors=[([f32([1.0]), f32([2.0])], TypeError),
                              ([i32([1, 2]), i32([2, 3, 4])], ValueError)]),
    OpRow("Gcd", ops.gcd, np.gcd, [i64([[12], [9]]), i64([8, 27, 6])], grad=False,
          id="Gcd-broadcast-int64"),
    OpRow("BitwiseOr", ops.BitwiseOr(), np.bitwise_or, [i32([0, 5, -3]), i32([3, 3, 3])],
          errors=[([f32([1.0]), i32([1])], TypeError)]),
    OpRow("BitwiseOr", ops.bitwise_or, np.bitwise_or,
          [np.array([1, 2], np.int8), np.array([[4], [8]], np.int16)], id="BitwiseOr-broadcast"),
    OpRow("AddN", lambda a, b, c: ops.addn([a, b, c]), lambda a, b, c: a + b + c,
          randn((2, 3), (2, 3), (2, 3)),
          errors=[([ONES_23, ONES_23, np.ones((2, 3), np.int32)], TypeError),
                  ([ONES_23, ONES_23, np.ones((3,), np.float32)], ValueError)]),
    OpRow("AddN", lambda a: ops.AddN()((a,)), lambda a: a, randn((4,)), id="AddN-single"),
    OpRow("AddN", lambda a, b: ops.addn((a, b)), lambda a, b: a + b, [i32([1, 2]), i32([3, -4])],
          id="AddN-int32"),
]

ROWS = JOIN + INDEX + SORT + STATE + MISC
