"""``RandomSelectSubpolicy``: apply one randomly chosen sub-policy of an augmentation policy.

A policy is a list of sub-policies; a sub-policy is a list of ``(operation, prob)`` pairs.
Each call draws one sub-policy uniformly, then runs its operations in order, each with its
probability ``prob`` (the AutoAugment scheme: Cubuk et al., "AutoAugment: Learning
Augmentation Strategies from Data", 2019).
"""
from .base import rng

__all__ = ["RandomSelectSubpolicy"]


def _check_policy(policy):
    if not isinstance(policy, list) or not policy:
        raise ValueError(f"For 'RandomSelectSubpolicy', the 'policy' must be a non-empty list of "
                         f"sub-policies, but got {policy!r}.")
    for sub in policy:
        if not isinstance(sub, list) or not sub:
            raise ValueError(f"For 'RandomSelectSubpolicy', each sub-policy must be a non-empty "
                             f"list of (operation, prob), but got {sub!r}.")
        for pair in sub:
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise ValueError(f"For 'RandomSelectSubpolicy', each entry must be a 2-tuple "
                                 f"(operation, prob), but got {pair!r}.")
            if not callable(pair[0]):
                raise TypeError(f"For 'RandomSelectSubpolicy', the operation must be callable, "
                                f"but got {pair[0]!r}.")
            prob = pair[1]
            if isinstance(prob, bool) or not isinstance(prob, (int, float)):
                raise TypeError(f"For 'RandomSelectSubpolicy', the prob must be a number, but "
                                f"got {prob!r}.")
            if not 0 <= prob <= 1:
                raise ValueError(f"For 'RandomSelectSubpolicy', the prob must be in [0, 1], but "
                                 f"got {prob}.")
    return policy


class RandomSelectSubpolicy:
    """RandomSelectSubpolicy(policy)"""

    def __init__(self, policy):
        self.policy = _check_policy(policy)

    def __call__(self, image):
        generator = rng()
        sub = self.policy[int(generator.integers(len(self.policy)))]
        for operation, prob in sub:
            if generator.random() < prob:
                image = operation(image)
        return image
