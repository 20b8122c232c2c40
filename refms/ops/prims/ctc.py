"""CTC losses: ``CTCLossV2`` (PyTorch-style, ``ops.ctc_loss`` / ``nn.CTCLoss``) and ``CTCLoss``
(TensorFlow-style, sparse labels).  The recursions are in :mod:`refms.kernels.ctc`.

``CTCLossV2(blank, reduction='none', zero_infinity)(log_probs (T, N, C), targets (N, S),
input_lengths (N,), target_lengths (N,))`` returns ``(nll (N,), log_alpha (N, T, 2S+1))``,
``−inf`` in ``log_alpha`` where a state is unused.  Its gradient, as MindSpore 2.10's
``CTCLossV2Grad`` (a port of PyTorch's), is ``dnll · (exp(log_probs) − posterior)`` for
frames before ``input_lengths`` and zero after: the derivative with respect to the logits
of a ``log_softmax`` (so exact through ``log_softmax``, not for log-probabilities that do not
sum to one).  ``zero_infinity`` turns the gradients of infinite losses into zeros; the loss
itself stays ``inf`` (MindSpore 2.10's kernel; PyTorch zeroes it too).  Targets equal to the
blank are outside the documented domain: refms treats them as labels (position decides).

``CTCLoss(preprocess_collapse_repeated, ctc_merge_repeated, ignore_longer_outputs_than_inputs)
(x (T, B, C), labels_indices (n, 2), labels_values (n,), sequence_length (B,))`` takes
logits (softmax inside), the blank is class ``C − 1``, and returns ``(loss (B,), gradient
(T, B, C))``, the gradient being ``softmax(x) − posterior``; its bprop scales that by
``dloss`` (MindSpore's bprop).  The sparse labels are read as MindSpore's CPU kernel reads
them: ``labels_indices[:, 0]`` counts each sample's values, taken in order; a value outside
``[0, C − 1)`` ends a sample's labels (labels padded with the blank, as the model zoo's CRNN
pads them); a sample with no alignment (too few frames) gets loss ``inf`` and gradient 0.
"""
from ... import dtype as mstype
from ... import kernels
from ..primitive import F, Primitive, Abstract, register, op_error
from ._base import check_tensor, shape_str

__all__ = ["CTCLossV2", "CTCLossV2Grad", "CTCLoss"]

_FLOAT = (mstype.float32, mstype.float64)
_INT = (mstype.int32, mstype.int64)


def _check(op, name, value, dtypes, rank):
    check_tensor(op, name, value)
    if value.dtype not in dtypes:
        listed = ", ".join(f"Tensor[{d}]" for d in dtypes)
        raise op_error(op, f"the input argument[{name}] must be a type of {{{listed}}}, but got "
                           f"Tensor[{value.dtype}].")
    if len(value.shape) != rank:
        raise op_error(op, f"the '{name}' must be a {rank}-D tensor, but got shape "
                           f"{shape_str(value.shape)}.", ValueError)


def _check_v2_inputs(op, log_probs, targets, input_lengths, target_lengths):
    _check(op, "log_probs", log_probs, _FLOAT, 3)
    _check(op, "targets", targets, _INT, 2)
    _check(op, "input_lengths", input_lengths, _INT, 1)
    _check(op, "target_lengths", target_lengths, _INT, 1)
    batch = log_probs.shape[1]
    for name, value in (("targets", targets), ("input_lengths", input_lengths),
                        ("target_lengths", target_lengths)):
        if value.shape[0] != batch:
            raise op_error(op, f"the first dimension of '{name}' must be the batch size "
                               f"{batch} of 'log_probs', but got shape {shape_str(value.shape)}.",
                           ValueError)


def _v2_labels(op, log_probs, targets, input_lengths, target_lengths, blank):
    """(labels per sample, input lengths) read on the host, checking lengths and labels."""
    steps, batch, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise op_error(op, f"the 'blank' must be in [0, {classes}), but got {blank}.",
                       ValueError)
    labels, lengths = [], []
    for n in range(batch):
        length, label_length = int(input_lengths[n]), int(target_lengths[n])
        if not 0 <= length <= steps:
            raise op_error(op, f"input_lengths[{n}] = {length} must be in [0, {steps}].",
                           RuntimeError)
        if not 0 <= label_length <= targets.shape[1]:
            raise op_error(op, f"target_lengths[{n}] = {label_length} must be in "
                               f"[0, {targets.shape[1]}].", RuntimeError)
        row = [int(v) for v in targets[n, :label_length]]
        if any(not 0 <= v < classes for v in row):
            raise op_error(op, f"the targets of sample {n} must be in [0, {classes}), but got "
                               f"{row}.", RuntimeError)
        labels.append(row)
        lengths.append(length)
    return labels, lengths


@register
class CTCLossV2(Primitive):
    """(nll, log_alpha) of CTC on log-probabilities; nllₙ = −log p(targetsₙ | log_probs[:, n])."""
    n_tensor_inputs = 4
    n_outputs = 2

    def __init__(self, blank=0, reduction="none", zero_infinity=False):
        if isinstance(blank, bool) or not isinstance(blank, int):
            raise op_error("CTCLossV2", f"the 'blank' must be int, but got "
                                        f"{type(blank).__name__}.")
        if reduction != "none":
            raise op_error("CTCLossV2", f"the 'reduction' must be 'none', but got "
                                        f"{reduction!r}.", ValueError)
        if not isinstance(zero_infinity, bool):
            raise op_error("CTCLossV2", f"the 'zero_infinity' must be bool, but got "
                                        f"{type(zero_infinity).__name__}.")
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def infer(self, log_probs, targets, input_lengths, target_lengths):
        _check_v2_inputs("CTCLossV2", log_probs, targets, input_lengths, target_lengths)
        steps, batch, _ = log_probs.shape
        states = 2 * targets.shape[1] + 1
        return (Abstract((batch,), log_probs.dtype),
                Abstract((batch, steps, states), log_probs.dtype))

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        labels, lengths = _v2_labels("CTCLossV2", log_probs, targets, input_lengths,
                                     target_lengths, self.blank)
        nll, log_alpha = kernels.call("ctc_loss_v2")(log_probs, labels, lengths, self.blank,
                                                      2 * targets.shape[1] + 1)
        return nll, log_alpha

    def bprop(self, log_probs, targets, input_lengths, target_lengths, out, dout):
        grad = CTCLossV2Grad(self.blank, self.zero_infinity)(log_probs, targets, input_lengths,
                                                             target_lengths)
        return (grad * F.reshape(dout[0], (1, -1, 1)), F.zeros_like(targets),
                F.zeros_like(input_lengths), F.zeros_like(target_lengths))


@register
class CTCLossV2Grad(Primitive):
    """d nll / d log_probs as MindSpore's CTCLossV2Grad: exp(log_probs) − posterior (T, N, C)."""
    n_tensor_inputs = 4

    def __init__(self, blank=0, zero_infinity=False):
        self.blank, self.zero_infinity = blank, zero_infinity

    def infer(self, log_probs, targets, input_lengths, target_lengths):
        _check_v2_inputs("CTCLossV2Grad", log_probs, targets, input_lengths, target_lengths)
        return Abstract(log_probs.shape, log_probs.dtype)

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        labels, lengths = _v2_labels("CTCLossV2Grad", log_probs, targets, input_lengths,
                                     target_lengths, self.blank)
        return kernels.call("ctc_loss_v2_grad")(log_probs, labels, lengths, self.blank,
                                                self.zero_infinity)


def _sample_values(op, labels_indices, labels_values, batch):
    """The label values of each sample, as MindSpore's CPU kernel reads the sparse labels:
    the first column of ``labels_indices`` only counts how many values each sample has,
    and the values are taken in their order (sample 0's first); the positions in the
    second column are not read."""
    counts = [0] * batch
    for sample, _ in labels_indices.tolist():
        if not 0 <= int(sample) < batch:
            raise op_error(op, f"'index' must be less than the length of 'label', but got "
                               f"'index': {int(sample)} and the length of 'label': {batch}",
                           RuntimeError)
        counts[int(sample)] += 1
    values = [int(v) for v in labels_values.tolist()]
    rows, start = [], 0
    for count in counts:
        rows.append(values[start:start + count])
        start += count
    return rows


def _label_sequence(op, row, blank, collapse):
    """The labels a sample's values spell: a value outside [0, blank) (the blank, a larger
    class, a negative number) ends the sequence (the zoo pads labels with the blank), and a
    label after it is an error; ``collapse`` first drops a value equal to the one before it
    (``preprocess_collapse_repeated``, compared before the padding is dropped)."""
    labels, ended = [], False
    for i, value in enumerate(row):
        if collapse and i > 0 and value == row[i - 1]:
            continue
        if not 0 <= value < blank:
            ended = True
        elif ended:
            raise op_error(op, f"the value of labels_values[{i}] must be in the range of "
                               f"[0, num_classes), but got {value} after a blank (a padding) in "
                               f"the same sample.", RuntimeError)
        else:
            labels.append(value)
    return labels


@register
class CTCLoss(Primitive):
    """(loss (B,), gradient (T, B, C)) of CTC on logits with sparse labels, blank = C − 1."""
    n_tensor_inputs = 4
    n_outputs = 2

    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        for name, value in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                            ("ctc_merge_repeated", ctc_merge_repeated),
                            ("ignore_longer_outputs_than_inputs",
                             ignore_longer_outputs_than_inputs)):
            if not isinstance(value, bool):
                raise op_error("CTCLoss", f"the '{name}' must be bool, but got "
                                          f"{type(value).__name__}.")
        self.preprocess_collapse_repeated = preprocess_collapse_repeated
        self.ctc_merge_repeated = ctc_merge_repeated
        self.ignore_longer_outputs_than_inputs = ignore_longer_outputs_than_inputs

    def infer(self, x, labels_indices, labels_values, sequence_length):
        op = "CTCLoss"
        _check(op, "x", x, (mstype.float16, mstype.float32, mstype.float64), 3)
        _check(op, "labels_indices", labels_indices, (mstype.int64,), 2)
        _check(op, "labels_values", labels_values, (mstype.int32,), 1)
        _check(op, "sequence_length", sequence_length, (mstype.int32,), 1)
        if labels_indices.shape[1] != 2 or labels_indices.shape[0] != labels_values.shape[0]:
            raise op_error(op, f"the 'labels_indices' must have shape (n, 2) with n = "
                               f"len(labels_values), but got {shape_str(labels_indices.shape)} "
                               f"and {shape_str(labels_values.shape)}.", ValueError)
        if sequence_length.shape[0] != x.shape[1]:
            raise op_error(op, f"the 'sequence_length' must have the batch size {x.shape[1]} "
                               f"of 'x', but got {shape_str(sequence_length.shape)}.", ValueError)
        return Abstract((x.shape[1],), x.dtype), Abstract(x.shape, x.dtype)

    def forward(self, x, labels_indices, labels_values, sequence_length):
        op = "CTCLoss"
        steps, batch, classes = x.shape
        lengths = [int(v) for v in sequence_length.tolist()]
        for n, length in enumerate(lengths):
            if length <= 0:
                raise op_error(op, f"the 'sequence_length' must be greater than 0, but got "
                                   f"{length} for sample {n}.", RuntimeError)
            if length > steps:
                raise op_error(op, f"the 'max_time'(the 1st dimension value of 'probs') must "
                                   f"be greater than or equal to 'sequence_length', but got "
                                   f"'max_time': {steps} and 'sequence_length': {length}",
                               RuntimeError)
        rows = _sample_values(op, labels_indices, labels_values, batch)
        labels = [_label_sequence(op, row, classes - 1, self.preprocess_collapse_repeated)
                  for row in rows]
        for n, (row, length) in enumerate(zip(labels, lengths)):
            if len(row) > length and not self.ignore_longer_outputs_than_inputs:
                raise op_error(op, f"input time(sequence length) must be greater than output "
                                   f"size(label length), but got sequence length: {length} "
                                   f"and label length: {len(row)}", RuntimeError)
        if any(length == 1 for length in lengths):
            # MindSpore's backward recursion starts from the last two frames.
            raise op_error(op, "the length of log_beta_b must be greater than 1! (every "
                               "'sequence_length' must be at least 2)", RuntimeError)
        return kernels.call("ctc_loss_logits")(x, labels, lengths, self.ctc_merge_repeated)

    def bprop(self, x, labels_indices, labels_values, sequence_length, out, dout):
        dx = out[1] * F.reshape(dout[0], (1, -1, 1))
        return (dx, F.zeros_like(labels_indices), F.zeros_like(labels_values),
                F.zeros_like(sequence_length))
