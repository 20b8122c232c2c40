"""Record MindSpore 2.10's behaviour on calls the application tutorials make (cv, nlp,
generative pages), for ``tests/test_apps_compat.py``.

Each probe is a small program of its own, written against the ``ms`` namespace given,
exercising one call such a tutorial makes; it returns plain Python values (printed text,
shapes, dtype names, values) or ``{"raises": name}``.  The same probes run on refms in
the test::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_apps.py

writes ``tests/recorders/apps.json``.
"""
import os

import numpy as np

from probe_set import ProbeSet, outcome

PROBE_SET = ProbeSet("apps.json", "record_apps.py")
probe = PROBE_SET.probe


def values(tensor):
    """dtype name, shape and values of a Tensor."""
    return [str(tensor.dtype), list(tensor.shape), tensor.asnumpy().tolist()]


# -- a CRF masks its scores with mnp.where on an Int64 mask ---------------------------------

@probe
def numpy_where_non_bool_condition(ms):
    """mnp.where with integer, float and list conditions (nonzero counts as True)."""
    mnp = ms.numpy
    T = ms.Tensor
    mask = T(np.array([[1, 0, 2]], np.int64))
    return {
        "int64": outcome(lambda: values(mnp.where(mask, T(np.array([1.0, 2, 3], np.float32)),
                                                  T(np.array([[9.0], [8.0]], np.float32))))),
        "float": outcome(lambda: values(mnp.where(T(np.array([0.5, 0.0, 1.0], np.float32)), 1, 2))),
        "list": outcome(lambda: values(mnp.where([True, False, True],
                                                 T(np.array([1, 2, 3], np.int32)), 0.5))),
    }


# -- evaluation metrics (segmentation / classification pages subclass or use them) ---------

def _metric_value(value):
    """A metric's result as (type name, plain values)."""
    if isinstance(value, (list, tuple)):
        return [_metric_value(v) for v in value]
    return [type(value).__name__, np.asarray(value).tolist()]


def _run_metric(make, *updates, **eval_kwargs):
    def run():
        metric = make()
        metric.clear()
        for update in updates:
            metric.update(*update)
        return _metric_value(metric.eval(**eval_kwargs))
    return outcome(run)


_LOGITS = np.array([[0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.7, 0.2, 0.1], [0.3, 0.3, 0.4]],
                   np.float32)
_LABELS = np.array([1, 2, 1, 0], np.int32)
_MULTI_PRED = np.array([[0, 1, 1], [1, 0, 1], [0, 0, 1], [1, 1, 0]], np.float32)
_MULTI_TRUE = np.array([[0, 1, 0], [1, 1, 1], [0, 0, 1], [0, 1, 0]], np.float32)


@probe
def classification_metrics(ms):
    """Precision / Recall / Fbeta / F1 per class and averaged, two updates, multilabel."""
    T = ms.Tensor
    two = ((T(_LOGITS), T(_LABELS)), (_LOGITS[:2].tolist(), np.eye(3, dtype=np.float32)[[0, 2]]))
    out = {}
    for name, make in [("precision", ms.train.Precision), ("recall", ms.train.Recall),
                       ("f1", ms.train.F1), ("fbeta2", lambda: ms.train.Fbeta(2)),
                       ("fbeta_half", lambda: ms.train.Fbeta(0.5))]:
        out[name] = _run_metric(make, *two)
        out[name + "_avg"] = _run_metric(make, *two, average=True)
    for name, cls in [("precision", ms.train.Precision), ("recall", ms.train.Recall)]:
        multi = (T(_MULTI_PRED), T(_MULTI_TRUE))
        out[name + "_multilabel"] = _run_metric(lambda: cls("multilabel"), multi, multi)
        out[name + "_multilabel_avg"] = _run_metric(lambda: cls("multilabel"), multi,
                                                    average=True)
        out[name + "_not_updated"] = _run_metric(cls)
        out[name + "_bad_type"] = outcome(lambda: cls("regression"))
        out[name + "_label_out_of_range"] = _run_metric(
            cls, (T(_LOGITS), T(np.array([1, 2, 3, 0], np.int32))))
        out[name + "_three_inputs"] = _run_metric(cls, (T(_LOGITS), T(_LABELS), T(_LABELS)))
    out["fbeta_zero"] = outcome(lambda: ms.train.Fbeta(0))
    out["names"] = sorted(n for n in ["precision", "recall", "F1", "dice", "perplexity", "mae",
                                      "mse", "confusion_matrix", "cosine_similarity"]
                          if n in ms.train.names())
    out["by_name"] = type(ms.train.get_metric_fn("precision")).__name__
    return out


@probe
def confusion_matrix_metric(ms):
    """ConfusionMatrix counts, normalisations and thresholding."""
    T = ms.Tensor
    out = {}
    for norm in ("no_norm", "target", "prediction", "all"):
        out[norm] = _run_metric(lambda: ms.train.ConfusionMatrix(3, normalize=norm),
                                (T(_LOGITS), T(_LABELS)))
    out["threshold"] = _run_metric(
        lambda: ms.train.ConfusionMatrix(2, threshold=0.3),
        (T(np.array([0.1, 0.35, 0.8, 0.2], np.float32)), T(np.array([0, 1, 1, 1], np.int32))))
    out["bad_norm"] = outcome(lambda: ms.train.ConfusionMatrix(3, normalize="rows"))
    out["int_threshold"] = outcome(lambda: ms.train.ConfusionMatrix(3, threshold=1))
    out["not_updated"] = _run_metric(lambda: ms.train.ConfusionMatrix(3))
    return out


@probe
def perplexity_dice_cosine(ms):
    """Perplexity (with an ignored label), Dice and CosineSimilarity values."""
    T = ms.Tensor
    probs = _LOGITS / _LOGITS.sum(axis=1, keepdims=True)
    vectors = np.array([[1.0, 2.0, 0.5], [0.5, -1.0, 2.0], [3.0, 0.0, 1.0]], np.float32)
    out = {
        "perplexity": _run_metric(ms.train.Perplexity, (T(probs), T(_LABELS))),
        "perplexity_two": _run_metric(ms.train.Perplexity, (T(probs), T(_LABELS)),
                                      (probs[:2], _LABELS[:2])),
        "perplexity_ignore": _run_metric(lambda: ms.train.Perplexity(ignore_label=1),
                                         (T(probs), T(_LABELS))),
        "perplexity_bad_shape": _run_metric(ms.train.Perplexity, (T(probs), T(_LABELS[:3]))),
        "dice": _run_metric(ms.train.Dice, (T(_MULTI_PRED), T(_MULTI_TRUE))),
        "dice_two": _run_metric(lambda: ms.train.Dice(smooth=0.5), (_MULTI_PRED, _MULTI_TRUE),
                                (T(_MULTI_PRED[:2]), T(_MULTI_PRED[:2]))),
        "dice_shape": _run_metric(ms.train.Dice, (T(_MULTI_PRED), T(_MULTI_TRUE[:2]))),
        "dice_smooth": outcome(lambda: ms.train.Dice(smooth=0)),
    }
    for similarity in ("cosine", "dot"):
        for reduction in ("none", "sum", "mean"):
            out[f"{similarity}_{reduction}"] = _run_metric(
                lambda: ms.train.CosineSimilarity(similarity, reduction), (T(vectors),))
    out["cosine_keep_diagonal"] = _run_metric(
        lambda: ms.train.CosineSimilarity(zero_diagonal=False), (vectors,))
    out["cosine_bad"] = outcome(lambda: ms.train.CosineSimilarity("l2"))
    out["cosine_not_updated"] = _run_metric(ms.train.CosineSimilarity)
    return out


@probe
def auc_and_regression_metrics(ms):
    """auc by the trapezoidal rule; MAE / MSE / Loss of float32 inputs."""
    T = ms.Tensor
    x = np.array([0.0, 0.1, 0.4, 0.4, 1.0])
    y = np.array([0.0, 0.5, 0.6, 0.8, 1.0])
    pred = T(_LOGITS)
    zeros = T(np.zeros((4, 3), np.float32))
    return {
        "increasing": outcome(lambda: _metric_value(ms.train.auc(x, y))),
        "decreasing": outcome(lambda: _metric_value(ms.train.auc(x[::-1], y[::-1]))),
        "reorder": outcome(lambda: _metric_value(
            ms.train.auc(np.array([0.5, 0.0, 1.0, 0.2]), np.array([0.7, 0.0, 1.0, 0.4]),
                         reorder=True))),
        "column": outcome(lambda: _metric_value(ms.train.auc(x.reshape(-1, 1), y))),
        "not_monotonic": outcome(lambda: ms.train.auc(np.array([0.0, 1.0, 0.5]), y[:3])),
        "list": outcome(lambda: ms.train.auc([0.0, 1.0], [0.0, 1.0])),
        "one_point": outcome(lambda: ms.train.auc(np.array([0.5]), np.array([0.5]))),
        "lengths": outcome(lambda: ms.train.auc(x, y[:3])),
        "mae": _run_metric(ms.train.MAE, (pred, zeros), (pred, T(np.ones((4, 3), np.float32)))),
        "mse": _run_metric(ms.train.MSE, (pred, zeros)),
        "loss": _run_metric(ms.train.Loss, (T(np.float32(0.5)),),
                            (T(np.array([1.0, 0.25], np.float32)),)),
    }


@probe
def roc_curves(ms):
    """ROC of binary scores (ties, pos_label) and of square per-class scores; its checks."""
    T = ms.Tensor
    scores = np.array([0.1, 0.4, 0.35, 0.8, 0.4, 0.9], np.float32)
    labels = np.array([0, 0, 1, 1, 1, 0], np.int32)
    square = np.array([[0.28, 0.55, 0.15, 0.05], [0.10, 0.20, 0.05, 0.05],
                       [0.20, 0.05, 0.15, 0.05], [0.05, 0.05, 0.05, 0.75]], np.float32)
    return {
        "binary": _run_metric(ms.train.ROC, (T(scores), T(labels))),
        "pos_label_0": _run_metric(lambda: ms.train.ROC(pos_label=0), (scores, labels)),
        "last_update": _run_metric(ms.train.ROC, (T(scores[:2]), T(labels[:2])),
                                   (T(scores), T(labels))),
        "classes": _run_metric(lambda: ms.train.ROC(class_num=4),
                               (T(square), T(np.array([0, 1, 2, 3], np.int32)))),
        "auc": outcome(lambda: _metric_value(ms.train.auc(
            *ms.train.ROC()(T(scores), T(labels))[:2]))),
        "no_negative": _run_metric(ms.train.ROC, (T(scores[2:5]), T(labels[2:5]))),
        "class_num_mismatch": _run_metric(lambda: ms.train.ROC(class_num=3),
                                          (T(square), T(np.array([0, 1, 2, 3], np.int32)))),
        "class_num_binary": _run_metric(lambda: ms.train.ROC(class_num=2),
                                        (T(scores), T(labels))),
        "pos_label_with_classes": _run_metric(lambda: ms.train.ROC(class_num=4, pos_label=1),
                                              (T(square), T(np.array([0, 1, 2, 3], np.int32)))),
        "bad_class_num": outcome(lambda: ms.train.ROC(class_num=2.0)),
        "not_updated": _run_metric(ms.train.ROC),
    }


# -- generative/diffusion reads Fashion-MNIST ------------------------------------------------

def _write_idx_pair(root, prefix, images, labels):
    with open(os.path.join(root, prefix + "-images-idx3-ubyte"), "wb") as f:
        f.write(np.array([2051, *images.shape], ">i4").tobytes() + images.tobytes())
    with open(os.path.join(root, prefix + "-labels-idx1-ubyte"), "wb") as f:
        f.write(np.array([2049, len(labels)], ">i4").tobytes() + labels.tobytes())


@probe
def mnist_family_datasets(ms):
    """FashionMnistDataset / KMnistDataset: columns, dtypes, usage order, sizes and errors."""
    import tempfile
    root = tempfile.mkdtemp()
    pixels = (np.arange(5 * 28 * 28) % 251).astype(np.uint8).reshape(5, 28, 28)
    _write_idx_pair(root, "train", pixels[:3], np.array([3, 1, 4], np.uint8))
    _write_idx_pair(root, "t10k", pixels[3:], np.array([1, 5], np.uint8))
    out = {}
    for name in ("FashionMnistDataset", "KMnistDataset"):
        cls = getattr(ms.dataset, name)

        def rows(usage, **kwargs):
            data = cls(root, usage=usage, shuffle=False, **kwargs)
            return [data.get_dataset_size(), data.get_col_names(),
                    [[list(image.shape), str(image.dtype), int(image.sum()), int(label),
                      str(label.dtype)]
                     for image, label in data.create_tuple_iterator(output_numpy=True)]]
        out[name] = {
            "train": outcome(rows, "train"),
            "test": outcome(rows, "test"),
            "all": outcome(rows, None),
            "num_samples": outcome(lambda: rows("all", num_samples=3)),
            "bad_usage": outcome(rows, "valid"),
            "no_dir": outcome(lambda: cls(os.path.join(root, "missing"))),
        }
    return out


# -- generative/diffusion binds the head count into a rearrange with ops.Partial -------------

def _affine(a, b, c=1):
    return a * 10 + b + c


@probe
def partial_with_map(ms):
    """ops.Partial binds leading arguments; ops.Map applies the result (PyNative and graph)."""
    T = ms.Tensor
    bind = ms.ops.Partial()

    class Heads(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.partial = ms.ops.Partial()
            self.map = ms.ops.Map()

        def construct(self, x):
            return self.map(self.partial(_affine, 2), (x, x * 2))

    def run_cell(mode):
        old = ms.get_context("mode")
        ms.set_context(mode=mode)
        try:
            return [float(v.asnumpy()) for v in Heads()(T(np.float32(1.0)))]
        finally:
            ms.set_context(mode=old)
    bound = bind(_affine, T(np.float32(2.0)))
    return {
        "type": type(bound).__name__,
        "call": float(bound(T(np.float32(3.0))).asnumpy()),
        "keyword": bound(1, c=5).asnumpy().tolist(),
        "map": list(ms.ops.Map()(bind(_affine, 1), (1, 2))),
        "no_args": outcome(bind),
        "not_callable": outcome(bind, 3),
        "pynative_cell": run_cell(ms.PYNATIVE_MODE),
        "graph_cell": run_cell(ms.GRAPH_MODE),
    }


@probe
def inv_values(ms):
    """ops.inv / Tensor.inv: 1 / x in x's dtype (integers truncate), its gradient, bad input."""
    T = ms.Tensor
    floats = T(np.array([0.25, -2.0, 0.0], np.float32))
    ints = T(np.array([2, 4, -1, 1], np.int32))
    return {
        "float32": outcome(lambda: values(ms.ops.inv(floats))),
        "int32": outcome(lambda: values(ms.ops.inv(ints))),
        "float16": outcome(lambda: values(ms.ops.inv(T(np.array([0.5, 4.0], np.float16))))),
        "method": outcome(lambda: values(T(np.array([2.0, 0.5], np.float32)).inv())),
        "class": outcome(lambda: values(ms.ops.Inv()(T(np.array([8.0], np.float32))))),
        "grad": outcome(lambda: values(ms.grad(lambda t: ms.ops.inv(t).sum())(
            T(np.array([0.5, 4.0], np.float32))))),
        "python_float": outcome(ms.ops.inv, 2.0),
    }


if __name__ == "__main__":
    PROBE_SET.record()
