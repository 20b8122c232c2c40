"""Reference kernel of Connectionist Temporal Classification (Graves et al., ICML 2006), numpy.

For one sample with per-frame log-probabilities ``lp`` (T, C) and a label
sequence ``l`` of length L, the extended sequence ``l'`` puts a blank before,
between and after the labels (2L + 1 states).  In log space::

    α_0(0) = lp[0, blank],  α_0(1) = lp[0, l'_1],
    α_t(s) = lp[t, l'_s] + logsumexp(α_{t−1}(s), α_{t−1}(s−1), α_{t−1}(s−2) if s is a label
             position and l'_s ≠ l'_{s−2}),
    −log p(l | x) = −logsumexp(α_{T−1}(2L), α_{T−1}(2L − 1)),

and β the same recursion run backwards from the last frame.  The posterior
of class c at frame t is ``Σ_{s: l'_s = c} exp(α_t(s) + β_t(s) − lp[t, c] + log p)``
(α and β both include frame t's emission).  ``merge_repeated=False``
(TensorFlow's ``ctc_merge_repeated``) forbids a label state from staying
on itself and lets a repeated label follow its twin without a blank between.
Positions, not values, decide (a label equal to the blank index is a label).

Contract::

    ctc_alpha_beta(lp, labels, length, blank, merge_repeated)
        -> (nll, log_alpha (T, 2L+1), log_beta (T, 2L+1)); frames from ``length`` on unused
    ctc_posterior(lp, labels, length, blank, log_alpha, log_beta, nll) -> (T, C) (zero from
        ``length`` on)
    ctc_loss_v2(log_probs, labels, input_lengths, blank, states) -> (nll (N,), log_alpha (N, T, states))
    ctc_loss_v2_grad(log_probs, labels, input_lengths, blank, zero_infinity) -> (T, N, C)
    ctc_loss_logits(x, labels, input_lengths, merge_repeated) -> (loss (B,), gradient (T, B, C))

``labels`` of the batch kernels: one Python list of ints per sample.
"""
import numpy as np

from . import reference


def _logsumexp(*terms):
    stacked = np.stack(terms)
    top = np.max(stacked, axis=0)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.sum(np.exp(stacked - safe), axis=0))


def _extended(labels, blank):
    ext = np.full(2 * len(labels) + 1, blank, dtype=np.int64)
    ext[1::2] = labels
    return ext


def _skip_allowed(ext, merge_repeated):
    """s may be entered from s − 2: a label position (odd s ≥ 3) whose label differs from the one
    before, or any label position when repeats are not merged."""
    allowed = np.zeros(len(ext), dtype=bool)
    allowed[3::2] = True
    if merge_repeated:
        allowed[2:] &= ext[2:] != ext[:-2]
    return allowed


@reference
def ctc_alpha_beta(lp, labels, length, blank, merge_repeated=True):
    lp = lp.astype(np.float64)
    ext = _extended(np.asarray(labels, dtype=np.int64), blank)
    states = len(ext)
    skip = _skip_allowed(ext, merge_repeated)
    stay = np.ones(states, dtype=bool)
    if not merge_repeated:                  # a label position may not repeat its label
        stay[1::2] = False
    neg_inf = -np.inf
    alpha = np.full((lp.shape[0], states), neg_inf)
    beta = np.full((lp.shape[0], states), neg_inf)
    if length == 0:
        nll = 0.0 if len(labels) == 0 else np.inf
        return nll, alpha, beta
    alpha[0, 0] = lp[0, blank]
    if states > 1:
        alpha[0, 1] = lp[0, ext[1]]
    for t in range(1, length):
        previous = alpha[t - 1]
        same = np.where(stay, previous, neg_inf)
        one = np.concatenate([[neg_inf], previous[:-1]])
        two = np.where(skip, np.concatenate([[neg_inf, neg_inf], previous])[:states], neg_inf)
        alpha[t] = lp[t, ext] + _logsumexp(same, one, two)
    last = length - 1
    beta[last, -1] = lp[last, ext[-1]]
    if states > 1:
        beta[last, -2] = lp[last, ext[-2]]
    skip_next = np.concatenate([skip, [False, False]])[2:]    # s + 2 may be entered from s
    for t in range(last - 1, -1, -1):
        following = beta[t + 1]
        same = np.where(stay, following, neg_inf)
        one = np.concatenate([following[1:], [neg_inf]])
        two = np.where(skip_next, np.concatenate([following, [neg_inf, neg_inf]])[2:], neg_inf)
        beta[t] = lp[t, ext] + _logsumexp(same, one, two)
    ends = [alpha[last, -1]] + ([alpha[last, -2]] if states > 1 else [])
    nll = -float(_logsumexp(*[np.float64(e) for e in ends]))
    return nll, alpha, beta


@reference
def ctc_posterior(lp, labels, length, blank, log_alpha, log_beta, nll):
    lp = lp.astype(np.float64)
    ext = _extended(np.asarray(labels, dtype=np.int64), blank)
    post = np.zeros(lp.shape)
    if not np.isfinite(nll):
        return post
    joint = log_alpha[:length] + log_beta[:length] + nll - lp[:length, ext]
    for s, c in enumerate(ext):
        post[:length, c] += np.exp(joint[:, s])
    return post


# --- batches: the primitives' forwards (refms/ops/prims/ctc.py) -----------------------------------

@reference
def ctc_loss_v2(log_probs, labels, input_lengths, blank, states):
    """(nll (N,), log_alpha (N, T, states)) of (T, N, C) ``log_probs``; ``labels`` a list of N
    label lists, ``input_lengths`` N ints; −inf in ``log_alpha`` where a state is unused."""
    steps, batch, _ = log_probs.shape
    nll = np.zeros(batch)
    log_alpha = np.full((batch, steps, states), -np.inf)
    for n in range(batch):
        loss, alpha, _ = ctc_alpha_beta(log_probs[:, n], labels[n], input_lengths[n], blank)
        nll[n] = loss
        log_alpha[n, :, :alpha.shape[1]] = alpha
    return nll.astype(log_probs.dtype), log_alpha.astype(log_probs.dtype)


@reference
def ctc_loss_v2_grad(log_probs, labels, input_lengths, blank, zero_infinity):
    """exp(log_probs) − posterior for frames before each input length, zero after (and for an
    infinite loss when ``zero_infinity``)."""
    grad = np.zeros(log_probs.shape)
    for n in range(log_probs.shape[1]):
        lp, length = log_probs[:, n], input_lengths[n]
        loss, alpha, beta = ctc_alpha_beta(lp, labels[n], length, blank)
        if np.isinf(loss) and zero_infinity:
            continue
        post = ctc_posterior(lp, labels[n], length, blank, alpha, beta, loss)
        grad[:length, n] = np.exp(lp[:length].astype(np.float64)) - post[:length]
    return grad.astype(log_probs.dtype)


def _empty_label_cpu_kernel(lp, length, blank):
    """(nll, posterior (T, C)) that MindSpore 2.10's CPU ``CTCLoss`` kernel gives a sample with
    no labels.  Its backward recursion for a one-state sequence starts from both of the last
    two frames (β_{T−2} = β_{T−1} = 0 before the recursion), so with b_t = p(blank at t)::

        nll = −(Σ_{t<T−1} log b_t + log(1 + b_{T−1}))      (the exact value is −Σ_t log b_t)

    and the posterior of the blank is 1 at frames before the last, b/(1 + b) at the last."""
    last = length - 1
    b_last = np.exp(lp[last, blank])
    nll = -(float(lp[:last, blank].sum()) + float(np.log1p(b_last)))
    post = np.zeros(lp.shape)
    post[:last, blank] = 1.0
    post[last, blank] = b_last / (1.0 + b_last)
    return nll, post


@reference
def ctc_loss_logits(x, labels, input_lengths, merge_repeated):
    """(loss (B,), d loss / d x (T, B, C)) of (T, B, C) logits (softmax inside), blank = C − 1;
    a sample with no alignment (loss ``inf``) gets gradient 0, and one with no labels the
    value of :func:`_empty_label_cpu_kernel`, as in MindSpore's CPU kernel."""
    blank = x.shape[2] - 1
    logits = x.astype(np.float64)
    shifted = logits - logits.max(axis=2, keepdims=True)
    lp = shifted - np.log(np.exp(shifted).sum(axis=2, keepdims=True))
    loss, grad = np.zeros(x.shape[1]), np.zeros(x.shape)
    for n in range(x.shape[1]):
        length = input_lengths[n]
        if len(labels[n]) == 0:
            loss[n], post = _empty_label_cpu_kernel(lp[:, n], length, blank)
            grad[:length, n] = np.exp(lp[:length, n]) - post[:length]
            continue
        nll, alpha, beta = ctc_alpha_beta(lp[:, n], labels[n], length, blank, merge_repeated)
        loss[n] = nll
        if not np.isfinite(nll):
            continue
        post = ctc_posterior(lp[:, n], labels[n], length, blank, alpha, beta, nll)
        grad[:length, n] = np.exp(lp[:length, n]) - post[:length]
    return loss.astype(x.dtype), grad.astype(x.dtype)
