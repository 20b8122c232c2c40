"""``mint.einsum``: Einstein summation, by broadcasting and summing.

Algorithm: give every subscript letter one axis of a common index space (the output
letters first, then the summed ones); permute and reshape each operand onto that space,
multiply them (broadcasting), and sum over the letters the output lacks.  A letter
repeated within one operand (``"ii"``) first takes that operand's diagonal.  Gradients
and graph mode come from Transpose, Reshape, Mul and ReduceSum.  The full product is
formed before summing: simple rather than memory-frugal (no contraction order).
``...`` (ellipsis) stands for the leading dims an operand has beyond its letters.
"""
from ..ops import functional as F

__all__ = ["einsum"]

#: Letters that stand for the dims of an ellipsis (subscripts use lower-case letters).
ELLIPSIS_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _parse(equation, operands):
    """(subscripts per operand, output subscripts), with ``...`` expanded to letters."""
    equation = equation.replace(" ", "")
    if "->" in equation:
        inputs, output = equation.split("->")
    else:
        inputs, output = equation, None
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"For 'einsum', the equation has {len(terms)} operands but "
                         f"{len(operands)} were given.")
    n_ellipsis = 0
    for term, x in zip(terms, operands):
        if "..." in term:
            n_ellipsis = max(n_ellipsis, len(x.shape) - len(term.replace("...", "")))
    batch = ELLIPSIS_LETTERS[:n_ellipsis]
    expanded = []
    for term, x in zip(terms, operands):
        if "..." in term:
            k = len(x.shape) - len(term.replace("...", ""))
            term = term.replace("...", batch[n_ellipsis - k:])
        if len(term) != len(x.shape):
            raise ValueError(f"For 'einsum', the subscripts '{term}' do not match an operand of "
                             f"rank {len(x.shape)}.")
        expanded.append(term)
    if output is None:                       # implicit mode: the letters used once, sorted
        counts = {}
        for term in expanded:
            for letter in term:
                counts[letter] = counts.get(letter, 0) + 1
        once = sorted(c for c, n in counts.items() if n == 1 and c not in batch)
        output = batch + "".join(once)
    else:
        output = output.replace("...", batch)
    return expanded, output


def _diagonal(x, term):
    """``x`` with each letter repeated in ``term`` reduced to the diagonal (``"ii"`` -> ``"i"``)."""
    while len(set(term)) < len(term):
        i = next(k for k, letter in enumerate(term) if term.count(letter) > 1)
        j = term.index(term[i], i + 1)
        n = x.shape[i]
        shape = [1] * len(term)
        shape[i] = shape[j] = n
        x = F.sum(F.mul(x, F.reshape(F.eye(n, n, x.dtype), tuple(shape))), j)
        term = term[:j] + term[j + 1:]
    return x, term


def einsum(equation, *operands):
    """Σ over the letters missing from the output of Π operands (``"ij,jk->ik"``: a matmul)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    terms, output = _parse(equation, operands)
    pairs = [_diagonal(x, term) for x, term in zip(operands, terms)]
    letters = list(output)
    for _, term in pairs:
        for letter in term:
            if letter not in letters:
                letters.append(letter)
    product = None
    for x, term in pairs:
        present = sorted(term, key=letters.index)            # the operand's letters, reordered
        order = tuple(term.index(letter) for letter in present)
        if order != tuple(range(len(term))):
            x = F.transpose(x, order)
        shape = tuple(x.shape[present.index(c)] if c in present else 1 for c in letters)
        x = F.reshape(x, shape)
        product = x if product is None else F.mul(product, x)
    summed = tuple(range(len(output), len(letters)))
    return F.sum(product, summed) if summed else product
