"""``ops.ctc_loss``: the CTC loss of ``CTCLossV2`` with a reduction (MindSpore 2.10 ``nn_func``).

    'none': nllₙ;   'sum': Σₙ nllₙ;   'mean': meanₙ(nllₙ / max(target_lengthsₙ, 1))

The mean divides in float32 and casts back, as MindSpore does.  Returns ``(loss, log_alpha)``.
"""
from ... import dtype as mstype
from ..prims.ctc import CTCLossV2
from ..primitive import F

__all__ = ["ctc_loss", "check_ctc_arguments"]


def check_ctc_arguments(blank, reduction, zero_infinity, op):
    if isinstance(blank, bool) or not isinstance(blank, int):
        raise TypeError(f"For '{op}', the type of 'blank' should be int, but got "
                        f"{type(blank).__name__}.")
    if not isinstance(reduction, str):
        raise TypeError(f"For '{op}', the type of 'reduction' should be str, but got "
                        f"{type(reduction).__name__}.")
    if reduction not in ("none", "sum", "mean"):
        raise ValueError(f"For '{op}', the 'reduction' should be in ['none', 'sum', 'mean'], "
                         f"but got {reduction}.")
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"For '{op}', the type of 'zero_infinity' should be bool, but got "
                        f"{type(zero_infinity).__name__}.")


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """``ops.ctc_loss(log_probs (T, N, C), targets (N, S), input_lengths, target_lengths)``."""
    check_ctc_arguments(blank, reduction, zero_infinity, "ctc_loss")
    loss, log_alpha = CTCLossV2(blank=blank, reduction="none",
                                zero_infinity=zero_infinity)(log_probs, targets, input_lengths,
                                                             target_lengths)
    if reduction == "sum":
        loss = F.reduce_sum(loss)
    elif reduction == "mean":
        dtype = loss.dtype
        lengths = F.clamp(F.cast(target_lengths, mstype.float32), 1.0, None)
        loss = F.cast(F.reduce_mean(F.cast(loss, mstype.float32) / lengths), dtype)
    return loss, log_alpha
