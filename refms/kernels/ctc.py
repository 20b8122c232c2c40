"""Reference kernel of Connectionist Temporal Classification (Graves et al., ICML 2006), numpy.

For one sample with per-frame log-probabilities ``lp`` (T, C) and a label
sequence ``l`` of length L, the extended sequence ``l'`` puts a blank before,
between and after the labels (2L + 1 states).  In log space:

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
        two = np.where(skip, np.concatenate([[neg_inf, neg_inf], previous[:-2]]), neg_inf)
        alpha[t] = lp[t, ext] + _logsumexp(same, one, two)
    last = length - 1
    beta[last, -1] = lp[last, ext[-1]]
    if states > 1:
        beta[last, -2] = lp[last, ext[-2]]
    skip_next = np.concatenate([skip[2:], [False, False]])    # s + 2 may be entered from s
    for t in range(last - 1, -1, -1):
        following = beta[t + 1]
        same = np.where(stay, following, neg_inf)
        one = np.concatenate([following[1:], [neg_inf]])
        two = np.where(skip_next, np.concatenate([following[2:], [neg_inf, neg_inf]]), neg_inf)
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
